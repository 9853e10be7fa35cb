import Foundation
import Synchronization

/// ExtAudioFileWriteAsync: the render thread copies frames into a preallocated ring (no lock, no
/// allocation, no system call) and a background thread writes them to the file.
final class ExtAudioFileAsyncWriter: @unchecked Sendable {
    private var ring: [UnsafeMutableRawPointer] = []
    private var bytesPerFrame = 0
    private var channelsPerBuffer: UInt32 = 1
    private var capacity = 0  // frames
    private let head = Atomic<Int>(0)  // frames written by the producer
    private let tail = Atomic<Int>(0)  // frames consumed by the writer thread
    private let running = Atomic<Bool>(false)
    private let finished = Atomic<Bool>(true)
    private var thread: Thread?
    private(set) var lastError: OSStatus = noErr
    var isPrimed: Bool { !ring.isEmpty }

    deinit { ring.forEach { $0.deallocate() } }

    /// Allocates the ring and starts the writer thread (the first call, with nil data, does this off
    /// the render thread, as Apple recommends).
    func prime(_ owner: ExtAudioFileObject, format: PCMFormat, frames: Int) {
        guard ring.isEmpty else { return }
        capacity = max(frames, 16384)
        bytesPerFrame = format.bytesPerFrame
        channelsPerBuffer = UInt32(format.isInterleaved ? format.channels : 1)
        ring = (0..<format.bufferCount).map { _ in UnsafeMutableRawPointer.allocate(byteCount: capacity * format.bytesPerFrame, alignment: 16) }
        running.store(true, ordering: .releasing)
        finished.store(false, ordering: .releasing)
        let t = Thread { [unowned owner] in self.drainLoop(owner) }
        t.name = "ExtAudioFileWriteAsync"
        thread = t
        t.start()
    }

    /// Render-thread side: copies `frames` frames in, or fails without blocking when the ring is full.
    func enqueue(_ list: UnsafeMutableAudioBufferListPointer, frames: Int) -> OSStatus {
        let h = head.load(ordering: .relaxed), t = tail.load(ordering: .acquiring)
        guard frames <= capacity else { return kExtAudioFileError_AsyncWriteTooLarge }
        guard h - t + frames <= capacity else { return kExtAudioFileError_AsyncWriteBufferOverflow }
        for b in 0..<min(ring.count, list.count) {
            guard let src = list[b].mData else { return kAudio_ParamError }
            var copied = 0
            while copied < frames {
                let at = (h + copied) % capacity
                let n = min(frames - copied, capacity - at)
                (ring[b] + at * bytesPerFrame).copyMemory(from: src + copied * bytesPerFrame, byteCount: n * bytesPerFrame)
                copied += n
            }
        }
        head.store(h + frames, ordering: .releasing)
        return noErr
    }

    private func drainLoop(_ owner: ExtAudioFileObject) {
        let list = AudioBufferList.allocate(maximumBuffers: ring.count)
        defer { free(list.unsafeMutablePointer); finished.store(true, ordering: .releasing) }
        while true {
            let h = head.load(ordering: .acquiring), t = tail.load(ordering: .relaxed)
            if h == t {
                if !running.load(ordering: .acquiring) { return }
                usleep(2000)
                continue
            }
            let at = t % capacity
            let n = min(h - t, capacity - at)
            for b in 0..<ring.count {
                list[b] = AudioBuffer(mNumberChannels: channelsPerBuffer, mDataByteSize: UInt32(n * bytesPerFrame), mData: ring[b] + at * bytesPerFrame)
            }
            owner.lock.lock()
            let status = owner.write(list.unsafeMutablePointer, frames: n)
            owner.lock.unlock()
            if status != noErr { lastError = status }
            tail.store(t + n, ordering: .releasing)
        }
    }

    /// Writes what is left and stops the thread (at dispose).
    func stop(_ owner: ExtAudioFileObject) {
        guard thread != nil else { return }
        running.store(false, ordering: .releasing)
        owner.lock.unlock()  // the drain loop needs the lock the caller holds
        while !finished.load(ordering: .acquiring) { usleep(1000) }
        owner.lock.lock()
        thread = nil
    }
}
