import AudioDSP
import Foundation
import Testing

/// AUDistortion's kernel, stage by stage against analytic expectations (Fourier series of the waveshaper, ring-mod
/// sidebands, the comb's repeats, the hold's spectrum), the dry path bit for bit, and every factory preset on noise.
@Suite struct DistortionKernelTests {
    static let rate = 48000.0
    typealias H = EffectKernelHarness

    /// A stereo kernel with every stage's mix at 0, final mix 100 %, and the clipper at -40 dB: tanh(0.01·v) is
    /// 0.01·v within a relative 1e-4·v², so output / 0.01 shows the stages in isolation.
    static func isolated(_ settings: [(DistortionParameter, Double)]) -> DistortionKernel {
        let k = DistortionKernel(sampleRate: rate, maximumFrames: 512, channels: 2)
        for p: DistortionParameter in [.delayMix, .decimationMix, .polynomialMix, .ringModMix] { k.setParameter(p, 0) }
        k.setParameter(.finalMix, 100)
        k.setParameter(.softClipGain, -40)
        for (p, v) in settings { k.setParameter(p, v) }
        return k
    }

    static let clipGain = pow(10, -40.0 / 20)

    static func run(_ k: DistortionKernel, _ input: [[Float]], block: Int = 512, inPlace: Bool = false) -> [[Float]] {
        H.run(input, block: block, inPlace: inPlace) { k.process(input: $0, output: $1, channels: $2, frames: $3) }
    }

    @Test func allMixesAtZeroReturnTheInputBitForBit() {
        let input = [H.noise(48000, amplitude: 1), H.noise(48000, amplitude: 0.3, seed: 11)]
        let k = DistortionKernel(sampleRate: Self.rate, maximumFrames: 512, channels: 2)
        for p: DistortionParameter in [.delayMix, .decimationMix, .polynomialMix, .ringModMix, .finalMix] { k.setParameter(p, 0) }
        // Whatever the stages would do.
        for (p, v): (DistortionParameter, Double) in [(.delay, 3), (.decimation, 80), (.rounding, 90), (.cubicTerm, 20),
                                                      (.squaredTerm, 20), (.softClipGain, 20)] { k.setParameter(p, v) }
        #expect(Self.run(k, input) == input)
        k.reset()
        #expect(Self.run(k, input, inPlace: true) == input)
    }

    @Test func cubicTermMakesTheThirdHarmonicAtCubicTimesAmplitudeCubedOverFour() {
        // (x + c·x³) on A·sin: fundamental A + 3cA³/4, third harmonic cA³/4, nothing even.
        let a = 0.5, c = 4.0
        let k = Self.isolated([(.polynomialMix, 100), (.linearTerm, 1), (.cubicTerm, c)])
        let out = Self.run(k, [H.sine(48000, frequency: 1000, amplitude: a, sampleRate: Self.rate)])[0]
        let range = 4800..<48000
        let h1 = H.amplitude(out, range, frequency: 1000, sampleRate: Self.rate) / Self.clipGain
        let h2 = H.amplitude(out, range, frequency: 2000, sampleRate: Self.rate) / Self.clipGain
        let h3 = H.amplitude(out, range, frequency: 3000, sampleRate: Self.rate) / Self.clipGain
        let e1 = H.decibels(h1, a + 3 * c * a * a * a / 4), e3 = H.decibels(h3, c * a * a * a / 4)
        #expect(abs(e1) < 0.05 && abs(e3) < 0.05, "fundamental off by \(e1) dB, third by \(e3) dB")
        #expect(h2 < 1e-4)
        print("distortion cubic 4 on 0.5: h1 \(h1) (\(e1) dB), h3 \(h3) (\(e3) dB), h2 \(h2)")
    }

    @Test func squaredTermFollowsTheFourierSeriesOfSineTimesItsMagnitude() {
        // sin·|sin| = (8/π)(sin/3 - sin3/15 - sin5/105 - ...): odd harmonics only (x·|x| keeps the sign).
        let a = 0.5, s = 4.0
        let k = Self.isolated([(.polynomialMix, 100), (.linearTerm, 0), (.squaredTerm, s)])
        let out = Self.run(k, [H.sine(48000, frequency: 1000, amplitude: a, sampleRate: Self.rate)])[0]
        let range = 4800..<48000
        let h1 = H.amplitude(out, range, frequency: 1000, sampleRate: Self.rate) / Self.clipGain
        let h2 = H.amplitude(out, range, frequency: 2000, sampleRate: Self.rate) / Self.clipGain
        let h3 = H.amplitude(out, range, frequency: 3000, sampleRate: Self.rate) / Self.clipGain
        let h5 = H.amplitude(out, range, frequency: 5000, sampleRate: Self.rate) / Self.clipGain
        let e1 = H.decibels(h1, s * a * a * 8 / (3 * Double.pi))
        let e3 = H.decibels(h3, s * a * a * 8 / (15 * Double.pi))
        let e5 = H.decibels(h5, s * a * a * 8 / (105 * Double.pi))
        #expect(abs(e1) < 0.05 && abs(e3) < 0.05 && abs(e5) < 0.1, "\(e1), \(e3), \(e5) dB")
        #expect(h2 < 1e-4)
        print("distortion squared 4 on 0.5: errors h1 \(e1) dB, h3 \(e3) dB, h5 \(e5) dB")
    }

    @Test(arguments: [0.0, 100.0])
    func ringModulatorMultipliesByTheBalancedOscillator(_ balance: Double) {
        // sin(ω) · sin(ω1) = ½cos((ω - ω1)t) - ½cos((ω + ω1)t): two half-amplitude sidebands, no carrier, no input.
        let a = 0.5, f = 1000.0, f1 = 300.0, f2 = 2500.0
        let k = Self.isolated([(.ringModMix, 100), (.ringModFreq1, f1), (.ringModFreq2, f2), (.ringModBalance, balance)])
        let out = Self.run(k, [H.sine(48000, frequency: f, amplitude: a, sampleRate: Self.rate)])[0]
        let range = 0..<48000
        func level(_ hz: Double) -> Double { H.amplitude(out, range, frequency: hz, sampleRate: Self.rate) / Self.clipGain }
        let carrier = balance == 0 ? f1 : f2, other = balance == 0 ? f2 : f1
        let lower = level(abs(f - carrier)), upper = level(f + carrier)
        #expect(abs(H.decibels(lower, a / 2)) < 0.05 && abs(H.decibels(upper, a / 2)) < 0.05, "\(lower), \(upper)")
        #expect(level(f) < 1e-4)
        #expect(level(abs(f - other)) < 1e-4 && level(f + other) < 1e-4)
        print("distortion ring balance \(balance): sidebands \(lower), \(upper) (expected 0.25); input left \(level(f))")
    }

    @Test func decayHalvesEachRepeatOfTheComb() {
        let k = Self.isolated([(.delayMix, 100), (.delay, 10), (.decay, 1)])
        var x = [Float](repeating: 0, count: 3000)
        x[0] = 1
        let out = Self.run(k, [x])[0].map { Double($0) / Self.clipGain }
        for repeatIndex in 1...5 {
            #expect(abs(out[480 * repeatIndex] - pow(0.5, Double(repeatIndex - 1))) < 1e-3)
        }
        #expect(out[0] == 0 && out[479] == 0 && out[481] == 0)
        // -60 dB after 1 + 60/6.02 repeats of 10 ms, plus one frame of hold.
        #expect(abs(k.tailTime - (0.01 * (1 + 60 / (20 * log10(2.0)))) - 1 / Self.rate) < 1e-9)
    }

    /// The share of a signal's energy above `cutoff`, through a 1023-tap Blackman-windowed sinc low-pass.
    static func fractionAbove(_ cutoff: Double, _ x: [Float]) -> Double {
        let taps = 1023, half = taps / 2
        let fc = cutoff / rate
        let h: [Double] = (0..<taps).map { n in
            let m = Double(n - half)
            let sinc = m == 0 ? 2 * fc : sin(2 * Double.pi * fc * m) / (Double.pi * m)
            let t = Double(n) / Double(taps - 1)
            return sinc * (0.42 - 0.5 * cos(2 * Double.pi * t) + 0.08 * cos(4 * Double.pi * t))
        }
        var total = 0.0, low = 0.0
        for n in taps..<x.count {
            var y = 0.0
            for j in 0..<taps { y += h[j] * Double(x[n - j]) }
            low += y * y
            total += Double(x[n]) * Double(x[n])
        }
        return 1 - low / total
    }

    @Test func decimationAtFiftyPercentHoldsEveryEighthSample() {
        // 2^(6·0.5) = 8: held white noise has the spectrum of an 8-tap box, |sin(4ω)/(8 sin(ω/2))|², so the share
        // above fs/16 (3 kHz) falls from 87.5 % to the box's share outside its main lobe.
        let x = H.noise(24000, amplitude: 0.5)
        let k = Self.isolated([(.decimationMix, 100), (.decimation, 50)])
        let out = Self.run(k, [x])[0]
        var boxAbove = 0.0, boxTotal = 0.0
        for i in 1...100_000 {
            let w = Double.pi * Double(i) / 100_000
            let p = pow(sin(4 * w) / (8 * sin(w / 2)), 2)
            boxTotal += p
            if w > Double.pi / 8 { boxAbove += p }
        }
        let expected = boxAbove / boxTotal
        let before = Self.fractionAbove(3000, x), after = Self.fractionAbove(3000, out)
        #expect(abs(before - 0.875) < 0.02)
        #expect(abs(after - expected) < 0.03, "\(after) vs \(expected)")
        // Runs of exactly 8 equal samples.
        var changes = 0
        for n in 1..<out.count where out[n] != out[n - 1] { changes += 1 }
        #expect(abs(Double(changes) - Double(out.count) / 8) <= 1)
        print("distortion decimation 50%: energy above 3 kHz \(before) -> \(after) (analytic \(expected))")
    }

    @Test func roundingQuantizesToItsBitDepth() {
        // atanh undoes the clipper exactly, leaving the decimator's values.
        func held(_ v: Float) -> Double { atanh(Double(v)) / Self.clipGain }
        // 100 %: one bit, steps of 1: every value is -1, 0 or 1.
        let k = Self.isolated([(.decimationMix, 100), (.rounding, 100)])
        let out = Self.run(k, [H.noise(4800, amplitude: 1)])[0]
        #expect(Set(out.map { held($0).rounded() }) == [-1, 0, 1])
        #expect(out.allSatisfy { abs(held($0) - held($0).rounded()) < 1e-5 })
        // 50 %: 8.5 bits, steps of 2^-7.5.
        let k2 = Self.isolated([(.decimationMix, 100), (.rounding, 50)])
        let q = pow(2, -7.5)
        let out2 = Self.run(k2, [H.noise(4800, amplitude: 1)])[0]
        let worst = out2.map { v in
            let steps = held(v) / q
            return abs(steps - steps.rounded())
        }.max()!
        #expect(worst < 1e-3)
    }

    @Test func aMixChangeGlidesOverTenMilliseconds() {
        // DC through the waveshaper with every term 0: the output is (1 - polynomialMix)·0.5·gain. Switched from 0 to
        // 100 %, it falls as exp(-t / 10 ms) instead of stepping to 0.
        let k = Self.isolated([(.linearTerm, 0)])
        let input = [[Float](repeating: 0.5, count: 9600)]
        let out = H.run(input, between: { if $0 == 1024 { k.setParameter(.polynomialMix, 100) } }) {
            k.process(input: $0, output: $1, channels: $2, frames: $3)
        }[0].map { atanh(Double($0)) / Self.clipGain }
        #expect(abs(out[1023] - 0.5) < 1e-6)
        #expect(abs(out[1024 + 479] / 0.5 - exp(-1)) < 0.01)       // one time constant: 10 ms = 480 frames
        #expect(H.largestStep(out.map { Float($0) }, 1..<out.count) < Float(0.5 / 480 * 1.01))
        #expect(out[9599] == 0)                                      // landed exactly
    }

    @Test func softClipIsTanhOfTheGain() {
        let k = Self.isolated([(.softClipGain, 20)])
        let x = H.sine(4800, frequency: 100, amplitude: 1, sampleRate: Self.rate)
        let out = Self.run(k, [x])[0]
        let worst = zip(x, out).map { abs(Double($1) - tanh(10 * Double($0))) }.max()!
        #expect(worst < 2e-4)
    }

    @Test(arguments: DistortionPreset.factoryPresets.map(\.number))
    func factoryPresetRunsTenSecondsOfNoiseBounded(_ number: Int) {
        let preset = DistortionPreset.factory(number: number)!
        let k = DistortionKernel(sampleRate: 44100, maximumFrames: 1024, channels: 2)
        k.load(preset)
        let input = [H.noise(441_000, amplitude: 1, seed: 21), H.noise(441_000, amplitude: 1, seed: 22)]
        let out = Self.run(k, input, block: 1024)
        for c in 0..<2 {
            #expect(out[c].allSatisfy { $0.isFinite && abs($0) <= 1.000001 }, "\(preset.name)")
            let level = H.rms(out[c], 0..<out[c].count)
            #expect(level > 0.01, "\(preset.name) is nearly silent: \(level)")
            #expect(out[c] != input[c])
        }
        print("distortion preset \(number) \(preset.name): output rms \(H.rms(out[0], 0..<out[0].count))")
    }

    @Test func factoryPresetTableIsApples() {
        let names = ["Drums Bit Brush", "Drums Buffer Beats", "Drums LoFi", "Multi-Broken Speaker", "Multi-Cellphone Concert",
                     "Multi-Decimated 1", "Multi-Decimated 2", "Multi-Decimated 3", "Multi-Decimated 4",
                     "Multi-Distorted Funk", "Multi-Distorted Cubed", "Multi-Distorted Squared", "Multi-Echo 1",
                     "Multi-Echo 2", "Multi-Echo Tight 1", "Multi-Echo Tight 2", "Multi-Everything Is Broken",
                     "Speech Alien Chatter", "Speech Cosmic Interference", "Speech Golden Pi", "Speech Radio Tower",
                     "Speech Waves"]
        #expect(DistortionPreset.factoryPresets.map(\.name) == names)
        #expect(DistortionPreset.factoryPresets.map(\.number) == Array(0..<22))
        #expect(DistortionPreset.factory(number: 22) == nil)
        for preset in DistortionPreset.factoryPresets {
            for p in DistortionParameter.allCases { #expect(p.range.contains(preset[p]), "\(preset.name) \(p)") }
        }
    }

    @Test func parametersDefaultToApplesAndClamp() {
        let expected: [Double] = [0.1, 1, 50, 0, 0, 50, 1, 0, 0, 50, 100, 100, 50, 0, -6, 50]
        #expect(DistortionParameter.allCases.map(\.rawValue) == Array(0..<16))
        #expect(DistortionParameter.allCases.map(\.defaultValue) == expected)
        let k = DistortionKernel(sampleRate: 44100, maximumFrames: 64, channels: 1)
        #expect(DistortionParameter.allCases.map { k.parameter($0) } == expected)
        k.setParameter(.delay, 9999)
        k.setParameter(.softClipGain, -200)
        k.setParameter(.ringModFreq1, .nan)
        #expect(k.parameter(.delay) == 500 && k.parameter(.softClipGain) == -80 && k.parameter(.ringModFreq1) == 100)
    }
}
