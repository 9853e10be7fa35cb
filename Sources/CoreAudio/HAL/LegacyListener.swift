import Foundation

/// An AudioHardwareDeprecated.h listener proc registered as an ordinary AudioObject listener: the HAL calls
/// `trampoline` with this box as client data, and the box calls the old proc once per changed address with
/// the old arguments ((selector) for the system; (device, element as channel, input scope as isInput,
/// selector) for a device; (stream, element, selector) for a stream). Boxes live until removed.
final class LegacyListener: @unchecked Sendable {
    enum Proc {
        case system(AudioHardwarePropertyListenerProc)
        case device(AudioDevicePropertyListenerProc)
        case stream(AudioStreamPropertyListenerProc)

        var identity: UnsafeRawPointer {
            switch self {
            case .system(let p): unsafeBitCast(p, to: UnsafeRawPointer.self)
            case .device(let p): unsafeBitCast(p, to: UnsafeRawPointer.self)
            case .stream(let p): unsafeBitCast(p, to: UnsafeRawPointer.self)
            }
        }
    }

    let object: AudioObjectID
    let address: AudioObjectPropertyAddress
    let proc: Proc
    let clientData: UnsafeMutableRawPointer?

    private init(object: AudioObjectID, address: AudioObjectPropertyAddress, proc: Proc, clientData: UnsafeMutableRawPointer?) {
        self.object = object
        self.address = address
        self.proc = proc
        self.clientData = clientData
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var registered: [LegacyListener] = []

    private static let trampoline: AudioObjectPropertyListenerProc = { id, count, addresses, context in
        let box = Unmanaged<LegacyListener>.fromOpaque(context!).takeUnretainedValue()
        for a in UnsafeBufferPointer(start: addresses, count: Int(count)) {
            switch box.proc {
            case .system(let p): _ = p(a.mSelector, box.clientData)
            case .device(let p): _ = p(id, a.mElement, DarwinBoolean(a.mScope == kAudioObjectPropertyScopeInput), a.mSelector, box.clientData)
            case .stream(let p): _ = p(id, a.mElement, a.mSelector, box.clientData)
            }
        }
        return kAudioHardwareNoError
    }

    static func add(_ object: AudioObjectID, _ address: AudioObjectPropertyAddress, _ proc: Proc,
                    _ clientData: UnsafeMutableRawPointer?) -> OSStatus {
        let box = LegacyListener(object: object, address: address, proc: proc, clientData: clientData)
        var a = address
        let status = AudioObjectAddPropertyListener(object, &a, trampoline, Unmanaged.passUnretained(box).toOpaque())
        if status == kAudioHardwareNoError { lock.withLock { registered.append(box) } }
        return status
    }

    /// Removes the listener registered with this proc at this address (the old API has no client data to match).
    static func remove(_ object: AudioObjectID, _ address: AudioObjectPropertyAddress, _ proc: UnsafeRawPointer) -> OSStatus {
        let box: LegacyListener? = lock.withLock {
            guard let i = registered.firstIndex(where: {
                $0.object == object && $0.proc.identity == proc && $0.address.mSelector == address.mSelector
                    && $0.address.mScope == address.mScope && $0.address.mElement == address.mElement
            }) else { return nil }
            return registered.remove(at: i)
        }
        guard let box else {
            return HALSystem.shared.object(object) == nil ? kAudioHardwareBadObjectError : kAudioHardwareUnknownPropertyError
        }
        var a = address
        let status = AudioObjectRemovePropertyListener(object, &a, trampoline, Unmanaged.passUnretained(box).toOpaque())
        // Calls already queued still reach the box: it goes only after them (proc listeners share one queue).
        let keep = UncheckedSendable(box)
        HALSystem.shared.afterPendingNotifications { withExtendedLifetime(keep) {} }
        return status
    }
}
