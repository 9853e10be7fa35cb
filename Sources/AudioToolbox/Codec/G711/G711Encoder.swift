import AudioDSP

/// Encodes 16-bit PCM to µ-law or A-law bytes.
final class G711Encoder: PacketEncoder {
    let pcmFormat: AudioStreamBasicDescription
    let format: AudioStreamBasicDescription
    let framesPerPacket = 1
    let maximumPacketBytes: Int
    let magicCookie: [UInt8]? = nil
    let primeInfo = AudioConverterPrimeInfo(leadingFrames: 0, trailingFrames: 0)
    private let aLaw: Bool
    private let channels: Int
    /// Encoded bytes of one call (its one-frame packets are handed over as one run).
    private var scratch: [UInt8] = []

    init(format: AudioStreamBasicDescription, aLaw: Bool) {
        self.format = format
        self.aLaw = aLaw
        channels = Int(format.mChannelsPerFrame)
        maximumPacketBytes = channels
        pcmFormat = CodecPCMFormat.int16(rate: format.mSampleRate, channels: format.mChannelsPerFrame)
        // Build the encode table now, not lazily on the first encode (which may be on a real-time thread).
        _ = aLaw ? G711Kernels.aLawEncodeTable.count : G711Kernels.muLawEncodeTable.count
    }

    func encode(_ pcm: UnsafeRawPointer, frames: Int, emit: (UnsafeRawBufferPointer, Int) -> Void) throws(OSStatusError) {
        let count = frames * channels
        if scratch.count < count { scratch = [UInt8](repeating: 0, count: count) }
        scratch.withUnsafeMutableBufferPointer { out in
            G711Kernels.encode(pcm.assumingMemoryBound(to: Int16.self), count: count, aLaw: aLaw, into: out.baseAddress!)
            emit(UnsafeRawBufferPointer(start: out.baseAddress!, count: count), frames)
        }
    }

    func reset() {}
}
