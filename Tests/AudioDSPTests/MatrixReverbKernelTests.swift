import AudioDSP
import Foundation
import Testing

/// AUMatrixReverb's engine measured from the outside: each room type's decay, the small and large parts on
/// their own, pre-delay, mix, modulation, decorrelation, exact silence, and parameter changes under way.
@Suite struct MatrixReverbKernelTests {
    static let rate = 44100.0
    typealias T = ReverbTestSupport

    static func kernel(channels: Int = 2, _ change: (inout MatrixReverbParameters) -> Void = { _ in }) -> MatrixReverbKernel {
        let k = MatrixReverbKernel(sampleRate: rate, maximumFrames: 512, channels: channels)
        var p = k.parameters
        change(&p)
        k.setParameters(p)
        k.reset()
        return k
    }

    static func run(_ k: MatrixReverbKernel, frames: Int, input: [[Float]], between: (Int) -> Void = { _ in }) -> [[Float]] {
        T.render(channels: k.channels, frames: frames, input: input, between: between) {
            k.process(input: $0, output: $1, channels: $2, frames: $3)
        }
    }

    @Test(arguments: 0..<ReverbRoomPreset.roomTypeCount)
    func roomTypesDecayAsDocumented(_ type: Int) throws {
        let room = try #require(ReverbRoomPreset(roomType: type))
        let k = Self.kernel()
        k.apply(room)
        k.reset()
        #expect(k.parameters.largeSize == room.decayTimeAt0Hz)
        let ir = Self.run(k, frames: Int(Self.rate * (room.decayTimeAt0Hz + 0.3)), input: [T.impulse(1)])[0]
        let low = T.bandRT60(ir, cutoff: 400, low: true, sampleRate: Self.rate)
        print("Matrix room \(type) \(room.name): target \(room.decayTimeAt0Hz) s, measured < 400 Hz \(low) s")
        #expect(abs(low / room.decayTimeAt0Hz - 1) < 0.2)
    }

    @Test func largePartDecaysAsLargeSizeAndBrightnessSay() {
        let k = Self.kernel { $0.largeSize = 1.2; $0.largeBrightness = 0.5 }
        let ir = Self.run(k, frames: Int(Self.rate * 1.5), input: [T.impulse(1)])[0]
        let low = T.bandRT60(ir, cutoff: 400, low: true, sampleRate: Self.rate)
        let high = T.bandRT60(ir, cutoff: 8000, low: false, sampleRate: Self.rate)
        print("Matrix large part 1.2/0.6 s: measured < 400 Hz \(low) s, > 8 kHz \(high) s")
        #expect(abs(low / 1.2 - 1) < 0.2)
        #expect(abs(high / 0.6 - 1) < 0.2)
    }

    @Test func smallPartAloneDecaysAsItsSizeAndDensitySay() {
        let k = Self.kernel { $0.smallLargeMix = 0; $0.smallSize = 0.02; $0.smallDensity = 0.5 }
        let expected = 40 * 0.02 * (0.25 + 0.5)
        let ir = Self.run(k, frames: Int(Self.rate * (expected + 0.3)), input: [T.impulse(1)])[0]
        let low = T.bandRT60(ir, cutoff: 400, low: true, sampleRate: Self.rate)
        print("Matrix small part: target \(expected) s, measured < 400 Hz \(low) s")
        #expect(abs(low / expected - 1) < 0.2)
    }

    @Test func preDelayAndLargeDelayHoldBackTheOnsets() {
        let frames = Int(Self.rate * 0.3)
        func onset(_ k: MatrixReverbKernel) -> Double {
            let ir = Self.run(k, frames: frames, input: [T.impulse(1)])
            return Double(ir.map { $0.firstIndex { $0 != 0 } ?? frames }.min()!) / Self.rate
        }
        let early = onset(Self.kernel { $0.smallLargeMix = 0; $0.preDelay = 0.02; $0.smallSize = 0.01; $0.smallDelayRange = 0 })
        let late = onset(Self.kernel {
            $0.smallLargeMix = 100; $0.preDelay = 0.02; $0.largeDelay = 0.05; $0.largeDensity = 1; $0.largeDelayRange = 0
        })
        // Pre-delay plus the shortest line (about 10 ms and 20 ms; the lines round up to primes).
        #expect(early >= 0.029 && early < 0.032)
        #expect(late >= 0.089 && late < 0.093)
    }

    @Test func dryOnlyPassesTheInputUnchanged() {
        let k = Self.kernel { $0.dryWetMix = 0 }
        let input = [T.noise(8192, seed: 21), T.noise(8192, seed: 22)]
        #expect(Self.run(k, frames: 8192, input: input) == input)
    }

    @Test func stereoTailsAreDecorrelated() {
        let ir = Self.run(Self.kernel(), frames: Int(Self.rate), input: [T.impulse(1), T.impulse(1)])
        let tail = Int(Self.rate * 0.1)..<ir[0].count
        let r = T.correlation(ir[0][tail], ir[1][tail])
        print("Matrix L/R correlation of the tail: \(r)")
        #expect(abs(r) < 0.5)
    }

    @Test func modulationMovesTheTailWithoutChangingItsEnergy() {
        let still = Self.kernel { $0.modulationDepth = 0; $0.largeSize = 1; $0.smallLargeMix = 100 }
        let moving = Self.kernel { $0.modulationDepth = 1; $0.modulationRate = 2; $0.largeSize = 1; $0.smallLargeMix = 100 }
        let frames = Int(Self.rate)
        let a = Self.run(still, frames: frames, input: [T.impulse(1)]), b = Self.run(moving, frames: frames, input: [T.impulse(1)])
        let tail = Int(Self.rate * 0.2)..<frames
        let energy = { (x: [[Float]]) in x.reduce(0.0) { s, ch in ch[tail].reduce(s) { $0 + Double($1 * $1) } } }
        #expect(a[0][tail] != b[0][tail])
        #expect(abs(energy(b) / energy(a) - 1) < 0.1)
    }

    @Test func theTailEndsInExactSilence() {
        let k = Self.kernel { $0.largeSize = 0.4; $0.smallSize = 0.005; $0.smallDensity = 0 }
        let burst = Int(Self.rate * 0.1)
        let frames = burst + Int(Self.rate * 5)
        let out = Self.run(k, frames: frames, input: [T.noise(burst, seed: 23), T.noise(burst, seed: 24)])
        let quiet = burst + Int(Self.rate * 4.5)
        #expect(out.allSatisfy { $0[quiet...].allSatisfy { $0 == 0 } })
    }

    @Test func movingEveryParameterWhilePlayingDoesNotBlowUp() {
        let k = Self.kernel()
        let frames = Int(Self.rate * 2.5)
        let input = [T.noise(frames, seed: 25), T.noise(frames, seed: 26)]
        let steady = Int(Self.rate * 1.5)
        var step = 0
        let out = Self.run(k, frames: frames, input: input) { start in
            guard start >= steady else { return }
            step += 1
            let t = Double(step % 30) / 30
            var p = k.parameters
            p.smallSize = 0.005 + 0.015 * t
            p.largeDensity = 1 - t
            p.largeDelayRange = t
            p.smallDelayRange = 1 - t
            p.preDelay = 0.001 + 0.029 * t
            p.largeDelay = 0.1 * t
            p.smallDensity = t
            p.smallLargeMix = 100 * t
            k.setParameters(p)
        }
        let reference = out.map { T.peak($0[(steady / 2)..<steady]) }.max()!
        let after = out.map { T.peak($0[steady...]) }.max()!
        print("Matrix parameter changes: steady peak \(reference), peak while changing \(after)")
        #expect(after.isFinite && after < 4 * reference)
    }

    @Test func parametersAreClampedToApplesRanges() {
        let k = Self.kernel { $0.smallSize = 0.06; $0.largeSize = 50; $0.dryWetMix = -3; $0.modulationRate = 0 }
        #expect(k.parameters.smallSize == 0.020 && k.parameters.largeSize == 10)
        #expect(k.parameters.dryWetMix == 0 && k.parameters.modulationRate == 0.001)
        #expect(k.tailTime >= 10)
    }
}
