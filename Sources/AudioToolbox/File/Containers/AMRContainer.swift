/// Raw AMR files (.amr, RFC 4867 §5): the "#!AMR\n" (narrowband) or "#!AMR-WB\n" (wideband) magic, then
/// storage-format frames, each one packet, its size from the frame type in its ToC byte (NO_DATA frames are
/// one byte and still 20 ms). A last frame cut short is dropped; the multichannel variants answer
/// kAudioFileUnsupportedDataFormatError. Written files get the magic, then the packets as given.
enum AMRContainer: AudioFileContainer {
    static var fileType: AudioFileTypeID { kAudioFileAMRType }

    /// Bytes read at a time while walking the frames.
    static let windowBytes = 1 << 20

    /// Which band a file's first bytes announce (nil: not an .amr file), and the magic's length.
    static func magic(_ head: [UInt8]) -> (wideband: Bool, length: Int)? {
        if head.starts(with: AMRFrame.widebandMagic) { return (true, AMRFrame.widebandMagic.count) }
        if head.starts(with: AMRFrame.narrowbandMagic) { return (false, AMRFrame.narrowbandMagic.count) }
        return nil
    }

    /// The stream description of a band's packets.
    static func format(wideband: Bool) -> AudioStreamBasicDescription {
        var f = AudioStreamBasicDescription()
        f.mFormatID = wideband ? kAudioFormatAMR_WB : kAudioFormatAMR
        return AMRCodec.complete(f, wideband: wideband)!
    }

    static func parse(_ store: ByteStore) -> Result<AudioFileLayout, OSStatusError> {
        let fileSize = store.size
        guard let head = store.bytes(at: 0, count: Int(min(fileSize, 16))) else { return .failure(OSStatusError(kAudioFileInvalidFileError)) }
        guard let (wideband, start) = magic(head) else {
            if AMRFrame.multichannelMagic.contains(where: { head.starts(with: $0) }) {
                return .failure(OSStatusError(kAudioFileUnsupportedDataFormatError))
            }
            return .failure(OSStatusError(kAudioFileInvalidFileError))
        }
        var index = PacketIndex(variableFrames: false)
        var position = Int64(start)
        var window: [UInt8] = []
        var windowStart = position
        while position < fileSize {
            if position >= windowStart + Int64(window.count) {
                guard let w = store.bytes(at: position, count: Int(min(Int64(windowBytes), fileSize - position))), !w.isEmpty else { break }
                window = w
                windowStart = position
            }
            let size = AMRFrame.size(toc: window[Int(position - windowStart)], wideband: wideband)
            guard position + Int64(size) <= fileSize else { break }  // cut short: dropped
            index.append(offset: position - Int64(start), size: UInt32(size), frames: 0)
            position += Int64(size)
        }
        var layout = AudioFileLayout(fileType: kAudioFileAMRType, format: format(wideband: wideband), dataOffset: Int64(start),
                                     dataByteCount: index.dataEnd)
        layout.packetIndex = index
        return .success(layout)
    }

    /// A new .amr file: its magic; AMR narrowband or wideband, mono at the band's rate.
    static func create(format requested: AudioStreamBasicDescription, channelLayout: [UInt8]?, magicCookie: [UInt8]?) -> Result<([UInt8], AudioFileLayout), OSStatusError> {
        let wideband = requested.mFormatID == kAudioFormatAMR_WB
        guard requested.mFormatID == kAudioFormatAMR || wideband, requested.mFramesPerPacket == 0
                || requested.mFramesPerPacket == UInt32(AMRFrame.samples(wideband: wideband)),
              AMRCodec.complete(requested, wideband: wideband) != nil else {
            return .failure(OSStatusError(kAudioFileUnsupportedDataFormatError))
        }
        let header = wideband ? AMRFrame.widebandMagic : AMRFrame.narrowbandMagic
        var layout = AudioFileLayout(fileType: kAudioFileAMRType, format: format(wideband: wideband), dataOffset: Int64(header.count), dataByteCount: 0)
        layout.packetIndex = PacketIndex(variableFrames: false)
        return .success((header, layout))
    }

    static func sizeFields(_ layout: AudioFileLayout, dataByteCount: Int64) -> [(Int64, [UInt8])] { [] }
}
