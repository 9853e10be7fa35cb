// A client resampling 44.1 kHz to 48 kHz with AudioConverterFillComplexBuffer, in every pair of Int16, Int24, Int32
// and Float32 (packed, interleaved), with the channels straight through and rerouted by kAudioConverterChannelMap.
// Byte order must change nothing but the order of each sample's bytes: little-endian in and out gives what
// big-endian output gives with each sample's bytes reversed (and what big-endian input gives), bit for bit,
// including the samples the resampler's overshoot pushes past full scale.
import AudioToolbox
import Foundation
import Testing

@Suite struct ResamplingByteOrderClientTests {
    enum Sample: CaseIterable { case int16, int24, int32, float32 }

    static func format(_ sample: Sample, rate: Double, channels: UInt32, bigEndian: Bool) -> AudioStreamBasicDescription {
        let bytes: UInt32 = sample == .int16 ? 2 : sample == .int24 ? 3 : 4
        var flags: AudioFormatFlags = kAudioFormatFlagIsPacked | (sample == .float32 ? kAudioFormatFlagIsFloat : kAudioFormatFlagIsSignedInteger)
        if bigEndian { flags |= kAudioFormatFlagIsBigEndian }
        return AudioStreamBasicDescription(mSampleRate: rate, mFormatID: kAudioFormatLinearPCM, mFormatFlags: flags, mBytesPerPacket: bytes * channels,
                                           mFramesPerPacket: 1, mBytesPerFrame: bytes * channels, mChannelsPerFrame: channels,
                                           mBitsPerChannel: bytes * 8, mReserved: 0)
    }

    /// Little-endian samples: loud noise with full-scale runs (a square wave at the extremes, which the resampler's
    /// ringing carries past full scale) and, for Float32, values up to twice full scale.
    static func signal(_ sample: Sample, frames: Int, channels: Int, seed: UInt64) -> [UInt8] {
        var x = seed
        var bytes: [UInt8] = []
        for frame in 0..<frames {
            for _ in 0..<channels {
                x ^= x << 13; x ^= x >> 7; x ^= x << 17
                let unit = Double(Int64(bitPattern: x)) / Double(Int64.max)   // [-1, 1]
                let square = frame / 40 % 2 == 0 ? 1.0 : -1.0
                let value = frame % 1000 < 200 ? square : unit * (sample == .float32 ? 2 : 0.9)
                switch sample {
                case .int16: withUnsafeBytes(of: Int16(clamping: Int64((value * 32768).rounded(.down)))) { bytes += $0 }
                case .int24:
                    let v = Int32(clamping: Int64((value * 8_388_608).rounded(.down))).clamped(-8_388_608, 8_388_607)
                    withUnsafeBytes(of: v) { bytes += $0.prefix(3) }
                case .int32: withUnsafeBytes(of: Int32(clamping: Int64((value * 2_147_483_648).rounded(.down)))) { bytes += $0 }
                case .float32: withUnsafeBytes(of: Float(value)) { bytes += $0 }
                }
            }
        }
        return bytes
    }

    static func reversingEachSample(_ bytes: [UInt8], size: Int) -> [UInt8] {
        var out = bytes
        for start in stride(from: 0, to: bytes.count, by: size) { out[start..<start + size] = bytes[start..<start + size].reversed()[...] }
        return out
    }

    final class Feed {
        let data: UnsafeMutableRawPointer
        let frames: Int, bytesPerFrame: Int, channels: UInt32
        var next = 0
        init(_ bytes: [UInt8], bytesPerFrame: Int, channels: UInt32) {
            let data = UnsafeMutableRawPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
            bytes.withUnsafeBytes { data.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
            self.data = data
            frames = bytes.count / bytesPerFrame
            self.bytesPerFrame = bytesPerFrame
            self.channels = channels
        }
        deinit { data.deallocate() }
    }

    /// The whole input converted, in the uneven pieces an input proc hands over (999 frames a call).
    static func convert(_ input: [UInt8], from inFormat: AudioStreamBasicDescription, to outFormat: AudioStreamBasicDescription,
                        channelMap: [Int32]?) throws -> [UInt8] {
        var inFormat = inFormat, outFormat = outFormat
        var converter: AudioConverterRef?
        try #require(AudioConverterNew(&inFormat, &outFormat, &converter) == noErr)
        defer { AudioConverterDispose(converter!) }
        if var map = channelMap {
            try #require(AudioConverterSetProperty(converter!, kAudioConverterChannelMap, UInt32(4 * map.count), &map) == noErr)
        }
        let feed = Feed(input, bytesPerFrame: Int(inFormat.mBytesPerFrame), channels: inFormat.mChannelsPerFrame)
        var output: [UInt8] = []
        let capacity = 777
        var chunk = [UInt8](repeating: 0, count: capacity * Int(outFormat.mBytesPerFrame))
        while true {
            var frames = UInt32(capacity)
            let status = chunk.withUnsafeMutableBytes { o -> OSStatus in
                var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: outFormat.mChannelsPerFrame, mDataByteSize: UInt32(o.count),
                                                                                   mData: o.baseAddress))
                return AudioConverterFillComplexBuffer(converter!, { _, ioCount, ioData, _, user in
                    let feed = Unmanaged<Feed>.fromOpaque(user!).takeUnretainedValue()
                    let n = min(Int(ioCount.pointee), 999, feed.frames - feed.next)
                    ioCount.pointee = UInt32(n)
                    ioData.pointee.mBuffers = AudioBuffer(mNumberChannels: feed.channels, mDataByteSize: UInt32(n * feed.bytesPerFrame),
                                                          mData: feed.data + feed.next * feed.bytesPerFrame)
                    feed.next += n
                    return noErr
                }, Unmanaged.passUnretained(feed).toOpaque(), &frames, &list, nil)
            }
            try #require(status == noErr)
            if frames == 0 { break }
            output += chunk[0..<Int(frames) * Int(outFormat.mBytesPerFrame)]
        }
        return output
    }

    @Test func stereoStraightThrough() throws { try compareByteOrders(inChannels: 2, outChannels: 2, map: nil) }

    /// Three channels in, four out: the third input first, a silent channel, the first input twice.
    @Test func channelMapReroutes() throws { try compareByteOrders(inChannels: 3, outChannels: 4, map: [2, -1, 0, 0]) }

    func compareByteOrders(inChannels: UInt32, outChannels: UInt32, map: [Int32]?) throws {
        let frames = 6000
        for from in Sample.allCases {
            let input = Self.signal(from, frames: frames, channels: Int(inChannels), seed: 0x9E37_79B9_7F4A_7C15)
            let inSize = from == .int16 ? 2 : from == .int24 ? 3 : 4
            for to in Sample.allCases {
                let outSize = to == .int16 ? 2 : to == .int24 ? 3 : 4
                let little = try Self.convert(input, from: Self.format(from, rate: 44100, channels: inChannels, bigEndian: false),
                                              to: Self.format(to, rate: 48000, channels: outChannels, bigEndian: false), channelMap: map)
                let bigOut = try Self.convert(input, from: Self.format(from, rate: 44100, channels: inChannels, bigEndian: false),
                                              to: Self.format(to, rate: 48000, channels: outChannels, bigEndian: true), channelMap: map)
                let bigIn = try Self.convert(Self.reversingEachSample(input, size: inSize),
                                             from: Self.format(from, rate: 44100, channels: inChannels, bigEndian: true),
                                             to: Self.format(to, rate: 48000, channels: outChannels, bigEndian: false), channelMap: map)
                // The whole stream (6000 frames at 44.1 kHz are 6531 at 48 kHz, give or take the rounding of the end).
                #expect(abs(little.count / (outSize * Int(outChannels)) - 6531) <= 1, "\(from) -> \(to)")
                #expect(little == Self.reversingEachSample(bigOut, size: outSize), "\(from) -> \(to), map \(map ?? [])")
                #expect(little == bigIn, "\(from) -> \(to), map \(map ?? [])")
                // The test means something: the output reaches full scale (clipped) somewhere.
                if to != .float32 {
                    let top = [UInt8](repeating: 0xFF, count: outSize - 1) + [0x7F]
                    let clipped = stride(from: 0, to: little.count, by: outSize).contains { Array(little[$0..<$0 + outSize]) == top }
                    #expect(clipped, "\(from) -> \(to): never reached full scale")
                }
            }
        }
    }
}

private extension Int32 {
    func clamped(_ low: Int32, _ high: Int32) -> Int32 { Swift.min(Swift.max(self, low), high) }
}
