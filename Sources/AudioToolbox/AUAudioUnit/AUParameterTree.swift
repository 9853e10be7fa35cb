/// The root of an audio unit's parameters, and the factory of parameters, groups and trees.
open class AUParameterTree: AUParameterGroup, @unchecked Sendable {
    private lazy var byAddress: [AUParameterAddress: AUParameter] = {
        var map: [AUParameterAddress: AUParameter] = [:]
        for p in allParameters where map[p.address] == nil { map[p.address] = p }
        return map
    }()

    /// The parameter at `address`, or nil. Not for the render thread.
    public func parameter(withAddress address: AUParameterAddress) -> AUParameter? {
        byAddress[address]
    }

    /// A v2 unit's parameter by ID, scope and element. Nil here: the trees of this module belong to
    /// AUAudioUnit subclasses (version 3 units), as Apple's method answers nil for them.
    public func parameter(withID paramID: AudioUnitParameterID, scope: AudioUnitScope, element: AudioUnitElement) -> AUParameter? {
        nil
    }

    // MARK: Factory (Apple's AUParameterTree (Factory) category)

    /// A parameter; its value starts at 0 (kept within `min...max`).
    public class func createParameter(withIdentifier identifier: String, name: String, address: AUParameterAddress, min: AUValue, max: AUValue,
                                      unit: AudioUnitParameterUnit, unitName: String?, flags: AudioUnitParameterOptions,
                                      valueStrings: [String]?, dependentParameters: [NSNumber]?) -> AUParameter {
        AUParameter(identifier: identifier, name: name, address: address, min: min, max: max, unit: unit, unitName: unitName,
                    flags: flags, valueStrings: valueStrings, dependentParameters: dependentParameters)
    }

    /// A group of `children` (each may belong to one group only).
    public class func createGroup(withIdentifier identifier: String, name: String, children: [AUParameterNode]) -> AUParameterGroup {
        AUParameterGroup(identifier: identifier, name: name, children: children)
    }

    /// A template group, to be instantiated with `createGroup(fromTemplate:identifier:name:addressOffset:)`.
    public class func createGroupTemplate(_ children: [AUParameterNode]) -> AUParameterGroup {
        AUParameterGroup(identifier: "", name: "", children: children, isTemplate: true)
    }

    /// A copy of a template group, with every parameter's address moved by `addressOffset`.
    public class func createGroup(fromTemplate templateGroup: AUParameterGroup, identifier: String, name: String,
                                  addressOffset: AUParameterAddress) -> AUParameterGroup {
        AUParameterGroup(identifier: identifier, name: name, children: templateGroup.children.map { $0.copy(addressOffset: addressOffset) })
    }

    /// A tree of `children`.
    public class func createTree(withChildren children: [AUParameterNode]) -> AUParameterTree {
        AUParameterTree(identifier: "", name: "", children: children)
    }
}
