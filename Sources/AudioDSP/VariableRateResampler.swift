#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Streaming resampler whose ratio may change between calls: reads its input at `step` input frames per
/// output frame (step 2 plays an octave up in half the time). Varispeed and the pitch path of the time-pitch
/// units use it.
///
/// It is `SampleRateConverter`'s sinc converter with a variable step: the same Kaiser-windowed sinc design
/// (`ResamplerFilterDesign`), cubic-interpolated polyphase tables and dot-product kernels. When reading
/// faster than 1 the kernel must be stretched so its cutoff follows the output's Nyquist; a table per
/// quarter octave of step (built in `init`) is chosen at each call, the one whose cutoff is at or just
/// below the needed one. Step 1 at a whole position copies the input through.
///
/// Timing as `SampleRateConverter`: output frame k is the input at time τ_k (τ_0 = 0, τ_{k+1} = τ_k + step),
/// the filter delay is compensated (zeros before the first input frame), and a stream of N input frames
/// ends with the last k for which τ_k + step/2 < N (round(N / step) frames at a constant step).
///
/// `process` is real-time safe: it touches only memory allocated in `init`, takes no locks and makes no
/// system calls.
public final class VariableRateResampler {
    public let channels: Int
    public let maximumStep: Double
    /// Input frames per output frame, clamped to 1/maximumStep ... maximumStep. Read at each call.
    public var step: Double = 1

    private let tableCount: Int
    private let tables: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    private let tapCounts: UnsafeMutablePointer<Int>
    /// 1 / step at or above which table i serves (its cutoff scale).
    private let scales: UnsafeMutablePointer<Double>
    private let phases: Int
    private let maximumTaps: Int
    private let coefficients: UnsafeMutablePointer<Float>
    /// History frames are input frames + `prime` (zeros in front).
    private let prime: Int
    private let stride: Int
    private let history: UnsafeMutablePointer<Float>

    private var base = 0          // virtual index of history[0]
    private var filled = 0
    private var accepted = 0
    private var whole = 0         // floor(τ) + prime, virtual
    private var fraction = 0.0
    private var endOfInputSeen = false

    /// All allocation happens here (the tables take a few milliseconds to build).
    public init(channels: Int, maximumStep: Double = 4, quality: SampleRateConverterQuality = .low) {
        precondition(channels >= 1 && maximumStep >= 1)
        self.channels = channels
        self.maximumStep = maximumStep
        let design = ResamplerFilterDesign.forQuality(quality)
        var count = 1
        while Double(count - 1) / 4 < log2(maximumStep) { count += 1 }
        tableCount = count
        tables = .allocate(capacity: count)
        tapCounts = .allocate(capacity: count)
        scales = .allocate(capacity: count)
        phases = design.interpolatedPhases
        var most = 0
        for i in 0..<count {
            let scale = max(pow(2, -Double(i) / 4), 1 / maximumStep)
            let taps = (Int((Double(design.taps) / scale).rounded(.up)) + 7) & ~7
            let kernel = ResamplerKernel(cutoff: design.cutoff * scale, halfWidth: Double(taps) / 2, beta: design.beta)
            tables[i] = ResamplerTables.cubic(kernel: kernel, taps: taps, phases: phases)
            tapCounts[i] = taps
            scales[i] = scale
            most = max(most, taps)
        }
        maximumTaps = most
        coefficients = .allocate(capacity: most)
        coefficients.initialize(repeating: 0, count: most)
        prime = most / 2
        stride = most + 4096 + 8 * Int(maximumStep)
        history = .allocate(capacity: channels * stride)
        history.initialize(repeating: 0, count: channels * stride)
        reset()
    }

    deinit {
        for i in 0..<tableCount { tables[i].deallocate() }
        tables.deallocate()
        tapCounts.deallocate()
        scales.deallocate()
        coefficients.deallocate()
        history.deallocate()
    }

    /// The filter's look-ahead in input frames (the widest table's half length): the input runs this far
    /// ahead of the output.
    public var latencyInputFrames: Int { maximumTaps / 2 }

    public var isFinished: Bool {
        @_noLocks @_noAllocation get {
            if !endOfInputSeen { return false }
            return !moreOutput()
        }
    }

    /// Back to the initial state (real-time safe). Keeps `step`.
    @_noLocks @_noAllocation
    public func reset() {
        for c in 0..<channels {
            let h = history + c * stride
            for i in 0..<prime { h[i] = 0 }
        }
        base = 0
        filled = prime
        accepted = 0
        whole = prime
        fraction = 0
        endOfInputSeen = false
    }

    @inline(__always) @_noLocks @_noAllocation
    private func clampedStep() -> Double {
        let s = step
        if !(s >= 1 / maximumStep) { return 1 / maximumStep }  // also NaN
        return s > maximumStep ? maximumStep : s
    }

    /// Whether the stream (once endOfInput is seen) has output left: τ + step/2 < N.
    @inline(__always) @_noLocks @_noAllocation
    private func moreOutput() -> Bool {
        Double(whole - prime) + fraction + clampedStep() / 2 < Double(accepted)
    }

    /// Input frames still to pass before `outputFrames` more output frames can be produced (an upper bound
    /// for the current step). 0 after endOfInput. Real-time safe.
    @_noLocks @_noAllocation
    public func inputFramesNeeded(forOutputFrames outputFrames: Int) -> Int {
        guard outputFrames > 0, !endOfInputSeen else { return 0 }
        let last = Double(whole) + fraction + Double(outputFrames - 1) * clampedStep()
        let need = Int(last) + maximumTaps / 2 + 1
        return max(0, need - (base + filled))
    }

    /// Streaming conversion of planar Float32: produces as much output as fits and consumes input as far as
    /// the history allows; input after endOfInput is ignored.
    @_noLocks @_noAllocation
    public func process(input: UnsafePointer<UnsafePointer<Float>>?, inputFrames: Int, endOfInput: Bool,
                        output: UnsafePointer<UnsafeMutablePointer<Float>>, outputCapacity: Int)
        -> (inputConsumed: Int, outputProduced: Int) {
        var available = max(inputFrames, 0)
        if input == nil { available = 0 }
        if endOfInputSeen { available = 0 }
        let capacity = max(outputCapacity, 0)
        let s = clampedStep()
        // The table whose cutoff scale is at or just below 1 / step.
        var t = 0
        while t + 1 < tableCount, scales[t] > 1 / s + 1e-12 { t += 1 }
        var consumed = 0
        var written = 0
        while true {
            written += produce(output, at: written, count: capacity - written, step: s, table: t)
            if consumed < available, let input {
                let keep = whole - maximumTaps / 2 + 1
                if stride - filled < available - consumed { compact(to: keep) }
                let n = min(available - consumed, stride - filled)
                if n > 0 {
                    for c in 0..<channels {
                        let src = input[c] + consumed, dst = history + c * stride + filled
                        for i in 0..<n { dst[i] = src[i] }
                    }
                    filled += n
                    accepted += n
                    consumed += n
                    continue
                }
            }
            if endOfInput, consumed == available, !endOfInputSeen {
                endOfInputSeen = true
                continue
            }
            if endOfInputSeen, written < capacity, moreOutput() {
                // Past the last input frame the signal is zero: pad so the remaining windows fill.
                compact(to: whole - maximumTaps / 2 + 1)
                for c in 0..<channels {
                    let dst = history + c * stride
                    for i in filled..<stride { dst[i] = 0 }
                }
                let before = written
                filled = stride
                written += produce(output, at: written, count: capacity - written, step: s, table: t)
                if written > before { continue }
            }
            break
        }
        return (consumed, written)
    }

    @inline(__always) @_noLocks @_noAllocation
    private func compact(to keep: Int) {
        let shift = min(keep - base, filled)
        guard shift > 0 else { return }
        let remaining = filled - shift
        for c in 0..<channels {
            let h = history + c * stride
            for i in 0..<remaining { h[i] = h[i + shift] }
        }
        base += shift
        filled = remaining
    }

    /// Produces up to `count` frames at `offset` from the history; returns how many.
    @inline(__always) @_noLocks @_noAllocation
    private func produce(_ output: UnsafePointer<UnsafeMutablePointer<Float>>, at offset: Int, count: Int,
                         step: Double, table t: Int) -> Int {
        let k = tapCounts[t], table = UnsafePointer(tables[t]), h = coefficients
        let stepWhole = Int(step), stepFraction = step - Double(stepWhole)
        let p = Double(phases)
        var n = 0
        while n < count {
            if endOfInputSeen {
                if !moreOutput() { break }
            }
            let start = whole - k / 2 + 1 - base
            if start + k > filled { break }
            if fraction == 0, step == 1 {
                for c in 0..<channels { output[c][offset + n] = history[c * stride + whole - base] }
            } else {
                let scaled = fraction * p
                let interval = Int(scaled)
                ResamplerKernels.interpolateCoefficients(table + 4 * k * interval, k, Float(scaled - Double(interval)), h)
                let window = history + start
                var c = 0
                while c + 1 < channels {
                    let pair = ResamplerKernels.dot2(window + c * stride, window + (c + 1) * stride, h, k)
                    output[c][offset + n] = pair.0
                    output[c + 1][offset + n] = pair.1
                    c += 2
                }
                if c < channels { output[c][offset + n] = ResamplerKernels.dot(window + c * stride, h, k) }
            }
            whole += stepWhole
            fraction += stepFraction
            if fraction >= 1 { fraction -= 1; whole += 1 }
            n += 1
        }
        return n
    }
}
