import AVFoundation
import Foundation
import Testing

/// AVSpeechSynthesizer without a device: voices by language and identifier, utterance defaults, and write(_:) against
/// the espeak-ng command-line tool (the reference for the voices here) and the text's own words.
@Suite struct SpeechSynthesizerTests {
    /// Everything write(_:toBufferCallback:toMarkerCallback:) hands over, once its empty last buffer has come.
    static func written(_ utterance: AVSpeechUtterance) throws -> (samples: [Float], markers: [AVSpeechSynthesisMarker], format: AVAudioFormat?) {
        let synthesizer = AVSpeechSynthesizer()
        let done = DispatchSemaphore(value: 0)
        let lock = NSLock()
        var samples: [Float] = [], markers: [AVSpeechSynthesisMarker] = [], format: AVAudioFormat?
        synthesizer.write(utterance, toBufferCallback: { buffer in
            guard let pcm = buffer as? AVAudioPCMBuffer else { return }
            lock.withLock {
                format = pcm.format
                samples += UnsafeBufferPointer(start: pcm.floatChannelData![0], count: Int(pcm.frameLength))
            }
            if pcm.frameLength == 0 { done.signal() }
        }, toMarkerCallback: { m in lock.withLock { markers += m } })
        try #require(done.wait(timeout: .now() + 30) == .success, "no final empty buffer")
        return lock.withLock { (samples, markers, format) }
    }

    /// The espeak-ng CLI's rendering of `text`, as Float32 samples.
    static func espeak(_ text: String, voice: String, wordsPerMinute: Int) throws -> [Float] {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("espeak-\(UUID().uuidString).wav")
        defer { try? FileManager.default.removeItem(at: url) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["espeak-ng", "-v", voice, "-s", "\(wordsPerMinute)", "-w", url.path, text]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "espeak-ng (the espeak-ng package) must be installed")
        let file = try AVAudioFile(forReading: url)
        let buffer = try #require(AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: AVAudioFrameCount(file.length)))
        try file.read(into: buffer)
        return Array(UnsafeBufferPointer(start: buffer.floatChannelData![0], count: Int(buffer.frameLength)))
    }

    static func rmsDB(_ x: [Float]) -> Double {
        10 * log10(x.reduce(0.0) { $0 + Double($1 * $1) } / Double(max(x.count, 1)))
    }

    @Test func voicesByLanguageAndIdentifier() throws {
        let voices = AVSpeechSynthesisVoice.speechVoices()
        #expect(voices.count > 20)
        let pattern = try Regex("^[a-z]{2,8}(-[A-Z][a-z]{3})?(-([A-Z]{2}|[0-9]{3}))?(-[a-z0-9]+)*$")
        for voice in voices { #expect(voice.language.wholeMatch(of: pattern) != nil, "\(voice.language)") }
        let us = try #require(AVSpeechSynthesisVoice(language: "en-US"))
        #expect(us.language == "en-US" && us.quality == .default && !us.name.isEmpty)
        #expect(AVSpeechSynthesisVoice(identifier: us.identifier)?.language == "en-US")
        #expect(AVSpeechSynthesisVoice(language: "en")?.language.hasPrefix("en") == true)
        #expect(AVSpeechSynthesisVoice(language: "fr-FR")?.language.hasPrefix("fr") == true)
        #expect(AVSpeechSynthesisVoice(language: "xx-YY") == nil)
        #expect(AVSpeechSynthesisVoice(identifier: AVSpeechSynthesisVoiceIdentifierAlex) == nil)
        #expect(AVSpeechSynthesisVoice.currentLanguageCode().wholeMatch(of: pattern) != nil)
        #expect(us.audioFileSettings[AVSampleRateKey] as? Double == 22050)
    }

    @Test func utteranceDefaults() {
        let u = AVSpeechUtterance(string: "hi")
        #expect(u.speechString == "hi" && u.attributedSpeechString.string == "hi" && u.voice == nil)
        #expect(u.rate == AVSpeechUtteranceDefaultSpeechRate && AVSpeechUtteranceDefaultSpeechRate == 0.5)
        #expect(AVSpeechUtteranceMinimumSpeechRate == 0 && AVSpeechUtteranceMaximumSpeechRate == 1)
        #expect(u.pitchMultiplier == 1 && u.volume == 1 && u.preUtteranceDelay == 0 && u.postUtteranceDelay == 0)
    }

    /// At the default rate the audio is espeak-ng's at 175 words a minute (length within 5%, level within 0.5 dB);
    /// each word marker's range is that word of the text, in order, at increasing offsets in the audio.
    @Test func writeGivesTheVoicesAudioAndItsWords() throws {
        let text = "Hello world, this is a test of the speech synthesizer."
        let utterance = AVSpeechUtterance(string: text)
        utterance.voice = AVSpeechSynthesisVoice(language: "en-US")
        let (samples, markers, format) = try Self.written(utterance)
        #expect(format?.sampleRate == 22050 && format?.channelCount == 1)
        let reference = try Self.espeak(text, voice: "en-us", wordsPerMinute: 175)
        let ratio = Double(samples.count) / Double(reference.count)
        #expect(abs(ratio - 1) < 0.05, "\(samples.count) samples against espeak-ng's \(reference.count)")
        #expect(abs(Self.rmsDB(samples) - Self.rmsDB(reference)) < 0.5)
        let words = markers.filter { $0.mark == .word }.map { (text as NSString).substring(with: $0.textRange) }
        #expect(words == ["Hello", "world", "this", "is", "a", "test", "of", "the", "speech", "synthesizer"], "\(words)")
        let offsets = markers.map(\.byteSampleOffset)
        #expect(offsets == offsets.sorted() && (offsets.last ?? 0) < samples.count * 4 && (offsets.first ?? -1) >= 0)
    }

    /// Word ranges count UTF-16 units: after an emoji (two units) the next word starts two units later.
    @Test func wordRangesAreUTF16() throws {
        let text = "Big 🎉 party tonight"
        let (_, markers, _) = try Self.written(AVSpeechUtterance(string: text))
        let words = markers.map { (text as NSString).substring(with: $0.textRange) }
        #expect(words.contains("party") && words.contains("tonight"), "\(words)")
    }

    /// Rate 1 speaks faster than the default 0.5, rate 0 slower.
    @Test func rateChangesTheLength() throws {
        func length(_ rate: Float) throws -> Int {
            let u = AVSpeechUtterance(string: "The quick brown fox jumps over the lazy dog.")
            u.rate = rate
            return try Self.written(u).samples.count
        }
        let normal = try length(0.5), fast = try length(1), slow = try length(0)
        #expect(Double(fast) < 0.6 * Double(normal) && Double(slow) > 1.5 * Double(normal), "fast \(fast), normal \(normal), slow \(slow)")
    }
}
