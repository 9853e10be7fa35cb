import AudioToolbox
import DeviceTestSupport
import Foundation
import Testing

/// The book's device programs, end to end on the PulseAudio server: chapter 8's play-through (input unit ->
/// CARingBuffer -> output unit) and chapter 10's ring modulator (RemoteIO duplex), and what happens when the
/// server dies while playing.
@Suite(.serialized, .audioServer) struct DeviceScenarioTests {
    static let rate = 44100.0

    func unit(_ subType: UInt32) throws -> AudioUnit {
        try TestSupport.newUnit(AudioComponentDescription(componentType: kAudioUnitType_Output, componentSubType: subType,
                                                          componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0))
    }

    /// What the "out" sink heard of a tone: its amplitude at `f`, a second after it started.
    func heardAmplitude(_ heard: [Float], _ f: Double) throws -> Double {
        let onset = ToneAnalysis.onset(heard, threshold: 0.05)
        let start = try #require(onset, "nothing heard")
        let body = heard[(start + 4410)...].prefix(22050)
        #expect(body.count == 22050)
        return ToneAnalysis.fit(body, frequency: f, rate: Self.rate).amplitude
    }

    /// Chapter 8: the input unit's callback renders bus 1 and Stores it in a CARingBuffer at its sample time;
    /// the output unit's render callback Fetches at its own sample time plus the input-to-output offset.
    final class PlayThrough: @unchecked Sendable {
        let input: AudioUnit
        let ring = CARingBuffer()
        let list = AudioBufferList.allocate(maximumBuffers: 1)
        let memory = UnsafeMutablePointer<Float>.allocate(capacity: 8192)
        var firstInputTime = -1.0, firstOutputTime = -1.0, offset = -1.0
        var stored = 0, fetchErrors = 0

        init(input: AudioUnit) {
            self.input = input
            ring.Allocate(1, 4, 44100)
        }
        deinit { ring.Deallocate(); free(list.unsafeMutablePointer); memory.deallocate() }

        static let inputProc: AURenderCallback = { refCon, flags, timeStamp, _, frames, _ in
            let p = Unmanaged<PlayThrough>.fromOpaque(refCon).takeUnretainedValue()
            if p.firstInputTime < 0 {
                p.firstInputTime = timeStamp.pointee.mSampleTime
                if p.firstOutputTime >= 0 && p.offset < 0 { p.offset = p.firstInputTime - p.firstOutputTime }
            }
            p.list[0] = AudioBuffer(mNumberChannels: 1, mDataByteSize: frames * 4, mData: UnsafeMutableRawPointer(p.memory))
            let status = AudioUnitRender(p.input, flags, timeStamp, 1, frames, p.list.unsafeMutablePointer)
            guard status == noErr else { return status }
            _ = p.ring.Store(p.list.unsafePointer, frames, CARingBuffer.SampleTime(timeStamp.pointee.mSampleTime))
            p.stored += Int(frames)
            return noErr
        }

        static let outputProc: AURenderCallback = { refCon, _, timeStamp, _, frames, ioData in
            let p = Unmanaged<PlayThrough>.fromOpaque(refCon).takeUnretainedValue()
            if p.firstOutputTime < 0 {
                p.firstOutputTime = timeStamp.pointee.mSampleTime
                if p.firstInputTime >= 0 && p.offset < 0 { p.offset = p.firstInputTime - p.firstOutputTime }
            }
            let status = p.ring.Fetch(ioData!, frames, CARingBuffer.SampleTime(timeStamp.pointee.mSampleTime + p.offset))
            if status != kCARingBufferError_OK { p.fetchErrors += 1 }
            return noErr
        }
    }

    @Test(.timeLimit(.minutes(1))) func chapter8PlayThrough() throws {
        let input = try unit(kAudioUnitSubType_HALOutput)
        let output = try unit(kAudioUnitSubType_DefaultOutput)
        defer { AudioComponentInstanceDispose(input); AudioComponentInstanceDispose(output) }
        let through = PlayThrough(input: input)
        #expect(TestSupport.setUInt32(input, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 1, 1) == noErr)
        #expect(TestSupport.setUInt32(input, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Output, 0, 0) == noErr)
        var mono = OCAFormat.canonical(sampleRate: Self.rate, channels: 1)
        let size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        #expect(AudioUnitSetProperty(input, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 1, &mono, size) == noErr)
        #expect(AudioUnitSetProperty(output, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &mono, size) == noErr)
        var inputCallback = AURenderCallbackStruct(inputProc: PlayThrough.inputProc, inputProcRefCon: Unmanaged.passUnretained(through).toOpaque())
        #expect(AudioUnitSetProperty(input, kAudioOutputUnitProperty_SetInputCallback, kAudioUnitScope_Global, 0, &inputCallback,
                                     UInt32(MemoryLayout<AURenderCallbackStruct>.size)) == noErr)
        #expect(TestSupport.setCallback(output, 0, PlayThrough.outputProc, Unmanaged.passUnretained(through).toOpaque()) == noErr)
        #expect(AudioUnitInitialize(input) == noErr && AudioUnitInitialize(output) == noErr)
        #expect(AudioOutputUnitStart(input) == noErr)
        #expect(AudioOutputUnitStart(output) == noErr)
        let capture = try PulseTestServer.Capture()
        Thread.sleep(forTimeInterval: 0.3)
        let player = try PulseTestServer.startPlaying(PulseTestServer.stereoSine(700, seconds: 2, amplitude: 0.4))
        player.waitUntilExit()
        Thread.sleep(forTimeInterval: 0.5)
        #expect(AudioOutputUnitStop(output) == noErr && AudioOutputUnitStop(input) == noErr)
        let heard = capture.finish()
        #expect(through.stored > 44100 && through.fetchErrors == 0)
        // Played at 0.4 into the "mic", recorded, passed through the ring buffer, played to "out": 0.4 on both sides.
        for side in heard {
            let amplitude = try heardAmplitude(side, 700)
            #expect(abs(amplitude - 0.4) < 0.01, "amplitude \(amplitude)")
        }
    }

    /// Chapter 10: RemoteIO with input enabled; its bus 0 render callback pulls the microphone with
    /// AudioUnitRender(bus 1) into ioData and multiplies it by a 200 Hz sine. A 1 kHz input comes out as
    /// 800 Hz and 1200 Hz at half its amplitude each (client format: 16-bit mono, converted both ways).
    final class RingModulator: @unchecked Sendable {
        var unit: AudioUnit?
        var phase = 0.0
        var renderErrors = 0
        static let callback: AURenderCallback = { refCon, flags, timeStamp, _, frames, ioData in
            let r = Unmanaged<RingModulator>.fromOpaque(refCon).takeUnretainedValue()
            let status = AudioUnitRender(r.unit!, flags, timeStamp, 1, frames, ioData!)
            guard status == noErr else { r.renderErrors += 1; return status }
            let samples = UnsafeMutableAudioBufferListPointer(ioData!)[0].mData!.assumingMemoryBound(to: Int16.self)
            for k in 0..<Int(frames) {
                samples[k] = Int16((Double(samples[k]) * sin(r.phase)).rounded())
                r.phase += 2 * Double.pi * 200 / 44100
            }
            r.phase = r.phase.truncatingRemainder(dividingBy: 2 * Double.pi)
            return noErr
        }
    }

    @Test(.timeLimit(.minutes(1))) func chapter10RingModulator() throws {
        let rio = try unit(kAudioUnitSubType_RemoteIO)
        defer { AudioComponentInstanceDispose(rio) }
        let ring = RingModulator()
        ring.unit = rio
        #expect(TestSupport.setUInt32(rio, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 1, 1) == noErr)
        var int16 = OCAFormat.linearPCM(sampleRate: Self.rate, channels: 1, bitsPerChannel: 16, isFloat: false, isSignedInteger: true, interleaved: true)
        let size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        #expect(AudioUnitSetProperty(rio, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &int16, size) == noErr)
        #expect(AudioUnitSetProperty(rio, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 1, &int16, size) == noErr)
        #expect(TestSupport.setCallback(rio, 0, RingModulator.callback, Unmanaged.passUnretained(ring).toOpaque()) == noErr)
        #expect(AudioUnitInitialize(rio) == noErr)
        #expect(AudioOutputUnitStart(rio) == noErr)
        let capture = try PulseTestServer.Capture()
        Thread.sleep(forTimeInterval: 0.3)
        let player = try PulseTestServer.startPlaying(PulseTestServer.stereoSine(1000, seconds: 2, amplitude: 0.4))
        player.waitUntilExit()
        Thread.sleep(forTimeInterval: 0.5)
        #expect(AudioOutputUnitStop(rio) == noErr)
        let heard = capture.finish()
        #expect(ring.renderErrors == 0)
        let onset = ToneAnalysis.onset(heard[0], threshold: 0.05)
        let start = try #require(onset, "nothing heard")
        let body = heard[0][(start + 4410)...].prefix(22050)
        let lower = ToneAnalysis.fit(body, frequency: 800, rate: Self.rate).amplitude
        let upper = ToneAnalysis.fit(body, frequency: 1200, rate: Self.rate).amplitude
        let carrier = ToneAnalysis.fit(body, frequency: 1000, rate: Self.rate).amplitude
        #expect(abs(lower - 0.2) < 0.01 && abs(upper - 0.2) < 0.01, "sidebands \(lower) \(upper)")
        #expect(carrier < 0.005, "carrier \(carrier)")
    }

    /// The server dies while DefaultOutput plays: the device stops being alive, the unit stops (IsRunning
    /// listeners told, LastRenderError says why) without a crash or hang; when the server is back, the
    /// device comes back alive under the same ID and plays again.
    @Test(.timeLimit(.minutes(1))) func serverDeathStopsTheUnit() throws {
        let output = try unit(kAudioUnitSubType_DefaultOutput)
        defer { AudioComponentInstanceDispose(output) }
        final class Tone: @unchecked Sendable { var phase = 0.0 }
        let tone = Tone()
        #expect(TestSupport.setCallback(output, 0, { refCon, _, _, _, frames, ioData in
            let t = Unmanaged<Tone>.fromOpaque(refCon).takeUnretainedValue()
            for b in UnsafeMutableAudioBufferListPointer(ioData!) {
                for k in 0..<Int(frames) { b.mData!.assumingMemoryBound(to: Float.self)[k] = Float(0.3 * sin(t.phase + Double(k) * 0.1)) }
            }
            t.phase += Double(frames) * 0.1
            return noErr
        }, Unmanaged.passUnretained(tone).toOpaque()) == noErr)
        #expect(AudioUnitInitialize(output) == noErr)
        #expect(AudioOutputUnitStart(output) == noErr)
        var device = AudioDeviceID(0)
        var size: UInt32 = 4
        #expect(AudioUnitGetProperty(output, kAudioOutputUnitProperty_CurrentDevice, kAudioUnitScope_Global, 0, &device, &size) == noErr)
        Thread.sleep(forTimeInterval: 0.5)
        PulseTestServer.stopServer()  // the private test server, never the user's
        func alive() -> UInt32 {
            var a = AudioObjectPropertyAddress(mSelector: kAudioDevicePropertyDeviceIsAlive, mScope: kAudioObjectPropertyScopeGlobal,
                                               mElement: kAudioObjectPropertyElementMain)
            var v: UInt32 = 9
            var s: UInt32 = 4
            return AudioObjectGetPropertyData(device, &a, 0, nil, &s, &v) == noErr ? v : 9
        }
        let deadline = Date(timeIntervalSinceNow: 8)
        while TestSupport.getUInt32(output, kAudioOutputUnitProperty_IsRunning, kAudioUnitScope_Global, 0).1 != 0 && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(TestSupport.getUInt32(output, kAudioOutputUnitProperty_IsRunning, kAudioUnitScope_Global, 0).1 == 0)
        // Not alive: either still listed and dead, or gone from ALSA's list (without the server, the
        // PulseAudio plugin's devices leave the configuration) and so no longer an object.
        #expect(alive() != 1)
        var error: OSStatus = 0
        size = 4
        #expect(AudioUnitGetProperty(output, kAudioUnitProperty_LastRenderError, kAudioUnitScope_Global, 0, &error, &size) == noErr)
        #expect(error == kAudioHardwareNotRunningError)
        #expect(AudioOutputUnitStart(output) != noErr)
        // The server comes back: the device is alive again and plays.
        #expect(PulseTestServer.prepare())
        let back = Date(timeIntervalSinceNow: 8)
        while alive() != 1 && Date() < back { Thread.sleep(forTimeInterval: 0.1) }
        #expect(alive() == 1)
        #expect(AudioOutputUnitStart(output) == noErr)
        Thread.sleep(forTimeInterval: 0.3)
        #expect(TestSupport.getUInt32(output, kAudioOutputUnitProperty_IsRunning, kAudioUnitScope_Global, 0).1 == 1)
        #expect(AudioOutputUnitStop(output) == noErr)
    }
}
