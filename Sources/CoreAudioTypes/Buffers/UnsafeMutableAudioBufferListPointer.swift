/// A wrapper for a pointer to an `AudioBufferList`, giving collection access to its variable-length
/// `mBuffers` array (Apple's CoreAudio overlay type). Safe on the render thread: it never allocates.
@frozen
public struct UnsafeMutableAudioBufferListPointer {
    /// The pointer to the wrapped `AudioBufferList`.
    public var unsafeMutablePointer: UnsafeMutablePointer<AudioBufferList>

    /// A view of the list at `p` (not copied, not owned).
    @inlinable public init(_ p: UnsafeMutablePointer<AudioBufferList>) {
        unsafeMutablePointer = p
    }

    /// A view of the list at `p`, nil for a nil pointer.
    @inlinable public init?(_ p: UnsafeMutablePointer<AudioBufferList>?) {
        guard let p else { return nil }
        self.init(p)
    }

    @inlinable public var unsafePointer: UnsafePointer<AudioBufferList> {
        UnsafePointer(unsafeMutablePointer)
    }

    /// The number of buffers (`mNumberBuffers`); setting it writes `mNumberBuffers`.
    @inlinable public var count: Int {
        get { Int(unsafeMutablePointer.pointee.mNumberBuffers) }
        nonmutating set { unsafeMutablePointer.pointee.mNumberBuffers = UInt32(newValue) }
    }

    @inlinable var _audioBuffersPointer: UnsafeMutablePointer<AudioBuffer> {
        // mBuffers follows mNumberBuffers, aligned for AudioBuffer (no key path: this runs on
        // the render thread, where key paths may allocate).
        let alignment = MemoryLayout<AudioBuffer>.alignment
        let offset = (MemoryLayout<UInt32>.size + alignment - 1) / alignment * alignment
        return (UnsafeMutableRawPointer(unsafeMutablePointer) + offset).assumingMemoryBound(to: AudioBuffer.self)
    }
}

extension UnsafeMutableAudioBufferListPointer: MutableCollection, RandomAccessCollection {
    public typealias Index = Int

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { count }

    @inlinable public subscript(index: Int) -> AudioBuffer {
        get {
            precondition(index >= 0 && index < count, "subscript index out of range")
            return _audioBuffersPointer[index]
        }
        nonmutating set {
            precondition(index >= 0 && index < count, "subscript index out of range")
            _audioBuffersPointer[index] = newValue
        }
    }
}

extension UnsafeMutableAudioBufferListPointer {
    /// Iterates the buffers by pointer. Render callbacks commonly write
    /// `for buffer in UnsafeMutableAudioBufferListPointer(ioData)`: the default IndexingIterator goes
    /// through the Collection subscript's read coroutine, which allocates a frame in unoptimised
    /// builds; this iterator never allocates.
    @frozen
    public struct Iterator: IteratorProtocol {
        @usableFromInline let buffers: UnsafeMutablePointer<AudioBuffer>
        @usableFromInline let count: Int
        @usableFromInline var index = 0

        @inlinable init(buffers: UnsafeMutablePointer<AudioBuffer>, count: Int) {
            self.buffers = buffers
            self.count = count
        }

        /// The next buffer, nil after the last.
        @inlinable public mutating func next() -> AudioBuffer? {
            guard index < count else { return nil }
            defer { index += 1 }
            return buffers[index]
        }
    }

    /// Iterates the list's buffers in order.
    @inlinable public func makeIterator() -> Iterator {
        Iterator(buffers: _audioBuffersPointer, count: count)
    }
}

extension AudioBufferList {
    /// The size in bytes of an `AudioBufferList` with room for `maximumBuffers` buffers.
    @inlinable public static func sizeInBytes(maximumBuffers: Int) -> Int {
        precondition(maximumBuffers >= 1, "AudioBufferList should contain at least one AudioBuffer")
        return MemoryLayout<AudioBufferList>.size
            + (maximumBuffers - 1) * MemoryLayout<AudioBuffer>.stride
    }

    /// Allocates (with `malloc`, so callers release it with `free`) an `AudioBufferList` with room
    /// for `maximumBuffers` buffers; `mNumberBuffers` is set to `maximumBuffers`, the buffers zeroed.
    /// Never call from the render thread.
    public static func allocate(maximumBuffers: Int) -> UnsafeMutableAudioBufferListPointer {
        let byteSize = sizeInBytes(maximumBuffers: maximumBuffers)
        guard let raw = calloc(byteSize, 1) else { fatalError("AudioBufferList.allocate: out of memory") }
        let ablMemory = raw.bindMemory(to: AudioBufferList.self, capacity: 1)
        let abl = UnsafeMutableAudioBufferListPointer(ablMemory)
        abl.count = maximumBuffers
        return abl
    }
}

extension AudioBuffer {
    /// An `AudioBuffer` over the memory of a typed buffer, with `numberOfChannels` interleaved channels.
    @inlinable public init<Element>(_ typedBuffer: UnsafeMutableBufferPointer<Element>, numberOfChannels: Int) {
        self.init(
            mNumberChannels: UInt32(numberOfChannels),
            mDataByteSize: UInt32(typedBuffer.count * MemoryLayout<Element>.stride),
            mData: UnsafeMutableRawPointer(typedBuffer.baseAddress))
    }
}

extension UnsafeBufferPointer {
    /// A typed view of an `AudioBuffer`'s data (`mDataByteSize / stride` elements).
    @inlinable public init(_ audioBuffer: AudioBuffer) {
        self.init(
            start: audioBuffer.mData?.assumingMemoryBound(to: Element.self),
            count: Int(audioBuffer.mDataByteSize) / MemoryLayout<Element>.stride)
    }
}

extension UnsafeMutableBufferPointer {
    /// A typed, mutable view of an `AudioBuffer`'s data (`mDataByteSize / stride` elements).
    @inlinable public init(_ audioBuffer: AudioBuffer) {
        self.init(
            start: audioBuffer.mData?.assumingMemoryBound(to: Element.self),
            count: Int(audioBuffer.mDataByteSize) / MemoryLayout<Element>.stride)
    }
}
