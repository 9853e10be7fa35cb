// The everyday AVAudioEngine idioms, as they appear in apps and answers: attach/connect with a nil format,
// the configuration-change observer, looping buffers, completion callback types, instantiating Apple's
// audio units by description (completion handler and async), the async schedule calls, sink nodes,
// connection points, the manual rendering block, AVAudioTime arithmetic.
import AVFoundation
import Foundation
import Testing

/// Things shared with render threads and detached tasks in these tests.
final class Shared<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var _value: Value
    init(_ value: Value) { _value = value }
    var value: Value {
        get { lock.lock(); defer { lock.unlock() }; return _value }
        set { lock.lock(); _value = newValue; lock.unlock() }
    }
    func mutate(_ body: (inout Value) -> Void) { lock.lock(); body(&_value); lock.unlock() }
}

@Suite struct EngineIdiomsClientTests {
    static func sine(format: AVAudioFormat, frames: AVAudioFrameCount, amplitude: Float = 0.5) -> AVAudioPCMBuffer {
        let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: frames)!
        buffer.frameLength = frames
        for channel in 0..<Int(format.channelCount) {
            for n in 0..<Int(frames) {
                buffer.floatChannelData![channel][n] = amplitude * Float(sin(2 * Double.pi * 441 * Double(n) / format.sampleRate))
            }
        }
        return buffer
    }

    static func peak(_ buffer: AVAudioPCMBuffer) -> Float {
        var peak: Float = 0
        for channel in 0..<Int(buffer.format.channelCount) {
            for n in 0..<Int(buffer.frameLength) { peak = max(peak, abs(buffer.floatChannelData![channel][n])) }
        }
        return peak
    }

    @Test func attachConnectWithNilFormatAndTheConfigurationObserver() throws {
        let engine = AVAudioEngine()
        let player = AVAudioPlayerNode()
        let changes = Shared(0)
        let observer = NotificationCenter.default.addObserver(forName: .AVAudioEngineConfigurationChange, object: engine, queue: nil) { _ in
            changes.mutate { $0 += 1 }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        #expect(NSNotification.Name.AVAudioEngineConfigurationChange.rawValue == "AVAudioEngineConfigurationChangeNotification")

        engine.attach(player)
        #expect(engine.attachedNodes.contains(player))
        #expect(player.engine === engine)
        let format = AVAudioFormat(standardFormatWithSampleRate: 44100, channels: 2)!
        try engine.enableManualRenderingMode(.offline, format: format, maximumFrameCount: 4096)
        engine.connect(player, to: engine.mainMixerNode, format: nil)
        // format nil: the mixer's output format, the manual rendering format.
        #expect(player.outputFormat(forBus: 0) == engine.mainMixerNode.outputFormat(forBus: 0))
        #expect(engine.mainMixerNode.outputFormat(forBus: 0).sampleRate == 44100)
        #expect(engine.outputNode.outputFormat(forBus: 0) == format)
        let points = engine.outputConnectionPoints(for: player, outputBus: 0)
        #expect(points.count == 1 && points.first?.node === engine.mainMixerNode && points.first?.bus == 0)
        #expect(engine.inputConnectionPoint(for: engine.mainMixerNode, inputBus: 0)?.node === player)

        let buffer = Self.sine(format: format, frames: 441)
        player.scheduleBuffer(buffer, at: nil, options: .loops, completionHandler: nil)
        engine.prepare()
        try engine.start()
        #expect(engine.isRunning)
        player.play()
        #expect(player.isPlaying)
        let out = AVAudioPCMBuffer(pcmFormat: engine.manualRenderingFormat, frameCapacity: 4096)!
        #expect(try engine.renderOffline(4096, to: out) == .success)
        #expect(out.frameLength == 4096)
        #expect(abs(Self.peak(out) - 0.5) < 0.01)
        #expect(player.lastRenderTime?.isSampleTimeValid == true)
        #expect(player.lastRenderTime?.sampleTime == 0)
        player.stop()
        #expect(!player.isPlaying)
        engine.stop()
        #expect(!engine.isRunning)
        // Manual rendering mode: no device, no configuration change.
        #expect(changes.value == 0)

        engine.disconnectNodeOutput(player)
        #expect(engine.outputConnectionPoints(for: player, outputBus: 0).isEmpty)
        engine.detach(player)
        #expect(!engine.attachedNodes.contains(player))
        #expect(player.engine == nil)
    }

    @Test func instantiateAppleUnitsByDescription() async throws {
        var description = AudioComponentDescription()
        description.componentType = kAudioUnitType_Effect
        description.componentSubType = kAudioUnitSubType_Delay
        description.componentManufacturer = kAudioUnitManufacturer_Apple
        description.componentFlags = 0
        description.componentFlagsMask = 0

        // The completion-handler form.
        let instantiated = Shared<AVAudioUnit?>(nil)
        let done = DispatchSemaphore(value: 0)
        AVAudioUnit.instantiate(with: description, options: []) { avAudioUnit, error in
            #expect(error == nil)
            instantiated.value = avAudioUnit
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 5) == .success)
        let delay = try #require(instantiated.value)
        #expect(delay.audioComponentDescription.componentSubType == kAudioUnitSubType_Delay)
        #expect(delay.name.isEmpty == false)
        #expect(delay.manufacturerName == "Apple")
        #expect(delay is AVAudioUnitEffect)

        // The async form.
        description.componentSubType = kAudioUnitSubType_Reverb2
        let reverb = try await AVAudioUnit.instantiate(with: description, options: [])
        #expect(reverb.audioComponentDescription.componentSubType == kAudioUnitSubType_Reverb2)
        #expect(reverb is AVAudioUnitEffect)

        // The unit works in a graph like the typed ones.
        let engine = AVAudioEngine()
        let player = AVAudioPlayerNode()
        engine.attach(player)
        engine.attach(delay)
        let format = AVAudioFormat(standardFormatWithSampleRate: 44100, channels: 2)!
        engine.connect(player, to: delay, format: format)
        engine.connect(delay, to: engine.mainMixerNode, format: format)
        try engine.enableManualRenderingMode(.offline, format: format, maximumFrameCount: 4096)
        // The delay's parameters through the v2 audio unit underneath.
        #expect(AudioUnitSetParameter(delay.audioUnit, kDelayParam_WetDryMix, kAudioUnitScope_Global, 0, 0, 0) == noErr)
        var wetDry: AudioUnitParameterValue = -1
        #expect(AudioUnitGetParameter(delay.audioUnit, kDelayParam_WetDryMix, kAudioUnitScope_Global, 0, &wetDry) == noErr)
        #expect(wetDry == 0)
        player.scheduleBuffer(Self.sine(format: format, frames: 4096), at: nil, options: [], completionHandler: nil)
        try engine.start()
        player.play()
        let out = AVAudioPCMBuffer(pcmFormat: engine.manualRenderingFormat, frameCapacity: 4096)!
        #expect(try engine.renderOffline(4096, to: out) == .success)
        #expect(abs(Self.peak(out) - 0.5) < 0.02, "dry through the delay: \(Self.peak(out))")
        engine.stop()
    }

    @Test func asyncScheduleCallsReturnTheirCallbackType() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("client-idioms-\(UUID().uuidString).caf")
        defer { try? FileManager.default.removeItem(at: url) }
        let format = AVAudioFormat(standardFormatWithSampleRate: 44100, channels: 2)!
        do {
            let file = try AVAudioFile(forWriting: url, settings: format.settings)
            try file.write(from: Self.sine(format: format, frames: 8820))
        }
        let file = try AVAudioFile(forReading: url)
        #expect(file.length == 8820)

        final class Rig: @unchecked Sendable {
            let engine = AVAudioEngine()
            let player = AVAudioPlayerNode()
            let stop = Shared(false)
            let rendered = Shared<AVAudioFramePosition>(0)
        }
        let rig = Rig()
        rig.engine.attach(rig.player)
        rig.engine.connect(rig.player, to: rig.engine.mainMixerNode, format: file.processingFormat)
        try rig.engine.enableManualRenderingMode(.offline, format: format, maximumFrameCount: 1024)
        try rig.engine.start()
        rig.player.play()
        // The "device": a thread pulling the engine until the test is done.
        let renderer = Task.detached {
            let out = AVAudioPCMBuffer(pcmFormat: rig.engine.manualRenderingFormat, frameCapacity: 1024)!
            var slices = 0
            while !rig.stop.value && slices < 20000 {
                _ = try? rig.engine.renderOffline(1024, to: out)
                rig.rendered.mutate { $0 += 1024 }
                slices += 1
                try? await Task.sleep(nanoseconds: 1_000_000)
            }
        }
        let fileType = await rig.player.scheduleFile(file, at: nil, completionCallbackType: .dataPlayedBack)
        #expect(fileType == .dataPlayedBack)
        let buffer = Self.sine(format: format, frames: 2048)
        let bufferType = await rig.player.scheduleBuffer(buffer, at: nil, options: [], completionCallbackType: .dataConsumed)
        #expect(bufferType == .dataConsumed)
        let segmentType = await rig.player.scheduleSegment(file, startingFrame: 4410, frameCount: 1000, at: nil,
                                                           completionCallbackType: .dataRendered)
        #expect(segmentType == .dataRendered)
        rig.stop.value = true
        await renderer.value
        #expect(rig.rendered.value >= 8820 + 2048 + 1000)
        rig.engine.stop()
    }

    @Test func sinkNodeReceivesWhatTheSourceMakes() throws {
        let engine = AVAudioEngine()
        let format = AVAudioFormat(standardFormatWithSampleRate: 48000, channels: 1)!
        let received = Shared<[Float]>([])
        let sink = AVAudioSinkNode { _, frameCount, audioBufferList -> OSStatus in
            let abl = UnsafeMutableAudioBufferListPointer(UnsafeMutablePointer(mutating: audioBufferList))
            let samples = UnsafeMutableBufferPointer<Float>(abl[0])
            received.mutate { $0 += samples.prefix(Int(frameCount)) }
            return noErr
        }
        var value: Float = 0
        let source = AVAudioSourceNode(format: format) { isSilence, _, frameCount, audioBufferList -> OSStatus in
            isSilence.pointee = false
            let abl = UnsafeMutableAudioBufferListPointer(audioBufferList)
            for frame in 0..<Int(frameCount) {
                value += 0.001
                for buffer in abl { UnsafeMutableBufferPointer<Float>(buffer)[frame] = value }
            }
            return noErr
        }
        engine.attach(source)
        engine.attach(sink)
        engine.connect(source, to: sink, format: format)
        // The sink's chain is pulled by the engine; the main mixer keeps the output node fed.
        _ = engine.mainMixerNode
        try engine.enableManualRenderingMode(.offline, format: format, maximumFrameCount: 256)
        try engine.start()
        let out = AVAudioPCMBuffer(pcmFormat: engine.manualRenderingFormat, frameCapacity: 256)!
        for _ in 0..<4 { _ = try engine.renderOffline(256, to: out) }
        engine.stop()
        let got = received.value
        #expect(got.count == 1024, "\(got.count) frames reached the sink")
        if got.count >= 2 {
            #expect(abs(got[0] - 0.001) < 1e-6)
            #expect(abs(got[1] - got[0] - 0.001) < 1e-5)
        }
    }

    @Test func oneSourceToTwoMixersWithConnectionPoints() throws {
        let engine = AVAudioEngine()
        let player = AVAudioPlayerNode()
        let left = AVAudioMixerNode()
        let right = AVAudioMixerNode()
        let format = AVAudioFormat(standardFormatWithSampleRate: 44100, channels: 2)!
        [player, left, right].forEach { engine.attach($0) }
        engine.connect(left, to: engine.mainMixerNode, fromBus: 0, toBus: engine.mainMixerNode.nextAvailableInputBus, format: format)
        engine.connect(right, to: engine.mainMixerNode, fromBus: 0, toBus: engine.mainMixerNode.nextAvailableInputBus, format: format)
        let points = [AVAudioConnectionPoint(node: left, bus: 0), AVAudioConnectionPoint(node: right, bus: 0)]
        engine.connect(player, to: points, fromBus: 0, format: format)
        #expect(engine.outputConnectionPoints(for: player, outputBus: 0).count == 2)
        left.pan = -1
        right.pan = 1
        left.outputVolume = 0.5
        right.outputVolume = 0.25
        // The player's own mixing settings per destination.
        let toLeft = try #require(player.destination(forMixer: left, bus: 0))
        toLeft.volume = 1
        #expect(toLeft.volume == 1)
        try engine.enableManualRenderingMode(.offline, format: format, maximumFrameCount: 4096)
        player.scheduleBuffer(Self.sine(format: format, frames: 4096), completionHandler: nil)
        try engine.start()
        player.play()
        let out = AVAudioPCMBuffer(pcmFormat: engine.manualRenderingFormat, frameCapacity: 4096)!
        #expect(try engine.renderOffline(4096, to: out) == .success)
        // Both copies play: the sum of the two submixes has more in it than either.
        #expect(Self.peak(out) > 0.2)
    }

    @Test func manualRenderingBlockAndRealtimeMode() throws {
        let engine = AVAudioEngine()
        let format = AVAudioFormat(standardFormatWithSampleRate: 44100, channels: 2)!
        let player = AVAudioPlayerNode()
        engine.attach(player)
        engine.connect(player, to: engine.mainMixerNode, format: format)
        try engine.enableManualRenderingMode(.realtime, format: format, maximumFrameCount: 512)
        #expect(engine.manualRenderingMode == .realtime)
        #expect(engine.manualRenderingMaximumFrameCount == 512)
        player.scheduleBuffer(Self.sine(format: format, frames: 512, amplitude: 0.25), at: nil, options: .loops, completionHandler: nil)
        try engine.start()
        player.play()
        let renderBlock = engine.manualRenderingBlock
        let out = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 512)!
        out.frameLength = 512
        var status: OSStatus = noErr
        let result = renderBlock(512, out.mutableAudioBufferList, &status)
        #expect(result == .success && status == noErr)
        #expect(abs(Self.peak(out) - 0.25) < 0.01)
        #expect(engine.manualRenderingSampleTime == 512)
        engine.stop()
    }

    @Test func audioTimeArithmetic() {
        let rate = 48000.0
        let sampleTime = AVAudioTime(sampleTime: 96000, atRate: rate)
        #expect(sampleTime.isSampleTimeValid && !sampleTime.isHostTimeValid)
        #expect(sampleTime.sampleTime == 96000 && sampleTime.sampleRate == rate)
        let seconds = Double(sampleTime.sampleTime) / sampleTime.sampleRate
        #expect(seconds == 2)
        let host = AVAudioTime.hostTime(forSeconds: 1.5)
        #expect(abs(AVAudioTime.seconds(forHostTime: host) - 1.5) < 1e-6)
        let hostTime = AVAudioTime(hostTime: mach_absolute_time())
        #expect(hostTime.isHostTimeValid && !hostTime.isSampleTimeValid)
        let both = AVAudioTime(hostTime: host, sampleTime: 1000, atRate: rate)
        #expect(both.isHostTimeValid && both.isSampleTimeValid)
        // Extrapolate a sample-only time against an anchor holding both.
        let later = AVAudioTime(sampleTime: 1000 + 48000, atRate: rate)
        let extrapolated = later.extrapolateTime(fromAnchor: both)
        #expect(extrapolated?.isHostTimeValid == true)
        if let extrapolated {
            #expect(abs(AVAudioTime.seconds(forHostTime: extrapolated.hostTime) - 2.5) < 1e-3)
        }
        var stamp = AudioTimeStamp()
        stamp.mSampleTime = 42
        stamp.mFlags = .sampleTimeValid
        let fromStamp = AVAudioTime(audioTimeStamp: &stamp, sampleRate: rate)
        #expect(fromStamp.sampleTime == 42)
        #expect(fromStamp.audioTimeStamp.mFlags.contains(.sampleTimeValid))
    }

    @Test func effectUnitsProperties() throws {
        let distortion = AVAudioUnitDistortion()
        distortion.loadFactoryPreset(.speechWaves)
        distortion.preGain = -6
        distortion.wetDryMix = 40
        #expect(distortion.preGain == -6 && distortion.wetDryMix == 40)
        let eq = AVAudioUnitEQ(numberOfBands: 3)
        eq.bands[0].filterType = .lowShelf
        eq.bands[1].filterType = .bandPass
        eq.bands[2].filterType = .highPass
        eq.bands[2].frequency = 80
        #expect(eq.bands.map(\.filterType) == [.lowShelf, .bandPass, .highPass])
        let timePitch = AVAudioUnitTimePitch()
        timePitch.pitch = 1200
        timePitch.rate = 0.5
        timePitch.overlap = 8
        #expect(timePitch.pitch == 1200 && timePitch.rate == 0.5 && timePitch.overlap == 8)
        let varispeed = AVAudioUnitVarispeed()
        varispeed.rate = 1.5
        #expect(varispeed.rate == 1.5)
        let reverb = AVAudioUnitReverb()
        reverb.loadFactoryPreset(.plate)
        reverb.wetDryMix = 25
        #expect(reverb.wetDryMix == 25)
        let delay = AVAudioUnitDelay()
        #expect(delay.delayTime == 1 && delay.feedback == 50 && delay.lowPassCutoff == 15000 && delay.wetDryMix == 100)
        for effect in [distortion, eq, timePitch, varispeed, reverb, delay] as [AVAudioUnit] {
            #expect(effect.audioComponentDescription.componentManufacturer == kAudioUnitManufacturer_Apple)
            #expect(effect.audioComponentDescription.componentType == kAudioUnitType_Effect
                    || effect.audioComponentDescription.componentType == kAudioUnitType_FormatConverter)
        }
        eq.bypass = true
        #expect(eq.bypass)
        #expect(timePitch.bypass == false)
    }
}
