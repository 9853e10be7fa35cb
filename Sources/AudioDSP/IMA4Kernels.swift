/// Apple IMA4 ADPCM ('ima4'): each packet holds 64 frames, one 34-byte block per channel: a big-endian
/// 16-bit header (the predictor's top 9 bits, then the 7-bit step index) and 32 bytes of 4-bit codes,
/// first sample in the low nibble. The arithmetic is the IMA ADPCM reference's (as in ffmpeg's
/// adpcm_ima_qt). Every packet starts from its own header, in the encoder as in the decoder, so any
/// packet decodes alone and a seek lands on the same samples as a decode from the start. (ffmpeg's
/// decoder keeps its running predictor when the header is within 127 of it, so its output can differ
/// from this by a constant of at most 127 within a packet.)
public enum IMA4Kernels {
    public static let framesPerPacket = 64
    public static let bytesPerChannelBlock = 34

    /// IMA ADPCM's 89 quantiser step sizes.
    public static let stepTable: [Int32] = [
        7, 8, 9, 10, 11, 12, 13, 14, 16, 17, 19, 21, 23, 25, 28, 31, 34, 37, 41, 45, 50, 55, 60, 66, 73, 80, 88, 97,
        107, 118, 130, 143, 157, 173, 190, 209, 230, 253, 279, 307, 337, 371, 408, 449, 494, 544, 598, 658, 724, 796,
        876, 963, 1060, 1166, 1282, 1411, 1552, 1707, 1878, 2066, 2272, 2499, 2749, 3024, 3327, 3660, 4026, 4428,
        4871, 5358, 5894, 6484, 7132, 7845, 8630, 9493, 10442, 11487, 12635, 13899, 15289, 16818, 18500, 20350,
        22385, 24623, 27086, 29794, 32767,
    ]
    /// How each code moves the step index.
    public static let indexTable: [Int32] = [-1, -1, -1, -1, 2, 4, 6, 8, -1, -1, -1, -1, 2, 4, 6, 8]

    /// One channel's running predictor and step index, carried from packet to packet.
    public struct ChannelState: Sendable, Equatable {
        public var predictor: Int32 = 0
        public var stepIndex: Int32 = 0
        /// A fresh state (silence, smallest step).
        public init() {}
    }

    @inline(__always)
    static func expand(_ state: inout ChannelState, _ code: Int32) -> Int16 {
        let step = stepTable[Int(state.stepIndex)]
        var diff = step >> 3
        if code & 4 != 0 { diff += step }
        if code & 2 != 0 { diff += step >> 1 }
        if code & 1 != 0 { diff += step >> 2 }
        let p = code & 8 != 0 ? state.predictor - diff : state.predictor + diff
        state.predictor = min(max(p, -32768), 32767)
        state.stepIndex = min(max(state.stepIndex + indexTable[Int(code)], 0), 88)
        return Int16(state.predictor)
    }

    /// Decodes one channel's 34-byte block into 64 samples written `stride` apart, starting from the
    /// block's header (a step index past 88 is clamped); `state` ends as the block leaves it.
    public static func decodeBlock(_ block: UnsafePointer<UInt8>, state: inout ChannelState,
                                   into out: UnsafeMutablePointer<Int16>, stride: Int) {
        let header = Int32(Int16(bitPattern: UInt16(block[0]) << 8 | UInt16(block[1])))
        state.stepIndex = min(header & 0x7F, 88)
        state.predictor = header & ~0x7F
        for i in 0..<32 {
            let byte = Int32(block[2 + i])
            out[(2 * i) * stride] = expand(&state, byte & 0x0F)
            out[(2 * i + 1) * stride] = expand(&state, byte >> 4)
        }
    }

    @inline(__always)
    static func compress(_ state: inout ChannelState, _ sample: Int32) -> Int32 {
        var delta = sample - state.predictor
        var step = stepTable[Int(state.stepIndex)]
        var code: Int32 = delta < 0 ? 8 : 0
        delta = abs(delta)
        var diff = delta + (step >> 3)
        if delta >= step { code |= 4; delta -= step }
        step >>= 1
        if delta >= step { code |= 2; delta -= step }
        step >>= 1
        if delta >= step { code |= 1; delta -= step }
        diff -= delta
        let p = code & 8 != 0 ? state.predictor - diff : state.predictor + diff
        state.predictor = min(max(p, -32768), 32767)
        state.stepIndex = min(max(state.stepIndex + indexTable[Int(code)], 0), 88)
        return code
    }

    /// Encodes 64 samples (`stride` apart) into one channel's 34-byte block, continuing `state`'s step
    /// and restarting from the predictor's top 9 bits, which is all the header can carry to a decoder.
    public static func encodeBlock(_ samples: UnsafePointer<Int16>, stride: Int, state: inout ChannelState,
                                   into block: UnsafeMutablePointer<UInt8>) {
        let header = UInt16(truncatingIfNeeded: state.predictor) & 0xFF80 | UInt16(state.stepIndex)
        state.predictor = Int32(Int16(bitPattern: header & 0xFF80))
        block[0] = UInt8(header >> 8)
        block[1] = UInt8(header & 0xFF)
        for i in 0..<32 {
            let low = compress(&state, Int32(samples[(2 * i) * stride]))
            let high = compress(&state, Int32(samples[(2 * i + 1) * stride]))
            block[2 + i] = UInt8(low | high << 4)
        }
    }
}
