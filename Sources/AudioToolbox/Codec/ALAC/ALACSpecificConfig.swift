/// Apple Lossless's magic cookie: the 24-byte ALACSpecificConfig (big-endian in files), optionally followed by
/// a 'chan' atom naming the channel layout.
struct ALACSpecificConfig: Equatable {
    /// Frames in every packet except a stream's last, which says its own count (the partial-frame flag).
    var frameLength: UInt32 = 4096
    /// Must be 0: later versions are not defined.
    var compatibleVersion: UInt8 = 0
    /// Bits per source sample: 16, 20, 24 or 32.
    var bitDepth: UInt8 = 16
    /// The adaptive Golomb coder's mean-update rate (Apple writes 40).
    var pb: UInt8 = 40
    /// The coder's initial mean (Apple writes 10).
    var mb: UInt8 = 10
    /// The coder's largest Rice parameter (Apple writes 14).
    var kb: UInt8 = 14
    /// Channels, 1 to 8.
    var numChannels: UInt8 = 2
    /// Unused by the format; Apple writes 255.
    var maxRun: UInt16 = 255
    /// The largest packet in the stream, 0 if unknown.
    var maxFrameBytes: UInt32 = 0
    /// Average bits per second, 0 if unknown.
    var avgBitRate: UInt32 = 0
    /// Frames per second.
    var sampleRate: UInt32 = 44100
    /// The layout tag of the cookie's 'chan' atom, when it had one (decoding does not need it).
    var channelLayoutTag: UInt32? = nil

    /// Bytes in the bare config.
    static let byteCount = 24
    /// The largest frameLength accepted: it sizes the codec's buffers, so a hostile cookie must not choose it
    /// freely (Apple's encoder and FFmpeg's write 4096).
    static let maxFrameLength: UInt32 = 1 << 16
    /// The layout ALAC uses for each channel count (ALACChannelLayoutTags): the bitstream's channel order.
    static let channelLayoutTags: [UInt32] = [
        100 << 16 | 1, // Mono: C
        101 << 16 | 2, // Stereo: L R
        113 << 16 | 3, // MPEG_3_0_B: C L R
        116 << 16 | 4, // MPEG_4_0_B: C L R Cs
        120 << 16 | 5, // MPEG_5_0_D: C L R Ls Rs
        124 << 16 | 6, // MPEG_5_1_D: C L R Ls Rs LFE
        142 << 16 | 7, // AAC_6_1: C L R Ls Rs Cs LFE
        127 << 16 | 8, // MPEG_7_1_B: C Lc Rc L R Ls Rs LFE
    ]

    /// A config with every field given (defaults are Apple's encoder values for 16-bit stereo at 44.1 kHz).
    init(frameLength: UInt32 = 4096, compatibleVersion: UInt8 = 0, bitDepth: UInt8 = 16, pb: UInt8 = 40,
         mb: UInt8 = 10, kb: UInt8 = 14, numChannels: UInt8 = 2, maxRun: UInt16 = 255, maxFrameBytes: UInt32 = 0,
         avgBitRate: UInt32 = 0, sampleRate: UInt32 = 44100, channelLayoutTag: UInt32? = nil) {
        self.frameLength = frameLength
        self.compatibleVersion = compatibleVersion
        self.bitDepth = bitDepth
        self.pb = pb
        self.mb = mb
        self.kb = kb
        self.numChannels = numChannels
        self.maxRun = maxRun
        self.maxFrameBytes = maxFrameBytes
        self.avgBitRate = avgBitRate
        self.sampleRate = sampleRate
        self.channelLayoutTag = channelLayoutTag
    }

    /// Parses a cookie in any form Apple's decoder takes: the bare config, or the config behind a 'frma' atom
    /// and/or an 'alac' atom header (QuickTime/MP4 sample entries, CAF 'kuki' chunks from older encoders),
    /// optionally followed by a 'chan' atom; then checks every field.
    init(cookie: some Collection<UInt8>) throws(ALACError) {
        // Only the leading atoms matter; copying a bounded prefix keeps a huge input from costing memory.
        let bytes = Array(cookie.prefix(12 + 12 + Self.byteCount + 24))
        var offset = 0
        if Self.atom(bytes, at: offset, is: "frma") { offset += 12 }
        if Self.atom(bytes, at: offset, is: "alac") { offset += 12 }
        guard bytes.count - offset >= Self.byteCount else { throw .invalidCookie }
        let b = offset
        self.init(frameLength: Self.be32(bytes, b), compatibleVersion: bytes[b + 4], bitDepth: bytes[b + 5],
                  pb: bytes[b + 6], mb: bytes[b + 7], kb: bytes[b + 8], numChannels: bytes[b + 9],
                  maxRun: UInt16(bytes[b + 10]) << 8 | UInt16(bytes[b + 11]), maxFrameBytes: Self.be32(bytes, b + 12),
                  avgBitRate: Self.be32(bytes, b + 16), sampleRate: Self.be32(bytes, b + 20))
        offset += Self.byteCount
        // ALACChannelLayoutInfo: size 24, 'chan', version/flags, tag, two reserved words.
        if bytes.count - offset >= 24, Self.atom(bytes, at: offset, is: "chan"), Self.be32(bytes, offset) >= 16 {
            channelLayoutTag = Self.be32(bytes, offset + 12)
        }
        try validate()
    }

    /// Throws unless every field is one the codec handles; the decoder and encoder rely on these bounds.
    func validate() throws(ALACError) {
        guard frameLength >= 1, frameLength <= Self.maxFrameLength else { throw .invalidCookie }
        guard compatibleVersion == 0 else { throw .unsupported }
        guard bitDepth >= 1, bitDepth <= 32 else { throw .invalidCookie }
        guard [16, 20, 24, 32].contains(bitDepth) else { throw .unsupported }
        guard numChannels >= 1 else { throw .invalidCookie }
        guard numChannels <= 8 else { throw .unsupported }
        // kb 0 leaves the Rice code no suffix bits and kb >= 32 overflows its mask. pb and mb are valid at every
        // 8-bit value: the coder's mean arithmetic is modulo 2^32, as in Apple's, and stays defined.
        guard kb >= 1, kb <= 31 else { throw .invalidCookie }
    }

    /// The bare 24-byte config, big-endian.
    var cookieBytes: [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(Self.byteCount)
        Self.append32(frameLength, to: &out)
        out += [compatibleVersion, bitDepth, pb, mb, kb, numChannels, UInt8(maxRun >> 8), UInt8(maxRun & 0xFF)]
        Self.append32(maxFrameBytes, to: &out)
        Self.append32(avgBitRate, to: &out)
        Self.append32(sampleRate, to: &out)
        return out
    }

    /// The config followed by a 24-byte 'chan' atom carrying `tag`, the 48-byte form Apple's encoder writes
    /// for more than 2 channels.
    func cookieBytes(withChannelLayoutTag tag: UInt32) -> [UInt8] {
        var out = cookieBytes
        Self.append32(24, to: &out)
        out += Array("chan".utf8)
        Self.append32(0, to: &out)
        Self.append32(tag, to: &out)
        Self.append32(0, to: &out)
        Self.append32(0, to: &out)
        return out
    }

    /// The cookie as Apple's encoder vends it: 24 bytes for mono and stereo, with the channel count's
    /// layout atom for more.
    var magicCookie: [UInt8] {
        guard numChannels > 2, let tag = Self.channelLayoutTag(forChannels: Int(numChannels)) else { return cookieBytes }
        return cookieBytes(withChannelLayoutTag: tag)
    }

    /// The layout tag ALAC uses for `channels` (1...8), the bitstream's channel order; nil outside that range.
    static func channelLayoutTag(forChannels channels: Int) -> UInt32? {
        channels >= 1 && channels <= channelLayoutTags.count ? channelLayoutTags[channels - 1] : nil
    }

    /// Whether `bytes` holds an atom header of type `type` at `offset` (size word, then the four-character type).
    private static func atom(_ bytes: [UInt8], at offset: Int, is type: String) -> Bool {
        bytes.count - offset >= 12 && bytes[(offset + 4)..<(offset + 8)].elementsEqual(type.utf8)
    }

    /// The big-endian 32-bit word at `offset`.
    private static func be32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }

    /// Appends `value` big-endian.
    private static func append32(_ value: UInt32, to out: inout [UInt8]) {
        out += [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
