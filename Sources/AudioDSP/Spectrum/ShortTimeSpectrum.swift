#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// One frame of a short-time Fourier transform: Hann window, FFT, level per bin in dB relative to a
// full-scale sine. afinfo --plot draws a spectrogram from one such frame per pixel column.

/// Level spectra of Hann-windowed frames of a fixed power-of-two length. Scratch memory is allocated
/// once; `levels` does not allocate. One instance must not be used by two threads at once.
public final class ShortTimeSpectrum {
    /// The frame (FFT) length.
    public var size: Int { fft.size }
    /// The number of bins `levels` writes: size/2 + 1 (0 Hz ... Nyquist).
    public var binCount: Int { fft.size / 2 + 1 }
    /// The level written for silence (and anything below it), in dB.
    public let floorDecibels: Float
    /// The periodic Hann window, w[n] = 0.5 - 0.5·cos(2πn/size).
    public let window: [Float]
    private let fft: RadixTwoFFT
    private var real: [Float]
    private var imaginary: [Float]
    private let scale: Float  // 2 / Σw: a full-scale sine on a bin centre reads 0 dB

    /// Nil unless `size` is a power of two in 2...2^20.
    public init?(size: Int, floorDecibels: Float = -200) {
        guard size >= 2, size <= 1 << 20, let fft = RadixTwoFFT(size: size) else { return nil }
        self.fft = fft
        self.floorDecibels = floorDecibels
        window = (0..<size).map { Float(0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(size))) }
        real = [Float](repeating: 0, count: size)
        imaginary = [Float](repeating: 0, count: size)
        scale = Float(2 / window.reduce(0.0) { $0 + Double($1) })
    }

    /// The frame of `size` samples starting at `start` in `samples` (zeros where it reaches past either
    /// end), windowed and transformed; writes 20·log10(|X[k]|·2/Σw) for each of the `binCount` bins,
    /// never below `floorDecibels`. A sine of amplitude A on a bin centre reads 20·log10(A).
    public func levels(of samples: UnsafeBufferPointer<Float>, start: Int, into out: UnsafeMutableBufferPointer<Float>) {
        precondition(out.count >= binCount, "ShortTimeSpectrum: output shorter than binCount")
        let n = size
        real.withUnsafeMutableBufferPointer { re in
            imaginary.withUnsafeMutableBufferPointer { im in
                for i in 0..<n {
                    let j = start + i
                    re[i] = j >= 0 && j < samples.count ? samples[j] * window[i] : 0
                    im[i] = 0
                }
                fft.forward(real: re, imaginary: im)
                let floorPower = pow(10, floorDecibels / 10)
                for k in 0..<binCount {
                    let power = (re[k] * re[k] + im[k] * im[k]) * scale * scale
                    out[k] = power > floorPower ? 10 * log10(power) : floorDecibels
                }
            }
        }
    }
}
