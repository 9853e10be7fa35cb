/// Inner loops of `TimeStretcher`: plain loops over contiguous Floats, no allocation.
enum TimeStretchKernels {
    /// (Σ x[i]·r[i], Σ x[i]²) for i < count. Optimised builds use SIMD8 over the multiples of 8 and finish
    /// the rest one by one; debug builds use the scalar form (unspecialised SIMD operators are slow there).
    @inline(__always) @_noLocks @_noAllocation
    static func correlation(_ x: UnsafePointer<Float>, _ r: UnsafePointer<Float>, _ count: Int) -> (Float, Float) {
        #if DEBUG
        var c: Float = 0, e: Float = 0
        var i = 0
        while i < count {
            c += x[i] * r[i]
            e += x[i] * x[i]
            i += 1
        }
        return (c, e)
        #else
        let xr = UnsafeRawPointer(x), rr = UnsafeRawPointer(r)
        var c = SIMD8<Float>(), e = SIMD8<Float>()
        var offset = 0
        let end = 4 * (count & ~7)
        while offset < end {
            let v = xr.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
            c += v * rr.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
            e += v * v
            offset += 32
        }
        var cs = c.sum(), es = e.sum()
        var i = count & ~7
        while i < count {
            cs += x[i] * r[i]
            es += x[i] * x[i]
            i += 1
        }
        return (cs, es)
        #endif
    }

    /// Σ x[i]·r[i] for i < count (SIMD8 as in `correlation`).
    @inline(__always) @_noLocks @_noAllocation
    static func dot(_ x: UnsafePointer<Float>, _ r: UnsafePointer<Float>, _ count: Int) -> Float {
        #if DEBUG
        var c: Float = 0
        var i = 0
        while i < count {
            c += x[i] * r[i]
            i += 1
        }
        return c
        #else
        let xr = UnsafeRawPointer(x), rr = UnsafeRawPointer(r)
        var c = SIMD8<Float>()
        var offset = 0
        let end = 4 * (count & ~7)
        while offset < end {
            c += xr.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
                * rr.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
            offset += 32
        }
        var cs = c.sum()
        var i = count & ~7
        while i < count {
            cs += x[i] * r[i]
            i += 1
        }
        return cs
        #endif
    }

    /// accumulator[i] += window[i]·x[i] for i < count.
    @inline(__always) @_noLocks @_noAllocation
    static func addWindowed(_ x: UnsafePointer<Float>, _ window: UnsafePointer<Float>,
                            into accumulator: UnsafeMutablePointer<Float>, _ count: Int) {
        var i = 0
        while i < count {
            accumulator[i] += window[i] * x[i]
            i += 1
        }
    }

    /// output[i] = Σ over groups of `factor` consecutive samples of x (a box filter, then every factor-th sample).
    @inline(__always) @_noLocks @_noAllocation
    static func decimate(_ x: UnsafePointer<Float>, factor: Int, into output: UnsafeMutablePointer<Float>, _ count: Int) {
        var j = 0
        while j < count {
            var s: Float = 0
            let g = x + j * factor
            var i = 0
            while i < factor {
                s += g[i]
                i += 1
            }
            output[j] = s
            j += 1
        }
    }

    /// output[i] = x read at i + fraction (0 < fraction < 1) by 4-point Hermite interpolation, for i < count
    /// (reads x[-1] ... x[count + 1]).
    @inline(__always) @_noLocks @_noAllocation
    static func interpolate(_ x: UnsafePointer<Float>, _ fraction: Float, into output: UnsafeMutablePointer<Float>, _ count: Int) {
        var i = 0
        while i < count {
            output[i] = VariableRateKernels.hermite(x[i - 1], x[i], x[i + 1], x[i + 2], fraction)
            i += 1
        }
    }
}
