import OCAProperty
import Synchronization

/// The render-notify callbacks of a unit. Edited under a lock off the render thread; the render
/// thread reads an immutable snapshot through one atomic pointer (see RetiringPointerCell).
final class RenderNotifyList: @unchecked Sendable {
    struct Entry { var proc: AURenderCallback; var refCon: UnsafeMutableRawPointer? }
    /// Fixed-capacity snapshot so that it is a plain value.
    struct Snapshot { var count = 0; var entries: (Entry?, Entry?, Entry?, Entry?, Entry?, Entry?, Entry?, Entry?) = (nil, nil, nil, nil, nil, nil, nil, nil) }
    static let capacity = 8

    private let master = LockedState<[Entry]>([])
    private let cell = RetiringPointerCell(Snapshot())

    /// Adds a callback; `published` is told, under the list's lock, whether the list now has any.
    func add(_ proc: AURenderCallback, _ refCon: UnsafeMutableRawPointer?, published: (Bool) -> Void = { _ in }) -> OSStatus {
        master.withLock { list in
            if list.contains(where: { sameFunction($0.proc, proc) && $0.refCon == refCon }) { return noErr }
            guard list.count < Self.capacity else { return kAudio_MemFullError }
            list.append(Entry(proc: proc, refCon: refCon))
            cell.publish(Self.snapshot(of: list))
            published(true)
            return noErr
        }
    }

    /// Removes a callback; `published` as for `add`.
    func remove(_ proc: AURenderCallback, _ refCon: UnsafeMutableRawPointer?, published: (Bool) -> Void = { _ in }) -> OSStatus {
        master.withLock { list in
            list.removeAll { sameFunction($0.proc, proc) && $0.refCon == refCon }
            cell.publish(Self.snapshot(of: list))
            published(!list.isEmpty)
            return noErr
        }
    }

    private static func snapshot(of list: [Entry]) -> Snapshot {
        var s = Snapshot()
        s.count = list.count
        withUnsafeMutableBytes(of: &s.entries) { raw in
            let slots = raw.bindMemory(to: Entry?.self)
            for (i, e) in list.enumerated() { slots[i] = e }
        }
        return s
    }

    /// Calls every callback. Safe on the render thread.
    @inline(__always)
    func notify(_ flags: AudioUnitRenderActionFlags, _ timeStamp: UnsafePointer<AudioTimeStamp>, _ bus: UInt32,
                _ frames: UInt32, _ ioData: UnsafeMutablePointer<AudioBufferList>) {
        // The count alone first: the snapshot is 136 bytes, and most units have no callbacks.
        let current = cell.pointer
        guard current.pointee.count > 0 else { return }
        var snapshot = current.pointee
        withUnsafeBytes(of: &snapshot.entries) { raw in
            let slots = raw.bindMemory(to: Entry?.self)
            for i in 0..<snapshot.count {
                guard let e = slots[i] else { continue }
                var f = flags
                _ = invokeRenderCallback(e.proc, e.refCon, &f, timeStamp, bus, frames, ioData)
            }
        }
    }
}

/// The one place that calls client render callbacks. Apple passes the refCon the client gave,
/// possibly NULL, although the Swift type says non-null; the cast keeps that promise honestly.
@inline(__always)
func invokeRenderCallback(_ proc: AURenderCallback, _ refCon: UnsafeMutableRawPointer?,
                          _ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>,
                          _ timeStamp: UnsafePointer<AudioTimeStamp>, _ bus: UInt32, _ frames: UInt32,
                          _ ioData: UnsafeMutablePointer<AudioBufferList>?) -> OSStatus {
    typealias NullableRefConCallback = @convention(c) (
        UnsafeMutableRawPointer?, UnsafeMutablePointer<AudioUnitRenderActionFlags>, UnsafePointer<AudioTimeStamp>,
        UInt32, UInt32, UnsafeMutablePointer<AudioBufferList>?) -> OSStatus
    let callable = unsafeBitCast(proc, to: NullableRefConCallback.self)
    return callable(refCon, flags, timeStamp, bus, frames, ioData)
}
