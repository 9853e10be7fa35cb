import AudioDSP
import AudioToolbox
import Foundation
import Testing

/// The 3D mixer's internal reverb: off, or at a blend of 0, the mix is exactly what it was; at a full blend the mix is
/// AUReverb2's wet signal for the same room fed the same send; the blend is an equal-power crossfade; the return gain
/// and the room's decay are as set.
@Suite struct SpatialMixerReverbTests {
    static let rate = 44100.0
    static let mono = OCAFormat.canonical(sampleRate: rate, channels: 1)
    static let stereo = OCAFormat.canonical(sampleRate: rate, channels: 2)
    /// The mixer's reader delays its input by 2 frames.
    static let latency = 2

    /// Half a second of seeded noise after an impulse.
    static let burst: [Float] = {
        var x: UInt32 = 2024
        return [1] + (0..<22050).map { _ in
            x = x &* 1_664_525 &+ 1_013_904_223
            return Float(Int32(bitPattern: x)) / Float(Int32.max) * 0.25
        }
    }()

    /// `frames` of the mixer's output for a mono input playing `signal` straight ahead (equal-power panning).
    func mix(_ signal: [Float], reverb: Bool? = nil, blend: Float = 0, room: UInt32? = nil, returnGain: Float? = nil,
             lowPass: Float? = nil, frames: Int) throws -> [[Double]] {
        let unit = try TestSupport.newUnit(SpatialMixerTests.spatial)
        defer { AudioComponentInstanceDispose(unit) }
        #expect(TestSupport.setUInt32(unit, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, 1) == noErr)
        #expect(TestSupport.setFormat(unit, kAudioUnitScope_Input, 0, Self.mono) == noErr)
        if let reverb { #expect(TestSupport.setUInt32(unit, kAudioUnitProperty_UsesInternalReverb, kAudioUnitScope_Global, 0, reverb ? 1 : 0) == noErr) }
        if let room { #expect(TestSupport.setUInt32(unit, kAudioUnitProperty_ReverbRoomType, kAudioUnitScope_Global, 0, room) == noErr) }
        #expect(AudioUnitSetParameter(unit, kSpatialMixerParam_ReverbBlend, kAudioUnitScope_Input, 0, blend, 0) == noErr)
        if let returnGain { #expect(AudioUnitSetParameter(unit, kSpatialMixerParam_GlobalReverbGain, kAudioUnitScope_Global, 0, returnGain, 0) == noErr) }
        if let lowPass {
            #expect(AUSpatialMixerSetReverbFilter(unit, type: kAUNBandEQFilterType_2ndOrderButterworthLowPass, frequency: lowPass,
                                                  bandwidth: 1, gain: 0, bypass: false) == noErr)
        }
        #expect(AudioUnitInitialize(unit) == noErr)
        let source = EffectTestSupport.Source([signal])
        return try withExtendedLifetime(source) {
            TestSupport.setCallback(unit, 0, EffectTestSupport.sourceCallback, Unmanaged.passUnretained(source).toOpaque())
            return try TestSupport.render(unit, format: Self.stereo, totalFrames: frames, slices: [512, 300]).channels
        }
    }

    static func largestDifference(_ a: [[Double]], _ b: [[Double]]) -> Double {
        zip(a, b).map { zip($0, $1).map { abs($0 - $1) }.max()! }.max()!
    }

    @Test func offOrDryTheMixIsUnchanged() throws {
        let plain = try mix(Self.burst, frames: 30000)
        #expect(try mix(Self.burst, reverb: false, blend: 100, frames: 30000) == plain)
        #expect(try mix(Self.burst, reverb: true, blend: 0, frames: 30000) == plain)
        #expect(plain[0].map(abs).max()! > 0.5)
    }

    @Test func fullBlendIsAUReverb2sWetSignal() throws {
        let frames = Int(2.5 * Self.rate)
        let wet = try mix(Self.burst, reverb: true, blend: 100, room: 4, frames: frames)
        let reverb2 = try EffectTestSupport.newEffect(kAudioUnitSubType_Reverb2)
        defer { AudioComponentInstanceDispose(reverb2) }
        #expect(TestSupport.setUInt32(reverb2, kAudioUnitProperty_ReverbRoomType, kAudioUnitScope_Global, 0, 4) == noErr)
        EffectTestSupport.setParameter(reverb2, kReverb2Param_DryWetMix, 100)
        #expect(AudioUnitInitialize(reverb2) == noErr)
        let delayed = [Float](repeating: 0, count: Self.latency) + Self.burst
        let expected = try EffectTestSupport.process(reverb2, [delayed, delayed], frames: frames, slices: [512, 300])
        let peak = expected.map { $0.map(abs).max()! }.max()!
        #expect(peak > 0.05)
        let difference = Self.largestDifference(wet, expected)
        #expect(difference < 1e-5 * max(peak, 1), "largest difference \(difference), peak \(peak)")
        // The tail rings on after the burst (it ends at 0.5 s).
        #expect(EffectTestSupport.rms(wet[0][Int(1.0 * Self.rate)..<Int(1.1 * Self.rate)]) > 1e-3)
    }

    @Test func theBlendIsAnEqualPowerCrossfade() throws {
        let frames = 20000
        let dry = try mix(Self.burst, frames: frames)
        let wet = try mix(Self.burst, reverb: true, blend: 100, frames: frames)
        let half = try mix(Self.burst, reverb: true, blend: 50, frames: frames)
        let g = Double(cosf(.pi / 4))
        let expected = zip(dry, wet).map { d, w in zip(d, w).map { g * $0 + g * $1 } }
        let difference = Self.largestDifference(half, expected)
        #expect(difference < 1e-5, "largest difference \(difference)")
    }

    @Test func returnGainScalesTheReverb() throws {
        let frames = 20000
        let unity = try mix(Self.burst, reverb: true, blend: 100, frames: frames)
        let doubled = try mix(Self.burst, reverb: true, blend: 100, returnGain: 6.0206, frames: frames)
        let expected = unity.map { $0.map { 2 * $0 } }
        let peak = unity[0].map(abs).max()!
        #expect(Self.largestDifference(doubled, expected) < 1e-4 * peak)
    }

    /// The return filter (the environment node's reverbParameters.filterParameters): a 1 kHz Butterworth low-pass on
    /// the return gives the unfiltered return through that filter, designed here from the cookbook formulas.
    @Test func theReturnFilterFiltersTheReverb() throws {
        let frames = 20000
        let plain = try mix(Self.burst, reverb: true, blend: 100, frames: frames)
        let filtered = try mix(Self.burst, reverb: true, blend: 100, lowPass: 1000, frames: frames)
        let w = 2 * Double.pi * 1000 / Self.rate, alpha = sin(w) / (2 * (1 / 2.0.squareRoot()))
        let a0 = 1 + alpha
        let b0 = (1 - cos(w)) / 2 / a0, b1 = (1 - cos(w)) / a0, b2 = b0, a1 = -2 * cos(w) / a0, a2 = (1 - alpha) / a0
        let expected = plain.map { x -> [Double] in
            var y: [Double] = [], x1 = 0.0, x2 = 0.0, y1 = 0.0, y2 = 0.0
            for v in x {
                let out = b0 * v + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
                x2 = x1; x1 = v; y2 = y1; y1 = out
                y.append(out)
            }
            return y
        }
        let peak = plain[0].map(abs).max()!
        #expect(Self.largestDifference(filtered, expected) < 1e-4 * peak, "largest difference \(Self.largestDifference(filtered, expected))")
        #expect(EffectTestSupport.rms(filtered[0][...]) < 0.8 * EffectTestSupport.rms(plain[0][...]))
    }

    @Test(arguments: [UInt32(0), 4])
    func theRoomSetsTheDecay(_ room: UInt32) throws {
        let documented = ReverbRoomPreset(roomType: Int(room))!.decayTimeAt0Hz
        let ir = try mix([1], reverb: true, blend: 100, room: room, frames: Int((documented * 1.5 + 0.2) * Self.rate))[0]
        let measured = EffectTestSupport.rt60(ir, rate: Self.rate, lowPass: 300)
        #expect(abs(measured / documented - 1) < 0.2, "room \(room): measured \(measured) s, documented \(documented) s")
    }

    @Test func propertiesAndParameters() throws {
        let unit = try TestSupport.newUnit(SpatialMixerTests.spatial)
        defer { AudioComponentInstanceDispose(unit) }
        #expect(TestSupport.getUInt32(unit, kAudioUnitProperty_UsesInternalReverb, kAudioUnitScope_Global, 0).1 == 0)
        #expect(TestSupport.getUInt32(unit, kAudioUnitProperty_ReverbRoomType, kAudioUnitScope_Global, 0).1
                == AUReverbRoomType.reverbRoomType_MediumHall.rawValue)
        #expect(TestSupport.setUInt32(unit, kAudioUnitProperty_ReverbRoomType, kAudioUnitScope_Global, 0, 13) == kAudioUnitErr_InvalidPropertyValue)
        var tail: Float64 = 0
        var size: UInt32 = 8
        #expect(AudioUnitGetProperty(unit, kAudioUnitProperty_TailTime, kAudioUnitScope_Global, 0, &tail, &size) == noErr)
        #expect(tail < 0.01)
        #expect(TestSupport.setUInt32(unit, kAudioUnitProperty_UsesInternalReverb, kAudioUnitScope_Global, 0, 1) == noErr)
        #expect(TestSupport.getUInt32(unit, kAudioUnitProperty_UsesInternalReverb, kAudioUnitScope_Global, 0).1 == 1)
        #expect(AudioUnitGetProperty(unit, kAudioUnitProperty_TailTime, kAudioUnitScope_Global, 0, &tail, &size) == noErr)
        #expect(tail > ReverbRoomPreset(roomType: 3)!.decayTimeAt0Hz)
        var info = AudioUnitParameterInfo()
        size = UInt32(MemoryLayout<AudioUnitParameterInfo>.size)
        #expect(AudioUnitGetProperty(unit, kAudioUnitProperty_ParameterInfo, kAudioUnitScope_Input, kSpatialMixerParam_ReverbBlend, &info, &size) == noErr)
        #expect(info.minValue == 0 && info.maxValue == 100 && info.defaultValue == 0 && info.unit == .percent)
        #expect(AudioUnitGetProperty(unit, kAudioUnitProperty_ParameterInfo, kAudioUnitScope_Global, kSpatialMixerParam_GlobalReverbGain, &info, &size) == noErr)
        #expect(info.minValue == -40 && info.maxValue == 40 && info.defaultValue == 0 && info.unit == .decibels)
    }
}
