/// Apple Lossless ('alac'), native Swift both ways: packets of 4,096 frames (the last shorter), the
/// 24-byte ALACSpecificConfig (with a channel-layout atom past stereo) as the magic cookie, the source
/// depth in the format flags; decoded to sign-extended Int32 at the stream's depth.
enum ALACCodec {
    static let entry = CodecEntry(
        formatID: kAudioFormatAppleLossless,
        name: "Apple Lossless",
        completeFormat: { f, cookie in complete(f, cookie) },
        makeDecoder: { f, cookie throws(OSStatusError) in try ALACPacketDecoder(format: f, cookie: cookie) },
        makeEncoder: { output, input throws(OSStatusError) in try ALACPacketEncoder(format: output, input: input) })

    /// The depth a cookie or flags give, else 16.
    static func config(_ f: AudioStreamBasicDescription, _ cookie: [UInt8]?) -> ALACSpecificConfig? {
        if let cookie, let c = try? ALACSpecificConfig(cookie: cookie) { return c }
        guard f.mChannelsPerFrame >= 1, f.mChannelsPerFrame <= 8, f.mSampleRate >= 1 else { return nil }
        var c = ALACSpecificConfig()
        c.bitDepth = UInt8(FLACCookie.bits(flags: f.mFormatFlags) ?? 16)
        c.numChannels = UInt8(f.mChannelsPerFrame)
        c.sampleRate = UInt32(f.mSampleRate)
        c.frameLength = f.mFramesPerPacket > 0 ? f.mFramesPerPacket : 4096
        return c
    }

    /// The fields ALAC fixes: no packet size, the frame length, the depth flag (from the cookie when given).
    static func complete(_ f: AudioStreamBasicDescription, _ cookie: [UInt8]?) -> AudioStreamBasicDescription? {
        var d = f
        if let cookie, let c = try? ALACSpecificConfig(cookie: cookie) {
            d.mSampleRate = Double(c.sampleRate)
            d.mChannelsPerFrame = UInt32(c.numChannels)
            d.mFormatFlags = FLACCookie.formatFlags(bits: Int(c.bitDepth))
            d.mFramesPerPacket = c.frameLength
        } else {
            if FLACCookie.bits(flags: d.mFormatFlags) == nil { d.mFormatFlags = kAppleLosslessFormatFlag_16BitSourceData }
            if d.mFramesPerPacket == 0 { d.mFramesPerPacket = 4096 }
        }
        d.mBytesPerPacket = 0
        d.mBytesPerFrame = 0
        d.mBitsPerChannel = 0
        guard d.mChannelsPerFrame <= 8 else { return nil }
        return d
    }
}
