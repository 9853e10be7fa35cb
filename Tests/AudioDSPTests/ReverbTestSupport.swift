import Foundation

/// What the reverb tests measure with, written independently of the kernels: block-wise rendering, a
/// Butterworth band split, the RT60 by Schroeder backward integration, correlation, seeded noise.
enum ReverbTestSupport {
    /// One `process` call: input, output, channels, frames.
    typealias Process = (UnsafePointer<UnsafeMutablePointer<Float>>, UnsafePointer<UnsafeMutablePointer<Float>>, Int, Int) -> Void

    /// Runs `frames` frames of `input` (one array per channel, zero-padded to `frames`) through `process` in
    /// blocks of `block`, calling `between` before each block with the frame it starts at; returns the output.
    static func render(channels: Int, frames: Int, input: [[Float]], block: Int = 512,
                       between: (Int) -> Void = { _ in }, _ process: Process) -> [[Float]] {
        var out = Array(repeating: [Float](repeating: 0, count: frames), count: channels)
        let ins = (0..<channels).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: block) }
        let outs = (0..<channels).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: block) }
        defer { ins.forEach { $0.deallocate() }; outs.forEach { $0.deallocate() } }
        var done = 0
        while done < frames {
            let n = min(block, frames - done)
            for c in 0..<channels {
                for i in 0..<n {
                    let k = done + i
                    ins[c][i] = c < input.count && k < input[c].count ? input[c][k] : 0
                }
            }
            between(done)
            ins.withUnsafeBufferPointer { i in outs.withUnsafeBufferPointer { o in process(i.baseAddress!, o.baseAddress!, channels, n) } }
            for c in 0..<channels { for i in 0..<n { out[c][done + i] = outs[c][i] } }
            done += n
        }
        return out
    }

    /// A unit impulse followed by silence.
    static func impulse(_ frames: Int) -> [Float] {
        var x = [Float](repeating: 0, count: frames)
        x[0] = 1
        return x
    }

    /// Full-scale uniform noise in -1...1 from a fixed linear congruential generator.
    static func noise(_ frames: Int, seed: UInt64 = 1) -> [Float] {
        var state = seed &* 6364136223846793005 &+ 1442695040888963407
        return (0..<frames).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Float(Int64(bitPattern: state) >> 11) / Float(1 << 52)
        }
    }

    /// Fourth-order Butterworth low-pass (`highPass` false) or high-pass at `cutoff` Hz: two RBJ biquad sections
    /// with Q 0.5412 and 1.3066, run in Double.
    static func butterworth(_ x: [Float], cutoff: Double, highPass: Bool, sampleRate: Double) -> [Float] {
        var signal = x.map(Double.init)
        for q in [0.541_196_1, 1.306_563] {
            let w = 2 * Double.pi * cutoff / sampleRate, alpha = sin(w) / (2 * q), cw = cos(w)
            let a0 = 1 + alpha, a1 = -2 * cw / a0, a2 = (1 - alpha) / a0
            let b0 = (highPass ? (1 + cw) / 2 : (1 - cw) / 2) / a0
            let b1 = (highPass ? -(1 + cw) : 1 - cw) / a0
            let b2 = b0
            var x1 = 0.0, x2 = 0.0, y1 = 0.0, y2 = 0.0
            for i in signal.indices {
                let x0 = signal[i]
                let y0 = b0 * x0 + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
                x2 = x1; x1 = x0; y2 = y1; y1 = y0
                signal[i] = y0
            }
        }
        return signal.map(Float.init)
    }

    /// RT60 in seconds: the energy decay curve by Schroeder backward integration, a least-squares line through
    /// it between -5 and -35 dB, extrapolated to -60 dB.
    static func rt60(_ x: [Float], sampleRate: Double) -> Double {
        var edc = [Double](repeating: 0, count: x.count)
        var acc = 0.0
        for i in stride(from: x.count - 1, through: 0, by: -1) {
            acc += Double(x[i]) * Double(x[i])
            edc[i] = acc
        }
        let total = edc[0]
        guard total > 0 else { return 0 }
        let start = edc.firstIndex { $0 <= total * pow(10, -0.5) } ?? 0
        let stop = edc.firstIndex { $0 <= total * pow(10, -3.5) } ?? x.count
        var st = 0.0, sl = 0.0, stt = 0.0, stl = 0.0
        let n = Double(stop - start)
        for i in start..<stop {
            let t = Double(i) / sampleRate, level = 10 * log10(edc[i] / total)
            st += t; sl += level; stt += t * t; stl += t * level
        }
        let slope = (n * stl - st * sl) / (n * stt - st * st)
        return -60 / slope
    }

    /// RT60 of the part of `x` below (`low`) or above `cutoff` Hz.
    static func bandRT60(_ x: [Float], cutoff: Double, low: Bool, sampleRate: Double) -> Double {
        rt60(butterworth(x, cutoff: cutoff, highPass: !low, sampleRate: sampleRate), sampleRate: sampleRate)
    }

    /// Normalized cross-correlation of `a` and `b` at lag 0.
    static func correlation(_ a: ArraySlice<Float>, _ b: ArraySlice<Float>) -> Double {
        var ab = 0.0, aa = 0.0, bb = 0.0
        for (x, y) in zip(a, b) {
            ab += Double(x) * Double(y); aa += Double(x) * Double(x); bb += Double(y) * Double(y)
        }
        return ab / (aa * bb).squareRoot()
    }

    /// Largest magnitude in `x`.
    static func peak(_ x: ArraySlice<Float>) -> Float { x.reduce(0) { max($0, abs($1)) } }
}
