@testable import AudioDSP
import Foundation
import Testing
import SharedTestSupport

// MARK: Helpers

/// round(n · out / in), the stream length the converter promises.
private func expectedCount(_ n: Int, _ inRate: Double, _ outRate: Double) -> Int {
    Int((Double(n) * outRate / inRate).rounded())
}

private func sine(_ f: Double, rate: Double, frames: Int, amplitude: Double = 0.5) -> [Float] {
    (0..<frames).map { Float(amplitude * sin(2 * Double.pi * f * Double($0) / rate)) }
}

/// Runs whole planar streams through `converter`. With `rng`, input chunks and output capacities are random
/// (including zero-sized calls); without, everything goes in one call.
private func convertStream(_ converter: SampleRateConverter, _ input: [[Float]], rng: inout SplitMix64?,
                           maxChunk: Int = 2000) -> [[Float]] {
    let channels = input.count, frames = input[0].count
    let inPlanes = input.map { plane -> UnsafeMutablePointer<Float> in
        let p = UnsafeMutablePointer<Float>.allocate(capacity: max(plane.count, 1))
        for i in 0..<plane.count { p[i] = plane[i] }
        return p
    }
    let total = converter.maximumOutputFrames(forInputFrames: frames)
    let outPlanes = (0..<channels).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: total + 1) }
    defer { inPlanes.forEach { $0.deallocate() }; outPlanes.forEach { $0.deallocate() } }
    let inPointers = UnsafeMutablePointer<UnsafePointer<Float>>.allocate(capacity: channels)
    let outPointers = UnsafeMutablePointer<UnsafeMutablePointer<Float>>.allocate(capacity: channels)
    defer { inPointers.deallocate(); outPointers.deallocate() }

    var consumed = 0, produced = 0, idleCalls = 0
    while !converter.isFinished {
        var chunk = frames - consumed, capacity = total - produced
        if rng != nil {
            chunk = min(chunk, Int.random(in: 0...maxChunk, using: &rng!))
            capacity = min(capacity, Int.random(in: 0...maxChunk, using: &rng!))
        }
        let end = consumed + chunk == frames
        for c in 0..<channels {
            inPointers[c] = UnsafePointer(inPlanes[c] + consumed)
            outPointers[c] = outPlanes[c] + produced
        }
        let result = converter.process(input: chunk > 0 ? UnsafePointer(inPointers) : nil, inputFrames: chunk,
                                       endOfInput: end, output: UnsafePointer(outPointers), outputCapacity: capacity)
        #expect(result.inputConsumed <= chunk && result.outputProduced <= capacity)
        consumed += result.inputConsumed
        produced += result.outputProduced
        // A call with room for output and input or end-of-input available must make progress.
        if result.inputConsumed == 0 && result.outputProduced == 0 && capacity > 0 && (chunk > 0 || end) {
            idleCalls += 1
            if idleCalls > 3 { Issue.record("converter stalled at \(consumed)/\(frames) in, \(produced) out"); break }
        } else {
            idleCalls = 0
        }
    }
    #expect(consumed == frames)
    return outPlanes.map { Array(UnsafeBufferPointer(start: $0, count: produced)) }
}

private func convertOnce(_ converter: SampleRateConverter, _ input: [[Float]]) -> [[Float]] {
    var none: SplitMix64? = nil
    return convertStream(converter, input, rng: &none)
}

private func dB(_ ratio: Double) -> Double { 20 * log10(max(ratio, 1e-30)) }

private func rms(_ x: ArraySlice<Double>) -> Double {
    (x.reduce(0) { $0 + $1 * $1 } / Double(max(x.count, 1))).squareRoot()
}

/// Least-squares fit of a·cos + b·sin + c at `cycles` per sample; returns (fundamental rms, residual rms).
private func sineFit(_ y: ArraySlice<Float>, cycles: Double) -> (signal: Double, residual: Double) {
    let w = 2 * Double.pi * cycles
    var m = [[Double]](repeating: [Double](repeating: 0, count: 3), count: 3)
    var v = [Double](repeating: 0, count: 3)
    var basis = [[Double]]()
    for (i, s) in zip(y.indices, y) {
        let b = [cos(w * Double(i)), sin(w * Double(i)), 1.0]
        basis.append(b)
        for r in 0..<3 { v[r] += b[r] * Double(s); for c in 0..<3 { m[r][c] += b[r] * b[c] } }
    }
    // Gaussian elimination on the 3×3 normal equations.
    for col in 0..<3 {
        for row in (col + 1)..<3 {
            let f = m[row][col] / m[col][col]
            for c in col..<3 { m[row][c] -= f * m[col][c] }
            v[row] -= f * v[col]
        }
    }
    var coef = [0.0, 0.0, 0.0]
    for row in (0..<3).reversed() {
        var s = v[row]
        for c in (row + 1)..<3 { s -= m[row][c] * coef[c] }
        coef[row] = s / m[row][row]
    }
    let residual = zip(y, basis).map { Double($0) - ($1[0] * coef[0] + $1[1] * coef[1] + $1[2] * coef[2]) }
    let signal = ((coef[0] * coef[0] + coef[1] * coef[1]) / 2).squareRoot()
    return (signal, rms(residual[...]))
}

/// In-place radix-2 FFT.
private func fft(_ re: inout [Double], _ im: inout [Double]) {
    let n = re.count
    let twRe = (0..<n / 2).map { cos(-2 * Double.pi * Double($0) / Double(n)) }
    let twIm = (0..<n / 2).map { sin(-2 * Double.pi * Double($0) / Double(n)) }
    re.withUnsafeMutableBufferPointer { r in
        im.withUnsafeMutableBufferPointer { i in
            var j = 0
            for k in 1..<n {
                var bit = n >> 1
                while j & bit != 0 { j ^= bit; bit >>= 1 }
                j |= bit
                if k < j { r.swapAt(k, j); i.swapAt(k, j) }
            }
            var len = 2
            while len <= n {
                let half = len / 2, step = n / len
                var start = 0
                while start < n {
                    for k in 0..<half {
                        let wr = twRe[k * step], wi = twIm[k * step]
                        let a = start + k, b = a + half
                        let xr = r[b] * wr - i[b] * wi, xi = r[b] * wi + i[b] * wr
                        r[b] = r[a] - xr; i[b] = i[a] - xi
                        r[a] += xr; i[a] += xi
                    }
                    start += len
                }
                len <<= 1
            }
        }
    }
}

/// Magnitude response of a kernel sampled `oversampling` times per input sample, normalised to the
/// converter's gain; frequencies in cycles per input sample.
private func magnitudeResponse(_ kernel: [Double], oversampling: Int) -> (frequency: [Double], magnitude: [Double]) {
    var n = 1
    while n < 4 * kernel.count { n <<= 1 }
    var re = kernel + [Double](repeating: 0, count: n - kernel.count)
    var im = [Double](repeating: 0, count: n)
    fft(&re, &im)
    let scale = 1 / Double(oversampling)
    let frequency = (0...n / 2).map { Double($0) * Double(oversampling) / Double(n) }
    let magnitude = (0...n / 2).map { (re[$0] * re[$0] + im[$0] * im[$0]).squareRoot() * scale }
    return (frequency, magnitude)
}

/// The kernel a converter actually applies, on a grid of `oversampling` points per input sample:
/// the exact phases interleaved, or the cubic-interpolated table evaluated at 4 points per interval.
private func effectiveKernel(_ converter: SampleRateConverter) -> (kernel: [Double], oversampling: Int) {
    let k = converter.taps, phases = converter.phases, table = converter.table
    switch converter.mode {
    case .exactPhases:
        // Phase p (row rowOfPhase[p]), tap j holds h(p/L + K/2 - 1 - j): grid index L·(K/2 - 1 - j) + p, offset by L·K/2.
        var h = [Double](repeating: 0, count: phases * k)
        for p in 0..<phases {
            let row = converter.rowOfPhase[p]
            for j in 0..<k { h[phases * (k - 1 - j) + p] = Double(table[row * k + j]) }
        }
        return (h, phases)
    case .interpolatedPhases:
        let sub = 4, o = phases * sub
        var h = [Double](repeating: 0, count: o * k)
        for p in 0..<phases {
            let block = table + 4 * p * k
            for s in 0..<sub {
                let x = Double(s) / Double(sub)
                for j in 0..<k {
                    let c0 = Double(block[j]), c1 = Double(block[k + j])
                    let c2 = Double(block[2 * k + j]), c3 = Double(block[3 * k + j])
                    h[o * (k - 1 - j) + p * sub + s] = c0 + x * (c1 + x * (c2 + x * c3))
                }
            }
        }
        return (h, o)
    case .passThrough, .linear:
        return ([1], 1)
    }
}

/// Passband deviation (dB, both signs) up to `passEdge` and stopband rejection (dB) from `stopEdge` on.
private func filterFigures(_ converter: SampleRateConverter, passEdge: Double, stopEdge: Double)
    -> (ripple: Double, rejection: Double) {
    let (kernel, oversampling) = effectiveKernel(converter)
    let (f, m) = magnitudeResponse(kernel, oversampling: oversampling)
    var ripple = 0.0, stop = 0.0
    for (fi, mi) in zip(f, m) {
        if fi <= passEdge { ripple = max(ripple, abs(dB(mi))) }
        if fi >= stopEdge { stop = max(stop, mi) }
    }
    return (ripple, -dB(stop))
}

private let allQualities: [SampleRateConverterQuality] = [.min, .low, .medium, .high, .max]

/// The figures each quality is stated to reach (ResamplerFilterDesign's table, rounded to keep a margin),
/// and the brief's requirements they meet: ripple (± dB) up to `rippleEdge` of the lower Nyquist, stopband
/// rejection (dB), and through the converter THD+N of 1 kHz, of a tone at the passband edge (its images),
/// and the level of 23 kHz aliased by 48000 -> 44100 (dB relative to the input tone).
private struct StatedFigures {
    let rippleEdge: Double, ripple: Double, rejection: Double, thdn: Double, edgeTone: Double, alias: Double
    static func of(_ quality: SampleRateConverterQuality) -> StatedFigures {
        switch quality {
        case .min: StatedFigures(rippleEdge: 0.65, ripple: 0.005, rejection: 67, thdn: -90, edgeTone: -78, alias: -70)
        case .low: StatedFigures(rippleEdge: 0.80, ripple: 0.0005, rejection: 87, thdn: -105, edgeTone: -94, alias: -90)
        case .medium: StatedFigures(rippleEdge: 0.86, ripple: 0.0001, rejection: 104, thdn: -123, edgeTone: -118, alias: -108)
        case .high: StatedFigures(rippleEdge: 0.90, ripple: 0.00001, rejection: 127, thdn: -138, edgeTone: -134, alias: -132)
        case .max: StatedFigures(rippleEdge: 0.92, ripple: 0.000001, rejection: 154, thdn: -147, edgeTone: -146, alias: -148)
        }
    }
}

// MARK: Tests

/// SampleRateConverter. Real-time safety is not measured here: convert, reset and the sizing queries are
/// marked @_noLocks @_noAllocation, so the compiler proves that they allocate nothing, take no locks and do
/// no reference counting (every callee is checked too).
@Suite struct ResamplerTests {
    @Test func equalRatesPassThroughBitExact() {
        var rng = SplitMix64(state: 1)
        let input = (0..<2).map { _ in (0..<5000).map { _ in Float(bitPattern: UInt32.random(in: 0...0x7F7F_FFFF, using: &rng)) * (Bool.random(using: &rng) ? 1 : -1) } }
        for algorithm in [SampleRateConverterAlgorithm.sinc, .linear] {
            let converter = SampleRateConverter(inputRate: 48000, outputRate: 48000, channels: 2, quality: .max, algorithm: algorithm)
            #expect(converter.latencyInputFrames == 0)
            var chunked: SplitMix64? = SplitMix64(state: 2)
            let output = convertStream(converter, input, rng: &chunked)
            for c in 0..<2 { #expect(output[c].map(\.bitPattern) == input[c].map(\.bitPattern)) }
        }
    }

    /// Stream lengths are exact for every ratio and chunking, and random chunking changes no sample.
    @Test func outputCountExactAndChunkingInvariant() {
        let ratios: [(Double, Double)] = [(44100, 48000), (48000, 44100), (8000, 192000), (192000, 8000), (22050, 44100),
                                          (48000, 44100.0 * 1.000123), (44100, 48000.5), (96000, 44100), (11025, 48000), (44100, 48001)]
        var rng = SplitMix64(state: 3)
        for (inRate, outRate) in ratios {
            for (quality, algorithm) in [(SampleRateConverterQuality.high, SampleRateConverterAlgorithm.sinc), (.min, .sinc), (.min, .linear)] {
                for n in [0, 1, 7, 333, 2400] {
                    let input = [(0..<n).map { _ in Float.random(in: -1...1, using: &rng) }]
                    let converter = SampleRateConverter(inputRate: inRate, outputRate: outRate, channels: 1, quality: quality, algorithm: algorithm)
                    let whole = convertOnce(converter, input)
                    #expect(whole[0].count == expectedCount(n, inRate, outRate), "\(inRate)->\(outRate) \(quality) \(algorithm) N=\(n)")
                    converter.reset()
                    var chunked: SplitMix64? = SplitMix64(state: UInt64(n) &+ 17)
                    let pieces = convertStream(converter, input, rng: &chunked, maxChunk: n < 100 ? 5 : 700)
                    #expect(pieces[0] == whole[0], "\(inRate)->\(outRate) \(quality) \(algorithm) N=\(n) chunked")
                }
            }
        }
    }

    /// Channels are independent and share one coefficient table; reset gives a fresh stream.
    @Test func channelsAreIndependentAndResetRestarts() {
        var rng = SplitMix64(state: 4)
        let a = (0..<3000).map { _ in Float.random(in: -1...1, using: &rng) }
        let b = sine(3000, rate: 44100, frames: 3000)
        for (inRate, outRate) in [(44100.0, 48000.0), (44100.0, 48000.5)] {
            let stereo = SampleRateConverter(inputRate: inRate, outputRate: outRate, channels: 2, quality: .medium, algorithm: .sinc)
            let both = convertOnce(stereo, [a, b])
            stereo.reset()
            #expect(convertOnce(stereo, [a, b]) == both)
            let mono = SampleRateConverter(inputRate: inRate, outputRate: outRate, channels: 1, quality: .medium, algorithm: .sinc)
            #expect(convertOnce(mono, [a])[0] == both[0])
            mono.reset()
            #expect(convertOnce(mono, [b])[0] == both[1])
            // Channels go through the kernels in pairs; an odd one out takes the single-channel path.
            let three = SampleRateConverter(inputRate: inRate, outputRate: outRate, channels: 3, quality: .medium, algorithm: .sinc)
            #expect(convertOnce(three, [b, a, b]) == [both[1], both[0], both[1]])
        }
    }

    /// The sizing queries agree with what convert does, and inputFramesNeeded is tight.
    @Test func sizingQueriesMatchConvert() {
        var rng = SplitMix64(state: 5)
        let input = [Float](repeating: 0.25, count: 100_000)
        let outCapacity = 1 << 18
        let out = UnsafeMutablePointer<Float>.allocate(capacity: outCapacity)
        defer { out.deallocate() }
        /// Feeds `frames` frames from `offset` (no end of input); returns the output produced.
        func feed(_ converter: SampleRateConverter, _ offset: Int, _ frames: Int) -> Int {
            input.withUnsafeBufferPointer { buffer in
                var inPointer = buffer.baseAddress! + offset
                var outPointer = out
                return withUnsafePointer(to: &inPointer) { ip in
                    withUnsafePointer(to: &outPointer) { op in
                        let r = converter.process(input: ip, inputFrames: frames, endOfInput: false, output: op, outputCapacity: outCapacity)
                        #expect(r.inputConsumed == frames)
                        return r.outputProduced
                    }
                }
            }
        }
        for (inRate, outRate) in [(44100.0, 48000.0), (48000.0, 44100.0), (8000.0, 192000.0), (192000.0, 8000.0), (44100.0, 48000.5)] {
            for algorithm in [SampleRateConverterAlgorithm.sinc, .linear] {
                let converter = SampleRateConverter(inputRate: inRate, outputRate: outRate, channels: 1, quality: .low, algorithm: algorithm)
                let probe = SampleRateConverter(inputRate: inRate, outputRate: outRate, channels: 1, quality: .low, algorithm: algorithm)
                var fed = 0, produced = 0
                for _ in 0..<12 {
                    let want = Int.random(in: 1...300, using: &rng)
                    let need = converter.inputFramesNeeded(forOutputFrames: want)
                    let bound = converter.maximumOutputFrames(forInputFrames: need)
                    let got = feed(converter, fed, need)
                    fed += need
                    produced += got
                    #expect(got >= want && got <= bound, "\(inRate)->\(outRate) \(algorithm): wanted \(want), fed \(need), got \(got), bound \(bound)")
                    // The same stream one frame shorter falls short of the wanted output.
                    if need > 0 {
                        probe.reset()
                        let short = feed(probe, 0, fed - 1)
                        #expect(short < produced - got + want, "\(inRate)->\(outRate) \(algorithm): \(need) - 1 frames also gave \(want)")
                    }
                }
                // At the end of input, everything owed comes out and the bound is exact.
                let owed = converter.maximumOutputFrames(forInputFrames: 0)
                let drained = input.withUnsafeBufferPointer { _ -> Int in
                    var outPointer = out
                    return withUnsafePointer(to: &outPointer) { op in
                        converter.process(input: nil, inputFrames: 0, endOfInput: true, output: op, outputCapacity: outCapacity).outputProduced
                    }
                }
                #expect(drained == owed && converter.isFinished && produced + drained == expectedCount(fed, inRate, outRate))
            }
        }
    }

    /// Output frame k is the input at time k / ratio: a converted sine matches the sine computed at the output times.
    @Test func outputIsTimeAligned() {
        let cases: [(Double, Double, SampleRateConverterQuality, SampleRateConverterAlgorithm, Double)] = [
            (44100, 48000, .high, .sinc, -100), (44100, 48000, .max, .sinc, -100), (48000, 44100, .high, .sinc, -100),
            (44100, 48000.5, .high, .sinc, -100), (8000, 192000, .high, .sinc, -100), (192000, 8000, .high, .sinc, -100),
            (44100, 48000, .high, .linear, -45),
        ]
        for (inRate, outRate, quality, algorithm, limit) in cases {
            let frames = Int(inRate / 4)
            let converter = SampleRateConverter(inputRate: inRate, outputRate: outRate, channels: 1, quality: quality, algorithm: algorithm)
            let output = convertOnce(converter, [sine(1000, rate: inRate, frames: frames)])[0]
            // Skip the frames whose window reaches before the first or past the last input frame.
            let skip = Int((Double(converter.latencyInputFrames) * outRate / inRate).rounded(.up)) + 4
            let range = skip..<(output.count - skip)
            let error = range.map { Double(output[$0]) - 0.5 * sin(2 * Double.pi * 1000 * Double($0) / outRate) }
            let relative = dB(rms(error[...]) / (0.5 / 2.0.squareRoot()))
            print("alignment \(inRate)->\(outRate) \(quality) \(algorithm): error \(String(format: "%.1f", relative)) dB (skipping \(skip) frames at each end)")
            #expect(relative < limit, "\(inRate)->\(outRate) \(quality) \(algorithm): \(relative) dB")
        }
    }

    /// Passband ripple and stopband rejection of the filter each quality actually applies (the
    /// coefficient tables, in double precision) for upsampling, downsampling and irrational ratios.
    @Test(arguments: allQualities)
    func filterResponseMeetsSpecification(quality: SampleRateConverterQuality) {
        let stated = StatedFigures.of(quality)
        // The brief: passband edge, ripple and rejection required of each quality.
        let (requiredEdge, requiredRipple, requiredRejection): (Double, Double, Double) = switch quality {
        case .min: (0.6, 0.01, 60)
        case .low: (0.75, 0.01, 80)
        case .medium: (0.85, 0.05, 100)
        case .high, .max: (0.9, 0.01, 120)
        }
        #expect(stated.rippleEdge >= requiredEdge && stated.ripple <= requiredRipple && stated.rejection >= requiredRejection)
        for (inRate, outRate) in [(44100.0, 48000.0), (48000.0, 44100.0), (44100.0, 48000.5), (48000.0, 44100.5)] {
            let converter = SampleRateConverter(inputRate: inRate, outputRate: outRate, channels: 1, quality: quality, algorithm: .sinc)
            // Edges in cycles per input sample: fractions of the lower Nyquist.
            let nyquist = 0.5 * min(1, outRate / inRate)
            let measured = filterFigures(converter, passEdge: stated.rippleEdge * nyquist, stopEdge: nyquist)
            print("filter \(quality) \(inRate)->\(outRate) (\(converter.mode), \(converter.taps) taps, \(converter.phases) phases): ripple ±\(String(format: "%.2g", measured.ripple)) dB to \(Int(stated.rippleEdge * 100))%, rejection \(String(format: "%.1f", measured.rejection)) dB")
            #expect(measured.ripple <= stated.ripple, "\(quality) \(inRate)->\(outRate) ripple \(measured.ripple)")
            #expect(measured.rejection >= stated.rejection, "\(quality) \(inRate)->\(outRate) rejection \(measured.rejection)")
        }
    }

    /// THD+N (the residual after fitting the tone) of a sine converted by `quality`, over the frames whose
    /// window lies inside the input.
    private func toneResidual(_ f: Double, _ inRate: Double, _ outRate: Double, _ quality: SampleRateConverterQuality,
                              seconds: Double = 0.25) -> Double {
        let converter = SampleRateConverter(inputRate: inRate, outputRate: outRate, channels: 1, quality: quality, algorithm: .sinc)
        let output = convertOnce(converter, [sine(f, rate: inRate, frames: Int(inRate * seconds))])[0]
        let skip = Int((Double(converter.latencyInputFrames) * outRate / inRate).rounded(.up)) + 4
        let fit = sineFit(output[skip..<(output.count - skip)], cycles: f / outRate)
        return dB(fit.residual / fit.signal)
    }

    /// Level of a sine above the output Nyquist after downsampling, relative to the input sine.
    private func aliasLevel(_ f: Double, _ inRate: Double, _ outRate: Double, _ quality: SampleRateConverterQuality) -> Double {
        let converter = SampleRateConverter(inputRate: inRate, outputRate: outRate, channels: 1, quality: quality, algorithm: .sinc)
        let output = convertOnce(converter, [sine(f, rate: inRate, frames: Int(inRate / 4))])[0]
        let skip = Int((Double(converter.latencyInputFrames) * outRate / inRate).rounded(.up)) + 4
        return dB(rms(output[skip..<(output.count - skip)].map(Double.init)[...]) / (0.5 / 2.0.squareRoot()))
    }

    /// Through the converter (Float32): THD+N of 1 kHz at 44100 -> 48000, THD+N of a tone at the passband
    /// edge when upsampling (its images; also at an irrational ratio), and aliasing of 23 kHz when
    /// downsampling 48000 -> 44100.
    @Test(arguments: allQualities)
    func distortionAndAliasing(quality: SampleRateConverterQuality) {
        let stated = StatedFigures.of(quality)
        let thdn = toneResidual(1000, 44100, 48000, quality)
        let edge = (ResamplerFilterDesign.forQuality(quality).passband * 22050 / 100).rounded(.down) * 100
        let images = toneResidual(edge, 44100, 48000, quality)
        let irrational = toneResidual(edge, 44100, 48000.5, quality)
        let alias = aliasLevel(23000, 48000, 44100, quality)
        print("converter \(quality): THD+N 1 kHz \(String(format: "%.1f", thdn)) dB, \(Int(edge)) Hz up \(String(format: "%.1f", images)) dB (irrational ratio \(String(format: "%.1f", irrational)) dB), 23 kHz alias \(String(format: "%.1f", alias)) dB")
        #expect(thdn < stated.thdn, "THD+N \(thdn)")
        #expect(images < stated.edgeTone && irrational < stated.edgeTone, "edge tone \(images), \(irrational)")
        #expect(alias < stated.alias, "alias \(alias)")
        if quality == .high || quality == .max {
            #expect(thdn < -120 && alias < -120)
        }
        if quality == .max {
            #expect(thdn < -145, "issue 17: Max reaches -145 dB THD+N")
        }
    }

    /// Ratios of 24 and more each way, exact and irrational: images, aliases and passband tones at High.
    @Test func extremeRatios() {
        for (inRate, outRate) in [(8000.0, 192000.0), (192000.0, 8000.0), (7999.5, 192000.0), (192000.0, 7999.5), (384000.0, 8000.0)] {
            let low = min(inRate, outRate)
            let tone = toneResidual(0.4 * low, inRate, outRate, .high)
            let alias = inRate > outRate ? aliasLevel(0.6 * low, inRate, outRate, .high) : -200
            print("extreme \(inRate)->\(outRate): THD+N at \(Int(0.4 * low)) Hz \(String(format: "%.1f", tone)) dB, alias of \(Int(0.6 * low)) Hz \(String(format: "%.1f", alias)) dB")
            #expect(tone < -125 && alias < -125, "\(inRate)->\(outRate)")
        }
    }

    /// Linear interpolation: exact at the input frames, straight lines between, and no filtering (it aliases).
    @Test func linearInterpolates() {
        let converter = SampleRateConverter(inputRate: 1000, outputRate: 4000, channels: 1, quality: .max, algorithm: .linear)
        #expect(converter.latencyInputFrames == 1)
        let output = convertOnce(converter, [[0, 1, -1, 0.5]])[0]
        #expect(output == [0, 0.25, 0.5, 0.75, 1, 0.5, 0, -0.5, -1, -0.625, -0.25, 0.125, 0.5, 0.375, 0.25, 0.125])
        // 23 kHz at 48000 -> 44100 folds to 21.1 kHz nearly unattenuated.
        let down = SampleRateConverter(inputRate: 48000, outputRate: 44100, channels: 1, quality: .max, algorithm: .linear)
        let aliased = convertOnce(down, [sine(23000, rate: 48000, frames: 4800)])[0]
        #expect(rms(aliased.map(Double.init)[...]) > 0.05)
    }

    /// The AVX2 kernels change only rounding: at High (Float32 sums) the output stays within -130 dB of the
    /// portable kernel's, exact phases and interpolated; at Max (Float64 sums) it is the same bits.
    @Test(.enabled(if: ResamplerDotKind.cpuHasAVX2FMA, "the CPU has no AVX2 + FMA"))
    func avx2KernelsMatchThePortableOnes() {
        let input = [sine(997, rate: 44100, frames: 20000), sine(15000, rate: 44100, frames: 20000, amplitude: 0.7)]
        for outRate in [48000.0, 48000.5] {
            for (quality, portable, wide) in [(SampleRateConverterQuality.high, ResamplerDotKind.float32, ResamplerDotKind.float32AVX2),
                                              (.max, .float64, .float64AVX2)] {
                let a = convertOnce(SampleRateConverter(inputRate: 44100, outputRate: outRate, channels: 2, quality: quality, algorithm: .sinc,
                                                        dotKind: portable), input)
                let b = convertOnce(SampleRateConverter(inputRate: 44100, outputRate: outRate, channels: 2, quality: quality, algorithm: .sinc,
                                                        dotKind: wide), input)
                for c in 0..<2 {
                    #expect(a[c].count == b[c].count)
                    if quality == .max {
                        #expect(a[c].map(\.bitPattern) == b[c].map(\.bitPattern), "max \(outRate) channel \(c)")
                    } else {
                        let difference = rms(zip(a[c], b[c]).map { Double($0) - Double($1) }[...])
                        let level = rms(a[c].map(Double.init)[...])
                        #expect(dB(difference / level) < -130, "high \(outRate) channel \(c): \(dB(difference / level)) dB")
                    }
                }
            }
        }
    }

    /// Informational: throughput of this (debug or release) build.
    @Test func throughput() {
        let frames = 44100
        let input = [sine(1000, rate: 44100, frames: frames), sine(1500, rate: 44100, frames: frames)]
        for quality in [SampleRateConverterQuality.medium, .high] {
            let converter = SampleRateConverter(inputRate: 44100, outputRate: 48000, channels: 2, quality: quality, algorithm: .sinc)
            let start = Date()
            _ = convertOnce(converter, input)
            let seconds = Date().timeIntervalSince(start)
            print("throughput \(quality) 44100->48000 stereo: \(String(format: "%.0f", 1 / seconds))x real time")
        }
    }
}
