import CoreAudioTypes
import Foundation

/// One row of a property table for an object kind that answers Apple's Info/Get/Set triple (AudioFile,
/// AudioFileStream, ExtAudioFile, AudioConverter and its PCM stage, the Audio Queue, and the HAL's objects, whose
/// `Object` is a request carrying the address and qualifier): the ID, whether the object has
/// the property now, when it may be written, its size, how it is read and how it is written.
/// `ObjectPropertyTable` answers the three calls from the rows alone; Info's size is the row's `size`,
/// and Get writes exactly that many bytes, so the two cannot disagree. Audio units use `AUProperty`,
/// the same idea with scopes and elements.
///
/// The helpers derive the size from the value: `.value` (a fixed-size `T`), `.translation` (a fixed-size
/// `T` whose input the caller puts in the buffer), `.bytes` and `.array` (variable-size data whose size is
/// the getter's count) and `.object` (a Core Foundation reference handed out +1). Adding a property is
/// one row, e.g. on AudioFile:
///
///     .value(kAudioFilePropertySourceBitDepth, UInt32.self, get: { $0.layout.format.mBitsPerChannel }),
package struct ObjectProperty<Object>: @unchecked Sendable {
    package typealias Reader = (Object, UnsafeMutableRawPointer, UInt32) -> OSStatus
    package typealias Writer = (Object, UnsafeRawBufferPointer) -> OSStatus

    /// When a property may be written.
    package enum Writability {
        /// Read-only.
        case never
        /// Writable whenever it exists.
        case always
        /// Writable while the condition holds (a file's format before its audio data, ...).
        case when((Object) -> Bool)
        /// Info reports what the closure says; a set goes to the writer, which checks its own rules (an audio
        /// unit's stream format: setting the format it already has succeeds where Info says read-only).
        case reported((Object) -> Bool)
    }

    /// The sizes a set accepts; a writer checks rules that depend on the value itself.
    package enum SetSize {
        case exactly(UInt32)
        case atLeast(UInt32)
        /// Exactly the size Info reports now (a channel map sized by the channel count).
        case current
    }

    package let id: UInt32
    /// Whether the object has the property now; when it does not, the next row with the same ID is asked.
    package let exists: (Object) -> Bool
    package var writability: Writability
    /// The byte size Info reports and Get writes.
    package let size: (Object) -> UInt32
    /// Writes exactly `size` bytes (the third argument) to the buffer, or answers a status.
    package let read: Reader
    package let setSize: SetSize
    package let write: Writer?
    /// The status Info and Get answer while the object cannot give the value now (noErr when it can): an Audio
    /// Queue's meters while metering is off, its device without one, a property that is written but not read.
    /// A set is not affected.
    package var availability: ((Object) -> OSStatus)?
    /// The status a set answers while it cannot reach the property here (noErr when it can), checked after the
    /// row is found writable and before the size: an audio unit's property on a scope or element it is not on.
    package var setAvailability: ((Object) -> OSStatus)?
    /// Get takes a buffer smaller than Info's size and fills what fits: an Audio Queue's meters, where a client may
    /// ask for fewer channels; the HAL's arrays and C strings. nil: Get needs Info's whole size.
    package var truncation: Truncation?

    /// How a truncating Get cuts the value: to whole elements of `stride` bytes (the reader is asked for that many
    /// bytes and writes them), and whether a buffer too small for one element is answered with nothing (the HAL) or
    /// the bad-size status (an Audio Queue).
    package struct Truncation {
        package let stride: UInt32
        package let allowsEmpty: Bool
    }

    /// A row with every part given. The reader writes exactly as many bytes as its third argument says: Info's size,
    /// or less for a truncating row.
    package init(_ id: UInt32, exists: @escaping (Object) -> Bool = { _ in true }, writable: Writability = .never,
         size: @escaping (Object) -> UInt32, setSize: SetSize = .atLeast(0), read: @escaping Reader, write: Writer? = nil) {
        self.id = id
        self.exists = exists
        self.writability = write == nil ? .never : writable
        self.size = size
        self.setSize = setSize
        self.read = read
        self.write = write
    }

    /// This row, answering `status` to Info and Get while it is not noErr (see `availability`).
    package func available(_ status: @escaping (Object) -> OSStatus) -> ObjectProperty {
        var row = self
        row.availability = status
        return row
    }

    /// This row with Get taking smaller buffers (see `truncation`): cut to whole elements of `stride` bytes, an
    /// empty answer allowed or not.
    package func truncating(stride: Int = 1, allowsEmpty: Bool = false) -> ObjectProperty {
        var row = self
        row.truncation = Truncation(stride: UInt32(max(stride, 1)), allowsEmpty: allowsEmpty)
        return row
    }

    /// A fixed-size value of type `T`: Info's size is `T`'s, Get stores the getter's value, a set loads a
    /// `T` (exactly `T`'s size, or at least with `exactSize: false`) and hands it to `set`.
    package static func value<T>(_ id: UInt32, _: T.Type, exists: @escaping (Object) -> Bool = { _ in true },
                         writable: Writability = .always, exactSize: Bool = true,
                         get: @escaping (Object) -> T, set: ((Object, T) -> OSStatus)? = nil) -> ObjectProperty {
        let size = UInt32(MemoryLayout<T>.size)
        return ObjectProperty(id, exists: exists, writable: writable, size: { _ in size },
                              setSize: exactSize ? .exactly(size) : .atLeast(size),
                              read: { object, out, _ in
                                  out.storeBytes(of: get(object), as: T.self)
                                  return noErr
                              },
                              write: set.map { set in { object, data in set(object, data.loadUnaligned(as: T.self)) } })
    }

    /// A fixed-size `T` the caller fills in part (a frame to translate, a byte count): the translation reads
    /// it from the buffer and completes it, or answers a status. Read-only.
    package static func translation<T>(_ id: UInt32, _: T.Type, exists: @escaping (Object) -> Bool = { _ in true },
                               _ translate: @escaping (Object, inout T) -> OSStatus) -> ObjectProperty {
        let size = UInt32(MemoryLayout<T>.size)
        return ObjectProperty(id, exists: exists, size: { _ in size }, read: { object, out, _ in
            var value = out.loadUnaligned(as: T.self)
            let status = translate(object, &value)
            if status == noErr { out.storeBytes(of: value, as: T.self) }
            return status
        })
    }

    /// Variable-size data (a cookie, a channel layout, a marker list): Info's size is the getter's count, or
    /// `size` where building the bytes has a cost or an effect (a list that retains the names it holds).
    package static func bytes(_ id: UInt32, exists: @escaping (Object) -> Bool = { _ in true }, writable: Writability = .always,
                      setSize: SetSize = .atLeast(0), size: ((Object) -> UInt32)? = nil,
                      get: @escaping (Object) -> [UInt8], set: Writer? = nil) -> ObjectProperty {
        ObjectProperty(id, exists: exists, writable: writable, size: size ?? { UInt32(get($0).count) }, setSize: setSize,
                       read: { object, out, size in
                           let bytes = get(object)
                           // `size` is what Info reported (or less, for a truncating row); the value is the same unless
                           // the object changed between.
                           let n = min(Int(size), bytes.count)
                           bytes.withUnsafeBytes { if n > 0 { out.copyMemory(from: $0.baseAddress!, byteCount: n) } }
                           if n < Int(size) { (out + n).initializeMemory(as: UInt8.self, repeating: 0, count: Int(size) - n) }
                           return noErr
                       },
                       write: set)
    }

    /// A read-only array of `T`: Info's size is the getter's count times `T`'s stride.
    package static func array<T>(_ id: UInt32, _: T.Type, exists: @escaping (Object) -> Bool = { _ in true },
                         get: @escaping (Object) -> [T]) -> ObjectProperty {
        bytes(id, exists: exists, writable: .never, get: { object in get(object).withUnsafeBytes { Array($0) } })
    }

    /// A Core Foundation object (a dictionary, a string) handed out +1 retained, as Apple's do. A set hands
    /// the caller's object (nil for a NULL reference) to `set` unretained.
    package static func object(_ id: UInt32, exists: @escaping (Object) -> Bool = { _ in true }, writable: Writability = .always,
                       get: @escaping (Object) -> AnyObject, set: ((Object, AnyObject?) -> OSStatus)? = nil) -> ObjectProperty {
        let size = UInt32(MemoryLayout<UnsafeRawPointer>.size)
        return ObjectProperty(id, exists: exists, writable: writable, size: { _ in size }, setSize: .atLeast(size),
                              read: { object, out, _ in
                                  out.storeBytes(of: UnsafeRawPointer(Unmanaged.passRetained(get(object)).toOpaque()), as: UnsafeRawPointer.self)
                                  return noErr
                              },
                              write: set.map { set in { object, data in
                                  let raw = data.loadUnaligned(as: UnsafeRawPointer?.self)
                                  return set(object, raw.map { Unmanaged<AnyObject>.fromOpaque($0).takeUnretainedValue() })
                              } })
    }

    /// This row on an object that holds an `Object` (the converter's PCM stage): the same property, reached
    /// through `part`, present where `exists` (if given) and the row's own check both hold.
    package func lifted<Outer>(_ part: @escaping (Outer) -> Object, exists outerExists: ((Outer) -> Bool)? = nil) -> ObjectProperty<Outer> {
        let row = self
        let writability: ObjectProperty<Outer>.Writability
        switch row.writability {
        case .never: writability = .never
        case .always: writability = .always
        case .when(let condition): writability = .when { condition(part($0)) }
        case .reported(let condition): writability = .reported { condition(part($0)) }
        }
        let setSize: ObjectProperty<Outer>.SetSize
        switch row.setSize {
        case .exactly(let n): setSize = .exactly(n)
        case .atLeast(let n): setSize = .atLeast(n)
        case .current: setSize = .current
        }
        var outer = ObjectProperty<Outer>(id, exists: { (outerExists?($0) ?? true) && row.exists(part($0)) }, writable: writability,
                                          size: { row.size(part($0)) }, setSize: setSize,
                                          read: { row.read(part($0), $1, $2) },
                                          write: row.write.map { write in { write(part($0), $1) } })
        outer.availability = row.availability.map { status in { status(part($0)) } }
        outer.setAvailability = row.setAvailability.map { status in { status(part($0)) } }
        outer.truncation = row.truncation.map { .init(stride: $0.stride, allowsEmpty: $0.allowsEmpty) }
        return outer
    }
}
