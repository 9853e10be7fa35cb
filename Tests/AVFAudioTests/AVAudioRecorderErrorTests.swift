import AVFoundation
import AudioToolboxAAC
import Foundation
import Testing

/// AVAudioRecorder's initializers without a device: the errors for formats and file types it cannot record.
@Suite struct AVAudioRecorderErrorTests {
    typealias S = AVFAudioTestSupport

    func code(_ body: () throws -> Void) -> Int? {
        do { try body() } catch let error as NSError {
            #expect(error.domain == NSOSStatusErrorDomain)
            return error.code
        }
        return nil
    }

    /// No format ID: kAudioFormatUnsupportedDataFormatError. An extension no file type has:
    /// kAudioFileUnsupportedFileTypeError. IMA4 in .m4a (MPEG-4 holds AAC, ALAC, FLAC, Opus): refused, no file left.
    @Test func refusesWhatItCannotRecord() throws {
        let wav = S.temporaryURL("wav")
        #expect(code { _ = try AVAudioRecorder(url: wav, settings: [AVSampleRateKey: 44100.0, AVNumberOfChannelsKey: 1]) }
                == Int(kAudioFormatUnsupportedDataFormatError))
        let unknown = S.temporaryURL("xyz")
        #expect(code { _ = try AVAudioRecorder(url: unknown, settings: [AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: 44100.0,
                                                                        AVNumberOfChannelsKey: 1]) } == Int(kAudioFileUnsupportedFileTypeError))
        let m4a = S.temporaryURL("m4a")
        defer { try? FileManager.default.removeItem(at: m4a) }
        let refused = code { _ = try AVAudioRecorder(url: m4a, settings: [AVFormatIDKey: kAudioFormatAppleIMA4, AVSampleRateKey: 44100.0,
                                                                          AVNumberOfChannelsKey: 2]) }
        #expect(refused != nil && refused != 0)
    }

    /// The recorder's format is the queue's, completed: 16-bit PCM keeps its settings, AAC gets 1024 frames per
    /// packet and a cookie; settings carry the file type.
    @Test func formatIsCompletedByTheQueue() throws {
        let url = S.temporaryURL("caf")
        defer { try? FileManager.default.removeItem(at: url) }
        let recorder = try AVAudioRecorder(url: url, settings: [AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 32000,
                                                                AVNumberOfChannelsKey: 1])
        let f = recorder.format.streamDescription.pointee
        #expect(f.mFormatID == kAudioFormatMPEG4AAC && f.mSampleRate == 32000 && f.mChannelsPerFrame == 1 && f.mFramesPerPacket == 1024)
        #expect((recorder.settings[AVAudioFileTypeKey] as? NSNumber)?.uint32Value == kAudioFileCAFType)
        #expect(!recorder.isRecording && recorder.currentTime == 0)
    }
}
