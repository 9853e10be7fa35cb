import AudioDSP
import Foundation
import Testing

/// AURogerBeep's kernel on speech-like bursts: when the beep comes, how long and how loud it is, what it sounds like,
/// and that nothing else in the signal changes.
@Suite struct RogerBeepKernelTests {
    static let rate = 48000.0
    typealias H = EffectKernelHarness

    /// Gates at -30 dB; the rest as given.
    static func kernel(inTime: Double = 1000, outTime: Double = 500, type: Int = 0, gain: Double = -6,
                       sensitivity: Int = 2, channels: Int = 2) -> RogerBeepKernel {
        let k = RogerBeepKernel(sampleRate: rate, maximumFrames: 512, channels: channels)
        k.setInGateThreshold(-30)
        k.setOutGateThreshold(-30)
        k.setInGateThresholdTime(inTime)
        k.setOutGateThresholdTime(outTime)
        k.setRogerType(type)
        k.setRogerGain(gain)
        k.setSensitivity(sensitivity)
        return k
    }

    /// `burst` seconds of noise at about -10 dB RMS (uniform ±0.55), then silence, `total` seconds in all; stereo with
    /// different noise per channel.
    static func burst(_ burst: Double, total: Double) -> [[Float]] {
        let on = Int(burst * rate), frames = Int(total * rate)
        return [11, 12].map { seed in
            H.noise(on, amplitude: 0.55, seed: seed) + [Float](repeating: 0, count: frames - on)
        }
    }

    static func run(_ k: RogerBeepKernel, _ input: [[Float]], inPlace: Bool = false) -> [[Float]] {
        H.run(input, block: 480, inPlace: inPlace) { k.process(input: $0, output: $1, channels: $2, frames: $3) }
    }

    /// The frames where output and input differ: the beep.
    static func beepFrames(_ out: [Float], _ input: [Float]) -> [Int] {
        out.indices.filter { out[$0] != input[$0] }
    }

    @Test(arguments: [0, 1, 2])
    func aBeepFollowsTheEndOfTalk(_ type: Int) throws {
        let k = Self.kernel(type: type)
        let input = Self.burst(1.5, total: 3)
        let out = Self.run(k, input)
        let frames = Self.beepFrames(out[0], input[0])
        let first = try #require(frames.first), last = try #require(frames.last)
        // Starts 500 ms after the noise stops (plus at most the 5 ms window), within ±10 ms.
        let onset = Double(first) / Self.rate - 1.5
        #expect(abs(onset - 0.5) <= 0.010, "beep onset \(onset) s after silence")
        // Lasts the documented 200 ms (its first and last samples are the fades' zeros).
        let length = Double(last - first + 1) / Self.rate
        #expect(abs(length - RogerBeepKernel.beepDuration) <= 3 / Self.rate, "beep length \(length) s")
        // At rogerGain: the sine's peak, and the sustain's RMS·√2.
        let peak = Double(out[0][first...last].map { abs($0) }.max()!)
        let sustain = (first + 480)..<(last - 480)
        let rmsPeak = H.rms(out[0], sustain) * 2.0.squareRoot()
        let target = pow(10, -6.0 / 20)
        #expect(abs(H.decibels(peak, target)) < 0.5 && abs(H.decibels(rmsPeak, target)) < 0.5, "\(peak), \(rmsPeak)")
        // The same beep on both channels.
        #expect(Self.beepFrames(out[1], input[1]) == frames)
        for i in frames { #expect(out[1][i] - input[1][i] == out[0][i] - input[0][i]) }
        // Everything else untouched.
        #expect(Array(out[0][..<first]) == Array(input[0][..<first]))
        #expect(Array(out[0][(last + 1)...]) == Array(input[0][(last + 1)...]))
        // What it sounds like, over the first and last 60 ms of the sustain (whole periods of each tone).
        let early = (first + 480)..<(first + 480 + 2880), late = (last - 480 - 2880)..<(last - 480)
        func level(_ r: Range<Int>, _ hz: Double) -> Double { H.amplitude(out[0], r, frequency: hz, sampleRate: Self.rate) }
        switch type {
        case 0:
            #expect(level(early, 1000) > 0.45 && level(late, 1000) > 0.45)
        case 1:
            #expect(level(early, 800) > 0.45 && level(early, 1200) < 0.05)
            #expect(level(late, 1200) > 0.45 && level(late, 800) < 0.05)
        default:
            let rising = SignalRising.frequencies(out[0], early, late, sampleRate: Self.rate)
            #expect(rising.early < 1100 && rising.late > 1900, "chirp \(rising)")
        }
        print("roger type \(type): onset \(onset * 1000) ms after silence (gate 500 ms), length \(length * 1000) ms, "
              + "peak \(H.decibels(peak, 1)) dB, sustain \(H.decibels(rmsPeak, 1)) dB (rogerGain -6)")
    }

    /// Zero-crossing frequency over two ranges (for the chirp).
    enum SignalRising {
        static func frequencies(_ x: [Float], _ a: Range<Int>, _ b: Range<Int>, sampleRate: Double) -> (early: Double, late: Double) {
            func f(_ r: Range<Int>) -> Double {
                var crossings = 0
                for n in r.dropFirst() where x[n - 1] < 0 && x[n] >= 0 { crossings += 1 }
                return Double(crossings) * sampleRate / Double(r.count)
            }
            return (f(a), f(b))
        }
    }

    @Test func aBurstShorterThanTheInGateTimeBringsNoBeep() {
        let k = Self.kernel(inTime: 1000)
        let input = Self.burst(0.5, total: 3)
        #expect(Self.run(k, input) == input)
        #expect(!k.isTalking && !k.isBeeping)
        // In place too.
        k.reset()
        #expect(Self.run(k, input, inPlace: true) == input)
    }

    @Test func defaultsBeepAfterOneSecondOfSilence() throws {
        // Apple's defaults (1000 ms each way) with the thresholds lowered to the noise: beep at 1.5 + 1.0 s.
        let k = RogerBeepKernel(sampleRate: Self.rate, maximumFrames: 512, channels: 2)
        #expect(k.inGateThreshold == -6 && k.outGateThreshold == -6 && k.inGateThresholdTime == 1000
                && k.outGateThresholdTime == 1000 && k.sensitivity == 2 && k.rogerType == 0 && k.rogerGain == -6)
        k.setInGateThreshold(-20)
        k.setOutGateThreshold(-20)
        let input = Self.burst(1.5, total: 3)
        let out = Self.run(k, input)
        let first = try #require(Self.beepFrames(out[0], input[0]).first)
        #expect(abs(Double(first) / Self.rate - 2.5) <= 0.010)
    }

    @Test func everyTalkGetsItsBeepAndTheLevelFollowsTheGain() {
        // Two talks, the second beep 12 dB louder (+6 dB: peak 2).
        let k = Self.kernel(inTime: 300, outTime: 200, gain: -6)
        let one = Self.burst(0.6, total: 1.2)
        let input = zip(one, one).map { $0 + $1 }
        let out = H.run(input, block: 480, between: { if $0 == 57600 { k.setRogerGain(6) } }) {
            k.process(input: $0, output: $1, channels: $2, frames: $3)
        }
        let frames = Self.beepFrames(out[0], input[0])
        let firstBeep = frames.filter { $0 < 57600 }, secondBeep = frames.filter { $0 >= 57600 }
        #expect(abs(Double(firstBeep.first ?? 0) / Self.rate - 0.8) <= 0.010)
        #expect(abs(Double(secondBeep.first ?? 0) / Self.rate - 2.0) <= 0.010)
        let p1 = Double(firstBeep.map { abs(out[0][$0]) }.max() ?? 0)
        let p2 = Double(secondBeep.map { abs(out[0][$0]) }.max() ?? 0)
        #expect(abs(H.decibels(p1, pow(10, -6.0 / 20))) < 0.5)
        #expect(abs(H.decibels(p2, 2)) < 0.5, "second beep peak \(p2)")
    }

    @Test(arguments: [0, 1, 2])
    func sensitivityOnlyDelaysTheBeepByItsWindow(_ sensitivity: Int) throws {
        let k = Self.kernel(inTime: 500, outTime: 250, sensitivity: sensitivity)
        let input = Self.burst(1.0, total: 2)
        let out = Self.run(k, input)
        let first = try #require(Self.beepFrames(out[0], input[0]).first)
        let onset = Double(first) / Self.rate - 1.0 - 0.25
        let window = RogerBeepKernel.detectorWindow(sensitivity: sensitivity)
        #expect(onset >= 0 && onset <= window + 0.001, "onset \(onset) s past the gate time, window \(window) s")
    }

    @Test func tailTimeCoversTheGateAndTheBeep() {
        let k = Self.kernel(outTime: 500)
        #expect(abs(k.tailTime - (0.5 + 0.005 + 0.2)) < 1e-12)
        k.setSensitivity(0)
        #expect(abs(k.tailTime - (0.5 + 0.05 + 0.2)) < 1e-12)
        k.setOutGateThresholdTime(.nan)
        k.setSensitivity(7)
        k.setRogerType(-1)
        k.setRogerGain(99)
        #expect(k.outGateThresholdTime == 500 && k.sensitivity == 2 && k.rogerType == 0 && k.rogerGain == 20)
    }
}
