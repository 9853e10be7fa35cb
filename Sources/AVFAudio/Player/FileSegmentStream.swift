import Foundation
import Synchronization

/// A file segment a player plays: its own ExtAudioFile (so the client's AVAudioFile keeps its position) read
/// ahead by the service thread into a lock-free ring the render thread copies from.
final class FileSegmentStream: @unchecked Sendable {
    let frames: Int
    let channels: Int
    private let file: ExtAudioFileRef
    private let capacity = 32768
    private let ring: UnsafeMutablePointer<Float>  // channel-major: channel c at c * capacity
    private let scratch: UnsafeMutablePointer<Float>
    private let scratchFrames = 4096
    private let written = Atomic<Int>(0)  // frames in (service thread)
    private let read = Atomic<Int>(0)  // frames out (render thread)
    private var remaining: Int
    private let finished = Atomic<Bool>(false)

    /// A stream of `frameCount` frames from `startFrame` of the file at `url`, converted to `format`
    /// (deinterleaved Float32); the first part is read now so playing can start at once.
    init(url: URL, startFrame: AVAudioFramePosition, frameCount: Int, format: AVAudioFormat) throws {
        var ref: ExtAudioFileRef?
        try AVAudioError.check(ExtAudioFileOpenURL(url as NSURL, &ref))
        guard let ref else { throw AVAudioError.make(kAudio_ParamError) }
        var fileFormat = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        ExtAudioFileGetProperty(ref, kExtAudioFileProperty_FileDataFormat, &size, &fileFormat)
        channels = Int(format.channelCount)
        var client = OCAFormat.canonical(sampleRate: format.sampleRate, channels: UInt32(channels), interleaved: true)
        let status = ExtAudioFileSetProperty(ref, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &client)
        guard status == noErr else { ExtAudioFileDispose(ref); throw AVAudioError.make(status) }
        // Positions and lengths are in the file's frames; the stream is at the player's rate.
        let ratio = fileFormat.mSampleRate > 0 ? format.sampleRate / fileFormat.mSampleRate : 1
        ExtAudioFileSeek(ref, startFrame)
        file = ref
        frames = Int((Double(frameCount) * ratio).rounded())
        remaining = frames
        ring = .allocate(capacity: capacity * max(channels, 1))
        scratch = .allocate(capacity: scratchFrames * max(channels, 1))
        fill()
    }

    deinit {
        ExtAudioFileDispose(file)
        ring.deallocate()
        scratch.deallocate()
    }

    /// Frames ready for the render thread.
    var available: Int { written.load(ordering: .acquiring) - read.load(ordering: .relaxed) }
    /// Whether every frame has been read from the file.
    var isComplete: Bool { finished.load(ordering: .acquiring) }

    /// Service thread: reads while the ring has room.
    func fill() {
        while remaining > 0 {
            let w = written.load(ordering: .relaxed)
            let room = capacity - (w - read.load(ordering: .acquiring))
            let want = min(room, scratchFrames, remaining)
            guard want > 0 else { return }
            var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: UInt32(channels),
                                                                                mDataByteSize: UInt32(want * channels * 4), mData: scratch))
            var count = UInt32(want)
            if ExtAudioFileRead(file, &count, &list) != noErr || count == 0 {
                remaining = 0  // the file ended early (or failed): what was read is what plays
                break
            }
            for i in 0..<Int(count) {
                let slot = (w + i) % capacity
                for c in 0..<channels { ring[c * capacity + slot] = scratch[i * channels + c] }
            }
            remaining -= Int(count)
            written.store(w + Int(count), ordering: .releasing)
        }
        finished.store(true, ordering: .releasing)
    }

    /// Render thread: copies up to `count` frames into channel buffers at `offset`; returns frames copied.
    @inline(__always)
    func copy(into output: UnsafeMutableAudioBufferListPointer, channels outChannels: Int, offset: Int, count: Int) -> Int {
        let r = read.load(ordering: .relaxed)
        let n = min(count, written.load(ordering: .acquiring) - r)
        guard n > 0 else { return 0 }
        for c in 0..<outChannels {
            guard let out = output[c].mData?.assumingMemoryBound(to: Float.self) else { continue }
            let source = ring + (c % max(channels, 1)) * capacity
            let start = r % capacity
            let first = min(n, capacity - start)
            (out + offset).update(from: source + start, count: first)
            if first < n { (out + offset + first).update(from: source, count: n - first) }
        }
        read.store(r + n, ordering: .releasing)
        return n
    }
}
