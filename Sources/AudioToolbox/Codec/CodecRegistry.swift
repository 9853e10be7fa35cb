/// The codecs this process can use, by format ID: the built-in native ones, then any another product
/// registers (the AAC product registers its codec when a program links it). Looked up when a converter
/// is made and by Audio Format Services; never on a render thread.
package enum CodecRegistry {
    private static let table = LockedState<[AudioFormatID: CodecEntry]>(
        Dictionary(uniqueKeysWithValues: builtIns.map { ($0.formatID, $0) }))

    private static var builtIns: [CodecEntry] {
        [G711Codec.entry(aLaw: false), G711Codec.entry(aLaw: true), IMA4Codec.entry,
         MP3Codec.entry(kAudioFormatMPEGLayer1), MP3Codec.entry(kAudioFormatMPEGLayer2), MP3Codec.entry(kAudioFormatMPEGLayer3),
         FLACCodec.entry, ALACCodec.entry, OpusCodec.entry, AMRCodec.entry(wideband: false), AMRCodec.entry(wideband: true)]
    }

    /// The codec for a format, if one is registered.
    static func entry(_ formatID: AudioFormatID) -> CodecEntry? {
        table.withLock { $0[formatID] }
    }

    /// Adds or replaces the codec for its format.
    package static func register(_ entry: CodecEntry) {
        table.withLock { $0[entry.formatID] = entry }
    }

    /// Formats that can be decoded to linear PCM (linear PCM itself first, as Apple lists it).
    static var decodeFormatIDs: [AudioFormatID] {
        [kAudioFormatLinearPCM] + table.withLock { $0.values.filter { $0.makeDecoder != nil }.map(\.formatID).sorted() }
    }

    /// Formats that can be encoded from linear PCM.
    static var encodeFormatIDs: [AudioFormatID] {
        [kAudioFormatLinearPCM] + table.withLock { $0.values.filter { $0.makeEncoder != nil }.map(\.formatID).sorted() }
    }
}
