import CoreAudioTypes
import Foundation

/// An object kind's property table (see `ObjectProperty`) and the one dispatcher for Apple's
/// GetPropertyInfo, GetProperty and SetProperty on it, answering the kind's own status codes.
///
/// Threading: a table is immutable once built and may be used from any thread; a row's closures run on the
/// caller's thread and guard the object's state themselves. None of this module is for a render thread: Get and
/// Set may allocate, and `PropertyListenerList` takes a lock.
package struct ObjectPropertyTable<Object>: @unchecked Sendable {
    /// The statuses one object kind answers.
    package struct Statuses {
        /// An ID the object does not have now (Info, Get and Set); a stream not yet parsed answers its own.
        package let unsupported: (Object) -> OSStatus
        /// A Get buffer smaller than Info's size, or a set of a size the row does not accept.
        package let badSize: OSStatus
        /// A set of a property that exists but is not writable now (AudioFile tells a read-only file apart).
        package let notWritable: (Object) -> OSStatus

        /// The statuses, each given.
        package init(unsupported: @escaping (Object) -> OSStatus, badSize: OSStatus, notWritable: @escaping (Object) -> OSStatus) {
            self.unsupported = unsupported
            self.badSize = badSize
            self.notWritable = notWritable
        }
    }

    /// The rows by ID, in the order given: the first whose `exists` holds answers.
    private let rows: [UInt32: [ObjectProperty<Object>]]
    package let statuses: Statuses

    /// A table of `rows` answering `statuses`.
    package init(_ rows: [ObjectProperty<Object>], statuses: Statuses) {
        self.rows = Dictionary(grouping: rows, by: \.id)
        self.statuses = statuses
    }

    /// Every ID a row names (the object may not have all of them now).
    package var ids: [UInt32] { rows.keys.sorted() }

    /// The row that answers `id` for the object now.
    package func row(_ object: Object, _ id: UInt32) -> ObjectProperty<Object>? {
        rows[id]?.first { $0.exists(object) }
    }

    /// Info: the size Get writes and whether a set may succeed now; nil where the object lacks the property or
    /// cannot give it now (a row's `availability`).
    package func info(_ object: Object, _ id: UInt32) -> (size: UInt32, writable: Bool)? {
        guard let row = row(object, id), row.availability?(object) ?? noErr == noErr else { return nil }
        return (row.size(object), isWritable(row, object))
    }

    /// Info as Apple's calls answer it: the kind's unsupported status, the row's availability status, or the size
    /// and writability.
    package func info(_ object: Object, _ id: UInt32, _ outSize: UnsafeMutablePointer<UInt32>?,
              _ outWritable: UnsafeMutablePointer<DarwinBoolean>?) -> OSStatus {
        guard let row = row(object, id) else { return statuses.unsupported(object) }
        if let status = row.availability?(object), status != noErr { return status }
        outSize?.pointee = row.size(object)
        outWritable?.pointee = DarwinBoolean(isWritable(row, object))
        return noErr
    }

    /// Get: at least Info's size in, exactly Info's size out (the buffer also carries a translation's input); a
    /// truncating row fills a smaller buffer with whole elements and reports the bytes it wrote.
    package func get(_ object: Object, _ id: UInt32, _ ioSize: UnsafeMutablePointer<UInt32>, _ out: UnsafeMutableRawPointer) -> OSStatus {
        guard let row = row(object, id) else { return statuses.unsupported(object) }
        if let status = row.availability?(object), status != noErr { return status }
        let size = row.size(object)
        if ioSize.pointee < size, let truncation = row.truncation {
            let n = ioSize.pointee / truncation.stride * truncation.stride
            guard n > 0 || truncation.allowsEmpty else { return statuses.badSize }
            let status = row.read(object, out, n)
            if status == noErr { ioSize.pointee = n }
            return status
        }
        guard ioSize.pointee >= size else { return statuses.badSize }
        let status = row.read(object, out, size)
        if status == noErr { ioSize.pointee = size }
        return status
    }

    /// Whether a row names `id` (the object may not have it now).
    package func names(_ id: UInt32) -> Bool { rows[id] != nil }

    /// Set: the row must exist, be writable now (a `reported` row lets every set through to its writer), be reachable
    /// (`setAvailability`) and accept the size; then its writer decides.
    package func set(_ object: Object, _ id: UInt32, _ size: UInt32, _ data: UnsafeRawPointer) -> OSStatus {
        guard let row = row(object, id) else { return statuses.unsupported(object) }
        guard let write = row.write, acceptsSet(row, object) else { return statuses.notWritable(object) }
        if let status = row.setAvailability?(object), status != noErr { return status }
        switch row.setSize {
        case .exactly(let n): guard size == n else { return statuses.badSize }
        case .atLeast(let n): guard size >= n else { return statuses.badSize }
        case .current: guard size == row.size(object) else { return statuses.badSize }
        }
        return write(object, UnsafeRawBufferPointer(start: data, count: Int(size)))
    }

    /// What Info reports.
    private func isWritable(_ row: ObjectProperty<Object>, _ object: Object) -> Bool {
        switch row.writability {
        case .never: false
        case .always: true
        case .when(let condition), .reported(let condition): condition(object)
        }
    }

    /// Whether a set reaches the writer.
    private func acceptsSet(_ row: ObjectProperty<Object>, _ object: Object) -> Bool {
        if case .reported = row.writability { return true }
        return isWritable(row, object)
    }
}

extension ObjectPropertyTable.Statuses {
    /// Statuses with one answer for an ID the object lacks, whatever its state.
    package init(unsupported: OSStatus, badSize: OSStatus, notWritable: @escaping (Object) -> OSStatus) {
        self.init(unsupported: { _ in unsupported }, badSize: badSize, notWritable: notWritable)
    }
}
