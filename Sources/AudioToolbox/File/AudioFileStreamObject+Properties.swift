import OCAProperty

/// AudioFileStream properties, one row each (see `ObjectProperty`): the values the parser announced to the
/// listener, read back as they were announced, so Info's size is the size Get writes. Before the header is
/// parsed every ID answers kAudioFileStreamError_DataUnavailable; after it, one the stream lacks answers
/// kAudioFileStreamError_UnsupportedProperty. None is writable (AudioFileStreamSetProperty answers
/// UnsupportedProperty for every ID, as before).
extension AudioFileStreamObject {
    static let propertyTable = ObjectPropertyTable<AudioFileStreamObject>(
        announcedIDs.map { id in
            .bytes(id, exists: { $0.properties[id] != nil }, writable: .never, get: { $0.properties[id] ?? [] })
        },
        statuses: .init(unsupported: { $0.layout == nil ? kAudioFileStreamError_DataUnavailable : kAudioFileStreamError_UnsupportedProperty },
                        badSize: kAudioFileStreamError_BadPropertySize,
                        notWritable: { _ in kAudioFileStreamError_UnsupportedProperty }))

    /// Every property the parser announces (announceProperties).
    static let announcedIDs: [AudioFileStreamPropertyID] = [
        kAudioFileStreamProperty_FileFormat, kAudioFileStreamProperty_DataFormat, kAudioFileStreamProperty_MagicCookieData,
        kAudioFileStreamProperty_ChannelLayout, kAudioFileStreamProperty_DataOffset, kAudioFileStreamProperty_AudioDataByteCount,
        kAudioFileStreamProperty_AudioDataPacketCount, kAudioFileStreamProperty_PacketTableInfo,
        kAudioFileStreamProperty_MaximumPacketSize, kAudioFileStreamProperty_PacketSizeUpperBound,
        kAudioFileStreamProperty_AverageBytesPerPacket, kAudioFileStreamProperty_BitRate,
        kAudioFileStreamProperty_ReadyToProducePackets,
    ]
}
