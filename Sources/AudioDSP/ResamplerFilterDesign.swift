#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The Kaiser-windowed sinc low-pass behind each `SampleRateConverterQuality`.
///
/// Frequencies are fractions of the lower Nyquist, min(inputRate, outputRate) / 2. Every design puts its
/// stopband edge at the lower Nyquist itself, so downsampling never aliases into the passband and
/// upsampling rejects every image of the passband; the cutoff (-6 dB) sits midway in the transition band.
/// `taps` is the filter length in samples of the lower rate; when downsampling by r the kernel is
/// stretched to taps / r input frames (rounded up to a multiple of 8: 184 at High for 48000 -> 44100).
///
/// Figures measured by ResamplerTests. Ripple and rejection come from the coefficient tables in double
/// precision (worst of 44100 <-> 48000, exact phases, and 44100 -> 48000.5 and 48000 -> 44100.5, cubic-
/// interpolated phases). Through
/// the converter with Float32 I/O: THD+N of 1 kHz at 44100 -> 48000, THD+N of a tone at the passband edge
/// at 44100 -> 48000 (its images fall just inside the stopband), and the level of 23 kHz aliased by
/// 48000 -> 44100, relative to the input tone.
///
/// | quality | taps | beta  | passband | ripple     | rejection | THD+N 1 kHz | edge tone | 23 kHz alias | phases (irrational) |
/// |---------|------|-------|----------|------------|-----------|-------------|-----------|--------------|---------------------|
/// | min     |  24  |  6.60 |   65 %   | ±0.003 dB  |  67.9 dB  |   -92 dB    |  -79 dB   |    -73 dB    |  16, cubic          |
/// | low     |  56  |  8.75 |   80 %   | ±0.0003 dB |  87.6 dB  |  -106 dB    |  -96 dB   |    -92 dB    |  16, cubic          |
/// | medium  |  96  | 10.55 |   86 %   | ±5e-5 dB   | 104.3 dB  |  -125 dB    | -120 dB   |   -110 dB    |  32, cubic          |
/// | high    | 168  | 13.15 |   90 %   | ±4e-6 dB   | 127.8 dB  |  -140 dB    | -136 dB   |   -135 dB    |  64, cubic          |
/// | max     | 256  | 16.05 |   92 %   | ±2e-7 dB   | 154.4 dB  |  -150 dB    | -148 dB   |   -151 dB    | 128, cubic          |
///
/// Through the converter, high is bounded by Float32 accumulation (about -140 dB), not by the filter; max
/// accumulates in Float64 (`ResamplerDotKind`), which lifts it to about -150 dB (Float32 input, coefficients
/// and output remain). The cubic-interpolated tables (ratios without a small rational form) keep their interpolation
/// error below each stopband: the rejection above is measured on them too.
struct ResamplerFilterDesign: Sendable {
    /// Kernel length in samples of the lower rate (a multiple of 8).
    let taps: Int
    /// Kaiser window shape.
    let beta: Double
    /// Passband edge as a fraction of the lower Nyquist (the stopband edge is 1.0).
    let passband: Double
    /// Phases per input sample of the cubic-interpolated table used when the ratio has no small
    /// rational form (at ratio >= 1; scaled down with the ratio when downsampling, where the kernel is
    /// smoother). Enough that the interpolation error stays below the stopband.
    let interpolatedPhases: Int

    static func forQuality(_ quality: SampleRateConverterQuality) -> ResamplerFilterDesign {
        switch quality {
        case .min: return ResamplerFilterDesign(taps: 24, beta: 6.6, passband: 0.65, interpolatedPhases: 16)
        case .low: return ResamplerFilterDesign(taps: 56, beta: 8.75, passband: 0.80, interpolatedPhases: 16)
        case .medium: return ResamplerFilterDesign(taps: 96, beta: 10.55, passband: 0.86, interpolatedPhases: 32)
        case .high: return ResamplerFilterDesign(taps: 168, beta: 13.15, passband: 0.90, interpolatedPhases: 64)
        case .max: return ResamplerFilterDesign(taps: 256, beta: 16.05, passband: 0.92, interpolatedPhases: 128)
        }
    }

    /// -6 dB point in cycles per lower-rate sample: midway between the passband edge and Nyquist.
    var cutoff: Double { 0.25 * (1 + passband) }
}

/// The continuous kernel in input-sample time: h(t) = 2·fc·sinc(2·fc·t)·kaiser(t / halfWidth), with fc
/// in cycles per input sample. Its samples at any phase sum to 1 (to within the stopband), so the
/// converter has unity gain without per-phase normalisation.
struct ResamplerKernel {
    let cutoff: Double
    let halfWidth: Double
    let beta: Double
    private let inverseI0Beta: Double

    init(cutoff: Double, halfWidth: Double, beta: Double) {
        self.cutoff = cutoff
        self.halfWidth = halfWidth
        self.beta = beta
        inverseI0Beta = 1 / ResamplerKernel.besselI0(beta)
    }

    func value(at t: Double) -> Double {
        let u = t / halfWidth
        guard abs(u) <= 1 else { return 0 }
        let window = ResamplerKernel.besselI0(beta * (1 - u * u).squareRoot()) * inverseI0Beta
        let x = 2 * cutoff * t
        let sinc = x == 0 ? 1 : sin(Double.pi * x) / (Double.pi * x)
        return 2 * cutoff * sinc * window
    }

    /// Modified Bessel function of the first kind, order 0 (power series; converges for any beta used here).
    static func besselI0(_ x: Double) -> Double {
        let q = x * x / 4
        var term = 1.0, sum = 1.0, k = 1.0
        while term > sum * 1e-17 {
            term *= q / (k * k)
            sum += term
            k += 1
        }
        return sum
    }
}

/// Polyphase tables. Tap j of a phase at fraction φ ∈ [0, 1) weighs input frame floor(τ) - K/2 + 1 + j
/// for an output at input time τ, i.e. it holds h(φ + K/2 - 1 - j).
enum ResamplerTables {
    /// `phases` exact phases φ = p / phases, each a row of `taps` Floats.
    static func exact(kernel: ResamplerKernel, taps: Int, phases: Int) -> UnsafeMutablePointer<Float> {
        let table = UnsafeMutablePointer<Float>.allocate(capacity: phases * taps)
        let center = Double(taps / 2 - 1)
        for p in 0..<phases {
            let phi = Double(p) / Double(phases)
            for j in 0..<taps {
                table[p * taps + j] = Float(kernel.value(at: phi + center - Double(j)))
            }
        }
        return table
    }

    /// `phases` intervals, each a block of 4 rows (c0, c1, c2, c3) of `taps` Floats: within interval p the
    /// coefficient at x = φ·phases - p ∈ [0, 1) is c0 + x·(c1 + x·(c2 + x·c3)), the cubic Lagrange
    /// interpolant through the kernel at phases p - 1 ... p + 2.
    static func cubic(kernel: ResamplerKernel, taps: Int, phases: Int) -> UnsafeMutablePointer<Float> {
        let table = UnsafeMutablePointer<Float>.allocate(capacity: 4 * phases * taps)
        let center = Double(taps / 2 - 1)
        let step = 1 / Double(phases)
        // The kernel for one tap at phases -1 ... phases + 1, each evaluated once.
        let samples = UnsafeMutablePointer<Double>.allocate(capacity: phases + 3)
        defer { samples.deallocate() }
        for j in 0..<taps {
            for q in 0..<(phases + 3) { samples[q] = kernel.value(at: Double(q - 1) * step + center - Double(j)) }
            for p in 0..<phases {
                let ym1 = samples[p], y0 = samples[p + 1], y1 = samples[p + 2], y2 = samples[p + 3]
                let block = table + 4 * p * taps
                block[j] = Float(y0)
                block[taps + j] = Float(-ym1 / 3 - y0 / 2 + y1 - y2 / 6)
                block[2 * taps + j] = Float((ym1 + y1) / 2 - y0)
                block[3 * taps + j] = Float((y2 - ym1) / 6 + (y0 - y1) / 2)
            }
        }
        return table
    }
}
