import Foundation

/// Reads numbers and flags out of settings dictionaries, whatever numeric type the client wrote the literal as
/// (Swift's Int, UInt32, Double, Bool, or an NSNumber), since Linux has no automatic bridging to NSNumber.
enum SettingsValue {
    /// The value as a Double, or nil when it is not a number.
    static func number(_ value: Any?) -> Double? {
        switch value {
        case let v as Double: v
        case let v as Float: Double(v)
        case let v as Int: Double(v)
        case let v as UInt: Double(v)
        case let v as Int32: Double(v)
        case let v as UInt32: Double(v)
        case let v as Int64: Double(v)
        case let v as UInt64: Double(v)
        case let v as Int16: Double(v)
        case let v as UInt16: Double(v)
        case let v as Bool: v ? 1 : 0
        case let v as NSNumber: v.doubleValue
        default: nil
        }
    }

    /// The value as a flag (any non-zero number is true).
    static func flag(_ value: Any?) -> Bool? { number(value).map { $0 != 0 } }
}
