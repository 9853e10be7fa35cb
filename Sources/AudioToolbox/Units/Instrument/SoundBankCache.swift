import AudioDSP

/// Parsed SoundFont and DLS banks shared by every instrument unit in the process, keyed by path, held weakly so a bank
/// lives as long as a unit plays it: two AUSamplers on the same General MIDI bank parse it once. The default
/// bank of the General MIDI units (DLSSynth, AUMIDISynth) is the `OCA_DEFAULT_SOUNDBANK` environment variable's
/// file, else Debian's /usr/share/sounds/sf2/default-GM.sf2 (fluid-soundfont-gm or timgm6mb-soundfont), else
/// TimGM6mb.sf2 or FluidR3_GM.sf2 there.
enum SoundBankCache {
    private final class Weak { weak var font: SoundFont?; init(_ f: SoundFont) { font = f } }
    private static let banks = LockedState<[String: Weak]>([:])
    /// The default General MIDI bank, once parsed, stays for the process (a big bank takes seconds to parse, and the
    /// GM synths are made and disposed of often), as Apple's built-in bank does.
    private static let kept = LockedState<SoundFont?>(nil)

    /// The bank at `path`, parsed once while anyone holds it.
    static func bank(at path: String) -> Result<SoundFont, OSStatusError> {
        let key = (path as NSString).standardizingPath
        if let font = banks.withLock({ $0[key]?.font }) { return .success(font) }
        do {
            let font = try SoundFont(contentsOf: key)
            banks.withLock { $0[key] = Weak(font) }
            return .success(font)
        } catch {
            return .failure(OSStatusError(status(for: error)))
        }
    }

    /// The default General MIDI bank, parsed once per process; nil when none is installed or it cannot be read.
    static func defaultBank() -> SoundFont? {
        if let font = kept.withLock({ $0 }) { return font }
        guard let path = defaultBankPath, case .success(let font) = bank(at: path) else { return nil }
        kept.withLock { $0 = font }
        return font
    }

    /// The General MIDI bank the GM units load when given none, if one is installed.
    static var defaultBankPath: String? {
        var candidates: [String] = []
        if let env = ProcessInfo.processInfo.environment["OCA_DEFAULT_SOUNDBANK"], !env.isEmpty { candidates.append(env) }
        candidates += ["/usr/share/sounds/sf2/default-GM.sf2", "/usr/share/sounds/sf2/TimGM6mb.sf2", "/usr/share/sounds/sf2/FluidR3_GM.sf2"]
        return candidates.first { FileManager.default.fileExists(atPath: $0) }
    }

    /// Apple's answers: a file that cannot be read is kAudioUnitErr_InvalidFile's sibling "file not found"
    /// (fnfErr, -43) when missing, and a file that is not a bank kAudioUnitErr_InvalidFile.
    static func status(for error: SoundFontError) -> OSStatus {
        if case .unreadableFile(_, let errno) = error, errno == ENOENT { return -43 }
        return kAudioUnitErr_InvalidFile
    }
}
