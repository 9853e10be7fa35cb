internal import CAMR

/// AMR storage-format frames to 16-bit mono PCM through opencore-amr. Each frame in a packet is decoded in
/// turn; a frame whose bytes are cut short answers 'bada', which the converter
/// conceals with silence. A NO_DATA frame goes to the decoder too: it fills its 20 ms from the state carried
/// over, as the codec's error concealment does. The state's bytes can be copied out and back (AMRDecoderState), for
/// exact seeks from checkpoints; the decoder then keeps its state's blocks for its lifetime.
final class AMRPacketDecoder: PacketDecoder {
    let pcmFormat: AudioStreamBasicDescription
    let maximumFramesPerPacket: Int
    private let wideband: Bool
    private let frameSamples: Int
    private var state: UnsafeMutableRawPointer?
    /// The state's heap blocks, nil when their layout was not recognised (no copies then), and their bytes
    /// straight after init: `reset` puts those back rather than making a new state, so that the blocks never move
    /// and every copy `saveState` made stays good for `restoreState`.
    private var blocks: [AMRDecoderState.Block]?
    private var initialState: [UInt8] = []

    init(format: AudioStreamBasicDescription, wideband: Bool) {
        self.wideband = wideband
        frameSamples = AMRFrame.samples(wideband: wideband)
        maximumFramesPerPacket = max(Int(format.mFramesPerPacket), frameSamples)
        pcmFormat = CodecPCMFormat.int16(rate: wideband ? 16000 : 8000, channels: 1)
        state = wideband ? D_IF_init() : Decoder_Interface_init()
        if let state, let blocks = AMRDecoderState.blocks(of: state, wideband: wideband) {
            self.blocks = blocks
            initialState = AMRDecoderState.save(blocks)
        }
    }

    deinit { close() }

    private func close() {
        guard let state else { return }
        if wideband { D_IF_exit(state) } else { Decoder_Interface_exit(state) }
        self.state = nil
    }

    func decode(_ data: UnsafeRawBufferPointer, packetCount: Int, into pcm: UnsafeMutableRawPointer,
                capacityFrames: Int) throws(OSStatusError) -> Int {
        guard let state, let base = data.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return 0 }
        let out = pcm.assumingMemoryBound(to: Int16.self)
        var offset = 0
        var written = 0
        while offset < data.count && written + frameSamples <= capacityFrames {
            let toc = base[offset]
            let size = AMRFrame.size(toc: toc, wideband: wideband)
            guard offset + size <= data.count else { throw OSStatusError(kCodecBadDataStatus) }
            if wideband {
                D_IF_decode(state, base + offset, out + written, 0)
            } else {
                Decoder_Interface_Decode(state, base + offset, out + written, 0)
            }
            offset += size
            written += frameSamples
        }
        return written
    }

    func reset() {
        // The libraries have no reset call: the state's bytes as init left them, or a fresh state.
        if let blocks, AMRDecoderState.restore(initialState, into: blocks) { return }
        close()
        state = wideband ? D_IF_init() : Decoder_Interface_init()
    }

    func saveState() -> [UInt8]? {
        blocks.map(AMRDecoderState.save)
    }

    func restoreState(_ saved: [UInt8]) -> Bool {
        guard let blocks else { return false }
        return AMRDecoderState.restore(saved, into: blocks)
    }
}
