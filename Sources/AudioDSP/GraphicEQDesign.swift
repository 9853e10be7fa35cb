#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A ten-band graphic EQ (octave bands 32 Hz ... 16 kHz) built from peaking sections, with the section
/// gains solved so the cascade's response at every band centre equals the requested band gain (octave
/// peaking filters overlap, so naive gains would overshoot).
public enum GraphicEQDesign {
    public static let bandFrequencies: [Double] = [32, 64, 125, 250, 500, 1000, 2000, 4000, 8000, 16000]
    /// One-octave bandwidth.
    public static let q = 1.41

    /// The sections for `bandGains` (dB, one per band) at `sampleRate`. Bands at or above 0.45·rate are left
    /// out (their section is the identity). Solved by fixed-point iteration on the centre responses.
    public static func sections(bandGains: [Double], sampleRate: Double) -> [BiquadCoefficients] {
        let usable = bandFrequencies.map { $0 < 0.45 * sampleRate }
        var gains = bandGains
        func build() -> [BiquadCoefficients] {
            bandFrequencies.indices.map { b in
                usable[b] && gains[b] != 0
                    ? BiquadCoefficients.peaking(frequency: bandFrequencies[b], q: q, gainDB: gains[b], sampleRate: sampleRate) : .identity
            }
        }
        guard bandGains.contains(where: { $0 != 0 }) else { return build() }
        for _ in 0..<40 {
            let s = build()
            var worst = 0.0
            for b in bandFrequencies.indices where usable[b] {
                let error = bandGains[b] - response(s, at: bandFrequencies[b], sampleRate: sampleRate)
                worst = max(worst, abs(error))
                gains[b] += 0.9 * error
            }
            if worst < 0.01 { break }
        }
        return build()
    }

    /// The cascade's response in dB at `frequency`.
    public static func response(_ sections: [BiquadCoefficients], at frequency: Double, sampleRate: Double) -> Double {
        sections.reduce(0.0) { $0 + 20 * log10($1.magnitude(at: frequency, sampleRate: sampleRate)) }
    }
}
