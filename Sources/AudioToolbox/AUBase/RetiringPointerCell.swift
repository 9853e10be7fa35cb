import Synchronization

/// A value published to the render thread through one atomic pointer. Writers (never the render
/// thread) copy the new value into fresh memory and swap the pointer; old copies are kept until the
/// cell is destroyed, so a reader never sees freed memory and never waits.
final class RetiringPointerCell<Value: BitwiseCopyable>: @unchecked Sendable {
    private let current: Atomic<UnsafeMutablePointer<Value>?>
    private let retired = LockedState<[UnsafeMutablePointer<Value>]>([])

    init(_ initial: Value) {
        let p = UnsafeMutablePointer<Value>.allocate(capacity: 1)
        p.initialize(to: initial)
        current = Atomic(p)
    }

    deinit {
        current.load(ordering: .acquiring)?.deallocate()
        retired.withLock { list in list.forEach { $0.deallocate() } }
    }

    /// The current value. Safe on the render thread.
    @inline(__always)
    var value: Value { current.load(ordering: .acquiring)!.pointee }

    /// The current value in place, for reading one field of a large value without copying all of it.
    /// Safe on the render thread; valid until the cell is destroyed.
    @inline(__always)
    var pointer: UnsafePointer<Value> { UnsafePointer(current.load(ordering: .acquiring)!) }

    /// Allocates a copy of a value for a later `swap` (a render plan prepares these off the render thread).
    func make(_ value: Value) -> UnsafeMutablePointer<Value> {
        let p = UnsafeMutablePointer<Value>.allocate(capacity: 1)
        p.initialize(to: value)
        return p
    }

    /// Installs a prepared copy and returns the one it replaced, which the caller must hand back to
    /// `retire` off the render thread. Safe on the render thread.
    @inline(__always)
    func swap(_ p: UnsafeMutablePointer<Value>) -> UnsafeMutablePointer<Value>? {
        current.exchange(p, ordering: .acquiringAndReleasing)
    }

    /// Keeps a replaced copy until the cell is destroyed. Never call from the render thread.
    func retire(_ p: UnsafeMutablePointer<Value>) {
        retired.withLock { $0.append(p) }
    }

    /// Publishes a new value. Never call from the render thread.
    func publish(_ newValue: Value) {
        let p = UnsafeMutablePointer<Value>.allocate(capacity: 1)
        p.initialize(to: newValue)
        let old = current.exchange(p, ordering: .acquiringAndReleasing)
        if let old { retired.withLock { $0.append(old) } }
    }
}
