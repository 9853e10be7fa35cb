/// An OpenAL buffer: its samples converted to Float32 (interleaved, 1 or 2 channels) at its own rate, and the
/// original format (for AL_BITS, AL_SIZE and byte offsets). Its samples are replaced only while no source
/// references it, so a render callback that reads them never sees them change.
final class ALBuffer {
    let id: ALuint
    var samples: [Float] = []
    var channels = 1
    var bits = 16
    var frequency = 44100
    var format: ALenum = AL_FORMAT_MONO16
    /// Sources whose queue (static or streaming) holds this buffer, counted once per queue entry.
    var references = 0

    init(id: ALuint) { self.id = id }

    var frames: Int { samples.count / channels }
    var bytesPerFrame: Int { channels * bits / 8 }
    var byteSize: Int { frames * bytesPerFrame }

    /// Channels and bits of a buffer format, or nil for a format we do not take.
    static func layout(_ format: ALenum) -> (channels: Int, bits: Int)? {
        switch format {
        case AL_FORMAT_MONO8: return (1, 8)
        case AL_FORMAT_MONO16: return (1, 16)
        case AL_FORMAT_STEREO8: return (2, 8)
        case AL_FORMAT_STEREO16: return (2, 16)
        case AL_FORMAT_MONO_FLOAT32: return (1, 32)
        case AL_FORMAT_STEREO_FLOAT32: return (2, 32)
        default: return nil
        }
    }

    /// Copies `size` bytes of `format` into Float32 samples (8-bit is unsigned, 16-bit signed, as the spec says).
    func fill(format: ALenum, data: UnsafeRawPointer?, size: Int, frequency: Int) {
        let (channels, bits) = Self.layout(format)!
        let frames = size / (channels * bits / 8)
        var out = [Float](repeating: 0, count: frames * channels)
        if let data {
            let count = frames * channels
            switch bits {
            case 8:
                let p = data.assumingMemoryBound(to: UInt8.self)
                for i in 0..<count { out[i] = (Float(p[i]) - 128) / 128 }
            case 16:
                for i in 0..<count { out[i] = Float(data.loadUnaligned(fromByteOffset: 2 * i, as: Int16.self)) / 32768 }
            default:
                for i in 0..<count { out[i] = data.loadUnaligned(fromByteOffset: 4 * i, as: Float.self) }
            }
        }
        samples = out
        self.channels = channels
        self.bits = bits
        self.frequency = frequency
        self.format = format
    }
}
