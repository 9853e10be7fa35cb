import Synchronization

/// A batch of input-source changes that a running graph's render thread adopts at the start of one
/// slice, all at once: the render thread never sees a half-edited graph and never waits. Built and
/// freed on the editing thread (AUGraphUpdate); the render thread only swaps prepared pointers.
final class GraphRenderPlan: @unchecked Sendable {
    struct Entry {
        let cell: Unmanaged<RetiringPointerCell<AUInputElement.Source>>
        let input: Unmanaged<AUInputElement>
        let replacement: UnsafeMutablePointer<AUInputElement.Source>
        var replaced: UnsafeMutablePointer<AUInputElement.Source>?
    }

    private let entries: UnsafeMutablePointer<Entry>
    let count: Int
    private let adopted = Atomic<Bool>(false)
    /// The input elements whose cells the plan touches, kept alive until the plan is finished.
    private let owners: [AUInputElement]

    init(_ changes: [(AUInputElement, AUInputElement.Source)]) {
        count = changes.count
        owners = changes.map(\.0)
        entries = .allocate(capacity: max(count, 1))
        for (i, (input, source)) in changes.enumerated() {
            (entries + i).initialize(to: Entry(cell: Unmanaged.passUnretained(input.source), input: .passUnretained(input),
                                               replacement: input.source.make(source), replaced: nil))
        }
    }

    deinit { entries.deallocate() }

    var isAdopted: Bool { adopted.load(ordering: .acquiring) }

    /// Installs every change. Called once, by the render thread at the start of a slice (or by the
    /// editing thread when nothing renders). Safe on the render thread.
    func adopt() {
        for i in 0..<count {
            let e = entries[i]
            entries[i].replaced = e.cell._withUnsafeGuaranteedRef { $0.swap(e.replacement) }
            e.input._withUnsafeGuaranteedRef { $0.owner?.inputSourceChanged($0) }
        }
        adopted.store(true, ordering: .releasing)
    }

    /// After adoption: hands the replaced copies back to their cells. Editing thread.
    func finish() {
        precondition(isAdopted)
        for i in 0..<count {
            if let old = entries[i].replaced { entries[i].cell.takeUnretainedValue().retire(old) }
        }
    }
}
