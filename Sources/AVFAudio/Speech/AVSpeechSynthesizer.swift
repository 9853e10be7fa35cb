import AudioToolbox
import Foundation
import OCASpeech

/// Speaks utterances, one after another, on the default output device, or writes their audio to buffers.
///
/// The voices are espeak-ng's (OCASpeech). Each utterance is synthesised on the synthesizer's own thread while it
/// plays through an output audio queue (22,050 Hz mono Float32); espeak-ng runs far faster than real time, so
/// playing starts as soon as the first fifth of a second is made. Word callbacks follow the queue's clock.
///
/// Threading: the delegate is called on a private serial dispatch queue, never on the main thread (as
/// AVAudioPlayer's). `speak`, `stopSpeaking`, `pauseSpeaking` and `continueSpeaking` may be called from any thread.
open class AVSpeechSynthesizer: NSObject, @unchecked Sendable {
    /// Receives synthesized audio; the last call has an empty buffer (frameLength 0).
    public typealias BufferCallback = (AVAudioBuffer) -> Void
    /// Receives the markers of the audio about to be delivered.
    public typealias MarkerCallback = ([AVSpeechSynthesisMarker]) -> Void

    /// Told when utterances start, finish, pause, continue or are cancelled, and of each word.
    open weak var delegate: AVSpeechSynthesizerDelegate?
    /// Whether speech is playing or waiting in the queue (true while paused too).
    open var isSpeaking: Bool { state.withLock { current != nil || !pending.isEmpty } }
    /// Whether speech is paused.
    open var isPaused: Bool { state.withLock { paused } }
    /// Whether the synthesizer uses the app's audio session (there is one session here either way).
    open var usesApplicationAudioSession = true
    /// Whether speech goes to a call's uplink (there are no calls here).
    open var mixToTelephonyUplink = false
    /// The output channels to speak on (the default device's channels are used here).
    open var outputChannels: [AVAudioSessionChannelDescription]?

    private let state = NSCondition()
    private var pending: [AVSpeechUtterance] = []
    private var current: AVSpeechUtterance?
    private var paused = false
    private var stopAt: AVSpeechBoundary?
    private var pauseAt: AVSpeechBoundary?
    private var working = false
    private let delegateQueue = DispatchQueue(label: "AVSpeechSynthesizer")
    private let writer = DispatchQueue(label: "AVSpeechSynthesizer.write")

    /// A synthesizer with nothing to say yet.
    public override init() { super.init() }

    /// Adds `utterance` to the queue; it is spoken after those before it.
    open func speak(_ utterance: AVSpeechUtterance) {
        state.lock()
        pending.append(utterance)
        let start = !working
        working = true
        state.unlock()
        if start {
            let thread = Thread { [self] in work() }
            thread.name = "AVSpeechSynthesizer"
            thread.start()
        }
    }

    /// Stops speaking at once or after the current word, and empties the queue. False when nothing was spoken.
    @discardableResult
    open func stopSpeaking(at boundary: AVSpeechBoundary) -> Bool {
        state.lock()
        defer { state.unlock() }
        guard current != nil || !pending.isEmpty else { return false }
        pending.removeAll()
        stopAt = boundary
        state.broadcast()
        return true
    }

    /// Pauses at once or after the current word. False when nothing is being spoken.
    @discardableResult
    open func pauseSpeaking(at boundary: AVSpeechBoundary) -> Bool {
        state.lock()
        defer { state.unlock() }
        guard current != nil, !paused else { return false }
        pauseAt = boundary
        state.broadcast()
        return true
    }

    /// Resumes paused speech. False when speech was not paused.
    @discardableResult
    open func continueSpeaking() -> Bool {
        state.lock()
        defer { state.unlock() }
        guard paused || pauseAt != nil else { return false }
        pauseAt = nil
        paused = false
        state.broadcast()
        return true
    }

    // MARK: Writing

    /// Synthesises `utterance` into buffers (22,050 Hz mono Float32) handed to `bufferCallback` on a private queue,
    /// ending with an empty buffer.
    open func write(_ utterance: AVSpeechUtterance, toBufferCallback bufferCallback: @escaping BufferCallback) {
        write(utterance, toBufferCallback: bufferCallback, toMarkerCallback: { _ in })
    }

    /// As `write(_:toBufferCallback:)`, with the words' markers handed to `markerCallback` before the buffer that
    /// holds their first sample.
    open func write(_ utterance: AVSpeechUtterance, toBufferCallback bufferCallback: @escaping BufferCallback,
                    toMarkerCallback markerCallback: @escaping MarkerCallback) {
        let callbacks = SpeechCallbacks(buffer: bufferCallback, markers: markerCallback)
        writer.async {
            let bufferCallback = callbacks.buffer, markerCallback = callbacks.markers
            let format = AVAudioFormat(standardFormatWithSampleRate: SpeechEngine.sampleRate, channels: 1)!
            let text = utterance.speechString
            let words = SpeechText(text)
            var written = 0, told = 0
            var marks: [SpeechEngine.WordMark] = []
            // The words whose starts are known, as markers (a word espeak-ng joined to the next is known once that
            // next word's mark has come, so its marker can follow the buffer it starts in).
            func tell(end: Int?) {
                let timed = words.timedWords(marks, end: end)
                guard timed.count > told else { return }
                markerCallback(timed[told...].map { AVSpeechSynthesisMarker(markerType: .word, forTextRange: $0.range,
                                                                            atByteSampleOffset: $0.sample * 4) })
                told = timed.count
            }
            Self.synthesize(utterance, words: { marks.append($0) }) { chunk in
                tell(end: nil)
                guard let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: AVAudioFrameCount(chunk.count)) else { return false }
                buffer.frameLength = AVAudioFrameCount(chunk.count)
                buffer.floatChannelData![0].update(from: chunk.baseAddress!, count: chunk.count)
                written += chunk.count
                bufferCallback(buffer)
                return true
            }
            tell(end: written)
            bufferCallback(AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 1)!)
        }
    }

    // MARK: Speaking

    private func tell(_ event: @escaping @Sendable (AVSpeechSynthesizerDelegate) -> Void) {
        delegateQueue.async { [weak self] in
            guard let self, let delegate = self.delegate else { return }
            event(delegate)
        }
    }

    /// The utterances, one by one, until the queue is empty.
    private func work() {
        while true {
            state.lock()
            guard !pending.isEmpty else {
                working = false
                current = nil
                stopAt = nil
                state.unlock()
                return
            }
            let utterance = pending.removeFirst()
            current = utterance
            stopAt = nil
            pauseAt = nil
            paused = false
            state.unlock()
            let finished = speakOne(utterance)
            tell { finished ? $0.speechSynthesizer(self, didFinish: utterance) : $0.speechSynthesizer(self, didCancel: utterance) }
            if finished { _ = waitUnlessStopped(utterance.postUtteranceDelay) }
            state.lock()
            current = nil
            state.unlock()
        }
    }

    /// Waits `seconds` unless a stop comes first; false if stopped.
    private func waitUnlessStopped(_ seconds: TimeInterval) -> Bool {
        guard seconds > 0 else { return state.withLock { stopAt == nil } }
        let deadline = Date().addingTimeInterval(seconds)
        state.lock()
        defer { state.unlock() }
        while stopAt == nil && Date() < deadline { _ = state.wait(until: deadline) }
        return stopAt == nil
    }

    static func engineVoice(_ utterance: AVSpeechUtterance) -> String? {
        (utterance.voice ?? AVSpeechSynthesisVoice(language: nil))?.engineVoice
    }

    /// Synthesises `utterance` with its voice, rate, pitch and volume, chunk by chunk (see SpeechEngine.speak).
    private static func synthesize(_ utterance: AVSpeechUtterance, words: @escaping (SpeechEngine.WordMark) -> Void,
                                   chunk: (UnsafeBufferPointer<Float>) -> Bool) {
        _ = try? SpeechEngine().speak(utterance.speechString, voice: engineVoice(utterance), rate: utterance.wordsPerMinute,
                                      pitch: utterance.pitchHertz, volume: Double(utterance.volume), words: words, chunk: chunk)
    }

    /// Speaks one utterance; true if it was heard to its end.
    private func speakOne(_ utterance: AVSpeechUtterance) -> Bool {
        guard waitUnlessStopped(utterance.preUtteranceDelay) else { return false }
        let stream = SpeechStream()
        let words = SpeechText(utterance.speechString)
        let synthesis = Thread { [self] in
            Self.synthesize(utterance, words: { stream.addMark($0) }) { chunk in
                stream.append(chunk)
                return state.withLock { stopAt != .immediate }
            }
            stream.finish()
        }
        synthesis.start()
        guard let queue = SpeechQueue(stream: stream) else {
            stream.waitForEnd()
            return false
        }
        defer { queue.dispose() }
        stream.waitForStart(frames: Int(0.2 * SpeechEngine.sampleRate))
        tell { $0.speechSynthesizer(self, didStart: utterance) }
        guard queue.start() else { return false }
        var told = 0
        var timed: [(range: NSRange, sample: Int)] = []
        var known: (marks: Int, end: Int?) = (-1, nil)
        while true {
            let heard = queue.framesPlayed()
            let marks = stream.marks, end = stream.endSamples
            // Recomputed only when a mark or the end has come.
            if marks.count != known.marks || end != known.end {
                timed = words.timedWords(marks, end: end)
                known = (marks.count, end)
            }
            // Words whose first sample is heard now.
            while told < timed.count && timed[told].sample <= heard {
                let range = timed[told].range
                tell { $0.speechSynthesizer(self, willSpeakRangeOfSpeechString: range, utterance: utterance) }
                told += 1
            }
            let atWordBoundary = told < timed.count && timed[told].sample <= heard + Int(0.02 * SpeechEngine.sampleRate)
            state.lock()
            let stop = stopAt == .immediate || (stopAt == .word && atWordBoundary)
            let pause = pauseAt == .immediate || (pauseAt == .word && atWordBoundary)
            if pause {
                pauseAt = nil
                paused = true
            }
            state.unlock()
            if stop {
                queue.stop()
                return false
            }
            if pause {
                queue.pause()
                tell { $0.speechSynthesizer(self, didPause: utterance) }
                state.lock()
                while paused && stopAt == nil { state.wait() }
                let stopped = stopAt != nil
                state.unlock()
                if stopped {
                    queue.stop()
                    return false
                }
                guard queue.start() else { return false }
                tell { $0.speechSynthesizer(self, didContinue: utterance) }
                continue
            }
            if queue.hasEnded { break }
            Thread.sleep(forTimeInterval: 0.01)
        }
        // Words not yet told (the last ones, reached as the queue ran out).
        for word in words.timedWords(stream.marks, end: stream.endSamples ?? 0).dropFirst(told) {
            let range = word.range
            tell { $0.speechSynthesizer(self, willSpeakRangeOfSpeechString: range, utterance: utterance) }
        }
        return true
    }
}

/// A write call's callbacks, carried to the writing queue (the client's closures are not marked Sendable, as
/// Apple's are not; they are called on that one queue only).
private struct SpeechCallbacks: @unchecked Sendable {
    let buffer: AVSpeechSynthesizer.BufferCallback
    let markers: AVSpeechSynthesizer.MarkerCallback
}
