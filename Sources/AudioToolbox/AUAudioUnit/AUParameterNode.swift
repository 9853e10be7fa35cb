import Synchronization

/// A node of a parameter tree: a parameter (`AUParameter`) or a group of nodes (`AUParameterGroup`, whose
/// root is an `AUParameterTree`). Observers added to a group hear every parameter below it; implementor
/// blocks set on a group serve every parameter below it that has none of its own.
open class AUParameterNode: NSObject, @unchecked Sendable {
    /// The node's identifier, unique among its siblings and stable across releases.
    public let identifier: String
    /// The node's localized name.
    public let displayName: String
    /// The group holding this node (set when the group is created).
    weak var parent: AUParameterGroup?

    let valueObservers = ObserverList<AUParameterObserver>()
    let automationObservers = ObserverList<AUParameterAutomationObserver>()
    let recordingObservers = ObserverList<AUParameterRecordingObserver>()

    private var ownValueObserver: AUImplementorValueObserver?
    private var ownValueProvider: AUImplementorValueProvider?
    private var ownStringFromValue: AUImplementorStringFromValueCallback?
    private var ownValueFromString: AUImplementorValueFromStringCallback?
    private var ownDisplayNameWithLength: AUImplementorDisplayNameWithLengthCallback?

    init(identifier: String, displayName: String) {
        self.identifier = identifier
        self.displayName = displayName
        super.init()
    }

    /// The identifiers from the tree's first level down to this node, joined by ".".
    public var keyPath: String {
        guard let parent, !(parent is AUParameterTree) else { return identifier }
        return parent.keyPath + "." + identifier
    }

    /// The display name shortened to `maximumLength` (the implementor's callback decides; the default
    /// answers `displayName`).
    open func displayName(withLength maximumLength: Int) -> String {
        if let shorten = resolved({ $0.ownDisplayNameWithLength }) { return shorten(self, maximumLength) }
        return displayName
    }

    // MARK: Observers

    /// Adds a block called after any parameter at or below this node changes value; returns the token
    /// for `removeParameterObserver(_:)` and for `AUParameter.setValue(_:originator:)`. Called synchronously
    /// on the thread that set the value.
    public func token(byAddingParameterObserver observer: @escaping AUParameterObserver) -> AUParameterObserverToken {
        valueObservers.add(observer)
    }

    /// Adds a block receiving each change as a recorded event (host time, address, value).
    public func token(byAddingParameterRecordingObserver observer: @escaping AUParameterRecordingObserver) -> AUParameterObserverToken {
        recordingObservers.add(observer)
    }

    /// Adds a block receiving each change as an automation event (with its gesture: value, touch, release).
    public func token(byAddingParameterAutomationObserver observer: @escaping AUParameterAutomationObserver) -> AUParameterObserverToken {
        automationObservers.add(observer)
    }

    /// Removes an observer added to this node.
    public func removeParameterObserver(_ token: AUParameterObserverToken) {
        if valueObservers.remove(token) { return }
        if automationObservers.remove(token) { return }
        recordingObservers.remove(token)
    }

    // MARK: Implementor blocks

    /// Receives every externally made change of a parameter at or below this node (the audio unit stores the
    /// value in its DSP state).
    public var implementorValueObserver: AUImplementorValueObserver {
        get { resolved({ $0.ownValueObserver }) ?? { _, _ in } }
        set { ownValueObserver = newValue }
    }

    /// Answers the current value of a parameter at or below this node (read by `AUParameter.value`).
    public var implementorValueProvider: AUImplementorValueProvider {
        get { resolved({ $0.ownValueProvider }) ?? { $0.storedValue } }
        set { ownValueProvider = newValue }
    }

    /// Turns values into text for parameters at or below this node.
    public var implementorStringFromValueCallback: AUImplementorStringFromValueCallback {
        get { resolved({ $0.ownStringFromValue }) ?? { p, v in AUParameter.defaultString(p, v) } }
        set { ownStringFromValue = newValue }
    }

    /// Turns text into values for parameters at or below this node.
    public var implementorValueFromStringCallback: AUImplementorValueFromStringCallback {
        get { resolved({ $0.ownValueFromString }) ?? { p, s in AUParameter.defaultValue(p, s) } }
        set { ownValueFromString = newValue }
    }

    /// Shortens display names of nodes at or below this node.
    public var implementorDisplayNameWithLengthCallback: AUImplementorDisplayNameWithLengthCallback {
        get { resolved({ $0.ownDisplayNameWithLength }) ?? { node, _ in node.displayName } }
        set { ownDisplayNameWithLength = newValue }
    }

    /// The nearest block set on this node or an ancestor.
    @inline(__always)
    func resolved<T>(_ pick: (AUParameterNode) -> T?) -> T? {
        var node: AUParameterNode? = self
        while let n = node {
            if let block = pick(n) { return block }
            node = n.parent
        }
        return nil
    }

    // The two the render thread may reach (AudioUnitSetParameter, AudioUnitGetParameter) walk the tree without the
    // generic `resolved`: a closure passed through a generic result is re-abstracted, which allocates.
    var valueObserverBlock: AUImplementorValueObserver? {
        var node: AUParameterNode? = self
        while let n = node {
            if let block = n.ownValueObserver { return block }
            node = n.parent
        }
        return nil
    }

    var valueProviderBlock: AUImplementorValueProvider? {
        var node: AUParameterNode? = self
        while let n = node {
            if let block = n.ownValueProvider { return block }
            node = n.parent
        }
        return nil
    }

    /// A copy of this node (and its children) with addresses moved by `offset` (group templates).
    func copy(addressOffset offset: AUParameterAddress) -> AUParameterNode { self }
}
