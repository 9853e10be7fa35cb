/// 3GPP2 files (kAudioFile3GP2Type, brands '3g2a'-'3g2c'): MPEG-4 files read as M4A is (AMR in 'samr'/'sawb' sample entries,
/// AAC in 'mp4a'), and written as M4A is, with the type's brand and AMR's 'damr' box.
enum ThreeGP2Container: AudioFileContainer {
    static var fileType: AudioFileTypeID { kAudioFile3GP2Type }

    static func parse(_ store: ByteStore) -> Result<AudioFileLayout, OSStatusError> { MP4Container.parse(store) }

    static func create(format: AudioStreamBasicDescription, channelLayout: [UInt8]?, magicCookie: [UInt8]?) -> Result<([UInt8], AudioFileLayout), OSStatusError> {
        MP4Container.create(type: kAudioFile3GP2Type, format: format, channelLayout: channelLayout, magicCookie: magicCookie)
    }

    static func sizeFields(_ layout: AudioFileLayout, dataByteCount: Int64) -> [(Int64, [UInt8])] { [] }
}
