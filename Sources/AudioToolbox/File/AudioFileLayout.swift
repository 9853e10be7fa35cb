/// What a container parser finds in a file, independent of the container: the stream format, where
/// the audio data is, and metadata. Sizes are already checked against the file's real size.
struct AudioFileLayout {
    var fileType: AudioFileTypeID
    var format: AudioStreamBasicDescription
    var dataOffset: Int64
    var dataByteCount: Int64
    /// Raw AudioChannelLayout bytes (Apple's layout), if the file has one.
    var channelLayout: [UInt8]?
    var magicCookie: [UInt8]?
    var info: [String: String] = [:]
    /// Container-specific: where the size fields are to patch when the data grows.
    var headerPatch: HeaderPatch = .none
    /// Other chunks (user data), by four-char code, in file order.
    var userData: [(UInt32, [UInt8])] = []
    /// Chunks after the audio data, rewritten there with each header update: CAF's markers, names, info and packet
    /// table, and user data in CAF, WAVE and AIFF files (the audio grows over them; they move to its new end).
    var trailingChunks: [(UInt32, [UInt8])] = []
    /// Growing the data is refused: bytes follow the audio that are not kept in `trailingChunks`, or a
    /// packet table would go stale.
    var tailLocked = false
    /// Valid, priming and remainder frames (CAF 'pakt' header, MP4 edit lists, LAME/iTunSMPB tags).
    var packetTable: AudioFilePacketTableInfo?
    /// Where each packet of variable-bit-rate data is (nil for constant-bit-rate data).
    var packetIndex: PacketIndex?
    /// Data that is not one run of the file (Ogg's de-paged packets): `dataOffset` then only says where
    /// the audio begins, and data offsets are in the joined segments.
    var dataSegments: DataSegmentMap?
    /// Ogg: the serial number of the logical stream read.
    var oggSerial: UInt32?
    /// The file's sound tracks (MPEG-4 may hold several; every other container one) and the one being read.
    var audioTrackCount: UInt32 = 1
    var audioTrack: UInt32 = 0

    enum HeaderPatch {
        case none
        /// `ds64Offset`: where a JUNK chunk reserves room for RF64's ds64 chunk (-1: none).
        case wave(riffSizeOffset: Int64, dataSizeOffset: Int64, ds64Offset: Int64 = -1)
        case aiff(formSizeOffset: Int64, frameCountOffset: Int64, ssndSizeOffset: Int64)
        case caf(dataSizeOffset: Int64)
        /// Native FLAC: STREAMINFO (at byte 8) is rewritten from the packets and the cookie.
        case flac
        /// MPEG-4 written here: the 'moov' is rebuilt from the layout, into the space reserved at
        /// `reserveOffset` when it fits, else after the data; 'mdat' has a 16-byte header before `dataOffset`.
        case mp4(reserveOffset: Int64, reserveSize: Int64)
    }
}

/// One container format: parse an existing file, and lay out a new one.
protocol AudioFileContainer {
    static var fileType: AudioFileTypeID { get }
    static func parse(_ store: ByteStore) -> Result<AudioFileLayout, OSStatusError>
    /// A new file's header bytes for `format` (with `channelLayout` and `magicCookie` if given); the
    /// layout's dataOffset says where audio starts. Fails with kAudioFileUnsupportedDataFormatError for
    /// formats it cannot hold.
    static func create(format: AudioStreamBasicDescription, channelLayout: [UInt8]?, magicCookie: [UInt8]?) -> Result<([UInt8], AudioFileLayout), OSStatusError>
    /// The header fields to write after the data grew to `dataByteCount` bytes.
    static func sizeFields(_ layout: AudioFileLayout, dataByteCount: Int64) -> [(Int64, [UInt8])]
}

extension AudioFileLayout {
    /// The trailing chunks as they sit in the file: CAF frames a chunk with a 4-byte ID and an 8-byte big-endian
    /// size; RIFF with a 4-byte little-endian size and AIFF a big-endian one, each padded to an even length.
    var trailingChunkBytes: [UInt8] {
        var w = ByteWriter()
        for (id, body) in trailingChunks {
            w.fourCC(id)
            switch fileType {
            case kAudioFileCAFType: w.be(UInt64(body.count), 8)
            case kAudioFileWAVEType, kAudioFileRF64Type: w.le(UInt64(body.count), 4)
            default: w.be(UInt64(body.count), 4)
            }
            w.append(body)
            if fileType != kAudioFileCAFType && body.count & 1 == 1 { w.append([0]) }
        }
        return w.bytes
    }

    /// The bytes `trailingChunkBytes` takes.
    var trailingChunkByteCount: Int64 {
        trailingChunks.reduce(Int64(0)) { sum, chunk in
            let n = Int64(chunk.1.count)
            return sum + (fileType == kAudioFileCAFType ? 12 + n : 8 + n + (n & 1))
        }
    }

    /// Where the audio data ends in the file, with RIFF's and AIFF's pad byte after an odd length.
    var paddedDataEnd: Int64 {
        let padded = [kAudioFileWAVEType, kAudioFileRF64Type, kAudioFileAIFFType, kAudioFileAIFCType].contains(fileType)
        return dataOffset + dataByteCount + (padded ? dataByteCount & 1 : 0)
    }
}
