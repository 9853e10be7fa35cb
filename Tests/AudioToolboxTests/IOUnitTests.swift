import AudioDSP
import AudioToolbox
import DeviceTestSupport
import Foundation
import Testing

/// The I/O units against a real PulseAudio server with null sinks: what DefaultOutput plays is heard on
/// the "out" sink's monitor; what is played into the "mic" sink is what the input element records.
@Suite(.serialized, .audioServer) struct IOUnitTests {
    static func description(_ subType: UInt32) -> AudioComponentDescription {
        AudioComponentDescription(componentType: kAudioUnitType_Output, componentSubType: subType,
                                  componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
    }

    /// A phase-continuous sine for render callbacks: `frequency` Hz at `amplitude`, written to every buffer.
    final class Tone: @unchecked Sendable {
        let frequency: Double, amplitude: Double, rate: Double
        var phase = 0.0
        var frames = 0
        init(_ frequency: Double, amplitude: Double = 0.5, rate: Double = 44100) {
            self.frequency = frequency; self.amplitude = amplitude; self.rate = rate
        }
        static let callback: AURenderCallback = { refCon, _, _, _, frames, ioData in
            let tone = Unmanaged<Tone>.fromOpaque(refCon).takeUnretainedValue()
            let list = UnsafeMutableAudioBufferListPointer(ioData!)
            let step = 2 * Double.pi * tone.frequency / tone.rate
            for k in 0..<Int(frames) {
                let v = Float(tone.amplitude * sin(tone.phase + Double(k) * step))
                for b in list { b.mData!.assumingMemoryBound(to: Float.self)[k] = v }
            }
            tone.phase = (tone.phase + Double(frames) * step).truncatingRemainder(dividingBy: 2 * Double.pi)
            tone.frames += Int(frames)
            return noErr
        }
    }

    /// The tone in a capture: where it starts, its amplitude at `f` over a whole-period window, and the
    /// longest near-silent run inside the window (a dropout).
    func analyse(_ heard: [Float], _ f: Double, skip: Int = 4410, length: Int) throws -> (amplitude: Double, gap: Int) {
        let start = try #require(ToneAnalysis.onset(heard, threshold: 0.05), "nothing heard")
        let body = heard[(start + skip)...].prefix(length)
        #expect(body.count == length, "heard \(body.count) of \(length) frames")
        return (ToneAnalysis.fit(body, frequency: f, rate: 44100).amplitude, ToneAnalysis.longestGap(body))
    }

    /// DefaultOutput plays a 1 kHz tone from a render callback for 10 seconds: the sink hears it at 1 kHz
    /// and 0.5 amplitude without a dropout, and the callback was asked for 10 seconds of audio.
    @Test func defaultOutputPlaysATone() throws {
        let unit = try TestSupport.newUnit(Self.description(kAudioUnitSubType_DefaultOutput))
        defer { AudioComponentInstanceDispose(unit) }
        let tone = Tone(1000)
        var mono = OCAFormat.canonical(sampleRate: 44100, channels: 1)
        #expect(AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &mono,
                                     UInt32(MemoryLayout<AudioStreamBasicDescription>.size)) == noErr)
        #expect(TestSupport.setCallback(unit, 0, Tone.callback, Unmanaged.passUnretained(tone).toOpaque()) == noErr)
        #expect(AudioUnitInitialize(unit) == noErr)
        let capture = try PulseTestServer.Capture()
        Thread.sleep(forTimeInterval: 0.2)
        #expect(AudioOutputUnitStart(unit) == noErr)
        #expect(TestSupport.getUInt32(unit, kAudioOutputUnitProperty_IsRunning, kAudioUnitScope_Global, 0).1 == 1)
        Thread.sleep(forTimeInterval: 10.3)
        #expect(AudioOutputUnitStop(unit) == noErr)
        let heard = capture.finish()
        #expect(abs(Double(tone.frames) - 10.3 * 44100) < 0.3 * 44100, "rendered \(tone.frames) frames")
        for side in heard {
            let (amplitude, gap) = try analyse(side, 1000, length: 441_000)
            #expect(abs(amplitude - 0.5) < 0.01, "amplitude \(amplitude)")
            #expect(gap < 8, "a dropout of \(gap) frames")
        }
        let onset = try #require(ToneAnalysis.onset(heard[0], threshold: 0.05))
        let window = heard[0][(onset + 4410)...].prefix(441_000).map { Float($0) }
        let measured = window.withUnsafeBufferPointer { SignalMeasurement.zeroCrossingFrequency($0, sampleRate: 44100) }
        #expect(abs((measured ?? 0) - 1000) < 0.5, "frequency \(measured ?? 0)")
    }

    /// The same through a graph: render callback -> multichannel mixer -> DefaultOutput, started with AUGraphStart.
    @Test func graphPlaysThroughTheMixer() throws {
        var graph: AUGraph?
        #expect(NewAUGraph(&graph) == noErr)
        let g = try #require(graph)
        defer { DisposeAUGraph(g) }
        var outDesc = Self.description(kAudioUnitSubType_DefaultOutput)
        var mixDesc = AudioComponentDescription(componentType: kAudioUnitType_Mixer, componentSubType: kAudioUnitSubType_MultiChannelMixer,
                                                componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        var output = AUNode(), mixer = AUNode()
        #expect(AUGraphAddNode(g, &outDesc, &output) == noErr)
        #expect(AUGraphAddNode(g, &mixDesc, &mixer) == noErr)
        #expect(AUGraphOpen(g) == noErr)
        #expect(AUGraphConnectNodeInput(g, mixer, 0, output, 0) == noErr)
        var mixerUnit: AudioUnit?
        #expect(AUGraphNodeInfo(g, mixer, nil, &mixerUnit) == noErr)
        var count: UInt32 = 1
        #expect(AudioUnitSetProperty(mixerUnit!, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, &count, 4) == noErr)
        var mono = OCAFormat.canonical(sampleRate: 44100, channels: 1)
        #expect(AudioUnitSetProperty(mixerUnit!, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &mono,
                                     UInt32(MemoryLayout<AudioStreamBasicDescription>.size)) == noErr)
        let tone = Tone(440)
        var callback = AURenderCallbackStruct(inputProc: Tone.callback, inputProcRefCon: Unmanaged.passUnretained(tone).toOpaque())
        #expect(AUGraphSetNodeInputCallback(g, mixer, 0, &callback) == noErr)
        #expect(AUGraphInitialize(g) == noErr)
        AudioUnitSetParameter(mixerUnit!, kMultiChannelMixerParam_Volume, kAudioUnitScope_Input, 0, 0.5, 0)
        let capture = try PulseTestServer.Capture()
        Thread.sleep(forTimeInterval: 0.2)
        #expect(AUGraphStart(g) == noErr)
        Thread.sleep(forTimeInterval: 3)  // parec may still hold the last second when it is stopped
        #expect(AUGraphStop(g) == noErr)
        let heard = capture.finish()
        // A mono input centred by the constant-power law: 0.5 x 0.5 x cos(π/4) per side.
        let (amplitude, gap) = try analyse(heard[0], 440, length: 44100)
        #expect(abs(amplitude - 0.25 * 0.5.squareRoot()) < 0.005, "amplitude \(amplitude)")
        #expect(gap < 8)
    }

    /// AUHAL with input enabled (element 1) and output disabled, on the default input device: the input
    /// callback pulls with AudioUnitRender(bus 1) and gets what was played into the "mic" sink.
    @Test func halOutputRecordsTheInput() throws {
        let unit = try TestSupport.newUnit(Self.description(kAudioUnitSubType_HALOutput))
        defer { AudioComponentInstanceDispose(unit) }
        let recorder = Recorder(unit: unit)
        try recorder.configureInputOnly()
        #expect(AudioUnitInitialize(unit) == noErr)
        #expect(AudioOutputUnitStart(unit) == noErr)
        Thread.sleep(forTimeInterval: 0.3)
        let player = try PulseTestServer.startPlaying(PulseTestServer.stereoSine(660, seconds: 1.5, amplitude: 0.4))
        player.waitUntilExit()
        Thread.sleep(forTimeInterval: 0.3)
        #expect(AudioOutputUnitStop(unit) == noErr)
        #expect(recorder.failures == 0)
        let (amplitude, gap) = try analyse(recorder.samples, 660, length: 44100)
        #expect(abs(amplitude - 0.4) < 0.01, "amplitude \(amplitude)")
        #expect(gap < 8)
        #expect(recorder.timesIncreaseByFrames)
    }

    /// The input path converts sample rate: a 22050 Hz client records the 660 Hz tone at its own rate (pitch and
    /// level kept, about half as many frames), and the device keeps running at its own rate.
    @Test func inputConvertsSampleRate() throws {
        let unit = try TestSupport.newUnit(Self.description(kAudioUnitSubType_HALOutput))
        defer { AudioComponentInstanceDispose(unit) }
        let recorder = Recorder(unit: unit, rate: 22050)
        try recorder.configureInputOnly()
        #expect(AudioUnitInitialize(unit) == noErr)
        let deviceRate = TestSupport.format(unit, kAudioUnitScope_Input, 1).mSampleRate
        #expect(deviceRate == 44100)
        #expect(AudioOutputUnitStart(unit) == noErr)
        Thread.sleep(forTimeInterval: 0.3)
        let player = try PulseTestServer.startPlaying(PulseTestServer.stereoSine(660, seconds: 1.5, amplitude: 0.4))
        player.waitUntilExit()
        Thread.sleep(forTimeInterval: 0.3)
        #expect(AudioOutputUnitStop(unit) == noErr)
        #expect(recorder.failures == 0)
        let start = try #require(ToneAnalysis.onset(recorder.samples, threshold: 0.05))
        let body = recorder.samples[(start + 2205)...].prefix(22050)
        #expect(body.count == 22050)
        let amplitude = ToneAnalysis.fit(body, frequency: 660, rate: 22050).amplitude
        #expect(abs(amplitude - 0.4) < 0.01, "amplitude \(amplitude)")
        #expect(ToneAnalysis.longestGap(body) < 8)
        #expect(recorder.timesIncreaseByFrames)
    }

    /// Two recording units on one device: one keeps running while the other is initialized, started and
    /// uninitialized (without a stop first) again and again. AudioDeviceStop returns while the device's thread may
    /// still be inside the stopped unit's IOProc (the other keeps the device running; the slow input callback makes
    /// that likely), so uninitializing waits for that cycle before the unit's buffers go: a pull in that cycle
    /// still finds the unit initialized, and both keep recording without a failed render.
    @Test func uninitializeWhileAnotherUnitKeepsTheDeviceRunning() throws {
        let steady = try TestSupport.newUnit(Self.description(kAudioUnitSubType_HALOutput))
        defer { AudioComponentInstanceDispose(steady) }
        let cycling = try TestSupport.newUnit(Self.description(kAudioUnitSubType_HALOutput))
        defer { AudioComponentInstanceDispose(cycling) }
        let steadyRecorder = Recorder(unit: steady), cyclingRecorder = Recorder(unit: cycling, rate: 22050)
        cyclingRecorder.callbackDelay = 30000
        try steadyRecorder.configureInputOnly()
        try cyclingRecorder.configureInputOnly()
        #expect(AudioUnitInitialize(steady) == noErr)
        #expect(AudioOutputUnitStart(steady) == noErr)
        for _ in 0..<20 {
            #expect(AudioUnitInitialize(cycling) == noErr)
            #expect(AudioOutputUnitStart(cycling) == noErr)
            Thread.sleep(forTimeInterval: 0.05)
            #expect(AudioUnitUninitialize(cycling) == noErr)
        }
        Thread.sleep(forTimeInterval: 0.1)
        #expect(AudioOutputUnitStop(steady) == noErr)
        #expect(steadyRecorder.failures == 0 && cyclingRecorder.failures == 0)
        #expect(steadyRecorder.samples.count > 44100 / 2)
        #expect(!cyclingRecorder.samples.isEmpty)
    }

    /// Records the mono client format of the input element through the input callback.
    final class Recorder: @unchecked Sendable {
        let unit: AudioUnit
        var samples: [Float] = []
        var failures = 0
        var lastTime = -1.0, lastFrames = 0
        var timesIncreaseByFrames = true
        /// Microseconds the input callback sleeps before it pulls (a slow client: its cycles last long).
        var callbackDelay: UInt32 = 0
        let list = AudioBufferList.allocate(maximumBuffers: 1)
        let memory = UnsafeMutablePointer<Float>.allocate(capacity: 8192)
        let rate: Double
        init(unit: AudioUnit, rate: Double = 44100) {
            self.unit = unit
            self.rate = rate
            samples.reserveCapacity(44100 * 4)
        }
        deinit { free(list.unsafeMutablePointer); memory.deallocate() }

        func configureInputOnly() throws {
            #expect(TestSupport.setUInt32(unit, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 1, 1) == noErr)
            #expect(TestSupport.setUInt32(unit, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Output, 0, 0) == noErr)
            var address = AudioObjectPropertyAddress(mSelector: kAudioHardwarePropertyDefaultInputDevice, mScope: kAudioObjectPropertyScopeGlobal,
                                                     mElement: kAudioObjectPropertyElementMain)
            var device = AudioDeviceID(0)
            var size: UInt32 = 4
            #expect(AudioObjectGetPropertyData(AudioObjectID(kAudioObjectSystemObject), &address, 0, nil, &size, &device) == noErr)
            #expect(AudioUnitSetProperty(unit, kAudioOutputUnitProperty_CurrentDevice, kAudioUnitScope_Global, 0, &device, 4) == noErr)
            var mono = OCAFormat.canonical(sampleRate: rate, channels: 1)
            #expect(AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 1, &mono,
                                         UInt32(MemoryLayout<AudioStreamBasicDescription>.size)) == noErr)
            var callback = AURenderCallbackStruct(inputProc: Self.input, inputProcRefCon: Unmanaged.passUnretained(self).toOpaque())
            #expect(AudioUnitSetProperty(unit, kAudioOutputUnitProperty_SetInputCallback, kAudioUnitScope_Global, 0, &callback,
                                         UInt32(MemoryLayout<AURenderCallbackStruct>.size)) == noErr)
        }

        static let input: AURenderCallback = { refCon, flags, timeStamp, bus, frames, ioData in
            let r = Unmanaged<Recorder>.fromOpaque(refCon).takeUnretainedValue()
            #expect(ioData == nil && bus == 1)
            if r.callbackDelay > 0 { usleep(r.callbackDelay) }
            r.list[0] = AudioBuffer(mNumberChannels: 1, mDataByteSize: frames * 4, mData: UnsafeMutableRawPointer(r.memory))
            if AudioUnitRender(r.unit, flags, timeStamp, 1, frames, r.list.unsafeMutablePointer) != noErr { r.failures += 1; return noErr }
            r.samples.append(contentsOf: UnsafeBufferPointer(start: r.memory, count: Int(frames)))
            if r.lastTime >= 0 && timeStamp.pointee.mSampleTime != r.lastTime + Double(r.lastFrames) { r.timesIncreaseByFrames = false }
            if r.lastTime < 0 && timeStamp.pointee.mSampleTime != 0 { r.timesIncreaseByFrames = false }  // StartTimestampsAtZero
            r.lastTime = timeStamp.pointee.mSampleTime
            r.lastFrames = Int(frames)
            return noErr
        }
    }

    /// When each render of an output unit was asked for: the output timestamp's host time and the host clock then.
    final class RenderTimes: @unchecked Sendable {
        let lock = NSLock()
        var times: [(output: UInt64, called: UInt64)] = []
        var first: (output: UInt64, called: UInt64)? { lock.withLock { times.first } }
        static let callback: AURenderCallback = { refCon, _, timeStamp, _, frames, ioData in
            let log = Unmanaged<RenderTimes>.fromOpaque(refCon).takeUnretainedValue()
            let now = AudioGetCurrentHostTime()
            log.lock.withLock { if log.times.count < 1000 { log.times.append((timeStamp.pointee.mHostTime, now)) } }
            for b in UnsafeMutableAudioBufferListPointer(ioData!) { memset(b.mData!, 0, Int(b.mDataByteSize)) }
            return noErr
        }
    }

    /// kAudioOutputUnitProperty_StartTime (write-only): the next Start begins at the host time given, the first
    /// render's output time at or after it by less than a period; the Start after that begins at once.
    @Test func startTimeDelaysTheNextStartOnly() throws {
        let unit = try TestSupport.newUnit(Self.description(kAudioUnitSubType_HALOutput))
        defer { AudioComponentInstanceDispose(unit) }
        let log = RenderTimes()
        #expect(TestSupport.setCallback(unit, 0, RenderTimes.callback, Unmanaged.passUnretained(log).toOpaque()) == noErr)
        #expect(AudioUnitInitialize(unit) == noErr)
        var size: UInt32 = 0
        var writable = DarwinBoolean(false)
        #expect(AudioUnitGetPropertyInfo(unit, kAudioOutputUnitProperty_StartTime, kAudioUnitScope_Global, 0, &size, &writable) == noErr)
        #expect(size == UInt32(MemoryLayout<AudioOutputUnitStartAtTimeParams>.size) && writable.boolValue)
        var params = AudioOutputUnitStartAtTimeParams()
        #expect(AudioUnitGetProperty(unit, kAudioOutputUnitProperty_StartTime, kAudioUnitScope_Global, 0, &params, &size) == kAudioUnitErr_InvalidProperty)

        let asked = AudioGetCurrentHostTime() + 800_000_000
        params.mTimestamp.mHostTime = asked
        params.mTimestamp.mFlags = .hostTimeValid
        params.mFlags = 0
        #expect(AudioUnitSetProperty(unit, kAudioOutputUnitProperty_StartTime, kAudioUnitScope_Global, 0, &params,
                                     UInt32(MemoryLayout<AudioOutputUnitStartAtTimeParams>.size)) == noErr)
        #expect(AudioOutputUnitStart(unit) == noErr)
        Thread.sleep(forTimeInterval: 1.3)
        #expect(AudioOutputUnitStop(unit) == noErr)
        let first = try #require(log.first, "never rendered")
        let period = Double(TestSupport.getUInt32(unit, kAudioDevicePropertyBufferFrameSize, kAudioUnitScope_Global, 0).1) / 44100
        let slack = Double(Int64(bitPattern: first.output &- asked)) / 1e9
        #expect(slack > -0.003 && slack < max(period, 0.1) + 0.003, "first output \(slack) s after the time asked")
        // Rendered ahead of its output time by the device's latency, but not from the Start call on.
        #expect(Double(Int64(bitPattern: asked &- first.called)) / 1e9 < 0.4, "rendered \(Double(Int64(bitPattern: asked &- first.called)) / 1e9) s early")

        // The next Start is not delayed.
        log.lock.withLock { log.times.removeAll() }
        let started = AudioGetCurrentHostTime()
        #expect(AudioOutputUnitStart(unit) == noErr)
        Thread.sleep(forTimeInterval: 0.5)
        #expect(AudioOutputUnitStop(unit) == noErr)
        let again = try #require(log.first, "never rendered")
        #expect(Double(again.called &- started) / 1e9 < 0.3)
    }

    /// Properties and rules: bus layout, EnableIO scopes, read-only device sides, what DefaultOutput refuses.
    @Test func busLayoutAndRules() throws {
        let hal = try TestSupport.newUnit(Self.description(kAudioUnitSubType_HALOutput))
        defer { AudioComponentInstanceDispose(hal) }
        #expect(TestSupport.getUInt32(hal, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Output, 0).1 == 1)
        #expect(TestSupport.getUInt32(hal, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 1).1 == 0)
        #expect(TestSupport.getUInt32(hal, kAudioOutputUnitProperty_HasIO, kAudioUnitScope_Input, 1).1 == 1)
        #expect(TestSupport.setUInt32(hal, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 0, 1) == kAudioUnitErr_InvalidElement)
        #expect(TestSupport.setUInt32(hal, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Global, 0, 1) == kAudioUnitErr_InvalidScope)
        let device = TestSupport.format(hal, kAudioUnitScope_Output, 0)
        #expect(device.mChannelsPerFrame == 2 && device.mFormatFlags & kAudioFormatFlagIsNonInterleaved == 0)
        #expect(TestSupport.setFormat(hal, kAudioUnitScope_Output, 0, OCAFormat.canonical(sampleRate: 44100, channels: 2)) != noErr)
        #expect(TestSupport.setFormat(hal, kAudioUnitScope_Input, 0, OCAFormat.canonical(sampleRate: 22050, channels: 1)) == noErr)
        #expect(TestSupport.getUInt32(hal, kAudioOutputUnitProperty_StartTimestampsAtZero, kAudioUnitScope_Global, 0).1 == 1)
        var bogus = AudioDeviceID(424242)
        #expect(AudioUnitSetProperty(hal, kAudioOutputUnitProperty_CurrentDevice, kAudioUnitScope_Global, 0, &bogus, 4) == kAudioUnitErr_InvalidPropertyValue)
        let def = try TestSupport.newUnit(Self.description(kAudioUnitSubType_DefaultOutput))
        defer { AudioComponentInstanceDispose(def) }
        #expect(TestSupport.setUInt32(def, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 1, 1) == kAudioUnitErr_InvalidPropertyValue)
        var device0 = AudioDeviceID(0)
        #expect(AudioUnitSetProperty(def, kAudioOutputUnitProperty_CurrentDevice, kAudioUnitScope_Global, 0, &device0, 4) == kAudioUnitErr_PropertyNotWritable)
        #expect(AudioOutputUnitStart(def) == kAudioUnitErr_Uninitialized)
    }
}
