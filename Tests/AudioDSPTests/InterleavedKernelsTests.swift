import AudioDSP
import Testing

/// The layout kernels against values worked out by hand.
@Suite struct InterleavedKernelsTests {
    @Test func deinterleaveSplitsChannelsAStrideApart() {
        let interleaved: [Float] = [1, 10, 2, 20, 3, 30]
        var planar = [Float](repeating: -1, count: 8)
        InterleavedKernels.deinterleave(interleaved, channels: 2, frames: 3, into: &planar, stride: 4)
        #expect(planar == [1, 2, 3, -1, 10, 20, 30, -1])
    }

    @Test func int16RoundsClipsAndComesBack() {
        // Channel 1 of three frames: 0.5 -> 16384, 1.0 clips to 32767, -1.5 clips to -32768.
        let interleaved: [Float] = [9, 0.5, 9, 1.0, 9, -1.5]
        var samples = [Int16](repeating: 0, count: 3)
        InterleavedKernels.channelToInt16(interleaved, channels: 2, channel: 1, frames: 3, into: &samples)
        #expect(samples == [16384, 32767, -32768])
        var out = [Float](repeating: 0, count: 6)
        InterleavedKernels.int16ToAllChannels(samples, frames: 3, into: &out, channels: 2)
        #expect(out == [0.5, 0.5, Float(32767) / 32768, Float(32767) / 32768, -1, -1])
    }
}
