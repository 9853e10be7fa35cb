/// An MPEG-4 ES_Descriptor (an 'esds' box's body, AAC's magic cookie in MP4 and CAF): the decoder
/// configuration's object type and the AudioSpecificConfig it carries. Descriptor lengths are the
/// expandable 1-4 byte form, each checked against what remains.
package struct ESDescriptor {
    /// DecoderConfigDescriptor.objectTypeIndication: 0x40 MPEG-4 audio, 0x69/0x6B MPEG-1/2 audio (MP3).
    package let objectTypeIndication: UInt8
    package let averageBitRate: UInt32
    package let maximumBitRate: UInt32
    /// DecoderSpecificInfo: for MPEG-4 audio, the AudioSpecificConfig.
    package let specificInfo: [UInt8]

    /// Parses an ES_Descriptor starting at its tag (0x03), optionally after a 4-byte version/flags word.
    package init?(_ bytes: [UInt8]) {
        var p = 0
        if bytes.count >= 5, bytes[0] != 0x03, bytes[4] == 0x03 { p = 4 }
        func descriptor(_ tag: UInt8) -> Range<Int>? {
            guard p < bytes.count, bytes[p] == tag else { return nil }
            p += 1
            var length = 0
            for _ in 0..<4 {
                guard p < bytes.count else { return nil }
                let b = bytes[p]
                p += 1
                length = length << 7 | Int(b & 0x7F)
                if b & 0x80 == 0 { break }
            }
            guard length <= bytes.count - p else { return nil }
            return p..<(p + length)
        }
        guard let es = descriptor(0x03), es.count >= 3 else { return nil }
        let flags = bytes[p + 2]
        p += 3
        if flags & 0x80 != 0 { p += 2 }                           // dependsOn_ES_ID
        if flags & 0x40 != 0, p < bytes.count { p += 1 + Int(bytes[p]) }  // URL
        if flags & 0x20 != 0 { p += 2 }                           // OCR_ES_Id
        guard let config = descriptor(0x04), config.count >= 13 else { return nil }
        objectTypeIndication = bytes[config.lowerBound]
        func u32(_ at: Int) -> UInt32 { UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3]) }
        maximumBitRate = u32(config.lowerBound + 5)
        averageBitRate = u32(config.lowerBound + 9)
        p = config.lowerBound + 13
        if let info = descriptor(0x05), p <= config.upperBound {
            specificInfo = Array(bytes[info])
        } else {
            specificInfo = []
        }
    }

    /// The stream this descriptor describes, Apple's way (nil for objects this engine does not know).
    package var streamDescription: AudioStreamBasicDescription? {
        switch objectTypeIndication {
        case 0x40:
            return AudioSpecificConfig(specificInfo)?.streamDescription
        case 0x69, 0x6B:
            var f = AudioStreamBasicDescription()
            f.mFormatID = kAudioFormatMPEGLayer3
            f.mFramesPerPacket = 1152
            return f
        default:
            return nil
        }
    }

    /// An ES_Descriptor around an AudioSpecificConfig, as Apple's AAC encoder vends its cookie: 4-byte
    /// descriptor lengths, object type 0x40 (MPEG-4 audio), an audio stream, an SL descriptor.
    package static func make(audioSpecificConfig asc: [UInt8], averageBitRate: UInt32, maximumBitRate: UInt32) -> [UInt8] {
        func descriptor(_ tag: UInt8, _ body: [UInt8]) -> [UInt8] {
            let n = body.count
            return [tag, UInt8(0x80 | (n >> 21) & 0x7F), UInt8(0x80 | (n >> 14) & 0x7F), UInt8(0x80 | (n >> 7) & 0x7F), UInt8(n & 0x7F)] + body
        }
        func u32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        let config = descriptor(0x04, [0x40, 0x15, 0x00, 0x18, 0x00] + u32(maximumBitRate) + u32(averageBitRate) + descriptor(0x05, asc))
        return descriptor(0x03, [0x00, 0x00, 0x00] + config + descriptor(0x06, [0x02]))
    }
}
