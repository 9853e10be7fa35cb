import AVFoundation
import Foundation
import Testing

/// AVAudioEnvironmentNode: sources placed around the listener are heard where they are, fade with distance by
/// the chosen law, and move when the listener turns.
@Suite struct EnvironmentNodeTests {
    static let rate = 44100.0
    static let stereo = AVAudioFormat(standardFormatWithSampleRate: rate, channels: 2)!
    static let mono = AVAudioFormat(standardFormatWithSampleRate: rate, channels: 1)!

    /// RMS of (left, right) from a mono 1 kHz source at `position`, after `configure`.
    static func levels(at position: AVAudio3DPoint, algorithm: AVAudio3DMixingRenderingAlgorithm = .equalPowerPanning,
                       configure: (AVAudioEnvironmentNode) -> Void = { _ in }) throws -> (Double, Double) {
        let engine = AVAudioEngine()
        try engine.enableManualRenderingMode(.offline, format: stereo, maximumFrameCount: 1024)
        let environment = AVAudioEnvironmentNode()
        var phase = 0.0
        let source = AVAudioSourceNode { _, _, frames, list in
            let out = UnsafeMutableAudioBufferListPointer(list)[0].mData!.assumingMemoryBound(to: Float.self)
            for i in 0..<Int(frames) {
                out[i] = Float(0.5 * sin(phase))
                phase += 2 * .pi * 1000 / rate
            }
            return noErr
        }
        engine.attach(environment)
        engine.attach(source)
        engine.connect(environment, to: engine.mainMixerNode, format: stereo)
        engine.connect(source, to: environment, format: mono)
        source.position = position
        source.renderingAlgorithm = algorithm
        configure(environment)
        try engine.start()
        let buffer = AVAudioPCMBuffer(pcmFormat: stereo, frameCapacity: 1024)!
        var l = 0.0, r = 0.0, n = 0
        for k in 0..<30 {
            _ = try engine.renderOffline(1024, to: buffer)
            guard k >= 10 else { continue }  // past the de-zippering of the first placement
            for i in 0..<1024 {
                l += Double(buffer.floatChannelData![0][i] * buffer.floatChannelData![0][i])
                r += Double(buffer.floatChannelData![1][i] * buffer.floatChannelData![1][i])
                n += 1
            }
        }
        return ((l / Double(n)).squareRoot(), (r / Double(n)).squareRoot())
    }

    /// RMS of the left output between 0.4 and 0.6 s, after a source played 0.2 s of noise and fell silent.
    static func reverbTail(enable: Bool, blend: Float, level: Float = 0, preset: AVAudioUnitReverbPreset? = nil,
                           lowPass: Float? = nil) throws -> Double {
        let engine = AVAudioEngine()
        try engine.enableManualRenderingMode(.offline, format: stereo, maximumFrameCount: 1024)
        let environment = AVAudioEnvironmentNode()
        var n = 0
        var seed: UInt32 = 7
        let source = AVAudioSourceNode { _, _, frames, list in
            let out = UnsafeMutableAudioBufferListPointer(list)[0].mData!.assumingMemoryBound(to: Float.self)
            for i in 0..<Int(frames) {
                seed = seed &* 1_664_525 &+ 1_013_904_223
                out[i] = n < Int(0.2 * rate) ? Float(Int32(bitPattern: seed)) / Float(Int32.max) * 0.3 : 0
                n += 1
            }
            return noErr
        }
        engine.attach(environment)
        engine.attach(source)
        engine.connect(environment, to: engine.mainMixerNode, format: stereo)
        engine.connect(source, to: environment, format: mono)
        source.reverbBlend = blend
        environment.reverbParameters.enable = enable
        environment.reverbParameters.level = level
        if let preset { environment.reverbParameters.loadFactoryReverbPreset(preset) }
        if let lowPass {
            let filter = environment.reverbParameters.filterParameters
            filter.filterType = .lowPass
            filter.frequency = lowPass
            filter.bypass = false
        }
        try engine.start()
        let buffer = AVAudioPCMBuffer(pcmFormat: stereo, frameCapacity: 1024)!
        var left: [Float] = []
        while left.count < Int(0.6 * rate) {
            _ = try engine.renderOffline(1024, to: buffer)
            left += UnsafeBufferPointer(start: buffer.floatChannelData![0], count: Int(buffer.frameLength))
        }
        let tail = left[Int(0.4 * rate)..<Int(0.6 * rate)]
        return (tail.reduce(0.0) { $0 + Double($1 * $1) } / Double(tail.count)).squareRoot()
    }

    /// The environment's reverb: off by default and silent for a source whose reverbBlend is 0; on, a source with
    /// reverbBlend 1 rings on after it stops, `level` scales the ring (20 dB lower, 20 dB quieter), a cathedral
    /// rings louder a quarter second on than a small room, and a low-pass filter on the return quietens the ring.
    @Test func reverbRingsOnAfterTheSourceStops() throws {
        #expect(try Self.reverbTail(enable: false, blend: 1) == 0)
        #expect(try Self.reverbTail(enable: true, blend: 0) == 0)
        let ring = try Self.reverbTail(enable: true, blend: 1)
        #expect(ring > 1e-3)
        let quieter = try Self.reverbTail(enable: true, blend: 1, level: -20)
        #expect(abs(20 * log10(ring / quieter) - 20) < 0.1, "\(ring) against \(quieter)")
        let cathedral = try Self.reverbTail(enable: true, blend: 1, preset: .cathedral)
        let smallRoom = try Self.reverbTail(enable: true, blend: 1, preset: .smallRoom)
        #expect(cathedral > 10 * smallRoom, "cathedral \(cathedral), small room \(smallRoom)")
        // The filter on the return: a 300 Hz low-pass takes most of the noise's reverb away.
        let filtered = try Self.reverbTail(enable: true, blend: 1, lowPass: 300)
        #expect(filtered < 0.5 * ring, "filtered \(filtered) against \(ring)")
    }

    @Test func sourcesAreHeardWhereTheyAre() throws {
        let (l, r) = try Self.levels(at: AVAudio3DPoint(x: 1, y: 0, z: 0))
        #expect(r > 0.3 && l < 0.01 * r, "to the right: left \(l), right \(r)")
        let (l2, r2) = try Self.levels(at: AVAudio3DPoint(x: -1, y: 0, z: 0))
        #expect(l2 > 0.3 && r2 < 0.01 * l2, "to the left: left \(l2), right \(r2)")
        let (l3, r3) = try Self.levels(at: AVAudio3DPoint(x: 0, y: 0, z: -1))
        #expect(abs(l3 - r3) < 1e-3 * l3, "ahead: left \(l3), right \(r3)")
    }

    /// HRTF (Debian's MIT KEMAR responses through the 3D mixer): a 1 kHz source at +x is much louder in the right
    /// ear, one ahead is balanced, and the environment lists the algorithm.
    @Test func hrtfRendersWithTheInstalledResponses() throws {
        try #require(FileManager.default.fileExists(atPath: "/usr/share/libmysofa/default.sofa"), "libmysofa1 is required")
        let right = try Self.levels(at: AVAudio3DPoint(x: 1, y: 0, z: 0), algorithm: .HRTF)
        // KEMAR's level difference at 1 kHz for a source at 90° is about 6 dB (far more above 3 kHz).
        #expect(20 * log10(right.1 / right.0) > 4, "right \(right.1), left \(right.0)")
        let ahead = try Self.levels(at: AVAudio3DPoint(x: 0, y: 0, z: -1), algorithm: .HRTFHQ)
        #expect(abs(20 * log10(ahead.1 / ahead.0)) < 1.5)
        #expect(AVAudioEnvironmentNode().applicableRenderingAlgorithms.map(\.intValue).contains(AVAudio3DMixingRenderingAlgorithm.HRTF.rawValue))
    }

    @Test func inverseDistanceHalvesAtTwiceTheReference() throws {
        let (l1, r1) = try Self.levels(at: AVAudio3DPoint(x: 0, y: 0, z: -1))
        let (l2, r2) = try Self.levels(at: AVAudio3DPoint(x: 0, y: 0, z: -2))
        let dB = 20 * log10((l2 + r2) / (l1 + r1))
        // reference / (reference + rolloff * (distance - reference)) = 1 / 2 at 2 m.
        #expect(abs(dB + 6.02) < 0.1, "\(dB) dB at twice the reference distance")
        let (l4, r4) = try Self.levels(at: AVAudio3DPoint(x: 0, y: 0, z: -4)) { env in
            env.distanceAttenuationParameters.distanceAttenuationModel = .exponential
            env.distanceAttenuationParameters.rolloffFactor = 2
        }
        let exponential = 20 * log10((l4 + r4) / (l1 + r1))
        // (distance / reference) ^ -rolloff = 4^-2 = -24.08 dB.
        #expect(abs(exponential + 24.08) < 0.2, "\(exponential) dB at 4 m, exponential, rolloff 2")
    }

    @Test func turningTheListenerMovesTheSource() throws {
        // Turned 90 degrees to the right, a source on the right is straight ahead.
        let (l, r) = try Self.levels(at: AVAudio3DPoint(x: 1, y: 0, z: 0)) { env in
            env.listenerAngularOrientation = AVAudio3DAngularOrientation(yaw: 90, pitch: 0, roll: 0)
        }
        #expect(abs(l - r) < 1e-3 * l, "left \(l), right \(r)")
        // Moved to the right of it, the listener hears it on the left.
        let (l2, r2) = try Self.levels(at: AVAudio3DPoint(x: 0, y: 0, z: -1)) { env in
            env.listenerPosition = AVAudio3DPoint(x: 5, y: 0, z: -1)
        }
        #expect(l2 > 100 * r2, "left \(l2), right \(r2)")
    }

    @Test func orientationsConvert() {
        let env = AVAudioEnvironmentNode()
        env.listenerAngularOrientation = AVAudio3DAngularOrientation(yaw: 30, pitch: 20, roll: -10)
        let angles = env.listenerAngularOrientation
        #expect(abs(angles.yaw - 30) < 1e-3 && abs(angles.pitch - 20) < 1e-3 && abs(angles.roll + 10) < 1e-3)
        env.listenerVectorOrientation = AVAudio3DVectorOrientation(forward: AVAudio3DVector(x: 1, y: 0, z: 0), up: AVAudio3DVector(x: 0, y: 1, z: 0))
        #expect(abs(env.listenerAngularOrientation.yaw - 90) < 1e-3)
        #expect(env.applicableRenderingAlgorithms.map(\.intValue).contains(AVAudio3DMixingRenderingAlgorithm.sphericalHead.rawValue))
    }
}
