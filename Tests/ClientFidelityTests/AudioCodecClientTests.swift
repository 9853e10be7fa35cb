// The AudioCodec API as a client drives it: codecs found as 'adec'/'aenc' components, opened with
// AudioComponentInstanceNew, fed with AudioCodecAppendInputData and drained with
// AudioCodecProduceOutputPackets. Apple's API only.
import AudioToolbox
import Foundation
import Testing

private func codecComponent(_ type: OSType, _ format: AudioFormatID) -> AudioComponent? {
    var d = AudioComponentDescription(componentType: type, componentSubType: format, componentManufacturer: kAudioUnitManufacturer_Apple,
                                      componentFlags: 0, componentFlagsMask: 0)
    return AudioComponentFindNext(nil, &d)
}

private func openCodec(_ type: OSType, _ format: AudioFormatID) throws -> AudioCodec {
    let component = try #require(codecComponent(type, format))
    var instance: AudioComponentInstance?
    try #require(AudioComponentInstanceNew(component, &instance) == noErr)
    return try #require(instance)
}

private func int16Stereo(_ rate: Double) -> AudioStreamBasicDescription {
    AudioStreamBasicDescription(mSampleRate: rate, mFormatID: kAudioFormatLinearPCM,
                                mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked,
                                mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4, mChannelsPerFrame: 2,
                                mBitsPerChannel: 16, mReserved: 0)
}

private func float32Stereo(_ rate: Double) -> AudioStreamBasicDescription {
    AudioStreamBasicDescription(mSampleRate: rate, mFormatID: kAudioFormatLinearPCM,
                                mFormatFlags: kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked,
                                mBytesPerPacket: 8, mFramesPerPacket: 1, mBytesPerFrame: 8, mChannelsPerFrame: 2,
                                mBitsPerChannel: 32, mReserved: 0)
}

private func uint32Property(_ codec: AudioCodec, _ id: AudioCodecPropertyID) -> (OSStatus, UInt32) {
    var value: UInt32 = 0
    var size = UInt32(MemoryLayout<UInt32>.size)
    let status = AudioCodecGetProperty(codec, id, &size, &value)
    return (status, value)
}

private func magicCookie(_ codec: AudioCodec) throws -> [UInt8] {
    var size: UInt32 = 0
    try #require(AudioCodecGetPropertyInfo(codec, kAudioCodecPropertyMagicCookie, &size, nil) == noErr)
    var cookie = [UInt8](repeating: 0, count: Int(size))
    if size > 0 { try #require(AudioCodecGetProperty(codec, kAudioCodecPropertyMagicCookie, &size, &cookie) == noErr) }
    return Array(cookie[0..<Int(size)])
}

/// Encodes interleaved PCM bytes in chunks, draining packets after each append, then ends the input.
private func encode(_ codec: AudioCodec, pcm: [UInt8], bytesPerFrame: Int, chunkFrames: Int,
                    maxPacketBytes: Int) throws -> [[UInt8]] {
    var packets: [[UInt8]] = []
    func drain(until done: (UInt32) -> Bool) throws {
        var out = [UInt8](repeating: 0, count: maxPacketBytes * 4)
        var descriptions = [AudioStreamPacketDescription](repeating: AudioStreamPacketDescription(), count: 4)
        while true {
            var bytes = UInt32(out.count), count: UInt32 = 4, status: UInt32 = 0
            try #require(AudioCodecProduceOutputPackets(codec, &out, &bytes, &count, &descriptions, &status) == noErr)
            for d in descriptions.prefix(Int(count)) {
                packets.append(Array(out[Int(d.mStartOffset)..<(Int(d.mStartOffset) + Int(d.mDataByteSize))]))
            }
            if done(status) { return }
        }
    }
    var offset = 0
    while offset < pcm.count {
        var bytes = UInt32(min(chunkFrames * bytesPerFrame, pcm.count - offset))
        var frames = bytes / UInt32(bytesPerFrame)
        try pcm.withUnsafeBytes { p in
            try #require(AudioCodecAppendInputData(codec, p.baseAddress! + offset, &bytes, &frames, nil) == noErr)
        }
        #expect(Int(bytes) == Int(frames) * bytesPerFrame)
        offset += Int(bytes)
        try drain { $0 == kAudioCodecProduceOutputPacketNeedsMoreInputData }
    }
    var zero: UInt32 = 0, none: UInt32 = 0
    var end: UInt8 = 0
    try #require(AudioCodecAppendInputData(codec, &end, &zero, &none, nil) == noErr)
    try drain { $0 == kAudioCodecProduceOutputPacketAtEOF }
    return packets
}

/// Decodes packets one append at a time, collecting `bytesPerFrame`-sized PCM frames.
private func decode(_ codec: AudioCodec, packets: [[UInt8]], bytesPerFrame: Int) throws -> [UInt8] {
    var pcm: [UInt8] = []
    var out = [UInt8](repeating: 0, count: 1000 * bytesPerFrame) // not a multiple of any codec's packet
    func drain() throws {
        while true {
            var bytes = UInt32(out.count), frames: UInt32 = 1000, status: UInt32 = 0
            try #require(AudioCodecProduceOutputPackets(codec, &out, &bytes, &frames, nil, &status) == noErr)
            #expect(Int(bytes) == Int(frames) * bytesPerFrame)
            pcm += out[0..<Int(bytes)]
            if status == kAudioCodecProduceOutputPacketNeedsMoreInputData { return }
            try #require(status == kAudioCodecProduceOutputPacketSuccess || status == kAudioCodecProduceOutputPacketSuccessHasMore)
        }
    }
    for packet in packets {
        var bytes = UInt32(packet.count), count: UInt32 = 1
        var description = AudioStreamPacketDescription(mStartOffset: 0, mVariableFramesInPacket: 0, mDataByteSize: UInt32(packet.count))
        try packet.withUnsafeBytes { p in
            try #require(AudioCodecAppendInputData(codec, p.baseAddress!, &bytes, &count, &description) == noErr)
        }
        #expect(count == 1 && Int(bytes) == packet.count)
        try drain()
    }
    return pcm
}

/// 16-bit stereo test signal: a sine on the left, a deterministic noise on the right.
private func testSignal(frames: Int) -> [Int16] {
    var seed: UInt32 = 12345
    var samples: [Int16] = []
    for i in 0..<frames {
        samples.append(Int16(12000 * sin(2 * Double.pi * 440 * Double(i) / 44100)))
        seed = seed &* 1664525 &+ 1013904223
        samples.append(Int16(truncatingIfNeeded: Int32(bitPattern: seed) >> 18))
    }
    return samples
}

@Suite struct AudioCodecClientTests {
    @Test func losslessAndIMA4CodecsAreComponents() throws {
        for format in [kAudioFormatAppleLossless, kAudioFormatFLAC, kAudioFormatAppleIMA4] {
            for type in [kAudioDecoderComponentType, kAudioEncoderComponentType] {
                let component = try #require(codecComponent(type, format))
                var description = AudioComponentDescription()
                #expect(AudioComponentGetDescription(component, &description) == noErr)
                #expect(description.componentType == type && description.componentSubType == format)
                #expect(description.componentManufacturer == kAudioUnitManufacturer_Apple)
                let codec = try openCodec(type, format)
                #expect(AudioComponentInstanceGetComponent(codec) == component)
                let (status, initialized) = uint32Property(codec, kAudioCodecPropertyIsInitialized)
                #expect(status == noErr && initialized == 0)
                var name: Unmanaged<CFString>?
                var size = UInt32(MemoryLayout<Unmanaged<CFString>?>.size)
                #expect(AudioCodecGetProperty(codec, kAudioCodecPropertyNameCFString, &size, &name) == noErr)
                let text = try #require(name).takeRetainedValue() as String
                #expect(text.hasSuffix(type == kAudioDecoderComponentType ? "Decoder" : "Encoder"))
                #expect(AudioComponentInstanceDispose(codec) == noErr)
            }
        }
        var any = AudioComponentDescription(componentType: kAudioDecoderComponentType, componentSubType: 0,
                                            componentManufacturer: 0, componentFlags: 0, componentFlagsMask: 0)
        #expect(AudioComponentCount(&any) >= 3)
    }

    @Test func alacEncodedThroughComponentDecodesBitExact() throws {
        let frames = 10000 // two whole 4096-frame packets and a partial one
        let samples = testSignal(frames: frames)
        let pcm = samples.withUnsafeBytes { Array($0) }

        let encoder = try openCodec(kAudioEncoderComponentType, kAudioFormatAppleLossless)
        defer { AudioComponentInstanceDispose(encoder) }
        var input = int16Stereo(44100)
        var output = AudioStreamBasicDescription(mSampleRate: 44100, mFormatID: kAudioFormatAppleLossless,
                                                 mFormatFlags: kAppleLosslessFormatFlag_16BitSourceData, mBytesPerPacket: 0,
                                                 mFramesPerPacket: 4096, mBytesPerFrame: 0, mChannelsPerFrame: 2, mBitsPerChannel: 0,
                                                 mReserved: 0)
        #expect(AudioCodecInitialize(encoder, &input, &output, nil, 0) == noErr)
        #expect(uint32Property(encoder, kAudioCodecPropertyIsInitialized).1 == 1)
        #expect(uint32Property(encoder, kAudioCodecPropertyPacketFrameSize).1 == 4096)
        let maxPacket = Int(uint32Property(encoder, kAudioCodecPropertyMaximumPacketByteSize).1)
        #expect(maxPacket >= 4096 * 4)
        let cookie = try magicCookie(encoder)
        #expect(cookie.count >= 24)
        let packets = try encode(encoder, pcm: pcm, bytesPerFrame: 4, chunkFrames: 3000, maxPacketBytes: maxPacket)
        #expect(packets.count == 3)
        // Lossless at this noise level needs fewer bytes than the raw samples.
        #expect(packets.reduce(0) { $0 + $1.count } < pcm.count)

        let decoder = try openCodec(kAudioDecoderComponentType, kAudioFormatAppleLossless)
        defer { AudioComponentInstanceDispose(decoder) }
        var pcmOut = int16Stereo(44100)
        #expect(AudioCodecInitialize(decoder, &output, &pcmOut, cookie, UInt32(cookie.count)) == noErr)
        let decoded = try decode(decoder, packets: packets, bytesPerFrame: 4)
        #expect(decoded.count == pcm.count)
        #expect(decoded == pcm)
    }

    @Test func opusFilePacketsDecodeAsTheConverterDoes() throws {
        // A 0.5 s Opus CAF written by ExtAudioFile, then read back as packets.
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("codec-client-\(UUID().uuidString).caf")
        defer { try? FileManager.default.removeItem(at: url) }
        var opus = AudioStreamBasicDescription()
        opus.mSampleRate = 48000
        opus.mFormatID = kAudioFormatOpus
        opus.mChannelsPerFrame = 2
        var file: ExtAudioFileRef?
        try #require(ExtAudioFileCreateWithURL(url as CFURL, kAudioFileCAFType, &opus, nil, AudioFileFlags.eraseFile.rawValue, &file) == noErr)
        var client = float32Stereo(48000)
        try #require(ExtAudioFileSetProperty(file!, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout.size(ofValue: client)), &client) == noErr)
        var wave = [Float](repeating: 0, count: 24000 * 2)
        for i in 0..<24000 {
            wave[2 * i] = Float(0.4 * sin(2 * Double.pi * 330 * Double(i) / 48000))
            wave[2 * i + 1] = Float(0.3 * sin(2 * Double.pi * 550 * Double(i) / 48000))
        }
        try wave.withUnsafeMutableBytes { w in
            var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 2, mDataByteSize: UInt32(w.count), mData: w.baseAddress))
            try #require(ExtAudioFileWrite(file!, 24000, &list) == noErr)
        }
        try #require(ExtAudioFileDispose(file!) == noErr)

        var audioFile: AudioFileID?
        try #require(AudioFileOpenURL(url as CFURL, .readPermission, kAudioFileCAFType, &audioFile) == noErr)
        defer { AudioFileClose(audioFile!) }
        var format = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        try #require(AudioFileGetProperty(audioFile!, kAudioFilePropertyDataFormat, &size, &format) == noErr)
        var cookieSize: UInt32 = 0
        var writable: UInt32 = 0
        try #require(AudioFileGetPropertyInfo(audioFile!, kAudioFilePropertyMagicCookieData, &cookieSize, &writable) == noErr)
        var cookie = [UInt8](repeating: 0, count: Int(cookieSize))
        try #require(AudioFileGetProperty(audioFile!, kAudioFilePropertyMagicCookieData, &cookieSize, &cookie) == noErr)
        var packetCount: UInt64 = 0
        size = 8
        try #require(AudioFileGetProperty(audioFile!, kAudioFilePropertyAudioDataPacketCount, &size, &packetCount) == noErr)
        var packets: [[UInt8]] = []
        for index in 0..<Int64(packetCount) {
            var bytes: UInt32 = 4000, count: UInt32 = 1
            var data = [UInt8](repeating: 0, count: 4000)
            var description = AudioStreamPacketDescription()
            try #require(AudioFileReadPacketData(audioFile!, false, &bytes, &description, index, &count, &data) == noErr)
            packets.append(Array(data[0..<Int(bytes)]))
        }
        #expect(packets.count >= 25)

        // Through the 'adec' component.
        let decoder = try openCodec(kAudioDecoderComponentType, kAudioFormatOpus)
        defer { AudioComponentInstanceDispose(decoder) }
        var pcmFormat = float32Stereo(48000)
        #expect(AudioCodecInitialize(decoder, &format, &pcmFormat, cookie, UInt32(cookie.count)) == noErr)
        let viaCodec = try decode(decoder, packets: packets, bytesPerFrame: 8)
        #expect(viaCodec.count == packets.count * 960 * 8)

        // Through AudioConverter, the same packets.
        var converter: AudioConverterRef?
        try #require(AudioConverterNew(&format, &pcmFormat, &converter) == noErr)
        defer { AudioConverterDispose(converter!) }
        try #require(AudioConverterSetProperty(converter!, kAudioConverterDecompressionMagicCookie, cookieSize, cookie) == noErr)
        final class Feed {
            var packets: [[UInt8]]
            var next = 0
            var current: [UInt8] = []
            var description = AudioStreamPacketDescription()
            init(_ packets: [[UInt8]]) { self.packets = packets }
        }
        let feed = Feed(packets)
        var viaConverter: [UInt8] = []
        var out = [UInt8](repeating: 0, count: 4096 * 8)
        while true {
            var frames: UInt32 = 4096
            let status = out.withUnsafeMutableBytes { o -> OSStatus in
                var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 2, mDataByteSize: UInt32(o.count), mData: o.baseAddress))
                return AudioConverterFillComplexBuffer(converter!, { _, ioCount, ioData, outDescription, user in
                    let feed = Unmanaged<Feed>.fromOpaque(user!).takeUnretainedValue()
                    guard feed.next < feed.packets.count else { ioCount.pointee = 0; return noErr }
                    feed.current = feed.packets[feed.next]
                    feed.next += 1
                    feed.description = AudioStreamPacketDescription(mStartOffset: 0, mVariableFramesInPacket: 0, mDataByteSize: UInt32(feed.current.count))
                    ioCount.pointee = 1
                    ioData.pointee.mBuffers.mDataByteSize = UInt32(feed.current.count)
                    ioData.pointee.mBuffers.mData = feed.current.withUnsafeMutableBytes { $0.baseAddress }
                    withUnsafeMutablePointer(to: &feed.description) { outDescription?.pointee = $0 }
                    return noErr
                }, Unmanaged.passUnretained(feed).toOpaque(), &frames, &list, nil)
            }
            try #require(status == noErr)
            if frames == 0 { break }
            viaConverter += out[0..<Int(frames) * 8]
        }
        #expect(viaConverter.count == viaCodec.count)
        #expect(viaConverter == viaCodec)
    }

    @Test func imaEncoderAndDecoderTakeConstantSizePacketsWithoutDescriptions() throws {
        let frames = 64 * 40
        let pcm = testSignal(frames: frames).withUnsafeBytes { Array($0) }
        let encoder = try openCodec(kAudioEncoderComponentType, kAudioFormatAppleIMA4)
        defer { AudioComponentInstanceDispose(encoder) }
        var input = int16Stereo(44100)
        var ima = AudioStreamBasicDescription(mSampleRate: 44100, mFormatID: kAudioFormatAppleIMA4, mFormatFlags: 0, mBytesPerPacket: 68,
                                              mFramesPerPacket: 64, mBytesPerFrame: 0, mChannelsPerFrame: 2, mBitsPerChannel: 0, mReserved: 0)
        #expect(AudioCodecInitialize(encoder, &input, &ima, nil, 0) == noErr)
        let packets = try encode(encoder, pcm: pcm, bytesPerFrame: 4, chunkFrames: 1000, maxPacketBytes: 68)
        #expect(packets.count == 40)
        #expect(packets.allSatisfy { $0.count == 68 }) // 34 bytes per channel

        // All packets in one append, no descriptions: CBR packets are cut by mBytesPerPacket.
        let decoder = try openCodec(kAudioDecoderComponentType, kAudioFormatAppleIMA4)
        defer { AudioComponentInstanceDispose(decoder) }
        var pcmOut = int16Stereo(44100)
        var format = ima
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        #expect(AudioCodecGetProperty(encoder, kAudioCodecPropertyCurrentOutputFormat, &size, &format) == noErr)
        #expect(format.mBytesPerPacket == 68 && format.mFramesPerPacket == 64)
        #expect(AudioCodecInitialize(decoder, &format, &pcmOut, nil, 0) == noErr)
        let all = packets.flatMap { $0 }
        var bytes = UInt32(all.count), count: UInt32 = 0
        #expect(AudioCodecAppendInputData(decoder, all, &bytes, &count, nil) == noErr)
        #expect(count == 40 && bytes == UInt32(all.count))
        #expect(uint32Property(decoder, kAudioCodecPropertyUsedInputBufferSize).1 == UInt32(all.count))
        var out = [UInt8](repeating: 0, count: frames * 4)
        var outBytes = UInt32(out.count), outFrames = UInt32(frames), status: UInt32 = 0
        #expect(AudioCodecProduceOutputPackets(decoder, &out, &outBytes, &outFrames, nil, &status) == noErr)
        #expect(outFrames == UInt32(frames) && status == kAudioCodecProduceOutputPacketSuccess)
        // IMA4 is lossy: once its step size has adapted (after the first packet) the sine channel comes back
        // within a few hundred 16-bit counts.
        let decoded = out.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        let original = pcm.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        let worst = stride(from: 128, to: original.count, by: 2).map { abs(Int(decoded[$0]) - Int(original[$0])) }.max()!
        #expect(worst < 600)
        #expect(uint32Property(decoder, kAudioCodecPropertyUsedInputBufferSize).1 == 0)
    }

    @Test func statesSizesAndUnknownPropertiesAnswerAppleCodes() throws {
        let decoder = try openCodec(kAudioDecoderComponentType, kAudioFormatAppleLossless)
        defer { AudioComponentInstanceDispose(decoder) }
        var byte: UInt8 = 0
        var bytes: UInt32 = 1, packets: UInt32 = 1, status: UInt32 = 0
        #expect(AudioCodecAppendInputData(decoder, &byte, &bytes, &packets, nil) == kAudioCodecStateError)
        #expect(AudioCodecProduceOutputPackets(decoder, &byte, &bytes, &packets, nil, &status) == kAudioCodecStateError)
        #expect(AudioCodecReset(decoder) == kAudioCodecStateError)
        #expect(uint32Property(decoder, 0x7a7a7a7a).0 == kAudioCodecUnknownPropertyError)
        var size: UInt32 = 0
        #expect(AudioCodecGetPropertyInfo(decoder, 0x7a7a7a7a, &size, nil) == kAudioCodecUnknownPropertyError)
        var small: UInt16 = 0
        size = 2
        #expect(AudioCodecGetProperty(decoder, kAudioCodecPropertyIsInitialized, &size, &small) == kAudioCodecBadPropertySizeError)
        // A decoder's input must be its own format; the PCM side must be linear PCM.
        var wrong = float32Stereo(44100)
        #expect(AudioCodecSetProperty(decoder, kAudioCodecPropertyCurrentInputFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &wrong)
                == kAudioCodecUnsupportedFormatError)
        var alac = AudioStreamBasicDescription(mSampleRate: 44100, mFormatID: kAudioFormatAppleLossless,
                                               mFormatFlags: kAppleLosslessFormatFlag_16BitSourceData, mBytesPerPacket: 0,
                                               mFramesPerPacket: 4096, mBytesPerFrame: 0, mChannelsPerFrame: 2, mBitsPerChannel: 0, mReserved: 0)
        #expect(AudioCodecSetProperty(decoder, kAudioCodecPropertyCurrentInputFormat, 8, &alac) == kAudioCodecBadPropertySizeError)
        #expect(AudioCodecSetProperty(decoder, kAudioCodecPropertyCurrentInputFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &alac) == noErr)
        var out = int16Stereo(44100)
        #expect(AudioCodecSetProperty(decoder, kAudioCodecPropertyCurrentOutputFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &out) == noErr)
        var writable: DarwinBoolean = false
        #expect(AudioCodecGetPropertyInfo(decoder, kAudioCodecPropertyCurrentInputFormat, &size, &writable) == noErr)
        #expect(size == UInt32(MemoryLayout<AudioStreamBasicDescription>.size) && writable.boolValue)
        // Formats from properties, no cookie: the decoder configures from the description.
        #expect(AudioCodecInitialize(decoder, nil, nil, nil, 0) == noErr)
        #expect(uint32Property(decoder, kAudioCodecPropertyIsInitialized).1 == 1)
        #expect(AudioCodecGetPropertyInfo(decoder, kAudioCodecPropertyCurrentInputFormat, &size, &writable) == noErr)
        #expect(!writable.boolValue)
        #expect(AudioCodecSetProperty(decoder, kAudioCodecPropertyCurrentOutputFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &out)
                == kAudioCodecStateError)
        var current = AudioStreamBasicDescription()
        size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        #expect(AudioCodecGetProperty(decoder, kAudioCodecPropertyCurrentOutputFormat, &size, &current) == noErr)
        #expect(current.mBitsPerChannel == 16 && current.mChannelsPerFrame == 2 && current.mSampleRate == 44100)
        // Nothing appended: no output, more input needed; a buffer smaller than a frame is refused.
        var pcm = [UInt8](repeating: 0, count: 64)
        bytes = 64; packets = 16
        #expect(AudioCodecProduceOutputPackets(decoder, &pcm, &bytes, &packets, nil, &status) == noErr)
        #expect(packets == 0 && bytes == 0 && status == kAudioCodecProduceOutputPacketNeedsMoreInputData)
        bytes = 2; packets = 16
        #expect(AudioCodecProduceOutputPackets(decoder, &pcm, &bytes, &packets, nil, &status) == kAudioCodecNotEnoughBufferSpaceError)
        #expect(AudioCodecReset(decoder) == noErr)
        #expect(AudioCodecUninitialize(decoder) == noErr)
        #expect(uint32Property(decoder, kAudioCodecPropertyIsInitialized).1 == 0)
        // Variable-size packets need descriptions.
        #expect(AudioCodecInitialize(decoder, nil, nil, nil, 0) == noErr)
        bytes = 1; packets = 1
        #expect(AudioCodecAppendInputData(decoder, &byte, &bytes, &packets, nil) == kAudio_ParamError)
    }

    @Test func encoderListsFormatsAndBitRates() throws {
        let encoder = try openCodec(kAudioEncoderComponentType, kAudioFormatOpus)
        defer { AudioComponentInstanceDispose(encoder) }
        var size: UInt32 = 0
        #expect(AudioCodecGetPropertyInfo(encoder, kAudioCodecPropertySupportedOutputFormats, &size, nil) == noErr)
        var formats = [AudioStreamBasicDescription](repeating: AudioStreamBasicDescription(), count: Int(size) / MemoryLayout<AudioStreamBasicDescription>.size)
        #expect(AudioCodecGetProperty(encoder, kAudioCodecPropertySupportedOutputFormats, &size, &formats) == noErr)
        #expect(formats.map(\.mFormatID) == [kAudioFormatOpus])
        var input = float32Stereo(48000)
        var output = AudioStreamBasicDescription()
        output.mFormatID = kAudioFormatOpus
        #expect(AudioCodecInitialize(encoder, &input, &output, nil, 0) == noErr)
        var current = AudioStreamBasicDescription()
        size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        #expect(AudioCodecGetProperty(encoder, kAudioCodecPropertyCurrentOutputFormat, &size, &current) == noErr)
        #expect(current.mSampleRate == 48000 && current.mChannelsPerFrame == 2 && current.mFramesPerPacket == 960)
        #expect(AudioCodecGetPropertyInfo(encoder, kAudioCodecPropertyApplicableBitRateRange, &size, nil) == noErr)
        var ranges = [AudioValueRange](repeating: AudioValueRange(), count: Int(size) / MemoryLayout<AudioValueRange>.size)
        #expect(AudioCodecGetProperty(encoder, kAudioCodecPropertyApplicableBitRateRange, &size, &ranges) == noErr)
        #expect(!ranges.isEmpty)
        var rate: UInt32 = 64000
        #expect(AudioCodecSetProperty(encoder, kAudioCodecPropertyCurrentTargetBitRate, 4, &rate) == noErr)
        #expect(uint32Property(encoder, kAudioCodecPropertyCurrentTargetBitRate).1 == 64000)
        // Lossless encoders have no bit rate to set.
        let alac = try openCodec(kAudioEncoderComponentType, kAudioFormatAppleLossless)
        defer { AudioComponentInstanceDispose(alac) }
        #expect(uint32Property(alac, kAudioCodecPropertyCurrentTargetBitRate).0 == kAudioCodecUnknownPropertyError)
    }

    @Test func flacThroughBufferListsIsBitExact() throws {
        let frames = 9000
        let pcm = testSignal(frames: frames).withUnsafeBytes { Array($0) }
        let encoder = try openCodec(kAudioEncoderComponentType, kAudioFormatFLAC)
        defer { AudioComponentInstanceDispose(encoder) }
        var input = int16Stereo(44100)
        var flac = AudioStreamBasicDescription(mSampleRate: 44100, mFormatID: kAudioFormatFLAC, mFormatFlags: kAppleLosslessFormatFlag_16BitSourceData,
                                               mBytesPerPacket: 0, mFramesPerPacket: 0, mBytesPerFrame: 0, mChannelsPerFrame: 2,
                                               mBitsPerChannel: 0, mReserved: 0)
        #expect(AudioCodecInitialize(encoder, &input, &flac, nil, 0) == noErr)
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        #expect(AudioCodecGetProperty(encoder, kAudioCodecPropertyCurrentOutputFormat, &size, &flac) == noErr)
        let maxPacket = Int(uint32Property(encoder, kAudioCodecPropertyMaximumPacketByteSize).1)
        try #require(maxPacket > 0)
        var packets: [[UInt8]] = []
        var out = [UInt8](repeating: 0, count: maxPacket)
        func drain(_ done: UInt32) throws {
            while true {
                var count: UInt32 = 1, status: UInt32 = 0
                var description = AudioStreamPacketDescription()
                let bytes = try out.withUnsafeMutableBytes { o -> UInt32 in
                    var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 0, mDataByteSize: UInt32(o.count), mData: o.baseAddress))
                    try #require(AudioCodecProduceOutputBufferList(encoder, &list, &count, &description, &status) == noErr)
                    return list.mBuffers.mDataByteSize
                }
                if count == 1 {
                    #expect(description.mDataByteSize == bytes)
                    packets.append(Array(out[0..<Int(bytes)]))
                }
                if status == done { return }
            }
        }
        var copy = pcm
        try copy.withUnsafeMutableBytes { p in
            var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 2, mDataByteSize: UInt32(p.count), mData: p.baseAddress))
            var count = UInt32(frames), consumed: UInt32 = 0
            try #require(AudioCodecAppendInputBufferList(encoder, &list, &count, nil, &consumed) == noErr)
            #expect(consumed == UInt32(p.count) && count == UInt32(frames))
        }
        try drain(kAudioCodecProduceOutputPacketNeedsMoreInputData)
        var zero: UInt32 = 0, none: UInt32 = 0
        var end: UInt8 = 0
        try #require(AudioCodecAppendInputData(encoder, &end, &zero, &none, nil) == noErr)
        try drain(kAudioCodecProduceOutputPacketAtEOF)
        #expect(packets.count == (frames + Int(flac.mFramesPerPacket) - 1) / Int(flac.mFramesPerPacket))

        let decoder = try openCodec(kAudioDecoderComponentType, kAudioFormatFLAC)
        defer { AudioComponentInstanceDispose(decoder) }
        let cookie = try magicCookie(encoder)
        var pcmOut = int16Stereo(44100)
        #expect(AudioCodecInitialize(decoder, &flac, &pcmOut, cookie, UInt32(cookie.count)) == noErr)
        let decoded = try decode(decoder, packets: packets, bytesPerFrame: 4)
        #expect(decoded == pcm)
    }
}
