import AudioDSP
import Foundation
import Testing

/// AUDelay's kernel against expectations worked out independently: sample-exact echoes and their feedback series,
/// the equal-power law, the loop low-pass's analytic magnitude, click-free time changes, stability at ±100 %.
@Suite struct DelayKernelTests {
    static let rate = 48000.0
    typealias H = EffectKernelHarness

    /// A stereo kernel with the loop filter bypassed (cutoff at Nyquist), mix 100 %, and the given time and feedback.
    static func kernel(delay: Double, feedback: Double, mix: Double = 100, cutoff: Double = rate / 2) -> DelayKernel {
        let k = DelayKernel(sampleRate: rate, maximumFrames: 512, channels: 2)
        k.setWetDryMix(mix)
        k.setDelayTime(delay)
        k.setFeedback(feedback)
        k.setLowpassCutoff(cutoff)
        return k
    }

    static func run(_ k: DelayKernel, _ input: [[Float]], block: Int = 512, inPlace: Bool = false,
                    between: (Int) -> Void = { _ in }) -> [[Float]] {
        H.run(input, block: block, inPlace: inPlace, between: between) {
            k.process(input: $0, output: $1, channels: $2, frames: $3)
        }
    }

    static func impulse(_ frames: Int) -> [Float] {
        var x = [Float](repeating: 0, count: frames)
        x[0] = 1
        return x
    }

    @Test(arguments: [0.001, 0.25, 2.0])
    func impulseComesBackOnceAtTheExactSample(_ seconds: Double) {
        let d = Int((seconds * Self.rate).rounded())
        let k = Self.kernel(delay: seconds, feedback: 0)
        let out = Self.run(k, [Self.impulse(d + 300), [Float](repeating: 0, count: d + 300)])
        #expect(out[0][d] == 1)
        let stray = out[0].enumerated().filter { $0.offset != d && $0.element != 0 }
        #expect(stray.isEmpty, "non-zero samples off the echo: \(stray.prefix(5))")
        #expect(out[1].allSatisfy { $0 == 0 })
    }

    @Test(arguments: [50.0, -50.0])
    func feedbackMakesAGeometricEchoTrain(_ feedback: Double) {
        let d = 480
        let k = Self.kernel(delay: 0.01, feedback: feedback)
        // Odd block size: echoes land across block boundaries.
        let out = Self.run(k, [Self.impulse(8 * d), Self.impulse(8 * d)], block: 333)
        let f = feedback / 100
        for echo in 1...7 {
            let expected = pow(f, Double(echo - 1))
            #expect(abs(Double(out[0][echo * d]) - expected) < 1e-6, "echo \(echo): \(out[0][echo * d]) vs \(expected)")
            #expect(out[1][echo * d] == out[0][echo * d])
        }
        let stray = out[0].enumerated().filter { $0.offset % d != 0 && $0.element != 0 }
        #expect(stray.isEmpty)
        #expect(out[0][0] == 0)
    }

    @Test func mixZeroReturnsTheInputBitForBit() {
        let k = DelayKernel(sampleRate: Self.rate, maximumFrames: 512, channels: 2)   // 1 s, 50 %, 15 kHz
        k.setWetDryMix(0)
        let input = [H.noise(72000, amplitude: 0.9), H.noise(72000, amplitude: 0.5, seed: 7)]
        #expect(Self.run(k, input) == input)
        k.reset()
        #expect(Self.run(k, input, inPlace: true) == input)
    }

    @Test func mixFiftyIsEqualPower() {
        let k = Self.kernel(delay: 100 / Self.rate, feedback: 0, mix: 50)
        let out = Self.run(k, [Self.impulse(400), Self.impulse(400)])
        #expect(abs(Double(out[0][0]) - cos(Double.pi / 4)) < 1e-7)
        #expect(abs(Double(out[0][100]) - sin(Double.pi / 4)) < 1e-7)
        #expect(out[0].enumerated().allSatisfy { $0.offset == 0 || $0.offset == 100 || $0.element == 0 })
    }

    @Test func mixGlidesInsteadOfJumping() {
        // A delay of half a period of 440 Hz: the wet signal is the dry one inverted, so a jumping mix would step
        // by up to twice the peak.
        let k = Self.kernel(delay: 0.5 / 440, feedback: 0, mix: 0)
        let input = [H.sine(24000, frequency: 440, amplitude: 0.5, sampleRate: Self.rate)]
        let out = H.run(input, between: {
            if $0 == 10240 { k.setWetDryMix(100) }
            if $0 == 15360 { k.setWetDryMix(0) }
        }) { k.process(input: $0, output: $1, channels: $2, frames: $3) }[0]
        #expect(Array(out[..<10240]) == Array(input[0][..<10240]))
        let sineStep = Float(2 * Double.pi * 440 / Self.rate * 0.5)
        let step = H.largestStep(out, 1..<out.count)
        #expect(step < sineStep * 1.2, "largest step \(step), the sine's own \(sineStep)")
        // Settled on 100 %: the wet signal alone, the input 54.5 samples (half a period) late, at full level.
        #expect(H.amplitude(out, 14000..<15200, frequency: 440, sampleRate: Self.rate) > 0.49)
        // Back at 0 %, the gains land exactly: the input again, bit for bit.
        #expect(Array(out[22000...]) == Array(input[0][22000...]))
        print("delay mix 0 -> 100 on a sine: largest step \(step) (sine's own \(sineStep))")
    }

    /// A one-pole `s += a(x - s)`: |H(ω)| = a / |1 - (1 - a)e^(-iω)|, with a chosen so |H| = 1/√2 at the cutoff.
    static func onePoleMagnitude(cutoff: Double, frequency: Double) -> Double {
        let m = 1 - cos(2 * Double.pi * cutoff / rate)
        let a = (m * m + 2 * m).squareRoot() - m
        let w = 2 * Double.pi * frequency / rate
        let re = 1 - (1 - a) * cos(w), im = (1 - a) * sin(w)
        return a / (re * re + im * im).squareRoot()
    }

    @Test(arguments: [10000.0, 1000.0])
    func loopLowpassAttenuatesEachEchoByItsMagnitude(_ frequency: Double) {
        let d = 12000
        let k = Self.kernel(delay: 0.25, feedback: 50, cutoff: 1000)
        var tone = H.sine(9600, frequency: frequency, amplitude: 0.5, sampleRate: Self.rate)
        tone += [Float](repeating: 0, count: 3 * d - tone.count)
        let out = Self.run(k, [tone])[0]
        let magnitude = Self.onePoleMagnitude(cutoff: 1000, frequency: frequency)
        if frequency == 1000 { #expect(abs(20 * log10(magnitude) + 3.0103) < 1e-6) }   // the design's own claim
        // 0.1 s in the middle of each echo, away from the filter's few-sample transients.
        let first = H.amplitude(out, (d + 2400)..<(d + 7200), frequency: frequency, sampleRate: Self.rate)
        let second = H.amplitude(out, (2 * d + 2400)..<(2 * d + 7200), frequency: frequency, sampleRate: Self.rate)
        let e1 = H.decibels(first, 0.5 * magnitude), e2 = H.decibels(second, 0.25 * magnitude * magnitude)
        #expect(abs(e1) < 0.5 && abs(e2) < 0.5, "echo 1 off by \(e1) dB, echo 2 by \(e2) dB")
        print("delay lowpass \(frequency) Hz: |H| \(20 * log10(magnitude)) dB, echo1 error \(e1) dB, echo2 error \(e2) dB")
    }

    @Test func changingTheDelayTimeDoesNotClick() {
        let frames = 96000
        var sine = H.sine(frames, frequency: 440, amplitude: 0.5, sampleRate: Self.rate)
        for i in 0..<480 { sine[i] *= Float(i) / 480 }           // no onset click of our own
        let k = Self.kernel(delay: 0.3, feedback: 30, mix: 100, cutoff: Self.rate / 2)
        let out = H.run([sine], block: 256, between: { start in
            if start == 48000 { k.setDelayTime(0.1234) }
            if start == 48000 + 1024 { k.setDelayTime(0.137) }   // arrives mid-crossfade: waits its turn
        }) { k.process(input: $0, output: $1, channels: $2, frames: $3) }[0]
        // The sine itself moves at most 2π·440/48000·peak per sample; the echo train's peak is below 0.5/(1-0.3).
        let sineStep = Float(2 * Double.pi * 440 / Self.rate * 0.5 / 0.7)
        let step = H.largestStep(out, 1..<frames)
        #expect(step < sineStep * 1.1, "largest step \(step), a sine's \(sineStep)")
        // A bare jump of the tap is what the crossfade avoids: the same change without it steps far more.
        let jump = (0..<256).map { abs(Double(sine[48000 + $0 - 14400]) - Double(sine[48000 + $0 - 5923])) }.max()!
        #expect(jump > 10 * Double(sineStep))
        print("delay change: largest step \(step) (sine bound \(sineStep)); a bare jump of the first echo's tap in that block would step by up to \(jump)")
        // Once the crossfade is over, an echo is exact to the sample again.
        let k2 = Self.kernel(delay: 0.3, feedback: 0)
        var click = [Float](repeating: 0, count: 60000)
        click[48000] = 1
        let probe = H.run([click], between: { if $0 == 24064 { k2.setDelayTime(0.137) } }) {
            k2.process(input: $0, output: $1, channels: $2, frames: $3)
        }[0]
        #expect(probe[48000 + 6576] == 1)
        #expect(probe.enumerated().allSatisfy { $0.offset == 48000 + 6576 || $0.element == 0 })
    }

    @Test(arguments: [100.0, -100.0])
    func fullFeedbackStaysBoundedForThirtySeconds(_ feedback: Double) {
        let frames = 30 * 48000
        // Noise at a level that a ±100 % loop would pile up without bound, plus a tone on a comb peak.
        var x = H.noise(frames, amplitude: 0.5)
        for i in 0..<frames { x[i] += Float(0.3 * sin(2 * Double.pi * 100 * Double(i) / Self.rate)) }
        for cutoff in [Self.rate / 2, 15000] {
            let k = Self.kernel(delay: 0.01, feedback: feedback, mix: 50, cutoff: cutoff)
            let out = Self.run(k, [x], block: 1024)[0]
            let peak = out.reduce(Float(0)) { max($0, abs($1)) }
            #expect(out.allSatisfy { $0.isFinite })
            #expect(peak < 3, "peak \(peak)")
            print("delay feedback \(feedback)% cutoff \(cutoff): 30 s peak \(peak)")
        }
    }

    @Test func tailTimeCoversSixtyDecibels() {
        let k = Self.kernel(delay: 1, feedback: 50)
        // 0.5^(k-1) ≤ 10^-3 first at k - 1 = log(10^-3)/log(0.5) = 9.97 repeats.
        #expect(abs(k.tailTime - (1 + 3 * log2(10.0))) < 1e-9)
        k.setFeedback(-50)
        #expect(abs(k.tailTime - (1 + 3 * log2(10.0))) < 1e-9)
        k.setFeedback(0)
        #expect(k.tailTime == 1)
        k.setFeedback(100)
        #expect(k.tailTime == .infinity)
        // Measured: echoes of an impulse at 10 ms, 90 % feedback, fall below -60 dB by the tail time.
        let m = Self.kernel(delay: 0.01, feedback: 90)
        let tail = Int(m.tailTime * Self.rate)
        let out = Self.run(m, [Self.impulse(tail + 2000)])[0]
        #expect(out[(tail + 1)...].allSatisfy { abs($0) <= 1e-3 })
        #expect(out[(tail - 480)...tail].contains { abs($0) > 0.9e-3 })
    }

    @Test func parametersClampAndDefaultToApples() {
        let k = DelayKernel(sampleRate: 44100, maximumFrames: 256, channels: 1)
        #expect(k.wetDryMix == 50 && k.delayTime == 1 && k.feedback == 50 && k.lowpassCutoff == 15000)
        k.setDelayTime(5)
        k.setFeedback(-300)
        k.setLowpassCutoff(1)
        k.setWetDryMix(120)
        #expect(k.delayTime == 2 && k.feedback == -100 && k.lowpassCutoff == 10 && k.wetDryMix == 100)
        k.setLowpassCutoff(1e9)
        #expect(k.lowpassCutoff == 22050)
        k.setDelayTime(.nan)
        k.setFeedback(.nan)
        #expect(k.delayTime == 2 && k.feedback == -100)
        #expect(DelayKernel.lowpassCoefficient(cutoff: 22050, sampleRate: 44100) == 1)
    }

    @Test func inPlaceMatchesOutOfPlaceAndExtraChannelsPassThrough() {
        let input = [H.noise(20000, amplitude: 0.7), H.noise(20000, amplitude: 0.7, seed: 3), H.noise(20000, amplitude: 0.2, seed: 5)]
        let a = Self.kernel(delay: 0.0123, feedback: 70, mix: 60, cutoff: 3000)
        let b = Self.kernel(delay: 0.0123, feedback: 70, mix: 60, cutoff: 3000)
        let outA = Self.run(a, input)
        let outB = Self.run(b, input, inPlace: true)
        #expect(outA == outB)
        #expect(outA[2] == input[2])   // the kernel has two channels; the third is copied
    }
}
