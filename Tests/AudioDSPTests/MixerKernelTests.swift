import AudioDSP
import Foundation
import Testing

@Suite struct MixerKernelTests {
    /// The pan law at several settings, against the stated formula computed here in Double.
    @Test(arguments: [-1.0, -0.5, 0.0, 0.25, 0.5, 1.0] as [Float])
    func monoPanIsConstantPower(_ pan: Float) {
        let (l, r) = MixerKernels.monoPanGains(pan)
        let theta = (Double(pan) + 1) * Double.pi / 4
        #expect(abs(Double(l) - cos(theta)) < 1e-7 && abs(Double(r) - sin(theta)) < 1e-7)
        #expect(abs(Double(l * l + r * r) - 1) < 1e-6)
    }

    @Test func panEndStopsAndCentre() {
        #expect(MixerKernels.monoPanGains(-1) == (1, 0))
        #expect(MixerKernels.monoPanGains(1).right == 1 && MixerKernels.monoPanGains(1).left < 1e-7)
        let centre = MixerKernels.monoPanGains(0)
        #expect(abs(20 * log10(Double(centre.left)) + 3.0103) < 1e-3 && centre.left == centre.right)
        #expect(MixerKernels.monoPanGains(7) == MixerKernels.monoPanGains(1))  // clamped
        #expect(MixerKernels.stereoBalanceGains(0) == (1, 1))
        #expect(MixerKernels.stereoBalanceGains(1).right == 1 && abs(MixerKernels.stereoBalanceGains(1).left) < 1e-7)
        #expect(abs(Double(MixerKernels.stereoBalanceGains(-0.5).right) - cos(Double.pi / 4)) < 1e-7)
    }

    /// A gain jump is spread over 1/step samples, linearly, then held; the sum adds onto what is there.
    @Test func accumulateRampsThenHolds() {
        let source = [Float](repeating: 1, count: 10)
        var destination = [Float](repeating: 0.5, count: 10)
        let reached = source.withUnsafeBufferPointer { s in
            destination.withUnsafeMutableBufferPointer { d in
                MixerKernels.accumulate(s.baseAddress!, into: d.baseAddress!, count: 10, gain: 0, target: 1, step: 0.25)
            }
        }
        #expect(reached == 1)
        #expect(destination == [0.75, 1.0, 1.25, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5])
    }

    @Test func accumulateWithoutChangeIsExact() {
        let source: [Float] = [0.1, -0.2, 0.3]
        var destination: [Float] = [1, 1, 1]
        _ = source.withUnsafeBufferPointer { s in
            destination.withUnsafeMutableBufferPointer { d in
                MixerKernels.accumulate(s.baseAddress!, into: d.baseAddress!, count: 3, gain: 0.5, target: 0.5, step: 0.01)
            }
        }
        let half: Float = 0.5
        let expected: [Float] = source.map { 1 + half * $0 }
        #expect(destination == expected)
    }

    @Test func scaleRampsDownAcrossSlices() {
        var a = [Float](repeating: 2, count: 4), b = [Float](repeating: 2, count: 4)
        let mid = a.withUnsafeMutableBufferPointer { MixerKernels.scale($0.baseAddress!, count: 4, gain: 1, target: 0, step: 0.125) }
        #expect(mid == 0.5)
        #expect(a == [1.75, 1.5, 1.25, 1.0])
        let end = b.withUnsafeMutableBufferPointer { MixerKernels.scale($0.baseAddress!, count: 4, gain: mid, target: 0, step: 0.125) }
        #expect(end == 0)
        #expect(b == [0.75, 0.5, 0.25, 0])
    }
}
