// Sound Check and loudness for afconvert (--soundcheck-generate, --soundcheck-read) and afinfo: a file measured with
// AudioDSP's BS.1770 meter through the public ExtAudioFile API, and the info-dictionary entries that carry it.
import AudioDSP
import AudioToolbox
import Foundation

/// Loudness analysis of a file and the info-dictionary entries that keep it. Apple's own Sound Check keys are not
/// published: the keys here are ours, except that in MPEG-4 "sound check" is iTunes' iTunNORM item.
public enum SoundCheck {
    /// iTunNORM's ten words (the gain Sound Check applies, and the peaks).
    public static let soundCheckKey = "sound check"
    /// Integrated loudness, "-16.20 LUFS".
    public static let loudnessKey = "loudness"
    /// Loudness range, "5.10 LU".
    public static let loudnessRangeKey = "loudness range"
    /// True peak, "-1.00 dBTP".
    public static let truePeakKey = "true peak"
    /// Sample peak, "-1.20 dBFS".
    public static let samplePeakKey = "sample peak"
    /// Every key this analysis writes (what --soundcheck-read copies).
    public static let keys = [soundCheckKey, loudnessKey, loudnessRangeKey, truePeakKey, samplePeakKey]
    /// The loudness Sound Check's gain brings a programme to (the level Apple's players are reported to normalise to).
    public static let referenceLoudness = -16.0

    /// Measures the audio of the file at `url` (every frame, Float32 at the file's rate and channels; the channels
    /// weighted by the file's channel layout when it has one); throws the status that stopped the reading as an NSError
    /// in NSOSStatusErrorDomain.
    public static func measure(_ url: CFURL) throws -> LoudnessMeasurement {
        let reader: Float32FileReader
        do { reader = try Float32FileReader(url) } catch { throw NSError(domain: NSOSStatusErrorDomain, code: Int(error.status)) }
        let meter = LoudnessMeter(sampleRate: reader.format.mSampleRate, channels: reader.channels,
                                  weights: weights(reader.file, channels: reader.channels))
        do {
            try reader.forEachChunk { meter.process($0.baseAddress!, frames: $1) }
        } catch {
            throw NSError(domain: NSOSStatusErrorDomain, code: Int(error.status))
        }
        return meter.measurement
    }

    /// BS.1770's weight for each channel of the file's layout (1 in front, 1.41 for the surrounds, 0 for the LFE),
    /// or nil (the meter's default order) when the file has no usable layout.
    static func weights(_ file: ExtAudioFileRef, channels: Int) -> [Double]? {
        var size: UInt32 = 0
        guard ExtAudioFileGetPropertyInfo(file, kExtAudioFileProperty_FileChannelLayout, &size, nil) == noErr, size >= 12 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        guard bytes.withUnsafeMutableBytes({ ExtAudioFileGetProperty(file, kExtAudioFileProperty_FileChannelLayout, &size, $0.baseAddress!) }) == noErr else { return nil }
        guard let labels = channelLabels(Array(bytes.prefix(Int(size)))), labels.count == channels else { return nil }
        let surround: Set<AudioChannelLabel> = [kAudioChannelLabel_LeftSurround, kAudioChannelLabel_RightSurround, kAudioChannelLabel_CenterSurround,
                                                kAudioChannelLabel_LeftSurroundDirect, kAudioChannelLabel_RightSurroundDirect,
                                                kAudioChannelLabel_RearSurroundLeft, kAudioChannelLabel_RearSurroundRight]
        return labels.map { label in
            if label == kAudioChannelLabel_LFEScreen || label == kAudioChannelLabel_LFE2 { return 0 }
            return surround.contains(label) ? 1.41 : 1
        }
    }

    /// The labels of a layout (its descriptions, or those Audio Format Services gives its tag or bitmap).
    static func channelLabels(_ layout: [UInt8]) -> [AudioChannelLabel]? {
        let tag = layout.withUnsafeBytes { $0.loadUnaligned(as: AudioChannelLayoutTag.self) }
        var full = layout
        if tag != kAudioChannelLayoutTag_UseChannelDescriptions {
            let property = tag == kAudioChannelLayoutTag_UseChannelBitmap ? kAudioFormatProperty_ChannelLayoutForBitmap : kAudioFormatProperty_ChannelLayoutForTag
            var specifier: UInt32 = tag == kAudioChannelLayoutTag_UseChannelBitmap ? layout.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 4, as: UInt32.self) } : tag
            var size: UInt32 = 0
            guard AudioFormatGetPropertyInfo(property, 4, &specifier, &size) == noErr, size >= 12 else { return nil }
            full = [UInt8](repeating: 0, count: Int(size))
            guard full.withUnsafeMutableBytes({ AudioFormatGetProperty(property, 4, &specifier, &size, $0.baseAddress) }) == noErr else { return nil }
        }
        return full.withUnsafeBytes { raw -> [AudioChannelLabel]? in
            let count = Int(raw.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
            let stride = MemoryLayout<AudioChannelDescription>.stride
            guard count <= (raw.count - 12) / stride else { return nil }
            return (0..<count).map { raw.loadUnaligned(fromByteOffset: 12 + $0 * stride, as: AudioChannelLabel.self) }
        }
    }

    /// The info-dictionary entries for a measurement.
    public static func info(_ m: LoudnessMeasurement) -> [String: String] {
        func dB(_ x: Double) -> String { x > 0 ? String(format: "%.2f", 20 * log10(x)) : "-inf" }
        return [soundCheckKey: iTunNORM(m),
                loudnessKey: m.integrated.isFinite ? String(format: "%.2f LUFS", m.integrated) : "-inf LUFS",
                loudnessRangeKey: String(format: "%.2f LU", m.range),
                truePeakKey: dB(m.truePeak) + " dBTP", samplePeakKey: dB(m.samplePeak) + " dBFS"]
    }

    /// iTunes' iTunNORM: ten hexadecimal words, each with a leading space. Words 1-2 are 1000 x 10^(-gain/10) and 3-4
    /// 2500 x 10^(-gain/10) (left, right; the gain in dB that brings the programme to `referenceLoudness`), 7-8 the
    /// peak in 16-bit sample units; the others, whose meaning is not public, are 0.
    public static func iTunNORM(_ m: LoudnessMeasurement) -> String {
        let gain = m.integrated.isFinite ? referenceLoudness - m.integrated : 0
        func scaled(_ base: Double) -> UInt32 { UInt32(min(65534, max(0, (base * pow(10, -gain / 10)).rounded()))) }
        let peak = UInt32(min(32767, (m.samplePeak * 32768).rounded()))
        let words = [scaled(1000), scaled(1000), scaled(2500), scaled(2500), 0, 0, peak, peak, 0, 0]
        return words.map { String(format: " %08X", $0) }.joined()
    }

    /// The gain in dB that Sound Check applies for an iTunNORM string (from its first word), or nil if unreadable.
    public static func gain(fromITunNORM text: String) -> Double? {
        guard let first = text.split(separator: " ").first, let word = UInt32(first, radix: 16), word > 0 else { return nil }
        return -10 * log10(Double(word) / 1000)
    }
}
