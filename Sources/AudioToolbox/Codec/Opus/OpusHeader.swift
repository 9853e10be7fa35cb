/// The Opus ID header ("OpusHead", RFC 7845): channels, the pre-skip (frames a decoder drops at the start),
/// the input rate, output gain, mapping family. Opus's magic cookie in CAF and Ogg; MP4's 'dOps' box holds
/// the same fields big-endian, which this reads too.
struct OpusHeader: Equatable {
    var channels: Int
    var preSkip: Int
    var inputSampleRate: UInt32
    var outputGain: Int16 = 0
    var mappingFamily: UInt8 = 0

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
        } else if b.count >= 11, b[0] == 0, b[1] >= 1 {
            channels = Int(b[1])
            preSkip = Int(b[2]) << 8 | Int(b[3])
            inputSampleRate = UInt32(b[4]) << 24 | UInt32(b[5]) << 16 | UInt32(b[6]) << 8 | UInt32(b[7])
            outputGain = Int16(bitPattern: UInt16(b[8]) << 8 | UInt16(b[9]))
            mappingFamily = b[10]
        } else {
            return nil
        }
    }

    /// "OpusHead" as Ogg and CAF carry it (mapping family 0: mono or stereo).
    var bytes: [UInt8] {
        var b = Array("OpusHead".utf8) + [1, UInt8(channels)]
        b += [UInt8(preSkip & 0xFF), UInt8(preSkip >> 8)]
        b += (0..<4).map { UInt8(truncatingIfNeeded: inputSampleRate >> (8 * UInt32($0))) }
        b += [UInt8(truncatingIfNeeded: UInt16(bitPattern: outputGain)), UInt8(truncatingIfNeeded: UInt16(bitPattern: outputGain) >> 8), mappingFamily]
        return b
    }
}
