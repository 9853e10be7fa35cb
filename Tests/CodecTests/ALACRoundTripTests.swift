import Foundation
import Testing
@testable import AudioToolbox

/// A deterministic generator (64-bit LCG, high bits) for test signals and mutations.
struct ALACTestRandom {
    var state: UInt64
    /// A generator seeded with `seed`.
    init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 | 1 }
    /// The next 32 random bits.
    mutating func next() -> UInt32 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return UInt32(truncatingIfNeeded: state >> 32)
    }
    /// A value in 0..<bound.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt32(bound)) }
}

/// Our encoder to our decoder, exactly, across channel counts, depths, frame lengths and awkward signals.
@Suite struct ALACRoundTripTests {
    /// Synthetic PCM: a different mixture per channel (tones, noise, steps) at `bits`.
    static func signal(frames: Int, channels: Int, bits: Int, seed: UInt64 = 1) -> ALACTestSupport.PCM {
        var random = ALACTestRandom(seed: seed)
        let peak = Double((1 << (bits - 1)) - 1)
        var samples = [Int32](repeating: 0, count: frames * channels)
        for f in 0..<frames {
            for c in 0..<channels {
                let t = Double(f) / 44100
                let low: Double = 0.4 * sin(2 * Double.pi * 110 * Double(c + 1) * t)
                let high: Double = 0.2 * sin(2 * Double.pi * 3000 * t)
                let noise: Double = (Double(random.next()) / Double(UInt32.max) - 0.5) * 0.05 * Double(c % 3)
                let step: Double = (f / 1000) % 2 == 0 ? 0.1 : -0.1
                let value: Double = (low + high + noise + step) * peak
                samples[f * channels + c] = Int32(value.rounded())
            }
        }
        return ALACTestSupport.PCM(samples: samples, channels: channels, bits: bits, rate: 44100)
    }

    /// Encodes and decodes `pcm`, expecting the samples back.
    @discardableResult
    static func roundTrip(_ pcm: ALACTestSupport.PCM, frameLength: Int = 4096, fastMode: Bool = false,
                          sourceLocation: SourceLocation = #_sourceLocation) throws -> [[UInt8]] {
        let (config, packets) = try ALACTestSupport.encodeAll(pcm, frameLength: frameLength, fastMode: fastMode)
        let decoded = try ALACTestSupport.decodeAll(config: config, packets: packets)
        #expect(decoded.count == pcm.samples.count, sourceLocation: sourceLocation)
        #expect(decoded == pcm.samples, sourceLocation: sourceLocation)
        #expect(Int(config.maxFrameBytes) == packets.map(\.count).max(), sourceLocation: sourceLocation)
        return packets
    }

    /// Whether a packet's first element is an escape (uncompressed) element.
    static func isEscape(_ packet: [UInt8]) -> Bool { packet[2] & 0x02 != 0 }

    /// Every channel count at every bit depth, with an odd final packet.
    @Test(arguments: 1...8, [16, 20, 24, 32])
    func everyChannelCountAndDepth(channels: Int, bits: Int) throws {
        try Self.roundTrip(Self.signal(frames: 9001, channels: channels, bits: bits))
    }

    /// Frame lengths from 1 to 8192, with partial last packets.
    @Test(arguments: [1, 2, 7, 352, 1152, 4095, 4097, 8192])
    func frameLengths(_ frameLength: Int) throws {
        try Self.roundTrip(Self.signal(frames: 10007, channels: 2, bits: 16), frameLength: frameLength)
        try Self.roundTrip(Self.signal(frames: 3001, channels: 1, bits: 24), frameLength: frameLength)
    }

    /// Fast mode (no stereo search) round-trips too.
    @Test(arguments: [16, 24, 32])
    func fastMode(_ bits: Int) throws {
        try Self.roundTrip(Self.signal(frames: 20000, channels: 2, bits: bits), fastMode: true)
        try Self.roundTrip(Self.signal(frames: 20000, channels: 5, bits: bits), fastMode: true)
    }

    /// Silence round-trips, and compresses to a few bytes plus any shifted-off bytes.
    @Test(arguments: [16, 20, 24, 32])
    func silenceCompressesToAlmostNothing(_ bits: Int) throws {
        let pcm = ALACTestSupport.PCM(samples: [Int32](repeating: 0, count: 3 * 4096 * 2), channels: 2, bits: bits, rate: 44100)
        let packets = try Self.roundTrip(pcm)
        // 24- and 32-bit packets carry the shifted-off low bytes verbatim even in silence, as Apple's do.
        let shiftBytes = 4096 * 2 * (bits == 32 ? 2 : bits == 24 ? 1 : 0)
        #expect(packets.allSatisfy { $0.count < 64 + shiftBytes })
        let mono = ALACTestSupport.PCM(samples: [Int32](repeating: 0, count: 70000), channels: 1, bits: bits, rate: 44100)
        try Self.roundTrip(mono)
    }

    /// Full-scale square waves and alternating extremes (the mixed channel's extra bit).
    @Test(arguments: [16, 20, 24, 32])
    func fullScaleSquareWaves(_ bits: Int) throws {
        let high = Int32(truncatingIfNeeded: (Int64(1) << (bits - 1)) - 1), low = Int32(truncatingIfNeeded: -(Int64(1) << (bits - 1)))
        var samples = [Int32]()
        for f in 0..<20000 {
            samples.append((f / 50) % 2 == 0 ? high : low)
            samples.append((f / 37) % 2 == 0 ? low : high)
        }
        try Self.roundTrip(ALACTestSupport.PCM(samples: samples, channels: 2, bits: bits, rate: 44100))
        // Extremes every sample: the mixed channel needs its extra bit.
        let alternating = (0..<10000).map { $0 % 2 == 0 ? high : low }
        try Self.roundTrip(ALACTestSupport.PCM(samples: alternating, channels: 2, bits: bits, rate: 44100))
        try Self.roundTrip(ALACTestSupport.PCM(samples: alternating, channels: 1, bits: bits, rate: 44100))
    }

    /// Full-scale white noise is sent as escape (verbatim) packets and still round-trips.
    @Test(arguments: [16, 20, 24, 32])
    func whiteNoiseEscapes(_ bits: Int) throws {
        var random = ALACTestRandom(seed: UInt64(bits))
        let shift = UInt32(32 - bits)
        let samples = (0..<((3 * 4096 + 17) * 2)).map { _ in Int32(bitPattern: random.next() << shift) >> Int32(shift) }
        let packets = try Self.roundTrip(ALACTestSupport.PCM(samples: samples, channels: 2, bits: bits, rate: 44100))
        #expect(packets.allSatisfy(Self.isEscape), "full-scale white noise should not compress")
        let monoPackets = try Self.roundTrip(ALACTestSupport.PCM(samples: samples, channels: 1, bits: bits, rate: 44100))
        #expect(monoPackets.allSatisfy(Self.isEscape))
        let fastPackets = try Self.roundTrip(ALACTestSupport.PCM(samples: samples, channels: 2, bits: bits, rate: 44100), fastMode: true)
        #expect(fastPackets.allSatisfy(Self.isEscape))
        // An escape packet is the samples verbatim plus a few header bytes.
        #expect(packets[0].count <= 4096 * 2 * bits / 8 + 4)
    }

    /// Quiet noise compresses, without escapes.
    @Test func lowLevelNoiseStaysCompressed() throws {
        var random = ALACTestRandom(seed: 7)
        let samples = (0..<(4096 * 4)).map { _ in Int32(random.below(9)) - 4 }
        let packets = try Self.roundTrip(ALACTestSupport.PCM(samples: samples, channels: 2, bits: 16, rate: 44100))
        #expect(!packets.contains(where: Self.isEscape))
        #expect(packets[0].count < 4096 * 2 * 2 / 3)
    }

    /// Input beyond the bit depth is truncated to it, like Apple's fixed-width input.
    @Test func samplesOutsideTheDepthAreTruncated() throws {
        let encoder = try ALACEncoder(channels: 1, bitDepth: 16, sampleRate: 8000, frameLength: 4)
        let input: [Int32] = [70000, -70000, 32767, -32768]
        let packet = encoder.encode(input, frames: 4)
        let decoded = try ALACTestSupport.decodeAll(config: encoder.config, packets: [packet])
        #expect(decoded == input.map { Int32(Int16(truncatingIfNeeded: $0)) })
    }

    /// encode(into:) matches encode(), bad sizes give nothing, and the cookie statistics follow.
    @Test func encodeIntoBufferMatchesAndStatisticsTrack() throws {
        let pcm = Self.signal(frames: 4096 * 3 + 100, channels: 2, bits: 16)
        let a = try ALACEncoder(channels: 2, bitDepth: 16, sampleRate: 44100)
        let b = try ALACEncoder(channels: 2, bitDepth: 16, sampleRate: 44100)
        var buffer = [UInt8](repeating: 0, count: b.maxPacketBytes)
        var total = 0
        try pcm.samples.withUnsafeBufferPointer { samples in
            var frame = 0
            while frame < pcm.frames {
                let count = min(4096, pcm.frames - frame)
                let packet = a.encode(samples.baseAddress! + frame * 2, frames: count)
                let size = buffer.withUnsafeMutableBytes { b.encode(samples.baseAddress! + frame * 2, frames: count, into: $0) }
                #expect(Array(buffer[0..<size]) == packet)
                #expect(size > 0)
                total += size
                frame += count
            }
            // Out-of-range frame counts and a too-small buffer give nothing.
            #expect(a.encode(samples.baseAddress!, frames: 0).isEmpty)
            #expect(a.encode(samples.baseAddress!, frames: 4097).isEmpty)
            var tiny = [UInt8](repeating: 0, count: 4)
            #expect(tiny.withUnsafeMutableBytes { b.encode(samples.baseAddress!, frames: 4096, into: $0) } == 0)
            _ = try #require(total > 0)
        }
        let expectedRate = Double(total) * 8 * 44100 / Double(pcm.frames)
        #expect(abs(Double(a.config.avgBitRate) - expectedRate) <= 1)
        #expect(a.config.maxFrameBytes > 0)
    }

    /// A buffer shorter than the packet gives outputTooSmall.
    @Test func decoderReportsTooSmallOutput() throws {
        let pcm = Self.signal(frames: 4096, channels: 2, bits: 16)
        let (config, packets) = try ALACTestSupport.encodeAll(pcm)
        let decoder = try ALACDecoder(config: config)
        var out = [Int32](repeating: 0, count: 4096 * 2)
        let result = packets[0].withUnsafeBytes { raw in out.withUnsafeMutableBufferPointer { decoder.decode(raw, into: $0.baseAddress!, capacityFrames: 4095) } }
        #expect(result == .failure(.outputTooSmall))
    }

    /// Extra channels the packet lacks are zero-filled, as Apple's decoder does; a pair that does not fit ends it.
    @Test func packetWithFewerChannelsThanTheConfig() throws {
        let pcm = Self.signal(frames: 1000, channels: 2, bits: 16)
        let (config, packets) = try ALACTestSupport.encodeAll(pcm)
        var wide = config
        wide.numChannels = 3
        let decoder = try ALACDecoder(config: wide)
        var out = [Int32](repeating: 7, count: 4096 * 3)
        let result = packets[0].withUnsafeBytes { raw in out.withUnsafeMutableBufferPointer { decoder.decode(raw, into: $0.baseAddress!, capacityFrames: 4096) } }
        #expect(result == .success(1000))
        for f in 0..<1000 {
            #expect(out[f * 3] == pcm.samples[f * 2] && out[f * 3 + 1] == pcm.samples[f * 2 + 1] && out[f * 3 + 2] == 0)
        }
        var mono = config
        mono.numChannels = 1
        let monoDecoder = try ALACDecoder(config: mono)
        let monoResult = packets[0].withUnsafeBytes { raw in out.withUnsafeMutableBufferPointer { monoDecoder.decode(raw, into: $0.baseAddress!, capacityFrames: 4096) } }
        #expect(monoResult == .failure(.badBitstream))
    }
}
