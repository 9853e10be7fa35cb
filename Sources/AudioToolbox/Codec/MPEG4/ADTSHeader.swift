/// The header of an ADTS frame (Audio Data Transport Stream, raw AAC files and streams): 7 bytes, 9 with
/// the CRC, carrying the object type (profile + 1), the sampling-rate index, the channel configuration
/// and the frame's length, header included. Also written: one header before each raw AAC packet.
package struct ADTSHeader: Equatable {
    package var objectType: Int
    package var sampleRateIndex: Int
    package var channelConfiguration: Int
    /// The whole frame's length in bytes, header included (13 bits: at most 8,191).
    package var frameLength: Int
    /// 7, or 9 when a CRC follows the fixed header.
    package var headerLength: Int
    /// Raw data blocks in the frame, less one (almost always 0).
    package var extraBlocks: Int

    package static let minimumLength = 7
    package static let maximumFrameLength = 8191

    /// Parses the header at the start of `b`; nil without a sync, with a reserved layer or rate, or a frame
    /// length too short for its own header.
    package init?(_ b: some RandomAccessCollection<UInt8>) {
        guard b.count >= Self.minimumLength else { return nil }
        // Checked before anything else and without allocating: junk scans call this at every byte.
        let s = b.startIndex
        guard b[s] == 0xFF, b[b.index(after: s)] & 0xF6 == 0xF0 else { return nil }  // sync, layer 0
        func h(_ k: Int) -> Int { Int(b[b.index(s, offsetBy: k)]) }
        headerLength = h(1) & 1 == 1 ? 7 : 9
        objectType = (h(2) >> 6) + 1
        sampleRateIndex = (h(2) >> 2) & 0xF
        channelConfiguration = (h(2) & 1) << 2 | h(3) >> 6
        frameLength = (h(3) & 3) << 11 | h(4) << 3 | h(5) >> 5
        extraBlocks = h(6) & 3
        guard sampleRateIndex < 13, frameLength > headerLength else { return nil }
    }

    /// A header for one AAC frame of `payloadLength` bytes.
    package init(objectType: Int, sampleRateIndex: Int, channelConfiguration: Int, payloadLength: Int) {
        self.objectType = objectType
        self.sampleRateIndex = sampleRateIndex
        self.channelConfiguration = channelConfiguration
        self.frameLength = payloadLength + 7
        self.headerLength = 7
        self.extraBlocks = 0
    }

    /// The 7-byte header without CRC (MPEG-4, buffer fullness 0x7FF: variable rate).
    package var bytes: [UInt8] {
        let profile = objectType - 1
        return [0xFF, 0xF1,
                UInt8(profile << 6 | sampleRateIndex << 2 | channelConfiguration >> 2),
                UInt8((channelConfiguration & 3) << 6 | frameLength >> 11),
                UInt8((frameLength >> 3) & 0xFF),
                UInt8((frameLength & 7) << 5 | 0x1F),
                UInt8(0xFC | extraBlocks)]
    }

    package var sampleRate: Double { AudioSpecificConfig.rates[sampleRateIndex] }

    /// Same stream: object type, rate and channels agree (what a resynchronised header must match).
    package func sameStream(as other: ADTSHeader) -> Bool {
        objectType == other.objectType && sampleRateIndex == other.sampleRateIndex && channelConfiguration == other.channelConfiguration
    }

    /// The AudioSpecificConfig the header stands for (2 bytes, no extensions).
    package var audioSpecificConfig: [UInt8] {
        [UInt8(objectType << 3 | sampleRateIndex >> 1), UInt8((sampleRateIndex & 1) << 7 | channelConfiguration << 3)]
    }

    /// The sampling-rate index of `rate`, nil for rates ADTS cannot signal.
    package static func sampleRateIndex(_ rate: Double) -> Int? { AudioSpecificConfig.rates.firstIndex(of: rate) }

    /// The channel configuration for `channels` (1-6, 8), nil for counts a configuration cannot give.
    package static func channelConfiguration(_ channels: Int) -> Int? {
        channels >= 1 && channels <= 6 ? channels : channels == 8 ? 7 : nil
    }
}
