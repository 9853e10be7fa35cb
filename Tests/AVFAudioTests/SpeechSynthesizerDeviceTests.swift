import AVFoundation
import DeviceTestSupport
import Foundation
import Testing

/// AVSpeechSynthesizer on the private PulseAudio server: an utterance is heard on the default output for about as
/// long as its written audio lasts, with the delegate told of its start, each word and its end, in that order;
/// stopping cancels at once and silences the output; pausing holds the speech and continuing finishes it.
@Suite(.serialized, .audioServer) struct SpeechSynthesizerDeviceTests {
    final class Events: AVSpeechSynthesizerDelegate, @unchecked Sendable {
        let lock = NSLock()
        var log: [String] = []
        let ended = DispatchSemaphore(value: 0)
        let paused = DispatchSemaphore(value: 0)
        func add(_ s: String) { lock.withLock { log.append(s) } }
        var all: [String] { lock.withLock { log } }
        func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didStart utterance: AVSpeechUtterance) { add("start") }
        func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didFinish utterance: AVSpeechUtterance) { add("finish"); ended.signal() }
        func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didCancel utterance: AVSpeechUtterance) { add("cancel"); ended.signal() }
        func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didPause utterance: AVSpeechUtterance) { add("pause"); paused.signal() }
        func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, didContinue utterance: AVSpeechUtterance) { add("continue") }
        func speechSynthesizer(_ synthesizer: AVSpeechSynthesizer, willSpeakRangeOfSpeechString characterRange: NSRange,
                               utterance: AVSpeechUtterance) {
            add((utterance.speechString as NSString).substring(with: characterRange))
        }
    }

    /// The span (first to last sample above `threshold`) of the left channel, in seconds at 44.1 kHz.
    static func soundingSpan(_ x: [Float], threshold: Float = 0.01) -> Double {
        guard let first = x.firstIndex(where: { abs($0) > threshold }), let last = x.lastIndex(where: { abs($0) > threshold }) else { return 0 }
        return Double(last - first) / 44100
    }

    @Test func speaksAnUtteranceWithItsWords() throws {
        let text = "Hello world, how are you"
        let written = try SpeechSynthesizerTests.written(AVSpeechUtterance(string: text)).samples
        let capture = try PulseTestServer.Capture()
        Thread.sleep(forTimeInterval: 0.2)
        let synthesizer = AVSpeechSynthesizer()
        let events = Events()
        synthesizer.delegate = events
        synthesizer.speak(AVSpeechUtterance(string: text))
        #expect(synthesizer.isSpeaking)
        #expect(events.ended.wait(timeout: .now() + 15) == .success)
        Thread.sleep(forTimeInterval: 0.2)
        #expect(!synthesizer.isSpeaking)
        let heard = capture.finish()[0]
        #expect(events.all == ["start", "Hello", "world", "how", "are", "you", "finish"], "\(events.all)")
        // What is heard lasts as long as the written audio's sounding part (within 0.15 s).
        let spanHeard = Self.soundingSpan(heard)
        let spanWritten = Self.soundingSpan(written, threshold: 0.01) * 44100 / 22050
        #expect(abs(spanHeard - spanWritten) < 0.15, "heard \(spanHeard) s, written \(spanWritten) s")
    }

    @Test func stopCancelsAndSilences() throws {
        let capture = try PulseTestServer.Capture()
        let synthesizer = AVSpeechSynthesizer()
        let events = Events()
        synthesizer.delegate = events
        synthesizer.speak(AVSpeechUtterance(string: "This is a long sentence that keeps going for several seconds so that it can be stopped."))
        synthesizer.speak(AVSpeechUtterance(string: "This one is never heard."))
        Thread.sleep(forTimeInterval: 1.0)
        let stoppedAt = Date()
        #expect(synthesizer.stopSpeaking(at: .immediate))
        #expect(events.ended.wait(timeout: .now() + 2) == .success)
        #expect(Date().timeIntervalSince(stoppedAt) < 0.5)
        Thread.sleep(forTimeInterval: 0.6)
        #expect(!synthesizer.isSpeaking && !synthesizer.stopSpeaking(at: .immediate))
        let heard = capture.finish()[0]
        #expect(events.all.first == "start" && events.all.last == "cancel" && !events.all.contains("finish"), "\(events.all)")
        // Speech was heard, and the last half second (well after the stop) is silent.
        #expect(heard.contains { abs($0) > 0.05 })
        let tail = heard.suffix(Int(0.5 * 44100))
        #expect(tail.allSatisfy { abs($0) < 0.01 }, "peak \(tail.map(abs).max() ?? 0) after the stop")
    }

    @Test func pauseHoldsAndContinueFinishes() throws {
        let synthesizer = AVSpeechSynthesizer()
        let events = Events()
        synthesizer.delegate = events
        synthesizer.speak(AVSpeechUtterance(string: "One two three four five six seven eight"))
        Thread.sleep(forTimeInterval: 0.8)
        #expect(synthesizer.pauseSpeaking(at: .word))
        #expect(events.paused.wait(timeout: .now() + 2) == .success)
        #expect(synthesizer.isPaused && synthesizer.isSpeaking)
        let wordsBefore = events.all.count
        Thread.sleep(forTimeInterval: 0.7)
        #expect(events.all.count == wordsBefore, "words told while paused: \(events.all)")
        #expect(synthesizer.continueSpeaking())
        #expect(events.ended.wait(timeout: .now() + 10) == .success)
        let log = events.all
        #expect(log.first == "start" && log.last == "finish" && log.contains("pause") && log.contains("continue"), "\(log)")
        #expect(log.filter { !["start", "finish", "pause", "continue"].contains($0) }
                == ["One", "two", "three", "four", "five", "six", "seven", "eight"], "\(log)")
    }
}
