/// An integer-sample delay line over a power-of-two ring buffer: out[n] = in[n - delay[n]].
/// Plain function over buffers; safe on the render thread. Works in place (input == output).
public enum SampleDelayKernel {
    /// Delays `count` samples. `ring` has `mask + 1` samples (a power of two larger than any delay
    /// plus one); `writeIndex` carries the ring position between calls. `delays` gives the delay of
    /// each frame (nil: `constantDelay` for all). Delays are clamped to the ring's capacity.
    @inlinable
    public static func apply(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, count: Int,
                               ring: UnsafeMutablePointer<Float>, mask: Int, writeIndex: inout Int,
                               delays: UnsafePointer<Float>?, constantDelay: Float) {
        var w = writeIndex
        let maxDelay = mask
        guard let delays else {
            // Constant delay: one clamp, then a plain loop the optimiser can keep tight.
            let frames = constantDelay.isFinite ? min(max(Int(constantDelay.rounded()), 0), maxDelay) : 0
            for n in 0..<count {
                ring[w] = input[n]
                output[n] = ring[(w - frames) & mask]
                w = (w + 1) & mask
            }
            writeIndex = w
            return
        }
        for n in 0..<count {
            let x = input[n]
            ring[w] = x
            let d = delays[n]
            let frames = d.isFinite ? min(max(Int(d.rounded()), 0), maxDelay) : 0
            output[n] = ring[(w - frames) & mask]
            w = (w + 1) & mask
        }
        writeIndex = w
    }
}
