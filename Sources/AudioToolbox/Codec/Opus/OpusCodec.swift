/// Opus ('opus') through Debian's libopus, both ways: mono or stereo at 48 kHz, 20 ms (960-frame) packets
/// when encoding, any packet duration when decoding; Float32 PCM; the OpusHead header as magic cookie and
/// its pre-skip as priming.
enum OpusCodec {
    static let sampleRate = 48000.0
    static let framesPerPacket = 960

    static let entry: CodecEntry = {
        var e = CodecEntry(
            formatID: kAudioFormatOpus,
            name: "Opus",
            completeFormat: { f, cookie in complete(f, cookie) },
            makeDecoder: { f, cookie throws(OSStatusError) in try OpusPacketDecoder(format: f, cookie: cookie) },
            makeEncoder: { output, _ throws(OSStatusError) in try OpusPacketEncoder(format: output) })
        e.encodeSampleRates = [sampleRate]
        e.maximumEncodeChannels = 2
        // Each packet leans on the previous one's overlap: one packet settles the decoder before a seek.
        e.seekPrerollPackets = 4
        return e
    }()

    /// 48 kHz, 960 frames a packet unless the description says otherwise; channels from the cookie.
    static func complete(_ f: AudioStreamBasicDescription, _ cookie: [UInt8]?) -> AudioStreamBasicDescription? {
        var d = f
        if let head = cookie.flatMap(OpusHeader.init) { d.mChannelsPerFrame = UInt32(head.channels) }
        if d.mSampleRate == 0 { d.mSampleRate = sampleRate }
        if d.mFramesPerPacket == 0 { d.mFramesPerPacket = UInt32(framesPerPacket) }
        d.mFormatFlags = 0
        d.mBytesPerPacket = 0
        d.mBytesPerFrame = 0
        d.mBitsPerChannel = 0
        return d
    }
}
