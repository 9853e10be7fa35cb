import CEspeakNG
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's single espeak-ng instance.
///
/// espeak-ng keeps its whole state (voice, parameters, output buffer, callback)
/// in C globals, so there can be only one, and no two calls may overlap. Every
/// espeak-ng call in this module runs inside ``withEngine(_:)``, which holds one
/// process-wide lock and initialises espeak-ng on first use.
final class EspeakRuntime: Sendable {
    /// The one instance, shared by every ``SpeechEngine``.
    static let shared = EspeakRuntime()

    /// espeak-ng's default voice (`ESPEAKNG_DEFAULT_VOICE`), used when none is given.
    static let defaultVoice = "en"

    /// Text flags: UTF-8 input, and the end-of-sentence pause after the last clause
    /// (as the espeak-ng CLI does) so an utterance ends in silence, not mid-decay.
    private static let synthFlags = UInt32(espeakCHARS_UTF8) | UInt32(espeakENDPAUSE)

    private let storage = Mutex(EspeakRuntimeStorage())
    /// The thread holding `storage` (0 when none), so a reentrant call fails instead of deadlocking.
    private let owner = Atomic<UInt>(0)

    private init() {}

    /// Runs `body` with espeak-ng initialised and exclusively held.
    ///
    /// Blocks while another thread is inside. Not reentrant: a call from inside `body`
    /// on the same thread (e.g. from a chunk consumer) throws ``SpeechEngineError/reentrantCall``.
    func withEngine<Result: Sendable>(
        _ body: (inout EspeakRuntimeStorage) throws(SpeechEngineError) -> Result
    ) throws(SpeechEngineError) -> Result {
        let thread = Self.currentThreadID
        // Only this thread can have stored its own ID, so a relaxed read cannot misfire.
        guard owner.load(ordering: .relaxed) != thread else { throw .reentrantCall }
        return try storage.withLock { (state: inout EspeakRuntimeStorage) throws(SpeechEngineError) -> Result in
            owner.store(thread, ordering: .relaxed)
            defer { owner.store(0, ordering: .relaxed) }
            if state.initialization == nil {
                state.initialization = Self.initialize()
            }
            try state.initialization!.get()
            return try body(&state)
        }
    }

    /// A non-zero identifier of the calling thread.
    private static var currentThreadID: UInt {
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
        #else
        UInt(pthread_self())
        #endif
    }

    /// One-time setup: synchronous output, so `espeak_Synth` returns only after the
    /// whole utterance went through the callback on the calling thread; no espeak-ng
    /// thread and no audio device are involved.
    ///
    /// Uses the `espeak_ng_*` form of `espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, NULL, 0)`
    /// because that one returns a status: `espeak_Initialize` calls `exit(1)` when the
    /// data is missing, or carries on silently with `espeakINITIALIZE_DONT_EXIT`.
    private static func initialize() -> Result<Void, SpeechEngineError> {
        espeak_ng_InitializePath(nil)
        var context: espeak_ng_ERROR_CONTEXT?
        let status = espeak_ng_Initialize(&context)
        guard status == ENS_OK else {
            let message = statusMessage(status)
            espeak_ng_ClearErrorContext(&context)
            return .failure(.initializationFailed(message))
        }
        // Buffer length 0 = espeak-ng's default 60 ms chunks, the CLI's setting too.
        let outputStatus = espeak_ng_InitializeOutput(ENOUTPUT_MODE_SYNCHRONOUS, 0, nil)
        guard outputStatus == ENS_OK else {
            return .failure(.initializationFailed(statusMessage(outputStatus)))
        }
        let rate = Int(espeak_ng_GetSampleRate())
        guard Double(rate) == SpeechEngine.sampleRate else {
            return .failure(.unsupportedSampleRate(rate))
        }
        espeak_SetSynthCallback { samples, count, events in
            guard let events, let userData = events.pointee.user_data else { return 0 }
            let sink = Unmanaged<SynthesisSink>.fromOpaque(userData).takeUnretainedValue()
            return sink.receive(samples: samples.map { UnsafePointer($0) },
                                count: Int(count),
                                events: UnsafePointer(events))
        }
        // Proves the data is usable (and loads the default voice) before reporting success.
        guard espeak_SetVoiceByName(defaultVoice) == EE_OK else {
            return .failure(.initializationFailed("espeak-ng default voice '\(defaultVoice)' could not be loaded"))
        }
        return .success(())
    }

    /// espeak-ng's text for a status code.
    private static func statusMessage(_ status: espeak_ng_STATUS) -> String {
        var buffer = [CChar](repeating: 0, count: 512)
        espeak_ng_GetStatusCodeMessage(status, &buffer, buffer.count)
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Selects a voice by espeak-ng name or identifier ("en", "gmw/en-US",
    /// "English (America)", "en+f3"), else by language tag, like the espeak-ng CLI's `-v`.
    static func selectVoice(_ spec: String) throws(SpeechEngineError) {
        if espeak_SetVoiceByName(spec) == EE_OK { return }
        let status = spec.withCString { language -> espeak_ERROR in
            var selector = espeak_VOICE()
            selector.languages = language
            return espeak_SetVoiceByProperties(&selector)
        }
        guard status == EE_OK else { throw .voiceNotFound(spec) }
    }

    /// Sets every per-utterance parameter, defaults included, because espeak-ng keeps
    /// parameters across utterances and voice changes.
    static func applyParameters(rate: Double?, pitch: Double?, volume: Double?) {
        typealias Mapping = SpeechParameterMapping
        espeak_SetParameter(espeakRATE, rate.map(Mapping.espeakRate(wordsPerMinute:)) ?? Mapping.defaultRate, 0)
        espeak_SetParameter(espeakPITCH, pitch.map(Mapping.espeakPitch(hertz:)) ?? Mapping.defaultPitch, 0)
        espeak_SetParameter(espeakVOLUME, volume.map(Mapping.espeakVolume(_:)) ?? Mapping.defaultVolume, 0)
        espeak_SetParameter(espeakRANGE, 50, 0)
    }

    /// Synthesises `text` into `sink` with the current voice and parameters.
    /// Returns false when the sink stopped it early.
    static func synthesize(_ text: String, into sink: SynthesisSink) throws(SpeechEngineError) -> Bool {
        let status = withExtendedLifetime(sink) {
            text.withCString { cText -> espeak_ERROR in
                espeak_Synth(cText, strlen(cText) + 1, 0, POS_CHARACTER, 0, synthFlags, nil,
                             Unmanaged.passUnretained(sink).toOpaque())
            }
        }
        if let rate = sink.foreignSampleRate { throw .unsupportedSampleRate(rate) }
        // A sink-requested stop is reported by espeak-ng as EE_OK (ENS_SPEECH_STOPPED).
        guard status == EE_OK else { throw .synthesisFailed(Int32(status.rawValue)) }
        return !sink.stoppedEarly
    }

    /// Reads espeak-ng's voice list (standard voices; it omits variants and MBROLA).
    static func listVoices() -> [SpeechEngine.Voice] {
        guard var entry = espeak_ListVoices(nil) else { return [] }
        var voices: [SpeechEngine.Voice] = []
        while let voicePointer = entry.pointee {
            let voice = voicePointer.pointee
            voices.append(SpeechEngine.Voice(
                name: voice.name.map { String(cString: $0) } ?? "",
                identifier: voice.identifier.map { String(cString: $0) } ?? "",
                languages: voice.languages.map(parseLanguages) ?? [],
                gender: SpeechEngine.Voice.Gender(espeakValue: voice.gender),
                age: voice.age == 0 ? nil : Int(voice.age)))
            entry += 1
        }
        return voices
    }

    /// Decodes `espeak_VOICE.languages`: repeated (priority byte, NUL-terminated tag),
    /// ended by an empty entry (a zero priority byte). Sorted by priority, lowest first.
    private static func parseLanguages(_ list: UnsafePointer<CChar>) -> [String] {
        var result: [(priority: UInt8, tag: String)] = []
        var cursor = UnsafeRawPointer(list).assumingMemoryBound(to: UInt8.self)
        while cursor.pointee != 0 {
            let priority = cursor.pointee
            cursor += 1
            let tag = String(cString: cursor)
            result.append((priority, tag))
            cursor += strlen(UnsafeRawPointer(cursor).assumingMemoryBound(to: CChar.self)) + 1
        }
        return result.enumerated()
            .sorted { ($0.element.priority, $0.offset) < ($1.element.priority, $1.offset) }
            .map(\.element.tag)
    }
}
