import CoreAudio
import Foundation

/// The application's audio session, with a Linux meaning: there is no system arbiter between applications, so
/// the category, mode and options are the application's declaration (validated as Apple validates them, stored
/// and reported), while the hardware properties are the HAL's default devices: the output device (the input
/// device for the record category) gives sampleRate, ioBufferDuration and the latencies, and currentRoute's ports
/// are HAL devices. setActive(true) applies the preferred sample rate and I/O buffer duration to the default
/// devices (their nominal rate and buffer frame size: the nearest the device offers, for this process's I/O) and
/// setActive(false) puts back what they had.
///
/// Threading: any thread. Notifications are posted to NotificationCenter.default, with the session as object,
/// from a private serial dispatch queue (Apple, too, posts them on a secondary thread):
/// routeChangeNotification when the HAL's default output or input device changes (another device chosen,
/// or one appearing or going away) and when the category changes. interruptionNotification and the media-services
/// notifications are never posted: no other session preempts this one, and the HAL reports no server restart.
open class AVAudioSession: NSObject, @unchecked Sendable {
    private static let shared = AVAudioSession()

    /// The process's session.
    open class func sharedInstance() -> AVAudioSession { shared }

    // MARK: Notifications

    /// Posted when another session interrupts this one and when the interruption ends (never on Linux).
    public static let interruptionNotification = Notification.Name("AVAudioSessionInterruptionNotification")
    /// Posted when the route changes; userInfo holds AVAudioSessionRouteChangeReasonKey and
    /// AVAudioSessionRouteChangePreviousRouteKey.
    public static let routeChangeNotification = Notification.Name("AVAudioSessionRouteChangeNotification")
    /// Posted when the media server goes away (never on Linux).
    public static let mediaServicesWereLostNotification = Notification.Name("AVAudioSessionMediaServicesWereLostNotification")
    /// Posted when the media server has restarted (never on Linux).
    public static let mediaServicesWereResetNotification = Notification.Name("AVAudioSessionMediaServicesWereResetNotification")
    /// Posted when other audio asks secondary audio to be silenced (never on Linux).
    public static let silenceSecondaryAudioHintNotification = Notification.Name("AVAudioSessionSilenceSecondaryAudioHintNotification")

    // MARK: State (under `lock`)

    private let lock = NSRecursiveLock()
    private var _category = Category.soloAmbient
    private var _mode = Mode.default
    private var _options: CategoryOptions = []
    private var _policy = RouteSharingPolicy.default
    private var active = false
    private var _preferredSampleRate = 0.0
    private var _preferredIOBufferDuration = 0.0
    private var _preferredInput: AVAudioSessionPortDescription?
    /// What activation changed on each device, to put back on deactivation.
    private var saved: SessionHardware.Saved = [:]
    /// The route last reported, and the devices there were then (to tell a new device from a vanished one).
    private var lastRoute: AVAudioSessionRouteDescription?
    private var lastDevices: Set<AudioObjectID> = []
    /// The reason the next route change is reported with, when this session caused it.
    private var pendingReason: RouteChangeReason?
    /// The default output device before overrideOutputAudioPort(.speaker).
    private var overriddenOutput: AudioObjectID?
    private let notifications = DispatchQueue(label: "AVAudioSession")
    private var listener: AudioObjectPropertyListenerBlock?

    private override init() {
        super.init()
        lock.withLock {
            lastRoute = makeRoute()
            lastDevices = Set(AVAudioSessionHardware.devices())
        }
        let block: AudioObjectPropertyListenerBlock = { [weak self] _, _ in self?.hardwareChanged() }
        listener = block
        for selector in [kAudioHardwarePropertyDefaultOutputDevice, kAudioHardwarePropertyDefaultInputDevice, kAudioHardwarePropertyDevices] {
            var a = AVAudioSessionHardware.address(selector)
            _ = AudioObjectAddPropertyListenerBlock(AudioObjectID(kAudioObjectSystemObject), &a, notifications, block)
        }
    }

    // MARK: Category and mode

    /// Every category.
    open var availableCategories: [Category] { [.ambient, .soloAmbient, .playback, .record, .playAndRecord, .multiRoute] }

    /// Every mode.
    open var availableModes: [Mode] {
        [.default, .voiceChat, .gameChat, .videoRecording, .measurement, .moviePlayback, .videoChat, .spokenAudio, .voicePrompt]
    }

    /// The category (soloAmbient until set).
    open var category: Category { lock.withLock { _category } }

    /// The category's options.
    open var categoryOptions: CategoryOptions { lock.withLock { _options } }

    /// The mode (default until set).
    open var mode: Mode { lock.withLock { _mode } }

    /// The route sharing policy.
    open var routeSharingPolicy: RouteSharingPolicy { lock.withLock { _policy } }

    /// Sets the category, without options (the mode is kept).
    open func setCategory(_ category: Category) throws {
        try setCategory(category, mode: mode, policy: routeSharingPolicy, options: [])
    }

    /// Sets the category and its options (the mode is kept).
    open func setCategory(_ category: Category, options: CategoryOptions = []) throws {
        try setCategory(category, mode: mode, policy: routeSharingPolicy, options: options)
    }

    /// Sets the category, mode and options.
    open func setCategory(_ category: Category, mode: Mode, options: CategoryOptions = []) throws {
        try setCategory(category, mode: mode, policy: routeSharingPolicy, options: options)
    }

    /// Sets the category, mode, route sharing policy and options. An unknown category or mode, or an option the
    /// category does not take (mixWithOthers with soloAmbient, defaultToSpeaker outside playAndRecord, ...),
    /// throws badParam (-50) and changes nothing.
    open func setCategory(_ category: Category, mode: Mode, policy: RouteSharingPolicy, options: CategoryOptions = []) throws {
        guard availableCategories.contains(category), availableModes.contains(mode), Self.allows(category, options) else {
            throw AVAudioError.make(OSStatus(ErrorCode.badParam.rawValue))
        }
        let changed = lock.withLock { () -> Bool in
            let changed = _category != category
            _category = category
            _mode = mode
            _options = options
            _policy = policy
            if changed { pendingReason = .categoryChange }
            return changed
        }
        if changed { notifications.async { [self] in hardwareChanged(force: true) } }
        lock.withLock { if active { Self.announceRole(Self.mediaRole(_category, _mode)) } }
    }

    /// Sets the mode (the category and options are kept).
    open func setMode(_ mode: Mode) throws {
        guard availableModes.contains(mode) else { throw AVAudioError.make(OSStatus(ErrorCode.badParam.rawValue)) }
        lock.withLock {
            _mode = mode
            if active { Self.announceRole(Self.mediaRole(_category, _mode)) }
        }
    }

    /// Whether each option is one Apple allows with the category.
    static func allows(_ category: Category, _ options: CategoryOptions) -> Bool {
        let known: CategoryOptions = [.mixWithOthers, .duckOthers, .allowBluetooth, .defaultToSpeaker, .interruptSpokenAudioAndMixWithOthers,
                                      .allowBluetoothA2DP, .allowAirPlay, .overrideMutedMicrophoneInterruption]
        guard options.isSubset(of: known) else { return false }
        let rules: [(CategoryOptions, [Category])] = [
            (.mixWithOthers, [.playback, .playAndRecord, .multiRoute]),
            (.duckOthers, [.ambient, .playback, .playAndRecord, .multiRoute]),
            (.allowBluetooth, [.record, .playAndRecord]),
            (.defaultToSpeaker, [.playAndRecord]),
            (.interruptSpokenAudioAndMixWithOthers, [.playback, .playAndRecord, .multiRoute]),
            (.allowBluetoothA2DP, [.playAndRecord]),
            (.allowAirPlay, [.playAndRecord]),
            (.overrideMutedMicrophoneInterruption, [.record, .playAndRecord, .multiRoute]),
        ]
        return rules.allSatisfy { option, categories in !options.contains(option) || categories.contains(category) }
    }

    // MARK: Activation

    /// Whether the session is active in a category that records (AVAudioApplication announces mute changes then).
    var isRecordingSessionActive: Bool { lock.withLock { active && (_category == .record || _category == .playAndRecord) } }

    /// Activates the session (applying the preferred sample rate and I/O buffer duration to the default devices)
    /// or deactivates it (putting back what activation changed).
    open func setActive(_ active: Bool, options: SetActiveOptions = []) throws {
        lock.withLock {
            if active {
                self.active = true
                applyPreferences()
                Self.announceRole(Self.mediaRole(_category, _mode))
            } else {
                restoreDevices()
                self.active = false
                Self.announceRole(nil)
            }
        }
    }

    /// The sound server's media role (PulseAudio's and PipeWire's `media.role`, which their policies use to route,
    /// duck and cork streams) for a category and mode.
    static func mediaRole(_ category: Category, _ mode: Mode) -> String {
        switch mode {
        case .voiceChat, .videoChat, .gameChat: return "phone"
        case .moviePlayback: return "video"
        case .measurement: return "test"
        case .voicePrompt: return "a11y"
        default: break
        }
        switch category {
        case .ambient, .soloAmbient: return "game"
        case .record, .multiRoute, .audioProcessing: return "production"
        case .playAndRecord: return "phone"
        default: return "music"
        }
    }

    /// Streams opened from now on carry `role` (libpulse reads PULSE_PROP_* when a client connects, as the ALSA
    /// plugin under the HAL does per stream); nil removes it.
    private static func announceRole(_ role: String?) {
        if let role { setenv("PULSE_PROP_media.role", role, 1) } else { unsetenv("PULSE_PROP_media.role") }
    }

    /// The devices this session's I/O uses: the default output (unless recording only) and the default input
    /// (when the category records).
    private func sessionDevices() -> [AudioObjectID] {
        var ids: [AudioObjectID] = []
        if _category != .record, let o = AVAudioSessionHardware.defaultDevice(input: false) { ids.append(o) }
        if Self.records(_category), let i = AVAudioSessionHardware.defaultDevice(input: true), !ids.contains(i) { ids.append(i) }
        return ids
    }

    private static func records(_ category: Category) -> Bool { [.record, .playAndRecord, .multiRoute].contains(category) }

    /// Sets the nearest rate and buffer size each session device offers to the preferences (caller holds the lock).
    private func applyPreferences() {
        SessionHardware.apply(preferredRate: _preferredSampleRate, duration: _preferredIOBufferDuration, to: sessionDevices(), saved: &saved)
    }

    private func restoreDevices() { SessionHardware.restore(&saved) }

    // MARK: Preferences and hardware

    /// Asks for a hardware sample rate (applied when the session is active); a rate that is not positive throws badParam.
    open func setPreferredSampleRate(_ sampleRate: Double) throws {
        guard sampleRate > 0, sampleRate.isFinite else { throw AVAudioError.make(OSStatus(ErrorCode.badParam.rawValue)) }
        lock.withLock {
            _preferredSampleRate = sampleRate
            if active { applyPreferences() }
        }
    }

    /// The preferred sample rate; 0 until set.
    open var preferredSampleRate: Double { lock.withLock { _preferredSampleRate } }

    /// Asks for an I/O buffer duration in seconds (applied when the session is active, as the nearest buffer frame
    /// size the device allows); a duration that is not positive throws badParam.
    open func setPreferredIOBufferDuration(_ duration: TimeInterval) throws {
        guard duration > 0, duration.isFinite else { throw AVAudioError.make(OSStatus(ErrorCode.badParam.rawValue)) }
        lock.withLock {
            _preferredIOBufferDuration = duration
            if active { applyPreferences() }
        }
    }

    /// The preferred I/O buffer duration; 0 until set.
    open var preferredIOBufferDuration: TimeInterval { lock.withLock { _preferredIOBufferDuration } }

    /// The device the hardware values come from: the default output, or the default input for the record category.
    private var hardwareDevice: AudioObjectID? {
        AVAudioSessionHardware.defaultDevice(input: category == .record) ?? AVAudioSessionHardware.defaultDevice(input: category != .record)
    }

    /// The hardware sample rate (the device's nominal rate); 0 without a device.
    open var sampleRate: Double { hardwareDevice.flatMap { AVAudioSessionHardware.double($0, kAudioDevicePropertyNominalSampleRate) } ?? 0 }

    /// The hardware I/O buffer duration: the device's buffer frame size at its rate.
    open var ioBufferDuration: TimeInterval {
        guard let id = hardwareDevice, let rate = AVAudioSessionHardware.double(id, kAudioDevicePropertyNominalSampleRate), rate > 0,
              let frames = AVAudioSessionHardware.uint32(id, kAudioDevicePropertyBufferFrameSize) else { return 0 }
        return Double(frames) / rate
    }

    private func latency(input: Bool) -> TimeInterval {
        guard let id = AVAudioSessionHardware.defaultDevice(input: input),
              let rate = AVAudioSessionHardware.double(id, kAudioDevicePropertyNominalSampleRate), rate > 0 else { return 0 }
        return Double(AVAudioSessionHardware.latencyFrames(id, input: input)) / rate
    }

    /// The default output device's latency (its latency and safety offset) in seconds.
    open var outputLatency: TimeInterval { latency(input: false) }

    /// The default input device's latency in seconds.
    open var inputLatency: TimeInterval { latency(input: true) }

    /// The default output device's channel count.
    open var outputNumberOfChannels: Int {
        AVAudioSessionHardware.defaultDevice(input: false).map { AVAudioSessionHardware.channels($0, input: false) } ?? 0
    }

    /// The default input device's channel count.
    open var inputNumberOfChannels: Int {
        AVAudioSessionHardware.defaultDevice(input: true).map { AVAudioSessionHardware.channels($0, input: true) } ?? 0
    }

    /// The most output channels the route offers (the default output device's).
    open var maximumOutputNumberOfChannels: Int { outputNumberOfChannels }

    /// The most input channels the route offers (the default input device's).
    open var maximumInputNumberOfChannels: Int { inputNumberOfChannels }

    /// Whether there is an input device.
    open var isInputAvailable: Bool { AVAudioSessionHardware.defaultDevice(input: true) != nil }

    /// Whether another application plays audio (not known on Linux: false).
    open var isOtherAudioPlaying: Bool { false }

    /// Whether another application asks secondary audio to be silenced (never on Linux).
    open var secondaryAudioShouldBeSilencedHint: Bool { false }

    /// The system output volume, 0 to 1 (the HAL has no master volume: 1).
    open var outputVolume: Float { 1 }

    // MARK: Routes

    /// The ports in use: the default input device (when the category records) and the default output device
    /// (unless the category is record).
    open var currentRoute: AVAudioSessionRouteDescription { lock.withLock { makeRoute() } }

    private func makeRoute() -> AVAudioSessionRouteDescription {
        let inputs = Self.records(_category) ? AVAudioSessionHardware.defaultDevice(input: true).flatMap { AVAudioSessionHardware.port($0, input: true) } : nil
        let outputs = _category != .record ? AVAudioSessionHardware.defaultDevice(input: false).flatMap { AVAudioSessionHardware.port($0, input: false) } : nil
        return AVAudioSessionRouteDescription(inputs: inputs.map { [$0] } ?? [], outputs: outputs.map { [$0] } ?? [])
    }

    /// Every device that can record, as ports.
    open var availableInputs: [AVAudioSessionPortDescription]? {
        AVAudioSessionHardware.devices().compactMap { AVAudioSessionHardware.port($0, input: true) }
    }

    /// The input chosen with setPreferredInput(_:), if any.
    open var preferredInput: AVAudioSessionPortDescription? { lock.withLock { _preferredInput } }

    /// Makes one of availableInputs the route's input (the HAL's default input device, for this process); nil
    /// forgets the choice. A port that is not an available input throws badParam.
    open func setPreferredInput(_ inPort: AVAudioSessionPortDescription?) throws {
        guard let inPort else { lock.withLock { _preferredInput = nil }; return }
        guard availableInputs?.contains(inPort) == true else { throw AVAudioError.make(OSStatus(ErrorCode.badParam.rawValue)) }
        try AVAudioError.check(AVAudioSessionHardware.set(AudioObjectID(kAudioObjectSystemObject), kAudioHardwarePropertyDefaultInputDevice,
                                                          inPort.deviceID))
        lock.withLock { _preferredInput = inPort }
    }

    /// .speaker makes a built-in speaker the output (if there is one; the HAL's default output device for this
    /// process), .none goes back to the output before. Only for playAndRecord (else incompatibleCategory).
    open func overrideOutputAudioPort(_ portOverride: PortOverride) throws {
        guard category == .playAndRecord else { throw AVAudioError.make(OSStatus(ErrorCode.incompatibleCategory.rawValue)) }
        let system = AudioObjectID(kAudioObjectSystemObject)
        switch portOverride {
        case .speaker:
            guard let speaker = AVAudioSessionHardware.devices().first(where: {
                AVAudioSessionHardware.port($0, input: false)?.portType == .builtInSpeaker
            }), let current = AVAudioSessionHardware.defaultDevice(input: false), speaker != current else { return }
            lock.withLock {
                if overriddenOutput == nil { overriddenOutput = current }
                pendingReason = .override
            }
            try AVAudioError.check(AVAudioSessionHardware.set(system, kAudioHardwarePropertyDefaultOutputDevice, speaker))
        case .none:
            guard let previous = lock.withLock({ () -> AudioObjectID? in
                defer { overriddenOutput = nil }
                if overriddenOutput != nil { pendingReason = .override }
                return overriddenOutput
            }) else { return }
            try AVAudioError.check(AVAudioSessionHardware.set(system, kAudioHardwarePropertyDefaultOutputDevice, previous))
        }
    }

    // MARK: Permission

    /// Whether the application may record: always granted (Linux has no such permission).
    open var recordPermission: RecordPermission { .granted }

    /// Answers `response` with true, on another thread (as Apple answers asynchronously).
    open func requestRecordPermission(_ response: @escaping @Sendable (Bool) -> Void) {
        DispatchQueue.global().async { response(true) }
    }

    // MARK: Route changes

    /// The HAL's defaults or devices changed (or the category did): post routeChangeNotification when the route
    /// is not the one last reported. Runs on `notifications`.
    private func hardwareChanged(force: Bool = false) {
        let devices = Set(AVAudioSessionHardware.devices())
        let post: (RouteChangeReason, AVAudioSessionRouteDescription)? = lock.withLock {
            let route = makeRoute()
            let previous = lastRoute ?? route
            let previousDevices = lastDevices
            lastRoute = route
            lastDevices = devices
            let pending = pendingReason
            guard route != previous || (force && pending != nil) else { return nil }
            pendingReason = nil
            let before = Set((previous.inputs + previous.outputs).map(\.deviceID))
            let after = Set((route.inputs + route.outputs).map(\.deviceID))
            let reason: RouteChangeReason
            if let pending {
                reason = pending
            } else if !before.isSubset(of: devices) {
                reason = .oldDeviceUnavailable
            } else if !after.isSubset(of: previousDevices) {
                reason = .newDeviceAvailable
            } else {
                reason = .routeConfigurationChange
            }
            return (reason, previous)
        }
        guard let (reason, previous) = post else { return }
        NotificationCenter.default.post(name: Self.routeChangeNotification, object: self,
                                        userInfo: [AVAudioSessionRouteChangeReasonKey: NSNumber(value: reason.rawValue),
                                                   AVAudioSessionRouteChangePreviousRouteKey: previous])
    }
}
