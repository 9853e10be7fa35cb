/// An audio unit's input or output busses (bridged to the v2 property kAudioUnitProperty_ElementCount).
open class AUAudioUnitBusArray: NSObject, @unchecked Sendable {
    private var busses: [AUAudioUnitBus]
    private weak var owner: AUAudioUnit?
    /// Input or output.
    public let busType: AUAudioUnitBusType

    /// An array of `busArray`, owned by `owner` (each bus learns its owner, type and index).
    public init(audioUnit owner: AUAudioUnit, busType: AUAudioUnitBusType, busses busArray: [AUAudioUnitBus]) {
        self.owner = owner
        self.busType = busType
        busses = []
        super.init()
        replaceBusses(busArray)
    }

    /// An empty array.
    public convenience init(audioUnit owner: AUAudioUnit, busType: AUAudioUnitBusType) {
        self.init(audioUnit: owner, busType: busType, busses: [])
    }

    /// The number of busses.
    public var count: Int { busses.count }

    /// The bus at `index`.
    public subscript(index: Int) -> AUAudioUnitBus { busses[index] }

    /// Whether `setBusCount(_:)` may change the count. The base class answers false; subclasses for units with
    /// a variable number of busses override it.
    open var isCountChangeable: Bool { false }

    /// Changes the number of busses: new ones copy the last bus's format. Throws kAudioUnitErr_PropertyNotWritable
    /// unless `isCountChangeable`.
    open func setBusCount(_ count: Int) throws {
        guard isCountChangeable else { throw NSError(domain: NSOSStatusErrorDomain, code: Int(kAudioUnitErr_PropertyNotWritable)) }
        guard count >= 0 else { throw NSError(domain: NSOSStatusErrorDomain, code: Int(kAudioUnitErr_InvalidPropertyValue)) }
        var next = Array(busses.prefix(count))
        while next.count < count {
            guard let last = next.last ?? busses.last else {
                throw NSError(domain: NSOSStatusErrorDomain, code: Int(kAudioUnitErr_InvalidPropertyValue))
            }
            next.append(try AUAudioUnitBus(streamDescription: last.streamDescription, formatObject: last.formatObject))
        }
        replaceBusses(next)
    }

    /// Replaces the busses (subclasses' API).
    public func replaceBusses(_ busArray: [AUAudioUnitBus]) {
        // An empty array staying empty changes nothing; telling the owner would make a unit that never overrides
        // inputBusses re-enter its own lazy empty array (the v2 adapter's sync reads inputBusses) without end.
        let unchanged = busses.isEmpty && busArray.isEmpty
        busses = busArray
        for (i, bus) in busArray.enumerated() {
            bus.index = i
            bus.busType = busType
            bus.owner = owner
        }
        if !unchanged { owner?.busCountChanged(self) }
    }

    /// The audio unit owning the busses.
    public var ownerAudioUnit: AUAudioUnit { owner! }
}
