import AudioDSP
import AudioToolbox
import Foundation
import Testing

/// Codecs through AudioConverter, as a client calls them: PCM -> compressed packets -> PCM, with the
/// packets and samples compared to sox's and ffmpeg's.
@Suite struct CodecConverterTests {
    /// Runs a converter over all of `input` (whole packets), returning the output bytes and packet count.
    static func convert(_ input: [UInt8], from source: AudioStreamBasicDescription, to destination: AudioStreamBasicDescription,
                        outputPacketBytes: Int, chunkPackets: Int = 300) throws -> (bytes: [UInt8], packets: Int) {
        var s = source, d = destination
        var converter: AudioConverterRef?
        try #require(AudioConverterNew(&s, &d, &converter) == noErr)
        defer { AudioConverterDispose(converter!) }
        final class Feed { var bytes: [UInt8]; var offset = 0; let packetBytes: Int; var scratch = [UInt8]()
            init(_ b: [UInt8], _ p: Int) { bytes = b; packetBytes = p } }
        let inputPacketBytes = Int(source.mBytesPerPacket)
        let feed = Feed(input, inputPacketBytes)
        let proc: AudioConverterComplexInputDataProc = { _, ioPackets, ioData, _, user in
            let feed = Unmanaged<Feed>.fromOpaque(user!).takeUnretainedValue()
            let packets = min(Int(ioPackets.pointee), (feed.bytes.count - feed.offset) / feed.packetBytes)
            feed.scratch = Array(feed.bytes[feed.offset..<(feed.offset + packets * feed.packetBytes)])
            feed.offset += packets * feed.packetBytes
            ioPackets.pointee = UInt32(packets)
            feed.scratch.withUnsafeMutableBytes { raw in
                ioData.pointee.mBuffers = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(raw.count), mData: raw.baseAddress)
            }
            return noErr
        }
        var out: [UInt8] = []
        var packets = 0
        var buffer = [UInt8](repeating: 0, count: chunkPackets * outputPacketBytes)
        while true {
            var n = UInt32(chunkPackets)
            let status = buffer.withUnsafeMutableBytes { raw -> OSStatus in
                var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: d.mChannelsPerFrame,
                                                                                    mDataByteSize: UInt32(raw.count), mData: raw.baseAddress))
                let s = AudioConverterFillComplexBuffer(converter!, proc, Unmanaged.passUnretained(feed).toOpaque(), &n, &list, nil)
                out += raw.prefix(Int(list.mBuffers.mDataByteSize))
                return s
            }
            try #require(status == noErr)
            packets += Int(n)
            if n == 0 { break }
        }
        return (out, packets)
    }

    static func int16Bytes(_ samples: [Int16]) -> [UInt8] { samples.withUnsafeBytes { Array($0) } }
    static func int16Samples(_ bytes: [UInt8]) -> [Int16] { bytes.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) } }

    /// sox run on raw files: `args` before the input describe it, `outArgs` the output.
    static func sox(_ input: [UInt8], _ inArgs: [String], _ outArgs: [String]) throws -> [UInt8] {
        let sox = try #require(FileSupport.sox, "sox is missing: run scripts/setup.sh")
        let a = FileSupport.tempURL("raw"), b = FileSupport.tempURL("raw")
        defer { try? FileManager.default.removeItem(at: a); try? FileManager.default.removeItem(at: b) }
        try Data(input).write(to: a)
        // -D: no dither, which sox adds by default when it reduces the bit depth.
        let (status, text) = try FileSupport.run(sox, ["-D", "-t", "raw"] + inArgs + [a.path, "-t", "raw"] + outArgs + [b.path])
        try #require(status == 0, "sox: \(text)")
        return Array(try Data(contentsOf: b))
    }

    static func g711Format(_ id: AudioFormatID, channels: UInt32) -> AudioStreamBasicDescription {
        AudioStreamBasicDescription(mSampleRate: 8000, mFormatID: id, mFormatFlags: 0, mBytesPerPacket: channels, mFramesPerPacket: 1,
                                    mBytesPerFrame: channels, mChannelsPerFrame: channels, mBitsPerChannel: 8, mReserved: 0)
    }

    /// Every 16-bit value encodes to sox's code, and every code decodes to sox's value (µ-law and A-law).
    @Test(arguments: [(kAudioFormatULaw, "u-law"), (kAudioFormatALaw, "a-law")])
    func g711MatchesSoxForEveryValue(_ spec: (AudioFormatID, String)) throws {
        let all = (0..<65536).map { Int16(truncatingIfNeeded: $0) }
        let pcm = OCAFormat.linearPCM(sampleRate: 8000, channels: 1, bitsPerChannel: 16, isFloat: false, interleaved: true)
        let law = Self.g711Format(spec.0, channels: 1)
        let (codes, packets) = try Self.convert(Self.int16Bytes(all), from: pcm, to: law, outputPacketBytes: 1)
        #expect(packets == 65536)
        let soxCodes = try Self.sox(Self.int16Bytes(all), ["-r", "8000", "-c", "1", "-e", "signed", "-b", "16", "-L"],
                                    ["-e", spec.1, "-b", "8"])
        let differing = zip(codes, soxCodes).filter { $0 != $1 }.count
        #expect(codes.count == soxCodes.count && differing == 0, "\(differing) codes differ from sox's")

        let everyCode = (0..<256).map { UInt8($0) }
        let (decoded, frames) = try Self.convert(everyCode, from: law, to: pcm, outputPacketBytes: 2)
        #expect(frames == 256)
        let soxDecoded = try Self.sox(everyCode, ["-r", "8000", "-c", "1", "-e", spec.1, "-b", "8"], ["-e", "signed", "-b", "16", "-L"])
        #expect(Self.int16Samples(decoded) == Self.int16Samples(soxDecoded))
    }

    /// Packets of a constant-bit-rate codec are handed out in runs as large as the call allows (packet count or bytes,
    /// whichever ends first), with one description per packet when asked, and nothing is lost between calls.
    @Test(arguments: [(1, 64), (7, 14), (300, 10_000), (5000, 3), (5000, 10_000)])
    func g711PacketsWithDescriptionsAcrossCallSizes(_ limits: (packets: Int, bytes: Int)) throws {
        let frames = 10_000
        let samples = (0..<(2 * frames)).map { Int16(truncatingIfNeeded: $0 &* 977 &- 30_000) }
        var pcm = OCAFormat.linearPCM(sampleRate: 8000, channels: 2, bitsPerChannel: 16, isFloat: false, interleaved: true)
        var law = Self.g711Format(kAudioFormatULaw, channels: 2)
        var converter: AudioConverterRef?
        try #require(AudioConverterNew(&pcm, &law, &converter) == noErr)
        defer { AudioConverterDispose(converter!) }
        final class Feed { let samples: [Int16]; var at = 0; init(_ s: [Int16]) { samples = s } }
        let feed = Feed(samples)
        let proc: AudioConverterComplexInputDataProc = { _, ioPackets, ioData, _, user in
            let feed = Unmanaged<Feed>.fromOpaque(user!).takeUnretainedValue()
            let n = min(Int(ioPackets.pointee), feed.samples.count / 2 - feed.at, 1234)
            feed.samples.withUnsafeBufferPointer {
                ioData.pointee.mBuffers = AudioBuffer(mNumberChannels: 2, mDataByteSize: UInt32(n * 4),
                                                      mData: UnsafeMutableRawPointer(mutating: $0.baseAddress! + 2 * feed.at))
            }
            feed.at += n
            ioPackets.pointee = UInt32(n)
            return noErr
        }
        var codes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: limits.bytes)
        var descriptions = [AudioStreamPacketDescription](repeating: AudioStreamPacketDescription(), count: limits.packets)
        while true {
            var n = UInt32(limits.packets)
            let status = buffer.withUnsafeMutableBytes { raw in
                var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 2, mDataByteSize: UInt32(raw.count), mData: raw.baseAddress))
                defer { codes += raw.prefix(Int(list.mBuffers.mDataByteSize)) }
                return AudioConverterFillComplexBuffer(converter!, proc, Unmanaged.passUnretained(feed).toOpaque(), &n, &list, &descriptions)
            }
            try #require(status == noErr)
            if n == 0 { break }
            #expect(Int(n) <= min(limits.packets, limits.bytes / 2))
            for i in 0..<Int(n) where descriptions[i].mStartOffset != Int64(2 * i) || descriptions[i].mDataByteSize != 2 {
                Issue.record("packet \(i) of a call described as \(descriptions[i])"); return
            }
        }
        let expected = samples.map { G711Kernels.linearToMuLaw($0) }
        #expect(codes == expected)
    }

    /// A stereo Float32 client: the converter's PCM stage turns floats into the codec's 16-bit input.
    @Test func g711FromFloatStereo() throws {
        let frames = 1000
        let floats = (0..<(2 * frames)).map { (i: Int) -> Float in
            let phase: Double = Double(i / 2) * 0.05 + Double(i % 2)
            return Float(sin(phase) * 0.5)
        }
        let pcm = OCAFormat.linearPCM(sampleRate: 8000, channels: 2, bitsPerChannel: 32, isFloat: true, interleaved: true)
        let law = Self.g711Format(kAudioFormatULaw, channels: 2)
        let (codes, packets) = try Self.convert(floats.withUnsafeBytes { Array($0) }, from: pcm, to: law, outputPacketBytes: 2)
        #expect(packets == frames && codes.count == 2 * frames)
        let back = try Self.convert(codes, from: law, to: pcm, outputPacketBytes: 8)
        let decoded = back.bytes.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        #expect(decoded.count == floats.count)
        // µ-law's largest step (the segment from 0.5 of full scale up) is 1/32 of full scale: the error
        // stays within it.
        let worst = zip(decoded, floats).map { abs($0 - $1) }.max() ?? 1
        #expect(worst < 1.0 / 32, "worst error \(worst)")
    }

    static func ima4Format(channels: UInt32, rate: Double = 44100) -> AudioStreamBasicDescription {
        AudioStreamBasicDescription(mSampleRate: rate, mFormatID: kAudioFormatAppleIMA4, mFormatFlags: 0, mBytesPerPacket: 34 * channels,
                                    mFramesPerPacket: 64, mBytesPerFrame: 0, mChannelsPerFrame: channels, mBitsPerChannel: 0, mReserved: 0)
    }

    /// IMA4 through converters: 64-frame packets of 34 bytes a channel, a short last packet padded, the
    /// decode within IMA ADPCM's error (SNR over 25 dB on tones), and every packet decodes alone (a packet
    /// converted by itself gives what it gave in the stream). ffmpeg checks the bits in CompressedFileTests.
    @Test func ima4RoundTripAndPacketsDecodeAlone() throws {
        let frames = 64 * 100 + 17
        let source = (0..<(2 * frames)).map { i -> Int16 in
            let t = Double(i / 2) / 44100
            let f: Double = i % 2 == 0 ? 440 : 660
            let x: Double = 12000 * sin(2 * Double.pi * f * t) + 3000 * sin(2 * Double.pi * 3100 * t)
            return Int16(x)
        }
        let pcm = OCAFormat.linearPCM(sampleRate: 44100, channels: 2, bitsPerChannel: 16, isFloat: false, interleaved: true)
        let ima = Self.ima4Format(channels: 2)
        let (packetBytes, packets) = try Self.convert(Self.int16Bytes(source), from: pcm, to: ima, outputPacketBytes: 68, chunkPackets: 7)
        #expect(packets == (frames + 63) / 64 && packetBytes.count == packets * 68)
        let (decodedBytes, decodedFrames) = try Self.convert(packetBytes, from: ima, to: pcm, outputPacketBytes: 4)
        #expect(decodedFrames == packets * 64)
        let ours = Self.int16Samples(decodedBytes)
        var signal = 0.0, noise = 0.0
        for i in 0..<source.count { signal += Double(source[i]) * Double(source[i]); noise += pow(Double(ours[i]) - Double(source[i]), 2) }
        let snr = 10 * log10(signal / noise)
        #expect(snr > 25, "IMA4 SNR \(snr) dB")
        for p in [0, 1, 50, packets - 1] {
            let alone = try Self.convert(Array(packetBytes[(p * 68)..<((p + 1) * 68)]), from: ima, to: pcm, outputPacketBytes: 4)
            #expect(Self.int16Samples(alone.bytes) == Array(ours[(p * 128)..<((p + 1) * 128)]), "packet \(p)")
        }
    }

    /// Apple's answers for formats with no codec, and for compressed to compressed.
    @Test func unsupportedPairsAnswerFormatNotSupported() {
        var pcm = OCAFormat.linearPCM(sampleRate: 44100, channels: 2, bitsPerChannel: 16, isFloat: false, interleaved: true)
        var qdesign = AudioStreamBasicDescription(mSampleRate: 44100, mFormatID: kAudioFormatQDesign2, mFormatFlags: 0, mBytesPerPacket: 0,
                                                  mFramesPerPacket: 0, mBytesPerFrame: 0, mChannelsPerFrame: 2, mBitsPerChannel: 0, mReserved: 0)
        var ima = Self.ima4Format(channels: 2)
        var law = Self.g711Format(kAudioFormatULaw, channels: 2)
        var c: AudioConverterRef?
        #expect(AudioConverterNew(&qdesign, &pcm, &c) == kAudioConverterErr_FormatNotSupported)
        #expect(AudioConverterNew(&pcm, &qdesign, &c) == kAudioConverterErr_FormatNotSupported)
        #expect(AudioConverterNew(&ima, &law, &c) == kAudioConverterErr_FormatNotSupported)
        #expect(c == nil)
    }

    /// The codec converter's properties: the completed compressed format, packet sizes, and no cookie.
    @Test func codecConverterProperties() throws {
        var pcm = OCAFormat.linearPCM(sampleRate: 44100, channels: 2, bitsPerChannel: 32, isFloat: true, interleaved: true)
        var ima = AudioStreamBasicDescription(mSampleRate: 44100, mFormatID: kAudioFormatAppleIMA4, mFormatFlags: 0, mBytesPerPacket: 0,
                                              mFramesPerPacket: 0, mBytesPerFrame: 0, mChannelsPerFrame: 2, mBitsPerChannel: 0, mReserved: 0)
        var c: AudioConverterRef?
        try #require(AudioConverterNew(&pcm, &ima, &c) == noErr)
        defer { AudioConverterDispose(c!) }
        var out = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        #expect(AudioConverterGetProperty(c!, kAudioConverterCurrentOutputStreamDescription, &size, &out) == noErr)
        #expect(out.mFramesPerPacket == 64 && out.mBytesPerPacket == 68)
        var maxPacket: UInt32 = 0
        size = 4
        #expect(AudioConverterGetProperty(c!, kAudioConverterPropertyMaximumOutputPacketSize, &size, &maxPacket) == noErr)
        #expect(maxPacket == 68)
        size = 0
        var writable = DarwinBoolean(false)
        #expect(AudioConverterGetPropertyInfo(c!, kAudioConverterCompressionMagicCookie, &size, &writable) == noErr)
        #expect(size == 0 && !writable.boolValue)
        #expect(AudioConverterGetPropertyInfo(c!, kAudioConverterEncodeBitRate, &size, nil) == kAudioConverterErr_PropertyNotSupported)
    }
}

/// Audio Format Services' codec properties and the codec components, as clients query them.
@Suite struct CodecDiscoveryTests {
    @Test func formatListAndFirstPlayableFormat() {
        var info = AudioFormatInfo(mASBD: AudioStreamBasicDescription(mSampleRate: 44100, mFormatID: kAudioFormatMPEGLayer3, mFormatFlags: 0,
                                                                      mBytesPerPacket: 0, mFramesPerPacket: 0, mBytesPerFrame: 0,
                                                                      mChannelsPerFrame: 2, mBitsPerChannel: 0, mReserved: 0),
                                   mMagicCookie: UnsafeRawPointer(bitPattern: 1)!, mMagicCookieSize: 0)
        var size: UInt32 = 0
        #expect(AudioFormatGetPropertyInfo(kAudioFormatProperty_FormatList, UInt32(MemoryLayout<AudioFormatInfo>.size), &info, &size) == noErr)
        #expect(size == UInt32(MemoryLayout<AudioFormatListItem>.size))
        var item = AudioFormatListItem()
        #expect(AudioFormatGetProperty(kAudioFormatProperty_FormatList, UInt32(MemoryLayout<AudioFormatInfo>.size), &info, &size, &item) == noErr)
        #expect(item.mASBD.mFramesPerPacket == 1152 && item.mChannelLayoutTag == kAudioChannelLayoutTag_Stereo)
        // The first format of a list something here can decode.
        var qdesign = item
        qdesign.mASBD.mFormatID = kAudioFormatQDesign2
        var list = [qdesign, item]
        var index: UInt32 = 99
        size = 4
        #expect(AudioFormatGetProperty(kAudioFormatProperty_FirstPlayableFormatFromList, UInt32(2 * MemoryLayout<AudioFormatListItem>.size),
                                       &list, &size, &index) == noErr && index == 1)
    }

    @Test func encodersDecodersAndTheirComponents() {
        var id = kAudioFormatAppleIMA4
        var size: UInt32 = 0
        #expect(AudioFormatGetPropertyInfo(kAudioFormatProperty_Encoders, 4, &id, &size) == noErr && size == UInt32(MemoryLayout<AudioClassDescription>.size))
        var cls = AudioClassDescription()
        #expect(AudioFormatGetProperty(kAudioFormatProperty_Encoders, 4, &id, &size, &cls) == noErr)
        #expect(cls.mType == kAudioEncoderComponentType && cls.mSubType == kAudioFormatAppleIMA4 && cls.mManufacturer == kAudioUnitManufacturer_Apple)
        var mp3 = kAudioFormatMPEGLayer3
        #expect(AudioFormatGetPropertyInfo(kAudioFormatProperty_Encoders, 4, &mp3, &size) == kAudioFormatUnsupportedDataFormatError)
        #expect(AudioFormatGetPropertyInfo(kAudioFormatProperty_Decoders, 4, &mp3, &size) == noErr)
        // The same codecs as components: found, named, and instantiable as AudioCodecs.
        var d = AudioComponentDescription(componentType: kAudioDecoderComponentType, componentSubType: kAudioFormatMPEGLayer3,
                                          componentManufacturer: 0, componentFlags: 0, componentFlagsMask: 0)
        let decoder = AudioComponentFindNext(nil, &d)
        #expect(decoder != nil)
        d.componentType = kAudioEncoderComponentType
        #expect(AudioComponentFindNext(nil, &d) == nil)
        d.componentSubType = 0
        #expect(AudioComponentCount(&d) >= 3)
        if let decoder {
            var instance: AudioComponentInstance?
            #expect(AudioComponentInstanceNew(decoder, &instance) == noErr)
            if let instance {
                #expect(AudioComponentInstanceGetComponent(instance) == decoder)
                #expect(AudioComponentInstanceDispose(instance) == noErr)
                #expect(AudioComponentInstanceDispose(instance) == badComponentInstance)
            }
        }
    }

    @Test func id3TagSizeAndDictionary() {
        let frame: [UInt8] = Array("TIT2".utf8) + [0, 0, 0, 6, 0, 0, 0] + Array("Hello".utf8)
        let tag: [UInt8] = Array("ID3".utf8) + [3, 0, 0, 0, 0, 0, UInt8(frame.count)] + frame
        var header = Array(tag.prefix(10))
        var tagSize: UInt32 = 0
        var size: UInt32 = 4
        #expect(AudioFormatGetProperty(kAudioFormatProperty_ID3TagSize, 10, &header, &size, &tagSize) == noErr && Int(tagSize) == tag.count)
        var bytes = tag
        var dictionary: CFDictionary?
        size = UInt32(MemoryLayout<CFDictionary?>.size)
        #expect(AudioFormatGetProperty(kAudioFormatProperty_ID3TagToDictionary, UInt32(bytes.count), &bytes, &size, &dictionary) == noErr)
        #expect((dictionary as? [String: Any])?["title"] as? String == "Hello")
    }
}
