/// MPEG-4 files of the plain 'mp42' brand (kAudioFileMPEG4Type): read and written as M4A is.
enum MPEG4Container: AudioFileContainer {
    static var fileType: AudioFileTypeID { kAudioFileMPEG4Type }

    static func parse(_ store: ByteStore) -> Result<AudioFileLayout, OSStatusError> { MP4Container.parse(store) }

    static func create(format: AudioStreamBasicDescription, channelLayout: [UInt8]?, magicCookie: [UInt8]?) -> Result<([UInt8], AudioFileLayout), OSStatusError> {
        MP4Container.create(type: kAudioFileMPEG4Type, format: format, channelLayout: channelLayout, magicCookie: magicCookie)
    }

    static func sizeFields(_ layout: AudioFileLayout, dataByteCount: Int64) -> [(Int64, [UInt8])] { [] }
}
