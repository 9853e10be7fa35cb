import AudioDSP
import Foundation
import Testing

/// AUReverb2's engine measured from the outside: RT60 per band against the decay parameters, the room types,
/// mix and gain, stability, exact silence, decorrelation, and parameter changes under way.
@Suite struct Reverb2KernelTests {
    static let rate = 44100.0
    typealias T = ReverbTestSupport

    static func kernel(channels: Int = 2, decay: (Double, Double)? = nil) -> Reverb2Kernel {
        let k = Reverb2Kernel(sampleRate: rate, maximumFrames: 512, channels: channels)
        if let decay { k.setDecayTimes(at0Hz: decay.0, atNyquist: decay.1) }
        k.reset()
        return k
    }

    static func run(_ k: Reverb2Kernel, frames: Int, input: [[Float]], between: (Int) -> Void = { _ in }) -> [[Float]] {
        T.render(channels: k.channels, frames: frames, input: input, between: between) {
            k.process(input: $0, output: $1, channels: $2, frames: $3)
        }
    }

    @Test(arguments: [(0.5, 0.25), (1.0, 0.5), (3.0, 1.0)])
    func bandDecayTimesMatchTheParameters(_ decay: (Double, Double)) {
        let k = Self.kernel(decay: decay)
        let ir = Self.run(k, frames: Int(Self.rate * (decay.0 + 0.2)), input: [T.impulse(1)])[0]
        let low = T.bandRT60(ir, cutoff: 400, low: true, sampleRate: Self.rate)
        let high = T.bandRT60(ir, cutoff: 8000, low: false, sampleRate: Self.rate)
        print("Reverb2 RT60 target \(decay.0)/\(decay.1) s: measured < 400 Hz \(low) s, > 8 kHz \(high) s")
        #expect(abs(low / decay.0 - 1) < 0.2)
        #expect(abs(high / decay.1 - 1) < 0.2)
    }

    @Test(arguments: 0..<ReverbRoomPreset.roomTypeCount)
    func roomTypesDecayAsDocumented(_ type: Int) throws {
        let room = try #require(ReverbRoomPreset(roomType: type))
        let k = Self.kernel()
        k.apply(room)
        k.reset()
        #expect(k.decayTimeAt0Hz == room.decayTimeAt0Hz && k.maxDelayTime == room.maxDelayTime)
        let ir = Self.run(k, frames: Int(Self.rate * (room.decayTimeAt0Hz + 0.2)), input: [T.impulse(1)])[0]
        let low = T.bandRT60(ir, cutoff: 400, low: true, sampleRate: Self.rate)
        print("Reverb2 room \(type) \(room.name): target \(room.decayTimeAt0Hz) s, measured < 400 Hz \(low) s")
        #expect(abs(low / room.decayTimeAt0Hz - 1) < 0.2)
    }

    @Test func roomTableIsComplete() {
        #expect(ReverbRoomPreset(roomType: -1) == nil && ReverbRoomPreset(roomType: 13) == nil)
        let names = (0..<13).compactMap { ReverbRoomPreset(roomType: $0).map { "\($0.name)" } }
        #expect(names == ["SmallRoom", "MediumRoom", "LargeRoom", "MediumHall", "LargeHall", "Plate", "MediumChamber",
                          "LargeChamber", "Cathedral", "LargeRoom2", "MediumHall2", "MediumHall3", "LargeHall2"])
        #expect(ReverbRoomPreset(roomType: 0)!.decayTimeAt0Hz < ReverbRoomPreset(roomType: 8)!.decayTimeAt0Hz)
    }

    @Test func dryOnlyPassesTheInputUnchanged() {
        let k = Self.kernel()
        let input = [T.noise(8192, seed: 3), T.noise(8192, seed: 4)]
        // Settled at 0 % from the start: bit-exact.
        k.setDryWetMix(0)
        k.reset()
        let out = Self.run(k, frames: 8192, input: input)
        #expect(out == input)
        // Glided there from 100 % while running: exact once the 10 ms glide is over.
        let moving = Self.kernel()
        let glided = Self.run(moving, frames: 8192, input: input) { if $0 == 1024 { moving.setDryWetMix(0) } }
        #expect(zip(glided[0][2048...], input[0][2048...]).allSatisfy { abs($0 - $1) <= 1e-6 })
        #expect(glided[0][2048...] == input[0][2048...])
    }

    @Test func gainOf6dBDoublesTheWetOutput() {
        let plain = Self.kernel(), loud = Self.kernel()
        loud.setGain(6)
        loud.reset()
        let input = [T.noise(22050, seed: 5), T.noise(22050, seed: 6)]
        let a = Self.run(plain, frames: 22050, input: input), b = Self.run(loud, frames: 22050, input: input)
        for c in 0..<2 {
            let energyA = a[c].reduce(0.0) { $0 + Double($1 * $1) }, energyB = b[c].reduce(0.0) { $0 + Double($1 * $1) }
            let ratio = (energyB / energyA).squareRoot()
            #expect(abs(ratio / 2 - 1) < 0.01)
            let gain = Float(pow(10.0, 6.0 / 20))
            #expect(zip(a[c], b[c]).allSatisfy { abs($1 - $0 * gain) <= 1e-6 * max(1, abs($0)) })
        }
    }

    @Test func sixtySecondsOfFullScaleNoiseAtTwentySecondsDecayStayBounded() {
        let k = Self.kernel(decay: (20, 20))
        let block = 512, frames = Int(Self.rate * 60)
        let ins = (0..<2).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: block) }
        defer { ins.forEach { $0.deallocate() } }
        var state: UInt32 = 12345
        var peak: Float = 0, finite = true, done = 0
        while done < frames {
            for c in 0..<2 {
                for i in 0..<block {
                    state = state &* 1664525 &+ 1013904223
                    ins[c][i] = Float(Int32(bitPattern: state)) / Float(Int32.max)
                }
            }
            // In place: the output overwrites the input buffers.
            ins.withUnsafeBufferPointer { k.process(input: $0.baseAddress!, output: $0.baseAddress!, channels: 2, frames: block) }
            for c in 0..<2 {
                for i in 0..<block {
                    let v = ins[c][i]
                    if !v.isFinite { finite = false }
                    peak = max(peak, abs(v))
                }
            }
            done += block
        }
        print("Reverb2 60 s of noise at RT60 20 s: peak \(peak)")
        #expect(finite)
        #expect(peak < 40)
    }

    @Test func theTailEndsInExactSilence() {
        // The loudest case: a second of full-scale noise in both channels at +20 dB.
        let decay = 0.5
        let k = Self.kernel(decay: (decay, 0.25))
        k.setGain(20)
        k.reset()
        let burst = Int(Self.rate)
        let frames = burst + Int(Self.rate * (10 * decay + 0.5))
        let out = Self.run(k, frames: frames, input: [T.noise(burst, seed: 7), T.noise(burst, seed: 8)])
        let quiet = burst + Int(Self.rate * 10 * decay)
        let lastNonzero = out.map { ch in ch.lastIndex { $0 != 0 } ?? 0 }.max()!
        print("Reverb2 exact silence \(Double(lastNonzero - burst) / Self.rate / decay) x RT60 after the input stopped")
        #expect(out.allSatisfy { $0[quiet...].allSatisfy { $0 == 0 } })
    }

    @Test func stereoTailsAreDecorrelated() {
        let k = Self.kernel()
        let ir = Self.run(k, frames: Int(Self.rate), input: [T.impulse(1), T.impulse(1)])
        let tail = Int(Self.rate * 0.05)..<ir[0].count
        let r = T.correlation(ir[0][tail], ir[1][tail])
        print("Reverb2 L/R correlation of the tail: \(r)")
        #expect(abs(r) < 0.5)
        // A mono source into the left input alone, too.
        let left = Self.run(Self.kernel(), frames: Int(Self.rate), input: [T.impulse(1)])
        #expect(abs(T.correlation(left[0][tail], left[1][tail])) < 0.5)
    }

    @Test func randomizeReflectionsChangesTheEarlyReflections() {
        let a = Self.kernel(), b = Self.kernel()
        b.setDelayTimes(minimum: 0.008, maximum: 0.050, randomizeReflections: 2)
        b.reset()
        let early = Int(Self.rate * 0.08)
        let x = Self.run(a, frames: early, input: [T.impulse(1)])[0], y = Self.run(b, frames: early, input: [T.impulse(1)])[0]
        #expect(abs(T.correlation(x[...], y[...])) < 0.5)
        // Nothing before the shortest delay: the wet signal has no direct sound.
        #expect(x[..<Int(Self.rate * 0.008)].allSatisfy { $0 == 0 })
    }

    @Test func movingTheDelayParametersWhilePlayingDoesNotBlowUp() {
        let k = Self.kernel()
        let frames = Int(Self.rate * 3)
        let input = [T.noise(frames, seed: 9), T.noise(frames, seed: 10)]
        let steady = Int(Self.rate)
        var step = 0
        let out = Self.run(k, frames: frames, input: input) { start in
            guard start >= steady else { return }
            step += 1
            // A drag of both sliders and the seed, one slice at a time, plus a few jumps.
            let t = Double(step % 40) / 40
            let seed = 1 + step % 7
            if step % 25 == 0 {
                k.setDelayTimes(minimum: 0.9, maximum: 0.0001, randomizeReflections: seed)
            } else {
                k.setDelayTimes(minimum: 0.002 + 0.02 * t, maximum: 0.03 + 0.2 * t, randomizeReflections: seed)
            }
        }
        let reference = out.map { T.peak($0[(steady / 2)..<steady]) }.max()!
        let after = out.map { T.peak($0[steady...]) }.max()!
        print("Reverb2 delay changes: steady peak \(reference), peak while changing \(after)")
        #expect(after.isFinite && after < 4 * reference)
    }

    @Test func monoAndEightChannelsWork() {
        let mono = Self.kernel(channels: 1)
        let one = Self.run(mono, frames: 22050, input: [T.impulse(1)])
        #expect(one[0].contains { $0 != 0 } && one[0].allSatisfy(\.isFinite))
        let eight = Self.kernel(channels: 8)
        let many = Self.run(eight, frames: 22050, input: [T.impulse(1)])
        let tail = 2205..<22050
        for c in 1..<8 { #expect(abs(T.correlation(many[0][tail], many[c][tail])) < 0.5) }
    }

    @Test func inPlaceEqualsOutOfPlace() {
        let a = Self.kernel()
        let input = [T.noise(4096, seed: 11), T.noise(4096, seed: 12)]
        let separate = Self.run(a, frames: 4096, input: input)
        var buffers = input.map { Array($0) }
        let ptrs = (0..<2).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: 512) }
        defer { ptrs.forEach { $0.deallocate() } }
        let c = Self.kernel()
        for start in stride(from: 0, to: 4096, by: 512) {
            for ch in 0..<2 { for i in 0..<512 { ptrs[ch][i] = buffers[ch][start + i] } }
            ptrs.withUnsafeBufferPointer { c.process(input: $0.baseAddress!, output: $0.baseAddress!, channels: 2, frames: 512) }
            for ch in 0..<2 { for i in 0..<512 { buffers[ch][start + i] = ptrs[ch][i] } }
        }
        #expect(buffers == separate)
    }

    @Test func tailTimeCoversTheLongerDecayAndTheLongestDelay() {
        let k = Self.kernel(decay: (2, 3))
        #expect(abs(k.tailTime - 3.05) < 1e-9)
    }
}
