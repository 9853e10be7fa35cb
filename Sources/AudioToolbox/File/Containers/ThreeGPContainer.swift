/// 3GPP files (kAudioFile3GPType, brands '3gp4'-'3gp9'): MPEG-4 files read as M4A is (AMR in 'samr'/'sawb' sample entries,
/// AAC in 'mp4a'). Not written here: creating one answers kAudioFileUnsupportedFileTypeError.
enum ThreeGPContainer: AudioFileContainer {
    static var fileType: AudioFileTypeID { kAudioFile3GPType }

    static func parse(_ store: ByteStore) -> Result<AudioFileLayout, OSStatusError> { MP4Container.parse(store) }

    static func create(format: AudioStreamBasicDescription, channelLayout: [UInt8]?, magicCookie: [UInt8]?) -> Result<([UInt8], AudioFileLayout), OSStatusError> {
        .failure(OSStatusError(kAudioFileUnsupportedFileTypeError))
    }

    static func sizeFields(_ layout: AudioFileLayout, dataByteCount: Int64) -> [(Int64, [UInt8])] { [] }
}
