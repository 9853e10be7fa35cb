import Foundation
import OCAProperty
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
    /// Every object's property listeners.
    private let listeners = PropertyListenerList<HALListenerKey, HALListenerCall>()
    private let notifyQueue = DispatchQueue(label: "OpenCoreAudio.HAL.notifications")
    private var lastXruns: [AudioObjectID: Int] = [:]
    private var watcherStarted = false
    /// How often the watcher rescans ALSA's device list (seconds).
    static let rescanInterval = 0.5

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

    override var properties: HALProperties { HALProperties(self, HALSystem.table) }

    private static let table = HALProperties.table(commonRows() as [HALRow<HALSystem>] + rows)

    private static let rows: [HALRow<HALSystem>] = [
        HALProperties.array(kAudioHardwarePropertyDevices, AudioObjectID.self, get: { $0.object.ownedObjects }),
        defaultDevice(kAudioHardwarePropertyDefaultInputDevice, \.defaultInput),
        defaultDevice(kAudioHardwarePropertyDefaultOutputDevice, \.defaultOutput),
        defaultDevice(kAudioHardwarePropertyDefaultSystemOutputDevice, \.defaultSystemOutput),
        // The qualifier is the CFString UID; an unknown UID (or none) is kAudioObjectUnknown.
        HALProperties.value(kAudioHardwarePropertyTranslateUIDToDevice, AudioObjectID.self, get: { request in
            guard request.qualifier.count >= MemoryLayout<UnsafeRawPointer>.size,
                  let raw = request.qualifier.loadUnaligned(as: UnsafeRawPointer?.self) else { return kAudioObjectUnknown }
            let uid = Unmanaged<NSString>.fromOpaque(raw).takeUnretainedValue() as String
            let system = request.object
            return system.lock.withLock { system.devices.first { $0.uid == uid }?.objectID ?? kAudioObjectUnknown }
        }),
        HALProperties.value(kAudioHardwarePropertyIsInitingOrExiting, UInt32.self, get: { _ in 0 }),
        HALProperties.value(kAudioHardwarePropertyProcessIsAudible, UInt32.self, get: { _ in 1 }),
        HALProperties.value(kAudioHardwarePropertyMixStereoToMono, UInt32.self, get: { _ in 0 }),
        HALProperties.value(kAudioHardwarePropertySleepingIsAllowed, UInt32.self, get: { _ in 1 }),
        HALProperties.value(kAudioHardwarePropertyUnloadingIsAllowed, UInt32.self, get: { _ in 1 }),
        HALProperties.value(kAudioHardwarePropertyHogModeIsAllowed, UInt32.self, get: { _ in 0 }),
    ]

    private static func defaultDevice(_ id: AudioObjectPropertySelector, _ current: KeyPath<HALSystem, AudioObjectID>) -> HALRow<HALSystem> {
        HALProperties.value(id, AudioObjectID.self, get: { request in request.object.lock.withLock { request.object[keyPath: current] } },
                            set: { request, device in request.object.setDefault(input: id == kAudioHardwarePropertyDefaultInputDevice, device) })
    }

    /// Makes `id` the user's default device in a direction (the system output follows the output).
    private func setDefault(input: Bool, _ id: AudioObjectID) -> OSStatus {
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

    /// Registers a listener of object `id` at `address`.
    func addListener(_ id: AudioObjectID, _ address: AudioObjectPropertyAddress, _ call: HALListenerCall,
                     _ clientData: UnsafeMutableRawPointer?) -> OSStatus {
        guard let target = object(id) else { return kAudioHardwareBadObjectError }
        // A device's mixer is opened (and from then on watched) once someone listens to the device.
        if let device = target as? HALDevice { _ = device.mixer }
        listeners.add(HALListenerKey(objectID: id, address: address), call, clientData)
        return kAudioHardwareNoError
    }

    /// Removes one registration of object `id` that `matches` picks (`which`: the earliest or the latest).
    func removeListener(_ id: AudioObjectID, _ which: PropertyListenerList<HALListenerKey, HALListenerCall>.Removal = .first,
                        where matches: (PropertyListenerList<HALListenerKey, HALListenerCall>.Listener) -> Bool) -> OSStatus {
        guard object(id) != nil else { return kAudioHardwareBadObjectError }
        return listeners.remove(which) { $0.key.objectID == id && matches($0) } == 1 ? kAudioHardwareNoError : kAudioHardwareUnknownPropertyError
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
        for listener in listeners.listeners(where: { $0.key.objectID == id }) {
            let hit = addresses.filter { listener.key.hears($0) }
            guard !hit.isEmpty else { continue }
            // Client callbacks and data are the client's to make thread-safe, as with Apple's HAL.
            let call = UncheckedSendable(listener)
            let queue: DispatchQueue
            switch listener.proc {
            case .proc: queue = notifyQueue
            case .block(_, _, let own): queue = own ?? notifyQueue
            }
            queue.async {
                // A listener removed after this call was queued is not called: its client data may be gone.
                guard self.listeners.isRegistered(call.value.serial) else { return }
                hit.withUnsafeBufferPointer {
                    switch call.value.proc {
                    case .proc(let proc): _ = proc(id, UInt32($0.count), $0.baseAddress!, call.value.userData)
                    case .block(let block, _, _): block(UInt32($0.count), $0.baseAddress!)
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
