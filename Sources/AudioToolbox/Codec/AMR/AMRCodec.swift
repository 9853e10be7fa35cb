/// AMR narrowband ('samr': 8 kHz mono, 160 frames a packet) and wideband ('sawb': 16 kHz mono, 320 frames a
/// packet) through Debian's opencore-amr. Narrowband encodes too, as Apple's converter does ('samr' from
/// 8 kHz mono; other PCM reaches it through the converter's rate and channel stages); wideband is decode only
/// here: opencore-amrwb has no encoder and no wideband encoder library is linked, so AudioConverterNew to
/// 'sawb' answers 'fmt?'. A packet is one storage-format frame (ToC byte first), or several laid end to end
/// where a 3GP sample holds more than one.
enum AMRCodec {
    /// The registry entry for 'samr' or 'sawb'.
    static func entry(wideband: Bool) -> CodecEntry {
        var e = CodecEntry(
            formatID: wideband ? kAudioFormatAMR_WB : kAudioFormatAMR,
            name: wideband ? "AMR Wideband" : "AMR Narrowband",
            completeFormat: { f, _ in complete(f, wideband: wideband) },
            makeDecoder: { f, _ throws(OSStatusError) in
                guard let d = complete(f, wideband: wideband) else { throw OSStatusError(kAudioConverterErr_FormatNotSupported) }
                return AMRPacketDecoder(format: d, wideband: wideband)
            },
            makeEncoder: wideband ? nil : makeEncoder)
        e.encodeSampleRates = [8000]
        e.maximumEncodeChannels = 1
        // The fixed-point decoders carry a lot of state (LSP and gain predictors, pitch memory, post-filter) that
        // does not settle bit-exactly after any preroll (16 packets: narrowband 44 dB below the file's power,
        // wideband 34 dB below 5.5 kHz, its noise-filled top band never): seeks decode from an exact state instead.
        // opencore's state is opaque, but it is plain heap memory that AMRDecoderState finds and checks, so the
        // decoder copies it out and back (PacketDecoder.saveState): ExtAudioFile keeps a checkpoint of it every 500
        // packets (10 s; at most 256, farther apart in files over 42 minutes) as it decodes, and reaches a target by
        // restoring the nearest one at or before it (or packet 0, or going on from where it is) and decoding on,
        // exact. A target the decoder has been past costs at most 500 packets of decoding (up to ~15 ms in a debug
        // build); one beyond the last checkpoint costs decoding the packets up to it, once, bounded at 30,000 packets
        // (10 minutes of audio at 20 ms a packet: 0.4-1 s of speech in a debug build). Without checkpoints (the state's
        // layout not recognised: another opencore build) the bound is 3,000 packets from the start or the decoder's
        // position (60 s, a few tens of milliseconds in a release build). A farther target prerolls 16 packets, not
        // exact, so a long or hostile file (256 KiB of 1-byte NO_DATA frames is 87 minutes) seeks in bounded time.
        e.exactSeekPackets = 3000
        e.checkpointedSeekPackets = 30000
        e.seekPrerollPackets = 16
        return e
    }

    /// The narrowband encoder for a completed 'samr' description.
    @Sendable private static func makeEncoder(_ output: AudioStreamBasicDescription,
                                              _ input: AudioStreamBasicDescription) throws(OSStatusError) -> PacketEncoder {
        try AMRPacketEncoder(format: output)
    }

    /// The fixed fields: the band's rate, mono, 20 ms a packet (or the whole frames a description asks for),
    /// variable packet sizes. Nil for a rate or channel count AMR cannot carry.
    static func complete(_ f: AudioStreamBasicDescription, wideband: Bool) -> AudioStreamBasicDescription? {
        let rate = wideband ? 16000.0 : 8000.0
        let frame = UInt32(AMRFrame.samples(wideband: wideband))
        guard f.mSampleRate == 0 || f.mSampleRate == rate, f.mChannelsPerFrame <= 1,
              f.mFramesPerPacket % frame == 0, f.mFramesPerPacket <= frame * 64 else { return nil }
        var d = f
        d.mSampleRate = rate
        d.mChannelsPerFrame = 1
        if d.mFramesPerPacket == 0 { d.mFramesPerPacket = frame }
        d.mFormatFlags = 0
        d.mBytesPerPacket = 0
        d.mBytesPerFrame = 0
        d.mBitsPerChannel = 0
        return d
    }
}
