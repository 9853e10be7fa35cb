import Foundation
import Testing
@testable import OCASpeech

/// Requires espeak-ng (libespeak-ng1, espeak-ng-data and the espeak-ng CLI):
/// every test fails, none skips, when it is missing.
@Suite("SpeechEngine on espeak-ng")
struct SpeechEngineTests {
    let engine: SpeechEngine

    init() throws {
        engine = try SpeechEngine()
    }

    private func seconds(_ samples: [Float]) -> Double {
        Double(samples.count) / SpeechEngine.sampleRate
    }

    @Test func sampleRateIsEspeakNative() {
        #expect(SpeechEngine.sampleRate == 22_050)
    }

    @Test func helloWorldIsAudibleSpeechEndingInSilence() throws {
        let samples = try engine.synthesize("hello world")
        let duration = seconds(samples)
        let level = SignalMeasure.rmsDBFS(samples)
        let tail = samples.suffix(Int(0.05 * SpeechEngine.sampleRate))
        let tailLevel = SignalMeasure.rmsDBFS(tail)
        let tailPeak = tail.map(abs).max() ?? 0
        print("hello world: \(samples.count) samples = \(duration) s, RMS \(level) dBFS, last 50 ms RMS \(tailLevel) dBFS, peak \(tailPeak)")
        #expect(duration >= 0.5 && duration <= 3)
        #expect(level > -40)
        #expect(tailLevel < -60)
        #expect(samples.allSatisfy { $0 >= -1 && $0 <= 1 })
    }

    @Test func matchesTheCommandLineTool() throws {
        let reference = try EspeakCLI.wave(text: "hello world", voice: "en")
        let cli = reference.samples.map { Float($0) / 32_768 }
        let ours = try engine.synthesize("hello world", voice: "en")
        let lengthRatio = Double(ours.count) / Double(cli.count)
        let envelope = SignalMeasure.envelopeCorrelation(ours, cli)
        let sampleCorrelation = SignalMeasure.correlation(ours, cli)
        print("CLI: \(reference.sampleRate) Hz, \(reference.channels) ch, \(cli.count) samples, RMS \(SignalMeasure.rmsDBFS(cli)) dBFS; engine (in-process): \(ours.count) samples, RMS \(SignalMeasure.rmsDBFS(ours)) dBFS; length ratio \(lengthRatio); 10 ms envelope correlation \(envelope); sample correlation \(sampleCorrelation); identical \(ours == cli)")
        #expect(Double(reference.sampleRate) == SpeechEngine.sampleRate)
        #expect(reference.channels == 1)
        #expect(abs(lengthRatio - 1) <= 0.05)
        // espeak-ng's pitch flutter and glottal phase persist from one utterance to the
        // next, so a later utterance drifts by a few samples: compare loudness contours.
        #expect(envelope > 0.95)
        #expect(abs(SignalMeasure.rmsDBFS(ours) - SignalMeasure.rmsDBFS(cli)) < 0.5)
    }

    @Test(arguments: [
        (text: "hello world", ours: [String](), cli: ["-v", "en"]),
        // rate 250 wpm → -s 250, pitch 130 Hz → -p 77, volume 0.5 → -a 50
        (text: "The quick brown fox jumps over the lazy dog.",
         ours: ["-v", "en-us", "-r", "250", "-p", "130", "-a", "0.5"],
         cli: ["-v", "en-us", "-s", "250", "-p", "77", "-a", "50"]),
    ])
    func firstUtteranceOfAProcessIsIdenticalToTheCommandLineTool(text: String, ours: [String], cli: [String]) throws {
        let engineWave = try SpeechSayTool.wave(text: text, arguments: ours)
        let cliWave = try EspeakCLI.wave(text: text, voice: cli[1], extraArguments: Array(cli.dropFirst(2)))
        let identical = engineWave.samples == cliWave.samples
        print("fresh process \(ours): \(engineWave.samples.count) samples vs CLI \(cli): \(cliWave.samples.count); identical \(identical)")
        #expect(engineWave.sampleRate == cliWave.sampleRate)
        #expect(identical)
    }

    @Test func fasterRateGivesShorterAudio() throws {
        let text = "The quick brown fox jumps over the lazy dog."
        let slow = try engine.synthesize(text, rate: 150)
        let fast = try engine.synthesize(text, rate: 300)
        print("rate: 150 wpm \(seconds(slow)) s, 300 wpm \(seconds(fast)) s, ratio \(seconds(fast) / seconds(slow))")
        #expect(seconds(fast) < 0.7 * seconds(slow))
    }

    @Test func higherPitchRaisesTheFundamental() throws {
        let text = "hello world, this is a test of the pitch of the voice."
        let low = try #require(SignalMeasure.meanF0(try engine.synthesize(text, pitch: 98), sampleRate: SpeechEngine.sampleRate))
        let high = try #require(SignalMeasure.meanF0(try engine.synthesize(text, pitch: 147), sampleRate: SpeechEngine.sampleRate))
        print("pitch: asked 98 Hz → measured \(low) Hz; asked 147 Hz → measured \(high) Hz")
        #expect(abs(low / 98 - 1) < 0.1)
        #expect(abs(high / 147 - 1) < 0.12)
    }

    @Test func volumeScalesLevel() throws {
        let full = try engine.synthesize("hello world", volume: 1)
        let half = try engine.synthesize("hello world", volume: 0.5)
        let silent = try engine.synthesize("hello world", volume: 0)
        let drop = SignalMeasure.rmsDBFS(full) - SignalMeasure.rmsDBFS(half)
        print("volume: 1.0 → \(SignalMeasure.rmsDBFS(full)) dBFS, 0.5 → \(SignalMeasure.rmsDBFS(half)) dBFS, 0 → peak \(silent.map(abs).max() ?? 0)")
        #expect(abs(drop - 6.02) < 1.5)
        #expect((silent.map(abs).max() ?? 1) < 0.001)
    }

    @Test func stoppingFromTheChunkCallbackReturnsPromptly() throws {
        let text = String(repeating: "This sentence is repeated to make a long utterance. ", count: 40)
        let clock = ContinuousClock()
        var chunks = 0
        var delivered = 0
        var stopTime: ContinuousClock.Instant?
        let started = clock.now
        let finished = try engine.speak(text) { chunk in
            chunks += 1
            delivered += chunk.count
            if chunks == 3 {
                stopTime = clock.now
                return false
            }
            return true
        }
        let end = clock.now
        let afterStop = end - (stopTime ?? end)
        print("stop: \(chunks) chunks, \(delivered) samples (\(Double(delivered) / SpeechEngine.sampleRate) s) delivered, speak returned \(afterStop) after the stop, \(end - started) in all")
        #expect(finished == false)
        #expect(chunks == 3)
        #expect(afterStop < .milliseconds(50))

        // Stopping leaves nothing behind: the next utterance is a normal one.
        let next = try engine.synthesize("hello world")
        let cli = try EspeakCLI.wave(text: "hello world", voice: "en").samples.map { Float($0) / 32_768 }
        #expect(abs(Double(next.count) / Double(cli.count) - 1) < 0.05)
        #expect(SignalMeasure.envelopeCorrelation(next, cli) > 0.95)
    }

    @Test func fullUtteranceReportsCompletion() throws {
        var total = 0
        let finished = try engine.speak("hello world") { chunk in
            total += chunk.count
            return true
        }
        #expect(finished)
        let whole = try engine.synthesize("hello world").count
        #expect(abs(Double(total) / Double(whole) - 1) < 0.05)
    }

    @Test func voicesIncludeEnglish() throws {
        let voices = engine.voices()
        print("voices: \(voices.count); English: \(voices.filter { $0.language.hasPrefix("en") }.map { "\($0.identifier) \"\($0.name)\" \($0.languages) \($0.gender) \(String(describing: $0.age))" })")
        let english = try #require(voices.first { $0.identifier == "gmw/en" })
        #expect(english.name == "English (Great Britain)")
        #expect(english.language == "en-gb")
        #expect(english.languages.contains("en"))
        #expect(english.gender == .male)
        #expect(voices.contains { $0.language.hasPrefix("en-us") })
        #expect(Set(voices.map(\.identifier)).count == voices.count)
    }

    @Test(arguments: ["gmw/en-US", "English (America)", "en-us", "en+f3"])
    func acceptsVoiceIdentifiersNamesAndLanguages(voice: String) throws {
        let samples = try engine.synthesize("hello", voice: voice)
        #expect(SignalMeasure.rmsDBFS(samples) > -40)
    }

    @Test func unknownVoiceThrows() {
        #expect(throws: SpeechEngineError.voiceNotFound("zz-nonexistent")) {
            _ = try engine.synthesize("hello", voice: "zz-nonexistent").count
        }
    }

    @Test func callingBackFromTheChunkConsumerThrowsInsteadOfDeadlocking() throws {
        var inner: (any Error)?
        var voicesInside: Int?
        try engine.speak("hello") { _ in
            do { _ = try engine.synthesize("world") } catch { inner = error }
            voicesInside = engine.voices().count
            return false
        }
        #expect(inner as? SpeechEngineError == .reentrantCall)
        #expect(voicesInside == 0)
        // The engine is usable again afterwards.
        #expect(try engine.synthesize("hello").count > 0)
    }

    @Test func emptyTextGivesNoSpeech() throws {
        let samples = try engine.synthesize("")
        #expect(SignalMeasure.rmsDBFS(samples) < -60 || samples.isEmpty)
    }

    @Test func concurrentCallsAreSerialisedAndUnaffected() async throws {
        let texts = ["hello world", "The quick brown fox.", "Speech synthesis on Linux.", "One two three four."]
        let expected = try texts.map { try engine.synthesize($0) }
        let shared = engine
        // Each call records when its first and last chunk arrived; serialised calls
        // give disjoint intervals.
        let results = try await withThrowingTaskGroup(of: (index: Int, samples: [Float], first: ContinuousClock.Instant, last: ContinuousClock.Instant).self) { group in
            for _ in 0..<3 {
                for (index, text) in texts.enumerated() {
                    group.addTask {
                        var samples: [Float] = []
                        var first: ContinuousClock.Instant?
                        var last = ContinuousClock.now
                        try shared.speak(text) { chunk in
                            last = .now
                            if first == nil { first = last }
                            samples.append(contentsOf: chunk)
                            return true
                        }
                        return (index, samples, first ?? last, last)
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == texts.count * 3)
        let intervals = results.map { ($0.first, $0.last) }.sorted { $0.0 < $1.0 }
        let overlaps = zip(intervals, intervals.dropFirst()).filter { earlier, later in earlier.1 > later.0 }.count
        #expect(overlaps == 0, "utterances overlapped in time")
        let worst = results.map { SignalMeasure.envelopeCorrelation($0.samples, expected[$0.index]) }.min() ?? 0
        print("concurrency: \(results.count) concurrent calls, \(overlaps) overlapping intervals, lowest envelope correlation with the sequential rendering \(worst)")
        for result in results {
            let reference = expected[result.index]
            #expect(abs(Double(result.samples.count) / Double(reference.count) - 1) < 0.05)
            #expect(SignalMeasure.envelopeCorrelation(result.samples, reference) > 0.9)
        }
    }
}
