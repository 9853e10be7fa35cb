import AudioDSP
import Foundation
import Testing

/// The FDN reverb measured from its impulse response: RT60 at low and high frequencies by Schroeder backward
/// integration, mix and gain, decorrelation, silence after the tail, stability.
@Suite struct ReverbKernelTests {
    static let rate = 44100.0

    /// Runs `input` (mono) through the kernel, returning left and right.
    static func run(_ kernel: FDNReverbKernel, _ input: [Float], channels: Int = 2) -> [[Float]] {
        let block = 512
        var out = Array(repeating: [Float](), count: channels)
        let ins = (0..<channels).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: block) }
        let outs = (0..<channels).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: block) }
        defer { ins.forEach { $0.deallocate() }; outs.forEach { $0.deallocate() } }
        var done = 0
        while done < input.count {
            let n = min(block, input.count - done)
            for c in 0..<channels { for i in 0..<n { ins[c][i] = c == 0 ? input[done + i] : 0 } }
            ins.withUnsafeBufferPointer { i in outs.withUnsafeBufferPointer { o in
                kernel.process(input: i.baseAddress!, output: o.baseAddress!, channels: channels, frames: n)
            } }
            for c in 0..<channels { out[c] += UnsafeBufferPointer(start: outs[c], count: n) }
            done += n
        }
        return out
    }

    static func impulse(_ frames: Int) -> [Float] { var x = [Float](repeating: 0, count: frames); x[0] = 1; return x }

    /// RT60 from the energy decay curve between -5 and -25 dB (T20 × 3), after a band filter.
    static func rt60(_ ir: [Float], band: BiquadCoefficients?) -> Double {
        var x = ir
        if let band {
            var s1 = BiquadState(), s2 = BiquadState()
            x.withUnsafeMutableBufferPointer { p in
                BiquadKernels.apply(p.baseAddress!, p.baseAddress!, count: p.count, band, &s1)
                BiquadKernels.apply(p.baseAddress!, p.baseAddress!, count: p.count, band, &s2)
            }
        }
        var edc = [Double](repeating: 0, count: x.count)
        var acc = 0.0
        for i in stride(from: x.count - 1, through: 0, by: -1) { acc += Double(x[i]) * Double(x[i]); edc[i] = acc }
        let total = edc[0]
        func time(at dB: Double) -> Double {
            let level = total * pow(10, dB / 10)
            return Double(edc.firstIndex { $0 < level } ?? x.count) / rate
        }
        return 3 * (time(at: -25) - time(at: -5))
    }

    static let low = BiquadCoefficients.lowPass(frequency: 300, q: 0.7, sampleRate: rate)
    static let high = BiquadCoefficients.highPass(frequency: 15000, q: 0.7, sampleRate: rate)

    @Test(arguments: [(0.5, 0.25), (1.0, 0.5), (3.0, 1.0)])
    func decayTimesMatchTheParameters(_ times: (Double, Double)) {
        let kernel = FDNReverbKernel(sampleRate: Self.rate, maximumFrames: 512)
        kernel.setDecay(at0Hz: times.0, atNyquist: times.1)
        let ir = Self.run(kernel, Self.impulse(Int(Self.rate * times.0 * 1.5)))[0]
        let lowRT = Self.rt60(ir, band: Self.low), highRT = Self.rt60(ir, band: Self.high)
        #expect(abs(lowRT / times.0 - 1) < 0.2, "low band RT60 \(lowRT) for \(times.0)")
        #expect(abs(highRT / times.1 - 1) < 0.2, "high band RT60 \(highRT) for \(times.1)")
    }

    @Test func dryMixPassesTheInputAndGainScalesTheWet() {
        let kernel = FDNReverbKernel(sampleRate: Self.rate, maximumFrames: 512)
        kernel.setDryWetMix(0)
        let noise = (0..<44100).map { _ in Float.random(in: -1...1) }
        let dry = Self.run(kernel, noise)
        // Once the 10 ms glide from the default (all wet) has settled, exactly the input.
        let bad = (22050..<44100).first { dry[0][$0] != noise[$0] }
        #expect(bad == nil, "frame \(bad ?? 0): \(dry[0][bad ?? 0]) vs \(noise[bad ?? 0])")
        let a = FDNReverbKernel(sampleRate: Self.rate, maximumFrames: 512), b = FDNReverbKernel(sampleRate: Self.rate, maximumFrames: 512)
        b.setGain(6.0206)
        let ya = Self.run(a, noise)[0], yb = Self.run(b, noise)[0]
        var cross = 0.0, energy = 0.0
        for i in 4410..<ya.count {
            cross += Double(yb[i]) * Double(ya[i])
            energy += Double(ya[i]) * Double(ya[i])
        }
        let ratio = cross / energy
        #expect(abs(ratio - 2) < 0.02)
    }

    @Test func channelsAreDecorrelatedAndTheTailEndsInSilence() {
        let kernel = FDNReverbKernel(sampleRate: Self.rate, maximumFrames: 512)
        kernel.setDecay(at0Hz: 0.3, atNyquist: 0.2)
        let out = Self.run(kernel, Self.impulse(Int(Self.rate * 4)))
        let l = out[0][441..<22050].map(Double.init), r = out[1][441..<22050].map(Double.init)
        let dot = zip(l, r).map(*).reduce(0, +)
        let norm = (l.map { $0 * $0 }.reduce(0, +) * r.map { $0 * $0 }.reduce(0, +)).squareRoot()
        #expect(abs(dot / norm) < 0.5)
        #expect(out[0][(Int(Self.rate * 3.5))...].allSatisfy { $0 == 0 })  // denormals flushed: exact silence
    }

    @Test func longDecaysStayBoundedAndParameterChangesDoNotBlowUp() {
        let kernel = FDNReverbKernel(sampleRate: Self.rate, maximumFrames: 512)
        kernel.setDecay(at0Hz: 20, atNyquist: 20)
        let noise = (0..<Int(Self.rate * 10)).map { _ in Float.random(in: -1...1) }
        let out = Self.run(kernel, noise)
        #expect(out[0].allSatisfy { $0.isFinite && abs($0) < 50 })
        let steady = out[0][Int(Self.rate * 5)...].map { abs($0) }.max()!
        for seed in [7, 500, 1000] {
            kernel.setDelays(min: 0.002, max: 0.09, seed: seed)
            let more = Self.run(kernel, Array(noise[0..<44100]))
            #expect(more[0].allSatisfy { abs($0) < 4 * steady })
        }
    }
}
