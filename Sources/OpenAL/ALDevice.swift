/// An ALC device: a real one (each of its contexts plays through its own default output unit) or an
/// ALC_SOFT_loopback one (its context renders only when alcRenderSamplesSOFT asks). Buffers belong to the
/// device and are shared by its contexts, as the spec says.
final class ALDevice {
    let name: String
    let isLoopback: Bool
    var error: ALCenum = ALC_NO_ERROR
    var buffers: [ALuint: ALBuffer] = [:]
    var nextBufferID: ALuint = 1
    var contexts: [ALContext] = []
    /// The loopback format, set when its context is made: sample type and channel count.
    var loopbackType: ALCenum = ALC_FLOAT_SOFT
    var loopbackChannels: ALCenum = ALC_STEREO_SOFT
    var loopbackFrequency = 44100
    /// A capture device's recorder (ALC_EXT_CAPTURE); nil for output devices.
    var capture: ALCapture?

    init(name: String, isLoopback: Bool) {
        self.name = name
        self.isLoopback = isLoopback
    }

    /// The handle clients hold (the object's address; looked up, never dereferenced, by ALState).
    var handle: OpaquePointer { OpaquePointer(Unmanaged.passUnretained(self).toOpaque()) }
}
