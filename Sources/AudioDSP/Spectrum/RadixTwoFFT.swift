#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// A complex FFT of power-of-two length (iterative radix-2, decimation in time), for analysis: the
// spectrogram of afinfo --plot and measurements in tests. Twiddles are computed once, in Double.

/// An in-place complex forward FFT of a fixed power-of-two size on split real and imaginary arrays.
/// `forward` does not allocate; one instance must not be used by two threads at once.
public final class RadixTwoFFT {
    /// The transform length (a power of two, 1...2^24).
    public let size: Int
    private let reversed: [Int]   // the bit-reversed index of each index
    private let cosines: [Float]  // cos(2πk/size), k < size/2
    private let sines: [Float]    // sin(2πk/size)

    /// Nil unless `size` is a power of two in 1...2^24.
    public init?(size: Int) {
        guard size > 0, size <= 1 << 24, size & (size - 1) == 0 else { return nil }
        self.size = size
        let shift = UInt(Int.bitWidth - size.trailingZeroBitCount)
        reversed = size == 1 ? [0] : (0..<size).map { Int(UInt($0).bitReversed >> shift) }
        let half = max(size / 2, 1)
        cosines = (0..<half).map { Float(cos(2 * Double.pi * Double($0) / Double(size))) }
        sines = (0..<half).map { Float(sin(2 * Double.pi * Double($0) / Double(size))) }
    }

    /// X[k] = Σ x[n]·e^(-2πikn/size), in place. Both buffers must hold at least `size` values.
    public func forward(real: UnsafeMutableBufferPointer<Float>, imaginary: UnsafeMutableBufferPointer<Float>) {
        precondition(real.count >= size && imaginary.count >= size, "RadixTwoFFT: buffers shorter than the size")
        guard size > 1 else { return }
        // Bit-reversed order first, then butterflies of growing span.
        for i in 0..<size {
            let j = reversed[i]
            if j > i {
                real.swapAt(i, j)
                imaginary.swapAt(i, j)
            }
        }
        var span = 1
        while span < size {
            let step = size / (span * 2)
            var start = 0
            while start < size {
                for k in 0..<span {
                    let wr = cosines[k * step], wi = -sines[k * step]
                    let a = start + k, b = a + span
                    let tr = real[b] * wr - imaginary[b] * wi
                    let ti = real[b] * wi + imaginary[b] * wr
                    real[b] = real[a] - tr
                    imaginary[b] = imaginary[a] - ti
                    real[a] += tr
                    imaginary[a] += ti
                }
                start += span * 2
            }
            span *= 2
        }
    }
}

extension UInt {
    fileprivate var bitReversed: UInt {
        var v = self, r: UInt = 0
        for _ in 0..<UInt.bitWidth {
            r = (r << 1) | (v & 1)
            v >>= 1
        }
        return r
    }
}
