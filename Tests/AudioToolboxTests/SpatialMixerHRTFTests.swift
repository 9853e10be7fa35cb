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
