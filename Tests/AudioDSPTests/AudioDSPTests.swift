import AudioDSP
import Foundation
import Testing

@Suite struct AudioDSPTests {
    func sine(_ f: Double, _ sr: Double, _ n: Int, _ a: Double) -> [Float] {
        (0..<n).map { Float(a * sin(2 * Double.pi * f * Double($0) / sr)) }
    }

    @Test func peakAndRMSOfASine() {
        let x = sine(1000, 48000, 48000, 0.5)
        x.withUnsafeBufferPointer { p in
            #expect(abs(SignalMeasurement.peak(p) - 0.5) < 1e-6)
            // RMS of a sine over whole periods is a/√2.
            #expect(abs(SignalMeasurement.rms(p) - 0.5 / 2.0.squareRoot()) < 1e-6)
        }
    }

    /// The finite peak ignores infinities and NaNs and reports each kind seen.
    @Test func peakAndNonFiniteSamples() {
        let cases: [([Float], Float, Bool, Bool)] = [
            ([0.25, -0.75, 0.5], 0.75, false, false),
            ([0.25, .infinity, -0.5], 0.5, true, false),
            ([-.infinity, .nan, 0.125], 0.125, true, true),
            ([.nan], 0, false, true),
            ([], 0, false, false),
        ]
        for (x, peak, infinity, nan) in cases {
            let r = x.withUnsafeBufferPointer { SignalMeasurement.peakAndNonFinite($0) }
            #expect(r.peak == peak && r.sawInfinity == infinity && r.sawNaN == nan, "\(x)")
        }
    }

    @Test func frequencyFromZeroCrossings() {
        for f in [50.0, 440, 997, 5000] {
            let x = sine(f, 44100, 44100, 0.9)
            let measured = x.withUnsafeBufferPointer { SignalMeasurement.zeroCrossingFrequency($0, sampleRate: 44100) }
            #expect(abs(measured! - f) < f * 1e-4, "\(f) Hz measured \(measured!)")
        }
        let silence = [Float](repeating: 0, count: 100)
        #expect(silence.withUnsafeBufferPointer { SignalMeasurement.zeroCrossingFrequency($0, sampleRate: 44100) } == nil)
        let empty: [Float] = []
        #expect(empty.withUnsafeBufferPointer { SignalMeasurement.rms($0) } == 0)
        // Exact for values whose squares add exactly in Double.
        let small: [Float] = [0.5, -0.25, 1, -2]
        let expected: Double = 0.25 + 0.0625 + 1 + 4
        #expect(small.withUnsafeBufferPointer { SignalMeasurement.sumOfSquares($0) } == expected)
    }

    @Test func int16RoundTripIsExact() {
        let all = (Int(Int16.min)...Int(Int16.max)).map { Int16($0) }
        var floats = [Float](repeating: 0, count: all.count)
        var back = [Int16](repeating: 0, count: all.count)
        SampleConversion.int16ToFloat(all, &floats, count: all.count)
        SampleConversion.floatToInt16(floats, &back, count: all.count)
        #expect(back == all)
        #expect(floats.first == -1 && floats.last == Float(32767) / 32768)
    }

    @Test func floatToInt16RoundsAndClips() {
        let input: [Float] = [1.5, -1.5, 1.0, -1.0, 0.5 / 32768, 1.5 / 32768, -0.5 / 32768, .infinity]
        var out = [Int16](repeating: 7, count: input.count)
        SampleConversion.floatToInt16(input, &out, count: input.count)
        #expect(out == [32767, -32768, 32767, -32768, 0, 2, 0, 32767])
    }
}

@Suite struct SampleDelayKernelTests {
    @Test func delaysByWholeFramesAcrossCalls() {
        let mask = 63
        var ring = [Float](repeating: 0, count: mask + 1)
        var w = 0
        let input = (1...200).map(Float.init)
        var output = [Float](repeating: -1, count: 200)
        ring.withUnsafeMutableBufferPointer { r in
            // In calls of 7 frames, with a delay of 10.
            var start = 0
            while start < 200 {
                let n = min(7, 200 - start)
                input.withUnsafeBufferPointer { i in
                    output.withUnsafeMutableBufferPointer { o in
                        SampleDelayKernel.apply(input: i.baseAddress! + start, output: o.baseAddress! + start, count: n,
                                                  ring: r.baseAddress!, mask: mask, writeIndex: &w, delays: nil, constantDelay: 10)
                    }
                }
                start += n
            }
        }
        #expect(output[0..<10].allSatisfy { $0 == 0 })
        #expect(Array(output[10...]) == Array(input[..<190]))
    }

    @Test func perFrameDelaysAndClampingInPlace() {
        let mask = 15
        var ring = [Float](repeating: 0, count: mask + 1)
        var w = 0
        var buffer: [Float] = (1...8).map(Float.init)
        let delays: [Float] = [0, 0, 1, 1, 2, 100, -3, .nan]
        ring.withUnsafeMutableBufferPointer { r in
            buffer.withUnsafeMutableBufferPointer { b in
                delays.withUnsafeBufferPointer { d in
                    SampleDelayKernel.apply(input: b.baseAddress!, output: b.baseAddress!, count: 8, ring: r.baseAddress!,
                                              mask: mask, writeIndex: &w, delays: d.baseAddress!, constantDelay: 0)
                }
            }
        }
        // 100 clamps to the ring (15 frames back: still silence); negative and NaN mean no delay.
        #expect(buffer == [1, 2, 2, 3, 3, 0, 7, 8])
    }
}

/// Float64 ↔ Float32: narrowing rounds each value to the nearest Float (ties to even), widening is exact.
@Suite struct FloatWidthConversionTests {
    @Test func narrowingRoundsToNearestAndWideningIsExact() {
        let halfULP = Double(Float.ulpOfOne) / 2  // half an ulp of values in [1, 2)
        let source: [Double] = [0, -0.5, 1 + halfULP * 0.9, 1 + halfULP * 1.1, 1 + halfULP, 3 * Double(Float.ulpOfOne) / 4 + 1, 1e40, -1e-50]
        var narrow = [Float](repeating: .nan, count: source.count)
        SampleConversion.doubleToFloat(source, &narrow, count: source.count)
        let u = Float.ulpOfOne
        #expect(narrow == [0, -0.5, 1, 1 + u, 1, 1 + u, .infinity, -0.0])
        var wide = [Double](repeating: .nan, count: source.count)
        SampleConversion.floatToDouble(narrow, &wide, count: narrow.count)
        #expect(zip(narrow, wide).allSatisfy { Double($0) == $1 || ($0.isNaN && $1.isNaN) })
        #expect(wide[3] == 1 + Double(u))
    }
}

/// A meter's dB: 20·log10 of the level, the floor for silence, negatives and anything quieter than the floor.
@Suite struct MeterDecibelsTests {
    @Test func levelsFloorAndSilence() {
        #expect(SignalMeasurement.meterDecibels(1, floor: -120) == 0)
        #expect(abs(SignalMeasurement.meterDecibels(0.1, floor: -120) + 20) < 1e-5)
        #expect(abs(SignalMeasurement.meterDecibels(2, floor: -120) - 6.0206) < 1e-4)
        #expect(SignalMeasurement.meterDecibels(1e-7, floor: -120) == -120)
        #expect(abs(SignalMeasurement.meterDecibels(1e-6, floor: -120) + 120) < 1e-3)
        #expect(SignalMeasurement.meterDecibels(0, floor: -120) == -120)
        #expect(SignalMeasurement.meterDecibels(-0.5, floor: -60) == -60)
    }
}
