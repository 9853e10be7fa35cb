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
        // Each packet leans on the ones before (overlap, energy prediction, filters): after a seek the decoder
        // is run over 240 ms first. Measured against the linear decode of a 128 kb/s tone: 80 ms (RFC 7845's
        // minimum) agrees to 37-47 dB, 240 ms to 86 dB or better.
        e.seekPrerollPackets = 12
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

extension OpusCodec {
    /// The 48 kHz frames an Opus packet decodes to, from its TOC byte (and frame count byte, code 3):
    /// RFC 6716 §3.1. Zero for an empty packet, one that is cut short, or one longer than 120 ms.
    static func frames(inPacket head: some Collection<UInt8>) -> Int {
        guard let toc = head.first else { return 0 }
        let config = Int(toc >> 3)
        let frameSize: Int
        switch config {
        case 0..<12: frameSize = [480, 960, 1920, 2880][config & 3]
        case 12..<16: frameSize = [480, 960][config & 1]
        default: frameSize = [120, 240, 480, 960][config & 3]
        }
        let count: Int
        switch toc & 3 {
        case 0: count = 1
        case 1, 2: count = 2
        default:
            guard head.count >= 2 else { return 0 }
            count = Int(head[head.index(after: head.startIndex)] & 0x3F)
        }
        let total = frameSize * count
        return total <= 5760 ? total : 0
    }
}
