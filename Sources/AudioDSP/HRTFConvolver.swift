/// Binaural rendering of a mono signal through a pair of head-related impulse responses (left and right ear), by
/// direct convolution. A new filter pair crossfades from the old one across the next slice, so a moving source does
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
        current.update(from: left, count: taps)
        (current + taps).update(from: right, count: taps)
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
                var l: Float = 0, r: Float = 0
                let x = history + i + t - 1
                for k in 0..<t {
                    let s = x[-k]
                    l += previous[k] * s
                    r += previous[t + k] * s
                }
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
        let t = taps
        for i in 0..<n {
            var l: Float = 0, r: Float = 0
            let x = history + i + t - 1
            for k in 0..<t {
                let s = x[-k]
                l += filter[k] * s
                r += filter[t + k] * s
            }
            left[i] = l
            right[i] = r
        }
    }

    /// Forgets the input history (the filters stay).
    public func reset() {
        history.update(repeating: 0, count: taps - 1 + maximumFrames)
        crossfade = false
    }
}
