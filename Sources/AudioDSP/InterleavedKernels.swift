/// Moves between interleaved and planar layouts and 16-bit integers, for units that face a device's
/// interleaved Float32 buffers. Plain functions over buffers; real-time safe.
public enum InterleavedKernels {
    /// Splits `frames` interleaved frames of `channels` channels into planar channels `stride` samples apart.
    @inlinable @_noLocks @_noAllocation
    public static func deinterleave(_ interleaved: UnsafePointer<Float>, channels: Int, frames: Int,
                                    into planar: UnsafeMutablePointer<Float>, stride: Int) {
        for c in 0..<channels {
            for k in 0..<frames { planar[c * stride + k] = interleaved[k * channels + c] }
        }
    }

    /// Channel `channel` of `frames` interleaved frames as 16-bit samples (x 32768, rounded, clipped).
    @inlinable @_noLocks @_noAllocation
    public static func channelToInt16(_ interleaved: UnsafePointer<Float>, channels: Int, channel: Int = 0, frames: Int,
                                      into output: UnsafeMutablePointer<Int16>) {
        for k in 0..<frames {
            // Clamp, then round half away from zero by truncating x ± 0.5 (no rounding-rule type here).
            let x = max(-32768, min(32767, interleaved[k * channels + channel] * 32768))
            output[k] = Int16(x + (x >= 0 ? 0.5 : -0.5))
        }
    }

    /// `frames` 16-bit samples (/ 32768) written to every channel of interleaved frames.
    @inlinable @_noLocks @_noAllocation
    public static func int16ToAllChannels(_ samples: UnsafePointer<Int16>, frames: Int,
                                          into interleaved: UnsafeMutablePointer<Float>, channels: Int) {
        for k in 0..<frames {
            let v = Float(samples[k]) / 32768
            for c in 0..<channels { interleaved[k * channels + c] = v }
        }
    }
}
