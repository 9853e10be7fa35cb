import COCASupport
import Foundation

/// kAudioQueueProperty_ChannelAssignments on an output queue: which device channel each queue channel plays
/// to. The queue renders into its own planar scratch and the route spreads it over the device's channels
/// (the I/O unit then takes the device's channel count). Made when the property is set, while the queue is
/// stopped; used on the device thread without allocation.
final class AudioQueueChannelRoute {
    /// Per queue channel, the device channel (0-based) it plays to.
    let map: [Int]
    let deviceChannels: Int
    /// Where the queue renders: as many planar buffers as the queue has channels.
    let list: UnsafeMutableAudioBufferListPointer
    private let samples: UnsafeMutablePointer<Float>
    private let capacity: Int

    init(map: [Int], deviceChannels: Int, maximumFrames: Int) {
        self.map = map
        self.deviceChannels = deviceChannels
        capacity = maximumFrames
        samples = .allocate(capacity: map.count * maximumFrames)
        samples.initialize(repeating: 0, count: map.count * maximumFrames)
        list = AudioBufferList.allocate(maximumBuffers: map.count)
    }

    deinit {
        samples.deallocate()
        free(list.unsafeMutablePointer)
    }

    /// Points the render list at the scratch for `frames` frames (at most the capacity).
    func prepare(frames: Int) {
        for c in 0..<map.count {
            list[c] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(frames * 4), mData: UnsafeMutableRawPointer(samples + c * capacity))
        }
    }

    /// The device's channels: silence, plus each queue channel on its device channel (summed where two share one).
    func scatter(into out: UnsafeMutableAudioBufferListPointer, frames: Int) {
        for b in 0..<out.count {
            if let p = out[b].mData { oca_memzero(p, UInt(frames) * 4) }
        }
        for (c, d) in map.enumerated() where d < out.count {
            guard let dst = out[d].mData?.assumingMemoryBound(to: Float.self) else { continue }
            let src = samples + c * capacity
            for i in 0..<frames { dst[i] += src[i] }
        }
    }
}
