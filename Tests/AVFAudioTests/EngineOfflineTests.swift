import AVFoundation
import Foundation
import Testing

/// AVAudioEngine in offline manual rendering: players, mixers and effects against independently computed
/// expectations.
@Suite struct EngineOfflineTests {
    static let rate = 44100.0
    static let format = AVAudioFormat(standardFormatWithSampleRate: rate, channels: 2)!

    /// A stereo buffer of reproducible noise (left and right differ).
    static func noise(frames: Int, seed: UInt64 = 1) -> AVAudioPCMBuffer {
        let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: AVAudioFrameCount(frames))!
        buffer.frameLength = AVAudioFrameCount(frames)
        var state = seed
        for c in 0..<2 {
            for i in 0..<frames {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                buffer.floatChannelData![c][i] = Float(Int64(bitPattern: state >> 11) % 20000) / 40000
            }
        }
        return buffer
    }

    /// Renders `frames` frames of the engine in slices of `slice`, returning (left, right).
    static func render(_ engine: AVAudioEngine, frames: Int, slice: Int = 512) throws -> ([Float], [Float]) {
        let buffer = AVAudioPCMBuffer(pcmFormat: engine.manualRenderingFormat, frameCapacity: AVAudioFrameCount(slice))!
        var left: [Float] = [], right: [Float] = []
        while left.count < frames {
            let n = min(slice, frames - left.count)
            let status = try engine.renderOffline(AVAudioFrameCount(n), to: buffer)
            #expect(status == .success)
            left += UnsafeBufferPointer(start: buffer.floatChannelData![0], count: n)
            right += UnsafeBufferPointer(start: buffer.floatChannelData![engine.manualRenderingFormat.channelCount > 1 ? 1 : 0], count: n)
        }
        return (left, right)
    }

    static func manualEngine() throws -> AVAudioEngine {
        let engine = AVAudioEngine()
        try engine.enableManualRenderingMode(.offline, format: format, maximumFrameCount: 4096)
        return engine
    }

    @Test func playerBufferStartsAtItsSampleTime() throws {
        let engine = try Self.manualEngine()
        let player = AVAudioPlayerNode()
        engine.attach(player)
        engine.connect(player, to: engine.mainMixerNode, format: Self.format)
        try engine.start()
        let buffer = Self.noise(frames: 3000)
        player.scheduleBuffer(buffer, at: AVAudioTime(sampleTime: 1000, atRate: Self.rate), options: [])
        player.play()
        let (left, right) = try Self.render(engine, frames: 5000, slice: 333)
        #expect(left[0..<1000].allSatisfy { $0 == 0 } && right[0..<1000].allSatisfy { $0 == 0 })
        let expectedLeft = Array(UnsafeBufferPointer(start: buffer.floatChannelData![0], count: 3000))
        let expectedRight = Array(UnsafeBufferPointer(start: buffer.floatChannelData![1], count: 3000))
        #expect(Array(left[1000..<4000]) == expectedLeft)
        #expect(Array(right[1000..<4000]) == expectedRight)
        #expect(left[4000...].allSatisfy { $0 == 0 })
        #expect(engine.manualRenderingSampleTime == 5000)
    }
}
