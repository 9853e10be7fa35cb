/// ALAC packets to interleaved PCM through the native decoder: packed Int16 for 16-bit streams (a layout the
/// converter's direct kernels take to any client format without a Double pass; the decoder's Int32 narrowed exactly),
/// else Int32 at the stream's depth. The stream's configuration comes from the cookie (or, until one is set, from
/// the description).
final class ALACPacketDecoder: PacketDecoder {
    private(set) var pcmFormat: AudioStreamBasicDescription
    private(set) var maximumFramesPerPacket: Int
    private var decoder: ALACDecoder
    /// The decoder's Int32 output for a 16-bit stream, narrowed into the caller's buffer.
    private var staging = Int16Staging()

    init(format: AudioStreamBasicDescription, cookie: [UInt8]?) throws(OSStatusError) {
        guard let config = ALACCodec.config(format, cookie) else { throw OSStatusError(kAudioConverterErr_FormatNotSupported) }
        do throws(ALACError) { decoder = try ALACDecoder(config: config) } catch { throw OSStatusError(kAudioConverterErr_FormatNotSupported) }
        maximumFramesPerPacket = Int(config.frameLength)
        pcmFormat = staging.configure(bits: Int(config.bitDepth), rate: Double(config.sampleRate), channels: Int(config.numChannels),
                                      frames: Int(config.frameLength))
    }

    func decode(_ data: UnsafeRawBufferPointer, packetCount: Int, into pcm: UnsafeMutableRawPointer,
                capacityFrames: Int) throws(OSStatusError) -> Int {
        guard data.count > 0 else { return 0 }
        let target = staging.buffer ?? pcm.assumingMemoryBound(to: Int32.self)
        switch decoder.decode(data, into: target, capacityFrames: staging.buffer == nil ? capacityFrames : min(capacityFrames, staging.frames)) {
        case .success(let frames):
            staging.narrow(frames: frames, into: pcm)
            return frames
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
        pcmFormat = staging.configure(bits: Int(config.bitDepth), rate: Double(config.sampleRate), channels: Int(config.numChannels),
                                      frames: Int(config.frameLength))
    }
}
