import AudioToolbox
import Foundation
import Testing

/// A test-local description of one PCM layout, with an independent reference encoder written with
/// integer arithmetic and explicit byte assembly (not the engine's codec).
struct RefLayout: CustomTestStringConvertible, Sendable {
    var name: String
    var bits: UInt32, bytes: UInt32, float: Bool, signed: Bool, big: Bool, high: Bool, fraction: UInt32

    var testDescription: String { name }

    func asbd(channels: UInt32, interleaved: Bool, rate: Double = 44100) -> AudioStreamBasicDescription {
        var flags: AudioFormatFlags = 0
        if float { flags |= kAudioFormatFlagIsFloat } else if signed { flags |= kAudioFormatFlagIsSignedInteger }
        if big { flags |= kAudioFormatFlagIsBigEndian }
        if bits == bytes * 8 { flags |= kAudioFormatFlagIsPacked } else if high { flags |= kAudioFormatFlagIsAlignedHigh }
        if !interleaved { flags |= kAudioFormatFlagIsNonInterleaved }
        flags |= fraction << kLinearPCMFormatFlagsSampleFractionShift
        let frameBytes = interleaved ? bytes * channels : bytes
        return AudioStreamBasicDescription(mSampleRate: rate, mFormatID: kAudioFormatLinearPCM, mFormatFlags: flags,
                                           mBytesPerPacket: frameBytes, mFramesPerPacket: 1, mBytesPerFrame: frameBytes,
                                           mChannelsPerFrame: channels, mBitsPerChannel: bits, mReserved: 0)
    }

    /// The value this layout stores for x (what decoding gives back), as an exact Double.
    func quantize(_ x: Double) -> Double {
        if float { return bits == 32 ? Double(Float(x)) : x }
        let shift = fraction > 0 ? Int(fraction) : Int(bits) - 1
        let scale = pow(2.0, Double(shift))
        let lo = -pow(2.0, Double(bits) - 1), hi = pow(2.0, Double(bits) - 1) - 1
        // + 0: an integer has no negative zero.
        return min(max((x * scale).rounded(.toNearestOrEven), lo), hi) / scale + 0
    }

    /// The bytes of x in this layout.
    func encode(_ x: Double) -> [UInt8] {
        var raw: UInt64
        if float {
            raw = bits == 32 ? UInt64(Float(x).bitPattern) : x.bitPattern
        } else {
            let shift = fraction > 0 ? Int(fraction) : Int(bits) - 1
            var v = Int64(quantize(x) * pow(2.0, Double(shift)))
            if !signed { v += Int64(1) << (Int(bits) - 1) }
            raw = UInt64(bitPattern: v) & ((UInt64(1) << UInt64(bits)) - 1)
            if high && bits < bytes * 8 { raw <<= UInt64(bytes * 8 - bits) }
        }
        var out = (0..<Int(bytes)).map { UInt8(truncatingIfNeeded: raw >> UInt64(8 * $0)) }
        if big { out.reverse() }
        return out
    }

    static let all: [RefLayout] = [
        .init(name: "UInt8", bits: 8, bytes: 1, float: false, signed: false, big: false, high: false, fraction: 0),
        .init(name: "Int8", bits: 8, bytes: 1, float: false, signed: true, big: false, high: false, fraction: 0),
        .init(name: "Int16LE", bits: 16, bytes: 2, float: false, signed: true, big: false, high: false, fraction: 0),
        .init(name: "Int16BE", bits: 16, bytes: 2, float: false, signed: true, big: true, high: false, fraction: 0),
        .init(name: "Int24LE", bits: 24, bytes: 3, float: false, signed: true, big: false, high: false, fraction: 0),
        .init(name: "Int24BE", bits: 24, bytes: 3, float: false, signed: true, big: true, high: false, fraction: 0),
        .init(name: "Int24in32High", bits: 24, bytes: 4, float: false, signed: true, big: false, high: true, fraction: 0),
        .init(name: "Int24in32Low", bits: 24, bytes: 4, float: false, signed: true, big: false, high: false, fraction: 0),
        .init(name: "Int32LE", bits: 32, bytes: 4, float: false, signed: true, big: false, high: false, fraction: 0),
        .init(name: "Int32BE", bits: 32, bytes: 4, float: false, signed: true, big: true, high: false, fraction: 0),
        .init(name: "Fixed8.24", bits: 32, bytes: 4, float: false, signed: true, big: false, high: false, fraction: 24),
        .init(name: "Float32LE", bits: 32, bytes: 4, float: true, signed: true, big: false, high: false, fraction: 0),
        .init(name: "Float32BE", bits: 32, bytes: 4, float: true, signed: true, big: true, high: false, fraction: 0),
        .init(name: "Float64LE", bits: 64, bytes: 8, float: true, signed: true, big: false, high: false, fraction: 0),
        .init(name: "Float64BE", bits: 64, bytes: 8, float: true, signed: true, big: true, high: false, fraction: 0),
    ]
}

/// Buffers in malloc'd memory behind an AudioBufferList (pointers stay valid for the list's life).
final class TestBuffers {
    let list: UnsafeMutableAudioBufferListPointer
    init(_ contents: [[UInt8]], channelsPerBuffer: UInt32) {
        list = AudioBufferList.allocate(maximumBuffers: contents.count)
        for (i, bytes) in contents.enumerated() {
            let p = UnsafeMutableRawPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
            bytes.withUnsafeBytes { p.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
            list[i] = AudioBuffer(mNumberChannels: channelsPerBuffer, mDataByteSize: UInt32(bytes.count), mData: p)
        }
    }
    var contents: [[UInt8]] { list.map { Array(UnsafeRawBufferPointer(start: $0.mData, count: Int($0.mDataByteSize))) } }
    deinit {
        for b in list { b.mData?.deallocate() }
        free(list.unsafeMutablePointer)
    }
}

struct LayoutPair: CustomTestStringConvertible, Sendable {
    var from: RefLayout, to: RefLayout
    var testDescription: String { "\(from.name) -> \(to.name)" }
    static let all: [LayoutPair] = RefLayout.all.flatMap { a in RefLayout.all.map { LayoutPair(from: a, to: $0) } }
}

@Suite struct AudioConverterPCMTests {
    /// A test signal over the full scale, with the extremes, silence and values between grid points.
    static let signal: [Double] = {
        var s: [Double] = [0, 1, -1, 0.5, -0.5, 0.999, -0.999, 1.0 / 32768, -1.0 / 8_388_608, 0.25 + 1e-7]
        for i in 0..<200 { s.append(0.9 * sin(Double(i) * 0.37) + 0.05 * cos(Double(i) * 3.1)) }
        return s
    }()

    func convert(_ pair: LayoutPair, interleavedIn: Bool, interleavedOut: Bool) throws -> (out: [[UInt8]], expected: [[UInt8]]) {
        let channels: UInt32 = 2
        var inFormat = pair.from.asbd(channels: channels, interleaved: interleavedIn)
        var outFormat = pair.to.asbd(channels: channels, interleaved: interleavedOut)
        var converter: AudioConverterRef?
        try #require(AudioConverterNew(&inFormat, &outFormat, &converter) == noErr)
        defer { AudioConverterDispose(converter!) }
        let frames = Self.signal.count
        // Channel c carries the signal scaled by (1 - c/4), quantized to the input layout.
        func value(_ c: Int, _ n: Int) -> Double { Self.signal[n] * (1 - Double(c) / 4) }
        func fill(_ layout: RefLayout, interleaved: Bool, _ v: (Int, Int) -> [UInt8]) -> [[UInt8]] {
            if interleaved {
                return [(0..<frames).flatMap { n in (0..<Int(channels)).flatMap { c in v(c, n) } }]
            }
            return (0..<Int(channels)).map { c in (0..<frames).flatMap { n in v(c, n) } }
        }
        let input = fill(pair.from, interleaved: interleavedIn) { c, n in pair.from.encode(value(c, n)) }
        let expected = fill(pair.to, interleaved: interleavedOut) { c, n in pair.to.encode(pair.from.quantize(value(c, n))) }
        let inList = TestBuffers(input, channelsPerBuffer: interleavedIn ? channels : 1)
        let outList = TestBuffers(expected.map { [UInt8](repeating: 0x5A, count: $0.count) }, channelsPerBuffer: interleavedOut ? channels : 1)
        let status = AudioConverterConvertComplexBuffer(converter!, UInt32(frames), inList.list.unsafePointer, outList.list.unsafeMutablePointer)
        try #require(status == noErr)
        return (outList.contents, expected)
    }

    @Test(arguments: LayoutPair.all)
    func everyPairMatchesTheReference(_ pair: LayoutPair) throws {
        for (il, ol) in [(true, true), (false, true), (true, false), (false, false)] {
            let (out, expected) = try convert(pair, interleavedIn: il, interleavedOut: ol)
            let differing = zip(out.joined(), expected.joined()).filter { $0 != $1 }.count
            #expect(differing == 0 && out.map(\.count) == expected.map(\.count), "interleaved in \(il) out \(ol): \(differing) bytes differ")
        }
    }

    @Test func int16ToFloat32ToInt16IsBitExact() throws {
        var i16 = OCAFormat.linearPCM(sampleRate: 48000, channels: 1, bitsPerChannel: 16, isFloat: false, interleaved: true)
        var f32 = OCAFormat.linearPCM(sampleRate: 48000, channels: 1, bitsPerChannel: 32, isFloat: true, interleaved: true)
        var up: AudioConverterRef?, down: AudioConverterRef?
        AudioConverterNew(&i16, &f32, &up)
        AudioConverterNew(&f32, &i16, &down)
        defer { AudioConverterDispose(up!); AudioConverterDispose(down!) }
        let all = (Int(Int16.min)...Int(Int16.max)).map { Int16($0) }
        var floats = [Float32](repeating: 0, count: all.count)
        var back = [Int16](repeating: 0, count: all.count)
        var size = UInt32(floats.count * 4)
        #expect(AudioConverterConvertBuffer(up!, UInt32(all.count * 2), all, &size, &floats) == noErr)
        #expect(size == UInt32(all.count * 4))
        #expect(floats.first == -1 && floats[32768] == 0)
        size = UInt32(back.count * 2)
        #expect(AudioConverterConvertBuffer(down!, UInt32(floats.count * 4), floats, &size, &back) == noErr)
        #expect(back == all)
    }
}

@Suite struct AudioConverterBehaviourTests {
    static func float32(_ rate: Double, _ channels: UInt32, interleaved: Bool = false) -> AudioStreamBasicDescription {
        OCAFormat.linearPCM(sampleRate: rate, channels: channels, bitsPerChannel: 32, isFloat: true, interleaved: interleaved)
    }

    func make(_ a: AudioStreamBasicDescription, _ b: AudioStreamBasicDescription) throws -> AudioConverterRef {
        var a = a, b = b
        var c: AudioConverterRef?
        try #require(AudioConverterNew(&a, &b, &c) == noErr)
        return try #require(c)
    }

    func convertInterleaved(_ c: AudioConverterRef, _ input: [Float32], outChannels: Int, frames: Int) -> [Float32] {
        var out = [Float32](repeating: .nan, count: frames * outChannels)
        var size = UInt32(out.count * 4)
        AudioConverterConvertBuffer(c, UInt32(input.count * 4), input, &size, &out)
        return out
    }

    @Test func channelMapsUpmixDownmixAndReorder() throws {
        let mono = try make(Self.float32(44100, 1, interleaved: true), Self.float32(44100, 2, interleaved: true))
        let stereoToMono = try make(Self.float32(44100, 2, interleaved: true), Self.float32(44100, 1, interleaved: true))
        let reorder = try make(Self.float32(44100, 3, interleaved: true), Self.float32(44100, 3, interleaved: true))
        defer { [mono, stereoToMono, reorder].forEach { AudioConverterDispose($0) } }
        #expect(convertInterleaved(mono, [0.5, -0.25], outChannels: 2, frames: 2) == [0.5, 0.5, -0.25, -0.25])
        #expect(convertInterleaved(stereoToMono, [0.5, 0.25, -1, 1], outChannels: 1, frames: 2) == [0.375, 0])
        var map: [Int32] = [2, -1, 0]
        #expect(AudioConverterSetProperty(reorder, kAudioConverterChannelMap, 12, &map) == noErr)
        #expect(convertInterleaved(reorder, [1, 2, 3, 4, 5, 6], outChannels: 3, frames: 2) == [3, 0, 1, 6, 0, 4])
        var got = [Int32](repeating: 9, count: 3)
        var size: UInt32 = 12
        #expect(AudioConverterGetProperty(reorder, kAudioConverterChannelMap, &size, &got) == noErr && got == [2, -1, 0])
        var bad: [Int32] = [3, 0, 0]
        #expect(AudioConverterSetProperty(reorder, kAudioConverterChannelMap, 12, &bad) == kAudio_ParamError)
        #expect(AudioConverterSetProperty(reorder, kAudioConverterChannelMap, 8, &bad) == kAudioConverterErr_BadPropertySizeError)
    }

    @Test func tpdfDitherWhenReducingBitDepth() throws {
        let c = try make(Self.float32(44100, 1, interleaved: true),
                         OCAFormat.linearPCM(sampleRate: 44100, channels: 1, bitsPerChannel: 16, isFloat: false, interleaved: true))
        defer { AudioConverterDispose(c) }
        let x: Float32 = 0.3 / 32768  // 0.3 LSB: rounds to 0 without dither
        let input = [Float32](repeating: x, count: 20_000)
        var out = [Int16](repeating: 0, count: input.count)
        var size = UInt32(out.count * 2)
        AudioConverterConvertBuffer(c, UInt32(input.count * 4), input, &size, &out)
        #expect(out.allSatisfy { $0 == 0 })
        var tpdf = kDitherAlgorithm_TPDF
        #expect(AudioConverterSetProperty(c, kAudioConverterPropertyDithering, 4, &tpdf) == noErr)
        AudioConverterConvertBuffer(c, UInt32(input.count * 4), input, &size, &out)
        // Dithered: the mean follows the input (0.3 LSB) and no sample is more than 1 LSB off... rounded: within [-1, 2].
        let mean = Double(out.reduce(0) { $0 + Int($1) }) / Double(out.count)
        #expect(abs(mean - 0.3) < 0.03)
        #expect(out.allSatisfy { $0 >= -1 && $0 <= 2 })
        var noise = kDitherAlgorithm_NoiseShaping
        #expect(AudioConverterSetProperty(c, kAudioConverterPropertyDithering, 4, &noise) == kAudioConverterErr_PropertyNotSupported)
    }

    @Test func creationErrors() {
        // A format no codec here handles (AAC converts when the AudioToolboxAAC product is linked, as in this binary).
        var unknown = AudioStreamBasicDescription(mSampleRate: 44100, mFormatID: 0x7A7A_7A7A, mFormatFlags: 0, mBytesPerPacket: 0,
                                                  mFramesPerPacket: 1024, mBytesPerFrame: 0, mChannelsPerFrame: 2, mBitsPerChannel: 0, mReserved: 0)
        var pcm = Self.float32(44100, 2)
        var c: AudioConverterRef?
        #expect(AudioConverterNew(&unknown, &pcm, &c) == kAudioConverterErr_FormatNotSupported)
        #expect(c == nil)
        var zeroRate = Self.float32(0, 2)
        #expect(AudioConverterNew(&zeroRate, &pcm, &c) == kAudioConverterErr_InputSampleRateOutOfRange)
        #expect(AudioConverterNew(&pcm, &zeroRate, &c) == kAudioConverterErr_OutputSampleRateOutOfRange)
        var noChannels = Self.float32(44100, 2)
        noChannels.mChannelsPerFrame = 0
        #expect(AudioConverterNew(&noChannels, &pcm, &c) == kAudioConverterErr_FormatNotSupported)
    }

    @Test func properties() throws {
        let c = try make(OCAFormat.linearPCM(sampleRate: 22050, channels: 2, bitsPerChannel: 16, isFloat: false, interleaved: true),
                         Self.float32(44100, 2))
        defer { AudioConverterDispose(c) }
        var f = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        #expect(AudioConverterGetProperty(c, kAudioConverterCurrentInputStreamDescription, &size, &f) == noErr)
        #expect(f.mSampleRate == 22050 && f.mBitsPerChannel == 16)
        #expect(AudioConverterGetProperty(c, kAudioConverterCurrentOutputStreamDescription, &size, &f) == noErr)
        #expect(f.mSampleRate == 44100 && f.mFormatFlags & kAudioFormatFlagIsNonInterleaved != 0)
        var v: UInt32 = 0
        size = 4
        #expect(AudioConverterGetProperty(c, kAudioConverterPropertyMaximumInputPacketSize, &size, &v) == noErr && v == 4)
        #expect(AudioConverterGetProperty(c, kAudioConverterPropertyMaximumOutputPacketSize, &size, &v) == noErr && v == 4)
        v = 4 * 1000  // 1000 input frames of Int16 stereo
        #expect(AudioConverterGetProperty(c, kAudioConverterPropertyCalculateOutputBufferSize, &size, &v) == noErr)
        #expect(v == 4 * 2000)  // 2000 output frames, 4 bytes per (non-interleaved) frame
        v = 4 * 2000
        #expect(AudioConverterGetProperty(c, kAudioConverterPropertyCalculateInputBufferSize, &size, &v) == noErr && v == 4 * 1000)
        #expect(AudioConverterGetProperty(c, kAudioConverterSampleRateConverterQuality, &size, &v) == noErr && v == kAudioConverterQuality_High)
        var quality = kAudioConverterQuality_Max
        #expect(AudioConverterSetProperty(c, kAudioConverterSampleRateConverterQuality, 4, &quality) == noErr)
        var prime = AudioConverterPrimeInfo()
        size = UInt32(MemoryLayout<AudioConverterPrimeInfo>.size)
        #expect(AudioConverterGetProperty(c, kAudioConverterPrimeInfo, &size, &prime) == noErr)
        #expect(prime.leadingFrames > 0 && prime.leadingFrames + 1 == prime.trailingFrames)
        var writable: DarwinBoolean = false
        #expect(AudioConverterGetPropertyInfo(c, kAudioConverterChannelMap, &size, &writable) == noErr && size == 8 && writable.boolValue)
        #expect(AudioConverterGetPropertyInfo(c, kAudioConverterEncodeBitRate, &size, &writable) == kAudioConverterErr_PropertyNotSupported)
        size = 2
        #expect(AudioConverterGetProperty(c, kAudioConverterSampleRateConverterQuality, &size, &v) == kAudioConverterErr_BadPropertySizeError)
        var minimumPhase = kAudioConverterSampleRateConverterComplexity_MinimumPhase
        #expect(AudioConverterSetProperty(c, kAudioConverterSampleRateConverterComplexity, 4, &minimumPhase) == kAudioConverterErr_PropertyNotSupported)
        // Sample-rate conversion needs FillComplexBuffer.
        var out = [Float32](repeating: 0, count: 8)
        size = 32
        let input = [Int16](repeating: 0, count: 4)
        #expect(AudioConverterConvertBuffer(c, 8, input, &size, &out) == kAudioConverterErr_OperationNotSupported)
        #expect(AudioConverterDispose(c) == noErr)
        #expect(AudioConverterReset(c) == kAudio_ParamError)  // disposed
        _ = try make(Self.float32(8000, 1), Self.float32(8000, 1))  // keeps `defer` balanced for the check above
    }
}

/// The pull model: an input proc feeding chunks of varying size from a source array.
final class PullSource {
    let samples: [Float32]  // interleaved
    let channels: Int
    var position = 0
    var calls = 0
    var failAfter: Int?
    var chunkSizes: [Int]
    let scratch: UnsafeMutablePointer<Float32>

    init(samples: [Float32], channels: Int, chunkSizes: [Int]) {
        self.samples = samples
        self.channels = channels
        self.chunkSizes = chunkSizes
        scratch = .allocate(capacity: 100_000)
    }
    deinit { scratch.deallocate() }

    static let proc: AudioConverterComplexInputDataProc = { _, ioPackets, ioData, _, userData in
        let s = Unmanaged<PullSource>.fromOpaque(userData!).takeUnretainedValue()
        s.calls += 1
        if let f = s.failAfter, s.calls > f { ioPackets.pointee = 0; return 0x72756872 /* 'ruhr' */ }
        let available = (s.samples.count / s.channels) - s.position
        let n = min(Int(ioPackets.pointee), s.chunkSizes[s.calls % s.chunkSizes.count], available)
        for i in 0..<(n * s.channels) { s.scratch[i] = s.samples[s.position * s.channels + i] }
        let abl = UnsafeMutableAudioBufferListPointer(ioData)
        abl[0] = AudioBuffer(mNumberChannels: UInt32(s.channels), mDataByteSize: UInt32(n * s.channels * 4), mData: s.scratch)
        s.position += n
        ioPackets.pointee = UInt32(n)
        return noErr
    }
}

@Suite struct AudioConverterPullTests {
    func pull(_ c: AudioConverterRef, _ source: PullSource, outChannels: Int, request: Int, maxCalls: Int = 10_000) -> ([Float32], OSStatus) {
        var all: [Float32] = []
        var buffer = [Float32](repeating: 0, count: request * outChannels)
        for _ in 0..<maxCalls {
            var packets = UInt32(request)
            let status = buffer.withUnsafeMutableBytes { raw -> OSStatus in
                var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: UInt32(outChannels),
                                                                                     mDataByteSize: UInt32(raw.count), mData: raw.baseAddress))
                return AudioConverterFillComplexBuffer(c, PullSource.proc, Unmanaged.passUnretained(source).toOpaque(), &packets, &list, nil)
            }
            all += buffer[..<(Int(packets) * outChannels)]
            if status != noErr { return (all, status) }
            if packets == 0 { break }
        }
        return (all, noErr)
    }

    @Test func sameRatePullDeliversEveryFrameThenZero() throws {
        var i = OCAFormat.linearPCM(sampleRate: 44100, channels: 2, bitsPerChannel: 32, isFloat: true, interleaved: true)
        var o = OCAFormat.linearPCM(sampleRate: 44100, channels: 2, bitsPerChannel: 32, isFloat: true, interleaved: true)
        var c: AudioConverterRef?
        AudioConverterNew(&i, &o, &c)
        defer { AudioConverterDispose(c!) }
        let samples = (0..<2 * 10_007).map { Float32($0) }
        let source = PullSource(samples: samples, channels: 2, chunkSizes: [100, 7, 1024, 333])
        let (out, status) = pull(c!, source, outChannels: 2, request: 512)
        #expect(status == noErr)
        #expect(out == samples)
        // After the end, 0 frames until reset.
        let (more, _) = pull(c!, source, outChannels: 2, request: 512, maxCalls: 1)
        #expect(more.isEmpty)
    }

    @Test func procErrorStopsWithPartialOutput() throws {
        var f = OCAFormat.linearPCM(sampleRate: 48000, channels: 1, bitsPerChannel: 32, isFloat: true, interleaved: true)
        var c: AudioConverterRef?
        AudioConverterNew(&f, &f, &c)
        defer { AudioConverterDispose(c!) }
        let source = PullSource(samples: (0..<5000).map { Float32($0) }, channels: 1, chunkSizes: [300])
        source.failAfter = 2
        let (out, status) = pull(c!, source, outChannels: 1, request: 1000)
        #expect(status == 0x72756872)
        #expect(out == (0..<600).map { Float32($0) })
    }

    @Test(arguments: [(44100.0, 48000.0), (48000.0, 44100.0), (22050.0, 44100.0), (8000.0, 192000.0), (96000.0, 8000.0)])
    func resampledStreamHasRoundedLengthAndRightContent(_ rates: (Double, Double)) throws {
        var i = OCAFormat.linearPCM(sampleRate: rates.0, channels: 1, bitsPerChannel: 32, isFloat: true, interleaved: true)
        var o = OCAFormat.linearPCM(sampleRate: rates.1, channels: 1, bitsPerChannel: 32, isFloat: true, interleaved: true)
        var c: AudioConverterRef?
        AudioConverterNew(&i, &o, &c)
        defer { AudioConverterDispose(c!) }
        let n = 12_345
        let f = 440.0
        let samples = (0..<n).map { Float32(0.5 * sin(2 * Double.pi * f * Double($0) / rates.0)) }
        let source = PullSource(samples: samples, channels: 1, chunkSizes: [512, 31, 1024])
        let (out, status) = pull(c!, source, outChannels: 1, request: 700)
        #expect(status == noErr)
        #expect(out.count == Int((Double(n) * rates.1 / rates.0).rounded()))
        // Away from the edges the output is the same sine at output times (High quality).
        var worst = 0.0
        let margin = Int(rates.1 / 100)
        for k in margin..<(out.count - margin) {
            worst = max(worst, abs(Double(out[k]) - 0.5 * sin(2 * Double.pi * f * Double(k) / rates.1)))
        }
        #expect(worst < 1e-4, "largest deviation \(worst)")
    }
}
