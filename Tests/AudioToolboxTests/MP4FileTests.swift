import AudioToolbox
import Foundation
import Testing

/// MPEG-4 files ffmpeg writes, read through AudioFile and ExtAudioFile: the sample entry as Apple's
/// description, the sample table as packets (ffprobe's count), the edit list as priming and valid frames,
/// iTunes tags, and FLAC in MP4 decoded to the source exactly.
@Suite struct MP4FileTests {
    static func make(_ ext: String, codec: [String], seconds: Double = 2) throws -> URL {
        let ffmpeg = try #require(FFmpegInteropTests.ffmpeg, "ffmpeg is missing")
        let url = FileSupport.tempURL(ext)
        let (status, text) = try FileSupport.run(ffmpeg, ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=f=440:d=\(seconds)", "-ac", "2"]
                                                 + codec + ["-metadata", "title=In A Box", "-metadata", "artist=ffmpeg", url.path])
        try #require(status == 0, "ffmpeg: \(text)")
        return url
    }

    static func properties(_ url: URL) throws -> (AudioStreamBasicDescription, UInt64, AudioFilePacketTableInfo, [String: Any], AudioFileTypeID) {
        var file: AudioFileID?
        try #require(AudioFileOpenURL(url as CFURL, .readPermission, 0, &file) == noErr)
        defer { AudioFileClose(file!) }
        var format = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        AudioFileGetProperty(file!, kAudioFilePropertyDataFormat, &size, &format)
        var packets: UInt64 = 0
        size = 8
        AudioFileGetProperty(file!, kAudioFilePropertyAudioDataPacketCount, &size, &packets)
        var table = AudioFilePacketTableInfo()
        size = UInt32(MemoryLayout<AudioFilePacketTableInfo>.size)
        AudioFileGetProperty(file!, kAudioFilePropertyPacketTableInfo, &size, &table)
        var dictionary: CFDictionary?
        size = UInt32(MemoryLayout<CFDictionary?>.size)
        AudioFileGetProperty(file!, kAudioFilePropertyInfoDictionary, &size, &dictionary)
        var type: AudioFileTypeID = 0
        size = 4
        AudioFileGetProperty(file!, kAudioFilePropertyFileFormat, &size, &type)
        return (format, packets, table, dictionary as? [String: Any] ?? [:], type)
    }

    static func ffprobePackets(_ url: URL) throws -> Int {
        let ffprobe = try #require(["/usr/bin/ffprobe"].first { FileManager.default.isExecutableFile(atPath: $0) }, "ffprobe is missing")
        let (_, out) = try FileSupport.run(ffprobe, ["-v", "quiet", "-count_packets", "-show_entries", "stream=nb_read_packets", "-of", "csv=p=0", url.path])
        return Int(out.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// AAC in M4A: Apple's description, ffprobe's packet count, the edit list's priming (ffmpeg's encoder
    /// primes 1,024 frames) and exactly 2 s valid, the tags; with the AudioToolboxAAC product linked, ExtAudioFile
    /// decodes it (AACFileTests checks the samples).
    @Test func aacInM4A() throws {
        let url = try Self.make("m4a", codec: ["-c:a", "aac", "-b:a", "128k"])
        defer { try? FileManager.default.removeItem(at: url) }
        let (format, packets, table, info, type) = try Self.properties(url)
        #expect(type == kAudioFileM4AType)
        #expect(format.mFormatID == kAudioFormatMPEG4AAC && format.mFramesPerPacket == 1024 && format.mChannelsPerFrame == 2 && format.mSampleRate == 44100)
        #expect(Int(packets) == (try Self.ffprobePackets(url)))
        #expect(table.mPrimingFrames == 1024 && table.mNumberValidFrames == 88200)
        #expect(info["title"] as? String == "In A Box" && info["artist"] as? String == "ffmpeg")
        var x: ExtAudioFileRef?
        #expect(ExtAudioFileOpenURL(url as CFURL, &x) == noErr)
        if let x { ExtAudioFileDispose(x) }
    }

    /// FLAC in MP4 (dfLa): decoded to the source's samples and length.
    @Test func flacInMP4DecodesExactly() throws {
        let wav = try FLACFileTests.makeWAV(frames: 30_000)
        let mp4 = FileSupport.tempURL("mp4")
        defer { [wav, mp4].forEach { try? FileManager.default.removeItem(at: $0) } }
        let ffmpeg = try #require(FFmpegInteropTests.ffmpeg)
        let (status, text) = try FileSupport.run(ffmpeg, ["-v", "error", "-y", "-i", wav.path, "-c:a", "flac", "-strict", "-2", mp4.path])
        try #require(status == 0, "ffmpeg: \(text)")
        let (format, packets, _, _, type) = try Self.properties(mp4)
        #expect(type == kAudioFileMPEG4Type && format.mFormatID == kAudioFormatFLAC)
        #expect(Int(packets) == (try Self.ffprobePackets(mp4)))
        let (samples, length) = try FLACFileTests.readInt32(mp4, channels: 2)
        #expect(length == 30_000)
        #expect(samples == (try FileSupport.soxSamples(wav)))
    }

    /// ALAC in M4A: Apple Lossless's description from the 'alac' box (its decoder comes with issue 14).
    @Test func alacInM4ADescription() throws {
        let url = try Self.make("m4a", codec: ["-c:a", "alac"])
        defer { try? FileManager.default.removeItem(at: url) }
        let (format, packets, table, _, _) = try Self.properties(url)
        #expect(format.mFormatID == kAudioFormatAppleLossless && format.mFormatFlags == kAppleLosslessFormatFlag_16BitSourceData)
        #expect(format.mFramesPerPacket == 4096 && format.mChannelsPerFrame == 2)
        #expect(Int(packets) == (try Self.ffprobePackets(url)))
        #expect(table.mNumberValidFrames == 88200)
    }

    /// kAudioFormatProperty_ASBDFromESDS on an AAC-LC ES_Descriptor.
    @Test func asbdFromESDS() {
        var esds: [UInt8] = [0x03, 0x19, 0, 0, 0, 0x04, 0x11, 0x40, 0x15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x05, 0x02, 0x12, 0x10, 0x06, 0x01, 0x02]
        var f = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        #expect(AudioFormatGetProperty(kAudioFormatProperty_ASBDFromESDS, UInt32(esds.count), &esds, &size, &f) == noErr)
        #expect(f.mFormatID == kAudioFormatMPEG4AAC && f.mSampleRate == 44100 && f.mChannelsPerFrame == 2 && f.mFramesPerPacket == 1024)
    }
}
