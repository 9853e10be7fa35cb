/// Text-to-speech on espeak-ng, the engine behind OpenCoreAudio's speech
/// synthesis unit (`'augn'`/`'ttsp'`) and its C Speech Synthesis API.
///
/// Audio is 32-bit float, mono, at ``sampleRate`` (espeak-ng's native 22 050 Hz).
///
/// Thread safety: espeak-ng is one process-global synthesiser, so every
/// `SpeechEngine`, whichever thread calls it, goes through one process-wide lock.
/// Concurrent ``speak(_:voice:rate:pitch:volume:chunk:)`` and
/// ``synthesize(_:voice:rate:pitch:volume:)`` calls are serialised: each runs
/// a whole utterance (or until its chunk consumer stops it) before the next
/// begins. espeak-ng runs far faster than real time (about 1 s of speech per
/// 10–20 ms on one core), so a speech channel should stream chunks into its own
/// buffer rather than pace playback inside the chunk consumer, which would hold
/// the lock for every other channel.
public final class SpeechEngine: Sendable {
    /// The sample rate, in hertz, of all audio this engine produces.
    public static var sampleRate: Double { 22_050 }

    /// The voice used when a call passes `voice: nil` (espeak-ng's default English).
    public static var defaultVoice: String { EspeakRuntime.defaultVoice }

    /// Opens the engine, initialising the process's espeak-ng on first use.
    ///
    /// Instances are cheap handles onto the one espeak-ng instance.
    /// - Throws: ``SpeechEngineError/initializationFailed(_:)`` when espeak-ng's data
    ///   cannot be loaded.
    public init() throws {
        try EspeakRuntime.shared.withEngine { _ in }
    }

    /// The installed espeak-ng voices (standard voices; espeak-ng's list leaves out
    /// variants such as "+f3" and MBROLA voices), in espeak-ng's order.
    public func voices() -> [Voice] {
        let voices = try? EspeakRuntime.shared.withEngine { state in
            if let cached = state.voices { return cached }
            let listed = EspeakRuntime.listVoices()
            state.voices = listed
            return listed
        }
        return voices ?? []
    }

    /// Synthesises a whole utterance.
    ///
    /// - Parameters:
    ///   - text: UTF-8 text; plain text, no SSML or embedded speech commands.
    ///   - voice: an espeak-ng voice identifier ("gmw/en-US"), name, name with variant
    ///     ("en+f3") or language tag ("en-us"); nil selects ``defaultVoice``.
    ///   - wordsPerMinute: Apple's speaking rate; nil is the default 175. See
    ///     ``SpeechParameterMapping/espeakRate(wordsPerMinute:)``.
    ///   - pitch: Apple's baseline pitch in hertz; nil is espeak-ng's default
    ///     (about 98 Hz). See ``SpeechParameterMapping/espeakPitch(hertz:)``.
    ///   - volume: 0...1 (Apple's range; 1 is the default full volume). See
    ///     ``SpeechParameterMapping/espeakVolume(_:)``.
    /// - Returns: mono samples at ``sampleRate``, ending in espeak-ng's sentence pause.
    public func synthesize(_ text: String, voice: String? = nil, rate wordsPerMinute: Double? = nil,
                           pitch: Double? = nil, volume: Double? = nil) throws -> [Float] {
        var samples: [Float] = []
        try speak(text, voice: voice, rate: wordsPerMinute, pitch: pitch, volume: volume) { chunk in
            samples.append(contentsOf: chunk)
            return true
        }
        return samples
    }

    /// Synthesises an utterance chunk by chunk (about 60 ms of audio each), for a
    /// speech channel that plays while the rest is produced or must stop early.
    ///
    /// `chunk` runs synchronously on the calling thread while the engine's lock is
    /// held; the buffer is only valid during the call. Return false from it to stop
    /// (StopSpeech): synthesis ends before the next chunk is made. `chunk` must not
    /// call back into any `SpeechEngine`: such a call throws
    /// ``SpeechEngineError/reentrantCall`` (``voices()`` returns an empty list).
    ///
    /// Parameters are those of ``synthesize(_:voice:rate:pitch:volume:)``.
    /// - Returns: true if the utterance was spoken to its end, false if `chunk` stopped it.
    /// `words`, when given, is called for each word before the chunk holding its first sample, with where its
    /// audio starts and where it is in `text`.
    @discardableResult
    public func speak(_ text: String, voice: String? = nil, rate wordsPerMinute: Double? = nil,
                      pitch: Double? = nil, volume: Double? = nil, words: ((WordMark) -> Void)? = nil,
                      chunk: (UnsafeBufferPointer<Float>) -> Bool) throws -> Bool {
        try withoutActuallyEscaping(chunk) { consumer in
            // The sink only lives for this call; escaping is needed solely to reach the C callback.
            let sink = SynthesisSink(deliver: consumer, word: words)
            return try EspeakRuntime.shared.withEngine { _ throws(SpeechEngineError) -> Bool in
                try EspeakRuntime.selectVoice(voice ?? Self.defaultVoice)
                EspeakRuntime.applyParameters(rate: wordsPerMinute, pitch: pitch, volume: volume)
                return try EspeakRuntime.synthesize(text, into: sink)
            }
        }
    }
}
