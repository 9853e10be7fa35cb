import CDSPKernels

/// Filter quality of the sinc converter; the designs and the figures they reach are in
/// `ResamplerFilterDesign`'s table.
public enum SampleRateConverterQuality: Int, Sendable { case min = 0, low, medium, high, max }

/// `linear` is plain linear interpolation between neighbouring input frames (Apple's "Linear"
/// complexity): no anti-aliasing or anti-imaging filter, so content above the lower Nyquist aliases and
/// images are only softened by its sinc² response. `sinc` is the windowed-sinc polyphase filter.
public enum SampleRateConverterAlgorithm: Sendable { case linear, sinc }

/// Streaming sample-rate converter for planar Float32.
///
/// Output frame k is the input signal evaluated at input time k·inputRate/outputRate: the filter delay
/// is compensated internally (the stream starts on zeros before input frame 0 and is padded with zeros
/// after the last one), and a whole stream of N input frames yields exactly round(N·outputRate/inputRate)
/// output frames. Equal rates copy samples through unchanged.
///
/// The sinc converter keeps a polyphase table shared by all channels: exact phases when integral rates
/// reduce to out/in = L/M with L <= 1024 and L·taps <= 2^19 (44100 -> 48000 is 160/147), otherwise a
/// cubic-interpolated table addressed by a 64-bit fixed-point time accumulator (drift below 2^-64 frame
/// per output frame). Downsampling stretches the kernel so the cutoff follows the output Nyquist. Exact
/// phases are stored with their rows in the order the stream visits them, so
/// coefficients stream in sequence instead of jumping M rows a frame; with the AVX2 kernels that loop runs
/// in C, one call per block.
///
/// `convert` is real-time safe: it touches only storage allocated in `init`, takes no locks and makes
/// no system calls. Input is staged in a per-channel history buffer; when a call passes more input than
/// fits, the converter alternates filling it and producing output, and once the output buffer is full it
/// consumes only what still fits (the buffer holds the filter length plus at least 4096 frames).
public final class SampleRateConverter {
    public let inputRate: Double
    public let outputRate: Double
    public let channels: Int
    public let quality: SampleRateConverterQuality
    public let algorithm: SampleRateConverterAlgorithm
    /// The dot product every output frame runs (Float32 or Float64 accumulation, portable or AVX2).
    let dotKind: ResamplerDotKind

    enum Mode { case passThrough, linear, exactPhases, interpolatedPhases }
    let mode: Mode
    /// Frames one output reads (K): the filter length in input frames, 2 for linear.
    let taps: Int
    /// Exact mode: L rows, one per phase. Interpolated mode: P intervals of 4 rows (cubic). Linear: unused.
    let phases: Int
    /// Exact mode: the L phase rows in the order a stream visits them (row r holds phase r·stepNumerator mod L),
    /// so the filter loops read coefficients in sequence; `rowOfPhase` maps a phase to its row.
    let table: UnsafeMutablePointer<Float>
    /// Exact mode: the row of `table` holding each phase (one unused entry in the other modes).
    let rowOfPhase: UnsafeMutablePointer<Int>
    private let phaseBits: Int
    /// Interpolated mode: the coefficients for the current output frame.
    private let coefficients: UnsafeMutablePointer<Float>

    /// Input time advances by stepWhole + stepNumerator / phases (exact) or stepWhole + stepFraction / 2^64.
    private let stepWhole: Int
    private let stepNumerator: Int
    private let stepFraction: UInt64

    /// Per channel `stride` frames: primed zeros, then input not yet behind every future window.
    private let history: UnsafeMutablePointer<Float>
    private let stride: Int
    private let primeFrames: Int

    // Stream state. `windowStart` indexes the history frame under tap 0 of the next output frame.
    private var filled = 0
    private var windowStart = 0
    private var phase = 0
    private var fraction: UInt64 = 0
    private var accepted = 0
    private var produced = 0
    private var outputLimit = 0
    private var endOfInputSeen = false

    /// All allocation happens here. channels >= 1; rates > 0 (8 kHz ... 384 kHz, any ratio). `quality`
    /// applies to the sinc algorithm.
    public convenience init(inputRate: Double, outputRate: Double, channels: Int, quality: SampleRateConverterQuality,
                            algorithm: SampleRateConverterAlgorithm) {
        self.init(inputRate: inputRate, outputRate: outputRate, channels: channels, quality: quality, algorithm: algorithm,
                  dotKind: ResamplerDotKind.forQuality(quality))
    }

    /// As the public init, with the dot product named (tests run the portable kernels beside the AVX2 ones).
    init(inputRate: Double, outputRate: Double, channels: Int, quality: SampleRateConverterQuality,
         algorithm: SampleRateConverterAlgorithm, dotKind: ResamplerDotKind) {
        precondition(channels >= 1, "SampleRateConverter needs at least one channel")
        precondition(inputRate > 0 && outputRate > 0 && inputRate.isFinite && outputRate.isFinite,
                     "SampleRateConverter needs positive finite rates")
        self.inputRate = inputRate
        self.outputRate = outputRate
        self.channels = channels
        self.quality = quality
        self.algorithm = algorithm
        self.dotKind = dotKind

        // Integral rates reduce to out/in = L/M exactly.
        var l = 0, m = 0
        if inputRate == inputRate.rounded(), outputRate == outputRate.rounded(), max(inputRate, outputRate) < 0x1p40 {
            let a = Int(inputRate), b = Int(outputRate)
            var x = a, y = b
            while y != 0 { (x, y) = (y, x % y) }
            m = a / x
            l = b / x
        }

        var mode: Mode
        var taps = 0, phases = 1, phaseBits = 0
        var table = UnsafeMutablePointer<Float>.allocate(capacity: 1)
        var rowOfPhase = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        rowOfPhase.initialize(to: 0)
        if inputRate == outputRate {
            mode = .passThrough
        } else if algorithm == .linear {
            mode = .linear
            taps = 2
        } else {
            let design = ResamplerFilterDesign.forQuality(quality)
            // When downsampling the kernel scales to the output rate: cutoff down, length up, by the ratio.
            let scale = min(1, outputRate / inputRate)
            taps = (Int((Double(design.taps) / scale).rounded(.up)) + 7) & ~7
            let kernel = ResamplerKernel(cutoff: design.cutoff * scale, halfWidth: Double(taps) / 2, beta: design.beta)
            table.deallocate()
            if l > 0 && l <= 1024 && l * taps <= 1 << 19 {
                mode = .exactPhases
                phases = l
                // Phase order from the design, then rows in visiting order: one table, no second copy.
                let byPhase = ResamplerTables.exact(kernel: kernel, taps: taps, phases: l)
                // Rows of a multiple of 8 taps on a 64-byte boundary: no 32-byte load of a coefficient crosses a cache line.
                table = UnsafeMutableRawPointer.allocate(byteCount: l * taps * MemoryLayout<Float>.stride, alignment: 64)
                    .bindMemory(to: Float.self, capacity: l * taps)
                rowOfPhase.deallocate()
                rowOfPhase = .allocate(capacity: l)
                for r in 0..<l {
                    let p = r * (m % l) % l
                    rowOfPhase[p] = r
                    (table + r * taps).initialize(from: byPhase + p * taps, count: taps)
                }
                byPhase.deallocate()
            } else {
                mode = .interpolatedPhases
                // Interpolation error scales with the kernel's bandwidth, so fewer phases suffice when downsampling.
                let wanted = Int((Double(design.interpolatedPhases) * scale).rounded(.up))
                while 1 << phaseBits < max(2, wanted) { phaseBits += 1 }
                phases = 1 << phaseBits
                table = ResamplerTables.cubic(kernel: kernel, taps: taps, phases: phases)
            }
        }
        self.mode = mode
        self.taps = taps
        self.phases = phases
        self.phaseBits = phaseBits
        self.table = table
        self.rowOfPhase = rowOfPhase
        coefficients = .allocate(capacity: max(taps, 1))
        coefficients.initialize(repeating: 0, count: max(taps, 1))

        if mode == .exactPhases {
            stepWhole = m / l
            stepNumerator = m % l
            stepFraction = 0
        } else if l > 0 {
            stepWhole = m / l
            stepNumerator = 0
            stepFraction = UInt64(l).dividingFullWidth((high: UInt64(m % l), low: 0)).quotient
        } else {
            let step = inputRate / outputRate
            let whole = step.rounded(.down)
            let scaled = (step - whole) * 0x1p64
            stepWhole = Int(whole)
            stepNumerator = 0
            stepFraction = scaled >= 0x1p64 ? UInt64.max : UInt64(scaled)
        }

        primeFrames = max(taps / 2 - 1, 0)
        stride = taps + max(4096, 4 * (stepWhole + 1))
        history = .allocate(capacity: channels * stride)
        history.initialize(repeating: 0, count: channels * stride)
        reset()
    }

    deinit {
        table.deallocate()
        rowOfPhase.deallocate()
        coefficients.deallocate()
        history.deallocate()
    }

    /// Filter delay in input frames: output frame k needs input up to frame floor(k·inputRate/outputRate)
    /// + latencyInputFrames. The converter compensates it (its input runs this far ahead of its output).
    /// 0 for pass-through, 1 for linear, taps/2 for sinc. The sinc window also reaches taps/2 - 1 frames
    /// back, which at the start of a stream are taken as zeros (Apple's kConverterPrimeMethod_Normal).
    public var latencyInputFrames: Int {
        switch mode {
        case .passThrough: return 0
        case .linear: return 1
        case .exactPhases, .interpolatedPhases: return taps / 2
        }
    }

    /// True once endOfInput was seen and every output frame has been produced.
    public var isFinished: Bool {
        endOfInputSeen && (mode == .passThrough || produced == outputLimit)
    }

    /// Back to the initial state (real-time safe).
    @_noLocks @_noAllocation
    public func reset() {
        for c in 0..<channels {
            let h = history + c * stride
            for i in 0..<primeFrames { h[i] = 0 }
        }
        filled = primeFrames
        windowStart = 0
        phase = 0
        fraction = 0
        accepted = 0
        produced = 0
        outputLimit = 0
        endOfInputSeen = false
    }

    /// round(frames · outputRate / inputRate): the output length of a stream of `frames` input frames.
    @inline(__always) @_noLocks @_noAllocation
    private func outputCount(forInput frames: Int) -> Int {
        // Round half away from zero without FloatingPointRoundingRule (its metadata is not real-time safe).
        let exact = Double(frames) * outputRate / inputRate
        let whole = Int(exact)
        return exact - Double(whole) >= 0.5 ? whole + 1 : whole
    }

    /// Output frames that `inputFrames` more input frames will yield at most from the current state
    /// (including output still owed for earlier input), for buffer sizing. Real-time safe.
    @_noLocks @_noAllocation
    public func maximumOutputFrames(forInputFrames inputFrames: Int) -> Int {
        if mode == .passThrough { return endOfInputSeen ? 0 : max(inputFrames, 0) }
        if endOfInputSeen { return outputLimit - produced }
        return max(0, outputCount(forInput: accepted + max(inputFrames, 0)) - produced)
    }

    /// Input frames needed, from the current state, before `outputFrames` more output frames can be
    /// produced without endOfInput (with endOfInput, any remaining output comes without more input).
    /// Exact: one frame less would not do. Real-time safe.
    @_noLocks @_noAllocation
    public func inputFramesNeeded(forOutputFrames outputFrames: Int) -> Int {
        guard outputFrames > 0 else { return 0 }
        if mode == .passThrough { return endOfInputSeen ? 0 : outputFrames }
        if endOfInputSeen { return 0 }
        // The stream length must allow the output count (estimate, then settle on the exact rounding) ...
        let target = produced + outputFrames
        var frames = max(0, Int((Double(target) - 0.5) * inputRate / outputRate))
        while frames > 0, outputCount(forInput: frames - 1) >= target { frames -= 1 }
        while outputCount(forInput: frames) < target { frames += 1 }
        // ... and the last output frame's window must be in the buffer.
        let steps = outputFrames - 1
        var start = windowStart + steps * stepWhole
        if mode == .exactPhases {
            start += (phase + steps * stepNumerator) / phases
        } else {
            let product = UInt64(steps).multipliedFullWidth(by: stepFraction)
            start += Int(product.high) + (product.low.addingReportingOverflow(fraction).overflow ? 1 : 0)
        }
        return max(0, max(frames - accepted, start + taps - filled))
    }

    /// Streaming conversion of planar Float32; see the type's documentation. Produces as much output as
    /// fits and consumes input as far as the staging buffer allows (all of it unless the output buffer
    /// fills first); input passed after endOfInput (until `reset`) is ignored.
    @_noLocks @_noAllocation
    public func process(input: UnsafePointer<UnsafePointer<Float>>?, inputFrames: Int, endOfInput: Bool,
                        output: UnsafePointer<UnsafeMutablePointer<Float>>, outputCapacity: Int)
        -> (inputConsumed: Int, outputProduced: Int) {
        var available = max(inputFrames, 0)
        if input == nil { available = 0 }
        if endOfInputSeen { available = 0 }
        let capacity = max(outputCapacity, 0)
        if mode == .passThrough {
            let n = min(available, capacity)
            if let input {
                for c in 0..<channels {
                    let src = input[c], dst = output[c]
                    for i in 0..<n { dst[i] = src[i] }
                }
            }
            accepted += n
            produced += n
            if endOfInput && n == available { endOfInputSeen = true }
            return (n, n)
        }

        var consumed = 0
        var written = 0
        while true {
            written += produce(output, at: written, count: capacity - written)
            if consumed < available, let input {
                // Stage as much input as fits, dropping first what no future window needs. The buffer
                // is only full when the output is (a window always fits once older frames are dropped).
                if stride - filled < available - consumed { compact() }
                let n = min(available - consumed, stride - filled)
                guard n > 0 else { break }
                for c in 0..<channels {
                    let src = input[c] + consumed, dst = history + c * stride + filled
                    for i in 0..<n { dst[i] = src[i] }
                }
                filled += n
                accepted += n
                consumed += n
                outputLimit = outputCount(forInput: accepted)
                if consumed == available && endOfInput { endOfInputSeen = true }
                continue
            }
            if endOfInput, !endOfInputSeen {
                endOfInputSeen = true
                continue
            }
            if endOfInputSeen, produced < outputLimit, written < capacity {
                // Past the last input frame the signal is zero: pad so the remaining windows fill.
                compact()
                for c in 0..<channels {
                    let dst = history + c * stride
                    for i in filled..<stride { dst[i] = 0 }
                }
                filled = stride
                continue
            }
            break
        }
        return (consumed, written)
    }

    /// Drops history frames before the next window.
    @inline(__always) @_noLocks @_noAllocation
    private func compact() {
        let shift = min(windowStart, filled)
        guard shift > 0 else { return }
        let keep = filled - shift
        for c in 0..<channels {
            let h = history + c * stride
            for i in 0..<keep { h[i] = h[i + shift] }
        }
        windowStart -= shift
        filled -= shift
    }

    /// One output frame for every channel: frame `index` of each output gets the window at `window`
    /// (channel c at `window + c * stride`) through `coefficients`. Channels go in pairs to share loads.
    @inline(__always) @_noLocks @_noAllocation
    private func filter(_ output: UnsafePointer<UnsafeMutablePointer<Float>>, _ index: Int, _ window: UnsafePointer<Float>,
                        _ stride: Int, _ channels: Int, _ coefficients: UnsafePointer<Float>, _ count: Int) {
        let kind = dotKind
        var c = 0
        while c + 1 < channels {
            let pair = ResamplerKernels.dot2(kind, window + c * stride, window + (c + 1) * stride, coefficients, count)
            output[c][index] = pair.0
            output[c + 1][index] = pair.1
            c += 2
        }
        if c < channels {
            output[c][index] = ResamplerKernels.dot(kind, window + c * stride, coefficients, count)
        }
    }

    /// Produces up to `count` output frames at `offset` from the staged history; returns how many.
    @inline(__always) @_noLocks @_noAllocation
    private func produce(_ output: UnsafePointer<UnsafeMutablePointer<Float>>, at offset: Int, count: Int) -> Int {
        let count = min(count, outputLimit - produced)
        guard count > 0 else { return 0 }
        let k = taps, lastStart = filled - taps, whole = stepWhole, channels = self.channels
        let history = self.history, stride = self.stride
        var start = windowStart
        var n = 0
        switch mode {
        case .passThrough:
            break
        case .exactPhases:
            let rows = UnsafePointer(table)
            var p = phase, r = rowOfPhase[p]
            let l = phases, numerator = stepNumerator
            var inC = true, wide = true
            switch dotKind {
            case .float32AVX2: break
            case .float64AVX2: wide = false
            case .float32, .float64: inC = false
            }
            if inC {
                // The whole loop in C, a pair of channels a call: each call runs the same frames.
                var c = 0
                var next = (start, p, r)
                while c < channels {
                    var s = start, q = p, row = r
                    let x = UnsafePointer(history + c * stride)
                    let y = c + 1 < channels ? UnsafePointer(history + (c + 1) * stride) : nil
                    let out0 = output[c] + offset, out1 = c + 1 < channels ? output[c + 1] + offset : nil
                    n = wide
                        ? oca_polyphase_f32_avx2(x, y, rows, k, l, whole, numerator, lastStart, count, &s, &q, &row,
                                                 out0, out1)
                        : oca_polyphase_f64acc_avx2(x, y, rows, k, l, whole, numerator, lastStart, count, &s, &q, &row,
                                                    out0, out1)
                    next = (s, q, row)
                    c += 2
                }
                (start, p, r) = next
            }
            while n < count && start <= lastStart {
                filter(output, offset + n, history + start, stride, channels, rows + r * k, k)
                r = r + 1 == l ? 0 : r + 1
                p += numerator
                start += whole
                if p >= l { p -= l; start += 1 }
                n += 1
            }
            phase = p
        case .interpolatedPhases:
            var f = fraction
            let bits = UInt64(phaseBits), step = stepFraction, table = UnsafePointer(self.table)
            let h = coefficients
            while n < count && start <= lastStart {
                let interval = Int(truncatingIfNeeded: f >> (64 - bits))
                let x = Float((f << bits) >> 40) * 0x1p-24
                ResamplerKernels.interpolateCoefficients(table + 4 * k * interval, k, x, h)
                filter(output, offset + n, history + start, stride, channels, h, k)
                let next = f.addingReportingOverflow(step)
                f = next.partialValue
                start += whole + (next.overflow ? 1 : 0)
                n += 1
            }
            fraction = f
        case .linear:
            var f = fraction
            let step = stepFraction
            while n < count && start <= lastStart {
                let x = Float(f >> 40) * 0x1p-24
                for c in 0..<channels {
                    let s = history + c * stride + start
                    output[c][offset + n] = s[0] + x * (s[1] - s[0])
                }
                let next = f.addingReportingOverflow(step)
                f = next.partialValue
                start += whole + (next.overflow ? 1 : 0)
                n += 1
            }
            fraction = f
        }
        windowStart = start
        produced += n
        return n
    }
}
