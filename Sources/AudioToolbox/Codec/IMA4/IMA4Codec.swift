import AudioDSP

/// Apple IMA4 ('ima4'): 64 frames in 34 bytes per channel, decoded to 16-bit PCM.
enum IMA4Codec {
    static let entry = CodecEntry(
        formatID: kAudioFormatAppleIMA4,
        name: "IMA 4:1",
        completeFormat: { f, _ in complete(f) },
        makeDecoder: { f, _ throws(OSStatusError) in
            guard let f = complete(f), f.mChannelsPerFrame > 0 else { throw OSStatusError(kAudioConverterErr_FormatNotSupported) }
            return IMA4Decoder(format: f)
        },
        makeEncoder: { output, _ throws(OSStatusError) in
            guard let f = complete(output), f.mChannelsPerFrame > 0, f.mSampleRate > 0 else {
                throw OSStatusError(kAudioConverterErr_FormatNotSupported)
            }
            return IMA4Encoder(format: f)
        })

    /// An IMA4 stream's fixed fields: 64 frames and 34 bytes per channel in each packet.
    static func complete(_ f: AudioStreamBasicDescription) -> AudioStreamBasicDescription? {
        var d = f
        d.mFormatFlags = 0
        d.mBitsPerChannel = 0
        d.mBytesPerFrame = 0
        d.mFramesPerPacket = UInt32(IMA4Kernels.framesPerPacket)
        d.mBytesPerPacket = UInt32(IMA4Kernels.bytesPerChannelBlock) * f.mChannelsPerFrame
        return d
    }
}
