import Foundation

/// One event's data, copied in when the event is added and owned by the event: the pointer
/// MusicEventIteratorGetEventInfo hands out stays valid while the event exists. Immutable once made,
/// so copies of an event (MusicTrackCopyInsert, MusicTrackMerge) share it.
final class MusicEventPayload {
    let bytes: UnsafeMutableRawPointer
    /// The size Apple's event type gives (variable-length types: header plus data).
    let size: Int
    /// A retained object the data points at (an AUPresetEvent's preset), kept alive with the event.
    let object: AnyObject?

    init(copying source: UnsafeRawPointer, size: Int, minimum: Int, object: AnyObject? = nil) {
        let capacity = max(size, minimum)
        bytes = UnsafeMutableRawPointer.allocate(byteCount: max(capacity, 1), alignment: 16)
        bytes.initializeMemory(as: UInt8.self, repeating: 0, count: max(capacity, 1))
        bytes.copyMemory(from: source, byteCount: size)
        self.size = size
        self.object = object
    }

    deinit { bytes.deallocate() }

    /// The payload of a fixed-size value.
    static func of<T>(_ value: T) -> MusicEventPayload {
        withUnsafeBytes(of: value) { MusicEventPayload(copying: $0.baseAddress!, size: $0.count, minimum: $0.count) }
    }

    /// The bytes of a variable-length event (header, then `length` bytes) as one payload.
    static func variable(header: [UInt8], data: UnsafeRawBufferPointer, minimum: Int) -> MusicEventPayload {
        var all = header
        all.append(contentsOf: data)
        return all.withUnsafeBytes { MusicEventPayload(copying: $0.baseAddress!, size: $0.count, minimum: minimum) }
    }

    func load<T>(as type: T.Type) -> T { bytes.loadUnaligned(as: T.self) }
    func uint32(at offset: Int) -> UInt32 { bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self) }
    /// `count` bytes from `offset`, for variable-length payloads (bounds come from `size`).
    func data(from offset: Int) -> [UInt8] {
        guard size > offset else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes + offset, count: size - offset))
    }
}
