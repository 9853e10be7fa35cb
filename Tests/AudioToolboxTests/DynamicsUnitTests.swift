import AudioDSP
import AudioToolbox
import Foundation
import Testing

/// AUPeakLimiter's ceiling and transparency, AUDynamicsProcessor's static curve and meters.
@Suite struct DynamicsUnitTests {
    static let rate = 44100.0

    /// A synthetic drum loop: decaying noise bursts and sine hits every 250 ms, peaks up to 4.0 (+12 dBFS).
    static func drumLoop(seconds: Double) -> [Float] {
        var seed: UInt32 = 7
        return (0..<Int(seconds * rate)).map { n in
            let t = Double(n % 11025) / rate, beat = (n / 11025) % 4
            seed = seed &* 1_664_525 &+ 1_013_904_223
            let noise = Double(Int32(bitPattern: seed)) / Double(Int32.max)
            let hit = beat == 0 ? 4 * sin(2 * Double.pi * 60 * t) : noise * (beat == 2 ? 3 : 1.5)
            return Float(hit * exp(-t * 12))
        }
    }

    @Test func theLimiterNeverPassesItsCeilingAfterTheAttack() throws {
        for (signal, preGain) in [(Self.drumLoop(seconds: 4), Float(0)), (EffectTestSupport.sine(440, amplitude: 1, frames: 88200), 20)] {
            let unit = try EffectTestSupport.newEffect(kAudioUnitSubType_PeakLimiter)
            defer { AudioComponentInstanceDispose(unit) }
            EffectTestSupport.setParameter(unit, kLimiterParam_PreGain, preGain)
            #expect(AudioUnitInitialize(unit) == noErr)
            let y = try EffectTestSupport.process(unit, [signal], frames: signal.count, slices: [512, 93])
            let attack = Int(0.012 * Self.rate)
            let worst = y[0][attack...].map(abs).max()!
            #expect(worst <= 1, "pre-gain \(preGain): peak \(worst)")
            #expect(worst > 0.9, "the limiter should not over-attenuate: peak \(worst)")
        }
    }

    @Test func quietSignalsPassUnchangedDelayedByTheLookAhead() throws {
        let unit = try EffectTestSupport.newEffect(kAudioUnitSubType_PeakLimiter)
        defer { AudioComponentInstanceDispose(unit) }
        #expect(AudioUnitInitialize(unit) == noErr)
        var latency: Float64 = 0
        var size: UInt32 = 8
        #expect(AudioUnitGetProperty(unit, kAudioUnitProperty_Latency, kAudioUnitScope_Global, 0, &latency, &size) == noErr)
        let d = Int((latency * Self.rate).rounded())
        #expect(d == Int((0.012 * Self.rate).rounded()))
        let x = (0..<8192).map { _ in Float.random(in: -0.5...0.5) }
        let y = try EffectTestSupport.process(unit, [x], frames: 8192)[0]
        #expect((d..<8192).first { y[$0] != Double(x[$0 - d]) } == nil)
        #expect(y[..<d].allSatisfy { $0 == 0 })
    }

    /// Steady-state gain on 1 kHz sines from -60 to +20 dBFS against the static curve (peak level in), within 0.5 dB;
    /// the compression-amount meter reports the same gain.
    @Test(arguments: [(-20.0, 5.0), (-30.0, 2.0), (-10.0, 12.0)])
    func theStaticCurveIsTheParameters(_ setting: (threshold: Double, headRoom: Double)) throws {
        let unit = try EffectTestSupport.newEffect(kAudioUnitSubType_DynamicsProcessor, channels: 1)
        defer { AudioComponentInstanceDispose(unit) }
        EffectTestSupport.setParameter(unit, kDynamicsProcessorParam_Threshold, Float(setting.threshold))
        EffectTestSupport.setParameter(unit, kDynamicsProcessorParam_HeadRoom, Float(setting.headRoom))
        #expect(AudioUnitInitialize(unit) == noErr)
        for level in stride(from: -60.0, through: 20.0, by: 4.0) {
            let amplitude = pow(10, level / 20)
            let x = EffectTestSupport.sine(1000, amplitude: amplitude, frames: 13230)
            #expect(AudioUnitReset(unit, kAudioUnitScope_Global, 0) == noErr)
            let y = try EffectTestSupport.process(unit, [x], frames: 13230)[0]
            let gain = 20 * log10(EffectTestSupport.rms(y[8820...]) / EffectTestSupport.rms(x[8820...].map(Double.init)[...]))
            let expected = DynamicsProcessorKernel.staticCurve(inputDB: level, threshold: setting.threshold, headRoom: setting.headRoom,
                                                               expansionRatio: 2, expansionThreshold: -100) - level
            // The detector reads a sine at its peak level: the curve's input is the sine's peak in dBFS.
            #expect(abs(gain - expected) < 0.5, "\(setting) at \(level) dB: gain \(gain), curve \(expected)")
            var meter: Float = 0
            #expect(AudioUnitGetParameter(unit, kDynamicsProcessorParam_CompressionAmount, kAudioUnitScope_Global, 0, &meter) == noErr)
            #expect(abs(Double(meter) + gain) < 0.5, "meter \(meter) vs gain \(gain)")
            // Never above threshold + headroom in steady state.
            let outPeak = 20 * log10(y[8820...].map(abs).max()!)
            #expect(outPeak < setting.threshold + setting.headRoom + 0.5)
        }
    }

    @Test func expansionAttenuatesBelowItsThreshold() throws {
        let unit = try EffectTestSupport.newEffect(kAudioUnitSubType_DynamicsProcessor, channels: 1)
        defer { AudioComponentInstanceDispose(unit) }
        EffectTestSupport.setParameter(unit, kDynamicsProcessorParam_ExpansionThreshold, -50)
        EffectTestSupport.setParameter(unit, kDynamicsProcessorParam_ExpansionRatio, 2)
        #expect(AudioUnitInitialize(unit) == noErr)
        let x = EffectTestSupport.sine(1000, amplitude: pow(10, -60.0 / 20), frames: 13230)
        let y = try EffectTestSupport.process(unit, [x], frames: 13230)[0]
        let gain = 20 * log10(EffectTestSupport.rms(y[8820...]) / EffectTestSupport.rms(x[8820...].map(Double.init)[...]))
        #expect(abs(gain + 10) < 0.5, "gain \(gain) dB")
    }

    /// AUMultibandCompressor: a loud 300 Hz tone is compressed in band 2 only (its meter reads the reduction the
    /// static curve gives, the others nothing); a quiet tone passes at unity (the bands sum flat).
    @Test func theMultibandCompressorWorksPerBand() throws {
        let unit = try EffectTestSupport.newEffect(kAudioUnitSubType_MultiBandCompressor, channels: 1)
        defer { AudioComponentInstanceDispose(unit) }
        #expect(AudioUnitInitialize(unit) == noErr)
        let quiet = EffectTestSupport.sine(1000, amplitude: 0.001, frames: 22050)
        let q = try EffectTestSupport.process(unit, [quiet], frames: 22050)[0]
        let unity = 20 * log10(EffectTestSupport.rms(q[11025...]) / EffectTestSupport.rms(quiet[11025...].map(Double.init)[...]))
        #expect(abs(unity) < 0.1, "quiet gain \(unity) dB")
        #expect(AudioUnitReset(unit, kAudioUnitScope_Global, 0) == noErr)
        let loud = EffectTestSupport.sine(300, amplitude: pow(10, -10.0 / 20), frames: 44100)
        let y = try EffectTestSupport.process(unit, [loud], frames: 44100)[0]
        let gain = 20 * log10(EffectTestSupport.rms(y[33075...]) / EffectTestSupport.rms(loud[33075...].map(Double.init)[...]))
        let expected = DynamicsProcessorKernel.staticCurve(inputDB: -10, threshold: -32, headRoom: 12) + 10
        // The tone is mostly, not wholly, in band 2 (the Linkwitz-Riley bands overlap): the whole signal is reduced by
        // most of band 2's reduction, never more.
        #expect(gain >= expected - 0.1 && gain < 0.7 * expected, "gain \(gain) dB, band 2's curve \(expected) dB")
        var meters = [Float](repeating: 0, count: 4)
        for b in 0..<4 {
            #expect(AudioUnitGetParameter(unit, kMultibandCompressorParam_CompressionAmount1 + UInt32(b) * 1000, kAudioUnitScope_Global, 0,
                                          &meters[b]) == noErr)
        }
        #expect(abs(Double(meters[1]) + expected) < 1 && meters[0] < 0.5 && meters[2] < 0.5 && meters[3] < 0.5, "meters \(meters)")
    }
}
