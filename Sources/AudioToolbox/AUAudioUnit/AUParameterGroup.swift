/// A group of parameter nodes (parameters and nested groups). Observers and implementor blocks set on a group
/// apply to everything below it.
open class AUParameterGroup: AUParameterNode, @unchecked Sendable {
    /// The group's child nodes.
    public let children: [AUParameterNode]
    /// Whether the group is a template (made by `createGroupTemplate`, to be copied with
    /// `createGroup(fromTemplate:identifier:name:addressOffset:)`).
    let isTemplate: Bool

    init(identifier: String, name: String, children: [AUParameterNode], isTemplate: Bool = false) {
        self.children = children
        self.isTemplate = isTemplate
        super.init(identifier: identifier, displayName: name)
        for child in children { child.parent = self }
    }

    /// Every parameter in the group and its subgroups, depth first, in order.
    public var allParameters: [AUParameter] {
        var out: [AUParameter] = []
        collect(into: &out)
        return out
    }

    private func collect(into out: inout [AUParameter]) {
        for child in children {
            if let p = child as? AUParameter { out.append(p) } else if let g = child as? AUParameterGroup { g.collect(into: &out) }
        }
    }

    override func copy(addressOffset offset: AUParameterAddress) -> AUParameterNode {
        AUParameterGroup(identifier: identifier, name: displayName, children: children.map { $0.copy(addressOffset: offset) })
    }
}
