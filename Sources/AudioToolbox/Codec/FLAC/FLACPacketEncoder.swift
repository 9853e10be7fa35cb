/// Interleaved Int32 to FLAC frames of 4,096 frames (the last shorter), at compression level 5 until
/// kAudioConverterCodecQuality picks another (Min 0 ... Max 127 spread over levels 0 ... 8, as `flac -0` ... `-8`). The
/// cookie's STREAMINFO follows the stream: frame sizes, total samples and the MD5 of the audio so far,
/// so a container that rewrites it when the file is finished (native FLAC) records them all.
final class FLACPacketEncoder: PacketEncoder, CodecSettings {
    let pcmFormat: AudioStreamBasicDescription
    let format: AudioStreamBasicDescription
    let framesPerPacket = FLACCodec.blockSize
    let maximumPacketBytes: Int
    let primeInfo = AudioConverterPrimeInfo(leadingFrames: 0, trailingFrames: 0)
    private var encoder: FLACFrameEncoder
    private let bits: Int
    private var frameNumber = 0
    private var md5 = FLACMD5()
    private var info: FLACStreamInfo
    /// The block's samples sign-extended from the stream's depth: the frame encoder's input must lie in range.
    private let block: UnsafeMutablePointer<Int32>

    init(format output: AudioStreamBasicDescription, input: AudioStreamBasicDescription) throws(OSStatusError) {
        let channels = Int(output.mChannelsPerFrame)
        // The depth: the flags' if set, else the source's (integers up to 24 bits as they are, floats as 24).
        var bits = FLACCookie.bits(flags: output.mFormatFlags) ?? 0
        if output.mFormatFlags == 0 {
            let isFloat = input.mFormatFlags & kAudioFormatFlagIsFloat != 0
            bits = isFloat ? 24 : input.mBitsPerChannel <= 16 ? 16 : input.mBitsPerChannel <= 24 ? 24 : 32
        }
        guard channels >= 1, channels <= 8, bits > 0, output.mSampleRate >= 1, output.mSampleRate < 1_048_576 else {
            throw OSStatusError(kAudioConverterErr_FormatNotSupported)
        }
        self.bits = bits
        var f = output
        f.mFormatFlags = FLACCookie.formatFlags(bits: bits)
        f.mFramesPerPacket = UInt32(FLACCodec.blockSize)
        format = f
        pcmFormat = CodecPCMFormat.int32(bits: UInt32(bits), rate: output.mSampleRate, channels: UInt32(channels))
        encoder = FLACFrameEncoder(channels: channels, bitsPerSample: bits, sampleRate: Int(output.mSampleRate), blockSize: FLACCodec.blockSize)
        // A verbatim frame plus its header and footer bounds every frame the encoder makes.
        maximumPacketBytes = FLACCodec.blockSize * channels * ((bits + 1 + 7) / 8) + 64
        block = .allocate(capacity: FLACCodec.blockSize * channels)
        info = FLACStreamInfo(minBlockSize: FLACCodec.blockSize, maxBlockSize: FLACCodec.blockSize, sampleRate: Int(output.mSampleRate),
                              channels: channels, bitsPerSample: bits)
    }

    deinit { block.deallocate() }

    /// Lossless: no bit rate to choose (0, and setting it changes nothing).
    var bitRate: UInt32 {
        get { 0 }
        set {}
    }
    /// kAudioConverterCodecQuality: picks the compression level for the frames still to come (frames are
    /// independent, so a change between blocks is safe).
    var quality: UInt32 = 0x50 {  // level 5, the flac tool's default
        didSet {
            let level = Int((Double(min(quality, 0x7F)) * 8 / 0x7F).rounded())
            guard level != encoder.level else { return }
            encoder = FLACFrameEncoder(channels: info.channels, bitsPerSample: bits, sampleRate: info.sampleRate,
                                       blockSize: FLACCodec.blockSize, level: level)
        }
    }
    var availableBitRates: [AudioValueRange] { [] }
    var settings: CodecSettings? { self }

    var magicCookie: [UInt8]? {
        var i = info
        i.md5 = md5.finish()
        return FLACCookie.bytes(i)
    }

    func encode(_ pcm: UnsafeRawPointer, frames: Int, emit: (UnsafeRawBufferPointer, Int) -> Void) throws(OSStatusError) {
        let samples = pcm.assumingMemoryBound(to: Int32.self)
        var done = 0
        while done < frames {
            let n = min(FLACCodec.blockSize, frames - done)
            let shift = Int32(32 - bits)
            let source = samples + done * info.channels
            for i in 0..<(n * info.channels) { block[i] = (source[i] &<< shift) &>> shift }
            let frame = encoder.encode(block, frames: n, frameNumber: frameNumber)
            guard !frame.isEmpty else { throw OSStatusError(kAudioConverterErr_UnspecifiedError) }
            md5.updateSamples(block, count: n * info.channels, bitsPerSample: bits)
            info.totalSamples += Int64(n)
            info.minFrameSize = info.minFrameSize == 0 ? frame.count : min(info.minFrameSize, frame.count)
            info.maxFrameSize = max(info.maxFrameSize, frame.count)
            frameNumber += 1
            frame.withUnsafeBytes { emit($0, n) }
            done += n
        }
    }

    func reset() {
        frameNumber = 0
        md5 = FLACMD5()
        info.totalSamples = 0
        info.minFrameSize = 0
        info.maxFrameSize = 0
    }
}
