/// One MPEG-1/2/2.5 audio frame header (layers I-III): what a container needs to split a stream into
/// packets and describe it, read from the 4 bytes at a frame's start.
struct MPEGAudioFrameHeader: Equatable {
    /// 1 (MPEG-1), 2 (MPEG-2) or 25 (MPEG-2.5).
    let version: Int
    let layer: Int
    let bitRate: Int
    let sampleRate: Int
    let channels: Int
    /// The frame's length in bytes, header included.
    let frameBytes: Int
    /// PCM frames the frame decodes to.
    let samplesPerFrame: Int
    let hasCRC: Bool
    /// 3 = mono; the side-information size depends on it.
    let channelMode: Int

    private static let bitRates: [[Int]] = [
        [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],  // V1 L1
        [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],     // V1 L2
        [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],      // V1 L3
        [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],     // V2 L1
        [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],          // V2 L2, L3
    ]

    /// The header at `p` (4 bytes), or nil when it is not a valid one (no sync, reserved values,
    /// free-format bit rate, which a packet table cannot size).
    init?(_ p: UnsafePointer<UInt8>) {
        guard p[0] == 0xFF, p[1] & 0xE0 == 0xE0 else { return nil }
        let versionBits = Int(p[1] >> 3) & 3, layerBits = Int(p[1] >> 1) & 3
        guard versionBits != 1, layerBits != 0 else { return nil }
        let rateIndex = Int(p[2] >> 4), frequencyIndex = Int(p[2] >> 2) & 3
        guard rateIndex != 0, rateIndex != 15, frequencyIndex != 3 else { return nil }
        version = versionBits == 3 ? 1 : versionBits == 2 ? 2 : 25
        layer = 4 - layerBits
        let table = version == 1 ? layer - 1 : (layer == 1 ? 3 : 4)
        bitRate = Self.bitRates[table][rateIndex] * 1000
        let base = [44100, 48000, 32000][frequencyIndex]
        sampleRate = version == 1 ? base : version == 2 ? base / 2 : base / 4
        let padding = Int(p[2] >> 1) & 1
        channelMode = Int(p[3] >> 6)
        channels = channelMode == 3 ? 1 : 2
        hasCRC = p[1] & 1 == 0
        switch layer {
        case 1:
            samplesPerFrame = 384
            frameBytes = (12 * bitRate / sampleRate + padding) * 4
        case 2:
            samplesPerFrame = 1152
            frameBytes = 144 * bitRate / sampleRate + padding
        default:
            samplesPerFrame = version == 1 ? 1152 : 576
            frameBytes = (version == 1 ? 144 : 72) * bitRate / sampleRate + padding
        }
    }

    /// Where a Xing/Info tag would start in a layer III frame (after the side information).
    var xingOffset: Int {
        let side = version == 1 ? (channels == 1 ? 17 : 32) : (channels == 1 ? 9 : 17)
        return 4 + side
    }

    /// Apple's format ID for the layer.
    var formatID: AudioFormatID {
        layer == 3 ? kAudioFormatMPEGLayer3 : layer == 2 ? kAudioFormatMPEGLayer2 : kAudioFormatMPEGLayer1
    }

    /// The stream description Apple's AudioFile gives an MPEG audio file.
    var streamDescription: AudioStreamBasicDescription {
        AudioStreamBasicDescription(mSampleRate: Double(sampleRate), mFormatID: formatID, mFormatFlags: 0, mBytesPerPacket: 0,
                                    mFramesPerPacket: UInt32(samplesPerFrame), mBytesPerFrame: 0,
                                    mChannelsPerFrame: UInt32(channels), mBitsPerChannel: 0, mReserved: 0)
    }
}
