/// AMR frames in storage format (RFC 4867 §5.3, the .amr file's and 3GP's sample layout): a ToC byte
/// (padding bit, four-bit frame type, quality bit, two padding bits) and the frame type's speech bits.
/// Every frame, NO_DATA included, stands for 20 ms: 160 samples at 8 kHz (narrowband), 320 at 16 kHz (wideband).
enum AMRFrame {
    /// Bytes of a narrowband frame with its ToC byte, by frame type: modes 4.75-12.2 kb/s, SID, three
    /// other systems' SID frames (no payload here), reserved, NO_DATA.
    static let narrowbandSizes: [Int] = [13, 14, 16, 18, 20, 21, 27, 32, 6, 1, 1, 1, 1, 1, 1, 1]
    /// Bytes of a wideband frame with its ToC byte: modes 6.60-23.85 kb/s, SID, reserved, SPEECH_LOST, NO_DATA.
    static let widebandSizes: [Int] = [18, 24, 33, 37, 41, 47, 51, 59, 61, 6, 1, 1, 1, 1, 1, 1]

    /// The whole frame's size (ToC byte included) that a ToC byte announces.
    static func size(toc: UInt8, wideband: Bool) -> Int {
        (wideband ? widebandSizes : narrowbandSizes)[Int(toc >> 3) & 0x0F]
    }

    /// Samples one frame decodes to.
    static func samples(wideband: Bool) -> Int { wideband ? 320 : 160 }

    /// The file magic of a .amr file (RFC 4867 §5.1): single-channel narrowband or wideband.
    static let narrowbandMagic = Array("#!AMR\n".utf8)
    static let widebandMagic = Array("#!AMR-WB\n".utf8)
    /// The multichannel variants' magic, which the codec does not decode (Apple's neither).
    static let multichannelMagic = [Array("#!AMR_MC1.0\n".utf8), Array("#!AMR-WB_MC1.0\n".utf8)]
}
