import COCASupport
import Synchronization

/// One parameter of an audio unit: its range, unit and flags, and a value read and written from any thread
/// without locks. Setting the value tells the implementor (`implementorValueObserver`) and then the
/// observers of the parameter and of every group above it, synchronously on the setting thread.
open class AUParameter: AUParameterNode, @unchecked Sendable {
    /// The smallest value.
    public let minValue: AUValue
    /// The largest value.
    public let maxValue: AUValue
    /// The unit of measurement.
    public let unit: AudioUnitParameterUnit
    /// The unit's name (the audio unit's, for `.customUnit`).
    public let unitName: String?
    /// Readable, writable, ramps, display scale and the other options.
    public let flags: AudioUnitParameterOptions
    /// The parameter's address (its v2 parameter ID, in the global scope, when it fits in 32 bits).
    public internal(set) var address: AUParameterAddress
    /// The names of the values of an indexed parameter.
    public let valueStrings: [String]?
    /// Addresses of parameters whose values change along with this one.
    public let dependentParameters: [NSNumber]?

    /// The value as Float32 bits, atomically accessed.
    private let bits: Atomic<UInt32>

    init(identifier: String, name: String, address: AUParameterAddress, min: AUValue, max: AUValue, unit: AudioUnitParameterUnit,
         unitName: String?, flags: AudioUnitParameterOptions, valueStrings: [String]?, dependentParameters: [NSNumber]?) {
        minValue = min
        maxValue = max
        self.unit = unit
        self.unitName = unitName
        self.flags = flags
        self.address = address
        self.valueStrings = valueStrings
        self.dependentParameters = dependentParameters
        // Apple's parameters start at 0 (kept within the range here, so a host never reads an impossible value).
        bits = Atomic(Swift.min(Swift.max(0, min), max).bitPattern)
        super.init(identifier: identifier, displayName: name)
    }

    /// The value last set (the implementor's provider, when there is one, may know better).
    var storedValue: AUValue { Float(bitPattern: bits.load(ordering: .relaxed)) }

    /// The current value: the implementor's provider's answer when one is set on the parameter or a group
    /// above it, else the value last set. Setting it is `setValue(_:originator:)` with no originator.
    public var value: AUValue {
        get {
            if let provide = valueProviderBlock { return provide(self) }
            return storedValue
        }
        set { setValue(newValue, originator: nil) }
    }

    /// Sets the value, telling the implementor and every observer except the one whose token is `originator`.
    /// Bridged to AudioUnitSetParameter. No lock and no allocation of its own, so the render thread may call it
    /// (the blocks it calls must be as careful).
    public func setValue(_ value: AUValue, originator: AUParameterObserverToken?) {
        setValue(value, originator: originator, atHostTime: 0, eventType: .value)
    }

    /// As `setValue(_:originator:)`, recording the host time of the change.
    public func setValue(_ value: AUValue, originator: AUParameterObserverToken?, atHostTime hostTime: UInt64) {
        setValue(value, originator: originator, atHostTime: hostTime, eventType: .value)
    }

    /// As `setValue(_:originator:)`, recording the host time and the gesture (value, touch, release) for
    /// automation observers.
    public func setValue(_ value: AUValue, originator: AUParameterObserverToken?, atHostTime hostTime: UInt64,
                         eventType: AUParameterAutomationEventType) {
        bits.store(value.bitPattern, ordering: .relaxed)
        valueObserverBlock?(self, value)
        let time = hostTime != 0 ? hostTime : oca_monotonic_nanoseconds()
        var node: AUParameterNode? = self
        while let n = node {
            n.valueObservers.forEach { token, observer in
                if token != originator { observer(address, value) }
            }
            n.automationObservers.forEach { token, observer in
                guard token != originator else { return }
                var event = AUParameterAutomationEvent(hostTime: time, address: address, value: value, eventType: eventType, reserved: 0)
                observer(1, &event)
            }
            if eventType == .value {
                n.recordingObservers.forEach { token, observer in
                    guard token != originator else { return }
                    var event = AURecordedParameterEvent(hostTime: time, address: address, value: value)
                    observer(1, &event)
                }
            }
            node = n.parent
        }
    }

    /// Stores a value without telling anyone (state restored by the unit itself).
    func storeSilently(_ value: AUValue) {
        bits.store(value.bitPattern, ordering: .relaxed)
    }

    /// The value (the current one when nil) as text: the implementor's callback, else the value's name for an
    /// indexed parameter with value strings, else the number.
    public func string(fromValue value: UnsafePointer<AUValue>?) -> String {
        implementorStringFromValueCallback(self, value)
    }

    /// The value text stands for: the implementor's callback, else the index of a value string, else the number.
    public func value(from string: String) -> AUValue {
        implementorValueFromStringCallback(self, string)
    }

    static func defaultString(_ p: AUParameter, _ value: UnsafePointer<AUValue>?) -> String {
        let v = value?.pointee ?? p.value
        if let strings = p.valueStrings {
            let i = Int(v.rounded()) - Int(p.minValue.rounded())
            if strings.indices.contains(i) { return strings[i] }
        }
        return String(format: "%.2f", Double(v))
    }

    static func defaultValue(_ p: AUParameter, _ string: String) -> AUValue {
        if let i = p.valueStrings?.firstIndex(of: string) { return p.minValue.rounded() + AUValue(i) }
        return AUValue(string.trimmingCharacters(in: .whitespaces)) ?? 0
    }

    override func copy(addressOffset offset: AUParameterAddress) -> AUParameterNode {
        let p = AUParameter(identifier: identifier, name: displayName, address: address &+ offset, min: minValue, max: maxValue, unit: unit,
                            unitName: unitName, flags: flags, valueStrings: valueStrings, dependentParameters: dependentParameters)
        p.storeSilently(storedValue)
        return p
    }
}
