/// FLAC ('flac'), native Swift both ways: packets are FLAC frames, the magic cookie carries STREAMINFO,
/// the format flags the source bit depth (Apple Lossless's flags), decoded to sign-extended Int32.
enum FLACCodec {
    /// Frames per packet the encoder makes (FLAC's usual block size).
    static let blockSize = 4096

    static let entry = CodecEntry(
        formatID: kAudioFormatFLAC,
        name: "FLAC",
        completeFormat: { f, cookie in complete(f, cookie) },
        makeDecoder: { f, cookie throws(OSStatusError) in try FLACPacketDecoder(format: f, cookie: cookie) },
        makeEncoder: { output, input throws(OSStatusError) in try FLACPacketEncoder(format: output, input: input) })

    /// Fills what FLAC fixes: no packet size, the block size as frames per packet, the depth flag; a
    /// cookie's STREAMINFO supplies rate, channels, depth and block size.
    static func complete(_ f: AudioStreamBasicDescription, _ cookie: [UInt8]?) -> AudioStreamBasicDescription? {
        var d = f
        if let info = cookie.flatMap(FLACCookie.streamInfo) {
            d.mSampleRate = Double(info.sampleRate)
            d.mChannelsPerFrame = UInt32(info.channels)
            d.mFormatFlags = FLACCookie.formatFlags(bits: info.bitsPerSample)
            d.mFramesPerPacket = info.minBlockSize == info.maxBlockSize ? UInt32(info.maxBlockSize) : 0
        } else {
            if FLACCookie.bits(flags: d.mFormatFlags) == nil { d.mFormatFlags = kAppleLosslessFormatFlag_16BitSourceData }
            if d.mFramesPerPacket == 0 { d.mFramesPerPacket = UInt32(blockSize) }
        }
        d.mBytesPerPacket = 0
        d.mBytesPerFrame = 0
        d.mBitsPerChannel = 0
        guard d.mChannelsPerFrame <= 8 else { return nil }
        return d
    }
}
