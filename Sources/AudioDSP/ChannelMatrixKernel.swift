/// Channel mixing through a gain matrix (the converter's downmix): every output channel is the weighted sum of
/// the input channels. Planar buffers; no allocation.
public enum ChannelMatrixKernel {
    /// `output[o][i] = Σ_c gains[c·outputs + o]·input[c][i]` for `frames` frames. Channel `c` of the input
    /// starts at `input + c·inputStride`, output channel `o` at `output + o·outputStride`; `gains` holds a row
    /// per input channel (Apple's MatrixMixMap layout). Input and output must not overlap.
    @inlinable @_noLocks @_noAllocation
    public static func mix(_ input: UnsafePointer<Double>, inputStride: Int, inputs: Int,
                           gains: UnsafePointer<Double>, into output: UnsafeMutablePointer<Double>, outputStride: Int,
                           outputs: Int, frames: Int) {
        for o in 0..<outputs {
            let dst = output + o * outputStride
            dst.update(repeating: 0, count: frames)
            for c in 0..<inputs {
                let g = gains[c * outputs + o]
                if g == 0 { continue }
                let src = input + c * inputStride
                for i in 0..<frames { dst[i] += g * src[i] }
            }
        }
    }

    /// `output[i] = (Σ_c input[c][i]) / inputs`, the channels summed in order (the converter's mix to mono when no
    /// matrix is set). Channel `c` starts at `input + c·inputStride`. Input and output must not overlap.
    @inlinable @_noLocks @_noAllocation
    public static func averageToMono(_ input: UnsafePointer<Double>, inputStride: Int, inputs: Int,
                                     into output: UnsafeMutablePointer<Double>, frames: Int) {
        let scale = 1 / Double(inputs)
        for i in 0..<frames {
            var sum = 0.0
            for c in 0..<inputs { sum += input[c * inputStride + i] }
            output[i] = sum * scale
        }
    }
}
