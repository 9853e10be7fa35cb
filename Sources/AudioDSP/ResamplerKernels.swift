import CDSPKernels

/// Inner loops of `SampleRateConverter`: plain loops over contiguous Floats.
enum ResamplerKernels {
    /// Σ x[j]·h[j] for `count` a multiple of 8.
    ///
    /// Eight lanes accumulate taps j % 8, then lanes 0-3 and 4-7 are added, then across: the same IEEE
    /// operations in the same order in both forms, so results are bit-identical. Optimised builds use
    /// SIMD8 (the autovectoriser packs the scalar form only two lanes wide); unoptimised builds use the
    /// scalar form, because unspecialised SIMD operators there cost ten times more per tap.
    @inline(__always) @_noLocks @_noAllocation
    static func dot(_ x: UnsafePointer<Float>, _ h: UnsafePointer<Float>, _ count: Int) -> Float {
        #if DEBUG
        var a0: Float = 0, a1: Float = 0, a2: Float = 0, a3: Float = 0
        var a4: Float = 0, a5: Float = 0, a6: Float = 0, a7: Float = 0
        var j = 0
        while j < count {
            a0 += x[j] * h[j]
            a1 += x[j + 1] * h[j + 1]
            a2 += x[j + 2] * h[j + 2]
            a3 += x[j + 3] * h[j + 3]
            a4 += x[j + 4] * h[j + 4]
            a5 += x[j + 5] * h[j + 5]
            a6 += x[j + 6] * h[j + 6]
            a7 += x[j + 7] * h[j + 7]
            j += 8
        }
        let s0 = a0 + a4, s1 = a1 + a5, s2 = a2 + a6, s3 = a3 + a7
        return (s0 + s2) + (s1 + s3)
        #else
        let xr = UnsafeRawPointer(x), hr = UnsafeRawPointer(h)
        var acc = SIMD8<Float>()
        var offset = 0
        let end = 4 * count
        while offset < end {
            acc += xr.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
                * hr.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
            offset += 32
        }
        let s = acc.lowHalf + acc.highHalf
        return (s[0] + s[2]) + (s[1] + s[3])
        #endif
    }
    /// Two channels through the same coefficients (one load of `h` for both): bit-identical to two `dot`s.
    @inline(__always) @_noLocks @_noAllocation
    static func dot2(_ x: UnsafePointer<Float>, _ y: UnsafePointer<Float>, _ h: UnsafePointer<Float>, _ count: Int) -> (Float, Float) {
        #if DEBUG
        return (dot(x, h, count), dot(y, h, count))
        #else
        let xr = UnsafeRawPointer(x), yr = UnsafeRawPointer(y), hr = UnsafeRawPointer(h)
        var a = SIMD8<Float>(), b = SIMD8<Float>()
        var offset = 0
        let end = 4 * count
        while offset < end {
            let c = hr.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
            a += xr.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self) * c
            b += yr.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self) * c
            offset += 32
        }
        let s = a.lowHalf + a.highHalf, t = b.lowHalf + b.highHalf
        return ((s[0] + s[2]) + (s[1] + s[3]), (t[0] + t[2]) + (t[1] + t[3]))
        #endif
    }

    /// Σ x[j]·h[j] by the kernel `kind` names (`count` a multiple of 8).
    @inline(__always) @_noLocks @_noAllocation
    static func dot(_ kind: ResamplerDotKind, _ x: UnsafePointer<Float>, _ h: UnsafePointer<Float>, _ count: Int) -> Float {
        switch kind {
        case .float32: return dot(x, h, count)
        case .float32AVX2: return oca_dot_f32_avx2(x, h, count)
        case .float64: return oca_dot_f64acc(x, h, count)
        case .float64AVX2: return oca_dot_f64acc_avx2(x, h, count)
        }
    }

    /// Two channels through the same coefficients by the kernel `kind` names: each equals `dot(kind, ...)`.
    @inline(__always) @_noLocks @_noAllocation
    static func dot2(_ kind: ResamplerDotKind, _ x: UnsafePointer<Float>, _ y: UnsafePointer<Float>, _ h: UnsafePointer<Float>,
                     _ count: Int) -> (Float, Float) {
        var pair: (Float, Float) = (0, 0)
        switch kind {
        case .float32: return dot2(x, y, h, count)
        case .float32AVX2: withUnsafeMutableBytes(of: &pair) { oca_dot2_f32_avx2(x, y, h, count, $0.baseAddress!.assumingMemoryBound(to: Float.self)) }
        case .float64: withUnsafeMutableBytes(of: &pair) { oca_dot2_f64acc(x, y, h, count, $0.baseAddress!.assumingMemoryBound(to: Float.self)) }
        case .float64AVX2: withUnsafeMutableBytes(of: &pair) { oca_dot2_f64acc_avx2(x, y, h, count, $0.baseAddress!.assumingMemoryBound(to: Float.self)) }
        }
        return pair
    }

    /// Coefficients at fraction `x` of a cubic-table interval (rows c0...c3 of `count` each, see
    /// ResamplerTables.cubic), written to `h`. Done once per output frame and shared by all channels.
    @inline(__always) @_noLocks @_noAllocation
    static func interpolateCoefficients(_ block: UnsafePointer<Float>, _ count: Int, _ x: Float, _ h: UnsafeMutablePointer<Float>) {
        let c1 = block + count, c2 = block + 2 * count, c3 = block + 3 * count
        for j in 0..<count {
            h[j] = block[j] + x * (c1[j] + x * (c2[j] + x * c3[j]))
        }
    }
}
