/// MPEG audio layers I-III decoded by libmpg123 ('.mp1', '.mp2', '.mp3'). There is no encoder: Apple's
/// converter has none either and answers 'fmt?' (kAudioConverterErr_FormatNotSupported), as does ours.
enum MP3Codec {
    /// The registry entry for one layer's format ID.
    static func entry(_ formatID: AudioFormatID) -> CodecEntry {
        var entry = CodecEntry(
            formatID: formatID,
            name: formatID == kAudioFormatMPEGLayer3 ? "MPEG Layer 3" : formatID == kAudioFormatMPEGLayer2 ? "MPEG Layer 2" : "MPEG Layer 1",
            completeFormat: { f, _ in complete(f, formatID) },
            makeDecoder: { f, _ throws(OSStatusError) in
                guard f.mChannelsPerFrame >= 1, f.mChannelsPerFrame <= 2, f.mSampleRate > 0 else {
                    throw OSStatusError(kAudioConverterErr_FormatNotSupported)
                }
                return try MP3Decoder(format: f)
            },
            makeEncoder: nil)
        // The bit reservoir reaches up to 511 bytes back (several small frames) and the filter banks
        // overlap by a frame: ten packets settle every state before a seek target.
        entry.seekPrerollPackets = 10
        return entry
    }

    /// The fixed fields: no packet size, 1152 frames a packet (layer III at 32-48 kHz, layer II), 576
    /// (layer III below 32 kHz), 384 (layer I).
    static func complete(_ f: AudioStreamBasicDescription, _ formatID: AudioFormatID) -> AudioStreamBasicDescription? {
        var d = f
        d.mFormatFlags = 0
        d.mBytesPerPacket = 0
        d.mBytesPerFrame = 0
        d.mBitsPerChannel = 0
        if formatID == kAudioFormatMPEGLayer1 {
            d.mFramesPerPacket = 384
        } else if formatID == kAudioFormatMPEGLayer3 && f.mSampleRate > 0 && f.mSampleRate < 32000 {
            d.mFramesPerPacket = 576
        } else {
            d.mFramesPerPacket = 1152
        }
        return d
    }
}
