/// The static curve (input level → output level, dB) the dynamics processor and every band of the multiband
/// compressor share; see `DynamicsProcessorKernel` for the design. A caseless enum so the render loops can call it
/// without touching class metadata.
enum DynamicsCurve {
    /// Output level (dB) for a steady input level `x` (dB): compression above `t` toward, never past, `t` + `h`;
    /// unity between min(`e`, `t`) and `t`; downward expansion by `r` below min(`e`, `t`).
    @inline(__always) @_noLocks @_noAllocation
    static func output(inputDB x: Double, threshold t: Double, headRoom h: Double,
                       expansionRatio r: Double, expansionThreshold e: Double) -> Double {
        if x > t { return t + h * DynamicsMath.tanh((x - t) / h) }
        let edge = min(e, t)
        if x < edge { return edge + r * (x - edge) }
        return x
    }
}
