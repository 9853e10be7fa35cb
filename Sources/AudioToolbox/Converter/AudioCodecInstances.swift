/// The live AudioCodec instances ('adec'/'aenc' components opened with AudioComponentInstanceNew), kept
/// apart from audio unit instances so a handle is only ever read back as the kind it was made as.
enum AudioCodecInstances {
    static let table = LiveHandleTable()

    /// The codec behind a live handle, or nil.
    static func codec(_ handle: AudioComponentInstance?) -> AudioCodecObject? {
        guard let handle else { return nil }
        return table.object(UnsafeMutableRawPointer(handle), as: AudioCodecObject.self)
    }
}
