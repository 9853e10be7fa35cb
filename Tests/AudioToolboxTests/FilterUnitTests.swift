import AudioToolbox
import Foundation
import Testing

/// The filter and EQ units measured from their impulse responses against the analytic transfer functions,
/// computed here from the cookbook formulas (independently of the units' code).
@Suite struct FilterUnitTests {
    static let rate = 44100.0

    /// An analytic second-order section: numerator and denominator, not normalised.
    struct Section {
        var b: (Double, Double, Double), a: (Double, Double, Double)
        func magnitude(_ f: Double) -> Double {
            let w = 2 * Double.pi * f / FilterUnitTests.rate
            func eval(_ c: (Double, Double, Double)) -> (Double, Double) {
                (c.0 + c.1 * cos(w) + c.2 * cos(2 * w), -(c.1 * sin(w) + c.2 * sin(2 * w)))
            }
            let (nr, ni) = eval(b), (dr, di) = eval(a)
            return ((nr * nr + ni * ni) / (dr * dr + di * di)).squareRoot()
        }
        static let identity = Section(b: (1, 0, 0), a: (1, 0, 0))
    }

    static func omega(_ f: Double) -> (w: Double, c: Double, s: Double) {
        let w = 2 * Double.pi * f / rate
        return (w, cos(w), sin(w))
    }
    static func bwAlpha(_ f: Double, octaves: Double) -> Double {
        let (w, _, s) = omega(f)
        return s * sinh(log(2) / 2 * octaves * w / s)
    }
    static func lowPass(_ f: Double, q: Double) -> Section {
        let (_, c, s) = omega(f); let al = s / (2 * q)
        return Section(b: ((1 - c) / 2, 1 - c, (1 - c) / 2), a: (1 + al, -2 * c, 1 - al))
    }
    static func highPass(_ f: Double, q: Double) -> Section {
        let (_, c, s) = omega(f); let al = s / (2 * q)
        return Section(b: ((1 + c) / 2, -(1 + c), (1 + c) / 2), a: (1 + al, -2 * c, 1 - al))
    }
    static func bandPass(_ f: Double, octaves: Double) -> Section {
        let (_, c, _) = omega(f); let al = bwAlpha(f, octaves: octaves)
        return Section(b: (al, 0, -al), a: (1 + al, -2 * c, 1 - al))
    }
    static func notch(_ f: Double, octaves: Double) -> Section {
        let (_, c, _) = omega(f); let al = bwAlpha(f, octaves: octaves)
        return Section(b: (1, -2 * c, 1), a: (1 + al, -2 * c, 1 - al))
    }
    static func peak(_ f: Double, alpha al: Double, gain: Double) -> Section {
        let (_, c, _) = omega(f); let A = pow(10, gain / 40)
        return Section(b: (1 + al * A, -2 * c, 1 - al * A), a: (1 + al / A, -2 * c, 1 - al / A))
    }
    static func shelf(_ f: Double, gain: Double, q: Double = 1 / 2.0.squareRoot(), high: Bool) -> Section {
        let (_, c, s) = omega(f); let A = pow(10, gain / 40), al = s / (2 * q), k = 2 * A.squareRoot() * al
        if high {
            return Section(b: (A * ((A + 1) + (A - 1) * c + k), -2 * A * ((A - 1) + (A + 1) * c), A * ((A + 1) + (A - 1) * c - k)),
                           a: ((A + 1) - (A - 1) * c + k, 2 * ((A - 1) - (A + 1) * c), (A + 1) - (A - 1) * c - k))
        }
        return Section(b: (A * ((A + 1) - (A - 1) * c + k), 2 * A * ((A - 1) - (A + 1) * c), A * ((A + 1) - (A - 1) * c - k)),
                       a: ((A + 1) + (A - 1) * c + k, -2 * ((A - 1) + (A + 1) * c), (A + 1) + (A - 1) * c - k))
    }

    /// The unit's impulse response (left channel), parameters set before the first render.
    func impulseResponse(_ subtype: OSType, _ parameters: [(AudioUnitParameterID, Float)], frames: Int = 32768,
                         configure: (AudioUnit) -> Void = { _ in }) throws -> [Double] {
        let unit = try EffectTestSupport.newEffect(subtype)
        defer { AudioComponentInstanceDispose(unit) }
        configure(unit)
        #expect(AudioUnitInitialize(unit) == noErr)
        for (id, v) in parameters { EffectTestSupport.setParameter(unit, id, v) }
        var impulse = [Float](repeating: 0, count: 1)
        impulse[0] = 1
        return try EffectTestSupport.process(unit, [impulse], frames: frames, slices: [1024])[0]
    }

    /// Compares the measured response with `expected` at the 30 frequencies (where the response is above -60 dB).
    func expectResponse(_ ir: [Double], _ expected: [Section], tolerance: Double = 0.1, _ label: String) {
        var worst = 0.0
        for f in EffectTestSupport.logFrequencies where f < Self.rate / 2 {
            let want = 20 * log10(expected.reduce(1.0) { $0 * $1.magnitude(f) })
            guard want > -60 else { continue }
            let got = EffectTestSupport.magnitudeDB(ir, at: f, rate: Self.rate)
            worst = max(worst, abs(got - want))
        }
        #expect(worst < tolerance, "\(label): worst difference \(worst) dB")
    }

    @Test func lowAndHighPassMatchTheirDesigns() throws {
        expectResponse(try impulseResponse(kAudioUnitSubType_LowPassFilter, [(kLowPassParam_CutoffFrequency, 1000)]),
                       [Self.lowPass(1000, q: 1 / 2.0.squareRoot())], "low-pass 1 kHz")
        expectResponse(try impulseResponse(kAudioUnitSubType_LowPassFilter, [(kLowPassParam_CutoffFrequency, 3000), (kLowPassParam_Resonance, 12)]),
                       [Self.lowPass(3000, q: pow(10, 12.0 / 20) / 2.0.squareRoot())], "low-pass 3 kHz +12 dB")
        expectResponse(try impulseResponse(kAudioUnitSubType_HighPassFilter, [(kHipassParam_CutoffFrequency, 500), (kHipassParam_Resonance, 6)]),
                       [Self.highPass(500, q: pow(10, 6.0 / 20) / 2.0.squareRoot())], "high-pass 500 Hz +6 dB")
    }

    /// The 1 kHz low-pass attenuates an 8 kHz sine by its designed amount (over 30 dB), measured on a sine.
    @Test func theOneKilohertzLowPassAttenuatesEightKilohertz() throws {
        let unit = try EffectTestSupport.newEffect(kAudioUnitSubType_LowPassFilter)
        defer { AudioComponentInstanceDispose(unit) }
        #expect(AudioUnitInitialize(unit) == noErr)
        EffectTestSupport.setParameter(unit, kLowPassParam_CutoffFrequency, 1000)
        let x = EffectTestSupport.sine(8000, frames: 44100)
        let y = try EffectTestSupport.process(unit, [x], frames: 44100)[0]
        let measured = 20 * log10(EffectTestSupport.rms(y[22050...]) / EffectTestSupport.rms(x[22050...].map(Double.init)[...]))
        let designed = 20 * log10(Self.lowPass(1000, q: 1 / 2.0.squareRoot()).magnitude(8000))
        #expect(abs(measured - designed) < 0.1, "measured \(measured) dB, designed \(designed) dB")
        #expect(designed < -30)
    }

    @Test func bandPassShelvesAndParametricMatchTheirDesigns() throws {
        expectResponse(try impulseResponse(kAudioUnitSubType_BandPassFilter, [(kBandpassParam_CenterFrequency, 2000), (kBandpassParam_Bandwidth, 1200)]),
                       [Self.bandPass(2000, octaves: 1)], "band-pass 2 kHz, one octave")
        expectResponse(try impulseResponse(kAudioUnitSubType_HighShelfFilter, [(kHighShelfParam_CutOffFrequency, 12000), (kHighShelfParam_Gain, -9)]),
                       [Self.shelf(12000, gain: -9, high: true)], "high shelf")
        expectResponse(try impulseResponse(kAudioUnitSubType_LowShelfFilter, [(kAULowShelfParam_CutoffFrequency, 100), (kAULowShelfParam_Gain, 10)]),
                       [Self.shelf(100, gain: 10, high: false)], "low shelf")
        let (_, _, s) = Self.omega(3000)
        expectResponse(try impulseResponse(kAudioUnitSubType_ParametricEQ, [(kParametricEQParam_CenterFreq, 3000), (kParametricEQParam_Q, 2),
                                                                          (kParametricEQParam_Gain, -8)]),
                       [Self.peak(3000, alpha: s / 4, gain: -8)], "parametric")
    }

    /// A shelf's gain at DC and at Nyquist is its parameter (and 0 dB at the other end).
    @Test func shelfGainsAtTheExtremes() throws {
        let low = try impulseResponse(kAudioUnitSubType_LowShelfFilter, [(kAULowShelfParam_CutoffFrequency, 150), (kAULowShelfParam_Gain, 12)])
        #expect(abs(EffectTestSupport.magnitudeDB(low, at: 0, rate: Self.rate) - 12) < 0.01)
        #expect(abs(EffectTestSupport.magnitudeDB(low, at: Self.rate / 2, rate: Self.rate)) < 0.01)
        let high = try impulseResponse(kAudioUnitSubType_HighShelfFilter, [(kHighShelfParam_CutOffFrequency, 11000), (kHighShelfParam_Gain, -15)])
        #expect(abs(EffectTestSupport.magnitudeDB(high, at: Self.rate / 2, rate: Self.rate) + 15) < 0.01)
        #expect(abs(EffectTestSupport.magnitudeDB(high, at: 0, rate: Self.rate)) < 0.01)
    }

    @Test func nBandEQTypesMatchTheirDesigns() throws {
        let setBands: (AudioUnit) -> Void = { unit in
            #expect(TestSupport.setUInt32(unit, kAUNBandEQProperty_NumberOfBands, kAudioUnitScope_Global, 0, 5) == noErr)
        }
        func band(_ b: UInt32, type: Int, f: Float, gain: Float = 0, octaves: Float = 0.5) -> [(AudioUnitParameterID, Float)] {
            [(kAUNBandEQParam_BypassBand + b, 0), (kAUNBandEQParam_FilterType + b, Float(type)), (kAUNBandEQParam_Frequency + b, f),
             (kAUNBandEQParam_Gain + b, gain), (kAUNBandEQParam_Bandwidth + b, octaves)]
        }
        let params = band(0, type: kAUNBandEQFilterType_Parametric, f: 400, gain: 6, octaves: 1)
            + band(1, type: kAUNBandEQFilterType_2ndOrderButterworthHighPass, f: 40)
            + band(2, type: kAUNBandEQFilterType_ResonantLowShelf, f: 200, gain: -4, octaves: 2)
            + band(3, type: kAUNBandEQFilterType_BandStop, f: 5000, octaves: 0.3)
            + [(kAUNBandEQParam_GlobalGain, -3)]
        let ir = try impulseResponse(kAudioUnitSubType_NBandEQ, params, configure: setBands)
        let qShelf = sin(2 * Double.pi * 200 / Self.rate) / (2 * Self.bwAlpha(200, octaves: 2))
        let gain = Section(b: (pow(10, -3.0 / 20), 0, 0), a: (1, 0, 0))
        expectResponse(ir, [Self.peak(400, alpha: Self.bwAlpha(400, octaves: 1), gain: 6), Self.highPass(40, q: 1 / 2.0.squareRoot()),
                            Self.shelf(200, gain: -4, q: qShelf, high: false), Self.notch(5000, octaves: 0.3), gain], "N-band EQ")
        // The other types, one band each.
        let single: [(Int, Section)] = [
            (kAUNBandEQFilterType_2ndOrderButterworthLowPass, Self.lowPass(2500, q: 1 / 2.0.squareRoot())),
            (kAUNBandEQFilterType_ResonantLowPass, Self.lowPass(2500, q: sin(2 * Double.pi * 2500 / Self.rate) / (2 * Self.bwAlpha(2500, octaves: 0.5)))),
            (kAUNBandEQFilterType_ResonantHighPass, Self.highPass(2500, q: sin(2 * Double.pi * 2500 / Self.rate) / (2 * Self.bwAlpha(2500, octaves: 0.5)))),
            (kAUNBandEQFilterType_BandPass, Self.bandPass(2500, octaves: 0.5)),
            (kAUNBandEQFilterType_LowShelf, Self.shelf(2500, gain: 5, high: false)),
            (kAUNBandEQFilterType_HighShelf, Self.shelf(2500, gain: 5, high: true)),
            (kAUNBandEQFilterType_ResonantHighShelf, Self.shelf(2500, gain: 5, q: sin(2 * Double.pi * 2500 / Self.rate) / (2 * Self.bwAlpha(2500, octaves: 0.5)), high: true)),
        ]
        for (type, section) in single {
            let ir = try impulseResponse(kAudioUnitSubType_NBandEQ, band(1, type: type, f: 2500, gain: 5))
            expectResponse(ir, [section], "N-band type \(type)")
        }
    }

    @Test func nBandEQBandsStartBypassedAndReportTheirCoefficients() throws {
        let unit = try EffectTestSupport.newEffect(kAudioUnitSubType_NBandEQ)
        defer { AudioComponentInstanceDispose(unit) }
        #expect(TestSupport.setUInt32(unit, kAUNBandEQProperty_NumberOfBands, kAudioUnitScope_Global, 0, 17) == kAudioUnitErr_InvalidPropertyValue)
        #expect(TestSupport.setUInt32(unit, kAUNBandEQProperty_NumberOfBands, kAudioUnitScope_Global, 0, 4) == noErr)
        #expect(TestSupport.getUInt32(unit, kAUNBandEQProperty_MaxNumberOfBands, kAudioUnitScope_Global, 0).1 == 16)
        #expect(AudioUnitInitialize(unit) == noErr)
        #expect(TestSupport.setUInt32(unit, kAUNBandEQProperty_NumberOfBands, kAudioUnitScope_Global, 0, 3) == kAudioUnitErr_Initialized)
        var bypass: Float = 0
        #expect(AudioUnitGetParameter(unit, kAUNBandEQParam_BypassBand + 3, kAudioUnitScope_Global, 0, &bypass) == noErr)
        #expect(bypass == 1)
        var size: UInt32 = 0
        #expect(AudioUnitGetPropertyInfo(unit, kAUNBandEQProperty_BiquadCoefficients, kAudioUnitScope_Global, 0, &size, nil) == noErr)
        #expect(size == 4 * 5 * 8)
        let x = (0..<4096).map { _ in Float.random(in: -1...1) }
        let y = try EffectTestSupport.process(unit, [x], frames: 4096)
        #expect(y[0] == x.map(Double.init))
        EffectTestSupport.setParameter(unit, kAUNBandEQParam_BypassBand + 2, 0)
        EffectTestSupport.setParameter(unit, kAUNBandEQParam_Gain + 2, 6)
        var coefficients = [Float64](repeating: 0, count: 20)
        #expect(AudioUnitGetProperty(unit, kAUNBandEQProperty_BiquadCoefficients, kAudioUnitScope_Global, 0, &coefficients, &size) == noErr)
        let want = Self.peak(1000, alpha: Self.bwAlpha(1000, octaves: 0.5), gain: 6)
        #expect(abs(coefficients[10] - want.b.0 / want.a.0) < 1e-9 && abs(coefficients[14] - want.a.2 / want.a.0) < 1e-9)
        #expect(coefficients[0] == 1 && coefficients[1] == 0 && coefficients[3] == 0)
    }

    @Test func graphicEQBandsAreThePeaksAtTheirCentres() throws {
        let ten = try impulseResponse(kAudioUnitSubType_GraphicEQ, [(2, 6), (6, -5), (9, 3)])
        let (_, _, _) = Self.omega(125)
        func peak(_ f: Double, q: Double, _ g: Double) -> Section {
            Self.peak(f, alpha: sin(2 * Double.pi * f / Self.rate) / (2 * q), gain: g)
        }
        expectResponse(ten, [peak(125, q: 1.41, 6), peak(2000, q: 1.41, -5), peak(16000, q: 1.41, 3)], "10-band")
        let thirty = try impulseResponse(kAudioUnitSubType_GraphicEQ, [(kGraphicEQParam_NumberOfBands, 31), (0, 4), (17, -6), (29, 5)])
        expectResponse(thirty, [peak(20, q: 4.32, 4), peak(1000, q: 4.32, -6), peak(16000, q: 4.32, 5)], "31-band")
    }

    /// A cutoff jump while a sine plays glides: no sample step more than 15% above the settled sine's largest (a
    /// switched filter steps by up to the whole amplitude).
    @Test func parameterChangesDoNotClick() throws {
        let unit = try EffectTestSupport.newEffect(kAudioUnitSubType_LowPassFilter, channels: 1)
        defer { AudioComponentInstanceDispose(unit) }
        #expect(AudioUnitInitialize(unit) == noErr)
        EffectTestSupport.setParameter(unit, kLowPassParam_CutoffFrequency, 300)
        let x = EffectTestSupport.sine(1000, frames: 8192)
        let source = EffectTestSupport.Source([x])
        TestSupport.setCallback(unit, 0, EffectTestSupport.sourceCallback, Unmanaged.passUnretained(source).toOpaque())
        let format = OCAFormat.canonical(sampleRate: 44100, channels: 1)
        var y = try TestSupport.render(unit, format: format, totalFrames: 4096, slices: [512]).channels[0]
        EffectTestSupport.setParameter(unit, kLowPassParam_CutoffFrequency, 8000)
        y += try TestSupport.render(unit, format: format, totalFrames: 4096, slices: [512], startTime: 4096).channels[0]
        withExtendedLifetime(source) {}
        let steps = zip(y.dropFirst(), y).map { abs($0 - $1) }
        let settled = steps[6000...].max()!
        #expect(steps[4000..<6000].max()! <= settled * 1.15, "step \(steps[4000..<6000].max()!) vs settled \(settled)")
    }

    @Test func bypassPassesTheInputUnchanged() throws {
        let unit = try EffectTestSupport.newEffect(kAudioUnitSubType_ParametricEQ)
        defer { AudioComponentInstanceDispose(unit) }
        #expect(AudioUnitInitialize(unit) == noErr)
        EffectTestSupport.setParameter(unit, kParametricEQParam_Gain, 12)
        #expect(TestSupport.setUInt32(unit, kAudioUnitProperty_BypassEffect, kAudioUnitScope_Global, 0, 1) == noErr)
        let x = (0..<2048).map { _ in Float.random(in: -1...1) }
        #expect(try EffectTestSupport.process(unit, [x], frames: 2048)[1] == x.map(Double.init))
    }

    /// Nyquist-bound ranges follow the sample rate.
    @Test func cutoffRangesEndAtNyquist() throws {
        let unit = try EffectTestSupport.newEffect(kAudioUnitSubType_LowPassFilter, rate: 96000)
        defer { AudioComponentInstanceDispose(unit) }
        var info = AudioUnitParameterInfo()
        var size = UInt32(MemoryLayout<AudioUnitParameterInfo>.size)
        #expect(AudioUnitGetProperty(unit, kAudioUnitProperty_ParameterInfo, kAudioUnitScope_Global, kLowPassParam_CutoffFrequency,
                                     &info, &size) == noErr)
        #expect(info.minValue == 10 && info.maxValue == 48000 && info.defaultValue == 6900 && info.unit == .hertz)
        info.cfNameString?.release()
    }
}
