import AudioDSP
import Foundation
import Testing

@Suite struct SpatialKernelsTests {
    /// Hermite reading reproduces a straight line exactly at any position and step, and returns the samples
    /// themselves at whole positions.
    @Test func variableRateReaderIsExactOnLinesAndWholePositions() {
        let source = (0..<64).map { Float($0) * 0.25 - 3 }
        var out = [Float](repeating: 0, count: 20)
        let end = source.withUnsafeBufferPointer { s in
            out.withUnsafeMutableBufferPointer { VariableRateKernels.read(s.baseAddress!, into: $0.baseAddress!, count: 20, position: 1.3, step: 1.7) }
        }
        #expect(abs(end - (1.3 + 20 * 1.7)) < 1e-12)
        for k in 0..<20 { #expect(abs(out[k] - (Float(1.3 + Double(k) * 1.7) * 0.25 - 3)) < 1e-5) }
        #expect(VariableRateKernels.samplesNeeded(position: 1.3, step: 1.7, count: 20) == Int(1.3 + 19 * 1.7) + 3)
        let noise = (0..<32).map { _ in Float.random(in: -1...1) }
        noise.withUnsafeBufferPointer { s in
            out.withUnsafeMutableBufferPointer { _ = VariableRateKernels.read(s.baseAddress!, into: $0.baseAddress!, count: 10, position: 1, step: 2) }
        }
        for k in 0..<10 { #expect(out[k] == noise[1 + 2 * k]) }
    }

    /// The delay line: whole delays copy, fractional ones interpolate (exact on a line), ramps move smoothly.
    @Test func delayReadInterpolatesAndRamps() {
        let history = 8, n = 16
        let signal = (0..<(history + n)).map { Float($0) }   // x[i] = i: linear, so interpolation is exact
        var out = [Float](repeating: 0, count: n)
        signal.withUnsafeBufferPointer { s in
            out.withUnsafeMutableBufferPointer { SpatialKernels.delayRead(s.baseAddress! + history, into: $0.baseAddress!, count: n, from: 2.25, to: 6.25) }
        }
        for i in 0..<n {
            let d = 2.25 + 4 * Double(i) / Double(n)
            #expect(abs(Double(out[i]) - (Double(history + i) - d)) < 1e-5)
        }
    }

    @Test func panningLawsAndDistanceCurves() {
        let (l, r) = SpatialKernels.equalPowerGains(azimuth: 90, elevation: 0)
        #expect(abs(l) < 1e-7 && r == 1)
        let (vl, vr) = SpatialKernels.vectorBaseGains(azimuth: -30, elevation: 0)
        #expect(abs(vl - 1) < 1e-6 && abs(vr) < 1e-6)
        #expect(SpatialKernels.distanceGain(0.5, curve: .power, reference: 1, maximum: 100, maxAttenuationDB: 120) == 1)
        #expect(abs(SpatialKernels.distanceGain(4, curve: .power, reference: 1, maximum: 100, maxAttenuationDB: 120) - 0.25) < 1e-7)
        #expect(abs(SpatialKernels.distanceGain(1000, curve: .linear, reference: 1, maximum: 100, maxAttenuationDB: 20) - 0.1) < 1e-7)
        // The head: a source on the right ear's axis reaches the left ear (a/c)(1 + π/2) later, nothing to the right ear.
        let head = SpatialKernels.SphericalHead(azimuth: 90, elevation: 0, sampleRate: 48000)
        #expect(head.rightDelay == 0 && abs(head.leftDelay - 0.0875 / 343 * (1 + Double.pi / 2) * 48000) < 1e-9)
        // DC passes both shadow filters at unity: (b0 + b1)/(1 + a1) = 1.
        for f in [head.left, head.right] { #expect(abs((f.b0 + f.b1) / (1 + f.a1) - 1) < 1e-6) }
        let ahead = SpatialKernels.SphericalHead(azimuth: 0, elevation: 0, sampleRate: 48000)
        #expect(ahead.left == ahead.right && ahead.leftDelay == 0 && ahead.rightDelay == 0)
    }
}
