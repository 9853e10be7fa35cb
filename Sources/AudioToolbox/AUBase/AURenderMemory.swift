/// The memory a unit's render path uses, provided by AUBase: a unit takes its buffers from here while it initializes
/// (`initializeUnit`), and AUBase gives them all back when the unit uninitializes, fails to initialize or goes away.
/// So a unit neither frees its own render memory nor can leak it across initializations, and nothing is allocated
/// on the render thread (taking memory is for `initializeUnit` only: it allocates).
///
///     override func initializeUnit() -> OSStatus {
///         scratch = renderMemory.take(Float.self, count: channels * Int(maxFramesPerSlice), repeating: 0)
///         return noErr
///     }
///
/// The unit clears its pointers in `cleanupUnit` (AUBase frees the memory after it).
final class AURenderMemory {
    private var blocks: [UnsafeMutableRawPointer] = []

    init() {}

    deinit { releaseAll() }

    /// Room for `count` values of `T` (at least one), 64-byte aligned, not initialized; kept until `releaseAll`.
    private func block<T>(_: T.Type, count: Int) -> UnsafeMutablePointer<T> {
        let n = max(count, 1)
        let raw = UnsafeMutableRawPointer.allocate(byteCount: n * MemoryLayout<T>.stride, alignment: max(64, MemoryLayout<T>.alignment))
        blocks.append(raw)
        return raw.bindMemory(to: T.self, capacity: n)
    }

    /// `count` values of `T` (at least one), each set to `value`, 64-byte aligned; valid until the unit uninitializes.
    func take<T>(_: T.Type, count: Int, repeating value: T) -> UnsafeMutablePointer<T> {
        let typed = block(T.self, count: count)
        typed.initialize(repeating: value, count: max(count, 1))
        return typed
    }

    /// `count` values of a trivial type `T` (pointers, numbers), not initialized: the render path writes before it reads.
    func take<T: BitwiseCopyable>(_: T.Type, count: Int) -> UnsafeMutablePointer<T> {
        block(T.self, count: count)
    }

    /// An AudioBufferList with room for `buffers` buffers (mNumberBuffers set to it, the buffers empty).
    func takeBufferList(buffers: Int) -> UnsafeMutableAudioBufferListPointer {
        let bytes = AudioBufferList.sizeInBytes(maximumBuffers: max(buffers, 1))
        let raw = UnsafeMutableRawPointer(block(UInt8.self, count: bytes))
        raw.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
        let list = UnsafeMutableAudioBufferListPointer(raw.assumingMemoryBound(to: AudioBufferList.self))
        list.unsafeMutablePointer.pointee.mNumberBuffers = UInt32(max(buffers, 1))
        return list
    }

    /// The values of `source`, copied (a table the render thread reads).
    func take<T>(copying source: [T]) -> UnsafeMutablePointer<T> {
        let typed = block(T.self, count: source.count)
        source.withUnsafeBufferPointer { if let base = $0.baseAddress { typed.initialize(from: base, count: source.count) } }
        return typed
    }

    /// Gives every block back (the values are trivial: nothing to deinitialize).
    func releaseAll() {
        for block in blocks { block.deallocate() }
        blocks.removeAll()
    }
}
