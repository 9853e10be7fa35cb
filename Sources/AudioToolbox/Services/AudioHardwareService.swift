import Foundation

// Apple's AudioHardwareService.h (AudioToolbox, macOS): the AudioObject API plus the virtual controls that
// "set the system volume" code uses. VirtualMainVolume is the device's main volume control in a scope (input
// or output), or without one the average of its preferred stereo pair, set so that their balance is kept;
// VirtualMainBalance is the stereo pair's balance, 0 (left only) ... 0.5 (equal) ... 1 (right only). Every
// other selector goes straight to the AudioObject API. Object IDs are the HAL's own (Apple's caveat that they
// differ does not apply here).

/// Apple's `kAudioHardwareServiceProperty_ServiceRestarted` ('srst'): a Float32 without meaning whose
/// listeners hear that the service restarted (it never does here).
public let kAudioHardwareServiceProperty_ServiceRestarted: AudioObjectPropertySelector = 0x7372_7374
/// Apple's `kAudioHardwareServiceDeviceProperty_VirtualMainVolume` ('vmvc'): Float32, 0...1.
public let kAudioHardwareServiceDeviceProperty_VirtualMainVolume: AudioObjectPropertySelector = 0x766D_7663
/// Apple's older name of VirtualMainVolume.
public let kAudioHardwareServiceDeviceProperty_VirtualMasterVolume: AudioObjectPropertySelector = kAudioHardwareServiceDeviceProperty_VirtualMainVolume
/// Apple's `kAudioHardwareServiceDeviceProperty_VirtualMainBalance` ('vmbc'): Float32, 0 (left) ... 1 (right).
public let kAudioHardwareServiceDeviceProperty_VirtualMainBalance: AudioObjectPropertySelector = 0x766D_6263
/// Apple's older name of VirtualMainBalance.
public let kAudioHardwareServiceDeviceProperty_VirtualMasterBalance: AudioObjectPropertySelector = kAudioHardwareServiceDeviceProperty_VirtualMainBalance

/// Apple's `AudioHardwareServiceHasProperty`.
public func AudioHardwareServiceHasProperty(_ inObjectID: AudioObjectID, _ inAddress: UnsafePointer<AudioObjectPropertyAddress>!) -> Bool {
    guard let inAddress else { return false }
    if let virtual = VirtualControl(inObjectID, inAddress.pointee) { return virtual.exists }
    return AudioObjectHasProperty(inObjectID, inAddress)
}

/// Apple's `AudioHardwareServiceIsPropertySettable`.
public func AudioHardwareServiceIsPropertySettable(_ inObjectID: AudioObjectID, _ inAddress: UnsafePointer<AudioObjectPropertyAddress>!,
                                                   _ outIsSettable: UnsafeMutablePointer<DarwinBoolean>!) -> OSStatus {
    guard let inAddress, let outIsSettable else { return kAudioHardwareIllegalOperationError }
    guard let virtual = VirtualControl(inObjectID, inAddress.pointee) else {
        return AudioObjectIsPropertySettable(inObjectID, inAddress, outIsSettable)
    }
    guard virtual.exists else { return virtual.missingStatus }
    outIsSettable.pointee = DarwinBoolean(virtual.isSettable)
    return kAudioHardwareNoError
}

/// Apple's `AudioHardwareServiceGetPropertyDataSize`.
public func AudioHardwareServiceGetPropertyDataSize(_ inObjectID: AudioObjectID, _ inAddress: UnsafePointer<AudioObjectPropertyAddress>!,
                                                    _ inQualifierDataSize: UInt32, _ inQualifierData: UnsafeRawPointer!,
                                                    _ outDataSize: UnsafeMutablePointer<UInt32>!) -> OSStatus {
    guard let inAddress, let outDataSize else { return kAudioHardwareIllegalOperationError }
    guard let virtual = VirtualControl(inObjectID, inAddress.pointee) else {
        return AudioObjectGetPropertyDataSize(inObjectID, inAddress, inQualifierDataSize, inQualifierData, outDataSize)
    }
    guard virtual.exists else { return virtual.missingStatus }
    outDataSize.pointee = UInt32(MemoryLayout<Float32>.size)
    return kAudioHardwareNoError
}

/// Apple's `AudioHardwareServiceGetPropertyData`.
public func AudioHardwareServiceGetPropertyData(_ inObjectID: AudioObjectID, _ inAddress: UnsafePointer<AudioObjectPropertyAddress>!,
                                                _ inQualifierDataSize: UInt32, _ inQualifierData: UnsafeRawPointer!,
                                                _ ioDataSize: UnsafeMutablePointer<UInt32>!, _ outData: UnsafeMutableRawPointer!) -> OSStatus {
    guard let inAddress, let ioDataSize, let outData else { return kAudioHardwareIllegalOperationError }
    guard let virtual = VirtualControl(inObjectID, inAddress.pointee) else {
        return AudioObjectGetPropertyData(inObjectID, inAddress, inQualifierDataSize, inQualifierData, ioDataSize, outData)
    }
    guard virtual.exists else { return virtual.missingStatus }
    guard ioDataSize.pointee >= 4 else { return kAudioHardwareBadPropertySizeError }
    guard let value = virtual.value() else { return kAudioHardwareUnspecifiedError }
    outData.storeBytes(of: value, as: Float32.self)
    ioDataSize.pointee = 4
    return kAudioHardwareNoError
}

/// Apple's `AudioHardwareServiceSetPropertyData`.
public func AudioHardwareServiceSetPropertyData(_ inObjectID: AudioObjectID, _ inAddress: UnsafePointer<AudioObjectPropertyAddress>!,
                                                _ inQualifierDataSize: UInt32, _ inQualifierData: UnsafeRawPointer!,
                                                _ inDataSize: UInt32, _ inData: UnsafeRawPointer!) -> OSStatus {
    guard let inAddress, let inData else { return kAudioHardwareIllegalOperationError }
    guard let virtual = VirtualControl(inObjectID, inAddress.pointee) else {
        return AudioObjectSetPropertyData(inObjectID, inAddress, inQualifierDataSize, inQualifierData, inDataSize, inData)
    }
    guard virtual.exists else { return virtual.missingStatus }
    guard virtual.isSettable else { return kAudioHardwareIllegalOperationError }
    guard inDataSize >= 4 else { return kAudioHardwareBadPropertySizeError }
    let value = inData.loadUnaligned(as: Float32.self)
    guard value.isFinite else { return kAudioHardwareIllegalOperationError }
    return virtual.set(min(max(value, 0), 1))
}

/// Apple's `AudioHardwareServiceAddPropertyListener`. A virtual control's listener hears its device's volume
/// changes (by anyone) under the virtual selector.
public func AudioHardwareServiceAddPropertyListener(_ inObjectID: AudioObjectID, _ inAddress: UnsafePointer<AudioObjectPropertyAddress>!,
                                                    _ inListener: AudioObjectPropertyListenerProc!,
                                                    _ inClientData: UnsafeMutableRawPointer!) -> OSStatus {
    guard let inAddress, let inListener else { return kAudioHardwareIllegalOperationError }
    if VirtualControl.isVirtual(inAddress.pointee.mSelector) {
        return VirtualControlListener.add(inObjectID, inAddress.pointee, inListener, inClientData)
    }
    return AudioObjectAddPropertyListener(inObjectID, inAddress, inListener, inClientData)
}

/// Apple's `AudioHardwareServiceRemovePropertyListener`.
public func AudioHardwareServiceRemovePropertyListener(_ inObjectID: AudioObjectID, _ inAddress: UnsafePointer<AudioObjectPropertyAddress>!,
                                                       _ inListener: AudioObjectPropertyListenerProc!,
                                                       _ inClientData: UnsafeMutableRawPointer!) -> OSStatus {
    guard let inAddress, let inListener else { return kAudioHardwareIllegalOperationError }
    if VirtualControl.isVirtual(inAddress.pointee.mSelector) {
        return VirtualControlListener.remove(inObjectID, inAddress.pointee, inListener, inClientData)
    }
    return AudioObjectRemovePropertyListener(inObjectID, inAddress, inListener, inClientData)
}

/// One of the service's own properties at an address: the virtual main volume or balance of a device in a scope,
/// or ServiceRestarted on the system object. Works through the AudioObject API like any client.
struct VirtualControl {
    enum Kind { case volume, balance, restarted }
    let kind: Kind
    let object: AudioObjectID
    let scope: AudioObjectPropertyScope

    static func isVirtual(_ selector: AudioObjectPropertySelector) -> Bool {
        selector == kAudioHardwareServiceDeviceProperty_VirtualMainVolume || selector == kAudioHardwareServiceDeviceProperty_VirtualMainBalance
            || selector == kAudioHardwareServiceProperty_ServiceRestarted
    }

    init?(_ object: AudioObjectID, _ address: AudioObjectPropertyAddress) {
        switch address.mSelector {
        case kAudioHardwareServiceDeviceProperty_VirtualMainVolume: kind = .volume
        case kAudioHardwareServiceDeviceProperty_VirtualMainBalance: kind = .balance
        case kAudioHardwareServiceProperty_ServiceRestarted: kind = .restarted
        default: return nil
        }
        self.object = object
        scope = address.mScope
    }

    private func address(_ selector: AudioObjectPropertySelector, _ element: UInt32 = kAudioObjectPropertyElementMain) -> AudioObjectPropertyAddress {
        AudioObjectPropertyAddress(mSelector: selector, mScope: scope, mElement: element)
    }

    private func has(_ selector: AudioObjectPropertySelector, _ element: UInt32 = kAudioObjectPropertyElementMain) -> Bool {
        var a = address(selector, element)
        return AudioObjectHasProperty(object, &a)
    }

    private func settable(_ element: UInt32) -> Bool {
        var a = address(kAudioDevicePropertyVolumeScalar, element)
        var s = DarwinBoolean(false)
        return AudioObjectIsPropertySettable(object, &a, &s) == kAudioHardwareNoError && s.boolValue
    }

    /// The device's preferred stereo pair in this scope, if both channels have a volume control.
    private var stereoPair: (UInt32, UInt32)? {
        var a = address(kAudioDevicePropertyPreferredChannelsForStereo)
        var pair: (UInt32, UInt32) = (0, 0)
        var size = UInt32(MemoryLayout<(UInt32, UInt32)>.size)
        guard AudioObjectGetPropertyData(object, &a, 0, nil, &size, &pair) == kAudioHardwareNoError, size == 8,
              pair.0 != pair.1, has(kAudioDevicePropertyVolumeScalar, pair.0), has(kAudioDevicePropertyVolumeScalar, pair.1) else { return nil }
        return pair
    }

    var exists: Bool {
        switch kind {
        case .restarted: return object == kAudioObjectSystemObject
        case .volume: return has(kAudioDevicePropertyVolumeScalar) || stereoPair != nil
        case .balance: return stereoPair != nil
        }
    }

    /// Apple's answer for a control the object lacks: no such object, or no such property.
    var missingStatus: OSStatus {
        var a = AudioObjectPropertyAddress(mSelector: kAudioObjectPropertyClass, mScope: kAudioObjectPropertyScopeGlobal,
                                           mElement: kAudioObjectPropertyElementMain)
        return AudioObjectHasProperty(object, &a) ? kAudioHardwareUnknownPropertyError : kAudioHardwareBadObjectError
    }

    var isSettable: Bool {
        switch kind {
        case .restarted: return false
        case .volume: return has(kAudioDevicePropertyVolumeScalar) ? settable(kAudioObjectPropertyElementMain) : stereoPair.map { settable($0.0) && settable($0.1) } ?? false
        case .balance: return stereoPair.map { settable($0.0) && settable($0.1) } ?? false
        }
    }

    private func scalar(_ element: UInt32) -> Float32? {
        var a = address(kAudioDevicePropertyVolumeScalar, element)
        var v: Float32 = 0
        var size = UInt32(4)
        return AudioObjectGetPropertyData(object, &a, 0, nil, &size, &v) == kAudioHardwareNoError ? v : nil
    }

    private func setScalar(_ element: UInt32, _ value: Float32) -> OSStatus {
        var a = address(kAudioDevicePropertyVolumeScalar, element)
        var v = min(max(value, 0), 1)
        return AudioObjectSetPropertyData(object, &a, 0, nil, 4, &v)
    }

    func value() -> Float32? {
        switch kind {
        case .restarted: return 0
        case .volume:
            if has(kAudioDevicePropertyVolumeScalar) { return scalar(kAudioObjectPropertyElementMain) }
            guard let (l, r) = stereoPair, let left = scalar(l), let right = scalar(r) else { return nil }
            return (left + right) / 2
        case .balance:
            guard let (l, r) = stereoPair, let left = scalar(l), let right = scalar(r) else { return nil }
            return Self.balance(left: left, right: right)
        }
    }

    /// Balance from the pair's scalars: 0.5 when equal; toward the louder side by how much quieter the other is.
    static func balance(left: Float32, right: Float32) -> Float32 {
        if left == right { return 0.5 }
        return left > right ? 0.5 * right / left : 1 - 0.5 * left / right
    }

    func set(_ value: Float32) -> OSStatus {
        switch kind {
        case .restarted:
            return kAudioHardwareIllegalOperationError
        case .volume:
            // The main control keeps the channels' balance itself.
            if has(kAudioDevicePropertyVolumeScalar) { return setScalar(kAudioObjectPropertyElementMain, value) }
            guard let (l, r) = stereoPair, let left = scalar(l), let right = scalar(r) else { return kAudioHardwareUnspecifiedError }
            let average = (left + right) / 2
            let (newLeft, newRight) = average > 0 ? (left * value / average, right * value / average) : (value, value)
            let status = setScalar(l, newLeft)
            return status != kAudioHardwareNoError ? status : setScalar(r, newRight)
        case .balance:
            // The louder side keeps its level; the other is scaled down by the balance's distance from the middle.
            guard let (l, r) = stereoPair, let left = scalar(l), let right = scalar(r) else { return kAudioHardwareUnspecifiedError }
            let level = max(left, right)
            let newLeft = value <= 0.5 ? level : level * 2 * (1 - value)
            let newRight = value >= 0.5 ? level : level * 2 * value
            let status = setScalar(l, newLeft)
            return status != kAudioHardwareNoError ? status : setScalar(r, newRight)
        }
    }
}

/// A listener on a virtual control: registered with the HAL for its device's VolumeScalar changes in that scope
/// (any element), and called with the virtual address once per notification.
final class VirtualControlListener: @unchecked Sendable {
    let object: AudioObjectID
    let address: AudioObjectPropertyAddress
    let proc: AudioObjectPropertyListenerProc
    let clientData: UnsafeMutableRawPointer?

    private init(object: AudioObjectID, address: AudioObjectPropertyAddress, proc: @escaping AudioObjectPropertyListenerProc,
                 clientData: UnsafeMutableRawPointer?) {
        self.object = object
        self.address = address
        self.proc = proc
        self.clientData = clientData
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var registered: [VirtualControlListener] = []

    private static let trampoline: AudioObjectPropertyListenerProc = { id, _, _, context in
        let box = Unmanaged<VirtualControlListener>.fromOpaque(context!).takeUnretainedValue()
        var a = box.address
        return box.proc(id, 1, &a, box.clientData)
    }

    /// What the HAL is asked to watch for a virtual address.
    private static func watched(_ address: AudioObjectPropertyAddress) -> AudioObjectPropertyAddress {
        address.mSelector == kAudioHardwareServiceProperty_ServiceRestarted
            ? address
            : AudioObjectPropertyAddress(mSelector: kAudioDevicePropertyVolumeScalar, mScope: address.mScope,
                                         mElement: kAudioObjectPropertyElementWildcard)
    }

    static func add(_ object: AudioObjectID, _ address: AudioObjectPropertyAddress, _ proc: @escaping AudioObjectPropertyListenerProc,
                    _ clientData: UnsafeMutableRawPointer?) -> OSStatus {
        let box = VirtualControlListener(object: object, address: address, proc: proc, clientData: clientData)
        var a = watched(address)
        let status = AudioObjectAddPropertyListener(object, &a, trampoline, Unmanaged.passUnretained(box).toOpaque())
        if status == kAudioHardwareNoError { lock.withLock { registered.append(box) } }
        return status
    }

    static func remove(_ object: AudioObjectID, _ address: AudioObjectPropertyAddress, _ proc: AudioObjectPropertyListenerProc,
                       _ clientData: UnsafeMutableRawPointer?) -> OSStatus {
        let identity = unsafeBitCast(proc, to: UnsafeRawPointer.self)
        let box: VirtualControlListener? = lock.withLock {
            guard let i = registered.firstIndex(where: {
                $0.object == object && unsafeBitCast($0.proc, to: UnsafeRawPointer.self) == identity && $0.clientData == clientData
                    && $0.address.mSelector == address.mSelector && $0.address.mScope == address.mScope
            }) else { return nil }
            return registered.remove(at: i)
        }
        guard let box else { return kAudioHardwareUnknownPropertyError }
        var a = watched(address)
        let status = AudioObjectRemovePropertyListener(object, &a, trampoline, Unmanaged.passUnretained(box).toOpaque())
        // A call already queued or running may still use the box: it goes once they have returned.
        let keep = RetiredListener(box: box)
        AudioObjectAfterPendingNotifications { withExtendedLifetime(keep) {} }
        return status
    }
}

/// A removed listener's box, kept until the calls queued before its removal have returned.
private struct RetiredListener: @unchecked Sendable {
    let box: VirtualControlListener
}
