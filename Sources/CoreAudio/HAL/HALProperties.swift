import Foundation
import OCAProperty

/// A HAL property row: the shared `ObjectProperty` on a request (object, address, qualifier).
typealias HALRow<Object: HALObject> = ObjectProperty<HALPropertyRequest<Object>>

/// A HAL object's property table bound to the object: what AudioObjectHasProperty, IsPropertySettable,
/// GetPropertyDataSize, GetPropertyData and SetPropertyData answer. Each object kind keeps one table of rows
/// (`HALProperties.table`), built with the HAL's status codes and size rules:
/// - a fixed-size value needs a buffer of at least its size (kAudioHardwareBadPropertySizeError), and a set at
///   least its size;
/// - an array fills as many whole elements as fit (none, in an empty buffer) and reports the bytes written;
/// - a C string is cut to fit and still terminated;
/// - a property the object lacks at that address is kAudioHardwareUnknownPropertyError, a set of one that is not
///   settable kAudioHardwareIllegalOperationError.
struct HALProperties {
    private let infoAt: (AudioObjectPropertyAddress, UnsafeRawBufferPointer) -> (size: UInt32, writable: Bool)?
    private let getAt: (AudioObjectPropertyAddress, UnsafeRawBufferPointer, UnsafeMutablePointer<UInt32>, UnsafeMutableRawPointer) -> OSStatus
    private let setAt: (AudioObjectPropertyAddress, UnsafeRawBufferPointer, UInt32, UnsafeRawPointer) -> OSStatus
    /// Every selector a row of the kind's table names (the object may lack some at a given scope or element).
    let selectors: [AudioObjectPropertySelector]

    /// `object`'s properties as its kind's `table` answers them.
    init<Object: HALObject>(_ object: Object, _ table: ObjectPropertyTable<HALPropertyRequest<Object>>) {
        infoAt = { table.info(HALPropertyRequest(object: object, address: $0, qualifier: $1), $0.mSelector) }
        getAt = { table.get(HALPropertyRequest(object: object, address: $0, qualifier: $1), $0.mSelector, $2, $3) }
        setAt = { table.set(HALPropertyRequest(object: object, address: $0, qualifier: $1), $0.mSelector, $2, $3) }
        selectors = table.ids
    }

    /// The size Get writes and whether a set may succeed; nil where the object lacks the property at `address`.
    func info(_ address: AudioObjectPropertyAddress, qualifier: UnsafeRawBufferPointer = .init(start: nil, count: 0)) -> (size: UInt32, writable: Bool)? {
        infoAt(address, qualifier)
    }

    /// Reads the property into `out` (`ioSize`: the buffer's size in, the bytes written out).
    func get(_ address: AudioObjectPropertyAddress, qualifier: UnsafeRawBufferPointer, _ ioSize: UnsafeMutablePointer<UInt32>,
             _ out: UnsafeMutableRawPointer) -> OSStatus {
        getAt(address, qualifier, ioSize, out)
    }

    /// Writes the property from `size` bytes at `data`.
    func set(_ address: AudioObjectPropertyAddress, qualifier: UnsafeRawBufferPointer, _ size: UInt32, _ data: UnsafeRawPointer) -> OSStatus {
        setAt(address, qualifier, size, data)
    }

    /// A kind's table of `rows`, answering the HAL's statuses.
    static func table<Object: HALObject>(_ rows: [HALRow<Object>]) -> ObjectPropertyTable<HALPropertyRequest<Object>> {
        ObjectPropertyTable(rows, statuses: .init(unsupported: kAudioHardwareUnknownPropertyError, badSize: kAudioHardwareBadPropertySizeError,
                                                  notWritable: { _ in kAudioHardwareIllegalOperationError }))
    }

    // MARK: Rows with the HAL's size rules

    /// A fixed-size `T`; settable when `set` is given (a set takes at least `T`'s size).
    static func value<Object, T>(_ id: AudioObjectPropertySelector, _: T.Type, exists: @escaping (HALPropertyRequest<Object>) -> Bool = { _ in true },
                                 get: @escaping (HALPropertyRequest<Object>) -> T,
                                 set: ((HALPropertyRequest<Object>, T) -> OSStatus)? = nil) -> HALRow<Object> {
        .value(id, T.self, exists: exists, writable: .always, exactSize: false, get: get, set: set)
    }

    /// An array of `T`, filled as far as whole elements fit.
    static func array<Object, T>(_ id: AudioObjectPropertySelector, _: T.Type, exists: @escaping (HALPropertyRequest<Object>) -> Bool = { _ in true },
                                 get: @escaping (HALPropertyRequest<Object>) -> [T]) -> HALRow<Object> {
        ObjectProperty.array(id, T.self, exists: exists, get: get).truncating(stride: MemoryLayout<T>.stride, allowsEmpty: true)
    }

    /// A string handed out as a CFString, retained (the caller releases it).
    static func string<Object>(_ id: AudioObjectPropertySelector, get: @escaping (HALPropertyRequest<Object>) -> String) -> HALRow<Object> {
        .object(id, writable: .never, get: { get($0) as NSString })
    }

    /// A NUL-terminated C string (AudioHardwareDeprecated.h's names): a smaller buffer takes the start of the text,
    /// still terminated; an empty one is too small.
    static func cString<Object>(_ id: AudioObjectPropertySelector, get: @escaping (HALPropertyRequest<Object>) -> String) -> HALRow<Object> {
        ObjectProperty(id, size: { UInt32(get($0).utf8.count + 1) }, read: { request, out, size in
            let text = Array(get(request).utf8)
            let n = min(text.count, Int(size) - 1)
            text.withUnsafeBytes { if n > 0 { out.copyMemory(from: $0.baseAddress!, byteCount: n) } }
            out.storeBytes(of: 0, toByteOffset: n, as: UInt8.self)
            // The text is the same unless it changed between Info and Get: whatever is left is zero.
            if n + 1 < Int(size) { (out + n + 1).initializeMemory(as: UInt8.self, repeating: 0, count: Int(size) - n - 1) }
            return kAudioHardwareNoError
        }).truncating()
    }
}
