/// Opus ('opus') through Debian's libopus, both ways: 1-8 channels at 48 kHz (more than two in mapping family 1,
/// Vorbis's channel order), 20 ms (960-frame) packets when encoding, any packet duration when decoding; Float32
/// PCM; the OpusHead header as magic cookie and its pre-skip as priming.
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
        e.maximumEncodeChannels = 8
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

extension OpusCodec {
    /// For each channel of Vorbis's order for `labels.count` channels (RFC 7845 §5.1.1.2, Apple's Ogg_ layout tags),
    /// the index in `labels` it comes from: the same label first, else a surround channel of the same side (Apple's
    /// 5.0, 5.1 and 4.0 Ogg tags name rear surrounds where MPEG 5.1 and quadraphonic name surrounds). Nil when a
    /// channel finds no source.
    static func vorbisOrder(from labels: [AudioChannelLabel]) -> [Int]? {
        var head = OpusHeader(channels: labels.count, preSkip: 0, inputSampleRate: 48000)
        head.mappingFamily = 1
        guard let tag = head.channelLayoutTag, let target = ChannelLayoutCatalog.labels(forTag: tag), target.count == labels.count else { return nil }
        let sameSide: [AudioChannelLabel: AudioChannelLabel] = [
            kAudioChannelLabel_LeftSurround: kAudioChannelLabel_RearSurroundLeft, kAudioChannelLabel_RightSurround: kAudioChannelLabel_RearSurroundRight,
            kAudioChannelLabel_RearSurroundLeft: kAudioChannelLabel_LeftSurround, kAudioChannelLabel_RearSurroundRight: kAudioChannelLabel_RightSurround]
        var order = [Int?](repeating: nil, count: target.count)
        var used = Set<Int>()
        for (i, t) in target.enumerated() {
            if let j = labels.firstIndex(of: t), !used.contains(j) { order[i] = j; used.insert(j) }
        }
        for (i, t) in target.enumerated() where order[i] == nil {
            guard let alt = sameSide[t], let j = labels.firstIndex(of: alt), !used.contains(j) else { return nil }
            order[i] = j
            used.insert(j)
        }
        return order.map { $0! }
    }
}
