#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The mixers' arithmetic: the pan law and a de-zippered, accumulating gain stage. Plain functions over
/// buffers; no allocation.
public enum MixerKernels {
    /// Constant-power pan of a mono source, `pan` in -1 (left) ... 1 (right): the gains are
    /// (cos θ, sin θ) with θ = (pan + 1)·π/4, so L² + R² = 1 everywhere and the centre is -3.01 dB per side.
    @inlinable public static func monoPanGains(_ pan: Float) -> (left: Float, right: Float) {
        let theta = (Double(min(max(pan, -1), 1)) + 1) * Double.pi / 4
        return (Float(cos(theta)), Float(sin(theta)))
    }

    /// Balance of a stereo source: the centre leaves both sides at unity; moving right attenuates the left
    /// side by cos(pan·π/2) (and moving left the right side by cos(-pan·π/2)), silencing it at the end stop.
    @inlinable public static func stereoBalanceGains(_ pan: Float) -> (left: Float, right: Float) {
        let p = Double(min(max(pan, -1), 1))
        return p >= 0 ? (Float(cos(p * Double.pi / 2)), 1) : (1, Float(cos(-p * Double.pi / 2)))
    }

    /// Adds `gain`·`source` into `destination` for `count` samples while `gain` moves toward `target` by at
    /// most `step` per sample (a linear de-zipper; `step` ≥ 1 jumps at once). Returns the gain reached.
    @inlinable @_noLocks @_noAllocation
    public static func accumulate(_ source: UnsafePointer<Float>, into destination: UnsafeMutablePointer<Float>, count: Int,
                                             gain: Float, target: Float, step: Float) -> Float {
        var g = gain
        var i = 0
        if g != target {
            while i < count && g != target {
                g = g < target ? min(g + step, target) : max(g - step, target)
                destination[i] += g * source[i]
                i += 1
            }
        }
        while i < count {
            destination[i] += g * source[i]
            i += 1
        }
        return g
    }

    /// Multiplies `buffer` in place by a gain moving toward `target` as in `accumulate`. Returns the gain reached.
    @inlinable @_noLocks @_noAllocation
    public static func scale(_ buffer: UnsafeMutablePointer<Float>, count: Int, gain: Float, target: Float, step: Float) -> Float {
        var g = gain
        var i = 0
        while i < count && g != target {
            g = g < target ? min(g + step, target) : max(g - step, target)
            buffer[i] *= g
            i += 1
        }
        if g != 1 {
            while i < count {
                buffer[i] *= g
                i += 1
            }
        }
        return g
    }
}
