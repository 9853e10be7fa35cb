/// The mutable part of ``EspeakRuntime``; only touched while its lock is held.
struct EspeakRuntimeStorage {
    /// Outcome of the one-time espeak-ng initialisation; nil until first attempted.
    var initialization: Result<Void, SpeechEngineError>?
    /// The voice list, read once: espeak-ng's own list is rebuilt (and its old
    /// entries freed) on every `espeak_ListVoices`, so it is copied and cached.
    var voices: [SpeechEngine.Voice]?
}
