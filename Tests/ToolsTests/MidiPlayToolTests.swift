import AudioToolbox
import Foundation
import Testing

/// midiplay (ours): a MIDI file rendered to a WAVE file through MusicPlayer and the General MIDI synth on Debian's
/// small bank: the file's length plus two seconds of release, notes starting on their tempo-map frames.
@Suite struct MidiPlayToolTests {
    /// Type 0, 480 ticks per beat, 120 BPM: C4 at beat 0 and G4 at beat 4 (2 s), each half a beat (delta 1,680 ticks
    /// between the first note-off and the second note-on).
    static func midiFile() -> Data {
        let track: [UInt8] = [0x00, 0xFF, 0x51, 0x03, 0x07, 0xA1, 0x20,
                              0x00, 0x90, 60, 100, 0x81, 0x70, 0x80, 60, 0,
                              0x8D, 0x10, 0x90, 67, 100, 0x81, 0x70, 0x80, 67, 0,
                              0x00, 0xFF, 0x2F, 0x00]
        let header: [UInt8] = Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0x01, 0xE0]
        let n = track.count
        return Data(header + Array("MTrk".utf8) + [UInt8(n >> 24), UInt8((n >> 16) & 0xFF), UInt8((n >> 8) & 0xFF), UInt8(n & 0xFF)] + track)
    }

    @Test func rendersAFileOnItsTempoMap() throws {
        let bank = "/usr/share/sounds/sf2/TimGM6mb.sf2"
        try #require(FileManager.default.fileExists(atPath: bank), "timgm6mb-soundfont is required")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("oca-midiplay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let mid = dir.appendingPathComponent("two.mid"), wav = dir.appendingPathComponent("two.wav")
        try Self.midiFile().write(to: mid)
        let run = try Tools.run(executable: try Tools.path("midiplay"), ["-b", bank, "-o", wav.path, mid.path])
        #expect(run.status == 0, "\(run.stderr)")

        var file: ExtAudioFileRef?
        try #require(ExtAudioFileOpenURL(wav as CFURL, &file) == noErr)
        defer { ExtAudioFileDispose(file!) }
        var frames: Int64 = 0
        var size: UInt32 = 8
        ExtAudioFileGetProperty(file!, kExtAudioFileProperty_FileLengthFrames, &size, &frames)
        // The sequence ends at beat 4.5 (2.25 s); two seconds of release follow.
        #expect(frames == Int64((2.25 + 2) * 44100))
        var client = OCAFormat.canonical(sampleRate: 44100, channels: 2, interleaved: true)
        ExtAudioFileSetProperty(file!, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &client)
        var samples = [Float](repeating: 0, count: Int(frames) * 2)
        var count = UInt32(frames)
        try samples.withUnsafeMutableBytes { raw in
            var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 2, mDataByteSize: UInt32(raw.count), mData: raw.baseAddress))
            try #require(ExtAudioFileRead(file!, &count, &list) == noErr)
        }
        let left = stride(from: 0, to: samples.count, by: 2).map { abs(samples[$0]) }
        // 16-bit output: "silent" is below a few LSBs. The first note sounds at once; the second starts at 2 s.
        #expect(left[0..<441].contains { $0 > 1e-3 })
        #expect(left[(88_200 - 4_410)..<(88_200 - 1)].allSatisfy { $0 < 1e-3 }, "the first note has died away")
        #expect(left[88_200..<(88_200 + 441)].contains { $0 > 1e-3 }, "the second note starts at frame 88,200")
        #expect(left[(88_200 - 441)..<88_200].allSatisfy { $0 < 1e-3 }, "and not before")
    }
}
