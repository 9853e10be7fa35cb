internal import CAMR

/// The heap blocks that hold an opencore-amr decoder's whole state, so that the state can be copied out and back
/// (ExtAudioFile's seek checkpoints). opencore's state is opaque in its headers; what this relies on was read in
/// opencore-amr's source (amrnb/wrapper.cpp, sp_dec.cpp, dec_amr.h; amrwb/wrapper.cpp, pvamrwbdecoder.cpp) and
/// checked against Debian's 0.1.6 binaries (their D_IF_init, D_IF_exit, GSMInitDecode disassembled; the heap
/// counted around init and decode; the libraries' writable segments compared before and after decoding):
///
/// - Narrowband: Decoder_Interface_init returns one malloc'd Speech_Decode_FrameState (0x778 = 1,912 bytes).
///   Inside it, `exc` (the pointer after the 194-sample `old_exc` at offset 0) points 308 bytes into the block, and
///   `common_amr_tbls` holds pointers to the library's constant tables.
/// - Wideband: D_IF_init returns a calloc'd 72-byte wrapper struct: `st` (offset 0) and `pt_st` (8), both the
///   pvDecoder_AmrWbMemRequirements() block (0x1128 = 4,392 bytes, the decoder's state then its scratch memory),
///   `ScratchMem` (16) 1,520 bytes into that block, `iInputBuf` (24) NULL, `iInputSampleBuf` (32) a malloc'd
///   477-sample (954-byte) buffer of the frame's unpacked bits, `iOutputBuf` (40) NULL, then the wrapper's own
///   state (mode, previous mode, homing flags, the RX state).
/// - Decoding allocates nothing and writes no global: every byte that carries from one frame to the next is in
///   those blocks, and every pointer among them points into the same blocks or at constant tables.
///
/// So a copy of the blocks' bytes is the whole state, and copying it back INTO THE SAME blocks restores it: the
/// internal pointers are right again because the blocks have not moved (a copy is never put into another
/// decoder's blocks; AMRPacketDecoder keeps its blocks for its lifetime and resets by restoring its first copy).
/// Each block is copied whole, malloc_usable_size bytes (glibc; the slack past the library's size is never read).
/// `blocks` checks the layout above (the pointers' relations, each block's usable size against the size the
/// library allocates) before anything is read through a pointer and answers nil if anything differs (another
/// version or build): the decoder then keeps no copies and seeks as before, preroll beyond the exact bound.
enum AMRDecoderState {
    /// A heap block of the state: where it is and its bytes.
    struct Block {
        let base: UnsafeMutableRawPointer
        let count: Int
    }

    /// The blocks of the state `state` (from Decoder_Interface_init or D_IF_init, nothing decoded yet), or nil when
    /// the layout is not the one described above.
    static func blocks(of state: UnsafeMutableRawPointer, wideband: Bool) -> [Block]? {
        if !wideband {
            guard let block = heapBlock(state, allocated: 0x778),
                  state.load(fromByteOffset: 392, as: UnsafeRawPointer?.self) == UnsafeRawPointer(state + 308) else { return nil }
            return [block]
        }
        let st = state.load(fromByteOffset: 0, as: UnsafeMutableRawPointer?.self)
        let memory = state.load(fromByteOffset: 8, as: UnsafeMutableRawPointer?.self)
        let scratch = state.load(fromByteOffset: 16, as: UnsafeMutableRawPointer?.self)
        let inputBuffer = state.load(fromByteOffset: 24, as: UnsafeMutableRawPointer?.self)
        let sampleBuffer = state.load(fromByteOffset: 32, as: UnsafeMutableRawPointer?.self)
        let outputBuffer = state.load(fromByteOffset: 40, as: UnsafeMutableRawPointer?.self)
        // The wrapper's size first (its pointers are read only if it is the 72-byte struct), then the pointers'
        // relations before either inner pointer goes to malloc_usable_size.
        guard let wrapper = heapBlock(state, allocated: 72), let memory, let sampleBuffer, st == memory, scratch == memory + 1520,
              inputBuffer == nil, outputBuffer == nil, sampleBuffer != memory, sampleBuffer != state,
              let decoder = heapBlock(memory, allocated: 0x1128), let bits = heapBlock(sampleBuffer, allocated: 954) else { return nil }
        return [wrapper, bits, decoder]
    }

    /// `pointer`'s block when malloc says it has room for `allocated` bytes and no more than glibc's rounding gives
    /// (8 bytes of header, 16-byte chunks, and a free chunk used whole when splitting it would leave less than 32
    /// bytes: up to 31 bytes over): a block of another size means another layout.
    private static func heapBlock(_ pointer: UnsafeMutableRawPointer, allocated: Int) -> Block? {
        let usable = malloc_usable_size(pointer)
        guard usable >= allocated, usable < allocated + 48 else { return nil }
        return Block(base: pointer, count: usable)
    }

    /// The blocks' bytes, one after another.
    static func save(_ blocks: [Block]) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: blocks.reduce(0) { $0 + $1.count })
        bytes.withUnsafeMutableBytes { out in
            var offset = 0
            for b in blocks {
                (out.baseAddress! + offset).copyMemory(from: b.base, byteCount: b.count)
                offset += b.count
            }
        }
        return bytes
    }

    /// Copies `bytes` (from `save` of these same blocks) back into the blocks; false, nothing written, when the
    /// count differs.
    static func restore(_ bytes: [UInt8], into blocks: [Block]) -> Bool {
        guard bytes.count == blocks.reduce(0, { $0 + $1.count }) else { return false }
        bytes.withUnsafeBytes { src in
            var offset = 0
            for b in blocks {
                b.base.copyMemory(from: src.baseAddress! + offset, byteCount: b.count)
                offset += b.count
            }
        }
        return true
    }
}
