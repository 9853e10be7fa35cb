/// A lossless decoder's Int32 staging for 16-bit streams: the decoder writes sign-extended 16-bit samples in Int32
/// containers here and `narrow` packs them into the caller's buffer as Int16 (exact: every value fits). Packed Int16
/// is a layout the converter's direct kernels convert to any client format in one pass, where 16 bits low-aligned in
/// 32 would go through Double. Allocated when configured, never while decoding.
struct Int16Staging: ~Copyable {
    /// The staging buffer (`frames` x channels samples), nil for streams that are not 16-bit.
    private(set) var buffer: UnsafeMutablePointer<Int32>?
    /// The frames the buffer holds.
    private(set) var frames = 0
    private var channels = 0

    /// Sizes the staging for a stream of `bits` and answers the PCM layout the decoder produces.
    mutating func configure(bits: Int, rate: Double, channels: Int, frames: Int) -> AudioStreamBasicDescription {
        buffer?.deallocate()
        buffer = nil
        self.frames = 0
        guard bits == 16, channels > 0, frames > 0 else {
            return CodecPCMFormat.int32(bits: UInt32(bits), rate: rate, channels: UInt32(channels))
        }
        buffer = .allocate(capacity: frames * channels)
        self.frames = frames
        self.channels = channels
        return CodecPCMFormat.int16(rate: rate, channels: UInt32(channels))
    }

    /// Packs `frames` staged frames into `pcm` as Int16; nothing when the stream is not 16-bit (the decoder wrote
    /// straight into `pcm`).
    func narrow(frames: Int, into pcm: UnsafeMutableRawPointer) {
        guard let buffer else { return }
        let out = pcm.assumingMemoryBound(to: Int16.self)
        for i in 0..<(frames * channels) { out[i] = Int16(truncatingIfNeeded: buffer[i]) }
    }

    deinit { buffer?.deallocate() }
}
