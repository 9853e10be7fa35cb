import Foundation
import Testing

/// afconvert with AMR: `-d samr` into .amr, 3GP and 3GPP2 (byte-identical frames to opencore's encoder driven by
/// scripts/amr-encode.py), and `-d 0`, the packet copy, between .amr and 3GP for both bands (ffmpeg's own decoders
/// decode the copy to the source's samples; the round trip back to .amr is byte-identical).
@Suite struct AfconvertAMRTests {
    static let script = MalformedFileSetTests.scripts.appendingPathComponent("amr-encode.py").path

    /// A 1.5 s two-tone 16-bit mono WAV at `rate`.
    static func tone(_ rate: String) throws -> URL {
        let wav = Fixture.tempURL("wav")
        _ = try SoundCheckTests.require("/usr/bin/sox", ["-n", "-r", rate, "-c", "1", "-b", "16", wav.path, "synth", "1.5", "sine", "300", "sine", "1200", "vol", "0.4"])
        return wav
    }

    /// ffmpeg's decode as raw bytes (through a file: the samples are not text).
    static func decodeFile(_ url: URL, codec: String) throws -> Data {
        let raw = Fixture.tempURL("raw")
        defer { try? FileManager.default.removeItem(at: raw) }
        _ = try SoundCheckTests.require("/usr/bin/ffmpeg", ["-v", "error", "-y", "-c:a", codec, "-i", url.path, "-f", "s16le", raw.path])
        return try Data(contentsOf: raw)
    }

    @Test(arguments: ["amrf", "3gpp", "3gp2"])
    func encodesSamr(_ type: String) throws {
        let wav = try Self.tone("8000")
        let reference = Fixture.tempURL("amr"), ours = Fixture.tempURL(type == "amrf" ? "amr" : type == "3gpp" ? "3gp" : "3g2")
        let back = Fixture.tempURL("amr")
        defer { for u in [wav, reference, ours, back] { try? FileManager.default.removeItem(at: u) } }
        _ = try SoundCheckTests.require("/usr/bin/python3", [Self.script, wav.path, reference.path])
        let r = try Tools.run("afconvert", ["-f", type, "-d", "samr", wav.path, ours.path])
        try #require(r.status == 0, "\(r.stderr)")
        // 1.5 s: 75 frames of 32 bytes at 12.2 kb/s.
        #expect(try Data(contentsOf: reference).count == 6 + 75 * 32)
        if type == "amrf" {
            #expect(try Data(contentsOf: ours) == Data(contentsOf: reference))
        } else {
            // Back out of the container by packet copy: the same frames as opencore's.
            let copy = try Tools.run("afconvert", ["-f", "amrf", "-d", "0", ours.path, back.path])
            try #require(copy.status == 0, "\(copy.stderr)")
            #expect(try Data(contentsOf: back) == Data(contentsOf: reference))
        }
        #expect(try Self.decodeFile(ours, codec: "amrnb") == Self.decodeFile(reference, codec: "amrnb"))
    }

    @Test(arguments: [false, true])
    func packetCopyInto3GP(_ wideband: Bool) throws {
        let wav = try Self.tone(wideband ? "16000" : "8000")
        let amr = Fixture.tempURL("amr"), gp = Fixture.tempURL("3gp"), back = Fixture.tempURL("amr")
        defer { for u in [wav, amr, gp, back] { try? FileManager.default.removeItem(at: u) } }
        _ = try SoundCheckTests.require("/usr/bin/python3", [Self.script, wav.path, amr.path] + (wideband ? ["--wb"] : []))
        var r = try Tools.run("afconvert", ["-f", "3gpp", "-d", "0", amr.path, gp.path])
        try #require(r.status == 0, "\(r.stderr)")
        let probe = try SoundCheckTests.require("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,sample_rate", "-of", "default=nw=1", gp.path])
        #expect(probe.contains(wideband ? "codec_name=amr_wb" : "codec_name=amr_nb") && probe.contains(wideband ? "sample_rate=16000" : "sample_rate=8000"), "\(probe)")
        let codec = wideband ? "amrwb" : "amrnb"
        let fromAMR = try Self.decodeFile(amr, codec: codec)
        #expect(fromAMR.count == 75 * (wideband ? 640 : 320))
        #expect(try Self.decodeFile(gp, codec: codec) == fromAMR)
        r = try Tools.run("afconvert", ["-f", "amrf", "-d", "0", gp.path, back.path])
        try #require(r.status == 0, "\(r.stderr)")
        #expect(try Data(contentsOf: back) == Data(contentsOf: amr))
        // A type that cannot hold the packets says so.
        r = try Tools.run("afconvert", ["-f", "WAVE", "-d", "0", amr.path, Fixture.tempURL("wav").path])
        #expect(r.status != 0 && r.stderr.contains("not valid for file type 'WAVE'"), "\(r.stderr)")
    }

    /// A 44.1 kHz stereo source with a bare `-d samr` cannot make AMR; afconvert says what AMR takes, and the
    /// command it suggests works.
    @Test func saysWhatSamrTakes() throws {
        let wav = Fixture.tempURL("wav"), out = Fixture.tempURL("3gp")
        defer { for u in [wav, out] { try? FileManager.default.removeItem(at: u) } }
        _ = try SoundCheckTests.require("/usr/bin/sox", ["-n", "-r", "44100", "-c", "2", "-b", "16", wav.path, "synth", "1", "sine", "500", "vol", "0.4"])
        var r = try Tools.run("afconvert", ["-f", "3gpp", "-d", "samr", wav.path, out.path])
        #expect(r.status != 0 && r.stderr.contains("it takes 8000 Hz, 1 channel: -d samr@8000 -c 1"), "\(r.stderr)")
        r = try Tools.run("afconvert", ["-f", "3gpp", "-d", "samr@8000", "-c", "1", wav.path, out.path])
        #expect(r.status == 0, "\(r.stderr)")
        let probe = try SoundCheckTests.require("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,duration", "-of", "default=nw=1", out.path])
        #expect(probe.contains("codec_name=amr_nb") && probe.contains("duration=1.000000"), "\(probe)")
        // With a frames-per-packet suffix the suggestion still names the format alone; at the right rate and channel
        // count, a count the encoder cannot take (not whole 160-sample frames) is named instead.
        r = try Tools.run("afconvert", ["-f", "3gpp", "-d", "samr#12", wav.path, out.path])
        #expect(r.status != 0 && r.stderr.contains("it takes 8000 Hz, 1 channel: -d samr@8000 -c 1)"), "\(r.stderr)")
        r = try Tools.run("afconvert", ["-f", "3gpp", "-d", "samr#12@8000", "-c", "1", wav.path, out.path])
        #expect(r.status != 0 && r.stderr.contains("the codec does not take #12 frames per packet"), "\(r.stderr)")
    }
}
