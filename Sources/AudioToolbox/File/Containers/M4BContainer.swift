/// Apple's audiobook MPEG-4 files (kAudioFileM4BType, brand 'M4B '): read and written as M4A is.
enum M4BContainer: AudioFileContainer {
    static var fileType: AudioFileTypeID { kAudioFileM4BType }

    static func parse(_ store: ByteStore) -> Result<AudioFileLayout, OSStatusError> { MP4Container.parse(store) }

    static func create(format: AudioStreamBasicDescription, channelLayout: [UInt8]?, magicCookie: [UInt8]?) -> Result<([UInt8], AudioFileLayout), OSStatusError> {
        MP4Container.create(type: kAudioFileM4BType, format: format, channelLayout: channelLayout, magicCookie: magicCookie)
    }

    static func sizeFields(_ layout: AudioFileLayout, dataByteCount: Int64) -> [(Int64, [UInt8])] { [] }
}
