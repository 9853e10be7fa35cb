import CoreAudio
import Foundation

/// The application's audio as a whole (iOS 17, macOS 14): its record permission and its input mute.
///
/// Linux asks no permission to record: `recordPermission` is `.granted` and a request is granted at once (on
/// another thread, as Apple allows). Muting zeroes every input this process reads from any device, before any
/// client (I/O unit, audio queue, engine) sees it; the device and the sound server are untouched.
open class AVAudioApplication: NSObject, @unchecked Sendable {
    /// What `recordPermission` answers.
    public enum recordPermission: Int, @unchecked Sendable {
        /// The user has not been asked.
        case undetermined = 1_970_168_948  // 'undt'
        /// The user denied recording.
        case denied = 1_684_369_017  // 'deny'
        /// The user allowed recording.
        case granted = 1_735_552_628  // 'grnt'
    }

    /// Posted when the input mute changes while a recording session is active; `muteStateKey` in its user info holds
    /// the new state (an NSNumber, true for muted).
    public static let inputMuteStateChangeNotification = NSNotification.Name("AVAudioApplicationInputMuteStateChangeNotification")
    /// The user-info key of `inputMuteStateChangeNotification`.
    public static let muteStateKey = "AVAudioApplicationMuteStateKey"

    /// The process's one instance.
    public static let shared = AVAudioApplication()

    private let lock = NSLock()
    private var muteHandler: ((Bool) -> Bool)?

    private override init() { super.init() }

    /// Whether this process's input is muted (its samples zeroed).
    open var isInputMuted: Bool { ProcessInputMute.muted.load(ordering: .relaxed) }

    /// Mutes or unmutes this process's input. The change is announced by `inputMuteStateChangeNotification` when a
    /// recording session (category record or playAndRecord) is active, and the handler set with
    /// `setInputMuteStateChangeHandler` is called.
    open func setInputMuted(_ muted: Bool) throws {
        let changed = ProcessInputMute.muted.exchange(muted, ordering: .relaxed) != muted
        guard changed else { return }
        if let handler = lock.withLock({ muteHandler }) { _ = handler(muted) }
        if AVAudioSession.sharedInstance().isRecordingSessionActive {
            NotificationCenter.default.post(name: Self.inputMuteStateChangeNotification, object: self,
                                            userInfo: [Self.muteStateKey: NSNumber(value: muted)])
        }
    }

    /// Sets the block called on each change of the input mute (macOS; nil removes it). The input is zeroed here
    /// whatever the block does.
    open func setInputMuteStateChangeHandler(_ inputMuteHandler: ((Bool) -> Bool)?) throws {
        lock.withLock { muteHandler = inputMuteHandler }
    }

    /// Whether this process may record: always `.granted` here.
    open var recordPermission: recordPermission { .granted }

    /// Asks for permission to record; `response` is called with true at once, on another thread.
    open class func requestRecordPermission(completionHandler response: @escaping @Sendable (Bool) -> Void) {
        DispatchQueue.global().async { response(true) }
    }

    /// Asks for permission to record: true here.
    open class func requestRecordPermission() async -> Bool { true }
}
