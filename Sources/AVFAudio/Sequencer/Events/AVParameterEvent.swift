import Foundation

/// A parameter value for the track's destination unit (the track's ParameterEvent); between such events the
/// player ramps the parameter. Parameter events belong in automation tracks.
open class AVParameterEvent: AVMusicEvent, @unchecked Sendable {
    /// The parameter's ID.
    open var parameterID: UInt32
    /// The parameter's scope.
    open var scope: UInt32
    /// The parameter's element.
    open var element: UInt32
    /// The value.
    open var value: Float

    /// A value for a parameter of the destination unit.
    public init(parameterID: UInt32, scope: UInt32, element: UInt32, value: Float) {
        self.parameterID = parameterID
        self.scope = scope
        self.element = element
        self.value = value
        super.init()
    }

    override var musicEvent: (type: MusicEventType, bytes: [UInt8])? {
        (kMusicEventType_Parameter, Self.bytes(of: ParameterEvent(parameterID: parameterID, scope: scope, element: element, value: value)))
    }
}
