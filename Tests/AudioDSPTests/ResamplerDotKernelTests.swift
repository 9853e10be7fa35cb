@testable import AudioDSP
import CDSPKernels
import Testing

/// The resampler's dot products: the AVX2 kernels against the portable ones, Float64 accumulation against an
/// exact reference, and pairs against singles.
@Suite struct ResamplerDotKernelTests {
    /// Random taps in [-1, 1) and a matching window, `count` of each.
    static func vectors(_ count: Int, seed: UInt64) -> ([Float], [Float]) {
        var state = seed
        func next() -> Float {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(Int32(truncatingIfNeeded: state >> 32)) * 0x1p-31
        }
        return ((0..<count).map { _ in next() }, (0..<count).map { _ in next() })
    }

    static let counts = [8, 16, 24, 168, 184, 256, 512]

    /// Σ x·h in Float64 over products that are exact there, summed in index order: within a few units in the
    /// last place of Float64 of the true sum, far below one Float32 ulp.
    static func reference(_ x: [Float], _ h: [Float]) -> Double {
        zip(x, h).reduce(0.0) { $0 + Double($1.0) * Double($1.1) }
    }

    @Test func float64AccumulationRoundsTheExactSumOnce() {
        for (i, count) in Self.counts.enumerated() {
            let (x, h) = Self.vectors(count, seed: UInt64(i + 1))
            let got = oca_dot_f64acc(x, h, count)
            let want = Self.reference(x, h)
            // One rounding of a sum accurate far beyond Float32: the nearest Float, or (at a tie of the two
            // neighbours within the reference's own error) its neighbour.
            #expect(abs(Double(got) - want) <= Double(Float(want).ulp) * 0.5 + 1e-12, "count \(count): \(got) vs \(want)")
        }
    }

    @Test(.enabled(if: ResamplerDotKind.cpuHasAVX2FMA, "the CPU has no AVX2 + FMA"))
    func float64KernelsAgreeBitForBit() {
        for (i, count) in Self.counts.enumerated() {
            let (x, h) = Self.vectors(count, seed: UInt64(100 + i))
            let (y, _) = Self.vectors(count, seed: UInt64(200 + i))
            #expect(oca_dot_f64acc(x, h, count).bitPattern == oca_dot_f64acc_avx2(x, h, count).bitPattern, "count \(count)")
            var portable: [Float] = [0, 0], wide: [Float] = [0, 0]
            oca_dot2_f64acc(x, y, h, count, &portable)
            oca_dot2_f64acc_avx2(x, y, h, count, &wide)
            #expect(portable.map(\.bitPattern) == wide.map(\.bitPattern), "count \(count)")
        }
    }

    /// Float32 with fused multiply-adds rounds differently from the portable SIMD8 sum, but both stay within
    /// a few Float32 ulps of the magnitude summed.
    @Test(.enabled(if: ResamplerDotKind.cpuHasAVX2FMA, "the CPU has no AVX2 + FMA"))
    func float32AVX2AgreesWithPortableWithinRounding() {
        for (i, count) in Self.counts.enumerated() {
            let (x, h) = Self.vectors(count, seed: UInt64(300 + i))
            let magnitude = zip(x, h).reduce(0.0) { $0 + abs(Double($1.0) * Double($1.1)) }
            let want = Self.reference(x, h)
            let portable = Double(ResamplerKernels.dot(x, h, count))
            let wide = Double(oca_dot_f32_avx2(x, h, count))
            let bound = magnitude * Double(Float.ulpOfOne) * 2
            #expect(abs(portable - want) <= bound && abs(wide - want) <= bound, "count \(count): portable \(portable), AVX2 \(wide), exact \(want)")
        }
    }

    /// Each kernel's pair form gives each channel exactly its single form: a stereo conversion is two mono ones.
    @Test func pairsEqualSingles() {
        var kinds: [ResamplerDotKind] = [.float32, .float64]
        if ResamplerDotKind.cpuHasAVX2FMA { kinds += [.float32AVX2, .float64AVX2] }
        for kind in kinds {
            for (i, count) in Self.counts.enumerated() {
                let (x, h) = Self.vectors(count, seed: UInt64(400 + i))
                let (y, _) = Self.vectors(count, seed: UInt64(500 + i))
                let pair = ResamplerKernels.dot2(kind, x, y, h, count)
                let single = (ResamplerKernels.dot(kind, x, h, count), ResamplerKernels.dot(kind, y, h, count))
                #expect(pair.0.bitPattern == single.0.bitPattern && pair.1.bitPattern == single.1.bitPattern, "\(kind) count \(count)")
            }
        }
    }

    /// The exact-phase loop in C gives every frame the sum of the window and row it should read: Max exactly the
    /// per-frame kernel's, Float32 (whose loop takes frames that share a row together, with sums of its own) that sum
    /// within Float32 rounding, and the same bits whether the frames come in one call or one call each (the positions worked out here independently: frame n of a ratio M/L reads row n·M mod L at
    /// n·M div L), pairs and single channels alike, and stops where the next window would pass `lastStart` or
    /// after `count` frames. Ratios: 44100 -> 48000 (M/L = 147/160), 48000 -> 44100 (160/147: the window moves a
    /// whole frame plus a fraction each output frame), and the first with a count that ends the loop early.
    @Test(.enabled(if: ResamplerDotKind.cpuHasAVX2FMA, "the CPU has no AVX2 + FMA"),
          arguments: [[147, 160, 1000], [160, 147, 1000], [147, 160, 50]])
    func polyphaseLoopEqualsPerFrameKernels(_ ratio: [Int]) {
        let taps = 24, m = ratio[0], phases = ratio[1], count = ratio[2]
        let (table, _) = Self.vectors(taps * phases, seed: 600)
        // The loop reads the rows in visiting order: row r holds phase r·M mod L.
        var visits: [Float] = []
        for r in 0..<phases {
            let phase = r * m % phases
            visits += table[phase * taps..<(phase + 1) * taps]
        }
        let (x, _) = Self.vectors(700, seed: 601)
        let (y, _) = Self.vectors(700, seed: 602)
        let lastStart = 700 - taps
        for wide in [true, false] {
            for pair in [true, false] {
                // Start mid-stream: frame 5 of the ratio.
                let first = 5
                var start = first * m / phases, phase = first * m % phases, row = first
                var out0 = [Float](repeating: .nan, count: 1000), out1 = [Float](repeating: .nan, count: 1000)
                let n = x.withUnsafeBufferPointer { xp in
                    y.withUnsafeBufferPointer { yp in
                        out1.withUnsafeMutableBufferPointer { o1 in
                            let (a, b) = (xp.baseAddress, pair ? yp.baseAddress : nil)
                            return wide
                                ? oca_polyphase_f32_avx2(a, b, visits, taps, phases, m / phases, m % phases, lastStart, count,
                                                         &start, &phase, &row, &out0, o1.baseAddress)
                                : oca_polyphase_f64acc_avx2(a, b, visits, taps, phases, m / phases, m % phases, lastStart, count,
                                                            &start, &phase, &row, &out0, o1.baseAddress)
                        }
                    }
                }
                // Frames first ... first + n - 1 have windows starting at most at lastStart; the next does not
                // (unless `count` frames came first).
                let expectedCount = min(count, (0...).first { (first + $0) * m / phases > lastStart }!)
                #expect(n == expectedCount, "wide \(wide) pair \(pair)")
                let next = first + n
                #expect(start == next * m / phases && phase == next * m % phases && row == next % phases)
                for i in 0..<n {
                    let frame = first + i, s = frame * m / phases, p = frame * m % phases
                    let h = Array(table[p * taps..<(p + 1) * taps]), wx = Array(x[s..<s + taps]), wy = Array(y[s..<s + taps])
                    if wide {
                        for (got, w) in [(out0[i], wx)] + (pair ? [(out1[i], wy)] : []) {
                            let magnitude = zip(w, h).reduce(0.0) { $0 + abs(Double($1.0) * Double($1.1)) }
                            let error = abs(Double(got) - Self.reference(w, h))
                            #expect(error <= magnitude * Double(Float.ulpOfOne) * 2, "pair \(pair) frame \(frame)")
                        }
                    } else {
                        #expect(out0[i].bitPattern == oca_dot_f64acc_avx2(wx, h, taps).bitPattern, "pair \(pair) frame \(frame)")
                        if pair { #expect(out1[i].bitPattern == oca_dot_f64acc_avx2(wy, h, taps).bitPattern, "frame \(frame)") }
                    }
                }
                // The same frames one call at a time (no blocks): the same bits.
                var single0 = [Float](repeating: .nan, count: n), single1 = [Float](repeating: .nan, count: n)
                var s1 = first * m / phases, p1 = first * m % phases, r1 = first
                for i in 0..<n {
                    let written = x.withUnsafeBufferPointer { xp in
                        y.withUnsafeBufferPointer { yp in
                            single1.withUnsafeMutableBufferPointer { o1 in
                                single0.withUnsafeMutableBufferPointer { o0 in
                                    let (a, b) = (xp.baseAddress, pair ? yp.baseAddress : nil)
                                    return wide
                                        ? oca_polyphase_f32_avx2(a, b, visits, taps, phases, m / phases, m % phases, lastStart, 1,
                                                                 &s1, &p1, &r1, o0.baseAddress! + i, o1.baseAddress! + i)
                                        : oca_polyphase_f64acc_avx2(a, b, visits, taps, phases, m / phases, m % phases, lastStart, 1,
                                                                    &s1, &p1, &r1, o0.baseAddress! + i, o1.baseAddress! + i)
                                }
                            }
                        }
                    }
                    #expect(written == 1)
                }
                #expect(single0.map(\.bitPattern) == Array(out0[..<n]).map(\.bitPattern), "wide \(wide) pair \(pair): one call each")
                if pair { #expect(single1.map(\.bitPattern) == Array(out1[..<n]).map(\.bitPattern), "wide \(wide): one call each") }
                if !pair { #expect(out1.allSatisfy { $0.isNaN }, "a single channel leaves out1 alone") }
                #expect(out0[n...].allSatisfy { $0.isNaN })
            }
        }
    }

    /// Max picks Float64 accumulation, the other qualities Float32, each in AVX2 exactly when the CPU has it.
    @Test func qualityChoosesTheKernel() {
        let wide = ResamplerDotKind.cpuHasAVX2FMA
        #expect(ResamplerDotKind.forQuality(.max) == (wide ? .float64AVX2 : .float64))
        #expect(ResamplerDotKind.forQuality(.high) == (wide ? .float32AVX2 : .float32))
        #expect(ResamplerDotKind.forQuality(.max, portable: true) == .float64)
        #expect(ResamplerDotKind.forQuality(.min, portable: true) == .float32)
    }
}
