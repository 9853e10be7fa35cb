/// ALAC packets to interleaved Int32 at the stream's depth, through the native decoder; the stream's
/// configuration comes from the cookie (or, until one is set, from the description).
final class ALACPacketDecoder: PacketDecoder {
    private(set) var pcmFormat: AudioStreamBasicDescription
    private(set) var maximumFramesPerPacket: Int
    private var decoder: ALACDecoder

    init(format: AudioStreamBasicDescription, cookie: [UInt8]?) throws(OSStatusError) {
        guard let config = ALACCodec.config(format, cookie) else { throw OSStatusError(kAudioConverterErr_FormatNotSupported) }
        do throws(ALACError) { decoder = try ALACDecoder(config: config) } catch { throw OSStatusError(kAudioConverterErr_FormatNotSupported) }
        maximumFramesPerPacket = Int(config.frameLength)
        pcmFormat = CodecPCMFormat.int32(bits: UInt32(config.bitDepth), rate: Double(config.sampleRate), channels: UInt32(config.numChannels))
    }

    func decode(_ data: UnsafeRawBufferPointer, packetCount: Int, into pcm: UnsafeMutableRawPointer,
                capacityFrames: Int) throws(OSStatusError) -> Int {
        guard data.count > 0 else { return 0 }
        switch decoder.decode(data, into: pcm.assumingMemoryBound(to: Int32.self), capacityFrames: capacityFrames) {
        case .success(let frames): return frames
        case .failure: throw OSStatusError(kCodecBadDataStatus)
        }
    }

    func reset() {}

    func setMagicCookie(_ cookie: [UInt8]) throws(OSStatusError) {
        guard let config = try? ALACSpecificConfig(cookie: cookie), let d = try? ALACDecoder(config: config) else {
            throw OSStatusError(kAudioConverterErr_UnspecifiedError)
        }
        decoder = d
        maximumFramesPerPacket = Int(config.frameLength)
        pcmFormat = CodecPCMFormat.int32(bits: UInt32(config.bitDepth), rate: Double(config.sampleRate), channels: UInt32(config.numChannels))
    }
}
