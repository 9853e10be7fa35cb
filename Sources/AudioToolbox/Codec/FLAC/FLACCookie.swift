/// FLAC's magic cookie: the STREAMINFO a decoder needs. Written as a whole MP4 'dfLa' box (size, 'dfLa',
/// version and flags, a last-flagged STREAMINFO metadata block: 50 bytes), the form CAF carries and
/// ffmpeg's CAF reader checks. Read in every form found in the field: that box with or without a
/// leading version word, its body, "fLaC" and its blocks, a metadata block, or the 34 STREAMINFO bytes.
enum FLACCookie {
    /// The cookie for a stream.
    static func bytes(_ info: FLACStreamInfo) -> [UInt8] {
        let box = 8 + 4 + 4 + FLACStreamInfo.byteCount
        return [0, 0, 0, UInt8(box)] + Array("dfLa".utf8) + [0, 0, 0, 0, 0x80, 0, 0, UInt8(FLACStreamInfo.byteCount)] + info.bytes
    }

    /// The STREAMINFO a cookie holds, or nil when it holds none.
    static func streamInfo(_ cookie: [UInt8]) -> FLACStreamInfo? {
        var b = cookie[...]
        let dfLa = Array("dfLa".utf8)
        if b.count >= 12, Array(b[(b.startIndex + 8)..<(b.startIndex + 12)]) == dfLa { b = b.dropFirst(12) }
        else if b.count >= 8, Array(b[(b.startIndex + 4)..<(b.startIndex + 8)]) == dfLa { b = b.dropFirst(8) }
        if b.count >= 4, Array(b.prefix(4)) == Array("fLaC".utf8) {
            b = b.dropFirst(4)
        } else if b.count >= 4 + 4 + FLACStreamInfo.byteCount, b.prefix(4).allSatisfy({ $0 == 0 }) {
            b = b.dropFirst(4)  // the box's version and flags
        }
        // A metadata block header of type 0 (STREAMINFO) and length 34, or the bare body.
        if b.count >= 4 + FLACStreamInfo.byteCount, b[b.startIndex] & 0x7F == 0,
           Array(b[(b.startIndex + 1)..<(b.startIndex + 4)]) == [0, 0, UInt8(FLACStreamInfo.byteCount)] {
            b = b.dropFirst(4)
        }
        guard b.count >= FLACStreamInfo.byteCount, let info = try? FLACStreamInfo(parsing: b), info.isValid else { return nil }
        return info
    }

    /// Apple's source-bit-depth flag for a depth (FLAC uses Apple Lossless's flags).
    static func formatFlags(bits: Int) -> AudioFormatFlags {
        switch bits {
        case ...16: return kAppleLosslessFormatFlag_16BitSourceData
        case 17...20: return kAppleLosslessFormatFlag_20BitSourceData
        case 21...24: return kAppleLosslessFormatFlag_24BitSourceData
        default: return kAppleLosslessFormatFlag_32BitSourceData
        }
    }

    /// The depth a format's flags name (nil when they name none).
    static func bits(flags: AudioFormatFlags) -> Int? {
        switch flags {
        case kAppleLosslessFormatFlag_16BitSourceData: return 16
        case kAppleLosslessFormatFlag_20BitSourceData: return 20
        case kAppleLosslessFormatFlag_24BitSourceData: return 24
        case kAppleLosslessFormatFlag_32BitSourceData: return 32
        default: return nil
        }
    }
}
