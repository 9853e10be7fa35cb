import AVFoundation
import Foundation
import Testing

/// AVMIDIPlayer without a device: duration and position through the file's tempo map, rate, and Apple's errors
/// for a missing file, bytes that are not a MIDI file and a missing sound bank.
@Suite struct AVMIDIPlayerTests {
    @Test func durationPositionAndRate() throws {
        // 100 BPM, the last note ends at beat 2.5: 1.5 s.
        let player = try AVMIDIPlayer(data: AVAudioSequencerTests.midiFile(bpm: 100), soundBankURL: nil)
        #expect(abs(player.duration - 1.5) < 1e-9)
        #expect(!player.isPlaying)
        #expect(player.currentPosition == 0)
        player.currentPosition = 0.9
        #expect(abs(player.currentPosition - 0.9) < 1e-9)
        player.rate = 2
        #expect(player.rate == 2)
        player.rate = 0  // refused: the rate must be above 0
        #expect(player.rate == 2)
        let file = AVFAudioTestSupport.temporaryURL("mid")
        defer { try? FileManager.default.removeItem(at: file) }
        try AVAudioSequencerTests.midiFile(bpm: 120).write(to: file)
        let fromFile = try AVMIDIPlayer(contentsOf: file, soundBankURL: AVAudioUnitSamplerTests.bank)
        #expect(abs(fromFile.duration - 1.25) < 1e-9)
    }

    @Test func errors() throws {
        func code(_ body: () throws -> Void) -> Int? {
            do { try body() } catch let e as NSError { return e.domain == NSOSStatusErrorDomain ? e.code : nil }
            return nil
        }
        let missing = URL(fileURLWithPath: "/nonexistent/oca-\(UUID().uuidString).mid")
        #expect(code { _ = try AVMIDIPlayer(contentsOf: missing, soundBankURL: nil) } == Int(kAudio_FileNotFoundError))
        // Bytes that are not a MIDI file: the sequence loader's kAudioFileInvalidFileError ('dta?').
        #expect(code { _ = try AVMIDIPlayer(data: Data("not a MIDI file".utf8), soundBankURL: nil) } == Int(kAudioFileInvalidFileError))
        #expect(code { _ = try AVMIDIPlayer(data: AVAudioSequencerTests.midiFile(bpm: 120), soundBankURL: missing) } == Int(kAudio_FileNotFoundError))
        // A file that is not a SoundFont or DLS bank: kAudioUnitErr_InvalidFile from the synthesizer's bank property.
        let notABank = AVFAudioTestSupport.temporaryURL("sf2")
        defer { try? FileManager.default.removeItem(at: notABank) }
        try Data(repeating: 0x41, count: 64).write(to: notABank)
        #expect(code { _ = try AVMIDIPlayer(data: AVAudioSequencerTests.midiFile(bpm: 120), soundBankURL: notABank) } == Int(kAudioUnitErr_InvalidFile))
    }
}
