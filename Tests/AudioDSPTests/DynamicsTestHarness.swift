import Foundation

/// Signal sources, block-wise kernel runs and measurements shared by the dynamics kernels' tests.
enum DynamicsTestHarness {
    /// A kernel's `process(input:output:channels:frames:)`.
    typealias Process = (UnsafePointer<UnsafeMutablePointer<Float>>, UnsafePointer<UnsafeMutablePointer<Float>>, Int, Int) -> Void

    /// Runs non-interleaved `input` through `process`, slice by slice with sizes cycling through `blocks`, in place
    /// when `inPlace` (one buffer serves as input and output), and returns the output.
    static func run(_ input: [[Float]], blocks: [Int] = [512], inPlace: Bool = false, _ process: Process) -> [[Float]] {
        let channels = input.count, frames = input.first?.count ?? 0
        let largest = blocks.max() ?? 512
        let ins = (0..<channels).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: largest) }
        let outs = inPlace ? ins : (0..<channels).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: largest) }
        defer {
            ins.forEach { $0.deallocate() }
            if !inPlace { outs.forEach { $0.deallocate() } }
        }
        var result = [[Float]](repeating: [], count: channels)
        for c in 0..<channels { result[c].reserveCapacity(frames) }
        var done = 0, b = 0
        while done < frames {
            let n = min(blocks[b % blocks.count], frames - done)
            b += 1
            for c in 0..<channels { for i in 0..<n { ins[c][i] = input[c][done + i] } }
            ins.withUnsafeBufferPointer { i in
                outs.withUnsafeBufferPointer { o in process(i.baseAddress!, o.baseAddress!, channels, n) }
            }
            for c in 0..<channels { result[c] += UnsafeBufferPointer(start: outs[c], count: n) }
            done += n
        }
        return result
    }

    /// `frames` samples of a sine of peak `amplitude`.
    static func sine(_ frequency: Double, amplitude: Double, frames: Int, rate: Double) -> [Float] {
        (0..<frames).map { Float(amplitude * sin(2 * Double.pi * frequency * Double($0) / rate)) }
    }

    /// A deterministic generator of uniform values in -1...1 (64-bit LCG, top bits).
    struct Noise {
        private var state: UInt64
        init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 | 1 }
        mutating func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 52) - 1
        }
    }

    /// RMS of a stretch of samples.
    static func rms(_ x: ArraySlice<Float>) -> Double {
        (x.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(x.count, 1))).squareRoot()
    }

    /// Largest magnitude of a stretch of samples.
    static func peak(_ x: ArraySlice<Float>) -> Float { x.reduce(0) { max($0, abs($1)) } }

    /// 20·log10 of an amplitude ratio.
    static func dB(_ x: Double) -> Double { 20 * log10(x) }

    /// |X(f)| of a finite sequence (its DTFT at one frequency), by a rotating phasor.
    static func magnitude(_ x: [Float], frequency: Double, rate: Double) -> Double {
        let w = 2 * Double.pi * frequency / rate
        let step = (cos(w), -sin(w))
        var phasor = (1.0, 0.0), re = 0.0, im = 0.0
        for (n, v) in x.enumerated() {
            re += Double(v) * phasor.0
            im += Double(v) * phasor.1
            phasor = (phasor.0 * step.0 - phasor.1 * step.1, phasor.0 * step.1 + phasor.1 * step.0)
            if n & 1023 == 1023 {  // keep the phasor on the unit circle
                let m = (phasor.0 * phasor.0 + phasor.1 * phasor.1).squareRoot()
                phasor = (phasor.0 / m, phasor.1 / m)
            }
        }
        return (re * re + im * im).squareRoot()
    }

    /// Magnitudes of the analog 4th-order Linkwitz-Riley low- and high-pass at `frequency` for crossover `fc`:
    /// 1/(1 + r⁴) and r⁴/(1 + r⁴), r = f/fc (the squared Butterworth magnitudes).
    static func linkwitzRiley(_ frequency: Double, crossover fc: Double) -> (low: Double, high: Double) {
        let r4 = pow(frequency / fc, 4)
        return (1 / (1 + r4), r4 / (1 + r4))
    }
}
