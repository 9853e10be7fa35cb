import Foundation

/// Writes mono 16-bit PCM RIFF/WAVE files.
enum PCM16WaveFile {
    /// The complete file for `samples` (full scale ±1).
    ///
    /// Samples are scaled by 32768 and clamped, so the engine's output, which is
    /// espeak-ng's Int16 divided by 32768, round-trips to espeak-ng's exact samples.
    static func data(for samples: [Float], sampleRate: Int) -> Data {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(44 + 2 * samples.count)
        func tag(_ text: String) { bytes.append(contentsOf: Array(text.utf8)) }
        func u32(_ value: Int) { for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> shift)) } }
        func u16(_ value: Int) { bytes.append(UInt8(truncatingIfNeeded: value)); bytes.append(UInt8(truncatingIfNeeded: value >> 8)) }
        tag("RIFF"); u32(36 + 2 * samples.count); tag("WAVE")
        tag("fmt "); u32(16); u16(1); u16(1); u32(sampleRate); u32(2 * sampleRate); u16(2); u16(16)
        tag("data"); u32(2 * samples.count)
        for sample in samples {
            let scaled = (sample * 32_768).rounded()
            u16(Int(Int16(min(max(scaled, -32_768), 32_767))))
        }
        return Data(bytes)
    }
}
