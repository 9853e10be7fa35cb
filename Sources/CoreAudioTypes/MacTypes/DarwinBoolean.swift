// DarwinBoolean itself is the C struct in CoreAudioBaseTypes.h (so C callback types can point at it); these are the
// conversions Swift's Darwin overlay gives it.
extension DarwinBoolean: ExpressibleByBooleanLiteral, @unchecked Sendable {
    /// A DarwinBoolean holding `value`.
    @inlinable public init(_ value: Bool) { self.init(_value: value ? 1 : 0) }

    /// The value of `self`, expressed as a `Bool`.
    @inlinable public var boolValue: Bool { _value != 0 }

    /// `true` or `false` as a DarwinBoolean.
    @inlinable public init(booleanLiteral value: Bool) { self.init(value) }
}

extension DarwinBoolean: CustomStringConvertible {
    public var description: String { boolValue.description }
}

extension DarwinBoolean: Equatable {
    /// Equal when both are true or both false (any non-zero value is true).
    @inlinable public static func == (lhs: DarwinBoolean, rhs: DarwinBoolean) -> Bool {
        lhs.boolValue == rhs.boolValue
    }
}

/// The status code for success.
@inlinable public var noErr: OSStatus { 0 }
