import AudioDSP

/// Decodes IMA4 packets to 16-bit PCM, carrying each channel's predictor across packets.
final class IMA4Decoder: PacketDecoder {
    let pcmFormat: AudioStreamBasicDescription
    let maximumFramesPerPacket = IMA4Kernels.framesPerPacket
    private let channels: Int
    private var states: [IMA4Kernels.ChannelState]

    init(format: AudioStreamBasicDescription) {
        channels = Int(format.mChannelsPerFrame)
        states = Array(repeating: IMA4Kernels.ChannelState(), count: channels)
        pcmFormat = CodecPCMFormat.int16(rate: format.mSampleRate, channels: format.mChannelsPerFrame)
    }

    func decode(_ data: UnsafeRawBufferPointer, packetCount: Int, into pcm: UnsafeMutableRawPointer,
                capacityFrames: Int) throws(OSStatusError) -> Int {
        let packetBytes = IMA4Kernels.bytesPerChannelBlock * channels
        let packets = min(packetCount, data.count / packetBytes, capacityFrames / IMA4Kernels.framesPerPacket)
        guard packets > 0, let base = data.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return 0 }
        let out = pcm.assumingMemoryBound(to: Int16.self)
        for p in 0..<packets {
            for c in 0..<channels {
                IMA4Kernels.decodeBlock(base + p * packetBytes + c * IMA4Kernels.bytesPerChannelBlock, state: &states[c],
                                        into: out + p * IMA4Kernels.framesPerPacket * channels + c, stride: channels)
            }
        }
        return packets * IMA4Kernels.framesPerPacket
    }

    func reset() {
        for c in 0..<channels { states[c] = IMA4Kernels.ChannelState() }
    }
}
