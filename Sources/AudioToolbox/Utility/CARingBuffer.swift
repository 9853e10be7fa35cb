import COCASupport
import Synchronization

// CARingBuffer: the time-stamped multichannel ring buffer of Apple's Core Audio Utility Classes
// (PublicUtility/CARingBuffer.h), with Apple's C++ member names so that code written against it (the
// play-through of "Learning Core Audio" chapter 8, CAPlayThrough) ports line for line.

/// What `CARingBuffer`'s Store, Fetch and GetTimeBounds return (Apple's `SInt32` typedef).
public typealias CARingBufferError = Int32
public let kCARingBufferError_OK: CARingBufferError = 0
/// Store: more frames than the buffer holds.
public let kCARingBufferError_TooMuch: CARingBufferError = 3
/// The reader could not get a consistent snapshot of the time bounds (the writer kept changing them).
public let kCARingBufferError_CPUOverload: CARingBufferError = 4

/// How many time-bounds updates a reader may fall behind before GetTimeBounds has to retry.
public let kGeneralRingTimeBoundsQueueSize: UInt32 = 32
public let kGeneralRingTimeBoundsQueueMask: UInt32 = kGeneralRingTimeBoundsQueueSize - 1

/// A ring of deinterleaved channels addressed by sample time: one thread `Store`s frames at the sample
/// time they belong to, another `Fetch`es by sample time, with neither taking a lock nor allocating.
///
/// As Apple's: the capacity is rounded up to a power of two. `Store` of more frames than the capacity
/// answers `kCARingBufferError_TooMuch`. A store that starts before the end of what is held (going
/// backwards, or overlapping) throws everything out and starts again at its own time; one that starts
/// after the end zero-fills the gap (a gap of a whole buffer or more leaves only zeros and the new
/// frames). Storing past the capacity advances the start time. `Fetch` copies the part of the
/// requested range that is held and zero-fills the rest (all of it when none is held) and answers
/// `kCARingBufferError_OK`; a negative start time is read from 0, and when frames were copied every
/// buffer's `mDataByteSize` becomes the number of bytes copied. Each `AudioBuffer` holds one ring
/// channel of `bytesPerFrame`-byte frames (for interleaved data, allocate one channel of the whole
/// frame size).
///
/// Time bounds go through a queue of `kGeneralRingTimeBoundsQueueSize` (start, end, update counter)
/// entries published atomically, so a reader never sees a torn pair; `GetTimeBounds` retries a few
/// times and answers `kCARingBufferError_CPUOverload` if the writer keeps moving them. Unlike Apple's,
/// `Fetch` checks the bounds again after copying and zeroes frames the writer may have overwritten
/// meanwhile (a writer more than a buffer ahead of the reader), so what it returns is always either
/// the stored audio for that time or silence.
///
/// One writer thread and one reader thread may call `Store` and `Fetch`/`GetTimeBounds` at once;
/// `Allocate` and `Deallocate` must not run concurrently with either.
public final class CARingBuffer: @unchecked Sendable {
    public typealias SampleTime = Int64

    /// One allocation: channel `i` at `i * capacityBytes`.
    private var buffers: UnsafeMutableRawPointer? = nil
    private var numberChannels = 0
    private var bytesPerFrame = 0  // within one deinterleaved channel
    private var capacityFrames = 0  // per channel, a power of two
    private var capacityFramesMask: Int64 = 0
    private var capacityBytes = 0  // per channel

    /// The time-bounds queue: `queueSize` entries of three words (start, end, update counter), only
    /// ever read and written with acquire/release atomics. An entry being rewritten carries
    /// `UInt64.max` as its counter (valid counters are 32-bit).
    private let boundsWords: UnsafeMutablePointer<UInt64>
    /// Update counter of the newest entry (its index is the counter's low bits).
    private let boundsQueuePtr = Atomic<UInt32>(0)
    /// The newest bounds, for the writer's own use (Apple's StartTime()/EndTime()).
    private var writerStart: SampleTime = 0
    private var writerEnd: SampleTime = 0

    private static var queueSize: Int { 32 }

    /// The zero value, as the imported C type's.
    public init() {
        boundsWords = .allocate(capacity: Self.queueSize * 3)
        boundsWords.initialize(repeating: 0, count: Self.queueSize * 3)
    }

    deinit {
        Deallocate()
        boundsWords.deallocate()
    }

    /// Allocates `nChannels` channels of `capacityFrames` frames (rounded up to a power of two) of
    /// `bytesPerFrame` bytes each, zeroed, and empties the time bounds. Not real-time safe.
    public func Allocate(_ nChannels: Int32, _ bytesPerFrame: UInt32, _ capacityFrames: UInt32) {
        Deallocate()
        var frames = 1
        while frames < Int(capacityFrames) { frames <<= 1 }
        numberChannels = max(0, Int(nChannels))
        self.bytesPerFrame = Int(bytesPerFrame)
        self.capacityFrames = frames
        capacityFramesMask = Int64(frames - 1)
        capacityBytes = frames * Int(bytesPerFrame)
        let total = capacityBytes * numberChannels
        if total > 0 {
            let memory = UnsafeMutableRawPointer.allocate(byteCount: total, alignment: 16)
            memory.initializeMemory(as: UInt8.self, repeating: 0, count: total)
            buffers = memory
        }
        resetTimeBounds()
    }

    /// `Allocate` with the channel count as an `AudioStreamBasicDescription` holds it.
    @_disfavoredOverload
    public func Allocate(_ nChannels: UInt32, _ bytesPerFrame: UInt32, _ capacityFrames: UInt32) {
        Allocate(Int32(clamping: nChannels), bytesPerFrame, capacityFrames)
    }

    /// Frees the sample memory; Store then answers TooMuch and Fetch zero-fills (the frame size
    /// stays, as at Apple).
    public func Deallocate() {
        buffers?.deallocate()
        buffers = nil
        numberChannels = 0
        capacityFrames = 0
        capacityFramesMask = 0
        capacityBytes = 0
        resetTimeBounds()
    }

    private func resetTimeBounds() {
        for i in 0..<(Self.queueSize * 3) { oca_atomic_store_u64(boundsWords + i, 0) }
        boundsQueuePtr.store(0, ordering: .sequentiallyConsistent)
        writerStart = 0
        writerEnd = 0
    }

    // MARK: Writer

    /// Copies `nFrames` frames of each buffer of `abl` into the ring at sample time `frameNumber`.
    /// Sample times should normally follow on; gaps are zero-filled, and a store that starts before
    /// the current end time discards everything held before it. Real-time safe.
    @_noLocks @_noAllocation
    public func Store(_ abl: UnsafePointer<AudioBufferList>, _ nFrames: UInt32, _ frameNumber: SampleTime) -> CARingBufferError {
        if nFrames == 0 { return kCARingBufferError_OK }
        let frames = Int64(nFrames)
        if frames > Int64(capacityFrames) { return kCARingBufferError_TooMuch }
        let startWrite = frameNumber
        let endWrite = startWrite + frames

        if startWrite < writerEnd {
            // Going backwards: throw everything out.
            publishBeforeOverwriting(startWrite, startWrite)
        } else if endWrite - writerStart > Int64(capacityFrames) {
            // The new frames overwrite the oldest: move the start past them first, so that a reader
            // that sees the overwritten data also sees that those times are gone.
            let newStart = endWrite - Int64(capacityFrames)
            publishBeforeOverwriting(newStart, max(newStart, writerEnd))
        }

        let curEnd = writerEnd
        if startWrite > curEnd {
            // Skipping some frames: zero them (less than a buffer, since curEnd >= endWrite - capacity).
            let offset0 = frameOffset(curEnd)
            let offset1 = frameOffset(startWrite)
            if offset0 < offset1 {
                zeroRing(offset0, offset1 - offset0)
            } else {
                zeroRing(offset0, capacityBytes - offset0)
                zeroRing(0, offset1)
            }
        }

        let source = UnsafeMutableAudioBufferListPointer(UnsafeMutablePointer(mutating: abl))
        let offset0 = frameOffset(startWrite)
        let offset1 = frameOffset(endWrite)
        if offset0 < offset1 {
            storeRing(source, offset0, 0, offset1 - offset0)
        } else {
            let firstPart = capacityBytes - offset0
            storeRing(source, offset0, 0, firstPart)
            storeRing(source, 0, firstPart, offset1)
        }

        setTimeBounds(writerStart, endWrite)
        return kCARingBufferError_OK
    }

    @inline(__always) @_noLocks @_noAllocation
    private func frameOffset(_ frameNumber: SampleTime) -> Int {
        Int(frameNumber & capacityFramesMask) * bytesPerFrame
    }

    /// Zeroes `count` bytes at `offset` in every channel.
    @_noLocks @_noAllocation
    private func zeroRing(_ offset: Int, _ count: Int) {
        guard count > 0, let buffers else { return }
        for channel in 0..<numberChannels {
            oca_memzero(buffers + channel * capacityBytes + offset, UInt(count))
        }
    }

    /// Copies `count` bytes from `sourceOffset` in each source buffer to `offset` in its channel; the
    /// part a buffer does not have (too short, absent, or no data) becomes zeros.
    @_noLocks @_noAllocation
    private func storeRing(_ source: UnsafeMutableAudioBufferListPointer, _ offset: Int, _ sourceOffset: Int, _ count: Int) {
        guard count > 0, let buffers else { return }
        for channel in 0..<numberChannels {
            let destination = buffers + channel * capacityBytes + offset
            var copied = 0
            if channel < source.count, let data = source[channel].mData {
                copied = max(0, min(count, Int(source[channel].mDataByteSize) - sourceOffset))
                if copied > 0 { oca_memmove(destination, data + sourceOffset, UInt(copied)) }
            }
            if copied < count { oca_memzero(destination + copied, UInt(count - copied)) }
        }
    }

    /// Publishes new bounds before the store overwrites or zeroes ring memory; the fence keeps the
    /// memory writes that follow from becoming visible before the bounds.
    @inline(__always) @_noLocks @_noAllocation
    private func publishBeforeOverwriting(_ startTime: SampleTime, _ endTime: SampleTime) {
        setTimeBounds(startTime, endTime)
        atomicMemoryFence(ordering: .sequentiallyConsistent)
    }

    /// Writes the next queue entry and makes it the newest. Only `Store` calls this.
    @_noLocks @_noAllocation
    private func setTimeBounds(_ startTime: SampleTime, _ endTime: SampleTime) {
        let next = boundsQueuePtr.load(ordering: .relaxed) &+ 1
        let entry = boundsWords + Int(next & kGeneralRingTimeBoundsQueueMaskValue) * 3
        oca_atomic_store_u64(entry + 2, UInt64.max)  // being rewritten
        oca_atomic_store_u64(entry, UInt64(bitPattern: startTime))
        oca_atomic_store_u64(entry + 1, UInt64(bitPattern: endTime))
        oca_atomic_store_u64(entry + 2, UInt64(next))
        boundsQueuePtr.store(next, ordering: .releasing)
        writerStart = startTime
        writerEnd = endTime
    }

    // MARK: Reader

    /// The range of sample times held, [startTime, endTime). Answers `kCARingBufferError_CPUOverload`
    /// (and leaves both unchanged) if no consistent snapshot could be read in a few tries. Real-time safe.
    @_noLocks @_noAllocation
    public func GetTimeBounds(_ startTime: inout SampleTime, _ endTime: inout SampleTime) -> CARingBufferError {
        for _ in 0..<8 {
            let current = boundsQueuePtr.load(ordering: .acquiring)
            let entry = boundsWords + Int(current & kGeneralRingTimeBoundsQueueMaskValue) * 3
            let counterBefore = oca_atomic_load_u64(entry + 2)
            let start = oca_atomic_load_u64(entry)
            let end = oca_atomic_load_u64(entry + 1)
            let counterAfter = oca_atomic_load_u64(entry + 2)
            if counterBefore == UInt64(current) {
                if counterAfter == UInt64(current) {
                    startTime = SampleTime(bitPattern: start)
                    endTime = SampleTime(bitPattern: end)
                    return kCARingBufferError_OK
                }
            }
        }
        return kCARingBufferError_CPUOverload
    }

    /// Fills `nFrames` frames of each buffer of `abl` with the audio stored for sample times
    /// `frameNumber ..< frameNumber + nFrames`, zeros where none is held. Real-time safe.
    @_noLocks @_noAllocation
    public func Fetch(_ abl: UnsafeMutablePointer<AudioBufferList>, _ nFrames: UInt32, _ frameNumber: SampleTime) -> CARingBufferError {
        if nFrames == 0 { return kCARingBufferError_OK }
        let destination = UnsafeMutableAudioBufferListPointer(abl)
        let requestedStart = max(0, frameNumber)  // as Apple's: a negative time reads from 0
        let requestedEnd = requestedStart + SampleTime(nFrames)
        let totalBytes = Int(nFrames) * bytesPerFrame

        var startTime: SampleTime = 0
        var endTime: SampleTime = 0
        let err = GetTimeBounds(&startTime, &endTime)
        if err != kCARingBufferError_OK { return err }

        // Clip to what is held (Apple's ClipTimeBounds).
        var startRead = requestedStart
        var endRead = requestedEnd
        if startRead > endTime {
            endRead = startRead
        } else if endRead < startTime {
            endRead = startRead
        } else {
            startRead = max(startRead, startTime)
            endRead = max(min(endRead, endTime), startRead)
        }
        guard startRead < endRead, let buffers else {
            zeroList(destination, 0, totalBytes)
            return kCARingBufferError_OK
        }

        let leadingBytes = Int(startRead - requestedStart) * bytesPerFrame
        let byteSize = Int(endRead - startRead) * bytesPerFrame
        if leadingBytes > 0 { zeroList(destination, 0, min(totalBytes, leadingBytes)) }
        let trailingFrames = Int(requestedEnd - endRead)
        if trailingFrames > 0 { zeroList(destination, leadingBytes + byteSize, trailingFrames * bytesPerFrame) }

        let offset0 = frameOffset(startRead)
        let offset1 = frameOffset(endRead)
        if offset0 < offset1 {
            fetchRing(buffers, destination, leadingBytes, offset0, offset1 - offset0)
        } else {
            let firstPart = capacityBytes - offset0
            fetchRing(buffers, destination, leadingBytes, offset0, firstPart)
            fetchRing(buffers, destination, leadingBytes + firstPart, 0, offset1)
        }

        // Frames the writer moved the start past while we copied may have been overwritten: the
        // writer publishes a later start before touching their memory, so silence them.
        atomicMemoryFence(ordering: .acquiring)
        var result = kCARingBufferError_OK
        if GetTimeBounds(&startTime, &endTime) != kCARingBufferError_OK {
            zeroList(destination, leadingBytes, byteSize)
            result = kCARingBufferError_CPUOverload
        } else if startTime > startRead {
            zeroList(destination, leadingBytes, Int(min(startTime, endRead) - startRead) * bytesPerFrame)
        }

        for i in 0..<destination.count { destination[i].mDataByteSize = UInt32(truncatingIfNeeded: byteSize) }
        return result
    }

    /// Zeroes `count` bytes at `offset` in every buffer of `list`, within each buffer's size.
    @_noLocks @_noAllocation
    private func zeroList(_ list: UnsafeMutableAudioBufferListPointer, _ offset: Int, _ count: Int) {
        guard count > 0 else { return }
        for i in 0..<list.count {
            guard let data = list[i].mData else { continue }
            let n = min(count, Int(list[i].mDataByteSize) - offset)
            if n > 0 { oca_memzero(data + offset, UInt(n)) }
        }
    }

    /// Copies `count` bytes at `ringOffset` of each channel to `offset` in its buffer of `list`
    /// (within the buffer's size); buffers beyond the ring's channels get zeros.
    @_noLocks @_noAllocation
    private func fetchRing(_ buffers: UnsafeMutableRawPointer, _ list: UnsafeMutableAudioBufferListPointer,
                           _ offset: Int, _ ringOffset: Int, _ count: Int) {
        guard count > 0 else { return }
        for i in 0..<list.count {
            guard let data = list[i].mData else { continue }
            let n = min(count, Int(list[i].mDataByteSize) - offset)
            if n <= 0 { continue }
            if i < numberChannels {
                oca_memmove(data + offset, buffers + i * capacityBytes + ringOffset, UInt(n))
            } else {
                oca_memzero(data + offset, UInt(n))
            }
        }
    }
}

/// The queue mask as a literal, for the real-time path (no global initializer to run).
@inline(__always) private var kGeneralRingTimeBoundsQueueMaskValue: UInt32 { 31 }
