// afinfo -x: the full report's fields as XML (the element and attribute names are ours: Apple's XML layout is not
// documented). One <audio_file> per file inside one <audio_info> document.
import AudioToolbox
import Foundation

/// Builds afinfo's XML document.
public enum AudioFileXMLReport {
    /// The document's opening lines.
    public static let header = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<audio_info>\n"
    /// The document's closing line.
    public static let footer = "</audio_info>\n"

    /// Text escaped for an XML attribute or element (control characters a hostile file may hold become U+FFFD,
    /// which XML 1.0 cannot carry).
    public static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default: out.unicodeScalars.append(scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value) ? "\u{FFFD}" : scalar)
            }
        }
        return out
    }

    /// One file's element, appended to `out`.
    public static func element(_ path: String, _ file: AudioFileID, to out: inout AudioFileReport) {
        let s = AudioFileSummary(file)
        func attributes(_ pairs: [(String, String?)]) -> String {
            pairs.compactMap { k, v in v.map { " \(k)=\"\(escaped($0))\"" } }.joined()
        }
        out.line("  <audio_file" + attributes([("file_name", path), ("file_type", s.fileTypeName), ("num_tracks", "\(s.tracks)")]) + ">")
        if let f = s.format {
            out.line("    <data_format" + attributes([
                ("num_channels", "\(f.mChannelsPerFrame)"), ("sample_rate", String(format: "%.0f", f.mSampleRate)),
                ("format_id", fourCharacters(f.mFormatID) ?? String(format: "0x%08X", f.mFormatID)), ("format_flags", "\(f.mFormatFlags)"),
                ("bytes_per_packet", "\(f.mBytesPerPacket)"), ("frames_per_packet", "\(f.mFramesPerPacket)"),
                ("bytes_per_frame", "\(f.mBytesPerFrame)"), ("bits_per_channel", "\(f.mBitsPerChannel)"),
                ("description", describe(f).trimmingCharacters(in: .whitespaces)),
            ]) + "/>")
        }
        if let layout = s.channelLayout { out.line("    <channel_layout>\(escaped(layout))</channel_layout>") }
        func value(_ name: String, _ v: String?) { if let v { out.line("    <\(name)>\(escaped(v))</\(name)>") } }
        value("estimated_duration", s.duration.map { String(format: "%f", $0) })
        value("audio_bytes", s.audioBytes.map { "\($0)" })
        value("audio_packets", s.audioPackets.map { "\($0)" })
        if let t = s.packetTable {
            out.line("    <packet_table" + attributes([("valid_frames", "\(t.mNumberValidFrames)"), ("priming_frames", "\(t.mPrimingFrames)"),
                                                     ("remainder_frames", "\(t.mRemainderFrames)")]) + "/>")
        }
        value("bit_rate", s.bitRate.map { "\($0)" })
        value("packet_size_upper_bound", s.packetSizeUpperBound.map { "\($0)" })
        value("maximum_packet_size", s.maximumPacketSize.map { "\($0)" })
        value("audio_data_file_offset", s.dataOffset.map { "\($0)" })
        value("optimized", s.optimized.map { $0 ? "true" : "false" })
        value("source_bit_depth", s.sourceBitDepth)
        if !s.info.isEmpty {
            out.line("    <info_dictionary>")
            for (key, v) in s.info { out.line("      <entry" + attributes([("key", key)]) + ">\(escaped(v))</entry>") }
            out.line("    </info_dictionary>")
        }
        out.line("  </audio_file>")
    }
}
