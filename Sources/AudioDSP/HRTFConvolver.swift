/// Binaural rendering of a mono signal through a pair of head-related impulse responses (left and right ear), by
/// direct convolution: the responses are kept time-reversed, so each output sample is a dot product of two contiguous
/// runs, summed in eight independent lanes (the optimiser turns those into vector operations; one running sum
/// cannot be, as floating-point addition is not associative). A new filter pair crossfades from the old one across the next slice, so a moving source does
/// not click. Preallocated at init; `setFilter` and `process` allocate nothing and take no lock (the 3D mixer's
/// allocation and RealtimeSanitizer tests cover them: the compiler's check rejects class field access here).
public final class HRTFConvolver {
    /// Taps of each impulse response.
    public let taps: Int
    private let maximumFrames: Int
    /// The last taps-1 input samples, then the slice being processed.
    private let history: UnsafeMutablePointer<Float>
    private var current: UnsafeMutablePointer<Float>   // left taps, then right taps
    private var previous: UnsafeMutablePointer<Float>
    private var crossfade = false
    private var hasFilter = false

    /// A convolver for impulse responses of `taps` taps and slices of at most `maximumFrames` frames.
    public init(taps: Int, maximumFrames: Int) {
        self.taps = max(taps, 1)
        self.maximumFrames = max(maximumFrames, 1)
        history = .allocate(capacity: self.taps - 1 + self.maximumFrames)
        history.initialize(repeating: 0, count: self.taps - 1 + self.maximumFrames)
        current = .allocate(capacity: 2 * self.taps)
        current.initialize(repeating: 0, count: 2 * self.taps)
        previous = .allocate(capacity: 2 * self.taps)
        previous.initialize(repeating: 0, count: 2 * self.taps)
    }

    deinit {
        history.deallocate()
        current.deallocate()
        previous.deallocate()
    }

    /// Uses this filter pair from the next `process` on (`taps` values each; copied). The first pair applies at
    /// once; later ones crossfade over the next slice.
    public func setFilter(left: UnsafePointer<Float>, right: UnsafePointer<Float>) {
        if hasFilter && !crossfade {
            let old = current
            current = previous
            previous = old
            crossfade = true
        }
        for k in 0..<taps {
            current[taps - 1 - k] = left[k]
            current[2 * taps - 1 - k] = right[k]
        }
        hasFilter = true
    }

    /// Convolves `count` input samples (at most `maximumFrames`) into the two ears (overwritten).
    public func process(_ input: UnsafePointer<Float>, count: Int, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>) {
        let n = min(count, maximumFrames), t = taps
        (history + (t - 1)).update(from: input, count: n)
        convolve(current, count: n, left: left, right: right)
        if crossfade {
            // Old filter's output faded out, the new one's in, linearly across the slice.
            for i in 0..<n {
                let (l, r) = Self.dotPair(previous, history + i, taps: t)
                let w = Float(i + 1) / Float(n)
                left[i] = left[i] * w + l * (1 - w)
                right[i] = right[i] * w + r * (1 - w)
            }
            crossfade = false
        }
        // Keep the newest taps-1 samples.
        history.update(from: history + n, count: t - 1)
    }

    @inline(__always)
    private func convolve(_ filter: UnsafeMutablePointer<Float>, count n: Int, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>) {
        for i in 0..<n {
            (left[i], right[i]) = Self.dotPair(filter, history + i, taps: taps)
        }
    }

    /// Both ears' outputs for the input run starting at `x`: the reversed left response (`taps` values, then the right
    /// one's) against `x[0..<taps]`, eight lanes at a time.
    @inline(__always)
    private static func dotPair(_ filter: UnsafeMutablePointer<Float>, _ x: UnsafePointer<Float>, taps t: Int) -> (Float, Float) {
        var l = SIMD8<Float>(), r = SIMD8<Float>()
        let f = UnsafeRawPointer(filter), g = UnsafeRawPointer(filter + t), xs = UnsafeRawPointer(x)
        var k = 0
        while k &+ 8 <= t {
            let v = xs.loadUnaligned(fromByteOffset: k &* 4, as: SIMD8<Float>.self)
            l += f.loadUnaligned(fromByteOffset: k &* 4, as: SIMD8<Float>.self) * v
            r += g.loadUnaligned(fromByteOffset: k &* 4, as: SIMD8<Float>.self) * v
            k &+= 8
        }
        var left = l.sum(), right = r.sum()
        while k < t {
            left += filter[k] * x[k]
            right += filter[t + k] * x[k]
            k += 1
        }
        return (left, right)
    }

    /// Forgets the input history (the filters stay).
    public func reset() {
        history.update(repeating: 0, count: taps - 1 + maximumFrames)
        crossfade = false
    }
}
