import AllocationCounter
import AudioToolbox
import CMySofa
import COCASupport
import Foundation
import Testing

/// The 3D mixer's HRTF algorithm on Debian's MIT KEMAR set: an impulse comes out as the SOFA file's responses for
/// that direction (read here straight from libmysofa), a source to the right is louder and earlier in the right
/// ear, one ahead is balanced.
@Suite struct SpatialMixerHRTFTests {
    static let sofa = "/usr/share/libmysofa/default.sofa"
    static let rate = 44100.0

    func mixer(_ source: EffectTestSupport.Source, azimuth: Float, elevation: Float = 0) throws -> AudioUnit {
        let unit = try TestSupport.newUnit(SpatialMixerTests.spatial)
        #expect(TestSupport.setUInt32(unit, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, 1) == noErr)
        #expect(TestSupport.setFormat(unit, kAudioUnitScope_Input, 0, SpatialMixerTests.mono) == noErr)
        #expect(TestSupport.setCallback(unit, 0, EffectTestSupport.sourceCallback, Unmanaged.passUnretained(source).toOpaque()) == noErr)
        #expect(TestSupport.setUInt32(unit, kAudioUnitProperty_SpatializationAlgorithm, kAudioUnitScope_Input, 0,
                                      AUSpatializationAlgorithm.spatializationAlgorithm_HRTF.rawValue) == noErr)
        #expect(AudioUnitInitialize(unit) == noErr)
        AudioUnitSetParameter(unit, kSpatialMixerParam_Azimuth, kAudioUnitScope_Input, 0, azimuth, 0)
        AudioUnitSetParameter(unit, kSpatialMixerParam_Elevation, kAudioUnitScope_Input, 0, elevation, 0)
        return unit
    }

    @Test func anImpulseComesOutAsTheSOFAResponses() throws {
        try #require(FileManager.default.fileExists(atPath: Self.sofa), "libmysofa1's default.sofa is required")
        var impulse = [Float](repeating: 0, count: 2048)
        impulse[100] = 1
        let source = EffectTestSupport.Source([impulse])
        let unit = try mixer(source, azimuth: 45, elevation: 20)
        defer { AudioComponentInstanceDispose(unit) }
        let out = try withExtendedLifetime(source) {
            try TestSupport.render(unit, format: SpatialMixerTests.stereo, totalFrames: 1024, slices: [512])
        }
        // Expected: libmysofa's filter for azimuth 45 (right, ahead), elevation 20, in SOFA's axes (y to the left),
        // cut to 256 taps with the table's 32-tap linear fade; the reader delays the input by 2 frames.
        var length: Int32 = 0, error: Int32 = 0
        let easy = try #require(mysofa_open(Self.sofa, Float(Self.rate), &length, &error))
        defer { mysofa_close(easy) }
        var l = [Float](repeating: 0, count: Int(length)), r = l
        var dl: Float = 0, dr: Float = 0
        let az = Float(45) * .pi / 180, el = Float(20) * .pi / 180
        mysofa_getfilter_float(easy, cos(el) * cos(az), -cos(el) * sin(az), sin(el), &l, &r, &dl, &dr)
        var worst = 0.0
        for k in 0..<256 {
            let w: Float = k >= 224 ? Float(256 - k) / 32 : 1
            worst = max(worst, abs(out.channels[0][102 + k] - Double(l[k] * w)), abs(out.channels[1][102 + k] - Double(r[k] * w)))
        }
        print("HRTF impulse vs libmysofa's responses: largest difference \(worst)")
        #expect(worst < 1e-5, "largest difference \(worst)")
        #expect(out.channels[0][..<102].allSatisfy { $0 == 0 } && out.channels[0][(102 + 256)...].allSatisfy { abs($0) < 1e-9 })
    }

    @Test func levelAndTimeDifferencesPointToTheSource() throws {
        try #require(FileManager.default.fileExists(atPath: Self.sofa), "libmysofa1's default.sofa is required")
        var state: UInt64 = 7
        let noise = (0..<22050).map { _ -> Float in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Float(Int64(bitPattern: state >> 11) % 20000) / 40000
        }
        func ears(_ azimuth: Float) throws -> ([Double], [Double]) {
            let source = EffectTestSupport.Source([noise])
            let unit = try mixer(source, azimuth: azimuth)
            defer { AudioComponentInstanceDispose(unit) }
            let out = try withExtendedLifetime(source) {
                try TestSupport.render(unit, format: SpatialMixerTests.stereo, totalFrames: 16384, slices: [512])
            }
            return (Array(out.channels[0][1024...]), Array(out.channels[1][1024...]))
        }
        func dB(_ a: [Double], _ b: [Double]) -> Double {
            10 * log10(a.reduce(0) { $0 + $1 * $1 } / b.reduce(0) { $0 + $1 * $1 })
        }
        let (l90, r90) = try ears(90)
        let ild = dB(r90, l90)
        #expect(ild > 6, "a source at +90: the right ear \(ild) dB louder")
        let (lm90, rm90) = try ears(-90)
        #expect(dB(lm90, rm90) > 6, "and at -90 the left")
        let (l0, r0) = try ears(0)
        #expect(abs(dB(l0, r0)) < 1.5, "ahead: balanced within 1.5 dB (\(dB(l0, r0)))")
        // Interaural time difference: the lag of the left ear behind the right (cross-correlation peak).
        var bestLag = 0, best = -Double.infinity
        for lag in -60...60 {
            var sum = 0.0
            for i in 100..<(r90.count - 100) { sum += r90[i] * l90[i + lag] }
            if sum > best { best = sum; bestLag = lag }
        }
        let itd = Double(bestLag) / Self.rate * 1000
        print("HRTF (MIT KEMAR): ILD at +90 \(ild) dB, at -90 \(dB(lm90, rm90)) dB, ahead \(dB(l0, r0)) dB; ITD at +90 \(itd) ms")
        #expect(itd > 0.4 && itd < 0.9, "the left ear lags by \(itd) ms")
    }

    /// libmysofa's full-length responses for directions (azimuth clockwise from ahead, as the mixer's), resampled to the
    /// test's rate by libmysofa itself; the file is opened once.
    static func sofaResponses(azimuths: [Float], elevation: Float = 0) throws -> [(left: [Float], right: [Float])] {
        var length: Int32 = 0, error: Int32 = 0
        let easy = try #require(mysofa_open(sofa, Float(rate), &length, &error))
        defer { mysofa_close(easy) }
        return azimuths.map { azimuth in
            var l = [Float](repeating: 0, count: Int(length)), r = l
            var dl: Float = 0, dr: Float = 0
            let az = azimuth * .pi / 180, el = elevation * .pi / 180
            mysofa_getfilter_float(easy, cos(el) * cos(az), -cos(el) * sin(az), sin(el), &l, &r, &dl, &dr)
            return (l, r)
        }
    }

    /// The lag (in frames, fractional by a parabola through the peak) by which `late` follows `early`.
    static func lag(_ early: [Double], _ late: [Double]) -> Double {
        func correlation(_ lag: Int) -> Double {
            var sum = 0.0
            for i in 100..<(early.count - 100) { sum += early[i] * late[i + lag] }
            return sum
        }
        let values = (-60...60).map(correlation)
        let peak = values.indices.max { values[$0] < values[$1] }!
        guard peak > 0, peak < values.count - 1 else { return Double(peak - 60) }
        let (a, b, c) = (values[peak - 1], values[peak], values[peak + 1])
        return Double(peak - 60) + 0.5 * (a - c) / (a - 2 * b + c)
    }

    /// The bound: at 90° the rendered interaural level and time differences equal those of the SOFA data's
    /// own responses (the same noise convolved here with libmysofa's full-length filters) within 0.5 dB and 20 µs.
    @Test func interauralDifferencesAt90DegreesMatchTheSOFAData() throws {
        try #require(FileManager.default.fileExists(atPath: Self.sofa), "libmysofa1's default.sofa is required")
        var state: UInt64 = 11
        let noise = (0..<16384).map { _ -> Float in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Float(Int64(bitPattern: state >> 11) % 20000) / 40000
        }
        let source = EffectTestSupport.Source([noise])
        let unit = try mixer(source, azimuth: 90)
        defer { AudioComponentInstanceDispose(unit) }
        let out = try withExtendedLifetime(source) {
            try TestSupport.render(unit, format: SpatialMixerTests.stereo, totalFrames: 16384, slices: [512])
        }
        let rendered = (Array(out.channels[0][1024..<15360]), Array(out.channels[1][1024..<15360]))
        let (hl, hr) = try Self.sofaResponses(azimuths: [90])[0]
        func convolve(_ h: [Float]) -> [Double] {
            (1024..<15360).map { n in
                var sum = 0.0
                for k in 0..<min(h.count, n + 1) { sum += Double(h[k]) * Double(noise[n - k]) }
                return sum
            }
        }
        let reference = (convolve(hl), convolve(hr))
        func ild(_ l: [Double], _ r: [Double]) -> Double { 10 * log10(r.reduce(0) { $0 + $1 * $1 } / l.reduce(0) { $0 + $1 * $1 }) }
        let ourILD = ild(rendered.0, rendered.1), theirILD = ild(reference.0, reference.1)
        let ourITD = Self.lag(rendered.1, rendered.0) / Self.rate * 1e6, theirITD = Self.lag(reference.1, reference.0) / Self.rate * 1e6
        print("HRTF at +90: ILD \(ourILD) dB (SOFA data \(theirILD)), ITD \(ourITD) µs (SOFA data \(theirITD))")
        #expect(abs(ourILD - theirILD) < 0.5)
        #expect(abs(ourITD - theirITD) < 20)
    }

    /// A 500 Hz tone circling the head (7° and a new, crossfaded response pair every 512-frame slice) has no clicks:
    /// its second difference stays within 1.5x what a sine of the largest level the responses give at 500 Hz can have
    /// (a·G·ω², G the largest |H(500 Hz)| over the directions passed, from libmysofa's responses).
    @Test func aMovingSourceDoesNotClick() throws {
        try #require(FileManager.default.fileExists(atPath: Self.sofa), "libmysofa1's default.sofa is required")
        let f = 500.0, a = 0.5
        let source = EffectTestSupport.Source([(0..<44100).map { Float(a * sin(2 * Double.pi * f * Double($0) / Self.rate)) }])
        let unit = try mixer(source, azimuth: 0)
        defer { AudioComponentInstanceDispose(unit) }
        let abl = AudioBufferList.allocate(maximumBuffers: 2)
        defer { free(abl.unsafeMutablePointer) }
        let memory = UnsafeMutablePointer<Float>.allocate(capacity: 1024)
        defer { memory.deallocate() }
        var left: [Double] = [], right: [Double] = []
        var ts = AudioTimeStamp()
        ts.mFlags = .sampleTimeValid
        var azimuths: [Float] = []
        try withExtendedLifetime(source) {
            for k in 0..<80 {
                let azimuth = Float(k * 7 % 360) - 180
                azimuths.append(azimuth)
                AudioUnitSetParameter(unit, kSpatialMixerParam_Azimuth, kAudioUnitScope_Input, 0, azimuth, 0)
                for b in 0..<2 { abl[b] = AudioBuffer(mNumberChannels: 1, mDataByteSize: 2048, mData: UnsafeMutableRawPointer(memory + b * 512)) }
                var flags = AudioUnitRenderActionFlags()
                try #require(AudioUnitRender(unit, &flags, &ts, 0, 512, abl.unsafeMutablePointer) == noErr)
                ts.mSampleTime += 512
                left += (0..<512).map { Double(memory[$0]) }
                right += (0..<512).map { Double(memory[512 + $0]) }
            }
        }
        var largestGain = 0.0
        for (hl, hr) in try Self.sofaResponses(azimuths: Array(Set(azimuths))) {
            for h in [hl, hr] {
                var re = 0.0, im = 0.0
                for (k, v) in h.enumerated() {
                    re += Double(v) * cos(2 * Double.pi * f * Double(k) / Self.rate)
                    im -= Double(v) * sin(2 * Double.pi * f * Double(k) / Self.rate)
                }
                largestGain = max(largestGain, (re * re + im * im).squareRoot())
            }
        }
        let w = 2 * Double.pi * f / Self.rate
        let bound = 1.5 * a * largestGain * w * w
        var worst = 0.0
        for channel in [left, right] {
            for n in 1024..<(channel.count - 1) { worst = max(worst, abs(channel[n + 1] - 2 * channel[n] + channel[n - 1])) }
        }
        print("HRTF moving source: largest second difference \(worst), bound \(bound) (largest |H(500 Hz)| \(largestGain))")
        #expect(worst < bound)
    }

    /// A source circling the head (a new response pair, crossfaded, every slice) renders without allocating.
    @Test func aMovingSourceAllocatesNothing() throws {
        try #require(FileManager.default.fileExists(atPath: Self.sofa), "libmysofa1's default.sofa is required")
        let source = EffectTestSupport.Source([(0..<4096).map { Float(sin(Double($0) * 0.1)) * 0.5 }])
        let unit = try mixer(source, azimuth: 0)
        defer { AudioComponentInstanceDispose(unit) }
        let abl = AudioBufferList.allocate(maximumBuffers: 2)
        defer { free(abl.unsafeMutablePointer) }
        let memory = UnsafeMutablePointer<Float>.allocate(capacity: 1024)
        defer { memory.deallocate() }
        var ts = AudioTimeStamp()
        ts.mFlags = .sampleTimeValid
        var failures = 0
        func renderOne(_ k: Int) {
            AudioUnitSetParameter(unit, kSpatialMixerParam_Azimuth, kAudioUnitScope_Input, 0, Float(k * 7 % 360) - 180, 0)
            AudioUnitSetParameter(unit, kSpatialMixerParam_Elevation, kAudioUnitScope_Input, 0, Float(k % 13) * 10 - 40, 0)
            for b in 0..<2 { abl[b] = AudioBuffer(mNumberChannels: 1, mDataByteSize: 2048, mData: UnsafeMutableRawPointer(memory + b * 512)) }
            var flags = AudioUnitRenderActionFlags()
            if AudioUnitRender(unit, &flags, &ts, 0, 512, abl.unsafeMutablePointer) != noErr { failures += 1 }
            ts.mSampleTime = Double((k * 512) % 2048)  // the source repeats its first 4,096 frames
        }
        withExtendedLifetime(source) {
            renderOne(0)
            oca_alloc_counting_start()
            oca_realtime_enter()
            for k in 1..<400 { renderOne(k) }
            oca_realtime_exit()
            let count = oca_alloc_counting_stop()
            #expect(count == 0, "\(count) allocations")
        }
        #expect(failures == 0)
    }
}
