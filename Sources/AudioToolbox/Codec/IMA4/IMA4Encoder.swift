import AudioDSP

/// Encodes 16-bit PCM to IMA4 packets; a short last packet is padded with silence.
final class IMA4Encoder: PacketEncoder {
    let pcmFormat: AudioStreamBasicDescription
    let format: AudioStreamBasicDescription
    let framesPerPacket = IMA4Kernels.framesPerPacket
    let maximumPacketBytes: Int
    let magicCookie: [UInt8]? = nil
    let primeInfo = AudioConverterPrimeInfo(leadingFrames: 0, trailingFrames: 0)
    private let channels: Int
    private var states: [IMA4Kernels.ChannelState]
    private var scratch: [UInt8] = []
    /// A short last packet's frames, padded with silence.
    private let padded: UnsafeMutablePointer<Int16>

    init(format: AudioStreamBasicDescription) {
        self.format = format
        channels = Int(format.mChannelsPerFrame)
        maximumPacketBytes = IMA4Kernels.bytesPerChannelBlock * channels
        states = Array(repeating: IMA4Kernels.ChannelState(), count: channels)
        padded = .allocate(capacity: IMA4Kernels.framesPerPacket * channels)
        pcmFormat = CodecPCMFormat.int16(rate: format.mSampleRate, channels: format.mChannelsPerFrame)
    }

    deinit { padded.deallocate() }

    func encode(_ pcm: UnsafeRawPointer, frames: Int, emit: (UnsafeRawBufferPointer, Int) -> Void) throws(OSStatusError) {
        let perPacket = IMA4Kernels.framesPerPacket
        let packets = (frames + perPacket - 1) / perPacket
        let bytes = packets * maximumPacketBytes
        if scratch.count < bytes { scratch = [UInt8](repeating: 0, count: bytes) }
        let input = pcm.assumingMemoryBound(to: Int16.self)
        scratch.withUnsafeMutableBufferPointer { out in
            for p in 0..<packets {
                let available = min(perPacket, frames - p * perPacket)
                var source = input + p * perPacket * channels
                if available < perPacket {
                    padded.update(repeating: 0, count: perPacket * channels)
                    padded.update(from: source, count: available * channels)
                    source = UnsafePointer(padded)
                }
                for c in 0..<channels {
                    IMA4Kernels.encodeBlock(source + c, stride: channels, state: &states[c],
                                            into: out.baseAddress! + p * maximumPacketBytes + c * IMA4Kernels.bytesPerChannelBlock)
                }
            }
            emit(UnsafeRawBufferPointer(start: out.baseAddress!, count: bytes), frames)
        }
    }

    func reset() {
        for c in 0..<channels { states[c] = IMA4Kernels.ChannelState() }
    }
}
