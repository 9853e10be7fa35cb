import AudioToolbox
import Foundation
import Synchronization
import Testing

/// Test-owned audio buffer lists of UInt32 samples: `buffers` buffers of `frames` frames, each frame
/// `samplesPerFrame` samples (1: non-interleaved; more: interleaved channels in one buffer).
final class RingTestList: @unchecked Sendable {
    let list: UnsafeMutableAudioBufferListPointer
    let memory: UnsafeMutablePointer<UInt32>
    let buffers: Int, frames: Int, samplesPerFrame: Int

    init(buffers: Int, frames: Int, samplesPerFrame: Int = 1) {
        self.buffers = buffers
        self.frames = frames
        self.samplesPerFrame = samplesPerFrame
        list = AudioBufferList.allocate(maximumBuffers: buffers)
        memory = .allocate(capacity: buffers * frames * samplesPerFrame)
        memory.initialize(repeating: 0, count: buffers * frames * samplesPerFrame)
        resetSizes()
    }

    deinit {
        free(list.unsafeMutablePointer)
        memory.deallocate()
    }

    var bytesPerFrame: UInt32 { UInt32(samplesPerFrame * 4) }
    var channels: Int { buffers * samplesPerFrame }

    /// Points every buffer at its memory with room for `frames` frames.
    func resetSizes(frames count: Int? = nil) {
        for b in 0..<buffers {
            list[b] = AudioBuffer(mNumberChannels: UInt32(samplesPerFrame), mDataByteSize: UInt32((count ?? frames) * samplesPerFrame * 4),
                                  mData: UnsafeMutableRawPointer(memory + b * frames * samplesPerFrame))
        }
    }

    subscript(channel: Int, frame: Int) -> UInt32 {
        get { memory[(channel / samplesPerFrame) * frames * samplesPerFrame + frame * samplesPerFrame + channel % samplesPerFrame] }
        set { memory[(channel / samplesPerFrame) * frames * samplesPerFrame + frame * samplesPerFrame + channel % samplesPerFrame] = newValue }
    }

    /// Writes `value(time, channel)` for frames 0..<count, frame n holding sample time `start + n`.
    func fill(start: Int64, count: Int, tag: UInt32 = 0) {
        for n in 0..<count {
            for c in 0..<channels { self[c, n] = CARingBufferTests.value(start + Int64(n), c, tag: tag) }
        }
    }

    /// Fills everything with a pattern Fetch must overwrite (0xDEADBEEF), sizes reset.
    func poison() {
        memory.update(repeating: 0xDEAD_BEEF, count: buffers * frames * samplesPerFrame)
        resetSizes()
    }

    var abl: UnsafeMutablePointer<AudioBufferList> { list.unsafeMutablePointer }
}

@Suite struct CARingBufferTests {
    /// The sample stored for a time and channel: never zero for the times these tests use.
    static func value(_ time: Int64, _ channel: Int, tag: UInt32 = 0) -> UInt32 {
        (UInt32(truncatingIfNeeded: time) &* 16 &+ UInt32(channel) &+ 1) ^ tag
    }

    /// Stores `count` frames at `start` from a scratch list.
    @discardableResult
    static func store(_ ring: CARingBuffer, _ source: RingTestList, _ start: Int64, _ count: Int, tag: UInt32 = 0) -> CARingBufferError {
        source.resetSizes(frames: count)
        source.fill(start: start, count: count, tag: tag)
        return ring.Store(source.abl, UInt32(count), start)
    }

    /// Fetches into a poisoned list and checks every frame: `expected(time)` says whether the frame at
    /// that time holds the stored value (with `tag`) or zeros.
    static func fetchAndCheck(_ ring: CARingBuffer, _ dest: RingTestList, _ start: Int64, _ count: Int, tag: UInt32 = 0,
                              sourceLocation: SourceLocation = #_sourceLocation, held: (Int64) -> Bool) {
        dest.poison()
        dest.resetSizes(frames: count)
        #expect(ring.Fetch(dest.abl, UInt32(count), start) == kCARingBufferError_OK, sourceLocation: sourceLocation)
        var mismatches = 0
        for n in 0..<count {
            let t = start + Int64(n)
            for c in 0..<dest.channels where dest[c, n] != (held(t) ? value(t, c, tag: tag) : 0) { mismatches += 1 }
        }
        #expect(mismatches == 0, "fetch at \(start) of \(count)", sourceLocation: sourceLocation)
    }

    static func bounds(_ ring: CARingBuffer) -> (Int64, Int64)? {
        var start: CARingBuffer.SampleTime = -1, end: CARingBuffer.SampleTime = -1
        guard ring.GetTimeBounds(&start, &end) == kCARingBufferError_OK else { return nil }
        return (start, end)
    }

    @Test func errorConstantsHaveApplesValues() {
        #expect(kCARingBufferError_OK == 0)
        #expect(kCARingBufferError_TooMuch == 3)
        #expect(kCARingBufferError_CPUOverload == 4)
        #expect(kGeneralRingTimeBoundsQueueSize == 32)
        #expect(kGeneralRingTimeBoundsQueueMask == 31)
    }

    @Test func capacityIsRoundedUpToAPowerOfTwo() {
        let ring = CARingBuffer()
        ring.Allocate(2, 4, 1000)  // 1024 frames
        let source = RingTestList(buffers: 2, frames: 1100)
        #expect(Self.bounds(ring)! == (0, 0))
        #expect(Self.store(ring, source, 0, 1025) == kCARingBufferError_TooMuch)
        #expect(Self.bounds(ring)! == (0, 0))
        #expect(Self.store(ring, source, 0, 1024) == kCARingBufferError_OK)
        #expect(Self.bounds(ring)! == (0, 1024))
        #expect(Self.store(ring, source, 1024, 0) == kCARingBufferError_OK)  // nothing to do
        #expect(Self.bounds(ring)! == (0, 1024))

        ring.Allocate(1, 4, 1024)  // already a power of two: 1024, and reallocating empties
        #expect(Self.bounds(ring)! == (0, 0))
        #expect(Self.store(ring, source, 0, 1025) == kCARingBufferError_TooMuch)

        ring.Deallocate()
        #expect(Self.store(ring, source, 0, 1) == kCARingBufferError_TooMuch)
        let dest = RingTestList(buffers: 1, frames: 8)
        Self.fetchAndCheck(ring, dest, 0, 8) { _ in false }
    }

    @Test func nonInterleavedRoundTripsAcrossTheWrap() {
        let ring = CARingBuffer()
        ring.Allocate(3, 4, 200)  // 256 frames
        let source = RingTestList(buffers: 3, frames: 100)
        let dest = RingTestList(buffers: 3, frames: 256)
        var t: Int64 = 0
        for slice in [100, 100, 37, 90, 100, 64, 1, 100, 99] {
            #expect(Self.store(ring, source, t, slice) == kCARingBufferError_OK)
            t += Int64(slice)
            let start = max(0, t - 256)
            #expect(Self.bounds(ring)! == (start, t))
            Self.fetchAndCheck(ring, dest, t - Int64(slice), slice) { _ in true }  // the slice just stored
            Self.fetchAndCheck(ring, dest, start, Int(t - start)) { _ in true }  // everything held, across the wrap
            #expect(dest.list[0].mDataByteSize == UInt32(t - start) * 4)
        }
        #expect(t == 691)
    }

    @Test func interleavedRoundTripsAcrossTheWrap() {
        // Interleaved stereo: one ring channel whose frames are both samples.
        let ring = CARingBuffer()
        ring.Allocate(1, 8, 64)
        let source = RingTestList(buffers: 1, frames: 48, samplesPerFrame: 2)
        let dest = RingTestList(buffers: 1, frames: 64, samplesPerFrame: 2)
        var t: Int64 = 1000
        for _ in 0..<10 {
            #expect(Self.store(ring, source, t, 48) == kCARingBufferError_OK)
            t += 48
            Self.fetchAndCheck(ring, dest, t - 64, 64) { $0 >= 1000 }
            Self.fetchAndCheck(ring, dest, t - 40, 40) { _ in true }
        }
        #expect(Self.bounds(ring)! == (t - 64, t))
    }

    @Test func fetchZeroFillsWhatIsNotHeld() {
        let ring = CARingBuffer()
        ring.Allocate(2, 4, 256)
        let source = RingTestList(buffers: 2, frames: 100)
        let dest = RingTestList(buffers: 2, frames: 400)
        for t in stride(from: Int64(0), to: 300, by: 100) { Self.store(ring, source, t, 100) }
        #expect(Self.bounds(ring)! == (44, 300))
        let held: (Int64) -> Bool = { $0 >= 44 && $0 < 300 }

        // Before the start: leading zeros; mDataByteSize becomes the bytes copied.
        Self.fetchAndCheck(ring, dest, 20, 50, held: held)
        #expect(dest.list[0].mDataByteSize == 26 * 4)
        #expect(dest.list[1].mDataByteSize == 26 * 4)
        // After the end: trailing zeros.
        Self.fetchAndCheck(ring, dest, 280, 50, held: held)
        #expect(dest.list[0].mDataByteSize == 20 * 4)
        // Across both, longer than the capacity.
        Self.fetchAndCheck(ring, dest, 0, 400, held: held)
        #expect(dest.list[1].mDataByteSize == 256 * 4)
        // Wholly outside: all zeros, OK, sizes left alone.
        Self.fetchAndCheck(ring, dest, 300, 40, held: held)
        #expect(dest.list[0].mDataByteSize == 40 * 4)
        Self.fetchAndCheck(ring, dest, 1000, 40, held: held)
        Self.fetchAndCheck(ring, dest, 0, 30, held: held)
        #expect(dest.list[0].mDataByteSize == 30 * 4)
        // Nothing asked: nothing touched.
        dest.poison()
        #expect(ring.Fetch(dest.abl, 0, 100) == kCARingBufferError_OK)
        #expect(dest[0, 0] == 0xDEAD_BEEF)
    }

    @Test func negativeFetchTimeReadsFromZeroAsApplesDoes() {
        let ring = CARingBuffer()
        ring.Allocate(1, 4, 128)
        let source = RingTestList(buffers: 1, frames: 100)
        let dest = RingTestList(buffers: 1, frames: 50)
        Self.store(ring, source, 0, 100)
        // Apple's Fetch clamps the start time to 0 and keeps the length.
        dest.poison()
        #expect(ring.Fetch(dest.abl, 50, -10) == kCARingBufferError_OK)
        #expect((0..<50).allSatisfy { dest[0, $0] == Self.value(Int64($0), 0) })
    }

    @Test func fetchStaysWithinEachBuffersSize() {
        let ring = CARingBuffer()
        ring.Allocate(2, 4, 64)
        let source = RingTestList(buffers: 2, frames: 64)
        Self.store(ring, source, 0, 64)
        // Three buffers for a two-channel ring, the second holding only 10 frames.
        let dest = RingTestList(buffers: 3, frames: 32)
        dest.poison()
        dest.list[1].mDataByteSize = 40
        #expect(ring.Fetch(dest.abl, 32, 16) == kCARingBufferError_OK)
        #expect((0..<32).allSatisfy { dest[0, $0] == Self.value(16 + Int64($0), 0) })
        #expect((0..<10).allSatisfy { dest[1, $0] == Self.value(16 + Int64($0), 1) })
        #expect((10..<32).allSatisfy { dest[1, $0] == 0xDEAD_BEEF })
        #expect((0..<32).allSatisfy { dest[2, $0] == 0 })
    }

    @Test func storeFromAShortOrMissingBufferStoresZerosForTheRest() {
        let ring = CARingBuffer()
        ring.Allocate(2, 4, 64)
        let full = RingTestList(buffers: 2, frames: 64)
        Self.store(ring, full, 0, 64)  // nonzero everywhere
        let short = RingTestList(buffers: 1, frames: 64)
        short.fill(start: 64, count: 64)
        short.list[0].mDataByteSize = 20 * 4
        #expect(ring.Store(short.abl, 32, 64) == kCARingBufferError_OK)
        let dest = RingTestList(buffers: 2, frames: 32)
        dest.poison()
        #expect(ring.Fetch(dest.abl, 32, 64) == kCARingBufferError_OK)
        #expect((0..<20).allSatisfy { dest[0, $0] == Self.value(64 + Int64($0), 0) })
        #expect((20..<32).allSatisfy { dest[0, $0] == 0 })
        #expect((0..<32).allSatisfy { dest[1, $0] == 0 })
    }

    @Test func forwardGapIsZeroFilled() {
        let ring = CARingBuffer()
        ring.Allocate(2, 4, 256)
        let source = RingTestList(buffers: 2, frames: 128)
        let dest = RingTestList(buffers: 2, frames: 256)
        // Fill the ring once over so the skipped slots hold old audio.
        for t in stride(from: Int64(0), to: 512, by: 128) { Self.store(ring, source, t, 128) }
        #expect(Self.bounds(ring)! == (256, 512))
        // Skip 50 frames.
        #expect(Self.store(ring, source, 562, 100) == kCARingBufferError_OK)
        #expect(Self.bounds(ring)! == (406, 662))
        Self.fetchAndCheck(ring, dest, 406, 256) { $0 < 512 || $0 >= 562 }
    }

    @Test func gapOfABufferOrMoreLeavesOnlyTheNewFrames() {
        let ring = CARingBuffer()
        ring.Allocate(1, 4, 256)
        let source = RingTestList(buffers: 1, frames: 100)
        let dest = RingTestList(buffers: 1, frames: 256)
        Self.store(ring, source, 0, 100)
        #expect(Self.store(ring, source, 10_000, 100) == kCARingBufferError_OK)
        // The start moves to one buffer behind the new end; the span before the new frames reads as zeros.
        #expect(Self.bounds(ring)! == (10_100 - 256, 10_100))
        Self.fetchAndCheck(ring, dest, 10_100 - 256, 256) { $0 >= 10_000 }
        // A first store far from zero does the same from the initial (0, 0) bounds.
        let fresh = CARingBuffer()
        fresh.Allocate(1, 4, 256)
        Self.store(fresh, source, 1000, 100)
        #expect(Self.bounds(fresh)! == (844, 1100))
        Self.fetchAndCheck(fresh, dest, 844, 256) { $0 >= 1000 }
    }

    @Test func storeGoingBackwardsThrowsEverythingOut() {
        let ring = CARingBuffer()
        ring.Allocate(2, 4, 256)
        let source = RingTestList(buffers: 2, frames: 200)
        let dest = RingTestList(buffers: 2, frames: 300)
        Self.store(ring, source, 0, 200)
        #expect(Self.bounds(ring)! == (0, 200))
        // Back to 50 (inside what is held): only the new frames remain.
        #expect(Self.store(ring, source, 50, 50, tag: 0x8000_0000) == kCARingBufferError_OK)
        #expect(Self.bounds(ring)! == (50, 100))
        Self.fetchAndCheck(ring, dest, 0, 300, tag: 0x8000_0000) { $0 >= 50 && $0 < 100 }
        // Overlapping the end by one frame also starts again.
        Self.store(ring, source, 99, 10)
        #expect(Self.bounds(ring)! == (99, 109))
        // Negative sample times can be stored.
        Self.store(ring, source, -500, 10)
        #expect(Self.bounds(ring)! == (-500, -490))
    }

    /// Chapter 8 of "Learning Core Audio": allocate from the stream format (non-interleaved Float32, so
    /// mBytesPerFrame is one channel's), store at the input's sample times, fetch at the output's plus an offset.
    @Test func playThroughAsInTheBook() {
        let asbd = OCAFormat.canonical(sampleRate: 44100, channels: 2)
        #expect(asbd.mFormatFlags & kAudioFormatFlagIsNonInterleaved != 0)
        let bufferSizeFrames: UInt32 = 512
        let ringBuffer = CARingBuffer()
        ringBuffer.Allocate(asbd.mChannelsPerFrame, asbd.mBytesPerFrame, bufferSizeFrames * 3)
        let input = AudioBufferList.allocate(maximumBuffers: 2)
        let output = AudioBufferList.allocate(maximumBuffers: 2)
        let memory = UnsafeMutablePointer<Float32>.allocate(capacity: 4 * 512)
        defer { free(input.unsafeMutablePointer); free(output.unsafeMutablePointer); memory.deallocate() }
        let firstInputSampleTime: Float64 = 5000, firstOutputSampleTime: Float64 = 100
        let inToOutSampleTimeOffset = firstInputSampleTime - firstOutputSampleTime - 512  // a slice of latency
        var mismatches = 0
        for slice in 0..<20 {
            let inTime = firstInputSampleTime + Float64(slice * 512)
            for c in 0..<2 {
                let p = memory + c * 512
                for n in 0..<512 { p[n] = Float32(inTime + Float64(n)) + Float32(c) * 0.25 }
                input[c] = AudioBuffer(mNumberChannels: 1, mDataByteSize: 512 * 4, mData: p)
                output[c] = AudioBuffer(mNumberChannels: 1, mDataByteSize: 512 * 4, mData: memory + (2 + c) * 512)
            }
            #expect(ringBuffer.Store(input.unsafePointer, 512, CARingBuffer.SampleTime(inTime)) == kCARingBufferError_OK)
            let outTime = firstOutputSampleTime + Float64(slice * 512)
            #expect(ringBuffer.Fetch(output.unsafeMutablePointer, 512, CARingBuffer.SampleTime(outTime + inToOutSampleTimeOffset)) == kCARingBufferError_OK)
            for c in 0..<2 {
                let p = (memory + (2 + c) * 512)
                for n in 0..<512 where p[n] != Float32(inTime - 512 + Float64(n)) + Float32(c) * 0.25 {
                    if slice > 0 { mismatches += 1 } else if p[n] != 0 { mismatches += 1 }
                }
            }
        }
        #expect(mismatches == 0)
    }

    /// Apple's book-style use: one thread stores while another fetches just behind it. The writer is
    /// paced to stay within a buffer of what the reader has finished (as input and output run at one
    /// rate in play-through), so no access to the samples races (scripts/tsan-test.sh runs it).
    @Test func oneWriterOneReaderPaced() {
        let shared = RingSharedState(capacity: 1024)
        let slices = 100_000, frames = 64
        let writer = Thread {
            let source = RingTestList(buffers: 2, frames: frames)
            var t: Int64 = 0
            for _ in 0..<slices {
                // Do not overwrite frames the reader has not finished with.
                while t + Int64(frames) - Int64(shared.capacity) > shared.readerDone.load(ordering: .acquiring) {
                    if shared.readerFinished.load(ordering: .acquiring) { break }
                    sched_yield()
                }
                if Self.store(shared.ring, source, t, frames) != kCARingBufferError_OK { shared.storeErrors.add(1, ordering: .relaxed) }
                t += Int64(frames)
            }
            shared.writerEnd.store(t, ordering: .releasing)
            shared.writerDone.store(true, ordering: .releasing)
            shared.writerFinished.signal()
        }
        let reader = Thread {
            let dest = RingTestList(buffers: 2, frames: 48)
            var r: Int64 = 0
            let total = Int64(slices * frames)
            while r < total {
                var start: Int64 = 0, end: Int64 = 0
                guard shared.ring.GetTimeBounds(&start, &end) == kCARingBufferError_OK else { shared.overloads.add(1, ordering: .relaxed); continue }
                // Slightly behind: wait for a little data past r (the last fetch takes what there is).
                if end <= r + 16 && !shared.writerDone.load(ordering: .acquiring) { sched_yield(); continue }
                // Often more than is held, so the tail zero-fills.
                let n = 48
                dest.poison()
                if shared.ring.Fetch(dest.abl, UInt32(n), r) != kCARingBufferError_OK { shared.fetchErrors.add(1, ordering: .relaxed) }
                // Frames held when the bounds were read must all be there; past them, audio or zeros.
                let held = Int(min(Int64(n), end - r))
                shared.check(dest, r, n, mustHold: held)
                r += Int64(held)
                shared.readerDone.store(r, ordering: .releasing)
            }
            shared.readerFinished.store(true, ordering: .releasing)
            shared.readerExited.signal()
        }
        writer.start()
        reader.start()
        shared.writerFinished.wait()
        shared.readerExited.wait()
        #expect(shared.storeErrors.load(ordering: .relaxed) == 0)
        #expect(shared.fetchErrors.load(ordering: .relaxed) == 0)
        #expect(shared.garbage.load(ordering: .relaxed) == 0)
        // Every frame the writer stored was read back exactly.
        #expect(shared.heldChecked.load(ordering: .relaxed) == slices * frames * 2)
        #expect(shared.lost.load(ordering: .relaxed) == 0)
        #expect(shared.exact.load(ordering: .relaxed) >= slices * frames * 2)
    }
}

/// What the threaded tests share (atomics cannot be captured by the threads' closures directly).
final class RingSharedState: Sendable {
    let ring = CARingBuffer()
    let capacity: Int
    let readerDone = Atomic<Int64>(0)
    let writerEnd = Atomic<Int64>(0)
    let readerFinished = Atomic<Bool>(false), writerDone = Atomic<Bool>(false)
    let stopWriter = Atomic<Bool>(false)
    let storeErrors = Atomic<Int>(0), fetchErrors = Atomic<Int>(0), overloads = Atomic<Int>(0)
    let exact = Atomic<Int>(0), zeros = Atomic<Int>(0), garbage = Atomic<Int>(0)
    let heldChecked = Atomic<Int>(0), lost = Atomic<Int>(0)
    let writerFinished = DispatchSemaphore(value: 0), readerExited = DispatchSemaphore(value: 0)

    init(capacity: Int, channels: Int32 = 2) {
        self.capacity = capacity
        ring.Allocate(channels, 4, UInt32(capacity))
    }

    /// Counts each fetched sample as exact, zero or garbage (anything else); of the first `mustHold`
    /// frames, those that are not exact count as lost.
    func check(_ dest: RingTestList, _ start: Int64, _ count: Int, mustHold: Int = 0) {
        var e = 0, z = 0, g = 0, l = 0
        for n in 0..<count {
            for c in 0..<dest.channels {
                let x = dest[c, n]
                let isExact = x == CARingBufferTests.value(start + Int64(n), c)
                if isExact { e += 1 } else if x == 0 { z += 1 } else { g += 1 }
                if n < mustHold && !isExact { l += 1 }
            }
        }
        exact.add(e, ordering: .relaxed)
        zeros.add(z, ordering: .relaxed)
        garbage.add(g, ordering: .relaxed)
        heldChecked.add(mustHold * dest.channels, ordering: .relaxed)
        lost.add(l, ordering: .relaxed)
    }
}

/// A writer that does not wait for the reader and laps it over and over in a small buffer: Fetch
/// must still return, for every frame, either the audio stored for that time or silence. The overwrites
/// racing the reader's copies are the point; scripts/tsan-test.sh runs this too (its filter matches the
/// file) and reports nothing, as the sample copies go through COCASupport's C helpers, which
/// ThreadSanitizer does not see.
@Suite struct CARingBufferLappingStressTests {
    @Test func readerLappedByTheWriterSeesOnlyExactAudioOrSilence() {
        let shared = RingSharedState(capacity: 128)
        let frames = 32
        let writer = Thread {
            let source = RingTestList(buffers: 2, frames: frames)
            var t: Int64 = 0
            while !shared.stopWriter.load(ordering: .acquiring) {
                if CARingBufferTests.store(shared.ring, source, t, frames) != kCARingBufferError_OK { shared.storeErrors.add(1, ordering: .relaxed) }
                t += Int64(frames)
            }
            shared.writerEnd.store(t, ordering: .releasing)
            shared.writerFinished.signal()
        }
        let reader = Thread {
            let dest = RingTestList(buffers: 2, frames: 96)
            for i in 0..<100_000 {
                var start: Int64 = 0, end: Int64 = 0
                guard shared.ring.GetTimeBounds(&start, &end) == kCARingBufferError_OK else { shared.overloads.add(1, ordering: .relaxed); continue }
                // A window reaching from before the start to past the end, moving around.
                let r = max(0, start - 16 + Int64(i % 64))
                dest.poison()
                let err = shared.ring.Fetch(dest.abl, 96, r)
                if err == kCARingBufferError_CPUOverload { shared.overloads.add(1, ordering: .relaxed) } else if err != kCARingBufferError_OK {
                    shared.fetchErrors.add(1, ordering: .relaxed)
                }
                shared.check(dest, r, 96)
            }
            shared.stopWriter.store(true, ordering: .releasing)
            shared.readerExited.signal()
        }
        writer.start()
        reader.start()
        shared.readerExited.wait()
        shared.writerFinished.wait()
        #expect(shared.storeErrors.load(ordering: .relaxed) == 0)
        #expect(shared.fetchErrors.load(ordering: .relaxed) == 0)
        #expect(shared.garbage.load(ordering: .relaxed) == 0)
        #expect(shared.exact.load(ordering: .relaxed) > 0)
        #expect(shared.writerEnd.load(ordering: .acquiring) > 128 * 4)  // the writer lapped the buffer
    }
}
