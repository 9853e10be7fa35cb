import AudioDSP
import Foundation
import Testing

/// The analysis kernels behind afinfo --plot: the FFT against a direct DFT computed in Double, the
/// windowed level spectrum against the Hann window's known response, the waveform columns against a
/// direct scan.
@Suite struct SpectrumTests {
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state
        }
    }

    @Test func fftEqualsADirectDFT() {
        var g = Generator(state: 7)
        for n in [1, 2, 4, 8, 64, 1024] {
            let fft = RadixTwoFFT(size: n)!
            var re = (0..<n).map { _ in Float.random(in: -1...1, using: &g) }
            var im = (0..<n).map { _ in Float.random(in: -1...1, using: &g) }
            let (x, y) = (re.map(Double.init), im.map(Double.init))
            re.withUnsafeMutableBufferPointer { r in im.withUnsafeMutableBufferPointer { i in fft.forward(real: r, imaginary: i) } }
            var worst = 0.0, largest = 0.0
            for k in 0..<n {
                var sr = 0.0, si = 0.0
                for t in 0..<n {
                    let a = -2 * Double.pi * Double(k * t % n) / Double(n)
                    sr += x[t] * cos(a) - y[t] * sin(a)
                    si += x[t] * sin(a) + y[t] * cos(a)
                }
                worst = max(worst, abs(sr - Double(re[k])), abs(si - Double(im[k])))
                largest = max(largest, abs(sr), abs(si))
            }
            // Float rounding grows like log2(n); 1e-5 of the largest bin is ample and far below a wrong twiddle.
            #expect(worst <= 1e-5 * max(largest, 1), "n \(n): worst error \(worst) of \(largest)")
        }
        #expect(RadixTwoFFT(size: 0) == nil && RadixTwoFFT(size: 3) == nil && RadixTwoFFT(size: 1000) == nil)
    }

    @Test func levelsOfASineOnABinCentre() {
        let n = 1024, sr = 48000.0
        let spectrum = ShortTimeSpectrum(size: n, floorDecibels: -150)!
        #expect(spectrum.binCount == 513)
        #expect(spectrum.window[0] == 0 && abs(spectrum.window[n / 2] - 1) < 1e-7)
        let bin = 100, f = Double(bin) * sr / Double(n)
        let x = (0..<4 * n).map { Float(0.5 * sin(2 * Double.pi * f * Double($0) / sr)) }
        var levels = [Float](repeating: 0, count: spectrum.binCount)
        x.withUnsafeBufferPointer { p in levels.withUnsafeMutableBufferPointer { spectrum.levels(of: p, start: n, into: $0) } }
        // Amplitude 0.5 reads 20·log10(0.5) = -6.02 dB; the Hann window's neighbours are half the amplitude
        // (-6.02 dB more); two bins away and beyond a Hann window has no response to a bin-centred sine.
        #expect(abs(levels[bin] - -6.0206) < 0.01, "\(levels[bin])")
        #expect(abs(levels[bin - 1] - -12.041) < 0.01 && abs(levels[bin + 1] - -12.041) < 0.01)
        #expect(levels[0..<(bin - 2)].allSatisfy { $0 < -100 } && levels[(bin + 3)...].allSatisfy { $0 < -100 })
        #expect(levels.indices.max { levels[$0] < levels[$1] } == bin)
        // A frame entirely past the end is silence: the floor everywhere.
        x.withUnsafeBufferPointer { p in levels.withUnsafeMutableBufferPointer { spectrum.levels(of: p, start: 10 * n, into: $0) } }
        #expect(levels.allSatisfy { $0 == -150 })
        // Half the frame before the start: zeros there, the sine's level 6 dB lower, peak still on its bin.
        x.withUnsafeBufferPointer { p in levels.withUnsafeMutableBufferPointer { spectrum.levels(of: p, start: -n / 2, into: $0) } }
        #expect(levels.indices.max { levels[$0] < levels[$1] } == bin)
        #expect(abs(levels[bin] - -12.04) < 0.5, "\(levels[bin])")
        #expect(ShortTimeSpectrum(size: 1000) == nil)
    }

    @Test func waveformColumnsEqualADirectScan() {
        var g = Generator(state: 3)
        for (n, columns) in [(10_000, 37), (100, 100), (5, 12), (0, 4)] {
            let x = (0..<n).map { _ in Float.random(in: -1...1, using: &g) }
            var lo = [Float](repeating: 9, count: columns), hi = [Float](repeating: 9, count: columns)
            x.withUnsafeBufferPointer { p in
                lo.withUnsafeMutableBufferPointer { l in hi.withUnsafeMutableBufferPointer { h in
                    WaveformColumns.minMax(p, columns: columns, minimum: l, maximum: h)
                } }
            }
            for c in 0..<columns {
                if n == 0 {
                    #expect(lo[c] == 0 && hi[c] == 0)
                    continue
                }
                let a = min(Int((Double(c) * Double(n) / Double(columns)).rounded(.down)), n - 1)
                let b = max(Int((Double(c + 1) * Double(n) / Double(columns)).rounded(.down)), a + 1)
                #expect(lo[c] == x[a..<b].min()! && hi[c] == x[a..<b].max()!, "n \(n) column \(c)")
            }
            if n >= columns && n > 0 {  // every sample belongs to some column
                #expect(lo.min() == x.min() && hi.max() == x.max())
            }
        }
    }
}
