import AudioDSP
import Foundation
import Testing

/// The look-ahead limiter: no output sample above the ceiling (drum hits up to +12 dBFS, +20 dB of pre-gain,
/// attack changes mid-stream), bit-transparent delay below the ceiling, latency = round(attack · rate), recovery at
/// the decay time.
@Suite struct PeakLimiterKernelTests {
    typealias H = DynamicsTestHarness
    static let rate = 48000.0

    /// A stereo "drum loop": kicks (decaying 60→45 Hz sines), snares (decaying noise bursts) and hats, on a quiet
    /// bed, at random times; hit peaks range up to 4.0 (+12 dBFS), the channels differ.
    static func drumLoop(seconds: Double, seed: UInt64) -> [[Float]] {
        let frames = Int(seconds * rate)
        var noise = H.Noise(seed: seed)
        var left = [Float](repeating: 0, count: frames), right = left
        for i in 0..<frames { left[i] = Float(0.05 * noise.next()); right[i] = Float(0.05 * noise.next()) }
        var t = Int(0.002 * rate)
        while t < frames {
            let kind = Int((noise.next() + 1) * 1.5)       // 0, 1 or 2
            let level = 0.5 + 1.75 * (noise.next() + 1)     // 0.5 ... 4.0
            let pan = 0.6 + 0.2 * (noise.next() + 1)        // how much the right channel gets
            let length = Int(0.25 * rate)
            var phase = 0.0
            for i in 0..<min(length, frames - t) {
                let time = Double(i) / rate
                var v: Double
                switch kind {
                case 0:  // kick: a falling sine with a fast attack
                    phase += 2 * Double.pi * (45 + 15 * exp(-time * 30)) / rate
                    v = sin(phase) * exp(-time * 12)
                case 1:  // snare: noise burst plus a 190 Hz body
                    v = 0.7 * noise.next() * exp(-time * 25) + 0.5 * sin(2 * Double.pi * 190 * time) * exp(-time * 18)
                default:  // hat: short noise click
                    v = noise.next() * exp(-time * 120)
                }
                left[t + i] += Float(level * v)
                right[t + i] += Float(level * pan * v)
            }
            t += Int((0.08 + 0.06 * (noise.next() + 1)) * rate)
        }
        // The loudest hit at exactly +12 dBFS.
        let scale = 4 / max(left.map(abs).max()!, right.map(abs).max()!)
        return [left.map { $0 * scale }, right.map { $0 * scale }]
    }

    static func limiter(attack: Double = 0.012, decay: Double = 0.024, preGain: Double = 0, rate: Double = rate) -> PeakLimiterKernel {
        let k = PeakLimiterKernel(sampleRate: rate, maximumFrames: 512, channels: 2)
        k.setAttack(attack)
        k.setDecay(decay)
        k.setPreGain(preGain)
        k.settle()
        return k
    }

    /// Odd slice sizes, so envelope state has to carry across every kind of boundary.
    static let blocks = [512, 1, 37, 256, 3, 500, 128, 97]

    @Test(arguments: [(0.012, 0.024, 0.0), (0.001, 0.001, 0.0), (0.03, 0.06, 0.0), (0.005, 0.01, 6.0)])
    func drumLoopNeverExceedsTheCeiling(_ setting: (Double, Double, Double)) {
        let input = Self.drumLoop(seconds: 1.5, seed: 7)
        #expect(input.map { H.peak($0[...]) }.max()! == 4)
        let k = Self.limiter(attack: setting.0, decay: setting.1, preGain: setting.2)
        let out = H.run(input, blocks: Self.blocks) { k.process(input: $0, output: $1, channels: $2, frames: $3) }
        let peak = out.map { H.peak($0[...]) }.max()!
        #expect(peak <= 1)
        // It limits, it does not just attenuate: the loudest hits land on the ceiling.
        #expect(peak > 0.99)
    }

    @Test func aLowerCeilingHolds() {
        let k = Self.limiter()
        k.ceiling = 0.25
        let out = H.run(Self.drumLoop(seconds: 1, seed: 3), blocks: Self.blocks) {
            k.process(input: $0, output: $1, channels: $2, frames: $3)
        }
        let peak = out.map { H.peak($0[...]) }.max()!
        #expect(peak <= 0.25 && peak > 0.24)
    }

    @Test(arguments: [true, false])
    func twentyDecibelsOfPreGainOnAFullScaleSignal(_ glide: Bool) {
        // A full-scale sine with a full-scale noise-burst mix-in, clipped to ±1 (what a mastered track holds).
        let frames = Int(Self.rate)
        var noise = H.Noise(seed: 11)
        let signal: [Float] = (0..<frames).map { i in
            let s = sin(2 * Double.pi * 997 * Double(i) / Self.rate) + (i % 9600 < 800 ? noise.next() : 0)
            return Float(min(max(s, -1), 1))
        }
        let k = PeakLimiterKernel(sampleRate: Self.rate, maximumFrames: 512, channels: 2)
        k.setPreGain(20)
        if !glide { k.settle() }
        let out = H.run([signal, signal.map { -$0 }], blocks: Self.blocks) {
            k.process(input: $0, output: $1, channels: $2, frames: $3)
        }
        #expect(out.map { H.peak($0[...]) }.max()! <= 1)
        // Ten times too loud everywhere: the limiter holds the output near full scale all along.
        #expect(H.peak(out[0][(frames / 2)...]) > 0.98)
        #expect(k.gainReduction > 19)
    }

    @Test(arguments: [(44100.0, 0.001), (48000.0, 0.012), (96000.0, 0.03), (44100.0, 0.0173)])
    func belowTheCeilingTheOutputIsTheInputDelayed(_ setting: (Double, Double)) {
        let (rate, attack) = setting
        let k = Self.limiter(attack: attack, rate: rate)
        let latency = Int((attack * rate).rounded())
        #expect(k.latencyFrames == latency)
        #expect(abs(k.latencySeconds - Double(latency) / rate) < 1e-12)
        var noise = H.Noise(seed: 5)
        let frames = Int(0.2 * rate)
        let input: [[Float]] = (0..<2).map { c in
            (0..<frames).map { i in Float(0.3 * sin(Double(i) * 0.05 + Double(c)) + 0.2 * noise.next()) }
        }
        #expect(input.map { H.peak($0[...]) }.max()! < 1)
        let out = H.run(input, blocks: Self.blocks) { k.process(input: $0, output: $1, channels: $2, frames: $3) }
        var worst: Float = 0
        for c in 0..<2 {
            for i in 0..<latency { worst = max(worst, abs(out[c][i])) }
            for i in latency..<frames { worst = max(worst, abs(out[c][i] - input[c][i - latency])) }
        }
        #expect(worst <= 1e-6)
    }

    @Test func theLoudestSampleLandsOnTheCeilingAndTheGainRecoversWithTheDecayTime() {
        let decay = 0.01
        let k = Self.limiter(attack: 0.005, decay: decay)
        let l = k.latencyFrames
        let frames = Int(0.15 * Self.rate), spike = 1000
        var x = [Float](repeating: 0.25, count: frames)
        x[spike] = 4
        let y = H.run([x], blocks: Self.blocks) { k.process(input: $0, output: $1, channels: $2, frames: $3) }[0]
        // The spike needs gain 1/4: it leaves exactly at the ceiling. Before it the gain ramps down linearly: half-way
        // through the look-ahead, L/2 + 1 of the L + 1 averaged holds are 1/4.
        #expect(abs(y[spike + l] - 1) < 1e-6)
        let halfway = 1 - 0.75 * Double(l - l / 2 + 1) / Double(l + 1)
        #expect(abs(Double(y[spike + l - l / 2]) / 0.25 - halfway) < 1e-6)
        // After the hold and the average have passed the spike (2L + 1 frames), the shortfall from unity shrinks
        // by 1/e per decay time.
        let n1 = spike + 2 * l + 10, n2 = n1 + Int(decay * Self.rate)
        let deficit1 = 1 - Double(y[n1 + l]) / 0.25, deficit2 = 1 - Double(y[n2 + l]) / 0.25
        #expect(deficit1 > 0.05)
        #expect(abs(deficit2 / deficit1 - exp(-1)) < 0.01)
        // And it gets back to unity.
        #expect(abs(y[frames - 1] - 0.25) < 1e-6)
    }

    @Test func changingTheAttackOrCeilingMidStreamKeepsTheGuarantee() {
        let input = Self.drumLoop(seconds: 1.5, seed: 21)
        let k = Self.limiter()
        var noise = H.Noise(seed: 2)
        var slice = 0
        let out = H.run(input, blocks: [300, 77, 512]) { i, o, c, n in
            slice += 1
            if slice % 3 == 0 { k.setAttack(0.001 + 0.0145 * (noise.next() + 1)) }
            if slice % 7 == 0 { k.ceiling = slice % 2 == 0 ? 0.7 : 1 }
            k.process(input: i, output: o, channels: c, frames: n)
        }
        #expect(out.map { H.peak($0[...]) }.max()! <= 1)
    }

    @Test func nonFiniteInputNeitherEscapesNorSticks() {
        let k = Self.limiter(attack: 0.002, decay: 0.001)
        var x = H.sine(440, amplitude: 0.5, frames: 4800, rate: Self.rate)
        x[1000] = .nan
        x[2000] = .infinity
        x[2001] = -.infinity
        let y = H.run([x], blocks: Self.blocks) { k.process(input: $0, output: $1, channels: $2, frames: $3) }[0]
        #expect(y.allSatisfy { abs($0) <= 1 })
        // Well after the bad samples (look-ahead, ramp and 20 decay times) the tone is back at unity gain.
        let l = k.latencyFrames
        #expect((4000..<4800).allSatisfy { abs(y[$0] - x[$0 - l]) < 1e-6 })
    }

    @Test func inPlaceAndResetGiveTheSameOutput() {
        let input = Self.drumLoop(seconds: 0.5, seed: 9)
        let k = Self.limiter(attack: 0.003, decay: 0.02)
        let a = H.run(input, blocks: Self.blocks) { k.process(input: $0, output: $1, channels: $2, frames: $3) }
        k.reset()
        let b = H.run(input, blocks: [64], inPlace: true) { k.process(input: $0, output: $1, channels: $2, frames: $3) }
        #expect(a == b)
    }
}
