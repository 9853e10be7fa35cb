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

    /// The average bit rate an MPEG-4 ES descriptor (the AAC magic cookie) declares: its DecoderConfigDescriptor
    /// (tag 4) holds object type, stream type, buffer size (3 bytes), maximum and average bit rate.
    static func averageBitRate(_ cookie: Data) -> UInt32? {
        let b = [UInt8](cookie)
        var i = 0
        while i < b.count {
            if b[i] == 0x04 {
                var j = i + 1
                while j < b.count && b[j] & 0x80 != 0 { j += 1 }  // the length's continuation bytes
                let at = j + 1 + 1 + 1 + 3 + 4
                guard at + 4 <= b.count else { return nil }
                return b[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) }
            }
            i += 1
        }
        return nil
    }

    /// AVEncoderBitRateKey (and the per-channel key) reach the recorder's encoder: the AAC cookie declares the bit rate
    /// asked for, 64 kbit/s per channel without one.
    @Test func encoderBitRateReachesTheCodec() throws {
        let url = S.temporaryURL("caf")
        defer { try? FileManager.default.removeItem(at: url) }
        func cookieRate(_ extra: [String: Any]) throws -> UInt32? {
            let recorder = try AVAudioRecorder(url: url, settings: [AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 44100.0,
                                                                    AVNumberOfChannelsKey: 2].merging(extra) { $1 })
            return recorder.format.magicCookie.flatMap(Self.averageBitRate)
        }
        #expect(try cookieRate([:]) == 128_000)
        #expect(try cookieRate([AVEncoderBitRateKey: 96_000]) == 96_000)
        #expect(try cookieRate([AVEncoderBitRatePerChannelKey: 48_000]) == 96_000)
        #expect(try cookieRate([AVEncoderBitRateKey: 1]) == 128_000)  // refused by the codec: its own choice
    }
}
