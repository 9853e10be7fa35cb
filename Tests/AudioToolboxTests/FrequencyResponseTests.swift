// kAudioUnitProperty_FrequencyResponse as a host's EQ view asks it (Apple's FilterDemo idiom): fill the bins'
// frequencies, end the list with a negative one, read the magnitudes back. The answers are checked against the
// filters' textbook values and against what the unit really does to a sine rendered through it. Not in the
// Apple-parity set: which of Apple's units answer it, their exact designs, and the short-buffer case (our
// AudioUnitGetProperty starts its scratch value from the caller's bytes; AudioUnitSDK's starts from zeros) are
// not checked on a Mac.
import AudioToolbox
import Foundation
import Testing

@Suite struct FrequencyResponseTests {
    static let sampleRate = 44100.0

    /// An Apple effect unit, mono Float32 at 44.1 kHz, with `parameters` set before it is initialized.
    static func makeEffect(_ subType: OSType, _ parameters: [AudioUnitParameterID: AudioUnitParameterValue]) throws -> AudioUnit {
        var description = AudioComponentDescription(componentType: kAudioUnitType_Effect, componentSubType: subType,
                                                    componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0,
                                                    componentFlagsMask: 0)
        let component = try #require(AudioComponentFindNext(nil, &description))
        var unit: AudioUnit?
        #expect(AudioComponentInstanceNew(component, &unit) == noErr)
        var format = AudioStreamBasicDescription(mSampleRate: sampleRate, mFormatID: kAudioFormatLinearPCM,
                                                 mFormatFlags: kAudioFormatFlagsNativeFloatPacked | kAudioFormatFlagIsNonInterleaved,
                                                 mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4,
                                                 mChannelsPerFrame: 1, mBitsPerChannel: 32, mReserved: 0)
        let size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        #expect(AudioUnitSetProperty(unit!, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, size) == noErr)
        #expect(AudioUnitSetProperty(unit!, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &format, size) == noErr)
        for (id, value) in parameters {
            #expect(AudioUnitSetParameter(unit!, id, kAudioUnitScope_Global, 0, value, 0) == noErr)
        }
        return unit!
    }

    /// The magnitudes the unit reports at `frequencies`, through a full kNumberOfResponseFrequencies buffer.
    static func response(_ unit: AudioUnit, _ frequencies: [Double]) -> [Double] {
        var bins = [AudioUnitFrequencyResponseBin](repeating: AudioUnitFrequencyResponseBin(mFrequency: -1, mMagnitude: -7),
                                                   count: Int(kNumberOfResponseFrequencies))
        for (i, f) in frequencies.enumerated() { bins[i].mFrequency = f }
        var size = UInt32(bins.count * MemoryLayout<AudioUnitFrequencyResponseBin>.size)
        let status = AudioUnitGetProperty(unit, kAudioUnitProperty_FrequencyResponse, kAudioUnitScope_Global, 0, &bins, &size)
        #expect(status == noErr)
        // The list ended at the first negative frequency: the bin there is untouched.
        #expect(bins[frequencies.count].mMagnitude == -7)
        return bins.prefix(frequencies.count).map(\.mMagnitude)
    }

    /// The gain a sine at `frequency` really gets through the unit: rendered for a second, the steady part fitted
    /// by least squares to a sine and a cosine at that frequency.
    static func measuredGain(_ unit: AudioUnit, at frequency: Double) -> Double {
        final class Source { var phase = 0.0; var step = 0.0 }
        let source = Source()
        source.step = 2 * Double.pi * frequency / sampleRate
        var callback = AURenderCallbackStruct(inputProc: { refCon, _, _, _, frames, ioData in
            let s = Unmanaged<Source>.fromOpaque(refCon).takeUnretainedValue()
            let out = UnsafeMutableAudioBufferListPointer(ioData!)[0].mData!.assumingMemoryBound(to: Float.self)
            for i in 0..<Int(frames) { out[i] = Float(sin(s.phase)); s.phase += s.step }
            return noErr
        }, inputProcRefCon: Unmanaged.passUnretained(source).toOpaque())
        AudioUnitSetProperty(unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &callback,
                             UInt32(MemoryLayout<AURenderCallbackStruct>.size))
        #expect(AudioUnitInitialize(unit) == noErr)
        defer { AudioUnitUninitialize(unit); withExtendedLifetime(source) {} }
        let slice = 512, slices = Int(sampleRate) / slice
        var output = [Float]()
        let samples = UnsafeMutablePointer<Float>.allocate(capacity: slice)
        defer { samples.deallocate() }
        var time = AudioTimeStamp()
        time.mFlags = .sampleTimeValid
        for _ in 0..<slices {
            var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(slice * 4),
                                                                                  mData: UnsafeMutableRawPointer(samples)))
            var flags = AudioUnitRenderActionFlags()
            #expect(AudioUnitRender(unit, &flags, &time, 0, UInt32(slice), &list) == noErr)
            output += UnsafeBufferPointer(start: samples, count: slice)
            time.mSampleTime += Double(slice)
        }
        // The second half, long after the filters' transients: y ≈ a sin + b cos, gain = √(a² + b²).
        var ss = 0.0, cc = 0.0, sc = 0.0, ys = 0.0, yc = 0.0
        for n in output.count / 2..<output.count {
            let s = sin(source.step * Double(n)), c = cos(source.step * Double(n)), y = Double(output[n])
            ss += s * s; cc += c * c; sc += s * c; ys += y * s; yc += y * c
        }
        let det = ss * cc - sc * sc
        let a = (ys * cc - yc * sc) / det, b = (yc * ss - ys * sc) / det
        return (a * a + b * b).squareRoot()
    }

    static func dB(_ x: Double) -> Double { 20 * log10(x) }

    @Test func lowPassAnswersItsButterworthResponse() throws {
        let unit = try Self.makeEffect(kAudioUnitSubType_LowPassFilter,
                                       [kLowPassParam_CutoffFrequency: 1000, kLowPassParam_Resonance: 0])
        defer { AudioComponentInstanceDispose(unit) }
        let m = Self.response(unit, [20, 1000, 8000])
        // Resonance 0 dB is a Butterworth pair: flat below the cutoff, -3.01 dB (1/√2) at it, 12 dB/octave above.
        #expect(abs(m[0] - 1) < 1e-3)
        #expect(abs(m[1] - 0.5.squareRoot()) < 1e-9)
        #expect(Self.dB(m[2]) < -35 && Self.dB(m[2]) > -40)
    }

    @Test func parametricEQPeaksByItsGainAtItsCenter() throws {
        let unit = try Self.makeEffect(kAudioUnitSubType_ParametricEQ,
                                       [kParametricEQParam_CenterFreq: 2000, kParametricEQParam_Q: 2, kParametricEQParam_Gain: 9])
        defer { AudioComponentInstanceDispose(unit) }
        let m = Self.response(unit, [30, 2000, 18000])
        #expect(abs(Self.dB(m[1]) - 9) < 1e-9)
        #expect(abs(Self.dB(m[0])) < 0.05 && abs(Self.dB(m[2])) < 0.2)
    }

    /// What the property says is what the unit does: a rendered sine's gain agrees to 0.05 dB.
    @Test(arguments: [200.0, 1000.0, 3000.0, 9000.0])
    func reportedResponseMatchesRenderedGain(frequency: Double) throws {
        let unit = try Self.makeEffect(kAudioUnitSubType_NBandEQ, [:])
        defer { AudioComponentInstanceDispose(unit) }
        // Band 0 a +6 dB bell at 1 kHz, band 1 a low-pass at 5 kHz, the global gain -2 dB.
        for (id, value) in [(kAUNBandEQParam_BypassBand, 0), (kAUNBandEQParam_FilterType, Float(kAUNBandEQFilterType_Parametric)),
                            (kAUNBandEQParam_Frequency, 1000), (kAUNBandEQParam_Gain, 6), (kAUNBandEQParam_Bandwidth, 1),
                            (kAUNBandEQParam_BypassBand + 1, 0),
                            (kAUNBandEQParam_FilterType + 1, Float(kAUNBandEQFilterType_ResonantLowPass)),
                            (kAUNBandEQParam_Frequency + 1, 5000), (kAUNBandEQParam_Bandwidth + 1, 0.5)] as [(AudioUnitParameterID, Float)] {
            #expect(AudioUnitSetParameter(unit, id, kAudioUnitScope_Global, 0, value, 0) == noErr)
        }
        #expect(AudioUnitSetParameter(unit, kAUNBandEQParam_GlobalGain, kAudioUnitScope_Global, 0, -2, 0) == noErr)
        let reported = Self.response(unit, [frequency])[0]
        let measured = Self.measuredGain(unit, at: frequency)
        #expect(abs(Self.dB(reported) - Self.dB(measured)) < 0.05, "reported \(Self.dB(reported)) dB, rendered \(Self.dB(measured)) dB")
    }

    /// A host asking for a few bins with a short buffer gets them (the rest of the 1,024 are not written).
    @Test func aShortBufferGetsItsBins() throws {
        let unit = try Self.makeEffect(kAudioUnitSubType_HighPassFilter,
                                       [kHipassParam_CutoffFrequency: 500, kHipassParam_Resonance: 0])
        defer { AudioComponentInstanceDispose(unit) }
        var info = UInt32(0)
        var writable: DarwinBoolean = true
        #expect(AudioUnitGetPropertyInfo(unit, kAudioUnitProperty_FrequencyResponse, kAudioUnitScope_Global, 0, &info, &writable) == noErr)
        #expect(info == UInt32(kNumberOfResponseFrequencies) * 16 && !writable.boolValue)
        var bins = [AudioUnitFrequencyResponseBin(mFrequency: 500, mMagnitude: 0), AudioUnitFrequencyResponseBin(mFrequency: 20000, mMagnitude: 0)]
        var size = UInt32(2 * MemoryLayout<AudioUnitFrequencyResponseBin>.size)
        #expect(AudioUnitGetProperty(unit, kAudioUnitProperty_FrequencyResponse, kAudioUnitScope_Global, 0, &bins, &size) == noErr)
        #expect(abs(bins[0].mMagnitude - 0.5.squareRoot()) < 1e-9 && abs(bins[1].mMagnitude - 1) < 1e-2)
        #expect(bins[0].mFrequency == 500 && bins[1].mFrequency == 20000)
    }
}
