import Foundation
import Synchronization

/// The system object (kAudioObjectSystemObject) and the registry of every HAL object. Devices come from
/// ALSA's PCM list; a watcher thread rescans it, notices dead or overloaded devices and fires listeners.
/// Listeners are called on a private serial queue (procs) or their own queue (blocks), never on an IO thread.
final class HALSystem: HALObject, @unchecked Sendable {
    static let shared = HALSystem()

    private let lock = NSRecursiveLock()
    private var objects: [AudioObjectID: HALObject] = [:]
    private var devices: [HALDevice] = []
    private var idsByUID: [String: (device: AudioObjectID, output: AudioObjectID, input: AudioObjectID)] = [:]
    private var nextID: AudioObjectID = 2
    private var defaultInput: AudioObjectID = kAudioObjectUnknown
    private var defaultOutput: AudioObjectID = kAudioObjectUnknown
    private var defaultSystemOutput: AudioObjectID = kAudioObjectUnknown
    private var userDefaultInput: String?, userDefaultOutput: String?
    private var listeners: [AudioObjectID: [Listener]] = [:]
    private let notifyQueue = DispatchQueue(label: "OpenCoreAudio.HAL.notifications")
    private var lastXruns: [AudioObjectID: Int] = [:]
    private var watcherStarted = false
    /// How often the watcher rescans ALSA's device list (seconds).
    static let rescanInterval = 0.5

    struct Listener {
        var address: AudioObjectPropertyAddress
        var proc: AudioObjectPropertyListenerProc?
        var clientData: UnsafeMutableRawPointer?
        var block: AudioObjectPropertyListenerBlock?
        var blockIdentity: (UnsafeRawPointer?, UnsafeRawPointer?) = (nil, nil)
        var queue: DispatchQueue?
        /// Set when added: a queued call checks that its listener is still registered before it runs.
        var serial: UInt64 = 0
    }

    private init() {
        super.init(objectID: kAudioObjectSystemObject, classID: kAudioSystemObjectClassID, ownerID: kAudioObjectUnknown)
        lock.withLock {
            objects[kAudioObjectSystemObject] = self
            rescanLocked()
        }
    }

    override var name: String { "OpenCoreAudio HAL" }
    override var manufacturer: String { "OpenCoreAudio" }
    override var ownedObjects: [AudioObjectID] { lock.withLock { devices.map(\.objectID) } }

    func object(_ id: AudioObjectID) -> HALObject? {
        startWatcher()
        return lock.withLock { objects[id] }
    }

    func device(_ id: AudioObjectID) -> HALDevice? { object(id) as? HALDevice }

    // MARK: Devices

    /// ALSA names that are plugins or per-channel-layout views of a card, not devices of their own.
    static let excludedPrefixes = ["null", "lavrate", "samplerate", "speexrate", "jack", "oss", "speex", "upmix", "vdownmix",
                                   "a52", "usbstream", "dmix", "dsnoop", "front:", "rear:", "center_lfe:", "side:", "surround",
                                   "iec958:", "spdif", "plughw:", "hdmi:", "dsp", "sysdefault"]

    /// Re-reads ALSA's device list: new names become devices, vanished ones die. Returns the changes made.
    @discardableResult
    private func rescanLocked() -> (devicesChanged: Bool, defaultsChanged: [AudioObjectPropertySelector]) {
        let hints = ALSA.hints().filter { h in !Self.excludedPrefixes.contains { h.name.hasPrefix($0) } }
        var changed = false
        var seen = Set<String>()
        for hint in hints where !seen.contains(hint.name) {
            seen.insert(hint.name)
            if let existing = devices.first(where: { $0.uid == hint.name }) {
                // A device that died (its server went away) is replaced, under the same IDs, once it opens again.
                if existing.alive.load(ordering: .acquiring) { continue }
                let output = hint.output ? ALSA.probe(hint.name, output: true) : nil
                let input = hint.input ? ALSA.probe(hint.name, output: false) : nil
                guard output != nil || input != nil else { continue }
                devices.removeAll { $0 === existing }
            }
            let output = hint.output ? ALSA.probe(hint.name, output: true) : nil
            let input = hint.input ? ALSA.probe(hint.name, output: false) : nil
            guard output != nil || input != nil else { continue }
            let ids = idsByUID[hint.name] ?? { () -> (AudioObjectID, AudioObjectID, AudioObjectID) in
                let ids = (nextID, nextID + 1, nextID + 2)
                nextID += 3
                return ids
            }()
            idsByUID[hint.name] = ids
            let device = HALDevice(objectID: ids.0, uid: hint.name, name: hint.description, output: output, input: input,
                                   streamIDs: (ids.1, ids.2))
            devices.append(device)
            objects[ids.0] = device
            if let s = device.outputStream { objects[s.objectID] = s }
            if let s = device.inputStream { objects[s.objectID] = s }
            changed = true
        }
        for device in devices where !seen.contains(device.uid) {
            device.vanished()
            objects[device.objectID] = nil
            for s in device.ownedObjects { objects[s] = nil }
            changed = true
        }
        devices.removeAll { !seen.contains($0.uid) }
        // Defaults: the user's choice while it exists, else ALSA's "default", else the first capable device.
        func pick(_ user: String?, input: Bool) -> AudioObjectID {
            let capable = devices.filter { input ? $0.inputCapabilities != nil : $0.outputCapabilities != nil }
            return (capable.first { $0.uid == user } ?? capable.first { $0.uid == "default" } ?? capable.first)?.objectID ?? kAudioObjectUnknown
        }
        var defaults: [AudioObjectPropertySelector] = []
        let newInput = pick(userDefaultInput, input: true), newOutput = pick(userDefaultOutput, input: false)
        if newInput != defaultInput { defaultInput = newInput; defaults.append(kAudioHardwarePropertyDefaultInputDevice) }
        if newOutput != defaultOutput { defaultOutput = newOutput; defaults.append(kAudioHardwarePropertyDefaultOutputDevice) }
        if newOutput != defaultSystemOutput { defaultSystemOutput = newOutput; defaults.append(kAudioHardwarePropertyDefaultSystemOutputDevice) }
        return (changed, defaults)
    }

    /// Rescans now and fires the Devices and default-device listeners for what changed.
    func rescan() {
        let (changed, defaults) = lock.withLock { rescanLocked() }
        var addresses = defaults.map { address($0) }
        if changed { addresses.append(address(kAudioHardwarePropertyDevices)) }
        if !addresses.isEmpty { notify(kAudioObjectSystemObject, addresses) }
    }

    private func address(_ selector: AudioObjectPropertySelector) -> AudioObjectPropertyAddress {
        AudioObjectPropertyAddress(mSelector: selector, mScope: kAudioObjectPropertyScopeGlobal, mElement: kAudioObjectPropertyElementMain)
    }

    private func startWatcher() {
        let start: Bool = lock.withLock {
            if watcherStarted { return false }
            watcherStarted = true
            return true
        }
        guard start else { return }
        let thread = Thread { [unowned self] in
            var tick = 0
            while true {
                Thread.sleep(forTimeInterval: 0.1)
                tick += 1
                let current = lock.withLock { devices }
                for device in current {
                    if device.engineFailure != 0 { device.engineFailed() }
                    // Volume and mute changes other programs made (a non-blocking read of the mixer's events).
                    device.pollControls()
                    let x = device.xrunCount
                    let changed = lock.withLock { () -> Bool in
                        defer { lastXruns[device.objectID] = x }
                        return x > (lastXruns[device.objectID] ?? 0)
                    }
                    if changed {
                        notify(device.objectID, [AudioObjectPropertyAddress(mSelector: kAudioDeviceProcessorOverload,
                                                                            mScope: kAudioObjectPropertyScopeGlobal,
                                                                            mElement: kAudioObjectPropertyElementMain)])
                    }
                }
                if Double(tick) * 0.1 >= Self.rescanInterval {
                    tick = 0
                    rescan()
                }
            }
        }
        thread.name = "OpenCoreAudio HAL watcher"
        thread.start()
    }

    // MARK: System properties

    override func value(_ address: AudioObjectPropertyAddress, qualifier: UnsafeRawBufferPointer) -> HALPropertyValue? {
        switch address.mSelector {
        case kAudioHardwarePropertyDevices: return .objects(ownedObjects)
        case kAudioHardwarePropertyDefaultInputDevice: return .uint32(lock.withLock { defaultInput })
        case kAudioHardwarePropertyDefaultOutputDevice: return .uint32(lock.withLock { defaultOutput })
        case kAudioHardwarePropertyDefaultSystemOutputDevice: return .uint32(lock.withLock { defaultSystemOutput })
        case kAudioHardwarePropertyTranslateUIDToDevice:
            guard qualifier.count >= MemoryLayout<UnsafeRawPointer>.size,
                  let raw = qualifier.loadUnaligned(as: UnsafeRawPointer?.self) else { return .uint32(kAudioObjectUnknown) }
            let uid = Unmanaged<NSString>.fromOpaque(raw).takeUnretainedValue() as String
            return .uint32(lock.withLock { devices.first { $0.uid == uid }?.objectID ?? kAudioObjectUnknown })
        case kAudioHardwarePropertyIsInitingOrExiting: return .uint32(0)
        case kAudioHardwarePropertyProcessIsAudible: return .uint32(1)
        case kAudioHardwarePropertyMixStereoToMono: return .uint32(0)
        case kAudioHardwarePropertySleepingIsAllowed, kAudioHardwarePropertyUnloadingIsAllowed: return .uint32(1)
        case kAudioHardwarePropertyHogModeIsAllowed: return .uint32(0)
        default: return super.value(address, qualifier: qualifier)
        }
    }

    override func isSettable(_ address: AudioObjectPropertyAddress) -> Bool {
        [kAudioHardwarePropertyDefaultInputDevice, kAudioHardwarePropertyDefaultOutputDevice,
         kAudioHardwarePropertyDefaultSystemOutputDevice].contains(address.mSelector)
    }

    override func setValue(_ address: AudioObjectPropertyAddress, _ data: UnsafeRawBufferPointer) -> OSStatus {
        guard data.count >= 4 else { return kAudioHardwareBadPropertySizeError }
        let id = data.loadUnaligned(as: AudioObjectID.self)
        let input = address.mSelector == kAudioHardwarePropertyDefaultInputDevice
        let status: OSStatus = lock.withLock {
            guard let device = devices.first(where: { $0.objectID == id }),
                  (input ? device.inputCapabilities : device.outputCapabilities) != nil else { return kAudioHardwareBadDeviceError }
            if input { userDefaultInput = device.uid } else { userDefaultOutput = device.uid }
            return kAudioHardwareNoError
        }
        guard status == kAudioHardwareNoError else { return status }
        let defaults = lock.withLock { rescanLocked().defaultsChanged }
        if !defaults.isEmpty { notify(kAudioObjectSystemObject, defaults.map { self.address($0) }) }
        return kAudioHardwareNoError
    }

    // MARK: Listeners

    private var nextListenerSerial: UInt64 = 0

    func addListener(_ id: AudioObjectID, _ listener: Listener) -> OSStatus {
        guard let target = object(id) else { return kAudioHardwareBadObjectError }
        // A device's mixer is opened (and from then on watched) once someone listens to the device.
        if let device = target as? HALDevice { _ = device.mixer }
        lock.withLock {
            var registered = listener
            nextListenerSerial += 1
            registered.serial = nextListenerSerial
            listeners[id, default: []].append(registered)
        }
        return kAudioHardwareNoError
    }

    func removeListener(_ id: AudioObjectID, last: Bool = false, where matches: (Listener) -> Bool) -> OSStatus {
        guard object(id) != nil else { return kAudioHardwareBadObjectError }
        return lock.withLock {
            guard let i = last ? listeners[id]?.lastIndex(where: matches) : listeners[id]?.firstIndex(where: matches) else {
                return kAudioHardwareUnknownPropertyError
            }
            listeners[id]!.remove(at: i)
            return kAudioHardwareNoError
        }
    }

    /// Runs `body` on the proc listeners' queue after every notification queued so far.
    func afterPendingNotifications(_ body: @escaping @Sendable () -> Void) { notifyQueue.async(execute: body) }
}

/// Not Apple API: runs `body` once every property-listener call queued so far has returned (a wrapper that passes its
/// own object as a listener's client data frees it here after removing the listener).
package func AudioObjectAfterPendingNotifications(_ body: @escaping @Sendable () -> Void) {
    HALSystem.shared.afterPendingNotifications(body)
}

extension HALSystem {

    /// Tells the listeners of object `id` that `addresses` changed (asynchronously).
    func notify(_ id: AudioObjectID, _ addresses: [AudioObjectPropertyAddress]) {
        let targets = lock.withLock { listeners[id] ?? [] }
        for listener in targets {
            let hit = addresses.filter { halAddressMatches(listener.address, $0) }
            guard !hit.isEmpty else { continue }
            // Client callbacks and data are the client's to make thread-safe, as with Apple's HAL.
            let call = UncheckedSendable(listener)
            (listener.proc == nil ? listener.queue ?? notifyQueue : notifyQueue).async {
                // A listener removed after this call was queued is not called: its client data may be gone.
                let serial = call.value.serial
                guard self.lock.withLock({ self.listeners[id]?.contains { $0.serial == serial } ?? false }) else { return }
                hit.withUnsafeBufferPointer {
                    if let proc = call.value.proc {
                        _ = proc(id, UInt32($0.count), $0.baseAddress!, call.value.clientData)
                    } else {
                        call.value.block?(UInt32($0.count), $0.baseAddress!)
                    }
                }
            }
        }
    }
}

/// Carries a value the HAL hands between threads on the client's behalf.
struct UncheckedSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
