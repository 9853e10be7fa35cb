import AudioDSP

/// µ-law ('ulaw') and A-law ('alaw'): one byte per sample, one frame per packet, decoded to 16-bit PCM.
enum G711Codec {
    /// The registry entry for µ-law (`aLaw` false) or A-law.
    static func entry(aLaw: Bool) -> CodecEntry {
        CodecEntry(
            formatID: aLaw ? kAudioFormatALaw : kAudioFormatULaw,
            name: aLaw ? "aLaw 2:1" : "µLaw 2:1",
            completeFormat: { f, _ in complete(f) },
            makeDecoder: { f, _ throws(OSStatusError) in
                guard let f = complete(f), f.mChannelsPerFrame > 0 else { throw OSStatusError(kAudioConverterErr_FormatNotSupported) }
                return G711Decoder(format: f, aLaw: aLaw)
            },
            makeEncoder: { output, _ throws(OSStatusError) in
                guard let f = complete(output), f.mChannelsPerFrame > 0, f.mSampleRate > 0 else {
                    throw OSStatusError(kAudioConverterErr_FormatNotSupported)
                }
                return G711Encoder(format: f, aLaw: aLaw)
            })
    }

    /// A G.711 stream's fixed fields: 8 bits per sample, one frame per packet.
    static func complete(_ f: AudioStreamBasicDescription) -> AudioStreamBasicDescription? {
        var d = f
        d.mFormatFlags = 0
        d.mBitsPerChannel = 8
        d.mFramesPerPacket = 1
        d.mBytesPerFrame = f.mChannelsPerFrame
        d.mBytesPerPacket = f.mChannelsPerFrame
        return d
    }
}
