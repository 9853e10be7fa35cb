import Foundation
import OCASpeech

/// A voice: here one of espeak-ng's installed voices, named by its BCP 47 language ("en-US") and an identifier
/// ("org.espeak-ng.voice.gmw/en-US").
open class AVSpeechSynthesisVoice: NSObject, @unchecked Sendable {
    static let identifierPrefix = "org.espeak-ng.voice."

    /// The voice's language, as BCP 47 ("en-US").
    public let language: String
    /// The voice's unique identifier.
    public let identifier: String
    /// The voice's display name.
    public let name: String
    /// The voice's quality (`.default` for every voice here).
    public let quality: AVSpeechSynthesisVoiceQuality
    /// The voice's gender.
    public let gender: AVSpeechSynthesisVoiceGender
    /// The espeak-ng voice behind it.
    let engineVoice: String

    init(_ voice: SpeechEngine.Voice) {
        language = Self.bcp47(voice.language)
        identifier = Self.identifierPrefix + voice.identifier
        name = voice.name
        quality = .default
        gender = switch voice.gender {
        case .male: .male
        case .female: .female
        default: .unspecified
        }
        engineVoice = voice.identifier
        super.init()
    }

    /// The voice for a BCP 47 language ("en-US", or "en" for any English); nil for the user's current language.
    /// Nil when no installed voice speaks it.
    public convenience init?(language languageCode: String?) {
        let wanted = Self.bcp47(languageCode ?? Self.currentLanguageCode()).lowercased()
        let voices = Self.installed
        let exact = voices.first { $0.language.lowercased() == wanted }
        let base = wanted.split(separator: "-").first.map(String.init) ?? wanted
        guard let voice = exact ?? voices.first(where: { $0.language.lowercased() == base })
            ?? voices.first(where: { $0.language.lowercased().hasPrefix(base + "-") }) else { return nil }
        self.init(copying: voice)
    }

    /// The voice with this identifier, or nil.
    public convenience init?(identifier: String) {
        guard let voice = Self.installed.first(where: { $0.identifier == identifier }) else { return nil }
        self.init(copying: voice)
    }

    private init(copying v: AVSpeechSynthesisVoice) {
        language = v.language
        identifier = v.identifier
        name = v.name
        quality = v.quality
        gender = v.gender
        engineVoice = v.engineVoice
        super.init()
    }

    /// Every installed voice.
    open class func speechVoices() -> [AVSpeechSynthesisVoice] { installed }

    /// The user's language as BCP 47, from LC_ALL, LC_MESSAGES or LANG ("en-US" when none names one).
    open class func currentLanguageCode() -> String {
        let environment = ProcessInfo.processInfo.environment
        for key in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            // "de_DE.UTF-8@euro": the language and region only; C and POSIX name none.
            guard let value = environment[key], let tag = value.split(whereSeparator: { $0 == "." || $0 == "@" }).first,
                  tag != "C", tag != "POSIX" else { continue }
            return bcp47(String(tag))
        }
        return "en-US"
    }

    /// The format of the audio the voice speaks (22,050 Hz mono Float32).
    open var audioFileSettings: [String: Any] {
        [AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: SpeechEngine.sampleRate, AVNumberOfChannelsKey: 1,
         AVLinearPCMBitDepthKey: 32, AVLinearPCMIsFloatKey: true, AVLinearPCMIsBigEndianKey: false,
         AVLinearPCMIsNonInterleaved: false]
    }

    private static let installed: [AVSpeechSynthesisVoice] = {
        guard let engine = try? SpeechEngine() else { return [] }
        return engine.voices().map(AVSpeechSynthesisVoice.init)
    }()

    /// "en_us", "en-us" or "EN-US" as "en-US": a region in capitals, a script (the second subtag, four letters) in
    /// title case, everything else (and all after a private-use "x") in lower case.
    static func bcp47(_ tag: String) -> String {
        let parts = tag.replacingOccurrences(of: "_", with: "-").split(separator: "-").map { $0.lowercased() }
        var out: [String] = []
        var privateUse = false
        for (i, p) in parts.enumerated() {
            if p == "x" { privateUse = true }
            if privateUse || i == 0 {
                out.append(p)
            } else if p.count == 2 && p.allSatisfy(\.isLetter) {
                out.append(p.uppercased())
            } else if p.count == 4 && i == 1 && p.allSatisfy(\.isLetter) {
                out.append(p.prefix(1).uppercased() + p.dropFirst())
            } else {
                out.append(p)
            }
        }
        return out.joined(separator: "-")
    }
}
