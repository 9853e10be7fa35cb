/// Reading a signal at a variable rate: 4-point, third-order Hermite (Catmull-Rom) interpolation. Exact at
/// whole positions (rate 1 passes the signal through unchanged) and cheap enough for every 3D mixer input;
/// it does no band-limiting, so rates above 1 alias what lies above the output's Nyquist frequency.
public enum VariableRateKernels {
    /// The Hermite interpolant through xm1, x0, x1, x2 at fraction `t` in [0, 1) between x0 and x1.
    @inlinable @_noLocks @_noAllocation
    public static func hermite(_ xm1: Float, _ x0: Float, _ x1: Float, _ x2: Float, _ t: Float) -> Float {
        let c1 = 0.5 * (x1 - xm1)
        let c2 = xm1 - 2.5 * x0 + 2 * x1 - 0.5 * x2
        let c3 = 0.5 * (x2 - xm1) + 1.5 * (x0 - x1)
        return ((c3 * t + c2) * t + c1) * t + x0
    }

    /// The number of source samples a slice needs: reading `count` outputs from `position` in steps of
    /// `step` (position ≥ 1) touches indices up to floor(position + (count - 1)·step) + 2.
    @inlinable public static func samplesNeeded(position: Double, step: Double, count: Int) -> Int {
        count == 0 ? 0 : Int(position + Double(count - 1) * step) + 3
    }

    /// Writes `count` samples read from `source` at `position`, `position + step`, ... (position ≥ 1, so
    /// source[floor(position) - 1] exists). Returns the position after the last sample.
    @inlinable @_noLocks @_noAllocation
    public static func read(_ source: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>, count: Int,
                            position: Double, step: Double) -> Double {
        var p = position
        var i = 0
        if step == 1 && Double(Int(p)) == p {
            // Whole positions at rate 1: a copy.
            let start = source + Int(p)
            while i < count { output[i] = start[i]; i += 1 }
            return p + Double(count)
        }
        // Whole and fractional parts stepped separately: no float-to-int conversion per sample.
        var base = Int(p)
        var t = p - Double(base)
        let whole = Int(step), frac = step - Double(whole)
        while i < count {
            // At t == 0 the polynomial is exactly source[base]; source[base + 2] exists by samplesNeeded.
            output[i] = hermite(source[base - 1], source[base], source[base + 1], source[base + 2], Float(t))
            base += whole
            t += frac
            if t >= 1 { t -= 1; base += 1 }
            i += 1
        }
        p = Double(base) + t
        return p
    }
}
