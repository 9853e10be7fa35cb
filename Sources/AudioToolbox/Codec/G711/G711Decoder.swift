import AudioDSP

/// Decodes µ-law or A-law bytes to 16-bit PCM by table.
final class G711Decoder: PacketDecoder {
    let pcmFormat: AudioStreamBasicDescription
    let maximumFramesPerPacket = 1
    private let channels: Int
    private let table: [Int16]

    init(format: AudioStreamBasicDescription, aLaw: Bool) {
        channels = Int(format.mChannelsPerFrame)
        pcmFormat = CodecPCMFormat.int16(rate: format.mSampleRate, channels: format.mChannelsPerFrame)
        table = aLaw ? G711Kernels.aLawTable : G711Kernels.muLawTable
    }

    func decode(_ data: UnsafeRawBufferPointer, packetCount: Int, into pcm: UnsafeMutableRawPointer,
                capacityFrames: Int) throws(OSStatusError) -> Int {
        let frames = min(packetCount, data.count / channels, capacityFrames)
        guard frames > 0, let base = data.baseAddress else { return 0 }
        table.withUnsafeBufferPointer { t in
            G711Kernels.decode(base.assumingMemoryBound(to: UInt8.self), count: frames * channels, table: t.baseAddress!,
                               into: pcm.assumingMemoryBound(to: Int16.self))
        }
        return frames
    }

    func reset() {}
}
