import AudioToolbox
import Foundation
import Testing

/// A tone for the time-pitch units (Float32, non-interleaved): harmonics 1...`harmonics` of `frequency` at
/// amplitudes `amplitude`/h, computed from the sample time. It counts the frames pulled, the largest pull,
/// and whether each pull's sample time continues the one before.
final class ToneSource {
    let frequency: Double, sampleRate: Double, harmonics: Int, amplitude: Double
    var framesPulled = 0
    var largestPull = 0
    var timesContiguous = true

    init(frequency: Double, sampleRate: Double = 44100, harmonics: Int = 5, amplitude: Double = 0.2) {
        self.frequency = frequency
        self.sampleRate = sampleRate
        self.harmonics = harmonics
        self.amplitude = amplitude
    }

    func value(_ n: Double) -> Double {
        var s = 0.0
        for h in 1...harmonics {
            s += sin(2 * Double.pi * frequency * Double(h) * n / sampleRate + Double(h - 1)) / Double(h)
        }
        return amplitude * s
    }

    var refCon: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    static let callback: AURenderCallback = { refCon, _, timeStamp, _, frames, ioData in
        let s = Unmanaged<ToneSource>.fromOpaque(refCon).takeUnretainedValue()
        let start = timeStamp.pointee.mSampleTime
        if start != Double(s.framesPulled) { s.timesContiguous = false }
        for n in 0..<Int(frames) {
            let x = Float(s.value(start + Double(n)))
            for b in UnsafeMutableAudioBufferListPointer(ioData!) { b.mData!.assumingMemoryBound(to: Float.self)[n] = x }
        }
        s.framesPulled += Int(frames)
        s.largestPull = max(s.largestPull, Int(frames))
        return noErr
    }
}

/// Least-squares sine fitting: the frequency of the strongest sine near a guess (as in the AudioDSP tests).
enum ToneFit {
    static func energy(_ x: ArraySlice<Double>, frequency f: Double, sampleRate: Double) -> Double {
        let w = 2 * Double.pi * f / sampleRate
        let cw = cos(w), sw = sin(w)
        var ss = 0.0, sc = 0.0, cc = 0.0, xs = 0.0, xc = 0.0
        var s = 0.0, c = 1.0
        var i = 0
        for d in x {
            ss += s * s; sc += s * c; cc += c * c; xs += d * s; xc += d * c
            let s1 = s * cw + c * sw
            c = c * cw - s * sw
            s = s1
            i += 1
            if i & 1023 == 0 { let n = (s * s + c * c).squareRoot(); s /= n; c /= n }
        }
        let det = ss * cc - sc * sc
        let a = (xs * cc - xc * sc) / det, b = (xc * ss - xs * sc) / det
        return a * xs + b * xc
    }

    static func frequency(_ x: ArraySlice<Double>, near guess: Double, span: Double, sampleRate: Double) -> Double {
        let step = sampleRate / Double(x.count) / 4
        var best = guess, bestEnergy = -1.0
        var f = guess - span
        while f <= guess + span {
            let e = energy(x, frequency: f, sampleRate: sampleRate)
            if e > bestEnergy { bestEnergy = e; best = f }
            f += step
        }
        var lo = best - step, hi = best + step
        let g = (5.0.squareRoot() - 1) / 2
        for _ in 0..<24 {
            let m1 = hi - g * (hi - lo), m2 = lo + g * (hi - lo)
            if energy(x, frequency: m1, sampleRate: sampleRate) > energy(x, frequency: m2, sampleRate: sampleRate) { hi = m2 } else { lo = m1 }
        }
        return (lo + hi) / 2
    }

    static func cents(_ f: Double, _ reference: Double) -> Double { 1200 * log2(f / reference) }
}

/// AUiPodTime (QA1717), AUNewTimePitch and AUVarispeed as units: parameters, formats, duration, pitch, clicks.
@Suite struct TimePitchUnitTests {
    static func description(_ subType: OSType) -> AudioComponentDescription {
        AudioComponentDescription(componentType: kAudioUnitType_FormatConverter, componentSubType: subType,
                                  componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
    }
    static let iPodTime = description(kAudioUnitSubType_AUiPodTime)
    static let iPodTimeOther = description(kAudioUnitSubType_AUiPodTimeOther)
    static let newTimePitch = description(kAudioUnitSubType_NewTimePitch)
    static let varispeed = description(kAudioUnitSubType_Varispeed)
    static let fs = 44100.0
    static func canonical(_ channels: UInt32, _ rate: Double = fs) -> AudioStreamBasicDescription {
        OCAFormat.canonical(sampleRate: rate, channels: channels)
    }
    static let qa1717Rates: [Float] = [0.5, 0.66667, 0.8, 1, 1.25, 1.5, 2]

    /// A unit of `description` fed by `source`, in `channels` channels at 44.1 kHz, not initialized.
    func makeUnit(_ description: AudioComponentDescription, _ source: ToneSource, channels: UInt32 = 2) throws -> AudioUnit {
        let unit = try TestSupport.newUnit(description)
        #expect(TestSupport.setFormat(unit, kAudioUnitScope_Input, 0, Self.canonical(channels)) == noErr)
        #expect(TestSupport.setFormat(unit, kAudioUnitScope_Output, 0, Self.canonical(channels)) == noErr)
        #expect(TestSupport.setCallback(unit, 0, ToneSource.callback, source.refCon) == noErr)
        return unit
    }

    func set(_ unit: AudioUnit, _ id: AudioUnitParameterID, _ value: Float) {
        #expect(AudioUnitSetParameter(unit, id, kAudioUnitScope_Global, 0, value, 0) == noErr)
    }

    func get(_ unit: AudioUnit, _ id: AudioUnitParameterID) -> Float {
        var v: Float = .nan
        #expect(AudioUnitGetParameter(unit, id, kAudioUnitScope_Global, 0, &v) == noErr)
        return v
    }

    func info(_ unit: AudioUnit, _ id: AudioUnitParameterID) -> AudioUnitParameterInfo {
        var info = AudioUnitParameterInfo()
        var size = UInt32(MemoryLayout<AudioUnitParameterInfo>.size)
        #expect(AudioUnitGetProperty(unit, kAudioUnitProperty_ParameterInfo, kAudioUnitScope_Global, id, &info, &size) == noErr)
        return info
    }

    func seconds(_ unit: AudioUnit, _ id: AudioUnitPropertyID) -> Double {
        var v = -1.0
        var size = UInt32(8)
        #expect(AudioUnitGetProperty(unit, id, kAudioUnitScope_Global, 0, &v, &size) == noErr)
        return v
    }

    /// Renders `frames` frames (slices of 512) continuing at `time`; returns the output and the next time.
    func render(_ unit: AudioUnit, _ frames: Int, channels: UInt32 = 2, at time: inout Double) throws -> RenderedAudio {
        let out = try TestSupport.render(unit, format: Self.canonical(channels), totalFrames: frames, slices: [512], startTime: time)
        time += Double(frames)
        return out
    }

    /// Input frames pulled per output frame, measured over `frames` output frames after a warm-up: the
    /// difference from `frames`·rate, which must be within one slice.
    func pulledOverRendered(_ unit: AudioUnit, _ source: ToneSource, frames: Int, rate: Double) throws -> (delta: Int, deviation: Double) {
        var time = 0.0
        _ = try render(unit, 8192, at: &time)
        let before = source.framesPulled
        _ = try render(unit, frames, at: &time)
        let delta = source.framesPulled - before
        return (delta, Double(delta) - Double(frames) * rate)
    }

    // MARK: AUiPodTime

    /// QA1717: the rate is "rounded by the unit to whichever of 0.5, 0.66667, 0.8, 1.0, 1.25, 1.5, 2 is
    /// closest", and the value read back is the rounded one. Halfway values go to the faster rate; values
    /// outside 0.5...2 go to the ends (noErr, as AUBase accepts any finite value); non-finite values are refused.
    @Test func iPodTimeRateRoundingTable() throws {
        let unit = try TestSupport.newUnit(Self.iPodTime)
        defer { AudioComponentInstanceDispose(unit) }
        #expect(get(unit, kTimePitchParam_Rate) == 1)
        let table: [(Float, Float)] = [
            (0.5, 0.5), (0.57, 0.5), (0.5833, 0.5), (0.583335, 0.66667), (0.6, 0.66667), (2.0 / 3, 0.66667), (0.73, 0.66667),
            (0.733335, 0.8), (0.74, 0.8), (0.8, 0.8), (0.89, 0.8), (0.9, 1), (0.95, 1), (1, 1), (1.12, 1), (1.125, 1.25),
            (1.2, 1.25), (1.37, 1.25), (1.375, 1.5), (1.5, 1.5), (1.74, 1.5), (1.75, 2), (1.9, 2), (2, 2),
            // Outside the range: the nearest end.
            (0.25, 0.5), (0, 0.5), (-3, 0.5), (2.5, 2), (100, 2),
        ]
        for (value, expected) in table {
            set(unit, kTimePitchParam_Rate, value)
            #expect(get(unit, kTimePitchParam_Rate) == expected, "set \(value)")
        }
        set(unit, kTimePitchParam_Rate, 1.5)
        #expect(AudioUnitSetParameter(unit, kTimePitchParam_Rate, kAudioUnitScope_Global, 0, .nan, 0) == kAudioUnitErr_InvalidParameterValue)
        #expect(AudioUnitSetParameter(unit, kTimePitchParam_Rate, kAudioUnitScope_Global, 0, .infinity, 0) == kAudioUnitErr_InvalidParameterValue)
        #expect(get(unit, kTimePitchParam_Rate) == 1.5)  // unchanged by the refused calls
        #expect(AudioUnitSetParameter(unit, kTimePitchParam_Pitch, kAudioUnitScope_Global, 0, 1, 0) == kAudioUnitErr_InvalidParameter)
        #expect(AudioUnitSetParameter(unit, kTimePitchParam_Rate, kAudioUnitScope_Input, 0, 1, 0) == kAudioUnitErr_InvalidParameter)
        let i = info(unit, kTimePitchParam_Rate)
        #expect(i.minValue == 0.5 && i.maxValue == 2 && i.defaultValue == 1 && i.unit == .rate)
        #expect(i.flags.contains(.flag_IsReadable) && i.flags.contains(.flag_IsWritable))
    }

    /// At every QA1717 rate, N input frames make N/rate output frames: over 2 s of output the frames pulled
    /// from the source are 2 s x rate within one slice (512). Pulls never exceed MaximumFramesPerSlice and their
    /// sample times advance by the frames pulled. Both subtypes are the same unit.
    @Test(arguments: qa1717Rates)
    func iPodTimeDurationIsInputOverRate(rate: Float) throws {
        for description in [Self.iPodTime, Self.iPodTimeOther] {
            let source = ToneSource(frequency: 220)
            let unit = try makeUnit(description, source)
            defer { AudioComponentInstanceDispose(unit) }
            set(unit, kTimePitchParam_Rate, rate)
            #expect(AudioUnitInitialize(unit) == noErr)
            let (delta, deviation) = try pulledOverRendered(unit, source, frames: 88200, rate: Double(rate))
            print("AUiPodTime rate \(rate): 88200 output frames pulled \(delta) input frames, \(deviation) from N x rate")
            #expect(abs(deviation) <= 512, "rate \(rate): pulled \(delta)")
            #expect(source.largestPull <= 1156)
            #expect(source.timesContiguous)
        }
    }

    /// The pitch is kept: a 220 Hz harmonic tone comes out at 220 Hz within 1 cent at every rate.
    @Test(arguments: qa1717Rates)
    func iPodTimeKeepsPitch(rate: Float) throws {
        let source = ToneSource(frequency: 220)
        let unit = try makeUnit(Self.iPodTime, source, channels: 1)
        defer { AudioComponentInstanceDispose(unit) }
        set(unit, kTimePitchParam_Rate, rate)
        #expect(AudioUnitInitialize(unit) == noErr)
        var time = 0.0
        let out = try render(unit, 66150, channels: 1, at: &time).channels[0]
        let f = ToneFit.frequency(out[11025...], near: 220, span: 2, sampleRate: Self.fs)
        print("AUiPodTime rate \(rate): 220 Hz tone measured \(f) Hz, \(ToneFit.cents(f, 220)) cents")
        #expect(abs(ToneFit.cents(f, 220)) < 1, "rate \(rate): \(f) Hz")
    }

    /// At rate 1 (and pitch 0) the output is the input, undelayed (Latency 0), in both channels, for all three.
    @Test(arguments: [iPodTime, newTimePitch, varispeed])
    func rateOneIsTheInputUndelayed(description: AudioComponentDescription) throws {
        let source = ToneSource(frequency: 187)
        let unit = try makeUnit(description, source)
        defer { AudioComponentInstanceDispose(unit) }
        #expect(AudioUnitInitialize(unit) == noErr)
        #expect(seconds(unit, kAudioUnitProperty_Latency) == 0)
        #expect(seconds(unit, kAudioUnitProperty_TailTime) > 0)
        var time = 0.0
        let out = try render(unit, 20000, at: &time)
        for c in 0..<2 {
            let worst = out.channels[c].enumerated().map { abs($0.element - Double(Float(source.value(Double($0.offset))))) }.max()!
            #expect(worst < 1e-6, "channel \(c): \(worst)")
        }
    }

    /// Scheduled rates are rounded (AUiPodTime) or clamped (AUNewTimePitch) when the render reads them, and read
    /// back so.
    @Test func scheduledValuesAreRoundedAndClamped() throws {
        for (description, id, value, expected) in [(Self.iPodTime, kTimePitchParam_Rate, Float(1.3), Float(1.25)),
                                                   (Self.newTimePitch, kNewTimePitchParam_Rate, 50, 32),
                                                   (Self.newTimePitch, kNewTimePitchParam_Pitch, 3000, 2400)] {
            let source = ToneSource(frequency: 220)
            let unit = try makeUnit(description, source)
            defer { AudioComponentInstanceDispose(unit) }
            #expect(AudioUnitInitialize(unit) == noErr)
            var event = AudioUnitParameterEvent()
            event.scope = kAudioUnitScope_Global
            event.parameter = id
            event.eventType = .parameterEvent_Immediate
            event.eventValues.immediate.value = value
            #expect(AudioUnitScheduleParameters(unit, &event, 1) == noErr)
            var time = 0.0
            _ = try render(unit, 512, at: &time)
            #expect(get(unit, id) == expected)
        }
    }

    /// Changing the rate while playing does not click: a 500 Hz sine (amplitude 0.5) whose rate moves through
    /// every QA1717 rate every 10 slices never steps by more than 1.1 x the sine's own largest step.
    @Test func iPodTimeRateChangesAreClickFree() throws {
        let source = ToneSource(frequency: 500, harmonics: 1, amplitude: 0.5)
        let unit = try makeUnit(Self.iPodTime, source, channels: 1)
        defer { AudioComponentInstanceDispose(unit) }
        #expect(AudioUnitInitialize(unit) == noErr)
        var output: [Double] = []
        var time = 0.0
        let order: [Float] = [1, 2, 0.5, 1.5, 0.66667, 1.25, 0.8, 2, 0.8, 0.5, 1]
        for slice in 0..<(10 * order.count) {
            if slice % 10 == 0 { set(unit, kTimePitchParam_Rate, order[slice / 10]) }
            output += try render(unit, 256, channels: 1, at: &time).channels[0]
        }
        let sineStep = 0.5 * 2 * Double.pi * 500 / Self.fs
        let worst = zip(output.dropFirst(), output).map { abs($0 - $1) }.max()!
        print("AUiPodTime rate changes: largest step \(worst), sine's own \(sineStep)")
        #expect(worst < 1.1 * sineStep, "largest step \(worst)")
        #expect(output.suffix(2000).map(abs).max()! > 0.45)
    }

    /// AUNewTimePitch (rate and pitch changing) and AUVarispeed (rate changing, so the pitch too) are click-free as
    /// well: no step above 1.1 x the steepest step of the sine at the highest pitch reached.
    @Test(arguments: [kAudioUnitSubType_NewTimePitch, kAudioUnitSubType_Varispeed])
    func rateChangesAreClickFree(subType: OSType) throws {
        let source = ToneSource(frequency: 500, harmonics: 1, amplitude: 0.5)
        let unit = try makeUnit(Self.description(subType), source, channels: 1)
        defer { AudioComponentInstanceDispose(unit) }
        #expect(AudioUnitInitialize(unit) == noErr)
        let rates: [Float] = [1, 2, 0.5, 1.5, 0.7, 1.25, 0.8, 2, 1]
        let cents: [Float] = [0, 700, -1200, 300, 0, -500, 1200, 0, 0]
        var output: [Double] = []
        var time = 0.0
        for slice in 0..<(10 * rates.count) {
            if slice % 10 == 0 {
                if subType == kAudioUnitSubType_Varispeed {
                    set(unit, kVarispeedParam_PlaybackRate, rates[slice / 10])
                } else {
                    set(unit, kNewTimePitchParam_Rate, rates[slice / 10])
                    set(unit, kNewTimePitchParam_Pitch, cents[slice / 10])
                }
            }
            output += try render(unit, 256, channels: 1, at: &time).channels[0]
        }
        let highest = subType == kAudioUnitSubType_Varispeed ? 2.0 : pow(2, 1200.0 / 1200)
        let sineStep = 0.5 * 2 * Double.pi * 500 * highest / Self.fs
        let worst = zip(output.dropFirst(), output).map { abs($0 - $1) }.max()!
        print("\(OCAFormat.string(fromFourCharCode: subType)) rate changes: largest step \(worst), sine's own at the highest pitch \(sineStep)")
        #expect(worst < 1.1 * sineStep, "largest step \(worst)")
    }

    /// Formats: canonical Float32 with one or two channels, the same count and rate in and out.
    @Test(arguments: [iPodTime, newTimePitch, varispeed])
    func formatRules(description: AudioComponentDescription) throws {
        let unit = try TestSupport.newUnit(description)
        defer { AudioComponentInstanceDispose(unit) }
        // Three channels, or a non-canonical sample type, are refused when set.
        #expect(TestSupport.setFormat(unit, kAudioUnitScope_Input, 0, Self.canonical(3)) == kAudioUnitErr_FormatNotSupported)
        let int16 = OCAFormat.linearPCM(sampleRate: Self.fs, channels: 2, bitsPerChannel: 16, isFloat: false, isSignedInteger: true, interleaved: true)
        #expect(TestSupport.setFormat(unit, kAudioUnitScope_Output, 0, int16) == kAudioUnitErr_FormatNotSupported)
        // Different channel counts or sample rates: refused at initialize.
        #expect(TestSupport.setFormat(unit, kAudioUnitScope_Input, 0, Self.canonical(1)) == noErr)
        #expect(TestSupport.setFormat(unit, kAudioUnitScope_Output, 0, Self.canonical(2)) == noErr)
        #expect(AudioUnitInitialize(unit) == kAudioUnitErr_FormatNotSupported)
        #expect(TestSupport.setFormat(unit, kAudioUnitScope_Output, 0, Self.canonical(1, 48000)) == noErr)
        #expect(AudioUnitInitialize(unit) == kAudioUnitErr_FormatNotSupported)
        // Any common rate, mono or stereo.
        for rate in [8000.0, 22050, 44100, 48000, 96000] {
            for channels: UInt32 in [1, 2] {
                #expect(TestSupport.setFormat(unit, kAudioUnitScope_Input, 0, Self.canonical(channels, rate)) == noErr)
                #expect(TestSupport.setFormat(unit, kAudioUnitScope_Output, 0, Self.canonical(channels, rate)) == noErr)
                #expect(AudioUnitInitialize(unit) == noErr, "\(rate) Hz, \(channels) channels")
                #expect(AudioUnitUninitialize(unit) == noErr)
            }
        }
    }

    // MARK: AUNewTimePitch

    @Test func newTimePitchParameters() throws {
        let unit = try TestSupport.newUnit(Self.newTimePitch)
        defer { AudioComponentInstanceDispose(unit) }
        let expected: [(AudioUnitParameterID, Float, Float, Float, AudioUnitParameterUnit)] = [
            (kNewTimePitchParam_Rate, 1.0 / 32, 32, 1, .rate), (kNewTimePitchParam_Pitch, -2400, 2400, 0, .cents),
            (kNewTimePitchParam_Smoothness, 3, 32, 8, .generic), (kNewTimePitchParam_EnablePeakLocking, 0, 1, 1, .boolean),
            (kNewTimePitchParam_EnableTransientPreservation, 0, 1, 1, .boolean),
        ]
        for (id, lo, hi, value, u) in expected {
            let i = info(unit, id)
            #expect(i.minValue == lo && i.maxValue == hi && i.defaultValue == value && i.unit == u, "parameter \(id)")
            #expect(get(unit, id) == value)
        }
        var list = [AudioUnitParameterID](repeating: 0, count: 8)
        var size = UInt32(4 * list.count)
        #expect(AudioUnitGetProperty(unit, kAudioUnitProperty_ParameterList, kAudioUnitScope_Global, 0, &list, &size) == noErr)
        #expect(Array(list.prefix(Int(size) / 4)) == [0, 1, 4, 6, 7])
        // Out of range: accepted and clamped.
        set(unit, kNewTimePitchParam_Rate, 100)
        #expect(get(unit, kNewTimePitchParam_Rate) == 32)
        set(unit, kNewTimePitchParam_Pitch, -5000)
        #expect(get(unit, kNewTimePitchParam_Pitch) == -2400)
        set(unit, kNewTimePitchParam_Pitch, 700)
        #expect(get(unit, kNewTimePitchParam_Pitch) == 700)
        set(unit, kNewTimePitchParam_EnablePeakLocking, 0)
        #expect(get(unit, kNewTimePitchParam_EnableSpectralCoherence) == 0)
        #expect(seconds(unit, kAudioUnitProperty_Latency) == 0)
        #expect(abs(seconds(unit, kAudioUnitProperty_TailTime) - 0.02) < 1e-9)
    }

    /// Pitch +1200 cents at rate 1 doubles the tone's frequency and keeps the duration; rate 2 at pitch 0
    /// halves the duration and keeps the pitch; rate 0.5 at -500 cents does both.
    @Test(arguments: [(Float(1), Float(1200)), (2, 0), (0.5, -500), (1.5, 300)])
    func newTimePitchRateAndPitchAreIndependent(rate: Float, cents: Float) throws {
        let source = ToneSource(frequency: 220)
        let unit = try makeUnit(Self.newTimePitch, source)
        defer { AudioComponentInstanceDispose(unit) }
        set(unit, kNewTimePitchParam_Rate, rate)
        set(unit, kNewTimePitchParam_Pitch, cents)
        #expect(AudioUnitInitialize(unit) == noErr)
        let (delta, deviation) = try pulledOverRendered(unit, source, frames: 44100, rate: Double(rate))
        #expect(abs(deviation) <= 512, "rate \(rate): pulled \(delta)")
        var time = 0.0
        AudioUnitReset(unit, kAudioUnitScope_Global, 0)
        source.framesPulled = 0
        let out = try render(unit, 66150, at: &time).channels[0]
        let expected = 220 * pow(2, Double(cents) / 1200)
        let f = ToneFit.frequency(out[11025...], near: expected, span: 3, sampleRate: Self.fs)
        print("AUNewTimePitch rate \(rate) pitch \(cents): pulled \(delta) per 44100 (\(deviation) off), \(f) Hz for \(expected), \(ToneFit.cents(f, expected)) cents")
        #expect(abs(ToneFit.cents(f, expected)) < 1, "rate \(rate), \(cents) cents: \(f) Hz")
    }

    // MARK: AUVarispeed

    /// Rate and cents are two views of one setting: rate = 2^(cents/1200), both clamped to their ranges.
    @Test func varispeedRateAndCentsAreLinked() throws {
        let unit = try TestSupport.newUnit(Self.varispeed)
        defer { AudioComponentInstanceDispose(unit) }
        #expect(get(unit, kVarispeedParam_PlaybackRate) == 1 && get(unit, kVarispeedParam_PlaybackCents) == 0)
        let r = info(unit, kVarispeedParam_PlaybackRate), c = info(unit, kVarispeedParam_PlaybackCents)
        #expect(r.minValue == 0.25 && r.maxValue == 4 && r.defaultValue == 1 && r.unit == .rate)
        #expect(c.minValue == -2400 && c.maxValue == 2400 && c.defaultValue == 0 && c.unit == .cents)
        set(unit, kVarispeedParam_PlaybackRate, 2)
        #expect(abs(get(unit, kVarispeedParam_PlaybackCents) - 1200) < 1e-3)
        set(unit, kVarispeedParam_PlaybackCents, -1200)
        #expect(abs(get(unit, kVarispeedParam_PlaybackRate) - 0.5) < 1e-6)
        set(unit, kVarispeedParam_PlaybackCents, 700)
        #expect(abs(get(unit, kVarispeedParam_PlaybackRate) - Float(pow(2, 7.0 / 12))) < 1e-6)
        set(unit, kVarispeedParam_PlaybackRate, 1.5)
        #expect(abs(get(unit, kVarispeedParam_PlaybackCents) - Float(1200 * log2(1.5))) < 1e-3)
        set(unit, kVarispeedParam_PlaybackRate, 8)
        #expect(get(unit, kVarispeedParam_PlaybackRate) == 4 && abs(get(unit, kVarispeedParam_PlaybackCents) - 2400) < 1e-3)
        set(unit, kVarispeedParam_PlaybackCents, -9999)
        #expect(get(unit, kVarispeedParam_PlaybackCents) == -2400 && abs(get(unit, kVarispeedParam_PlaybackRate) - 0.25) < 1e-6)
        #expect(seconds(unit, kAudioUnitProperty_Latency) == 0)

        // A scheduled cents event moves the rate too (taken at the next render).
        let source = ToneSource(frequency: 220)
        #expect(TestSupport.setCallback(unit, 0, ToneSource.callback, source.refCon) == noErr)
        #expect(AudioUnitInitialize(unit) == noErr)
        set(unit, kVarispeedParam_PlaybackRate, 1)
        var time = 0.0
        _ = try render(unit, 1024, at: &time)
        var event = AudioUnitParameterEvent()
        event.scope = kAudioUnitScope_Global
        event.parameter = kVarispeedParam_PlaybackCents
        event.eventType = .parameterEvent_Immediate
        event.eventValues.immediate.value = 1200
        #expect(AudioUnitScheduleParameters(unit, &event, 1) == noErr)
        _ = try render(unit, 512, at: &time)
        #expect(abs(get(unit, kVarispeedParam_PlaybackRate) - 2) < 1e-6)
        let before = source.framesPulled
        _ = try render(unit, 44100, at: &time)
        #expect(abs(Double(source.framesPulled - before) - 88200) <= 512)
    }

    /// Rate r plays the tone r times higher in 1/r of the time (pure resampling).
    @Test(arguments: [Float(2), 0.5, 0.25, 1.5, 4])
    func varispeedRateScalesFrequencyAndDuration(rate: Float) throws {
        let source = ToneSource(frequency: 220, harmonics: 3)
        let unit = try makeUnit(Self.varispeed, source)
        defer { AudioComponentInstanceDispose(unit) }
        set(unit, kVarispeedParam_PlaybackRate, rate)
        #expect(AudioUnitInitialize(unit) == noErr)
        let (delta, deviation) = try pulledOverRendered(unit, source, frames: 44100, rate: Double(rate))
        #expect(abs(deviation) <= 512, "rate \(rate): pulled \(delta)")
        #expect(source.largestPull <= 1156 && source.timesContiguous)
        AudioUnitReset(unit, kAudioUnitScope_Global, 0)
        source.framesPulled = 0
        var time = 0.0
        let out = try render(unit, 44100, at: &time).channels[1]
        let expected = 220 * Double(rate)
        let f = ToneFit.frequency(out[4410...], near: expected, span: 3, sampleRate: Self.fs)
        print("AUVarispeed rate \(rate): pulled \(delta) per 44100 (\(deviation) off), \(f) Hz for \(expected), \(ToneFit.cents(f, expected)) cents")
        #expect(abs(ToneFit.cents(f, expected)) < 0.1, "rate \(rate): \(f) Hz")
    }
}
