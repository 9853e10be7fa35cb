/// Interleaved Int32 to ALAC packets of 4,096 frames, the last one shorter (its partial-frame flag set).
final class ALACPacketEncoder: PacketEncoder {
    let pcmFormat: AudioStreamBasicDescription
    let format: AudioStreamBasicDescription
    let framesPerPacket = 4096
    let maximumPacketBytes: Int
    let primeInfo = AudioConverterPrimeInfo(leadingFrames: 0, trailingFrames: 0)
    private let encoder: ALACEncoder
    private let channels: Int
    private let bits: Int
    /// A packet's samples sign-extended from the depth (the encoder's input must lie in range).
    private let block: UnsafeMutablePointer<Int32>

    init(format output: AudioStreamBasicDescription, input: AudioStreamBasicDescription) throws(OSStatusError) {
        channels = Int(output.mChannelsPerFrame)
        var bits = FLACCookie.bits(flags: output.mFormatFlags) ?? 0
        if output.mFormatFlags == 0 {
            let isFloat = input.mFormatFlags & kAudioFormatFlagIsFloat != 0
            bits = isFloat ? 24 : input.mBitsPerChannel <= 16 ? 16 : input.mBitsPerChannel <= 20 ? 20 : input.mBitsPerChannel <= 24 ? 24 : 32
        }
        guard channels >= 1, channels <= 8, bits > 0, output.mSampleRate >= 1 else { throw OSStatusError(kAudioConverterErr_FormatNotSupported) }
        self.bits = bits
        do throws(ALACError) {
            encoder = try ALACEncoder(channels: channels, bitDepth: bits, sampleRate: Int(output.mSampleRate))
        } catch {
            throw OSStatusError(kAudioConverterErr_FormatNotSupported)
        }
        var f = output
        f.mFormatFlags = FLACCookie.formatFlags(bits: bits)
        f.mFramesPerPacket = 4096
        format = f
        pcmFormat = CodecPCMFormat.int32(bits: UInt32(bits), rate: output.mSampleRate, channels: UInt32(channels))
        maximumPacketBytes = encoder.maxPacketBytes
        block = .allocate(capacity: 4096 * channels)
    }

    deinit { block.deallocate() }

    var magicCookie: [UInt8]? { encoder.config.magicCookie }

    func encode(_ pcm: UnsafeRawPointer, frames: Int, emit: (UnsafeRawBufferPointer, Int) -> Void) throws(OSStatusError) {
        let samples = pcm.assumingMemoryBound(to: Int32.self)
        let shift = Int32(32 - bits)
        var done = 0
        while done < frames {
            let n = min(4096, frames - done)
            let source = samples + done * channels
            for i in 0..<(n * channels) { block[i] = (source[i] &<< shift) &>> shift }
            let packet = encoder.encode(block, frames: n)
            guard !packet.isEmpty else { throw OSStatusError(kAudioConverterErr_UnspecifiedError) }
            packet.withUnsafeBytes { emit($0, n) }
            done += n
        }
    }

    func reset() {}
}
