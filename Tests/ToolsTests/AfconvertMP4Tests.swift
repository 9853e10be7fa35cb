import AudioToolbox
import Foundation
import Testing

/// afconvert into MPEG-4 and ADTS (`-f m4af`, `-f mp4f`, `-f adts`, `-d aac`, `-d alac`, and no -d into an .m4a),
/// checked by ffprobe (codec, rate, channels, duration) and, for ALAC, by ffmpeg decoding the source's samples.
@Suite struct AfconvertMP4Tests {
    static func ffprobe(_ url: URL) throws -> String {
        let tool = try #require(["/usr/bin/ffprobe"].first { FileManager.default.isExecutableFile(atPath: $0) }, "ffprobe is missing")
        let r = try Tools.run(executable: tool, ["-v", "error", "-show_entries", "stream=codec_name,sample_rate,channels:format=duration",
                                                 "-of", "csv=p=0", url.path])
        try #require(r.status == 0, "ffprobe: \(r.stderr)")
        return r.stdout.split(separator: "\n").joined(separator: ";")
    }

    /// The samples ffmpeg decodes, as 16-bit integers.
    static func ffmpegInt16(_ url: URL) throws -> [Int16] {
        let tool = try #require(["/usr/bin/ffmpeg"].first { FileManager.default.isExecutableFile(atPath: $0) }, "ffmpeg is missing")
        let raw = Fixture.tempURL("raw")
        defer { try? FileManager.default.removeItem(at: raw) }
        let r = try Tools.run(executable: tool, ["-v", "error", "-y", "-i", url.path, "-f", "s16le", raw.path])
        try #require(r.status == 0, "ffmpeg: \(r.stderr)")
        return try Data(contentsOf: raw).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    /// The tools do not link libavcodec: it is opened on the first AAC codec (its ~100 dependencies cost every start-up
    /// tens of milliseconds otherwise), yet `-d aac` works from the same binary (the other tests here).
    @Test(arguments: ["afconvert", "afinfo", "afplay"])
    func toolsDoNotLoadLibavcodecAtStartUp(tool: String) throws {
        let ldd = try #require(["/usr/bin/ldd"].first { FileManager.default.isExecutableFile(atPath: $0) }, "ldd is missing")
        let r = try Tools.run(executable: ldd, [try Tools.path(tool)])
        try #require(r.status == 0, "ldd: \(r.stderr)")
        #expect(r.stdout.contains("libswiftCore"), "ldd lists the tool's libraries")
        #expect(!r.stdout.contains("libavcodec") && !r.stdout.contains("libavutil"))
    }

    /// Apple's form with several outputs: `afconvert in.wav -o a.caf -d LEI24 -o b.m4a -d aac -b 64000` writes both, each
    /// with the options after its -o (ffprobe: 24-bit PCM in the CAF, AAC near 64 kbit/s in the .m4a); a failing output
    /// makes the exit status 1 and leaves the others written.
    @Test func severalOutputsEachWithItsOptions() throws {
        let wav = Fixture.tempURL("wav"), a = Fixture.tempURL("caf"), b = Fixture.tempURL("m4a"), bad = Fixture.tempURL("wav")
        defer { [wav, a, b, bad].forEach { try? FileManager.default.removeItem(at: $0) } }
        try Fixture.writeWAV(wav, frames: 44100)
        var r = try Tools.run("afconvert", [wav.path, "-o", a.path, "-d", "LEI24", "-o", b.path, "-d", "aac", "-b", "64000"])
        #expect(r.status == 0, "\(r.stderr)")
        let pa = try SoundCheckTests.require("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0", a.path])
        let pb = try SoundCheckTests.require("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,bit_rate", "-of", "csv=p=0", b.path])
        #expect(pa.trimmingCharacters(in: .whitespacesAndNewlines) == "pcm_s24le")
        let fields = pb.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",")
        #expect(fields.first == "aac" && abs((Double(fields.last ?? "") ?? 0) - 64000) < 8000, "\(pb)")
        try? FileManager.default.removeItem(at: a)
        r = try Tools.run("afconvert", [wav.path, "-o", bad.path, "-d", "aac", "-o", a.path, "-d", "LEI16"])
        #expect(r.status == 1 && FileManager.default.fileExists(atPath: a.path) && !FileManager.default.fileExists(atPath: bad.path), "\(r.stderr)")
    }

    /// A 5.1 layout goes into the .m4a's 'chan' box (as Apple's files carry it): ffprobe reads 5.1 from it and Audio File
    /// Services reads the layout back as it was written (the WAVE's own layout, from its channel mask; MPEG_5_1_C when -l
    /// names it).
    @Test func m4aKeepsTheChannelLayout() throws {
        let wav = Fixture.tempURL("wav"), a = Fixture.tempURL("m4a"), c = Fixture.tempURL("m4a")
        defer { [wav, a, c].forEach { try? FileManager.default.removeItem(at: $0) } }
        try SoundCheckTests.require("/usr/bin/sox", ["-n", "-r", "48000", "-c", "6", "-b", "16", wav.path, "synth", "0.5", "sine", "300", "vol", "0.2"])
        #expect(try Tools.run("afconvert", ["-f", "m4af", "-d", "aac", wav.path, a.path]).status == 0)
        #expect(try Tools.run("afconvert", ["-f", "m4af", "-d", "alac", "-l", "MPEG_5_1_C", wav.path, c.path]).status == 0)
        func layout(_ url: URL) throws -> AudioChannelLayout {
            var file: AudioFileID?
            try #require(AudioFileOpenURL(url as CFURL, .readPermission, 0, &file) == noErr)
            defer { AudioFileClose(file!) }
            var layout = AudioChannelLayout(), size = UInt32(MemoryLayout<AudioChannelLayout>.size)
            #expect(AudioFileGetProperty(file!, kAudioFilePropertyChannelLayout, &size, &layout) == noErr)
            return layout
        }
        let source = try layout(wav)
        #expect(source.mChannelLayoutTag == kAudioChannelLayoutTag_UseChannelBitmap && source.mChannelBitmap.rawValue == 0x3F)
        for (url, expected) in [(a, source), (c, AudioChannelLayout(mChannelLayoutTag: kAudioChannelLayoutTag_MPEG_5_1_C, mChannelBitmap: [],
                                                                     mNumberChannelDescriptions: 0, mChannelDescriptions: AudioChannelDescription()))] {
            let probe = try SoundCheckTests.require("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream=channel_layout", "-of", "csv=p=0", url.path])
            #expect(probe.trimmingCharacters(in: .whitespacesAndNewlines) == "5.1", "\(url.lastPathComponent): ffprobe \(probe)")
            let read = try layout(url)
            #expect(read.mChannelLayoutTag == expected.mChannelLayoutTag && read.mChannelBitmap == expected.mChannelBitmap,
                    "\(url.lastPathComponent): tag \(read.mChannelLayoutTag) bitmap \(read.mChannelBitmap.rawValue)")
        }
    }

    /// An MPEG-4 file with two ALAC tracks (made by ffmpeg): Audio File Services counts both, kAudioFilePropertyUseAudioTrack
    /// switches to the second (its duration), and afconvert --read-track 1 writes exactly the samples ffmpeg decodes
    /// from that track; a track past the end is refused with -50.
    @Test func readTrackPicksTheTrack() throws {
        let tool = try #require(["/usr/bin/ffmpeg"].first { FileManager.default.isExecutableFile(atPath: $0) }, "ffmpeg is missing")
        let two = Fixture.tempURL("m4a"), out = Fixture.tempURL("wav"), raw = Fixture.tempURL("raw")
        defer { [two, out, raw].forEach { try? FileManager.default.removeItem(at: $0) } }
        var r = try Tools.run(executable: tool, ["-v", "error", "-f", "lavfi", "-i", "sine=440:d=1", "-f", "lavfi", "-i", "sine=1000:d=2",
                                                 "-map", "0", "-map", "1", "-c:a", "alac", two.path])
        try #require(r.status == 0, "ffmpeg: \(r.stderr)")
        var file: AudioFileID?
        try #require(AudioFileOpenURL(two as CFURL, .readPermission, 0, &file) == noErr)
        var count: UInt32 = 0, track: UInt32 = 1, duration = 0.0, size = UInt32(4)
        #expect(AudioFileGetProperty(file!, kAudioFilePropertyAudioTrackCount, &size, &count) == noErr && count == 2)
        #expect(AudioFileSetProperty(file!, kAudioFilePropertyUseAudioTrack, 4, &track) == noErr)
        size = 8
        #expect(AudioFileGetProperty(file!, kAudioFilePropertyEstimatedDuration, &size, &duration) == noErr && abs(duration - 2) < 1e-6)
        track = 2
        #expect(AudioFileSetProperty(file!, kAudioFilePropertyUseAudioTrack, 4, &track) == kAudio_ParamError)
        AudioFileClose(file!)
        r = try Tools.run("afconvert", ["--read-track", "1", "-f", "WAVE", "-d", "LEI16", two.path, out.path])
        #expect(r.status == 0, "\(r.stderr)")
        r = try Tools.run(executable: tool, ["-v", "error", "-y", "-i", two.path, "-map", "0:a:1", "-f", "s16le", raw.path])
        try #require(r.status == 0, "ffmpeg: \(r.stderr)")
        let expected = try Data(contentsOf: raw).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        let ours = try Self.ffmpegInt16(out)
        #expect(ours.count == 88200 && ours == expected, "\(ours.count) frames")
        r = try Tools.run("afconvert", ["--read-track", "2", "-f", "WAVE", two.path, out.path])
        #expect(r.status == 1 && r.stderr.contains("-50"), "\(r.stderr)")
    }

    @Test func afconvertWritesM4AAndADTS() throws {
        let wav = Fixture.tempURL("wav")
        try Fixture.writeWAV(wav, frames: 88200)
        let outputs = ["aac.m4a", "alac.m4a", "aac.aac", "aac.mp4", "default.m4a"].map { Fixture.tempURL($0) }
        defer { ([wav] + outputs).forEach { try? FileManager.default.removeItem(at: $0) } }
        let cases: [([String], String)] = [
            (["-f", "m4af", "-d", "aac"], "aac,44100,2;2.000000"),
            (["-f", "m4af", "-d", "alac"], "alac,44100,2;2.000000"),
            (["-f", "adts", "-d", "aac"], "aac,44100,2"),
            (["-f", "mp4f", "-d", "aac@22050"], "aac,22050,2;2.000000"),
            ([], "aac,44100,2;2.000000"),
        ]
        for ((arguments, expected), output) in zip(cases, outputs) {
            let r = try Tools.run("afconvert", arguments + [wav.path, output.path])
            #expect(r.status == 0, "\(arguments): \(r.stderr)")
            let probed = try Self.ffprobe(output)
            // ADTS has no duration of its own: ffprobe estimates it from the bit rate.
            #expect(probed == expected || arguments.contains("adts") && probed.hasPrefix(expected + ";"), "\(arguments): \(probed)")
        }
        // ALAC: ffmpeg decodes the source's samples exactly.
        let source = try Self.ffmpegInt16(wav)
        #expect(source.count == 88200 * 2)
        #expect(try Self.ffmpegInt16(outputs[1]) == source)
        // IMA4 has no place in an M4A.
        let refused = try Tools.run("afconvert", ["-f", "m4af", "-d", "ima4", wav.path, Fixture.tempURL("m4a").path])
        #expect(refused.status != 0 && refused.stderr.contains("'fmt?'"), "\(refused.stderr)")
    }
}
