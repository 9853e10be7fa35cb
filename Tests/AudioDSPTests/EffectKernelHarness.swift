import Foundation

/// Signals and measurements shared by the effect kernel tests: block-wise running of a kernel over whole buffers,
/// seeded noise, sines, single-bin DFT amplitudes.
enum EffectKernelHarness {
    typealias Process = (UnsafePointer<UnsafeMutablePointer<Float>>, UnsafePointer<UnsafeMutablePointer<Float>>, Int, Int) -> Void

    /// Runs `input` (one array per channel, equal lengths) through `process` in blocks of `block` frames, out of
    /// place (or in place when `inPlace`), and returns the output channels. `between` runs before each block with the
    /// block's first frame index (for parameter changes mid-stream).
    static func run(_ input: [[Float]], block: Int = 512, inPlace: Bool = false,
                    between: (Int) -> Void = { _ in }, _ process: Process) -> [[Float]] {
        let channels = input.count
        let frames = input.first?.count ?? 0
        var output = input.map { [Float](repeating: 0, count: $0.count) }
        let ins = (0..<channels).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: block) }
        let outs = inPlace ? ins : (0..<channels).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: block) }
        defer {
            ins.forEach { $0.deallocate() }
            if !inPlace { outs.forEach { $0.deallocate() } }
        }
        var done = 0
        while done < frames {
            let n = min(block, frames - done)
            between(done)
            for c in 0..<channels { input[c].withUnsafeBufferPointer { ins[c].update(from: $0.baseAddress! + done, count: n) } }
            ins.withUnsafeBufferPointer { i in outs.withUnsafeBufferPointer { o in process(i.baseAddress!, o.baseAddress!, channels, n) } }
            for c in 0..<channels { output[c].withUnsafeMutableBufferPointer { ($0.baseAddress! + done).update(from: outs[c], count: n) } }
            done += n
        }
        return output
    }

    /// Uniform white noise in -amplitude...amplitude from a fixed seed (xorshift64*).
    static func noise(_ frames: Int, amplitude: Float, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> [Float] {
        var state = seed
        return (0..<frames).map { _ in
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            let bits = (state &* 0x2545_F491_4F6C_DD1D) >> 40         // 24 bits
            return amplitude * (Float(bits) / Float(1 << 23) - 1)
        }
    }

    /// A sine of `frequency` Hz and peak `amplitude`, starting at phase 0.
    static func sine(_ frames: Int, frequency: Double, amplitude: Double, sampleRate: Double) -> [Float] {
        (0..<frames).map { Float(amplitude * sin(2 * Double.pi * frequency * Double($0) / sampleRate)) }
    }

    /// The peak amplitude of the `frequency` component of `x[range]` by a single-bin DFT (exact when the range holds
    /// a whole number of periods).
    static func amplitude(_ x: [Float], _ range: Range<Int>, frequency: Double, sampleRate: Double) -> Double {
        var re = 0.0, im = 0.0
        let w = 2 * Double.pi * frequency / sampleRate
        for n in range {
            let phase = w * Double(n - range.lowerBound)
            re += Double(x[n]) * cos(phase)
            im -= Double(x[n]) * sin(phase)
        }
        return 2 * (re * re + im * im).squareRoot() / Double(range.count)
    }

    /// The largest |x[n] - x[n-1]| over `range`.
    static func largestStep(_ x: [Float], _ range: Range<Int>) -> Float {
        var m: Float = 0
        for n in range where n > 0 { m = max(m, abs(x[n] - x[n - 1])) }
        return m
    }

    /// Root mean square over `range`.
    static func rms(_ x: [Float], _ range: Range<Int>) -> Double {
        var sum = 0.0
        for n in range { sum += Double(x[n]) * Double(x[n]) }
        return (sum / Double(max(range.count, 1))).squareRoot()
    }

    /// 20·log10(a / b).
    static func decibels(_ a: Double, _ b: Double) -> Double { 20 * log10(a / b) }
}
