import OCAProperty
import CoreAudio
import Foundation

/// The process's audio session as iOS's C API (Audio Session Services) sees it, with the Linux meaning AVAudioSession
/// has: there is no arbiter between applications, so the category, mode and overrides are the application's
/// declaration (checked and stored), the hardware properties are the HAL's default devices, and activation applies
/// the preferred sample rate and I/O buffer duration to them (deactivation puts back what it changed). No other
/// session interrupts this one, so the interruption listener is never called. This state is separate from
/// AVAudioSession's (AVFAudio sits above this module): a program uses one API or the other, as Apple asks.
///
/// Threading: any thread; property listeners are called on the thread whose call changed the property.
final class AudioSessionState: @unchecked Sendable {
    static let shared = AudioSessionState()

    private let lock = NSRecursiveLock()
    private var initialized = false
    private var active = false
    private var category = UInt32(kAudioSessionCategory_SoloAmbientSound)
    private var mode = UInt32(kAudioSessionMode_Default)
    private var preferredRate: Float64 = 0
    private var preferredDuration: Float32 = 0
    /// The UInt32 switches a client sets and reads back: route override, mix with others, default to speaker,
    /// Bluetooth input, ducking.
    private var switches: [AudioSessionPropertyID: UInt32] = [:]
    private let listeners = PropertyListenerList<AudioSessionPropertyID, AudioSessionPropertyListener>()
    /// What activation changed on each device, to put back on deactivation.
    private var saved: SessionHardware.Saved = [:]

    static let categories: Set<UInt32> = Set([kAudioSessionCategory_AmbientSound, kAudioSessionCategory_SoloAmbientSound,
        kAudioSessionCategory_MediaPlayback, kAudioSessionCategory_RecordAudio, kAudioSessionCategory_PlayAndRecord,
        kAudioSessionCategory_AudioProcessing, kAudioSessionCategory_UserInterfaceSoundEffects,
        kAudioSessionCategory_LiveAudio].map { UInt32($0) })
    static let modes: Set<UInt32> = Set([kAudioSessionMode_Default, kAudioSessionMode_VoiceChat, kAudioSessionMode_VideoRecording,
        kAudioSessionMode_Measurement, kAudioSessionMode_GameChat].map { UInt32($0) })
    static let switchIDs: Set<AudioSessionPropertyID> = Set([kAudioSessionProperty_OverrideAudioRoute,
        kAudioSessionProperty_OverrideCategoryMixWithOthers, kAudioSessionProperty_OverrideCategoryDefaultToSpeaker,
        kAudioSessionProperty_OverrideCategoryEnableBluetoothInput, kAudioSessionProperty_OtherMixableAudioShouldDuck]
        .map { AudioSessionPropertyID($0) })

    /// AudioSessionInitialize: once per process ('init' after that).
    func initialize() -> OSStatus {
        lock.withLock {
            guard !initialized else { return OSStatus(kAudioSessionAlreadyInitialized) }
            initialized = true
            return noErr
        }
    }

    /// AudioSessionSetActive(WithFlags).
    func setActive(_ on: Bool) -> OSStatus {
        lock.withLock {
            guard initialized else { return OSStatus(kAudioSessionNotInitialized) }
            if on {
                active = true
                applyPreferences()
            } else {
                restoreDevices()
                active = false
            }
            return noErr
        }
    }

    private var records: Bool {
        category == UInt32(kAudioSessionCategory_RecordAudio) || category == UInt32(kAudioSessionCategory_PlayAndRecord)
    }

    /// The devices the session's I/O uses: the default output (unless recording only), the default input when it records.
    private func sessionDevices() -> [AudioObjectID] {
        var ids: [AudioObjectID] = []
        if category != UInt32(kAudioSessionCategory_RecordAudio), let o = SessionHardware.defaultDevice(input: false) { ids.append(o) }
        if records, let i = SessionHardware.defaultDevice(input: true), !ids.contains(i) { ids.append(i) }
        return ids
    }

    /// Sets the nearest rate and buffer size each session device offers to the preferences (caller holds the lock).
    private func applyPreferences() {
        SessionHardware.apply(preferredRate: preferredRate, duration: Double(preferredDuration), to: sessionDevices(), saved: &saved)
    }

    private func restoreDevices() { SessionHardware.restore(&saved) }

    // MARK: Properties

    /// A property's value as bytes; nil status when the property exists.
    private func value(_ id: AudioSessionPropertyID) -> (bytes: [UInt8]?, status: OSStatus) {
        func bytes<T>(_ v: T) -> [UInt8] { withUnsafeBytes(of: v) { Array($0) } }
        let output = SessionHardware.defaultDevice(input: false), input = SessionHardware.defaultDevice(input: true)
        /// The device hardware values come from: the default output, or the input for the record category.
        let device = category == UInt32(kAudioSessionCategory_RecordAudio) ? (input ?? output) : (output ?? input)
        func latency(_ id: AudioObjectID?, input: Bool) -> Float32 {
            guard let id, let rate = SessionHardware.double(id, kAudioDevicePropertyNominalSampleRate), rate > 0 else { return 0 }
            return Float32(Double(SessionHardware.latencyFrames(id, input: input)) / rate)
        }
        switch Int(id) {
        case kAudioSessionProperty_AudioCategory: return (bytes(category), noErr)
        case kAudioSessionProperty_Mode: return (bytes(mode), noErr)
        case kAudioSessionProperty_PreferredHardwareSampleRate: return (bytes(preferredRate), noErr)
        case kAudioSessionProperty_PreferredHardwareIOBufferDuration: return (bytes(preferredDuration), noErr)
        case kAudioSessionProperty_AudioInputAvailable: return (bytes(UInt32(input == nil ? 0 : 1)), noErr)
        case kAudioSessionProperty_OtherAudioIsPlaying: return (bytes(UInt32(0)), noErr)
        case kAudioSessionProperty_InputGainAvailable: return (bytes(UInt32(0)), noErr)
        case kAudioSessionProperty_CurrentHardwareOutputVolume: return (bytes(Float32(1)), noErr)  // the HAL has no master volume
        case kAudioSessionProperty_CurrentHardwareSampleRate:
            guard let device, let rate = SessionHardware.double(device, kAudioDevicePropertyNominalSampleRate) else {
                return (nil, OSStatus(kAudioServicesNoHardwareError))
            }
            return (bytes(Float64(rate)), noErr)
        case kAudioSessionProperty_CurrentHardwareIOBufferDuration:
            guard let device, let rate = SessionHardware.double(device, kAudioDevicePropertyNominalSampleRate), rate > 0,
                  let frames = SessionHardware.uint32(device, kAudioDevicePropertyBufferFrameSize) else {
                return (nil, OSStatus(kAudioServicesNoHardwareError))
            }
            return (bytes(Float32(Double(frames) / rate)), noErr)
        case kAudioSessionProperty_CurrentHardwareInputNumberChannels:
            return (bytes(UInt32(input.map { SessionHardware.channels($0, input: true) } ?? 0)), noErr)
        case kAudioSessionProperty_CurrentHardwareOutputNumberChannels:
            return (bytes(UInt32(output.map { SessionHardware.channels($0, input: false) } ?? 0)), noErr)
        case kAudioSessionProperty_CurrentHardwareInputLatency: return (bytes(latency(input, input: true)), noErr)
        case kAudioSessionProperty_CurrentHardwareOutputLatency: return (bytes(latency(output, input: false)), noErr)
        default:
            if Self.switchIDs.contains(id) { return (bytes(switches[id] ?? 0), noErr) }
            // Routes as CFString/CFDictionary values, input sources, output destinations, gain, the interruption type
            // and the listener-only properties are not given here.
            return (nil, OSStatus(kAudioSessionUnsupportedPropertyError))
        }
    }

    /// AudioSessionGetPropertySize.
    func size(_ id: AudioSessionPropertyID) -> (UInt32, OSStatus) {
        lock.withLock {
            guard initialized else { return (0, OSStatus(kAudioSessionNotInitialized)) }
            let (bytes, status) = value(id)
            return (UInt32(bytes?.count ?? 0), status)
        }
    }

    /// AudioSessionGetProperty: the value's bytes into `out` (`size` in: room; out: bytes written).
    func get(_ id: AudioSessionPropertyID, _ size: UnsafeMutablePointer<UInt32>, _ out: UnsafeMutableRawPointer) -> OSStatus {
        lock.withLock {
            guard initialized else { return OSStatus(kAudioSessionNotInitialized) }
            let (bytes, status) = value(id)
            guard let bytes else { return status }
            guard size.pointee >= UInt32(bytes.count) else { return OSStatus(kAudioSessionBadPropertySizeError) }
            bytes.withUnsafeBytes { out.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
            size.pointee = UInt32(bytes.count)
            return noErr
        }
    }

    /// AudioSessionSetProperty. A category change tells the route-change listeners (reason CategoryChange).
    func set(_ id: AudioSessionPropertyID, _ size: UInt32, _ data: UnsafeRawPointer) -> OSStatus {
        var routeChanged = false
        let status: OSStatus = lock.withLock {
            guard initialized else { return OSStatus(kAudioSessionNotInitialized) }
            /// Checks the size and the value, then stores it: the steps every settable property shares.
            func take<T: BitwiseCopyable>(_: T.Type, valid: (T) -> Bool = { _ in true }, store: (T) -> Void) -> OSStatus {
                guard Int(size) == MemoryLayout<T>.size else { return OSStatus(kAudioSessionBadPropertySizeError) }
                let value = data.loadUnaligned(as: T.self)
                guard valid(value) else { return kAudio_ParamError }
                store(value)
                return noErr
            }
            switch Int(id) {
            case kAudioSessionProperty_AudioCategory:
                return take(UInt32.self, valid: Self.categories.contains) { value in
                    guard value != category else { return }
                    category = value
                    if active { applyPreferences() }
                    routeChanged = true
                }
            case kAudioSessionProperty_Mode:
                return take(UInt32.self, valid: Self.modes.contains) { mode = $0 }
            case kAudioSessionProperty_PreferredHardwareSampleRate:
                return take(Float64.self, valid: { $0 > 0 && $0.isFinite }) { preferredRate = $0; if active { applyPreferences() } }
            case kAudioSessionProperty_PreferredHardwareIOBufferDuration:
                return take(Float32.self, valid: { $0 > 0 && $0.isFinite }) { preferredDuration = $0; if active { applyPreferences() } }
            default:
                // Read-only properties and those not given here (see `value`).
                guard Self.switchIDs.contains(id) else { return OSStatus(kAudioSessionUnsupportedPropertyError) }
                return take(UInt32.self) { switches[id] = $0 }
            }
        }
        if routeChanged {
            // The route-change listener's value: a CFDictionary with the reason (as Apple's, a CFNumber).
            // The listener's value is the dictionary itself (a CFDictionaryRef), not a pointer to it.
            let info = [kAudioSession_AudioRouteChangeKey_Reason: NSNumber(value: kAudioSessionRouteChangeReason_CategoryChange)] as NSDictionary
            withExtendedLifetime(info) {
                let ref = UnsafeRawPointer(Unmanaged.passUnretained(info).toOpaque())
                listeners.fire(AudioSessionPropertyID(kAudioSessionProperty_AudioRouteChange)) { l in
                    l.proc(l.userData, l.key, UInt32(MemoryLayout<UnsafeRawPointer>.size), ref)
                }
            }
        }
        return status
    }

    /// AudioSessionAddPropertyListener.
    func addListener(_ id: AudioSessionPropertyID, _ proc: @escaping AudioSessionPropertyListener, _ data: UnsafeMutableRawPointer?) -> OSStatus {
        lock.withLock {
            guard initialized else { return OSStatus(kAudioSessionNotInitialized) }
            listeners.add(id, proc, data)
            return noErr
        }
    }

    /// AudioSessionRemovePropertyListener(WithUserData): every listener on `id`, or only those with this proc and data.
    func removeListeners(_ id: AudioSessionPropertyID, _ proc: AudioSessionPropertyListener?, _ data: UnsafeMutableRawPointer?,
                         matching: Bool) -> OSStatus {
        lock.withLock {
            guard initialized else { return OSStatus(kAudioSessionNotInitialized) }
            // With matching, a NULL proc matches no listener.
            if !matching || proc != nil { listeners.remove(id, proc, data, anyUserData: !matching) }
            return noErr
        }
    }
}
