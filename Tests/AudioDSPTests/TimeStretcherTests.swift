@testable import AudioDSP
import Foundation
import Testing

/// Runs whole planar streams through a stretcher (or anything with its streaming shape). With a seed, input
/// chunks, output capacities and (optionally) rates vary call by call; without, one call does it all.
func runStretchStream(_ input: [[Float]], seed: UInt64? = nil, maxChunk: Int = 3000,
                      process: (UnsafePointer<UnsafePointer<Float>>?, Int, Bool, UnsafePointer<UnsafeMutablePointer<Float>>, Int)
                          -> (inputConsumed: Int, outputProduced: Int),
                      finished: () -> Bool, beforeCall: (Int) -> Void = { _ in }) -> [[Float]] {
    let channels = input.count, frames = input[0].count
    var state = seed ?? 0
    func random(_ n: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(n + 1))
    }
    let inPlanes = input.map { plane -> UnsafeMutablePointer<Float> in
        let p = UnsafeMutablePointer<Float>.allocate(capacity: max(plane.count, 1))
        for i in 0..<plane.count { p[i] = plane[i] }
        return p
    }
    var out = [[Float]](repeating: [], count: channels)
    let chunkOut = 4096
    let outPlanes = (0..<channels).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: chunkOut) }
    let inPointers = UnsafeMutablePointer<UnsafePointer<Float>>.allocate(capacity: channels)
    let outPointers = UnsafeMutablePointer<UnsafeMutablePointer<Float>>.allocate(capacity: channels)
    defer {
        inPlanes.forEach { $0.deallocate() }
        outPlanes.forEach { $0.deallocate() }
        inPointers.deallocate()
        outPointers.deallocate()
    }
    var consumed = 0, idle = 0, calls = 0
    while !finished() {
        var chunk = frames - consumed, capacity = chunkOut
        if seed != nil {
            chunk = min(chunk, random(maxChunk))
            capacity = random(min(maxChunk, chunkOut))
        }
        let end = consumed + chunk == frames
        for c in 0..<channels {
            inPointers[c] = UnsafePointer(inPlanes[c] + consumed)
            outPointers[c] = outPlanes[c]
        }
        beforeCall(calls)
        calls += 1
        let r = process(chunk > 0 ? UnsafePointer(inPointers) : nil, chunk, end, UnsafePointer(outPointers), capacity)
        #expect(r.inputConsumed <= chunk && r.outputProduced <= capacity)
        consumed += r.inputConsumed
        for c in 0..<channels { out[c].append(contentsOf: UnsafeBufferPointer(start: outPlanes[c], count: r.outputProduced)) }
        if r.inputConsumed == 0 && r.outputProduced == 0 && capacity > 0 && (chunk > 0 || end) {
            idle += 1
            if idle > 3 { Issue.record("stalled at \(consumed)/\(frames) in, \(out[0].count) out"); break }
        } else {
            idle = 0
        }
    }
    #expect(consumed == frames)
    return out
}

func stretch(_ input: [[Float]], rate: Double, sampleRate: Double = 44100, seed: UInt64? = nil,
             settings: TimeStretcherSettings = .standard) -> [[Float]] {
    let s = TimeStretcher(sampleRate: sampleRate, channels: input.count, settings: settings)
    s.rate = rate
    return runStretchStream(input, seed: seed, process: s.process, finished: { s.isFinished })
}

/// A tone with harmonics 1...5 at amplitudes 1/h, scaled to peak below 0.5.
func harmonicTone(_ f: Double, sampleRate: Double, frames: Int) -> [Float] {
    (0..<frames).map { n in
        var s = 0.0
        for h in 1...5 { s += sin(2 * Double.pi * f * Double(h) * Double(n) / sampleRate + Double(h)) / Double(h) }
        return Float(0.2 * s)
    }
}

func sineTone(_ f: Double, sampleRate: Double, frames: Int, amplitude: Double = 0.5) -> [Float] {
    (0..<frames).map { Float(amplitude * sin(2 * Double.pi * f * Double($0) / sampleRate)) }
}

/// Least-squares fit of a·sin + b·cos at frequency f over x: the residual energy and the fitted sine's energy.
/// The oscillator runs by complex rotation (renormalised now and then) instead of sin/cos per sample.
func sineFitResidual(_ x: ArraySlice<Float>, frequency f: Double, sampleRate: Double) -> (residual: Double, signal: Double) {
    let w = 2 * Double.pi * f / sampleRate
    let cw = cos(w), sw = sin(w)
    var ss = 0.0, sc = 0.0, cc = 0.0, xs = 0.0, xc = 0.0, xx = 0.0
    var s = 0.0, c = 1.0
    x.withUnsafeBufferPointer { p in
        for i in 0..<p.count {
            let d = Double(p[i])
            ss += s * s; sc += s * c; cc += c * c; xs += d * s; xc += d * c; xx += d * d
            let s1 = s * cw + c * sw
            c = c * cw - s * sw
            s = s1
            if i & 1023 == 1023 { let n = (s * s + c * c).squareRoot(); s /= n; c /= n }
        }
    }
    let det = ss * cc - sc * sc
    let a = (xs * cc - xc * sc) / det, b = (xc * ss - xs * sc) / det
    // Residual energy of the least-squares fit: |x|² - fit·x.
    let signal = a * xs + b * xc
    return (max(xx - signal, 0), signal)
}

/// The frequency of the strongest sine near `guess`: a scan in steps of a quarter of the window's resolution,
/// then golden-section search within the best step.
func bestFitFrequency(_ x: ArraySlice<Float>, near guess: Double, span: Double, sampleRate: Double) -> Double {
    let step = sampleRate / Double(x.count) / 4
    var best = guess, bestEnergy = -1.0
    var f = guess - span
    while f <= guess + span {
        let e = sineFitResidual(x, frequency: f, sampleRate: sampleRate).signal
        if e > bestEnergy { bestEnergy = e; best = f }
        f += step
    }
    var lo = best - step, hi = best + step
    let g = (5.0.squareRoot() - 1) / 2
    for _ in 0..<20 {
        let m1 = hi - g * (hi - lo), m2 = lo + g * (hi - lo)
        if sineFitResidual(x, frequency: m1, sampleRate: sampleRate).signal > sineFitResidual(x, frequency: m2, sampleRate: sampleRate).signal {
            hi = m2
        } else {
            lo = m1
        }
    }
    return (lo + hi) / 2
}

@Suite struct TimeStretcherTests {
    static let rates: [Double] = [0.5, 2.0 / 3, 0.8, 1, 1.25, 1.5, 2]

    @Test(arguments: rates + [1.0 / 32, 0.3, 3.7, 32])
    func lengthIsInputOverRate(rate: Double) {
        let n = rate < 0.1 ? 4410 : 44100
        let x = [sineTone(330, sampleRate: 44100, frames: n)]
        let y = stretch(x, rate: rate)
        #expect(y[0].count == TimeStretcher.outputFrames(forInput: n, rate: rate))
    }

    @Test func rateOneIsIdentity() {
        let x = [harmonicTone(187, sampleRate: 44100, frames: 30000), sineTone(1234, sampleRate: 44100, frames: 30000)]
        let y = stretch(x, rate: 1)
        #expect(y[0].count == 30000)
        var worst: Float = 0
        for c in 0..<2 { for i in 0..<30000 { worst = max(worst, abs(y[c][i] - x[c][i])) } }
        #expect(worst < 1e-6)
    }

    @Test(arguments: [0.5, 1.5, 2.0])
    func chunkingDoesNotChangeTheOutput(rate: Double) {
        let x = [harmonicTone(220, sampleRate: 44100, frames: 40000), sineTone(660, sampleRate: 44100, frames: 40000)]
        let whole = stretch(x, rate: rate)
        let pieces = stretch(x, rate: rate, seed: 42)
        #expect(whole == pieces)
    }

    /// A harmonic tone keeps its pitch within 1 cent at every rate.
    @Test(arguments: rates)
    func harmonicTonePitch(rate: Double) {
        let fs = 44100.0
        let x = [harmonicTone(220, sampleRate: fs, frames: 44100 + 22050)]
        let y = stretch(x, rate: rate)[0]
        let middle = y[(y.count / 4)..<(3 * y.count / 4)]
        let f = bestFitFrequency(middle, near: 220, span: 2, sampleRate: fs)
        let cents = 1200 * log2(f / 220)
        #expect(abs(cents) < 1, "rate \(rate): \(f) Hz, \(cents) cents")
    }

    /// A pure tone stays a pure tone: the residual after the best-fitting sine, in blocks of 50 ms.
    @Test(arguments: rates)
    func pureToneResidual(rate: Double) {
        let fs = 44100.0
        let x = [sineTone(440, sampleRate: fs, frames: 2 * 44100)]
        let y = stretch(x, rate: rate)[0]
        var worst = -Double.infinity
        let block = 2205
        var start = 4410
        while start + block <= y.count - 4410 {
            let slice = y[start..<(start + block)]
            let f = bestFitFrequency(slice, near: 440, span: 3, sampleRate: fs)
            let r = sineFitResidual(slice, frequency: f, sampleRate: fs)
            worst = max(worst, 10 * log10(r.residual / r.signal))
            start += block
        }
        #expect(worst < -45, "rate \(rate): worst block residual \(worst) dB")
    }
}

@Suite struct TimePitchTests {
    /// Varispeed: the resampler alone at step s plays s times higher in 1/s of the time.
    @Test(arguments: [0.25, 0.5, 0.8, 1, 1.5, 2, 4])
    func resamplerStepScalesFrequencyAndLength(step: Double) {
        let fs = 44100.0, n = 22050
        let x = [sineTone(440 / max(step, 1), sampleRate: fs, frames: n)]
        let r = VariableRateResampler(channels: 1)
        r.step = step
        let y = runStretchStream(x, seed: 7, process: r.process, finished: { r.isFinished })[0]
        var expected = 0
        while Double(expected) * step + step / 2 < Double(n) { expected += 1 }
        #expect(y.count == expected)
        let middle = y[(y.count / 4)..<(3 * y.count / 4)]
        let f0 = 440 / max(step, 1) * step
        let f = bestFitFrequency(middle, near: f0, span: 5, sampleRate: fs)
        #expect(abs(1200 * log2(f / f0)) < 0.1, "step \(step): \(f) Hz, expected \(f0)")
        let r2 = sineFitResidual(middle, frequency: f, sampleRate: fs)
        #expect(10 * log10(r2.residual / r2.signal) < -60)
    }

    /// Pitch and rate are independent: a 220 Hz harmonic tone shifted by `cents` at `rate` has the shifted
    /// fundamental within 1 cent and N / rate frames (within a slice).
    @Test(arguments: [(1.0, 700.0), (1.5, -1200.0), (0.5, 1200.0), (2.0, 300.0), (1.0, -2400.0), (1.0, 2400.0)])
    func pitchShift(rate: Double, cents: Double) {
        let fs = 44100.0, n = 44100
        let x = [harmonicTone(220, sampleRate: fs, frames: n), harmonicTone(220, sampleRate: fs, frames: n)]
        let p = TimePitchProcessor(sampleRate: fs, channels: 2)
        p.rate = rate
        p.pitch = pow(2, cents / 1200)
        let y = runStretchStream(x, seed: 3, process: p.process, finished: { p.isFinished })
        #expect(abs(Double(y[0].count) - Double(n) / rate) <= 512)
        #expect(y[0] == y[1])
        let middle = y[0][(y[0].count / 4)..<(3 * y[0].count / 4)]
        let f0 = 220 * p.pitch
        let f = bestFitFrequency(middle, near: f0, span: 3, sampleRate: fs)
        #expect(abs(1200 * log2(f / f0)) < 1, "rate \(rate), \(cents) cents: \(f) Hz, expected \(f0)")
    }
}
