// OpenCoreAudio's own helpers (not Apple API): four-char codes and stream formats built and printed
// the way Apple's tools (afinfo, CAShow) print them.

/// Namespace for OpenCoreAudio's format helpers. Not part of Apple's API.
public enum OCAFormat {
    /// The four-char code of a 4-character ASCII string (`"lpcm"` -> 0x6C70636D).
    public static func fourCharCode(_ string: String) -> FourCharCode {
        var code: FourCharCode = 0
        var count = 0
        for byte in string.utf8.prefix(4) {
            code = code << 8 | FourCharCode(byte)
            count += 1
        }
        while count < 4 {  // pad short codes with spaces, as 'def ' is
            code = code << 8 | 0x20
            count += 1
        }
        return code
    }

    /// The code as Apple's tools print it: `'lpcm'` when all four bytes are printable, else hex.
    public static func string(fromFourCharCode code: FourCharCode) -> String {
        let bytes = [24, 16, 8, 0].map { UInt8((code >> UInt32($0)) & 0xFF) }
        if bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            return "'" + String(decoding: bytes, as: UTF8.self) + "'"
        }
        return String(format: "0x%08X", code)
    }

    /// Linear PCM with the given layout; sizes are derived so the description is consistent.
    public static func linearPCM(
        sampleRate: Double, channels: UInt32, bitsPerChannel: UInt32, isFloat: Bool,
        isSignedInteger: Bool = true, interleaved: Bool, bigEndian: Bool = false
    ) -> AudioStreamBasicDescription {
        var flags: AudioFormatFlags = kAudioFormatFlagIsPacked
        if isFloat { flags |= kAudioFormatFlagIsFloat } else if isSignedInteger { flags |= kAudioFormatFlagIsSignedInteger }
        if !interleaved { flags |= kAudioFormatFlagIsNonInterleaved }
        if bigEndian { flags |= kAudioFormatFlagIsBigEndian }
        let sampleBytes = (bitsPerChannel + 7) / 8
        let frameBytes = interleaved ? sampleBytes * channels : sampleBytes
        return AudioStreamBasicDescription(
            mSampleRate: sampleRate, mFormatID: kAudioFormatLinearPCM, mFormatFlags: flags,
            mBytesPerPacket: frameBytes, mFramesPerPacket: 1, mBytesPerFrame: frameBytes,
            mChannelsPerFrame: channels, mBitsPerChannel: bitsPerChannel, mReserved: 0)
    }

    /// The audio unit canonical format (macOS): Float32, native endian, packed, non-interleaved
    /// unless `interleaved` is true.
    public static func canonical(sampleRate: Double, channels: UInt32, interleaved: Bool = false) -> AudioStreamBasicDescription {
        linearPCM(sampleRate: sampleRate, channels: channels, bitsPerChannel: 32, isFloat: true, interleaved: interleaved)
    }

    /// A one-line description in the layout of Apple's `CAStreamBasicDescription` (used by CAShow):
    /// `2 ch,  44100 Hz, 'lpcm' (0x00000029) 32-bit little-endian float, deinterleaved`.
    public static func describe(_ f: AudioStreamBasicDescription) -> String {
        var s = String(format: "%2u ch, %6.0f Hz, ", f.mChannelsPerFrame, f.mSampleRate)
        s += string(fromFourCharCode: f.mFormatID)
        s += String(format: " (0x%08X) ", f.mFormatFlags)
        guard f.mFormatID == kAudioFormatLinearPCM else {
            s += String(format: "%u bits/channel, %u bytes/packet, %u frames/packet, %u bytes/frame",
                        f.mBitsPerChannel, f.mBytesPerPacket, f.mFramesPerPacket, f.mBytesPerFrame)
            return s
        }
        let flags = f.mFormatFlags
        let fractionBits = (flags & kLinearPCMFormatFlagsSampleFractionMask) >> kLinearPCMFormatFlagsSampleFractionShift
        if fractionBits > 0 {
            s += "\(f.mBitsPerChannel - fractionBits).\(fractionBits)-bit"
        } else {
            s += "\(f.mBitsPerChannel)-bit"
        }
        let interleavedChannels = flags & kAudioFormatFlagIsNonInterleaved != 0 ? 1 : max(f.mChannelsPerFrame, 1)
        let sampleBytes = f.mBytesPerFrame / interleavedChannels
        if sampleBytes > 1 {
            s += flags & kAudioFormatFlagIsBigEndian != 0 ? " big-endian" : " little-endian"
        }
        if flags & kAudioFormatFlagIsFloat != 0 {
            s += " float"
        } else {
            s += flags & kAudioFormatFlagIsSignedInteger != 0 ? " signed integer" : " unsigned integer"
        }
        if sampleBytes * 8 != f.mBitsPerChannel && flags & kAudioFormatFlagIsPacked == 0 {
            s += ", packed in \(sampleBytes) bytes"
            s += flags & kAudioFormatFlagIsAlignedHigh != 0 ? ", high-aligned" : ", low-aligned"
        }
        if flags & kAudioFormatFlagIsNonInterleaved != 0 {
            s += ", deinterleaved"
        }
        return s
    }
}

extension AudioStreamBasicDescription: @retroactive CustomDebugStringConvertible {
    public var debugDescription: String { OCAFormat.describe(self) }
}
