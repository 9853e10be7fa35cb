import AudioDSP

/// A validated linear PCM stream description and how to address its samples in an AudioBufferList: the one check of
/// "linear PCM this package reads and writes", in the lowest layer, for the converter, ExtAudioFile, the containers
/// and the Audio Queue alike.
struct PCMFormat {
    let description: AudioStreamBasicDescription
    let layout: PCMSampleLayout
    let channels: Int
    let isInterleaved: Bool
    let bytesPerFrame: Int

    var bufferCount: Int { isInterleaved ? 1 : channels }

    /// Nil unless the description is linear PCM this engine reads and writes: integers of 8 to 32
    /// valid bits (packed or in a wider container, aligned high or low), 8.24 fixed point, Float32 or
    /// Float64, either endianness, interleaved or not, 1 to 1024 channels.
    init?(_ d: AudioStreamBasicDescription) {
        guard d.mFormatID == kAudioFormatLinearPCM, d.mFramesPerPacket == 1, d.mBytesPerPacket == d.mBytesPerFrame,
              d.mChannelsPerFrame >= 1, d.mChannelsPerFrame <= 1024, d.mBitsPerChannel >= 8, d.mSampleRate > 0,
              d.mSampleRate.isFinite else { return nil }
        let flags = d.mFormatFlags
        let nonInterleaved = flags & kAudioFormatFlagIsNonInterleaved != 0
        let perBuffer = nonInterleaved ? 1 : Int(d.mChannelsPerFrame)
        guard d.mBytesPerFrame > 0, Int(d.mBytesPerFrame) % perBuffer == 0 else { return nil }
        let container = Int(d.mBytesPerFrame) / perBuffer
        let bits = Int(d.mBitsPerChannel)
        let isFloat = flags & kAudioFormatFlagIsFloat != 0
        let fraction = Int((flags & kLinearPCMFormatFlagsSampleFractionMask) >> kLinearPCMFormatFlagsSampleFractionShift)
        if isFloat {
            guard (bits == 32 && container == 4) || (bits == 64 && container == 8) else { return nil }
        } else {
            guard bits <= 32, container >= (bits + 7) / 8, container <= 4, fraction < bits else { return nil }
        }
        layout = PCMSampleLayout(validBits: bits, containerBytes: container, isFloat: isFloat,
                                 isSigned: isFloat || flags & kAudioFormatFlagIsSignedInteger != 0,
                                 isBigEndian: flags & kAudioFormatFlagIsBigEndian != 0,
                                 isAlignedHigh: flags & kAudioFormatFlagIsAlignedHigh != 0, fractionBits: fraction)
        description = d
        channels = Int(d.mChannelsPerFrame)
        isInterleaved = !nonInterleaved
        bytesPerFrame = Int(d.mBytesPerFrame)
    }

    /// Where sample (frame 0, channel c) lives and the distance between frames.
    @inline(__always)
    func samplePointer(_ abl: UnsafeMutableAudioBufferListPointer, channel c: Int, frame: Int) -> UnsafeMutableRawPointer? {
        if isInterleaved {
            return abl[0].mData.map { $0 + frame * bytesPerFrame + c * layout.containerBytes }
        }
        return abl[c].mData.map { $0 + frame * bytesPerFrame }
    }
}
