@testable import AudioToolbox
import Testing

/// The handle table releases the objects its quarantine evicts outside its lock: an object whose deinit calls the API
/// (which looks a handle up) must not deadlock the table. A CI run hung when an AVAudioNode's deinit removed a render
/// notify while the table evicted it.
@Suite struct LiveHandleTableTests {
    final class Reentrant {
        let table: LiveHandleTable
        let other: UnsafeMutableRawPointer?
        init(_ table: LiveHandleTable, other: UnsafeMutableRawPointer?) { self.table = table; self.other = other }
        // Deinit looks a handle up, as AudioUnitRemoveRenderNotify does.
        deinit { _ = table.object(other, as: Reentrant.self) }
    }

    @Test(.timeLimit(.minutes(1))) func evictedObjectsMayCallBackIntoTheTable() {
        let table = LiveHandleTable()
        var previous: UnsafeMutableRawPointer?
        // More than the quarantine holds, so removals evict (and release) older objects.
        for _ in 0..<(LiveHandleTable.quarantineSize * 2 + 10) {
            let handle = table.add(Reentrant(table, other: previous))
            previous = handle
            _ = table.remove(handle, as: Reentrant.self)
        }
        #expect(table.object(previous, as: Reentrant.self) == nil)
    }
}
