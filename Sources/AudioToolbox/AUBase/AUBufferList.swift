/// Render memory for one element: an `AudioBufferList` and the sample memory behind it, sized for
/// `MaximumFramesPerSlice` at initialize. `prepare` and `prepareNull` are safe on the render thread.
final class AUBufferList {
    // Unchecked exclusivity: configured off the render thread while uninitialized, read by it (see AUBase.inputs).
    @exclusivity(unchecked) private(set) var list: UnsafeMutablePointer<AudioBufferList>
    @exclusivity(unchecked) private var listCapacity: Int
    @exclusivity(unchecked) private var memory: UnsafeMutableRawPointer?
    @exclusivity(unchecked) private var bytesPerBuffer = 0
    @exclusivity(unchecked) private(set) var bytesPerFrame: UInt32 = 0
    @exclusivity(unchecked) private(set) var maxFrames: UInt32 = 0
    @exclusivity(unchecked) private(set) var bufferCount = 0
    @exclusivity(unchecked) private var channelsPerBuffer: UInt32 = 1

    init() {
        listCapacity = 2
        list = AudioBufferList.allocate(maximumBuffers: listCapacity).unsafeMutablePointer
    }

    deinit {
        free(list)
        memory?.deallocate()
    }

    /// Sizes the list for a format; allocates sample memory only if `withMemory`. Never on the render thread.
    func configure(format: AudioStreamBasicDescription, maxFrames: UInt32, withMemory: Bool) {
        let nonInterleaved = format.mFormatFlags & kAudioFormatFlagIsNonInterleaved != 0
        bufferCount = nonInterleaved ? Int(format.mChannelsPerFrame) : 1
        channelsPerBuffer = nonInterleaved ? 1 : format.mChannelsPerFrame
        bytesPerFrame = format.mBytesPerFrame
        self.maxFrames = maxFrames
        if bufferCount > listCapacity {
            free(list)
            listCapacity = bufferCount
            list = AudioBufferList.allocate(maximumBuffers: listCapacity).unsafeMutablePointer
        }
        memory?.deallocate()
        memory = nil
        bytesPerBuffer = Int(maxFrames) * Int(bytesPerFrame)
        if withMemory && bytesPerBuffer > 0 {
            let total = bytesPerBuffer * bufferCount
            memory = UnsafeMutableRawPointer.allocate(byteCount: total, alignment: 64)
            memory!.initializeMemory(as: UInt8.self, repeating: 0, count: total)
        }
        list.pointee.mNumberBuffers = UInt32(bufferCount)
    }

    func releaseMemory() {
        memory?.deallocate()
        memory = nil
    }

    var hasMemory: Bool { memory != nil }

    /// Points the list at the element's own memory, sized for `frames`.
    @_noLocks @_noAllocation @inline(__always)
    func prepare(frames: UInt32) -> UnsafeMutablePointer<AudioBufferList> {
        fill(frames: frames, withMemory: true)
    }

    /// A list with nil `mData`, for an upstream unit to fill with its own pointers.
    @_noLocks @_noAllocation @inline(__always)
    func prepareNull(frames: UInt32) -> UnsafeMutablePointer<AudioBufferList> {
        fill(frames: frames, withMemory: false)
    }

    @_noLocks @_noAllocation @inline(__always)
    private func fill(frames: UInt32, withMemory: Bool) -> UnsafeMutablePointer<AudioBufferList> {
        let abl = UnsafeMutableAudioBufferListPointer(list)
        abl.count = bufferCount
        let size = frames * bytesPerFrame
        for i in 0..<bufferCount {
            var data: UnsafeMutableRawPointer? = nil
            if withMemory, let memory { data = memory + i * bytesPerBuffer }
            abl[i] = AudioBuffer(mNumberChannels: channelsPerBuffer, mDataByteSize: size, mData: data)
        }
        return list
    }
}
