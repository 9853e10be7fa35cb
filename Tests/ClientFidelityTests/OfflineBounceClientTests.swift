// An offline "bounce" / export, as in Apple's "Performing Offline Audio Processing" sample: file ->
// player -> reverb (factory preset, wet/dry mix) -> delay -> main mixer, the engine in offline manual
// rendering mode, the render loop writing every slice to the output file.
import AVFoundation
import Foundation
import Testing

enum BounceError: Error {
    case renderFailed
}

/// The app's export function. Returns the rendered file's URL.
func bounce(sourceFileURL: URL, to outputURL: URL, reverbPreset: AVAudioUnitReverbPreset, reverbMix: Float,
            delayTime: TimeInterval, delayFeedback: Float, delayMix: Float, tail: AVAudioFramePosition = 0) throws -> URL {
    let sourceFile = try AVAudioFile(forReading: sourceFileURL)
    let format = sourceFile.processingFormat

    let engine = AVAudioEngine()
    let player = AVAudioPlayerNode()
    let reverb = AVAudioUnitReverb()
    let delay = AVAudioUnitDelay()

    engine.attach(player)
    engine.attach(reverb)
    engine.attach(delay)

    reverb.loadFactoryPreset(reverbPreset)
    reverb.wetDryMix = reverbMix
    delay.delayTime = delayTime
    delay.feedback = delayFeedback
    delay.lowPassCutoff = 15000
    delay.wetDryMix = delayMix

    engine.connect(player, to: reverb, format: format)
    engine.connect(reverb, to: delay, format: format)
    engine.connect(delay, to: engine.mainMixerNode, format: format)

    player.scheduleFile(sourceFile, at: nil)

    do {
        let maxFrames: AVAudioFrameCount = 4096
        try engine.enableManualRenderingMode(.offline, format: format, maximumFrameCount: maxFrames)
    } catch {
        throw error
    }
    try engine.start()
    player.play()

    let buffer = AVAudioPCMBuffer(pcmFormat: engine.manualRenderingFormat,
                                  frameCapacity: engine.manualRenderingMaximumFrameCount)!
    let outputFile = try AVAudioFile(forWriting: outputURL, settings: sourceFile.fileFormat.settings)

    let totalLength = sourceFile.length + tail
    while engine.manualRenderingSampleTime < totalLength {
        let frameCount = totalLength - engine.manualRenderingSampleTime
        let framesToRender = min(AVAudioFrameCount(frameCount), buffer.frameCapacity)
        let status = try engine.renderOffline(framesToRender, to: buffer)
        switch status {
        case .success:
            try outputFile.write(from: buffer)
        case .insufficientDataFromInputNode:
            break
        case .cannotDoInCurrentContext:
            break
        case .error:
            throw BounceError.renderFailed
        @unknown default:
            break
        }
    }
    player.stop()
    engine.stop()
    return outputURL
}

@Suite struct OfflineBounceClientTests {
    static let rate = 44100.0

    /// A mono 16-bit AIFF: a 0.1 s burst of a 500 Hz tone, then `silence` seconds of nothing.
    static func makeBurst(silence: Double, impulse: Bool = false, channels: Int = 1) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("client-burst-\(UUID().uuidString).aiff")
        let settings: [String: Any] = [AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: rate, AVNumberOfChannelsKey: channels,
                                       AVLinearPCMBitDepthKey: 16, AVLinearPCMIsFloatKey: false, AVLinearPCMIsBigEndianKey: true]
        let file = try AVAudioFile(forWriting: url, settings: settings)
        let frames = AVAudioFrameCount((0.1 + silence) * rate)
        let buffer = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: frames)!
        buffer.frameLength = frames
        for channel in 0..<channels {
            let samples = buffer.floatChannelData![channel]
            for n in 0..<Int(frames) {
                if impulse {
                    samples[n] = n == 0 ? 0.8 : 0
                } else {
                    samples[n] = n < Int(0.1 * rate) ? 0.5 * Float(sin(2 * Double.pi * 500 * Double(n) / rate)) : 0
                }
            }
        }
        try file.write(from: buffer)
        return url
    }

    static func read(_ url: URL) throws -> (AVAudioFile, AVAudioPCMBuffer) {
        let file = try AVAudioFile(forReading: url)
        let buffer = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: AVAudioFrameCount(file.length))!
        try file.read(into: buffer)
        return (file, buffer)
    }

    static func rms(_ samples: UnsafeMutablePointer<Float>, _ range: Range<Int>) -> Float {
        var sum: Float = 0
        for n in range { sum += samples[n] * samples[n] }
        return (sum / Float(range.count)).squareRoot()
    }

    @Test func bounceKeepsTheSourceFormatAndLengthAndAddsAReverbTail() throws {
        let source = try Self.makeBurst(silence: 0.9)
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("client-bounce-\(UUID().uuidString).aiff")
        defer {
            try? FileManager.default.removeItem(at: source)
            try? FileManager.default.removeItem(at: output)
        }
        _ = try bounce(sourceFileURL: source, to: output, reverbPreset: .largeHall, reverbMix: 50,
                       delayTime: 0.25, delayFeedback: 0, delayMix: 0)
        let (file, buffer) = try Self.read(output)
        let (sourceFile, _) = try Self.read(source)
        #expect(file.length == sourceFile.length)
        #expect(file.fileFormat.channelCount == 1)
        #expect(file.fileFormat.sampleRate == Self.rate)
        // Big-endian 16-bit (AIFF) is not one of the native common formats: .otherFormat, 16 bits.
        #expect(file.fileFormat.commonFormat == .otherFormat)
        #expect(file.fileFormat.streamDescription.pointee.mBitsPerChannel == 16)
        let samples = buffer.floatChannelData![0]
        // The burst is there (half of it dry) ...
        let burst = Self.rms(samples, 0..<4410)
        #expect(burst > 0.1, "burst RMS \(burst)")
        // ... and the large hall rings on after it ends, where the source is silent.
        let tail = Self.rms(samples, 6615..<13230)
        #expect(tail > 0.002, "reverb tail RMS \(tail)")
        #expect(Self.rms(samples, 39690..<44100) < tail, "the tail decays")
    }

    @Test func dryBounceIsTheSource() throws {
        let source = try Self.makeBurst(silence: 0.2, channels: 2)
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("client-bounce-\(UUID().uuidString).aiff")
        defer {
            try? FileManager.default.removeItem(at: source)
            try? FileManager.default.removeItem(at: output)
        }
        _ = try bounce(sourceFileURL: source, to: output, reverbPreset: .smallRoom, reverbMix: 0,
                       delayTime: 0.1, delayFeedback: 0, delayMix: 0)
        let (_, out) = try Self.read(output)
        let (_, original) = try Self.read(source)
        #expect(out.frameLength == original.frameLength)
        var maxError: Float = 0
        for channel in 0..<2 {
            for n in 0..<Int(out.frameLength) {
                maxError = max(maxError, abs(out.floatChannelData![channel][n] - original.floatChannelData![channel][n]))
            }
        }
        #expect(maxError < 2.0 / 32768, "max difference \(maxError)")
    }

    @Test func delayPutsTheEchoWhereDelayTimeSays() throws {
        let source = try Self.makeBurst(silence: 0.5, impulse: true)
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("client-bounce-\(UUID().uuidString).aiff")
        defer {
            try? FileManager.default.removeItem(at: source)
            try? FileManager.default.removeItem(at: output)
        }
        _ = try bounce(sourceFileURL: source, to: output, reverbPreset: .smallRoom, reverbMix: 0,
                       delayTime: 0.25, delayFeedback: 0, delayMix: 100)
        let (_, out) = try Self.read(output)
        let samples = out.floatChannelData![0]
        var peakIndex = 0
        var peak: Float = 0
        for n in 0..<Int(out.frameLength) where abs(samples[n]) > peak {
            peak = abs(samples[n])
            peakIndex = n
        }
        // Fully wet: no dry impulse at 0, the echo 0.25 s later (11025 frames; the low-pass smears it a little).
        #expect(abs(samples[0]) < 0.05)
        #expect(abs(peakIndex - 11025) <= 8, "echo at \(peakIndex)")
        #expect(peak > 0.3, "echo peak \(peak)")
    }

    @Test func bounceWithATailRendersPastTheEndOfTheSource() throws {
        let source = try Self.makeBurst(silence: 0.1)
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("client-bounce-\(UUID().uuidString).caf")
        defer {
            try? FileManager.default.removeItem(at: source)
            try? FileManager.default.removeItem(at: output)
        }
        _ = try bounce(sourceFileURL: source, to: output, reverbPreset: .cathedral, reverbMix: 100,
                       delayTime: 0.3, delayFeedback: 50, delayMix: 30, tail: 22050)
        let (file, buffer) = try Self.read(output)
        #expect(file.length == 8820 + 22050)
        #expect(Self.rms(buffer.floatChannelData![0], 8820..<30870) > 0.001)
    }
}
