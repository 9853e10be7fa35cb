import AudioDSP
import AudioToolbox
import Foundation
import Testing

/// The 3D (spatial) mixer: laws checked against closed forms written out here, not the unit's kernels.
@Suite struct SpatialMixerTests {
    static let spatial = AudioComponentDescription(componentType: kAudioUnitType_Mixer, componentSubType: kAudioUnitSubType_SpatialMixer,
                                                   componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
    static let rate = 44100.0
    static let mono = OCAFormat.linearPCM(sampleRate: rate, channels: 1, bitsPerChannel: 32, isFloat: true, isSignedInteger: false, interleaved: false)
    static let stereo = OCAFormat.linearPCM(sampleRate: rate, channels: 2, bitsPerChannel: 32, isFloat: true, isSignedInteger: false, interleaved: false)
    /// The reader's latency: output frame k plays input frame k·rate - 2.
    static let latency = 2

    /// A mixer with one input fed by `callback`, not yet initialized.
    func makeMixer(_ callback: AURenderCallback, _ refCon: UnsafeMutableRawPointer, format: AudioStreamBasicDescription = mono) throws -> AudioUnit {
        let unit = try TestSupport.newUnit(Self.spatial)
        #expect(TestSupport.setUInt32(unit, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, 1) == noErr)
        #expect(TestSupport.setFormat(unit, kAudioUnitScope_Input, 0, format) == noErr)
        #expect(TestSupport.setCallback(unit, 0, callback, refCon) == noErr)
        return unit
    }

    func set(_ unit: AudioUnit, _ id: AudioUnitParameterID, _ v: Float, scope: AudioUnitScope = kAudioUnitScope_Input) {
        #expect(AudioUnitSetParameter(unit, id, scope, 0, v, 0) == noErr)
    }

    func setAlgorithm(_ unit: AudioUnit, _ a: AUSpatializationAlgorithm) {
        #expect(TestSupport.setUInt32(unit, kAudioUnitProperty_SpatializationAlgorithm, kAudioUnitScope_Input, 0, a.rawValue) == noErr)
    }

    /// Renders `frames` and returns the last frame of each side (the sources here are constant).
    func settled(_ unit: AudioUnit, frames: Int = 1024) throws -> (Double, Double) {
        let out = try TestSupport.render(unit, format: Self.stereo, totalFrames: frames, slices: [512])
        return (out.channels[0].last!, out.channels[1].last!)
    }

    /// Equal-power panning: θ = (sin(az)·cos(el) + 1)·π/4, L = cos θ, R = sin θ; a source behind is its
    /// mirror image in front.
    @Test func equalPowerPanningLaw() throws {
        let source = ConstantSource(0.5)
        let unit = try makeMixer(ConstantSource.callback, Unmanaged.passUnretained(source).toOpaque())
        defer { AudioComponentInstanceDispose(unit) }
        #expect(AudioUnitInitialize(unit) == noErr)
        for (az, el) in [(0.0, 0.0), (90, 0), (-90, 0), (30, 0), (-45, 0), (150, 0), (180, 0), (90, 60), (45, 90)] as [(Double, Double)] {
            set(unit, kSpatialMixerParam_Azimuth, Float(az))
            set(unit, kSpatialMixerParam_Elevation, Float(el))
            let (l, r) = try settled(unit)
            let theta = (sin(az * .pi / 180) * cos(el * .pi / 180) + 1) * .pi / 4
            #expect(abs(l - 0.5 * cos(theta)) < 1e-6, "azimuth \(az) elevation \(el): left \(l)")
            #expect(abs(r - 0.5 * sin(theta)) < 1e-6, "azimuth \(az) elevation \(el): right \(r)")
        }
        // The two named cases of the issue: +90 is right only, 0 is equal on both sides.
        set(unit, kSpatialMixerParam_Elevation, 0)
        set(unit, kSpatialMixerParam_Azimuth, 90)
        let (l90, r90) = try settled(unit)
        #expect(abs(l90) < 1e-7 && abs(r90 - 0.5) < 1e-6)
        set(unit, kSpatialMixerParam_Azimuth, 0)
        let (l0, r0) = try settled(unit)
        #expect(l0 == r0)
    }

    /// Vector base panning for a ±30° pair: the tangent law inside the pair, one speaker outside it.
    @Test func vectorBasePanningFollowsTheTangentLaw() throws {
        let source = ConstantSource(1)
        let unit = try makeMixer(ConstantSource.callback, Unmanaged.passUnretained(source).toOpaque())
        defer { AudioComponentInstanceDispose(unit) }
        setAlgorithm(unit, .spatializationAlgorithm_VectorBasedPanning)
        #expect(AudioUnitInitialize(unit) == noErr)
        for az in [0.0, 10, -15, 25, 30, 60, -90] {
            set(unit, kSpatialMixerParam_Azimuth, Float(az))
            let (l, r) = try settled(unit)
            #expect(abs(l * l + r * r - 1) < 1e-5, "power at \(az)")
            let clamped = min(max(az, -30), 30)
            let expected = tan(clamped * .pi / 180) / tan(30 * Double.pi / 180)
            #expect(abs((r - l) / (r + l) - expected) < 1e-5, "tangent law at \(az): \(l) \(r)")
        }
    }

    /// Input gain in dB, the distance curves with MixerDistanceParams and the rolloff, MinGain and MaxGain.
    @Test func distanceAttenuationFollowsTheConfiguredCurve() throws {
        let source = ConstantSource(1)
        let unit = try makeMixer(ConstantSource.callback, Unmanaged.passUnretained(source).toOpaque())
        defer { AudioComponentInstanceDispose(unit) }
        setAlgorithm(unit, .spatializationAlgorithm_StereoPassThrough)  // L = R = gain: the law alone
        var params = MixerDistanceParams(mReferenceDistance: 2, mMaxDistance: 50, mMaxAttenuation: 40)
        #expect(AudioUnitSetProperty(unit, kAudioUnitProperty_3DMixerDistanceParams, kAudioUnitScope_Input, 0, &params,
                                     UInt32(MemoryLayout<MixerDistanceParams>.size)) == noErr)
        #expect(AudioUnitInitialize(unit) == noErr)
        let floor = pow(10, -40.0 / 20)
        func expected(_ curve: AUSpatialMixerAttenuationCurve, _ distance: Double, _ rolloff: Double) -> Double {
            let d = min(max(distance, 2), 50)
            let g: Double
            switch curve {
            case .spatialMixerAttenuationCurve_Power: g = pow(2 / d, rolloff)
            case .spatialMixerAttenuationCurve_Exponential: g = pow(2, -rolloff * (d - 2) / 2)
            case .spatialMixerAttenuationCurve_Inverse: g = 2 / (2 + rolloff * (d - 2))
            default: g = max(1 - rolloff * (d - 2) / 48, 0)
            }
            return max(g, floor)
        }
        let curves: [AUSpatialMixerAttenuationCurve] = [.spatialMixerAttenuationCurve_Power, .spatialMixerAttenuationCurve_Exponential,
                                                        .spatialMixerAttenuationCurve_Inverse, .spatialMixerAttenuationCurve_Linear]
        for curve in curves {
            #expect(TestSupport.setUInt32(unit, kAudioUnitProperty_3DMixerAttenuationCurve, kAudioUnitScope_Input, 0, curve.rawValue) == noErr)
            for rolloff in [1.0, 0.5, 2] {
                var r = rolloff
                #expect(AudioUnitSetProperty(unit, kAudioUnitProperty_3DMixerDistanceAtten, kAudioUnitScope_Input, 0, &r, 8) == noErr)
                for distance in [0.5, 2, 3, 4, 8, 16, 49, 1000] {
                    set(unit, kSpatialMixerParam_Distance, Float(distance))
                    let (l, r) = try settled(unit, frames: 2048)
                    let want = expected(curve, distance, rolloff)
                    #expect(abs(l - want) < 1e-5 * max(want, 0.01) + 1e-7 && l == r, "curve \(curve.rawValue) rolloff \(rolloff) distance \(distance): \(l) vs \(want)")
                }
            }
        }
        // Power law, rolloff 1: -6.02 dB per doubling, then input gain in dB and the clamps.
        #expect(TestSupport.setUInt32(unit, kAudioUnitProperty_3DMixerAttenuationCurve, kAudioUnitScope_Input, 0, 0) == noErr)
        var one = 1.0
        #expect(AudioUnitSetProperty(unit, kAudioUnitProperty_3DMixerDistanceAtten, kAudioUnitScope_Input, 0, &one, 8) == noErr)
        set(unit, kSpatialMixerParam_Distance, 8)
        set(unit, kSpatialMixerParam_Gain, -6)
        #expect(abs(try settled(unit, frames: 2048).0 - 0.25 * pow(10, -6.0 / 20)) < 1e-6)
        set(unit, kSpatialMixerParam_MinGain, 0.5)
        #expect(abs(try settled(unit, frames: 2048).0 - 0.5) < 1e-6)
        set(unit, kSpatialMixerParam_Distance, 0)
        set(unit, kSpatialMixerParam_Gain, 20)
        set(unit, kSpatialMixerParam_MaxGain, 3)
        #expect(abs(try settled(unit, frames: 2048).0 - 3) < 1e-5)
        // Distance attenuation off: distance has no effect.
        set(unit, kSpatialMixerParam_Gain, 0)
        set(unit, kSpatialMixerParam_Distance, 40)
        #expect(TestSupport.setUInt32(unit, kAudioUnitProperty_3DMixerRenderingFlags, kAudioUnitScope_Input, 0, 0) == noErr)
        #expect(abs(try settled(unit, frames: 2048).0 - 1) < 1e-6)
    }

    /// Playback rate 2 plays the input twice as fast: N output frames consume 2N input frames, the pitch
    /// doubles, and the samples are the input's at k·2 - 2 (whole positions: exact). Rate 0.5 the opposite.
    @Test func playbackRateResamples() throws {
        for playbackRate in [2.0, 0.5, 1.25] {
            let sine = SineSource(frequency: 441, amplitude: 0.5, format: Self.mono)
            let unit = try makeMixer(SineSource.callback, sine.refCon)
            defer { AudioComponentInstanceDispose(unit) }
            setAlgorithm(unit, .spatializationAlgorithm_StereoPassThrough)
            set(unit, kSpatialMixerParam_PlaybackRate, Float(playbackRate))
            #expect(AudioUnitInitialize(unit) == noErr)
            let frames = 44100
            let out = try TestSupport.render(unit, format: Self.stereo, totalFrames: frames, slices: [512, 300, 1024])
            let consumed = sine.lastTimeStamp.mSampleTime
            #expect(abs(consumed - Double(frames) * playbackRate) < 1030 * playbackRate + 3, "rate \(playbackRate): consumed \(consumed)")
            var worst = 0.0
            for k in 8..<frames {
                let position = Double(k) * playbackRate - Double(Self.latency)
                worst = max(worst, abs(out.channels[0][k] - sine.value(channel: 0, frame: position)))
            }
            // Hermite interpolation of a 441 Hz sine: exact at whole positions, within 1e-4 between them.
            #expect(worst < (playbackRate == 2 ? 1e-6 : 1e-4), "rate \(playbackRate): worst error \(worst)")
            let measured = out.channels[0][100...].map { Float($0) }.withUnsafeBufferPointer {
                SignalMeasurement.zeroCrossingFrequency($0, sampleRate: Self.rate)
            }
            #expect(abs((measured ?? 0) - 441 * playbackRate) < 0.5, "rate \(playbackRate): \(measured ?? 0) Hz")
        }
    }

    /// Brown-Duda spherical head at azimuth +90: the right (near) ear leads by (a/c)(1 + π/2) and the
    /// shadow filters' magnitudes and phases are those of H(s) = (1 + α s/2ω0)/(1 + s/2ω0) at the
    /// bilinear-warped frequency, α = 1.05 + 0.95 cos(θ·180/150).
    @Test func sphericalHeadDelaysAndShadowsTheFarEar() throws {
        let a = 0.0875, c = 343.0, w0 = c / a
        func analog(_ theta: Double, _ f: Double) -> (mag: Double, phase: Double) {
            let omega = 2 * Self.rate * tan(Double.pi * f / Self.rate)       // bilinear frequency warping
            let alpha = 1.05 + 0.95 * cos(theta * 180 / 150)
            let num = (1.0, alpha * omega / (2 * w0)), den = (1.0, omega / (2 * w0))
            return ((num.0 * num.0 + num.1 * num.1).squareRoot() / (den.0 * den.0 + den.1 * den.1).squareRoot(),
                    atan2(num.1, num.0) - atan2(den.1, den.0))
        }
        for f in [500.0, 4000] {
            let sine = SineSource(frequency: f, amplitude: 0.5, format: Self.mono)
            let unit = try makeMixer(SineSource.callback, sine.refCon)
            defer { AudioComponentInstanceDispose(unit) }
            setAlgorithm(unit, .spatializationAlgorithm_SphericalHead)
            set(unit, kSpatialMixerParam_Azimuth, 90)
            #expect(AudioUnitInitialize(unit) == noErr)
            let out = try TestSupport.render(unit, format: Self.stereo, totalFrames: 44100, slices: [512])
            // Amplitude and phase of each ear by correlation over whole periods after the filters settle.
            func fit(_ x: [Double]) -> (Double, Double) {
                let start = 4410, count = Int((Double(44100 - start) * f / Self.rate).rounded(.down) * Self.rate / f)
                var s = 0.0, co = 0.0
                for k in start..<(start + count) {
                    let w = 2 * Double.pi * f * Double(k) / Self.rate
                    s += x[k] * sin(w); co += x[k] * cos(w)
                }
                return (2 * (s * s + co * co).squareRoot() / Double(count), atan2(co, s))
            }
            let (ampL, phaseL) = fit(out.channels[0]), (ampR, phaseR) = fit(out.channels[1])
            // The far ear's delay is read by linear interpolation: D whole frames, then (1 - fr) + fr·z^-1.
            let delay = a / c * (1 + Double.pi / 2) * Self.rate, whole = delay.rounded(.down), fr = delay - whole
            let w = 2 * Double.pi * f / Self.rate
            let interp = (re: 1 - fr + fr * cos(w), im: -fr * sin(w))
            let interpMag = (interp.re * interp.re + interp.im * interp.im).squareRoot(), interpPhase = atan2(interp.im, interp.re)
            let hL = analog(Double.pi, f), hR = analog(0, f)
            let ratio = hR.mag / (hL.mag * interpMag)
            #expect(abs(ampR / ampL - ratio) < 1e-3 * ratio, "\(f) Hz: level ratio \(ampR / ampL) vs \(ratio)")
            #expect(ampR > ampL)
            // Right leads by the interaural time difference (a/c)(1 + π/2) ≈ 0.656 ms.
            let expected = w * whole - interpPhase + hR.phase - hL.phase
            let measured = phaseR - phaseL
            #expect(abs(remainder(measured - expected, 2 * Double.pi)) < 2e-3, "\(f) Hz: phase \(measured) vs \(expected)")
        }
    }

    /// A spherical-head source jumping between hard left and hard right (each ear's delay changes by 29 frames,
    /// ramped over the 256-frame slice), with its playback rate jumping too, stays click-free: no step between
    /// samples larger than a 500 Hz sine's steepest slope allows. An unramped delay jump would step by ~0.8.
    @Test func movingSourceAndRateChangesAreClickFree() throws {
        let sine = SineSource(frequency: 500, amplitude: 0.5, format: Self.mono)
        let unit = try makeMixer(SineSource.callback, sine.refCon)
        defer { AudioComponentInstanceDispose(unit) }
        setAlgorithm(unit, .spatializationAlgorithm_SphericalHead)
        #expect(AudioUnitInitialize(unit) == noErr)
        var output: [[Double]] = [[], []]
        for slice in 0..<172 {
            set(unit, kSpatialMixerParam_Azimuth, (slice / 10) % 2 == 0 ? -90 : 90)
            if slice % 40 == 20 { set(unit, kSpatialMixerParam_PlaybackRate, slice % 80 == 20 ? 1.5 : 1) }
            let out = try TestSupport.render(unit, format: Self.stereo, totalFrames: 256, slices: [256], startTime: Double(slice * 256))
            output[0] += out.channels[0]; output[1] += out.channels[1]
        }
        // Steepest slope: amplitude x shadow gain (at most 2) x 2π f x rate x (1 + delay ramp) / sample rate.
        let bound = 0.5 * 2 * 2 * Double.pi * 500 * 1.5 * (1 + 29.0 / 256) / Self.rate
        for side in output {
            let worst = zip(side.dropFirst(), side).map { abs($0 - $1) }.max()!
            #expect(worst < bound, "largest step \(worst), bound \(bound)")
            #expect(side.map(abs).max()! > 0.2)
        }
    }

    @Test func disabledInputsAreSilentAndNotPulled() throws {
        let source = ConstantSource(0.5)
        let unit = try makeMixer(ConstantSource.callback, Unmanaged.passUnretained(source).toOpaque())
        defer { AudioComponentInstanceDispose(unit) }
        set(unit, kSpatialMixerParam_Enable, 0)
        #expect(AudioUnitInitialize(unit) == noErr)
        let out = try TestSupport.render(unit, format: Self.stereo, totalFrames: 2048, slices: [512])
        #expect(source.pulls == 0)
        #expect(out.channels.allSatisfy { $0.allSatisfy { $0 == 0 } })
        set(unit, kSpatialMixerParam_Enable, 1)
        _ = try TestSupport.render(unit, format: Self.stereo, totalFrames: 2048, slices: [512])
        #expect(source.pulls == 4)
    }

    /// Output meters (k3DMixerParam_* + channel) equal the slice's RMS and peak in dB; output Gain in dB.
    @Test func outputGainAndMeters() throws {
        let sine = SineSource(frequency: 1000, amplitude: 0.5, format: Self.mono)
        let unit = try makeMixer(SineSource.callback, sine.refCon)
        defer { AudioComponentInstanceDispose(unit) }
        set(unit, kSpatialMixerParam_Azimuth, 90)
        set(unit, kSpatialMixerParam_Gain, -6.0206, scope: kAudioUnitScope_Output)
        #expect(TestSupport.setUInt32(unit, kAudioUnitProperty_MeteringMode, kAudioUnitScope_Output, 0, 1) == noErr)
        #expect(AudioUnitInitialize(unit) == noErr)
        let out = try TestSupport.render(unit, format: Self.stereo, totalFrames: 44100, slices: [441])
        let last = out.channels[1].suffix(441)
        #expect(abs(last.map { abs($0) }.max()! - 0.25) < 1e-3)
        var value: Float = 0
        #expect(AudioUnitGetParameter(unit, k3DMixerParam_PostAveragePower + 1, kAudioUnitScope_Output, 0, &value) == noErr)
        let rms = (last.map { $0 * $0 }.reduce(0, +) / Double(last.count)).squareRoot()
        #expect(abs(Double(value) - 20 * log10(rms)) < 0.01)
        #expect(AudioUnitGetParameter(unit, k3DMixerParam_PrePeakHoldLevel + 1, kAudioUnitScope_Output, 0, &value) == noErr)
        #expect(abs(Double(value) - 20 * log10(0.5)) < 0.01)
        #expect(AudioUnitGetParameter(unit, k3DMixerParam_PrePeakHoldLevel, kAudioUnitScope_Output, 0, &value) == noErr)
        #expect(value == -120)  // azimuth +90: nothing on the left
    }

    @Test func propertiesFormatsAndParameterInfo() throws {
        let unit = try TestSupport.newUnit(Self.spatial)
        defer { AudioComponentInstanceDispose(unit) }
        #expect(TestSupport.getUInt32(unit, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0).1 == 8)
        #expect(TestSupport.format(unit, kAudioUnitScope_Input, 5).mChannelsPerFrame == 1)
        #expect(TestSupport.format(unit, kAudioUnitScope_Output, 0).mChannelsPerFrame == 2)
        let quad = OCAFormat.linearPCM(sampleRate: Self.rate, channels: 4, bitsPerChannel: 32, isFloat: true, isSignedInteger: false, interleaved: false)
        #expect(TestSupport.setFormat(unit, kAudioUnitScope_Output, 0, quad) == kAudioUnitErr_FormatNotSupported)
        #expect(TestSupport.getUInt32(unit, kAudioUnitProperty_SpatializationAlgorithm, kAudioUnitScope_Input, 3).1
                == AUSpatializationAlgorithm.spatializationAlgorithm_EqualPowerPanning.rawValue)
        for refused in [AUSpatializationAlgorithm.spatializationAlgorithm_SoundField] {
            #expect(TestSupport.setUInt32(unit, kAudioUnitProperty_SpatializationAlgorithm, kAudioUnitScope_Input, 0, refused.rawValue) == kAudioUnitErr_InvalidPropertyValue)
        }
        #expect(TestSupport.setUInt32(unit, kAudioUnitProperty_SpatializationAlgorithm, kAudioUnitScope_Global, 0, 1) == kAudioUnitErr_InvalidScope)
        #expect(TestSupport.setUInt32(unit, kAudioUnitProperty_SpatializationAlgorithm, kAudioUnitScope_Input, 8, 1) == kAudioUnitErr_InvalidElement)
        let flags = TestSupport.getUInt32(unit, kAudioUnitProperty_3DMixerRenderingFlags, kAudioUnitScope_Input, 0).1
        #expect(AU3DMixerRenderingFlags(rawValue: flags) == [.k3DMixerRenderingFlags_InterAuralDelay, .k3DMixerRenderingFlags_DistanceAttenuation])
        #expect(TestSupport.setUInt32(unit, kAudioUnitProperty_3DMixerRenderingFlags, kAudioUnitScope_Input, 0,
                                      AU3DMixerRenderingFlags.k3DMixerRenderingFlags_DopplerShift.rawValue) == kAudioUnitErr_InvalidPropertyValue)
        var bad = MixerDistanceParams(mReferenceDistance: 0, mMaxDistance: 10, mMaxAttenuation: 0)
        #expect(AudioUnitSetProperty(unit, kAudioUnitProperty_3DMixerDistanceParams, kAudioUnitScope_Input, 0, &bad, 12) == kAudioUnitErr_InvalidPropertyValue)
        var params = MixerDistanceParams()
        var size: UInt32 = 12
        #expect(AudioUnitGetProperty(unit, kAudioUnitProperty_3DMixerDistanceParams, kAudioUnitScope_Input, 0, &params, &size) == noErr)
        #expect(params.mReferenceDistance == 1 && params.mMaxDistance == 10_000)
        var info = AudioUnitParameterInfo()
        size = UInt32(MemoryLayout<AudioUnitParameterInfo>.size)
        let expected: [(AudioUnitParameterID, Float, Float, Float, AudioUnitParameterUnit)] = [
            (kSpatialMixerParam_Azimuth, -180, 180, 0, .degrees), (kSpatialMixerParam_Elevation, -90, 90, 0, .degrees),
            (kSpatialMixerParam_Distance, 0, 10_000, 0, .meters), (kSpatialMixerParam_Gain, -120, 20, 0, .decibels),
            (kSpatialMixerParam_PlaybackRate, 0.5, 2, 1, .rate), (kSpatialMixerParam_Enable, 0, 1, 1, .boolean),
        ]
        for (id, lo, hi, def, unitKind) in expected {
            #expect(AudioUnitGetProperty(unit, kAudioUnitProperty_ParameterInfo, kAudioUnitScope_Input, id, &info, &size) == noErr)
            #expect(info.minValue == lo && info.maxValue == hi && info.defaultValue == def && info.unit == unitKind, "parameter \(id)")
        }
        // Occlusion is not implemented: its parameter does not exist.
        var value: Float = 0
        #expect(AudioUnitGetParameter(unit, kSpatialMixerParam_OcclusionAttenuation, kAudioUnitScope_Input, 0, &value) == kAudioUnitErr_InvalidParameter)
        // Input rates up to twice the output's are converted; beyond that initialize refuses.
        var rate = 96000.0
        #expect(AudioUnitSetProperty(unit, kAudioUnitProperty_SampleRate, kAudioUnitScope_Input, 0, &rate, 8) == noErr)
        #expect(AudioUnitInitialize(unit) == kAudioUnitErr_FormatNotSupported)
    }

    /// An input at 22050 Hz mixed into a 44100 Hz output plays at its own speed (the reader converts).
    @Test func convertsTheInputSampleRate() throws {
        let format = OCAFormat.linearPCM(sampleRate: 22050, channels: 1, bitsPerChannel: 32, isFloat: true, isSignedInteger: false, interleaved: false)
        let sine = SineSource(frequency: 441, amplitude: 0.5, format: format)
        let unit = try makeMixer(SineSource.callback, sine.refCon, format: format)
        defer { AudioComponentInstanceDispose(unit) }
        setAlgorithm(unit, .spatializationAlgorithm_StereoPassThrough)
        #expect(AudioUnitInitialize(unit) == noErr)
        let out = try TestSupport.render(unit, format: Self.stereo, totalFrames: 44100, slices: [512])
        let measured = out.channels[0][100...].map { Float($0) }.withUnsafeBufferPointer {
            SignalMeasurement.zeroCrossingFrequency($0, sampleRate: Self.rate)
        }
        #expect(abs((measured ?? 0) - 441) < 0.5)
        #expect(abs(sine.lastTimeStamp.mSampleTime - 22050) < 600)
    }

    /// AUMerger: the two inputs summed into the output.
    /// AudioUnitReset returns every input to its state at initialize (reader window, head delay line, gains): what
    /// the mixer renders after a reset is what a freshly initialized one renders, sample for sample.
    @Test func resetRendersAsFreshlyInitialized() throws {
        func rendered(resetFirst: Bool) throws -> [[Double]] {
            let sine = SineSource(frequency: 441, amplitude: 0.5, format: Self.mono)
            let unit = try makeMixer(SineSource.callback, sine.refCon)
            defer { AudioComponentInstanceDispose(unit) }
            setAlgorithm(unit, .spatializationAlgorithm_SphericalHead)
            set(unit, kSpatialMixerParam_Azimuth, 60)
            set(unit, kSpatialMixerParam_PlaybackRate, 1.25)
            #expect(AudioUnitInitialize(unit) == noErr)
            if resetFirst {
                _ = try TestSupport.render(unit, format: Self.stereo, totalFrames: 3000, slices: [512, 300])
                #expect(AudioUnitReset(unit, kAudioUnitScope_Global, 0) == noErr)
            }
            return try TestSupport.render(unit, format: Self.stereo, totalFrames: 4096, slices: [512, 300, 1024]).channels
        }
        let fresh = try rendered(resetFirst: false), afterReset = try rendered(resetFirst: true)
        #expect(fresh[0].contains { $0 != 0 } && fresh[1].contains { $0 != 0 })
        #expect(afterReset == fresh)
    }

    @Test func mergerSumsTwoInputs() throws {
        let merger = AudioComponentDescription(componentType: kAudioUnitType_FormatConverter, componentSubType: kAudioUnitSubType_Merger,
                                               componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        let unit = try TestSupport.newUnit(merger)
        defer { AudioComponentInstanceDispose(unit) }
        let a = ConstantSource(0.25), b = ConstantSource(-0.125)
        #expect(TestSupport.setCallback(unit, 0, ConstantSource.callback, Unmanaged.passUnretained(a).toOpaque()) == noErr)
        #expect(AudioUnitInitialize(unit) == noErr)
        #expect(try TestSupport.render(unit, format: Self.stereo, totalFrames: 512, slices: [512]).channels[1].allSatisfy { $0 == 0.25 })
        #expect(TestSupport.setCallback(unit, 1, ConstantSource.callback, Unmanaged.passUnretained(b).toOpaque()) == noErr)
        #expect(try TestSupport.render(unit, format: Self.stereo, totalFrames: 512, slices: [512]).channels[0].allSatisfy { $0 == 0.125 })
        #expect(AudioUnitUninitialize(unit) == noErr)
        #expect(TestSupport.setFormat(unit, kAudioUnitScope_Input, 1, Self.mono) == noErr)
        #expect(AudioUnitInitialize(unit) == kAudioUnitErr_FormatNotSupported)
    }
}
