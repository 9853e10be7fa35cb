/// FLAC frames to interleaved PCM through the native frame decoder: packed Int16 for 16-bit streams (a layout the
/// converter's direct kernels take to any client format without a Double pass; the frame decoder's Int32 narrowed
/// exactly), else Int32 at the stream's depth. The stream's STREAMINFO comes from the cookie, or from the description
/// when there is none yet.
final class FLACPacketDecoder: PacketDecoder {
    private(set) var pcmFormat: AudioStreamBasicDescription
    private(set) var maximumFramesPerPacket: Int
    private var decoder: FLACFrameDecoder
    private let format: AudioStreamBasicDescription
    /// The frame decoder's Int32 output for a 16-bit stream, narrowed into the caller's buffer.
    private var staging = Int16Staging()

    init(format: AudioStreamBasicDescription, cookie: [UInt8]?) throws(OSStatusError) {
        self.format = format
        guard let info = cookie.flatMap(FLACCookie.streamInfo) ?? Self.streamInfo(format) else {
            throw OSStatusError(kAudioConverterErr_FormatNotSupported)
        }
        decoder = FLACFrameDecoder(streamInfo: info)
        maximumFramesPerPacket = info.maxBlockSize
        pcmFormat = staging.configure(bits: info.bitsPerSample, rate: Double(info.sampleRate), channels: info.channels, frames: info.maxBlockSize)
    }

    /// A STREAMINFO from what a description says: any block size FLAC allows, the flagged depth.
    static func streamInfo(_ f: AudioStreamBasicDescription) -> FLACStreamInfo? {
        guard f.mChannelsPerFrame >= 1, f.mChannelsPerFrame <= 8, f.mSampleRate >= 1, f.mSampleRate < 1_048_576 else { return nil }
        let info = FLACStreamInfo(minBlockSize: 16, maxBlockSize: 65535, sampleRate: Int(f.mSampleRate), channels: Int(f.mChannelsPerFrame),
                                  bitsPerSample: FLACCookie.bits(flags: f.mFormatFlags) ?? 16)
        return info.isValid ? info : nil
    }

    func decode(_ data: UnsafeRawBufferPointer, packetCount: Int, into pcm: UnsafeMutableRawPointer,
                capacityFrames: Int) throws(OSStatusError) -> Int {
        guard data.count > 0 else { return 0 }
        let target = staging.buffer ?? pcm.assumingMemoryBound(to: Int32.self)
        switch decoder.decode(data, into: target, capacityFrames: staging.buffer == nil ? capacityFrames : min(capacityFrames, staging.frames)) {
        case .success(let r):
            staging.narrow(frames: r.frames, into: pcm)
            return r.frames
        case .failure: throw OSStatusError(kCodecBadDataStatus)
        }
    }

    func reset() {}

    func setMagicCookie(_ cookie: [UInt8]) throws(OSStatusError) {
        guard let info = FLACCookie.streamInfo(cookie) else { throw OSStatusError(kAudioConverterErr_UnspecifiedError) }
        decoder = FLACFrameDecoder(streamInfo: info)
        maximumFramesPerPacket = info.maxBlockSize
        pcmFormat = staging.configure(bits: info.bitsPerSample, rate: Double(info.sampleRate), channels: info.channels, frames: info.maxBlockSize)
    }
}
