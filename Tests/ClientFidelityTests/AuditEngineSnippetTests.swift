// Audit snippets: AVAudioEngine graphs as app code writes them (player -> EQ -> reverb -> delay -> time
// pitch -> mixer, taps, 3D environment), run offline with manual rendering. Apple's API only.
import AVFoundation
import Foundation
import Testing

@Suite struct AuditEngineSnippetTests {
    static func tone(_ format: AVAudioFormat, frames: AVAudioFrameCount, hz: Double = 441, amplitude: Float = 0.5) -> AVAudioPCMBuffer {
        let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: frames)!
        buffer.frameLength = buffer.frameCapacity
        let channels = UnsafeBufferPointer(start: buffer.floatChannelData, count: Int(format.channelCount))
        for channel in channels {
            for frame in 0..<Int(buffer.frameLength) {
                channel[frame] = amplitude * Float(sin(2.0 * .pi * hz * Double(frame) / format.sampleRate))
            }
        }
        return buffer
    }

    /// The effects chain of a karaoke/voice-changer app, every effect bypassed or neutral: the output is the input.
    @Test func effectChainOfflineBounce() throws {
        let engine = AVAudioEngine()
        let player = AVAudioPlayerNode()
        let eq = AVAudioUnitEQ(numberOfBands: 2)
        let reverb = AVAudioUnitReverb()
        let delay = AVAudioUnitDelay()
        let timePitch = AVAudioUnitTimePitch()

        eq.globalGain = 0
        let low = eq.bands[0]
        low.filterType = .highPass
        low.frequency = 80
        low.bypass = true
        let presence = eq.bands[1]
        presence.filterType = .parametric
        presence.frequency = 3000
        presence.bandwidth = 1.0
        presence.gain = 6
        presence.bypass = true
        reverb.loadFactoryPreset(.mediumHall)
        reverb.wetDryMix = 0
        delay.delayTime = 0.25
        delay.feedback = 50
        delay.lowPassCutoff = 15000
        delay.wetDryMix = 0
        timePitch.pitch = 0
        timePitch.rate = 1
        timePitch.bypass = true

        [player, eq, reverb, delay, timePitch].forEach { engine.attach($0) }
        let format = AVAudioFormat(standardFormatWithSampleRate: 44100, channels: 2)!
        engine.connect(player, to: eq, format: format)
        engine.connect(eq, to: reverb, format: format)
        engine.connect(reverb, to: delay, format: format)
        engine.connect(delay, to: timePitch, format: format)
        engine.connect(timePitch, to: engine.mainMixerNode, format: format)

        try engine.enableManualRenderingMode(.offline, format: format, maximumFrameCount: 4096)
        #expect(engine.isInManualRenderingMode)
        #expect(engine.manualRenderingMode == .offline)
        #expect(engine.manualRenderingMaximumFrameCount == 4096)
        let source = Self.tone(format, frames: 8192)
        player.scheduleBuffer(source, completionHandler: nil)
        try engine.start()
        player.play()

        let output = AVAudioPCMBuffer(pcmFormat: engine.manualRenderingFormat, frameCapacity: engine.manualRenderingMaximumFrameCount)!
        var rendered: [Float] = []
        while engine.manualRenderingSampleTime < 8192 {
            let frames = min(output.frameCapacity, AVAudioFrameCount(8192 - engine.manualRenderingSampleTime))
            let status = try engine.renderOffline(frames, to: output)
            switch status {
            case .success:
                rendered += Array(UnsafeBufferPointer(start: output.floatChannelData![0], count: Int(output.frameLength)))
            case .insufficientDataFromInputNode, .cannotDoInCurrentContext:
                continue
            case .error:
                Issue.record("render error")
                return
            @unknown default:
                fatalError()
            }
        }
        #expect(rendered.count == 8192)
        #expect(engine.manualRenderingSampleTime == 8192)
        let peak = rendered.map(abs).max() ?? 0
        #expect(abs(peak - 0.5) < 0.02, "peak \(peak)")
        player.stop()
        engine.stop()
        engine.disableManualRenderingMode()
        #expect(!engine.isInManualRenderingMode)
    }

    /// Two players on one mixer with volume and pan (AVAudioMixing), a tap on the mixer collecting frames.
    @Test func mixerVolumesAndTap() throws {
        let engine = AVAudioEngine()
        let a = AVAudioPlayerNode()
        let b = AVAudioPlayerNode()
        let submix = AVAudioMixerNode()
        engine.attach(a)
        engine.attach(b)
        engine.attach(submix)
        let mono = AVAudioFormat(commonFormat: .pcmFormatFloat32, sampleRate: 48000, channels: 1, interleaved: false)!
        let stereo = AVAudioFormat(standardFormatWithSampleRate: 48000, channels: 2)!
        let busA = submix.nextAvailableInputBus
        engine.connect(a, to: submix, fromBus: 0, toBus: busA, format: mono)
        let busB = submix.nextAvailableInputBus
        #expect(busB != busA)
        engine.connect(b, to: submix, fromBus: 0, toBus: busB, format: mono)
        engine.connect(submix, to: engine.mainMixerNode, format: stereo)
        a.volume = 0.5
        b.volume = 0.0
        a.pan = -1
        #expect(a.volume == 0.5)
        #expect(a.pan == -1)
        submix.outputVolume = 1

        try engine.enableManualRenderingMode(.offline, format: stereo, maximumFrameCount: 1024)
        let tapped = Shared<AVAudioFrameCount>(0)
        engine.mainMixerNode.installTap(onBus: 0, bufferSize: 1024, format: nil) { buffer, when in
            tapped.mutate { $0 += buffer.frameLength }
        }
        let one = AVAudioPCMBuffer(pcmFormat: mono, frameCapacity: 1024)!
        one.frameLength = 1024
        for i in 0..<1024 { one.floatChannelData![0][i] = 0.8 }
        a.scheduleBuffer(one, at: nil, options: .loops)
        b.scheduleBuffer(one, at: nil, options: .loops)
        try engine.start()
        a.play()
        b.play()
        let out = AVAudioPCMBuffer(pcmFormat: engine.manualRenderingFormat, frameCapacity: 1024)!
        for _ in 0..<8 { _ = try engine.renderOffline(1024, to: out) }
        // a alone, halved, panned hard left.
        let left = out.floatChannelData![0][512]
        let right = out.floatChannelData![1][512]
        #expect(abs(left - 0.4) < 0.01, "left \(left)")
        #expect(abs(right) < 0.01, "right \(right)")
        // Tap blocks arrive off the render thread: wait for them before removing the tap.
        let deadline = Date().addingTimeInterval(5)
        while tapped.value < 4096 && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(tapped.value >= 4096)
        engine.mainMixerNode.removeTap(onBus: 0)
        engine.stop()
    }

    /// A 3D scene: a mono source placed at the listener, environment node into the main mixer.
    @Test func environmentNodeScene() throws {
        let engine = AVAudioEngine()
        let environment = AVAudioEnvironmentNode()
        let source = AVAudioPlayerNode()
        engine.attach(environment)
        engine.attach(source)
        let mono = AVAudioFormat(standardFormatWithSampleRate: 44100, channels: 1)!
        let stereo = AVAudioFormat(standardFormatWithSampleRate: 44100, channels: 2)!
        engine.connect(source, to: environment, format: mono)
        engine.connect(environment, to: engine.mainMixerNode, format: stereo)

        environment.listenerPosition = AVAudio3DPoint(x: 0, y: 0, z: 0)
        environment.listenerAngularOrientation = AVAudioMake3DAngularOrientation(0, 0, 0)
        environment.listenerVectorOrientation = AVAudioMake3DVectorOrientation(AVAudioMake3DVector(0, 0, -1), AVAudioMake3DVector(0, 1, 0))
        environment.distanceAttenuationParameters.distanceAttenuationModel = .inverse
        environment.distanceAttenuationParameters.referenceDistance = 1
        environment.distanceAttenuationParameters.maximumDistance = 100
        environment.distanceAttenuationParameters.rolloffFactor = 1
        environment.reverbParameters.enable = false
        environment.reverbParameters.level = -20
        environment.reverbParameters.loadFactoryReverbPreset(.largeHall)
        environment.outputVolume = 1
        #expect(environment.applicableRenderingAlgorithms.contains(NSNumber(value: AVAudio3DMixingRenderingAlgorithm.equalPowerPanning.rawValue)))

        source.renderingAlgorithm = .equalPowerPanning
        source.position = AVAudioMake3DPoint(0, 0, -1)
        source.reverbBlend = 0
        source.obstruction = 0
        source.occlusion = 0
        source.sourceMode = .pointSource
        #expect(source.position.z == -1)
        #expect(source.renderingAlgorithm == .equalPowerPanning)

        try engine.enableManualRenderingMode(.offline, format: stereo, maximumFrameCount: 2048)
        source.scheduleBuffer(Self.tone(mono, frames: 2048), at: nil, options: [], completionHandler: nil)
        try engine.start()
        source.play()
        let out = AVAudioPCMBuffer(pcmFormat: engine.manualRenderingFormat, frameCapacity: 2048)!
        #expect(try engine.renderOffline(2048, to: out) == .success)
        var leftEnergy: Float = 0, rightEnergy: Float = 0
        for i in 0..<Int(out.frameLength) {
            leftEnergy += out.floatChannelData![0][i] * out.floatChannelData![0][i]
            rightEnergy += out.floatChannelData![1][i] * out.floatChannelData![1][i]
        }
        #expect(leftEnergy > 0)
        // Straight ahead: both ears alike.
        #expect(abs(leftEnergy - rightEnergy) / leftEnergy < 0.05)
        engine.stop()
    }

    /// Offline processing of app-supplied audio through the input node (setManualRenderingInputPCMFormat).
    @Test func manualRenderingInputNode() throws {
        let engine = AVAudioEngine()
        let format = AVAudioFormat(standardFormatWithSampleRate: 48000, channels: 1)!
        try engine.enableManualRenderingMode(.offline, format: format, maximumFrameCount: 256)
        let source = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 1024)!
        source.frameLength = 1024
        for i in 0..<1024 { source.floatChannelData![0][i] = Float(i) / 2048 }
        let position = Shared<AVAudioFrameCount>(0)
        let pending = Shared<AVAudioPCMBuffer?>(nil)
        let accepted = engine.inputNode.setManualRenderingInputPCMFormat(format) { frameCount in
            let start = position.value
            guard start < source.frameLength else { return nil }
            let count = min(frameCount, source.frameLength - start)
            let view = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: count)!
            view.frameLength = count
            view.floatChannelData![0].update(from: source.floatChannelData![0] + Int(start), count: Int(count))
            position.value = start + count
            pending.value = view
            return UnsafePointer(view.audioBufferList)
        }
        #expect(accepted)
        engine.connect(engine.inputNode, to: engine.mainMixerNode, format: format)
        engine.mainMixerNode.outputVolume = 0.5
        try engine.start()
        let out = AVAudioPCMBuffer(pcmFormat: engine.manualRenderingFormat, frameCapacity: 256)!
        var collected: [Float] = []
        for _ in 0..<4 {
            #expect(try engine.renderOffline(256, to: out) == .success)
            collected += UnsafeBufferPointer(start: out.floatChannelData![0], count: Int(out.frameLength))
        }
        #expect(collected.count == 1024)
        #expect(abs(collected[512] - 0.125) < 1e-5)
        #expect(abs(collected[1023] - 0.5 * 1023 / 2048) < 1e-5)
        engine.stop()
    }

    /// A player's times: nodeTime(forPlayerTime:) / playerTime(forNodeTime:) and AVAudioTime arithmetic.
    @Test func playerTimesAndAVAudioTime() throws {
        let t = AVAudioTime(sampleTime: 44100, atRate: 44100)
        #expect(t.isSampleTimeValid && !t.isHostTimeValid)
        #expect(t.sampleTime == 44100)
        #expect(t.sampleRate == 44100)
        let host = AVAudioTime.hostTime(forSeconds: 1.5)
        #expect(abs(AVAudioTime.seconds(forHostTime: host) - 1.5) < 1e-6)
        let both = AVAudioTime(hostTime: host, sampleTime: 0, atRate: 48000)
        #expect(both.isHostTimeValid && both.isSampleTimeValid)
        let later = AVAudioTime(sampleTime: 48000, atRate: 48000)
        let extrapolated = later.extrapolateTime(fromAnchor: both)
        #expect(extrapolated?.hostTime == host + AVAudioTime.hostTime(forSeconds: 1))
        var stamp = AudioTimeStamp()
        stamp.mSampleTime = 100
        stamp.mFlags = .sampleTimeValid
        let fromStamp = AVAudioTime(audioTimeStamp: &stamp, sampleRate: 8000)
        #expect(fromStamp.sampleTime == 100)
        #expect(fromStamp.audioTimeStamp.mSampleTime == 100)

        let engine = AVAudioEngine()
        let player = AVAudioPlayerNode()
        engine.attach(player)
        let format = AVAudioFormat(standardFormatWithSampleRate: 44100, channels: 2)!
        engine.connect(player, to: engine.mainMixerNode, format: format)
        try engine.enableManualRenderingMode(.offline, format: format, maximumFrameCount: 1024)
        player.scheduleBuffer(Self.tone(format, frames: 4096), at: AVAudioTime(sampleTime: 1024, atRate: 44100), options: [])
        try engine.start()
        player.play()
        let out = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 1024)!
        _ = try engine.renderOffline(1024, to: out)
        // Scheduled 1024 frames in: the first slice is silent.
        #expect((0..<1024).allSatisfy { out.floatChannelData![0][$0] == 0 })
        _ = try engine.renderOffline(1024, to: out)
        let nodeTime = try #require(player.lastRenderTime)
        let playerTime = try #require(player.playerTime(forNodeTime: nodeTime))
        #expect(playerTime.sampleTime == nodeTime.sampleTime)
        let back = player.nodeTime(forPlayerTime: playerTime)
        #expect(back?.sampleTime == nodeTime.sampleTime)
        engine.stop()
    }
}
