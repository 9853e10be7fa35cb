import AVFoundation
import Foundation
import Testing

/// AVAudioPlayer's initializers without a device: what they read from a file, and the errors Apple's throw.
@Suite struct AVAudioPlayerFileTests {
    typealias S = AVFAudioTestSupport

    /// A file that does not exist: NSOSStatusErrorDomain with AudioFile's file-not-found code (-43, fnfErr).
    @Test func missingFileThrowsFileNotFound() throws {
        let url = S.temporaryURL("wav")
        do {
            _ = try AVAudioPlayer(contentsOf: url)
            Issue.record("a missing file was accepted")
        } catch let error as NSError {
            #expect(error.domain == NSOSStatusErrorDomain)
            #expect(error.code == Int(kAudio_FileNotFoundError) && error.code == -43)
        }
    }

    /// Bytes that are no audio file: kAudioFileUnsupportedFileTypeError ('typ?'), from data and from a file.
    @Test func garbageThrowsUnsupportedFileType() throws {
        let garbage = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) })
        for attempt in 0..<2 {
            let url = S.temporaryURL("bin")
            defer { try? FileManager.default.removeItem(at: url) }
            do {
                if attempt == 0 {
                    _ = try AVAudioPlayer(data: garbage)
                } else {
                    try garbage.write(to: url)
                    _ = try AVAudioPlayer(contentsOf: url)
                }
                Issue.record("garbage was accepted")
            } catch let error as NSError {
                #expect(error.domain == NSOSStatusErrorDomain)
                #expect(error.code == Int(kAudioFileUnsupportedFileTypeError), "code \(error.code)")
            }
        }
    }

    /// A WAV given as data, with and without a type hint: its length, channels and format are the file's.
    @Test func dataAndHintsDescribeTheFile() throws {
        let url = try S.writeTone(seconds: 0.25, channels: 1)
        defer { try? FileManager.default.removeItem(at: url) }
        let bytes = try Data(contentsOf: url)
        for player in [try AVAudioPlayer(data: bytes), try AVAudioPlayer(data: bytes, fileTypeHint: "com.microsoft.waveform-audio"),
                       try AVAudioPlayer(contentsOf: url, fileTypeHint: "com.microsoft.waveform-audio")] {
            #expect(abs(player.duration - 0.25) < 1e-6)
            #expect(player.numberOfChannels == 1)
            #expect(player.format.channelCount == 1 && player.format.sampleRate == 44100)
            #expect(!player.isPlaying && player.volume == 1 && player.pan == 0 && player.rate == 1 && player.numberOfLoops == 0)
            player.rate = 5
            #expect(player.rate == 2)
            player.volume = 2
            #expect(player.volume == 1)
        }
    }
}
