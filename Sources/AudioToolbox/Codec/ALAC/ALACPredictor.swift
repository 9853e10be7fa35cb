/// ALAC's adaptive FIR predictor (dp_dec.c / dp_enc.c). Each sample is predicted from the previous `order`
/// ones relative to the oldest of them; after each sample the coefficients move one step by sign-sign LMS,
/// stopping early once the residual's magnitude is used up, exactly as Apple's unpc_block/pc_block do.
/// All arithmetic wraps at 32 bits and coefficients at 16, as in the reference C, so encoder and decoder
/// agree bit for bit on any input.
enum ALACPredictor {
    /// The coefficient precision Apple's encoder uses (DENSHIFT_DEFAULT).
    static let defaultDenShift = 9
    /// Coefficients kept per search order (kALACMaxCoefs).
    static let maxCoefficients = 16
    /// The order that means "first difference, no coefficients", used by prediction mode 15.
    static let firstDifferenceOrder = 31

    /// init_coefs: the encoder's starting coefficients, (38, -29, -2) / 16 at precision `denShift`, rest 0.
    static func initializeCoefficients(_ coefs: UnsafeMutablePointer<Int16>, denShift: Int, count: Int) {
        let den = 1 << denShift
        coefs.update(repeating: 0, count: count)
        if count > 0 { coefs[0] = Int16(truncatingIfNeeded: (38 * den) >> 4) }
        if count > 1 { coefs[1] = Int16(truncatingIfNeeded: (-29 * den) >> 4) }
        if count > 2 { coefs[2] = Int16(truncatingIfNeeded: (-2 * den) >> 4) }
    }

    /// unpc_block: rebuilds `count` samples of width `sampleBits` (1...32) from residuals, adapting `coefs`.
    /// `residuals` may equal `out` only for order 0 or 31. `denShift` must be 1...15 unless the order is 0 or 31.
    /// `unrolled` false forces the general loop even for orders 4...8 (the tests compare the two).
    static func decode(_ residuals: UnsafePointer<Int32>, into out: UnsafeMutablePointer<Int32>, count: Int,
                       coefs: UnsafeMutablePointer<Int16>, order: Int, sampleBits: Int, denShift: Int, unrolled: Bool = true) {
        guard count > 0 else { return }
        let shift = Int32(32 &- sampleBits)
        out[0] = residuals[0]
        if order == 0 {
            if UnsafePointer(out) != residuals { (out + 1).update(from: residuals + 1, count: count &- 1) }
            return
        }
        if order == firstDifferenceOrder {
            var previous = out[0]
            for j in 1..<count {
                previous = ((residuals[j] &+ previous) &<< shift) &>> shift
                out[j] = previous
            }
            return
        }
        // Warm-up: first differences until there is history for the filter (bounded by count, unlike the
        // reference, which reads and writes past it; those samples are never output).
        let warm = min(order, count &- 1)
        if warm >= 1 {
            for j in 1...warm { out[j] = ((residuals[j] &+ out[j &- 1]) &<< shift) &>> shift }
        }
        guard count > order &+ 1 else { return }
        let residualsMutable = UnsafeMutablePointer(mutating: residuals)
        run(history: out, residuals: residualsMutable, count: count, coefs: coefs, order: order, unrolled: unrolled, shift: shift,
            denShift: denShift, decoding: true)
    }

    /// pc_block: the residuals of `count` samples of width `sampleBits` (1...32), adapting `coefs`. Like the
    /// reference, the warm-up reads and writes up to index `order` whatever `count` is, so both buffers must
    /// hold at least `max(count, order + 1)` values. `unrolled` false forces the general loop.
    static func encode(_ samples: UnsafePointer<Int32>, into residuals: UnsafeMutablePointer<Int32>, count: Int,
                       coefs: UnsafeMutablePointer<Int16>, order: Int, sampleBits: Int, denShift: Int, unrolled: Bool = true) {
        let shift = Int32(32 &- sampleBits)
        residuals[0] = samples[0]
        if order == 0 {
            if count > 1 { (residuals + 1).update(from: samples + 1, count: count &- 1) }
            return
        }
        if order == firstDifferenceOrder {
            for j in 1..<max(count, 1) { residuals[j] = ((samples[j] &- samples[j &- 1]) &<< shift) &>> shift }
            return
        }
        for j in 1...order { residuals[j] = ((samples[j] &- samples[j &- 1]) &<< shift) &>> shift }
        guard count > order &+ 1 else { return }
        let history = UnsafeMutablePointer(mutating: samples)
        run(history: history, residuals: residuals, count: count, coefs: coefs, order: order, unrolled: unrolled, shift: shift,
            denShift: denShift, decoding: false)
    }

    /// Half of the divisor, the prediction's rounding term (0 for a zero shift, where the reference's is undefined).
    @inline(__always)
    private static func rounding(_ denShift: Int) -> Int32 {
        denShift > 0 ? Int32(truncatingIfNeeded: 1 &<< (denShift &- 1)) : 0
    }

    /// The step shared by all orders: given the prediction `sum` (already scaled), either rebuilds sample `j`
    /// from its residual (decoding) or computes the residual (encoding); returns the residual.
    @inline(__always)
    private static func step(_ history: UnsafeMutablePointer<Int32>, _ residuals: UnsafeMutablePointer<Int32>, _ j: Int,
                             top: Int32, sum: Int32, shift: Int32, decoding: Bool) -> Int32 {
        if decoding {
            let del = residuals[j]
            history[j] = ((del &+ top &+ sum) &<< shift) &>> shift
            return del
        }
        let del = ((history[j] &- top &- sum) &<< shift) &>> shift
        residuals[j] = del
        return del
    }

    /// One tap of the update after a positive residual: moves the coefficient against the sign of its
    /// difference and spends the residual by the tap's weighted share; false once the residual is spent.
    @inline(__always)
    private static func lower(_ a: inout Int16, _ b: Int32, _ weight: Int32, _ del: inout Int32, _ ds: Int32) -> Bool {
        let s = b.signum()
        a &-= Int16(truncatingIfNeeded: s)
        del &-= weight &* ((s &* b) &>> ds)
        return del > 0
    }

    /// The same after a negative residual, with the signs flipped; false once the residual is spent.
    @inline(__always)
    private static func raise(_ a: inout Int16, _ b: Int32, _ weight: Int32, _ del: inout Int32, _ ds: Int32) -> Bool {
        let s = 0 &- b.signum()
        a &-= Int16(truncatingIfNeeded: s)
        del &-= weight &* ((s &* b) &>> ds)
        return del < 0
    }

    /// Order 4, unrolled with the coefficients in registers.
    @inline(__always)
    private static func run4(history h: UnsafeMutablePointer<Int32>, residuals: UnsafeMutablePointer<Int32>, count: Int,
                             coefs: UnsafeMutablePointer<Int16>, shift: Int32, denShift: Int, decoding: Bool) {
        let ds = Int32(denShift)
        let round = rounding(denShift)
        var a0 = coefs[0], a1 = coefs[1], a2 = coefs[2], a3 = coefs[3]
        var j = 5
        while j < count {
            let top = h[j &- 5]
            let b0 = top &- h[j &- 1], b1 = top &- h[j &- 2], b2 = top &- h[j &- 3], b3 = top &- h[j &- 4]
            let sum = (round &- Int32(a0) &* b0 &- Int32(a1) &* b1 &- Int32(a2) &* b2 &- Int32(a3) &* b3) &>> ds
            var del = step(h, residuals, j, top: top, sum: sum, shift: shift, decoding: decoding)
            j &+= 1
            if del > 0 {
                _ = lower(&a3, b3, 1, &del, ds) && lower(&a2, b2, 2, &del, ds) && lower(&a1, b1, 3, &del, ds)
                    && lower(&a0, b0, 4, &del, ds)
            } else if del < 0 {
                _ = raise(&a3, b3, 1, &del, ds) && raise(&a2, b2, 2, &del, ds) && raise(&a1, b1, 3, &del, ds)
                    && raise(&a0, b0, 4, &del, ds)
            }
        }
        coefs[0] = a0
        coefs[1] = a1
        coefs[2] = a2
        coefs[3] = a3
    }

    /// Order 5, unrolled with the coefficients in registers.
    @inline(__always)
    private static func run5(history h: UnsafeMutablePointer<Int32>, residuals: UnsafeMutablePointer<Int32>, count: Int,
                             coefs: UnsafeMutablePointer<Int16>, shift: Int32, denShift: Int, decoding: Bool) {
        let ds = Int32(denShift)
        let round = rounding(denShift)
        var a0 = coefs[0], a1 = coefs[1], a2 = coefs[2], a3 = coefs[3]
        var a4 = coefs[4]
        var j = 6
        while j < count {
            let top = h[j &- 6]
            let b0 = top &- h[j &- 1], b1 = top &- h[j &- 2], b2 = top &- h[j &- 3], b3 = top &- h[j &- 4]
            let b4 = top &- h[j &- 5]
            let low = round &- Int32(a0) &* b0 &- Int32(a1) &* b1 &- Int32(a2) &* b2 &- Int32(a3) &* b3
            let sum = (low &- Int32(a4) &* b4) &>> ds
            var del = step(h, residuals, j, top: top, sum: sum, shift: shift, decoding: decoding)
            j &+= 1
            if del > 0 {
                _ = lower(&a4, b4, 1, &del, ds) && lower(&a3, b3, 2, &del, ds) && lower(&a2, b2, 3, &del, ds)
                    && lower(&a1, b1, 4, &del, ds) && lower(&a0, b0, 5, &del, ds)
            } else if del < 0 {
                _ = raise(&a4, b4, 1, &del, ds) && raise(&a3, b3, 2, &del, ds) && raise(&a2, b2, 3, &del, ds)
                    && raise(&a1, b1, 4, &del, ds) && raise(&a0, b0, 5, &del, ds)
            }
        }
        coefs[0] = a0
        coefs[1] = a1
        coefs[2] = a2
        coefs[3] = a3
        coefs[4] = a4
    }

    /// Order 6, unrolled with the coefficients in registers.
    @inline(__always)
    private static func run6(history h: UnsafeMutablePointer<Int32>, residuals: UnsafeMutablePointer<Int32>, count: Int,
                             coefs: UnsafeMutablePointer<Int16>, shift: Int32, denShift: Int, decoding: Bool) {
        let ds = Int32(denShift)
        let round = rounding(denShift)
        var a0 = coefs[0], a1 = coefs[1], a2 = coefs[2], a3 = coefs[3]
        var a4 = coefs[4], a5 = coefs[5]
        var j = 7
        while j < count {
            let top = h[j &- 7]
            let b0 = top &- h[j &- 1], b1 = top &- h[j &- 2], b2 = top &- h[j &- 3], b3 = top &- h[j &- 4]
            let b4 = top &- h[j &- 5], b5 = top &- h[j &- 6]
            let low = round &- Int32(a0) &* b0 &- Int32(a1) &* b1 &- Int32(a2) &* b2 &- Int32(a3) &* b3
            let sum = (low &- Int32(a4) &* b4 &- Int32(a5) &* b5) &>> ds
            var del = step(h, residuals, j, top: top, sum: sum, shift: shift, decoding: decoding)
            j &+= 1
            if del > 0 {
                _ = lower(&a5, b5, 1, &del, ds) && lower(&a4, b4, 2, &del, ds) && lower(&a3, b3, 3, &del, ds)
                    && lower(&a2, b2, 4, &del, ds) && lower(&a1, b1, 5, &del, ds) && lower(&a0, b0, 6, &del, ds)
            } else if del < 0 {
                _ = raise(&a5, b5, 1, &del, ds) && raise(&a4, b4, 2, &del, ds) && raise(&a3, b3, 3, &del, ds)
                    && raise(&a2, b2, 4, &del, ds) && raise(&a1, b1, 5, &del, ds) && raise(&a0, b0, 6, &del, ds)
            }
        }
        coefs[0] = a0
        coefs[1] = a1
        coefs[2] = a2
        coefs[3] = a3
        coefs[4] = a4
        coefs[5] = a5
    }

    /// Order 7, unrolled with the coefficients in registers.
    @inline(__always)
    private static func run7(history h: UnsafeMutablePointer<Int32>, residuals: UnsafeMutablePointer<Int32>, count: Int,
                             coefs: UnsafeMutablePointer<Int16>, shift: Int32, denShift: Int, decoding: Bool) {
        let ds = Int32(denShift)
        let round = rounding(denShift)
        var a0 = coefs[0], a1 = coefs[1], a2 = coefs[2], a3 = coefs[3]
        var a4 = coefs[4], a5 = coefs[5], a6 = coefs[6]
        var j = 8
        while j < count {
            let top = h[j &- 8]
            let b0 = top &- h[j &- 1], b1 = top &- h[j &- 2], b2 = top &- h[j &- 3], b3 = top &- h[j &- 4]
            let b4 = top &- h[j &- 5], b5 = top &- h[j &- 6], b6 = top &- h[j &- 7]
            let low = round &- Int32(a0) &* b0 &- Int32(a1) &* b1 &- Int32(a2) &* b2 &- Int32(a3) &* b3
            let sum = (low &- Int32(a4) &* b4 &- Int32(a5) &* b5 &- Int32(a6) &* b6) &>> ds
            var del = step(h, residuals, j, top: top, sum: sum, shift: shift, decoding: decoding)
            j &+= 1
            if del > 0 {
                _ = lower(&a6, b6, 1, &del, ds) && lower(&a5, b5, 2, &del, ds) && lower(&a4, b4, 3, &del, ds)
                    && lower(&a3, b3, 4, &del, ds) && lower(&a2, b2, 5, &del, ds) && lower(&a1, b1, 6, &del, ds)
                    && lower(&a0, b0, 7, &del, ds)
            } else if del < 0 {
                _ = raise(&a6, b6, 1, &del, ds) && raise(&a5, b5, 2, &del, ds) && raise(&a4, b4, 3, &del, ds)
                    && raise(&a3, b3, 4, &del, ds) && raise(&a2, b2, 5, &del, ds) && raise(&a1, b1, 6, &del, ds)
                    && raise(&a0, b0, 7, &del, ds)
            }
        }
        coefs[0] = a0
        coefs[1] = a1
        coefs[2] = a2
        coefs[3] = a3
        coefs[4] = a4
        coefs[5] = a5
        coefs[6] = a6
    }

    /// Order 8, unrolled with the coefficients in registers.
    @inline(__always)
    private static func run8(history h: UnsafeMutablePointer<Int32>, residuals: UnsafeMutablePointer<Int32>, count: Int,
                             coefs: UnsafeMutablePointer<Int16>, shift: Int32, denShift: Int, decoding: Bool) {
        let ds = Int32(denShift)
        let round = rounding(denShift)
        var a0 = coefs[0], a1 = coefs[1], a2 = coefs[2], a3 = coefs[3]
        var a4 = coefs[4], a5 = coefs[5], a6 = coefs[6], a7 = coefs[7]
        var j = 9
        while j < count {
            let top = h[j &- 9]
            let b0 = top &- h[j &- 1], b1 = top &- h[j &- 2], b2 = top &- h[j &- 3], b3 = top &- h[j &- 4]
            let b4 = top &- h[j &- 5], b5 = top &- h[j &- 6], b6 = top &- h[j &- 7], b7 = top &- h[j &- 8]
            let low = round &- Int32(a0) &* b0 &- Int32(a1) &* b1 &- Int32(a2) &* b2 &- Int32(a3) &* b3
            let sum = (low &- Int32(a4) &* b4 &- Int32(a5) &* b5 &- Int32(a6) &* b6 &- Int32(a7) &* b7) &>> ds
            var del = step(h, residuals, j, top: top, sum: sum, shift: shift, decoding: decoding)
            j &+= 1
            if del > 0 {
                _ = lower(&a7, b7, 1, &del, ds) && lower(&a6, b6, 2, &del, ds) && lower(&a5, b5, 3, &del, ds)
                    && lower(&a4, b4, 4, &del, ds) && lower(&a3, b3, 5, &del, ds) && lower(&a2, b2, 6, &del, ds)
                    && lower(&a1, b1, 7, &del, ds) && lower(&a0, b0, 8, &del, ds)
            } else if del < 0 {
                _ = raise(&a7, b7, 1, &del, ds) && raise(&a6, b6, 2, &del, ds) && raise(&a5, b5, 3, &del, ds)
                    && raise(&a4, b4, 4, &del, ds) && raise(&a3, b3, 5, &del, ds) && raise(&a2, b2, 6, &del, ds)
                    && raise(&a1, b1, 7, &del, ds) && raise(&a0, b0, 8, &del, ds)
            }
        }
        coefs[0] = a0
        coefs[1] = a1
        coefs[2] = a2
        coefs[3] = a3
        coefs[4] = a4
        coefs[5] = a5
        coefs[6] = a6
        coefs[7] = a7
    }

    /// Dispatches to an unrolled kernel for the orders encoders use (Apple's 4 and 8, FFmpeg's 4 to 6 by default),
    /// the general loop otherwise or when not `unrolled`.
    @inline(__always)
    private static func run(history h: UnsafeMutablePointer<Int32>, residuals: UnsafeMutablePointer<Int32>, count: Int,
                            coefs: UnsafeMutablePointer<Int16>, order: Int, unrolled: Bool, shift: Int32, denShift: Int, decoding: Bool) {
        let r = residuals, c = coefs, ds = denShift
        switch unrolled ? order : 0 {
        case 4: run4(history: h, residuals: r, count: count, coefs: c, shift: shift, denShift: ds, decoding: decoding)
        case 5: run5(history: h, residuals: r, count: count, coefs: c, shift: shift, denShift: ds, decoding: decoding)
        case 6: run6(history: h, residuals: r, count: count, coefs: c, shift: shift, denShift: ds, decoding: decoding)
        case 7: run7(history: h, residuals: r, count: count, coefs: c, shift: shift, denShift: ds, decoding: decoding)
        case 8: run8(history: h, residuals: r, count: count, coefs: c, shift: shift, denShift: ds, decoding: decoding)
        default: runGeneral(history: h, residuals: r, count: count, coefs: c, order: order, shift: shift, denShift: ds, decoding: decoding)
        }
    }

    /// Any order 1...30: the reference's general loop.
    @inline(__always)
    private static func runGeneral(history h: UnsafeMutablePointer<Int32>, residuals: UnsafeMutablePointer<Int32>, count: Int,
                                   coefs: UnsafeMutablePointer<Int16>, order: Int, shift: Int32, denShift: Int, decoding: Bool) {
        let ds = Int32(denShift)
        let round = rounding(denShift)
        let lim = order &+ 1
        var j = lim
        while j < count {
            let past = h + (j &- 1)
            let top = h[j &- lim]
            var acc: Int32 = 0
            for k in 0..<order { acc &+= Int32(coefs[k]) &* (past[-k] &- top) }
            var del = step(h, residuals, j, top: top, sum: (acc &+ round) &>> ds, shift: shift, decoding: decoding)
            j &+= 1
            if del > 0 {
                var k = order &- 1
                while k >= 0 {
                    let dd = top &- past[-k]
                    let s = dd.signum()
                    coefs[k] &-= Int16(truncatingIfNeeded: s)
                    del &-= Int32(truncatingIfNeeded: order &- k) &* ((s &* dd) &>> ds)
                    if del <= 0 { break }
                    k &-= 1
                }
            } else if del < 0 {
                var k = order &- 1
                while k >= 0 {
                    let dd = top &- past[-k]
                    let s = dd.signum()
                    coefs[k] &+= Int16(truncatingIfNeeded: s)
                    del &-= Int32(truncatingIfNeeded: order &- k) &* (((0 &- s) &* dd) &>> ds)
                    if del >= 0 { break }
                    k &-= 1
                }
            }
        }
    }
}
