import Foundation

/// State guarded by a lock, for data that is not Sendable (raw and function pointers) and is only
/// touched off the render thread.
final class LockedState<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    init(_ value: Value) { self.value = value }

    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
