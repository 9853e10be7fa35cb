import COCASupport
import Foundation

/// kAudioQueueProperty_ChannelAssignments: which device channel each queue channel plays to (output) or records
/// from (input). An output queue renders into the route's planar scratch (a buffer per queue channel) and the
/// route spreads it over the device's channels; an input queue's I/O unit captures all the device's channels
/// into the scratch (a buffer per device channel) and the route gathers the assigned ones. The I/O unit takes
/// the device's channel count. Made when the property is set, while the queue is stopped; used on the device
/// thread without allocation.
final class AudioQueueChannelRoute {
    /// Per queue channel, its device channel (0-based).
    let map: [Int]
    /// The same as raw memory, which the device thread reads (no array machinery there).
    private let table: UnsafeMutablePointer<Int>
    let deviceChannels: Int
    /// The scratch as a buffer list: queue channels (output) or device channels (input).
    let list: UnsafeMutableAudioBufferListPointer
    private let samples: UnsafeMutablePointer<Float>
    private let capacity: Int
    private let buffers: Int
    private let channelsOfQueue: Int

    init(map: [Int], deviceChannels: Int, input: Bool, maximumFrames: Int) {
        self.map = map
        self.deviceChannels = deviceChannels
        capacity = maximumFrames
        channelsOfQueue = map.count
        buffers = input ? deviceChannels : map.count
        samples = .allocate(capacity: buffers * maximumFrames)
        samples.initialize(repeating: 0, count: buffers * maximumFrames)
        list = AudioBufferList.allocate(maximumBuffers: buffers)
        table = .allocate(capacity: map.count)
        table.initialize(from: map, count: map.count)
    }

    deinit {
        samples.deallocate()
        table.deallocate()
        free(list.unsafeMutablePointer)
    }

    /// Points the render list at the scratch for `frames` frames (at most the capacity).
    func prepare(frames: Int) {
        for c in 0..<buffers {
            list[c] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(frames * 4), mData: UnsafeMutableRawPointer(samples + c * capacity))
        }
    }

    /// The device's channels: silence, plus each queue channel on its device channel (summed where two share one).
    func scatter(into out: UnsafeMutableAudioBufferListPointer, frames: Int) {
        for b in 0..<out.count {
            if let p = out[b].mData { oca_memzero(p, UInt(frames) * 4) }
        }
        for c in 0..<channelsOfQueue {
            let d = table[c]
            guard d < out.count, let dst = out[d].mData?.assumingMemoryBound(to: Float.self) else { continue }
            let src = samples + c * capacity
            for i in 0..<frames { dst[i] += src[i] }
        }
    }

    /// Input: each queue channel's samples from its device channel in the scratch, into `out`.
    func gather(into out: UnsafeMutableAudioBufferListPointer, frames: Int) {
        for c in 0..<min(channelsOfQueue, out.count) {
            guard let dst = out[c].mData?.assumingMemoryBound(to: Float.self) else { continue }
            dst.update(from: samples + table[c] * capacity, count: frames)
        }
    }
}
