/// 3GPP files (kAudioFile3GPType, brands '3gp4'-'3gp9'): MPEG-4 files read as M4A is (AMR in 'samr'/'sawb' sample entries,
/// AAC in 'mp4a'), and written as M4A is, with the type's brand and AMR's 'damr' box.
enum ThreeGPContainer: AudioFileContainer {
    static var fileType: AudioFileTypeID { kAudioFile3GPType }

    static func parse(_ store: ByteStore) -> Result<AudioFileLayout, OSStatusError> { MP4Container.parse(store) }

    static func create(format: AudioStreamBasicDescription, channelLayout: [UInt8]?, magicCookie: [UInt8]?) -> Result<([UInt8], AudioFileLayout), OSStatusError> {
        MP4Container.create(type: kAudioFile3GPType, format: format, channelLayout: channelLayout, magicCookie: magicCookie)
    }

    static func sizeFields(_ layout: AudioFileLayout, dataByteCount: Int64) -> [(Int64, [UInt8])] { [] }
}
