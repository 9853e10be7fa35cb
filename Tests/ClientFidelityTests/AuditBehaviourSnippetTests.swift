// Audit snippets, sixth round: behaviour apps rely on without saying so: an EQ band's low-pass really cuts, the
// main mixer resamples a 44.1 kHz player into a 48 kHz render, a file read in a loop of small buffers until
// framePosition reaches length. Apple's API only; offline.
import AVFoundation
import Foundation
import Testing

@Suite struct AuditBehaviourSnippetTests {
    static func render(_ engine: AVAudioEngine, frames: Int) throws -> [Float] {
        let out = AVAudioPCMBuffer(pcmFormat: engine.manualRenderingFormat, frameCapacity: engine.manualRenderingMaximumFrameCount)!
        var samples: [Float] = []
        while samples.count < frames {
            let n = min(Int(out.frameCapacity), frames - samples.count)
            guard try engine.renderOffline(AVAudioFrameCount(n), to: out) == .success else { break }
            samples += UnsafeBufferPointer(start: out.floatChannelData![0], count: Int(out.frameLength))
        }
        return samples
    }

    static func rms(_ x: ArraySlice<Float>) -> Float { sqrt(x.map { $0 * $0 }.reduce(0, +) / Float(max(x.count, 1))) }

    @Test func eqLowPassCutsHighTone() throws {
        var results: [Bool: Float] = [:]
        for bypass in [true, false] {
            let engine = AVAudioEngine()
            let eq = AVAudioUnitEQ(numberOfBands: 1)
            eq.bands[0].filterType = .lowPass
            eq.bands[0].frequency = 500
            eq.bands[0].bypass = bypass
            let format = AVAudioFormat(standardFormatWithSampleRate: 44100, channels: 1)!
            var phase = 0.0
            let tone = AVAudioSourceNode(format: format) { _, _, frameCount, list -> OSStatus in
                let samples = UnsafeMutableAudioBufferListPointer(list)[0].mData!.assumingMemoryBound(to: Float.self)
                for i in 0..<Int(frameCount) {
                    samples[i] = 0.5 * Float(sin(phase))
                    phase += 2 * .pi * 8000 / 44100
                }
                return noErr
            }
            engine.attach(tone)
            engine.attach(eq)
            engine.connect(tone, to: eq, format: format)
            engine.connect(eq, to: engine.mainMixerNode, format: format)
            try engine.enableManualRenderingMode(.offline, format: format, maximumFrameCount: 1024)
            try engine.start()
            let samples = try Self.render(engine, frames: 8192)
            results[bypass] = Self.rms(samples[4096...])
            engine.stop()
        }
        // Bypassed: the tone's RMS (0.354); a 12 dB/octave low-pass at 500 Hz takes 8 kHz down by about 48 dB.
        #expect(abs(results[true]! - 0.3536) < 0.01, "\(results)")
        #expect(results[false]! < 0.02, "\(results)")
    }

    @Test func mainMixerResamplesPlayer() throws {
        let engine = AVAudioEngine()
        let player = AVAudioPlayerNode()
        engine.attach(player)
        let source = AVAudioFormat(standardFormatWithSampleRate: 44100, channels: 1)!
        let output = AVAudioFormat(standardFormatWithSampleRate: 48000, channels: 1)!
        engine.connect(player, to: engine.mainMixerNode, format: source)
        try engine.enableManualRenderingMode(.offline, format: output, maximumFrameCount: 4800)
        let buffer = AVAudioPCMBuffer(pcmFormat: source, frameCapacity: 44100)!
        buffer.frameLength = 44100
        for i in 0..<44100 { buffer.floatChannelData![0][i] = 0.5 }
        player.scheduleBuffer(buffer, completionHandler: nil)
        try engine.start()
        player.play()
        let samples = try Self.render(engine, frames: 96000)
        let loud = samples.filter { abs($0 - 0.5) < 0.01 }.count
        // One second of source is one second of output: 48000 frames, give or take the resampler's edges.
        #expect(abs(loud - 48000) < 100, "loud \(loud)")
        engine.stop()
    }

    @Test func readFileInSmallBuffersUntilTheEnd() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("audit-\(UUID().uuidString).wav")
        defer { try? FileManager.default.removeItem(at: url) }
        let format = AVAudioFormat(standardFormatWithSampleRate: 16000, channels: 1)!
        do {
            let file = try AVAudioFile(forWriting: url, settings: [AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: 16000,
                                                                  AVNumberOfChannelsKey: 1, AVLinearPCMBitDepthKey: 16])
            let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 5000)!
            buffer.frameLength = 5000
            for i in 0..<5000 { buffer.floatChannelData![0][i] = Float(i % 100) / 200 }
            try file.write(from: buffer)
        }
        let file = try AVAudioFile(forReading: url)
        let chunk = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: 1024)!
        var total = 0
        var sum: Float = 0
        while file.framePosition < file.length {
            try file.read(into: chunk)
            total += Int(chunk.frameLength)
            for i in 0..<Int(chunk.frameLength) { sum += chunk.floatChannelData![0][i] }
        }
        #expect(total == 5000)
        // 50 periods of 0, 0.005, ..., 0.495: each sums to 24.75.
        #expect(abs(sum - 50 * 24.75) < 0.5, "sum \(sum)")
    }

    /// An AAC .m4a scheduled whole on a player and bounced offline: the decoded tone comes out at its level, and
    /// seeking the file (framePosition) lands on the frame asked for.
    @Test func playCompressedFileOffline() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("audit-\(UUID().uuidString).m4a")
        defer { try? FileManager.default.removeItem(at: url) }
        do {
            let file = try AVAudioFile(forWriting: url, settings: [AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 44100,
                                                                  AVNumberOfChannelsKey: 2, AVEncoderBitRateKey: 128000])
            let buffer = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: 44100)!
            buffer.frameLength = 44100
            for c in 0..<2 { for i in 0..<44100 { buffer.floatChannelData![c][i] = 0.4 * Float(sin(2 * Double.pi * 1000 * Double(i) / 44100)) } }
            try file.write(from: buffer)
        }
        let file = try AVAudioFile(forReading: url)
        #expect(file.length == 44100)
        file.framePosition = 22050
        let half = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: 44100)!
        try file.read(into: half)
        #expect(half.frameLength == 22050)
        file.framePosition = 0

        let engine = AVAudioEngine()
        let player = AVAudioPlayerNode()
        engine.attach(player)
        engine.connect(player, to: engine.mainMixerNode, format: file.processingFormat)
        try engine.enableManualRenderingMode(.offline, format: file.processingFormat, maximumFrameCount: 4410)
        player.scheduleFile(file, at: nil, completionHandler: nil)
        try engine.start()
        player.play()
        let samples = try Self.render(engine, frames: 44100)
        #expect(samples.count == 44100)
        let rms = Self.rms(samples[11025..<33075])
        #expect(abs(rms - 0.4 / Float(2).squareRoot()) < 0.02, "rms \(rms)")
        engine.stop()
    }
}
