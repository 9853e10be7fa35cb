/// The Opus ID header ("OpusHead", RFC 7845): channels, the pre-skip (frames a decoder drops at the start),
/// the input rate, output gain, mapping family. Opus's magic cookie in CAF and Ogg; MP4's 'dOps' box holds
/// the same fields big-endian, which this reads too.
struct OpusHeader: Equatable {
    var channels: Int
    var preSkip: Int
    var inputSampleRate: UInt32
    var outputGain: Int16 = 0
    var mappingFamily: UInt8 = 0
    /// Mapping families other than 0 (RFC 7845 §5.1.1): the Opus streams in a packet, how many of them are
    /// coupled (stereo), and for each output channel the decoded channel it takes (255: silence).
    var streamCount = 1
    var coupledCount = 0
    var mapping: [UInt8] = []

    init(channels: Int, preSkip: Int, inputSampleRate: UInt32) {
        self.channels = channels
        self.preSkip = preSkip
        self.inputSampleRate = inputSampleRate
    }

    /// Parses "OpusHead" + fields (little-endian) or a dOps body (version 0, big-endian).
    init?(_ b: [UInt8]) {
        if b.count >= 19, Array(b.prefix(8)) == Array("OpusHead".utf8) {
            guard b[8] & 0xF0 == 0, b[9] >= 1 else { return nil }
            channels = Int(b[9])
            preSkip = Int(b[10]) | Int(b[11]) << 8
            inputSampleRate = UInt32(b[12]) | UInt32(b[13]) << 8 | UInt32(b[14]) << 16 | UInt32(b[15]) << 24
            outputGain = Int16(bitPattern: UInt16(b[16]) | UInt16(b[17]) << 8)
            mappingFamily = b[18]
            guard readMappingTable(b, at: 19) else { return nil }
        } else if b.count >= 11, b[0] == 0, b[1] >= 1 {
            channels = Int(b[1])
            preSkip = Int(b[2]) << 8 | Int(b[3])
            inputSampleRate = UInt32(b[4]) << 24 | UInt32(b[5]) << 16 | UInt32(b[6]) << 8 | UInt32(b[7])
            outputGain = Int16(bitPattern: UInt16(b[8]) << 8 | UInt16(b[9]))
            mappingFamily = b[10]
            guard readMappingTable(b, at: 11) else { return nil }
        } else {
            return nil
        }
    }

    /// Family 0 has no table (mono or stereo, one stream); any other family's table follows the fixed fields:
    /// stream count, coupled count, one mapping byte per channel, each naming a decoded channel or 255.
    private mutating func readMappingTable(_ b: [UInt8], at start: Int) -> Bool {
        if mappingFamily == 0 {
            coupledCount = channels == 2 ? 1 : 0
            return channels <= 2
        }
        guard b.count >= start + 2 + channels else { return false }
        streamCount = Int(b[start])
        coupledCount = Int(b[start + 1])
        mapping = Array(b[(start + 2)..<(start + 2 + channels)])
        let decoded = streamCount + coupledCount
        return streamCount >= 1 && coupledCount <= streamCount && decoded <= 255 && mapping.allSatisfy { $0 == 255 || Int($0) < decoded }
    }

    /// "OpusHead" as Ogg and CAF carry it, with the mapping table when the family has one.
    var bytes: [UInt8] {
        var b = Array("OpusHead".utf8) + [1, UInt8(channels)]
        b += [UInt8(preSkip & 0xFF), UInt8(preSkip >> 8)]
        b += (0..<4).map { UInt8(truncatingIfNeeded: inputSampleRate >> (8 * UInt32($0))) }
        b += [UInt8(truncatingIfNeeded: UInt16(bitPattern: outputGain)), UInt8(truncatingIfNeeded: UInt16(bitPattern: outputGain) >> 8), mappingFamily]
        if mappingFamily != 0 { b += [UInt8(streamCount), UInt8(coupledCount)] + mapping }
        return b
    }
}

extension OpusHeader {
    /// The header libopus's surround encoder makes for `channels` (1-8): family 0 for mono and stereo, family 1
    /// with its stream counts and Vorbis-order mapping above (libopus's table); what a file created before the
    /// encoder's own cookie arrives starts with.
    static func standard(channels: Int, preSkip: Int = 312) -> OpusHeader? {
        guard (1...8).contains(channels) else { return nil }
        var head = OpusHeader(channels: channels, preSkip: preSkip, inputSampleRate: 48000)
        guard channels > 2 else { return head }
        let table: [(Int, Int, [UInt8])] = [(2, 1, [0, 2, 1]), (2, 2, [0, 1, 2, 3]), (3, 2, [0, 4, 1, 2, 3]), (4, 2, [0, 4, 1, 2, 3, 5]),
                                            (4, 3, [0, 4, 1, 2, 3, 5, 6]), (5, 3, [0, 6, 1, 2, 3, 4, 5, 7])]
        (head.streamCount, head.coupledCount, head.mapping) = table[channels - 3]
        head.mappingFamily = 1
        return head
    }

    /// The 'dOps' box body (ISO/IEC 14496-12 encapsulation of Opus): OpusHead's fields big-endian after a version
    /// byte, with the mapping table when the family has one.
    var dOpsBody: [UInt8] {
        func be(_ v: UInt64, _ n: Int) -> [UInt8] { (0..<n).map { UInt8(truncatingIfNeeded: v >> (8 * UInt64(n - 1 - $0))) } }
        var b: [UInt8] = [0, UInt8(channels)] + be(UInt64(preSkip), 2) + be(UInt64(inputSampleRate), 4)
        b += be(UInt64(UInt16(bitPattern: outputGain)), 2) + [mappingFamily]
        if mappingFamily != 0 { b += [UInt8(streamCount), UInt8(coupledCount)] + mapping }
        return b
    }

    /// Apple's layout tag for the channel order of mapping family 1 (Vorbis's order, RFC 7845 §5.1.1.2): mono and
    /// stereo as such, 3-8 channels the kAudioChannelLayoutTag_Ogg_ tags; nil for other families and counts.
    var channelLayoutTag: AudioChannelLayoutTag? {
        guard mappingFamily <= 1 else { return nil }
        switch channels {
        case 1: return kAudioChannelLayoutTag_Mono
        case 2: return kAudioChannelLayoutTag_Stereo
        case 3: return kAudioChannelLayoutTag_Ogg_3_0
        case 4: return kAudioChannelLayoutTag_Ogg_4_0
        case 5: return kAudioChannelLayoutTag_Ogg_5_0
        case 6: return kAudioChannelLayoutTag_Ogg_5_1
        case 7: return kAudioChannelLayoutTag_Ogg_6_1
        case 8: return kAudioChannelLayoutTag_Ogg_7_1
        default: return nil
        }
    }

    /// That tag as AudioChannelLayout bytes (no bitmap, no descriptions), for files with more than two channels.
    var channelLayoutBytes: [UInt8]? {
        guard channels > 2, let tag = channelLayoutTag else { return nil }
        return withUnsafeBytes(of: tag) { Array($0) } + [UInt8](repeating: 0, count: 8)
    }
}
