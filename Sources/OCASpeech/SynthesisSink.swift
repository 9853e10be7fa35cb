import CEspeakNG

/// Receives one utterance's audio from espeak-ng's synthesis callback.
///
/// espeak-ng's callback is a plain C function pointer, so it cannot capture
/// anything: the sink travels to it as `espeak_Synth`'s `user_data`, which
/// espeak-ng copies into every event list it hands the callback.
final class SynthesisSink {
    /// The caller's chunk consumer; returning false stops synthesis.
    private let deliver: (UnsafeBufferPointer<Float>) -> Bool
    /// Reused conversion buffer, so steady-state streaming does not allocate.
    private var scratch: [Float] = []
    /// Set when `deliver` asked to stop before espeak-ng reached the end.
    private(set) var stoppedEarly = false
    /// Set when espeak-ng announced an output rate other than the engine's.
    private(set) var foreignSampleRate: Int?

    /// Called for each word espeak-ng announces, before the chunk that holds its first sample.
    private let word: ((SpeechEngine.WordMark) -> Void)?

    init(deliver: @escaping (UnsafeBufferPointer<Float>) -> Bool, word: ((SpeechEngine.WordMark) -> Void)? = nil) {
        self.deliver = deliver
        self.word = word
    }

    /// Handles one callback; returns espeak-ng's 0 (continue) or 1 (abort).
    func receive(samples: UnsafePointer<Int16>?, count: Int, events: UnsafePointer<espeak_EVENT>?) -> Int32 {
        if let events, let rate = Self.announcedSampleRate(in: events),
           Double(rate) != SpeechEngine.sampleRate {
            // Only MBROLA voices change the rate; mixing rates in one stream would be wrong.
            foreignSampleRate = rate
            return 1
        }
        if let word, let events { Self.words(in: events, report: word) }
        // A nil buffer marks the end of the utterance; an empty one is just a pause in output.
        guard let samples, count > 0 else { return 0 }
        if scratch.count < count {
            scratch = [Float](repeating: 0, count: count)
        }
        let keepGoing = scratch.withUnsafeMutableBufferPointer { buffer -> Bool in
            for index in 0..<count {
                buffer[index] = Float(samples[index]) / 32_768
            }
            return deliver(UnsafeBufferPointer(rebasing: buffer[0..<count]))
        }
        if !keepGoing {
            stoppedEarly = true
            return 1
        }
        return 0
    }

    /// The word events of a terminated event list: where each word's audio starts (espeak-ng gives milliseconds
    /// from the utterance's start) and where the word is in the text (1-based characters, made 0-based).
    private static func words(in events: UnsafePointer<espeak_EVENT>, report: (SpeechEngine.WordMark) -> Void) {
        var event = events
        while event.pointee.type != espeakEVENT_LIST_TERMINATED {
            if event.pointee.type == espeakEVENT_WORD {
                let e = event.pointee
                report(SpeechEngine.WordMark(sampleOffset: Int((Double(e.audio_position) * SpeechEngine.sampleRate / 1000).rounded()),
                                             characterOffset: max(Int(e.text_position) - 1, 0), characterCount: max(Int(e.length), 0)))
            }
            event += 1
        }
    }

    /// The rate carried by an `espeakEVENT_SAMPLERATE` event in a terminated event list.
    private static func announcedSampleRate(in events: UnsafePointer<espeak_EVENT>) -> Int? {
        var event = events
        while event.pointee.type != espeakEVENT_LIST_TERMINATED {
            if event.pointee.type == espeakEVENT_SAMPLERATE {
                return Int(event.pointee.id.number)
            }
            event += 1
        }
        return nil
    }
}
