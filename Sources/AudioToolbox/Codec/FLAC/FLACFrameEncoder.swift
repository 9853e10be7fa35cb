import Foundation

/// Encodes blocks of interleaved integer samples as FLAC frames of a fixed-blocksize stream. Levels 0-8
/// follow libFLAC's presets (predictor orders, partition orders, stereo search, LPC windows). All working
/// memory is allocated at init.
final class FLACFrameEncoder {
    let channels: Int
    let bitsPerSample: Int
    let sampleRate: Int
    let blockSize: Int
    let level: Int

    /// How the two channels of a stereo stream are chosen: not at all, by a cheap estimate, or by
    /// encoding all four candidate signals (libFLAC's --no-mid-side, -M and -m).
    private enum StereoSearch { case none, estimate, exhaustive }

    /// What a channel's subframe will be, with its estimated size (never below the real size).
    private struct Plan {
        enum Kind { case constant, verbatim, fixed, lpc }
        var kind = Kind.verbatim
        var order = 0, precision = 0, shift = 0
        var wasted = 0
        /// Bits per sample after the wasted bits are removed.
        var sampleBits = 0
        var partitionOrder = 0, riceMethod = 0
        var bits = 0
    }

    private let maxLPCOrder: Int
    private let maxPartitionOrder: Int
    private let stereoSearch: StereoSearch
    /// Tukey windows over the whole block (1) and over halves and thirds of it (libFLAC's partial_tukey).
    private let windowSplits: [Int]
    private let windowCount: Int
    private let slots: Int

    private let signals: UnsafeMutablePointer<Int32>
    /// slots + 1 residual planes; `residualIndex[s]` is slot s's best, `spareResidual` the scratch.
    private let residuals: UnsafeMutablePointer<Int32>
    private var residualIndex: [Int]
    private var spareResidual: Int
    private let coefficients: UnsafeMutablePointer<Int32>
    private let candidateCoefficients: UnsafeMutablePointer<Int32>
    private let riceParameters: UnsafeMutablePointer<UInt8>
    private let candidateRice: UnsafeMutablePointer<UInt8>
    private let partitionSums: UnsafeMutablePointer<UInt64>
    private let windows: UnsafeMutablePointer<Double>
    private var windowLength = 0
    /// The windowed signal, with `windowPad` zeros before it and at least 4 after (the autocorrelation reads
    /// both without bounds checks).
    private let windowed: UnsafeMutablePointer<Double>
    private let windowedStorage: UnsafeMutablePointer<Double>
    private static let windowPad = 32
    private let lpcMatrix: UnsafeMutablePointer<Double>
    private let lpcErrors: UnsafeMutablePointer<Double>
    private var plans: [Plan]
    /// The slot each coded channel is written from, in channel order.
    private var chosen: [Int]
    private let output: UnsafeMutablePointer<UInt8>
    private let outputCapacity: Int

    private static let maxRicePartitions = 256

    /// An encoder for `channels` (1...8) channels of `bitsPerSample` (4...32) bits at `sampleRate`, in
    /// blocks of `blockSize` (16...65535) frames, at `level` 0 (fastest) to 8 (smallest). Out-of-range
    /// values are clamped.
    init(channels: Int, bitsPerSample: Int, sampleRate: Int, blockSize: Int = 4096, level: Int = 5) {
        self.channels = min(max(channels, 1), 8)
        self.bitsPerSample = min(max(bitsPerSample, 4), 32)
        self.sampleRate = sampleRate
        self.blockSize = min(max(blockSize, 16), 65535)
        self.level = min(max(level, 0), 8)
        let presets: [(lpc: Int, po: Int, stereo: StereoSearch, splits: [Int])] = [
            (0, 3, .none, [1]), (0, 3, .estimate, [1]), (0, 3, .exhaustive, [1]),
            (6, 4, .none, [1]), (8, 4, .estimate, [1]), (8, 5, .exhaustive, [1]),
            (8, 6, .exhaustive, [1, 2]), (12, 6, .exhaustive, [1, 2]), (12, 6, .exhaustive, [1, 2, 3]),
        ]
        let preset = presets[self.level]
        maxLPCOrder = preset.lpc
        maxPartitionOrder = preset.po
        // A 32-bit stream's side channel would need 33 bits; keep such streams independent.
        stereoSearch = self.channels == 2 && self.bitsPerSample < 32 ? preset.stereo : .none
        windowSplits = preset.splits
        windowCount = preset.splits.reduce(0, +)
        slots = stereoSearch == .none ? self.channels : 4
        let n = self.blockSize
        signals = .allocate(capacity: slots * n)
        residuals = .allocate(capacity: (slots + 1) * n)
        residualIndex = Array(0..<slots)
        spareResidual = slots
        coefficients = .allocate(capacity: slots * 32)
        candidateCoefficients = .allocate(capacity: 32)
        riceParameters = .allocate(capacity: slots * Self.maxRicePartitions)
        candidateRice = .allocate(capacity: Self.maxRicePartitions)
        partitionSums = .allocate(capacity: Self.maxRicePartitions)
        windows = .allocate(capacity: max(windowCount, 1) * n)
        windowedStorage = .allocate(capacity: n + Self.windowPad + 4)
        windowedStorage.initialize(repeating: 0, count: n + Self.windowPad + 4)
        windowed = windowedStorage + Self.windowPad
        lpcMatrix = .allocate(capacity: 32 * 32)
        lpcErrors = .allocate(capacity: 32)
        plans = Array(repeating: Plan(), count: slots)
        chosen = Array(0..<self.channels)
        // Worst case: header, every subframe verbatim at 33 bits plus its header and wasted-bits code, CRC.
        outputCapacity = 32 + self.channels * ((n * 33 + 7) / 8 + 16)
        output = .allocate(capacity: outputCapacity)
    }

    deinit {
        signals.deallocate(); residuals.deallocate(); coefficients.deallocate(); candidateCoefficients.deallocate()
        riceParameters.deallocate(); candidateRice.deallocate(); partitionSums.deallocate(); windows.deallocate()
        windowedStorage.deallocate(); lpcMatrix.deallocate(); lpcErrors.deallocate(); output.deallocate()
    }

    /// Encodes `frames` (1...blockSize) interleaved frames as frame number `frameNumber` (0..<2^31). Samples
    /// are taken modulo 2^bitsPerSample (sign-extended from that width). Returns the frame's bytes, or an
    /// empty array for an out-of-range frame count or number.
    func encode(_ samples: UnsafePointer<Int32>, frames: Int, frameNumber: Int) -> [UInt8] {
        guard (1...blockSize).contains(frames), (0..<(1 << 31)).contains(frameNumber) else { return [] }
        let n = frames
        let bps = bitsPerSample
        let extend = Int32(32 - bps)
        for c in 0..<channels {
            let dst = signals + c * blockSize
            var src = samples + c
            for i in 0..<n {
                dst[i] = (src.pointee &<< extend) &>> extend
                src += channels
            }
        }
        var channelCode = channels - 1
        for c in 0..<channels { chosen[c] = c }
        if stereoSearch != .none {
            let l = signals, r = signals + blockSize, m = signals + 2 * blockSize, s = signals + 3 * blockSize
            // Stereo search is off for 32-bit streams, so the sum and difference fit 32 bits.
            for i in 0..<n {
                let a = l[i], b = r[i]
                m[i] = (a &+ b) &>> 1
                s[i] = a &- b
            }
            // Slots: 0 left, 1 right, 2 mid, 3 side (one bit wider).
            var costs = (0, 0, 0, 0)
            if stereoSearch == .estimate {
                // Loose: pick the pair by the fixed predictors' residual sums, then analyze only that pair.
                costs = (Int(clamping: fixedEstimate(l, count: n).sum), Int(clamping: fixedEstimate(r, count: n).sum),
                         Int(clamping: fixedEstimate(m, count: n).sum), Int(clamping: fixedEstimate(s, count: n).sum))
            } else {
                for slot in 0..<4 { analyze(slot: slot, count: n, bits: slot == 3 ? bps + 1 : bps) }
                costs = (plans[0].bits, plans[1].bits, plans[2].bits, plans[3].bits)
            }
            let options = [(costs.0 &+ costs.1, 1), (costs.0 &+ costs.3, 8), (costs.3 &+ costs.1, 9), (costs.2 &+ costs.3, 10)]
            channelCode = options[0].1
            var best = options[0].0
            for (cost, code) in options.dropFirst() where cost < best { best = cost; channelCode = code }
            (chosen[0], chosen[1]) = Self.stereoSlots(channelCode)
            if stereoSearch == .estimate {
                for slot in chosen { analyze(slot: slot, count: n, bits: slot == 3 ? bps + 1 : bps) }
                // The estimate can pick a side channel that then goes verbatim at bps + 1 bits: keep the
                // frame within independent verbatim size by falling back to left/right.
                if channelCode != 1, plans[chosen[0]].bits + plans[chosen[1]].bits > 2 * (8 + n * bps) {
                    // Analysis shifts out wasted bits in place, so a slot already analyzed keeps its plan.
                    for slot in 0...1 where !chosen.contains(slot) { analyze(slot: slot, count: n, bits: bps) }
                    channelCode = 1
                    (chosen[0], chosen[1]) = (0, 1)
                }
            }
        } else {
            for c in 0..<channels { analyze(slot: c, count: n, bits: bps) }
        }

        var w = FLACBitWriter(output, capacity: outputCapacity)
        FLACFrameHeader.write(into: &w, variableBlockSize: false, blockSize: n, sampleRate: sampleRate,
                              channelCode: channelCode, bitsPerSample: bps, number: UInt64(frameNumber))
        for slot in chosen { write(slot: slot, count: n, into: &w) }
        w.alignToByte()
        let crc = w.crc16(from: 0)
        w.write(UInt32(crc), bits: 16)
        w.flushWholeBytes()
        guard !w.overflow else { return [] }
        return Array(UnsafeBufferPointer(start: output, count: w.byteCount))
    }

    /// The two slots (0 left, 1 right, 2 mid, 3 side) a stereo channel assignment code writes, in order.
    private static func stereoSlots(_ code: Int) -> (Int, Int) {
        switch code {
        case 8: return (0, 3)
        case 9: return (3, 1)
        case 10: return (2, 3)
        default: return (0, 1)
        }
    }

    // MARK: Analysis

    /// Picks the subframe for the signal in `slot` (bits per sample `bits`), leaving its plan, residual,
    /// coefficients and Rice parameters in the slot's storage. May shift the signal right by its wasted bits.
    private func analyze(slot: Int, count n: Int, bits: Int) {
        let x = signals + slot * blockSize
        var plan = Plan()
        // Constant and wasted bits both come from one pass.
        // No short-circuit in the loop, so it vectorises.
        var orBits: Int32 = 0, differs: Int32 = 0
        let first = x[0]
        for i in 0..<n {
            orBits |= x[i]
            differs |= x[i] ^ first
        }
        if differs == 0 {
            plan.kind = .constant
            plan.sampleBits = bits
            plan.bits = 8 + bits
            plans[slot] = plan
            return
        }
        let wasted = min(orBits.trailingZeroBitCount, bits - 1)
        if wasted > 0 {
            for i in 0..<n { x[i] = x[i] &>> Int32(wasted) }
        }
        let sb = bits - wasted
        plan.wasted = wasted
        plan.sampleBits = sb
        let headerBits = 8 + wasted
        plan.kind = .verbatim
        plan.bits = headerBits + n * sb
        let verbatimBits = plan.bits

        // Fixed predictor: the order with the smallest sum of absolute residuals.
        let guess = fixedEstimate(x, count: n).order
        if computeFixedResidual(x, count: n, order: guess, sampleBits: sb, into: residuals + spareResidual * blockSize) {
            let rice = planRice(residuals + spareResidual * blockSize, count: n, order: guess)
            let total = headerBits + guess * sb + rice.bits
            if total < plan.bits {
                plan.kind = .fixed
                plan.order = guess
                plan.bits = total
                plan.partitionOrder = rice.partitionOrder
                plan.riceMethod = rice.method
                keepCandidate(slot: slot, partitionOrder: rice.partitionOrder, order: 0)
            }
        }

        // LPC for each window: Levinson-Durbin, order chosen by expected bits, quantized, costed exactly.
        let maxOrder = min(maxLPCOrder, n - 1)
        if maxOrder > 0 {
            prepareWindows(length: n)
            var w = 0
            for parts in windowSplits {
                for _ in 0..<parts {
                    let window = windows + w * blockSize
                    w += 1
                    guard let candidate = lpcCandidate(x, count: n, sampleBits: sb, window: window, maxOrder: maxOrder) else { continue }
                    let total = headerBits + candidate.order * sb + 4 + 5 + candidate.order * candidate.precision + candidate.rice.bits
                    if total < plan.bits {
                        plan.kind = .lpc
                        plan.order = candidate.order
                        plan.precision = candidate.precision
                        plan.shift = candidate.shift
                        plan.bits = total
                        plan.partitionOrder = candidate.rice.partitionOrder
                        plan.riceMethod = candidate.rice.method
                        keepCandidate(slot: slot, partitionOrder: candidate.rice.partitionOrder, order: candidate.order)
                    }
                }
            }
        }
        if plan.bits >= verbatimBits {
            plan.kind = .verbatim
            plan.bits = verbatimBits
        }
        plans[slot] = plan
    }

    /// Makes the spare residual (and the candidate coefficients and Rice parameters) the slot's best.
    private func keepCandidate(slot: Int, partitionOrder: Int, order: Int) {
        swap(&residualIndex[slot], &spareResidual)
        (riceParameters + slot * Self.maxRicePartitions).update(from: candidateRice, count: 1 << partitionOrder)
        if order > 0 { (coefficients + slot * 32).update(from: candidateCoefficients, count: order) }
    }

    /// The fixed order (0...4) with the smallest sum of absolute residuals, and that sum.
    private func fixedEstimate(_ x: UnsafePointer<Int32>, count n: Int) -> (order: Int, sum: UInt64) {
        guard n > 4 else { return (0, 0) }
        if bitsPerSample <= 20 { return Self.fixedEstimateNarrow(x, count: n) }
        var s0: UInt64 = 0, s1: UInt64 = 0, s2: UInt64 = 0, s3: UInt64 = 0, s4: UInt64 = 0
        var p0 = Int64(x[3]), p1 = p0 - Int64(x[2]), p2 = p1 - (Int64(x[2]) - Int64(x[1]))
        var p3 = p2 - ((Int64(x[2]) - Int64(x[1])) - (Int64(x[1]) - Int64(x[0])))
        for i in 4..<n {
            let e0 = Int64(x[i]), e1 = e0 &- p0, e2 = e1 &- p1, e3 = e2 &- p2, e4 = e3 &- p3
            s0 &+= e0.magnitude; s1 &+= e1.magnitude; s2 &+= e2.magnitude; s3 &+= e3.magnitude; s4 &+= e4.magnitude
            p0 = e0; p1 = e1; p2 = e2; p3 = e3
        }
        var order = 0, best = s0
        for (o, s) in [(1, s1), (2, s2), (3, s3), (4, s4)] where s < best { order = o; best = s }
        return (order, best)
    }

    /// `fixedEstimate` for signals of at most 21 bits (a side channel of 20-bit audio): every residual fits 25
    /// bits, so four samples per step in 32-bit lanes, and 128 steps of magnitudes (under 2^31) per lane before
    /// they are added into 64-bit totals. The same sums as the 64-bit loop, so the same order.
    private static func fixedEstimateNarrow(_ x: UnsafePointer<Int32>, count n: Int) -> (order: Int, sum: UInt64) {
        var t0: UInt64 = 0, t1: UInt64 = 0, t2: UInt64 = 0, t3: UInt64 = 0, t4: UInt64 = 0
        let raw = UnsafeRawPointer(x)
        @inline(__always) func load(_ i: Int) -> SIMD4<Int32> { raw.loadUnaligned(fromByteOffset: i &* 4, as: SIMD4<Int32>.self) }
        @inline(__always) func magnitude(_ v: SIMD4<Int32>) -> SIMD4<UInt32> {
            let sign = v &>> 31
            return SIMD4<UInt32>(truncatingIfNeeded: (v ^ sign) &- sign)
        }
        var i = 4
        while i &+ 4 <= n {
            var s0 = SIMD4<UInt32>(), s1 = s0, s2 = s0, s3 = s0, s4 = s0
            let end = min(n, i &+ 512)
            while i &+ 4 <= end {
                let a = load(i), b = load(i &- 1), c = load(i &- 2), d = load(i &- 3), e = load(i &- 4)
                let e1 = a &- b, e2 = e1 &- (b &- c), e3 = e2 &- (b &- c) &+ (c &- d)
                let e4 = a &- 4 &* (b &+ d) &+ 6 &* c &+ e
                s0 &+= magnitude(a); s1 &+= magnitude(e1); s2 &+= magnitude(e2); s3 &+= magnitude(e3); s4 &+= magnitude(e4)
                i &+= 4
            }
            @inline(__always) func total(_ v: SIMD4<UInt32>) -> UInt64 { UInt64(v[0]) &+ UInt64(v[1]) &+ UInt64(v[2]) &+ UInt64(v[3]) }
            t0 &+= total(s0); t1 &+= total(s1); t2 &+= total(s2); t3 &+= total(s3); t4 &+= total(s4)
        }
        while i < n {
            let a = Int64(x[i]), b = Int64(x[i - 1]), c = Int64(x[i - 2]), d = Int64(x[i - 3]), e = Int64(x[i - 4])
            t0 &+= a.magnitude; t1 &+= (a - b).magnitude; t2 &+= (a - 2 * b + c).magnitude
            t3 &+= (a - 3 * b + 3 * c - d).magnitude; t4 &+= (a - 4 * b + 6 * c - 4 * d + e).magnitude
            i &+= 1
        }
        var order = 0, best = t0
        for (o, s) in [(1, t1), (2, t2), (3, t3), (4, t4)] where s < best { order = o; best = s }
        return (order, best)
    }

    /// The fixed predictor's residual into `r[order..<n]`; false if a residual does not fit 32 bits. Up to
    /// 28-bit signals the residual (at most 4 bits wider) fits, so plain 32-bit loops suffice.
    private func computeFixedResidual(_ x: UnsafePointer<Int32>, count n: Int, order: Int, sampleBits: Int,
                                      into r: UnsafeMutablePointer<Int32>) -> Bool {
        guard n > order else { return true }
        if sampleBits <= 28 {
            switch order {
            case 0: r.update(from: x, count: n)
            case 1: for i in 1..<n { r[i] = x[i] &- x[i - 1] }
            case 2: for i in 2..<n { r[i] = x[i] &- 2 &* x[i - 1] &+ x[i - 2] }
            case 3: for i in 3..<n { r[i] = x[i] &- 3 &* (x[i - 1] &- x[i - 2]) &- x[i - 3] }
            default: for i in 4..<n { r[i] = x[i] &- 4 &* (x[i - 1] &+ x[i - 3]) &+ 6 &* x[i - 2] &+ x[i - 4] }
            }
            return true
        }
        var lo: Int64 = 0, hi: Int64 = 0
        for i in order..<n {
            let a = Int64(x[i])
            let e: Int64
            switch order {
            case 0: e = a
            case 1: e = a &- Int64(x[i - 1])
            case 2: e = a &- 2 &* Int64(x[i - 1]) &+ Int64(x[i - 2])
            case 3: e = a &- 3 &* Int64(x[i - 1]) &+ 3 &* Int64(x[i - 2]) &- Int64(x[i - 3])
            default: e = a &- 4 &* Int64(x[i - 1]) &+ 6 &* Int64(x[i - 2]) &- 4 &* Int64(x[i - 3]) &+ Int64(x[i - 4])
            }
            lo = min(lo, e); hi = max(hi, e)
            r[i] = Int32(truncatingIfNeeded: e)
        }
        return lo >= Int64(Int32.min) && hi <= Int64(Int32.max)
    }

    /// Fills `windows` with the Tukey(0.5) windows for a block of `length` samples (cached per length).
    private func prepareWindows(length n: Int) {
        guard windowLength != n else { return }
        windowLength = n
        var w = 0
        for parts in windowSplits {
            for part in 0..<parts {
                let dst = windows + w * blockSize
                w += 1
                dst.update(repeating: 0, count: n)
                let start = n * part / parts, end = n * (part + 1) / parts
                Self.tukey(dst + start, length: end - start, p: 0.5)
            }
        }
    }

    /// libFLAC's Tukey window: flat, with Hann tapers over the fraction `p` of the length.
    private static func tukey(_ w: UnsafeMutablePointer<Double>, length l: Int, p: Double) {
        w.update(repeating: 1, count: l)
        let np = Int(p / 2 * Double(l)) - 1
        guard np > 0 else { return }
        for i in 0...np {
            w[i] = 0.5 - 0.5 * cos(Double.pi * Double(i) / Double(np))
            w[l - np - 1 + i] = 0.5 - 0.5 * cos(Double.pi * Double(i + np) / Double(np))
        }
    }

    /// One LPC candidate from one window: coefficients in `candidateCoefficients`, residual in the spare
    /// plane, Rice plan in `candidateRice`. Nil when the signal has no usable predictor.
    private func lpcCandidate(_ x: UnsafePointer<Int32>, count n: Int, sampleBits sb: Int, window: UnsafePointer<Double>,
                              maxOrder: Int) -> (order: Int, precision: Int, shift: Int, rice: (bits: Int, partitionOrder: Int, method: Int))? {
        for i in 0..<n { windowed[i] = Double(x[i]) * window[i] }
        (windowed + n).update(repeating: 0, count: 4)
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: 36) { ab in
            let ac = ab.baseAddress!
            autocorrelation(windowed, count: n, maxLag: maxOrder, into: ac)
            guard ac[0] > 0 else { return nil }
            let orders = levinson(ac, maxOrder: maxOrder)
            guard orders > 0 else { return nil }
            // libFLAC's precision for the block size, capped so 17-bit-and-under signals decode with 32-bit sums.
            var basePrecision: Int
            if bitsPerSample < 16 {
                basePrecision = max(5, 2 + bitsPerSample / 2)
            } else if bitsPerSample == 16 {
                let limits = [192, 384, 576, 1152, 2304, 4608]
                basePrecision = 13
                for (i, limit) in limits.enumerated() where n <= limit { basePrecision = 7 + i; break }
            } else {
                basePrecision = n <= 384 ? 13 : n <= 1152 ? 14 : 15
            }
            // Best order by expected bits (libFLAC's estimate for Laplacian residuals).
            let scale = 0.5 / Double(n)
            var order = 1
            var bestBits = Double.infinity
            for o in 1...orders {
                let err = lpcErrors[o - 1]
                let perSample = err > 0 ? max(0, 0.5 * log2(scale * err)) : (err < 0 ? 1e32 : 0)
                let bits = perSample * Double(n - o) + Double(o * (sb + basePrecision))
                if bits < bestBits { bestBits = bits; order = o }
            }
            var precision = basePrecision
            if sb <= 17 { precision = max(1, min(precision, 32 - sb - (Int.bitWidth - 1 - order.leadingZeroBitCount))) }
            guard let shift = quantize(lpcMatrix + (order - 1) * 32, order: order, precision: precision) else { return nil }
            let r = residuals + spareResidual * blockSize
            guard computeLPCResidual(x, count: n, order: order, precision: precision, shift: shift, sampleBits: sb, into: r) else { return nil }
            return (order, precision, shift, planRice(r, count: n, order: order))
        }
    }

    /// Autocorrelation of `w[0..<n]` for lags 0...maxLag (at most 32) into `ac`; `w` has 32 zeros before it and 4
    /// after. Four samples per step, up to four lags per pass, each lag its own vector accumulator.
    private func autocorrelation(_ w: UnsafePointer<Double>, count n: Int, maxLag: Int, into ac: UnsafeMutablePointer<Double>) {
        var lag = 0
        var passes = (maxLag + 4) / 4
        while lag <= maxLag {
            let width = (maxLag + 1 - lag + passes - 1) / passes
            switch width {
            case 4: Self.autocorrelationPass(w, count: n, lag: lag, width: 4, into: ac)
            case 3: Self.autocorrelationPass(w, count: n, lag: lag, width: 3, into: ac)
            case 2: Self.autocorrelationPass(w, count: n, lag: lag, width: 2, into: ac)
            default: Self.autocorrelationPass(w, count: n, lag: lag, width: 1, into: ac)
            }
            lag += width
            passes -= 1
        }
    }

    /// One pass over the signal for lags `lag..<lag + width` (width 1...4, a constant after inlining). The zeros
    /// around the signal stand in for the products outside it, so every step is whole vectors.
    @inline(__always)
    private static func autocorrelationPass(_ w: UnsafePointer<Double>, count n: Int, lag: Int, width: Int,
                                            into ac: UnsafeMutablePointer<Double>) {
        var s0 = SIMD4<Double>(), s1 = SIMD4<Double>(), s2 = SIMD4<Double>(), s3 = SIMD4<Double>()
        let raw = UnsafeRawPointer(w)
        @inline(__always) func load(_ i: Int) -> SIMD4<Double> { raw.loadUnaligned(fromByteOffset: i &* 8, as: SIMD4<Double>.self) }
        var i = 0
        while i < n {
            let v = load(i)
            s0 += v * load(i &- lag)
            if width > 1 { s1 += v * load(i &- lag &- 1) }
            if width > 2 { s2 += v * load(i &- lag &- 2) }
            if width > 3 { s3 += v * load(i &- lag &- 3) }
            i &+= 4
        }
        ac[lag] = s0.sum()
        if width > 1 { ac[lag + 1] = s1.sum() }
        if width > 2 { ac[lag + 2] = s2.sum() }
        if width > 3 { ac[lag + 3] = s3.sum() }
    }

    /// Levinson-Durbin on `ac[0...maxOrder]`: predictor coefficients for each order in row order-1 of
    /// `lpcMatrix` and the prediction errors in `lpcErrors`. Returns the highest order computed.
    private func levinson(_ ac: UnsafePointer<Double>, maxOrder: Int) -> Int {
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 32) { lb in
            let lpc = lb.baseAddress!
            var err = ac[0]
            for i in 0..<maxOrder {
                var r = -ac[i + 1]
                for j in 0..<i { r -= lpc[j] * ac[i - j] }
                r /= err
                lpc[i] = r
                var j = 0
                while j < i >> 1 {
                    let t = lpc[j]
                    lpc[j] += r * lpc[i - 1 - j]
                    lpc[i - 1 - j] += r * t
                    j += 1
                }
                if i & 1 != 0 { lpc[j] += lpc[j] * r }
                err *= 1 - r * r
                for k in 0...i { lpcMatrix[i * 32 + k] = -lpc[k] }
                lpcErrors[i] = err
                if !(err > 0) || !err.isFinite { return err == 0 ? i + 1 : i }
            }
            return maxOrder
        }
    }

    /// Quantizes `order` coefficients to `precision`-bit integers into `candidateCoefficients` with
    /// libFLAC's error feedback; returns the shift, or nil when no valid shift exists.
    private func quantize(_ lp: UnsafePointer<Double>, order: Int, precision: Int) -> Int? {
        let qmax = Int32((1 << (precision - 1)) - 1), qmin = -Int32(1 << (precision - 1))
        var cmax = 0.0
        for i in 0..<order { cmax = max(cmax, abs(lp[i])) }
        guard cmax > 0, cmax.isFinite else { return nil }
        let log2cmax = Int(cmax.exponent)  // frexp's exponent minus one
        var shift = precision - 1 - log2cmax - 1
        if shift > 15 { shift = 15 }
        guard shift >= -16 else { return nil }
        var error = 0.0
        let scale = shift >= 0 ? Double(1 << shift) : 1 / Double(1 << -shift)
        for i in 0..<order {
            error += lp[i] * scale
            let q = Int32(max(min(error.rounded(.toNearestOrAwayFromZero), Double(qmax)), Double(qmin)))
            error -= Double(q)
            candidateCoefficients[i] = q
        }
        return max(shift, 0)
    }

    /// The LPC residual of `candidateCoefficients` into `r[order..<n]`; false if one does not fit 32 bits.
    /// Each order gets its own unrolled copy of the kernel.
    private func computeLPCResidual(_ x: UnsafePointer<Int32>, count n: Int, order: Int, precision: Int, shift: Int, sampleBits: Int,
                                    into r: UnsafeMutablePointer<Int32>) -> Bool {
        let c = UnsafePointer(candidateCoefficients)
        let s = Int64(shift)
        // The decoder's bound: with it the sum cannot overflow 32 bits, and 32-bit multiplies vectorize.
        if sampleBits + precision + (Int.bitWidth - 1 - order.leadingZeroBitCount) <= 32 {
            switch order {
            case 1: return Self.lpcResidualKernel32(x, count: n, c: c, order: 1, shift: s, into: r)
            case 2: return Self.lpcResidualKernel32(x, count: n, c: c, order: 2, shift: s, into: r)
            case 3: return Self.lpcResidualKernel32(x, count: n, c: c, order: 3, shift: s, into: r)
            case 4: return Self.lpcResidualKernel32(x, count: n, c: c, order: 4, shift: s, into: r)
            case 5: return Self.lpcResidualKernel32(x, count: n, c: c, order: 5, shift: s, into: r)
            case 6: return Self.lpcResidualKernel32(x, count: n, c: c, order: 6, shift: s, into: r)
            case 7: return Self.lpcResidualKernel32(x, count: n, c: c, order: 7, shift: s, into: r)
            case 8: return Self.lpcResidualKernel32(x, count: n, c: c, order: 8, shift: s, into: r)
            case 9: return Self.lpcResidualKernel32(x, count: n, c: c, order: 9, shift: s, into: r)
            case 10: return Self.lpcResidualKernel32(x, count: n, c: c, order: 10, shift: s, into: r)
            case 11: return Self.lpcResidualKernel32(x, count: n, c: c, order: 11, shift: s, into: r)
            case 12: return Self.lpcResidualKernel32(x, count: n, c: c, order: 12, shift: s, into: r)
            case 13: return Self.lpcResidualKernel32(x, count: n, c: c, order: 13, shift: s, into: r)
            case 14: return Self.lpcResidualKernel32(x, count: n, c: c, order: 14, shift: s, into: r)
            case 15: return Self.lpcResidualKernel32(x, count: n, c: c, order: 15, shift: s, into: r)
            case 16: return Self.lpcResidualKernel32(x, count: n, c: c, order: 16, shift: s, into: r)
            case 17: return Self.lpcResidualKernel32(x, count: n, c: c, order: 17, shift: s, into: r)
            case 18: return Self.lpcResidualKernel32(x, count: n, c: c, order: 18, shift: s, into: r)
            case 19: return Self.lpcResidualKernel32(x, count: n, c: c, order: 19, shift: s, into: r)
            case 20: return Self.lpcResidualKernel32(x, count: n, c: c, order: 20, shift: s, into: r)
            case 21: return Self.lpcResidualKernel32(x, count: n, c: c, order: 21, shift: s, into: r)
            case 22: return Self.lpcResidualKernel32(x, count: n, c: c, order: 22, shift: s, into: r)
            case 23: return Self.lpcResidualKernel32(x, count: n, c: c, order: 23, shift: s, into: r)
            case 24: return Self.lpcResidualKernel32(x, count: n, c: c, order: 24, shift: s, into: r)
            case 25: return Self.lpcResidualKernel32(x, count: n, c: c, order: 25, shift: s, into: r)
            case 26: return Self.lpcResidualKernel32(x, count: n, c: c, order: 26, shift: s, into: r)
            case 27: return Self.lpcResidualKernel32(x, count: n, c: c, order: 27, shift: s, into: r)
            case 28: return Self.lpcResidualKernel32(x, count: n, c: c, order: 28, shift: s, into: r)
            case 29: return Self.lpcResidualKernel32(x, count: n, c: c, order: 29, shift: s, into: r)
            case 30: return Self.lpcResidualKernel32(x, count: n, c: c, order: 30, shift: s, into: r)
            case 31: return Self.lpcResidualKernel32(x, count: n, c: c, order: 31, shift: s, into: r)
            case 32: return Self.lpcResidualKernel32(x, count: n, c: c, order: 32, shift: s, into: r)
            default: return false
            }
        }
        switch order {
        case 1: return Self.lpcResidualKernel(x, count: n, c: c, order: 1, shift: s, into: r)
        case 2: return Self.lpcResidualKernel(x, count: n, c: c, order: 2, shift: s, into: r)
        case 3: return Self.lpcResidualKernel(x, count: n, c: c, order: 3, shift: s, into: r)
        case 4: return Self.lpcResidualKernel(x, count: n, c: c, order: 4, shift: s, into: r)
        case 5: return Self.lpcResidualKernel(x, count: n, c: c, order: 5, shift: s, into: r)
        case 6: return Self.lpcResidualKernel(x, count: n, c: c, order: 6, shift: s, into: r)
        case 7: return Self.lpcResidualKernel(x, count: n, c: c, order: 7, shift: s, into: r)
        case 8: return Self.lpcResidualKernel(x, count: n, c: c, order: 8, shift: s, into: r)
        case 9: return Self.lpcResidualKernel(x, count: n, c: c, order: 9, shift: s, into: r)
        case 10: return Self.lpcResidualKernel(x, count: n, c: c, order: 10, shift: s, into: r)
        case 11: return Self.lpcResidualKernel(x, count: n, c: c, order: 11, shift: s, into: r)
        case 12: return Self.lpcResidualKernel(x, count: n, c: c, order: 12, shift: s, into: r)
        case 13: return Self.lpcResidualKernel(x, count: n, c: c, order: 13, shift: s, into: r)
        case 14: return Self.lpcResidualKernel(x, count: n, c: c, order: 14, shift: s, into: r)
        case 15: return Self.lpcResidualKernel(x, count: n, c: c, order: 15, shift: s, into: r)
        case 16: return Self.lpcResidualKernel(x, count: n, c: c, order: 16, shift: s, into: r)
        case 17: return Self.lpcResidualKernel(x, count: n, c: c, order: 17, shift: s, into: r)
        case 18: return Self.lpcResidualKernel(x, count: n, c: c, order: 18, shift: s, into: r)
        case 19: return Self.lpcResidualKernel(x, count: n, c: c, order: 19, shift: s, into: r)
        case 20: return Self.lpcResidualKernel(x, count: n, c: c, order: 20, shift: s, into: r)
        case 21: return Self.lpcResidualKernel(x, count: n, c: c, order: 21, shift: s, into: r)
        case 22: return Self.lpcResidualKernel(x, count: n, c: c, order: 22, shift: s, into: r)
        case 23: return Self.lpcResidualKernel(x, count: n, c: c, order: 23, shift: s, into: r)
        case 24: return Self.lpcResidualKernel(x, count: n, c: c, order: 24, shift: s, into: r)
        case 25: return Self.lpcResidualKernel(x, count: n, c: c, order: 25, shift: s, into: r)
        case 26: return Self.lpcResidualKernel(x, count: n, c: c, order: 26, shift: s, into: r)
        case 27: return Self.lpcResidualKernel(x, count: n, c: c, order: 27, shift: s, into: r)
        case 28: return Self.lpcResidualKernel(x, count: n, c: c, order: 28, shift: s, into: r)
        case 29: return Self.lpcResidualKernel(x, count: n, c: c, order: 29, shift: s, into: r)
        case 30: return Self.lpcResidualKernel(x, count: n, c: c, order: 30, shift: s, into: r)
        case 31: return Self.lpcResidualKernel(x, count: n, c: c, order: 31, shift: s, into: r)
        case 32: return Self.lpcResidualKernel(x, count: n, c: c, order: 32, shift: s, into: r)
        default: return false
        }
    }

    /// The residual loop for a constant `order` with 32-bit sums (only when they cannot overflow), four samples
    /// per step; a subtraction that overflows 32 bits (a residual that does not fit) is caught by its signs.
    @inline(__always)
    private static func lpcResidualKernel32(_ x: UnsafePointer<Int32>, count n: Int, c: UnsafePointer<Int32>, order: Int, shift: Int64,
                                            into r: UnsafeMutablePointer<Int32>) -> Bool {
        let s32 = Int32(truncatingIfNeeded: shift)
        return withUnsafeTemporaryAllocation(of: SIMD4<Int32>.self, capacity: 32) { cb -> Bool in
            let cv = cb.baseAddress!
            for j in 0..<order { cv[j] = SIMD4(repeating: c[j]) }
            let raw = UnsafeRawPointer(x), out = UnsafeMutableRawPointer(r)
            let shifts = SIMD4<Int32>(repeating: s32)
            var overflow = SIMD4<Int32>()
            var i = order
            while i &+ 4 <= n {
                var sum = SIMD4<Int32>()
                for j in 0..<order { sum &+= cv[j] &* raw.loadUnaligned(fromByteOffset: (i &- 1 &- j) &* 4, as: SIMD4<Int32>.self) }
                let a = raw.loadUnaligned(fromByteOffset: i &* 4, as: SIMD4<Int32>.self)
                let p = sum &>> shifts
                let e = a &- p
                overflow |= (a ^ p) & (a ^ e)
                out.storeBytes(of: e, toByteOffset: i &* 4, as: SIMD4<Int32>.self)
                i &+= 4
            }
            var ok = overflow.min() >= 0
            while i < n {
                var sum: Int32 = 0
                for j in 0..<order { sum &+= c[j] &* x[i &- 1 &- j] }
                let e = Int64(x[i]) &- Int64(sum &>> s32)
                ok = ok && e >= Int64(Int32.min) && e <= Int64(Int32.max)
                r[i] = Int32(truncatingIfNeeded: e)
                i &+= 1
            }
            return ok
        }
    }

    /// The residual loop for a constant `order`, with 64-bit sums (exact for any coefficient precision).
    @inline(__always)
    private static func lpcResidualKernel(_ x: UnsafePointer<Int32>, count n: Int, c: UnsafePointer<Int32>, order: Int, shift: Int64,
                                          into r: UnsafeMutablePointer<Int32>) -> Bool {
        var lo: Int64 = 0, hi: Int64 = 0
        var i = order
        while i < n {
            var sum: Int64 = 0
            for j in 0..<order { sum &+= Int64(c[j]) &* Int64(x[i &- 1 &- j]) }
            let e = Int64(x[i]) &- (sum &>> shift)
            lo = min(lo, e)
            hi = max(hi, e)
            r[i] = Int32(truncatingIfNeeded: e)
            i &+= 1
        }
        return lo >= Int64(Int32.min) && hi <= Int64(Int32.max)
    }

    /// Chooses the partition order and Rice parameters for `r[order..<n]` (into `candidateRice`) and
    /// returns the residual section's size in bits. The cost per partition, count*(k+1) + sum>>k over the
    /// zigzag values, is never below the real size.
    private func planRice(_ r: UnsafePointer<Int32>, count n: Int, order: Int) -> (bits: Int, partitionOrder: Int, method: Int) {
        var top = min(maxPartitionOrder, 8)
        while top > 0 && (n & ((1 << top) - 1) != 0 || (n >> top) <= order) { top -= 1 }
        let size = n >> top
        let sums = partitionSums
        for p in 0..<(1 << top) {
            var sum: UInt64 = 0
            for i in max(p * size, order)..<((p + 1) * size) {
                let e = r[i]
                sum &+= UInt64(UInt32(bitPattern: (e &<< 1) ^ (e &>> 31)))
            }
            sums[p] = sum
        }
        var bestBits = Int.max, bestOrder = 0, bestMethod = 0
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.maxRicePartitions) { kb in
            let ks = kb.baseAddress!
            var o = top
            while true {
                if o < top {
                    for p in 0..<(1 << o) { sums[p] = sums[2 * p] &+ sums[2 * p + 1] }
                }
                var bits = 0, maxK = 0
                let partSize = n >> o
                for p in 0..<(1 << o) {
                    let count = partSize - (p == 0 ? order : 0)
                    let (k, cost) = Self.riceParameter(sum: sums[p], count: count)
                    ks[p] = UInt8(k)
                    maxK = max(maxK, k)
                    bits += cost
                }
                let method = maxK > 14 ? 1 : 0
                bits += 6 + (1 << o) * (4 + method)
                if bits < bestBits {
                    bestBits = bits; bestOrder = o; bestMethod = method
                    candidateRice.update(from: ks, count: 1 << o)
                }
                if o == 0 { break }
                o -= 1
            }
        }
        return (bestBits, bestOrder, bestMethod)
    }

    /// The Rice parameter (0...30) minimizing count*(k+1) + sum>>k near log2 of the mean, and that cost.
    @inline(__always)
    private static func riceParameter(sum: UInt64, count: Int) -> (Int, Int) {
        guard count > 0 else { return (0, 0) }
        let mean = sum / UInt64(count)
        let guess = mean > 0 ? 63 - mean.leadingZeroBitCount : 0
        var bestK = 0, bestCost = Int.max
        for k in max(guess - 1, 0)...min(guess + 1, 30) {
            let cost = count * (k + 1) + Int(truncatingIfNeeded: sum >> UInt64(k))
            if cost < bestCost { bestCost = cost; bestK = k }
        }
        return (bestK, bestCost)
    }

    // MARK: Writing

    /// Writes the subframe planned for `slot`; falls back to verbatim if it came out larger.
    private func write(slot: Int, count n: Int, into w: inout FLACBitWriter) {
        let plan = plans[slot]
        let x = signals + slot * blockSize
        let sb = plan.sampleBits
        let start = w.mark
        let startBits = w.bitCount
        /// The 8-bit subframe header and the unary wasted-bits count.
        func header(_ type: UInt32) {
            w.write(type << 1 | (plan.wasted > 0 ? 1 : 0), bits: 8)
            if plan.wasted > 0 { w.writeUnary(plan.wasted - 1) }
        }
        switch plan.kind {
        case .constant:
            w.write(0, bits: 8)
            w.writeSigned(Int64(x[0]), bits: sb)
            return
        case .verbatim:
            writeVerbatim(x, count: n, plan: plan, into: &w)
            return
        case .fixed:
            header(8 + UInt32(plan.order))
            for i in 0..<plan.order { w.writeSigned(Int64(x[i]), bits: sb) }
        case .lpc:
            header(31 + UInt32(plan.order))
            for i in 0..<plan.order { w.writeSigned(Int64(x[i]), bits: sb) }
            w.write(UInt32(plan.precision - 1), bits: 4)
            w.writeSigned(Int64(plan.shift), bits: 5)
            let c = coefficients + slot * 32
            for i in 0..<plan.order { w.writeSigned(Int64(c[i]), bits: plan.precision) }
        }
        // Residual: method, partition order, then each partition's parameter and codes.
        let r = residuals + residualIndex[slot] * blockSize
        let ks = riceParameters + slot * Self.maxRicePartitions
        w.write(UInt32(plan.riceMethod), bits: 2)
        w.write(UInt32(plan.partitionOrder), bits: 4)
        let partSize = n >> plan.partitionOrder
        let paramBits = 4 + plan.riceMethod
        for p in 0..<(1 << plan.partitionOrder) {
            let from = p == 0 ? plan.order : p * partSize
            let k = Int(ks[p])
            w.write(UInt32(k), bits: paramBits)
            w.writeRice(r + from, count: (p + 1) * partSize - from, parameter: k)
        }
        if w.bitCount - startBits > 8 + plan.wasted + n * sb {
            w.restore(start)
            writeVerbatim(x, count: n, plan: plan, into: &w)
        }
    }

    /// Writes a verbatim subframe of the (wasted-bits-shifted) signal.
    private func writeVerbatim(_ x: UnsafePointer<Int32>, count n: Int, plan: Plan, into w: inout FLACBitWriter) {
        w.write(2 | (plan.wasted > 0 ? 1 : 0), bits: 8)
        if plan.wasted > 0 { w.writeUnary(plan.wasted - 1) }
        let sb = plan.sampleBits
        for i in 0..<n { w.writeSigned(Int64(x[i]), bits: sb) }
    }
}
