import AVFoundation
import AudioToolboxAAC
import DeviceTestSupport
import Foundation
import Testing

/// AVAudioRecorder on the private PulseAudio server: pacat plays a tone into the "mic" sink, whose monitor is the
/// default input. The files written are read back with AVAudioFile and checked with ffprobe (which must be
/// installed: the tests fail without it).
@Suite(.serialized, .audioServer) struct AVAudioRecorderDeviceTests {
    typealias S = AVFAudioTestSupport

    /// What ffprobe says of a file's first stream and its container.
    struct Probe { var codec: String; var rate: Int; var channels: Int; var container: String; var duration: Double }

    func ffprobe(_ url: URL) throws -> Probe {
        let out = try S.runTool("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,sample_rate,channels:format=format_name,duration",
                                            "-of", "json", url.path])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        let stream = try #require((json["streams"] as? [[String: Any]])?.first, "no stream in \(out)")
        let format = try #require(json["format"] as? [String: Any])
        return Probe(codec: stream["codec_name"] as? String ?? "", rate: Int(stream["sample_rate"] as? String ?? "") ?? 0,
                     channels: stream["channels"] as? Int ?? 0, container: format["format_name"] as? String ?? "",
                     duration: Double(format["duration"] as? String ?? "") ?? 0)
    }

    /// The first channel of a file, as Float32, through AVAudioFile.
    func samples(_ url: URL) throws -> (samples: [Float], rate: Double) {
        let file = try AVAudioFile(forReading: url)
        let buffer = try #require(AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: AVAudioFrameCount(max(file.length, 1))))
        try file.read(into: buffer)
        let data = try #require(buffer.floatChannelData)
        return (Array(UnsafeBufferPointer(start: data[0], count: Int(buffer.frameLength))), file.processingFormat.sampleRate)
    }

    /// The tone in a recording: its amplitude at `frequency` over the half second after its onset, and how long it
    /// sounds.
    func tone(_ x: [Float], frequency: Double, rate: Double) throws -> (amplitude: Double, seconds: Double) {
        let (start, end) = try #require(S.extent(x, threshold: 0.05), "nothing recorded")
        let body = x[(start + Int(rate / 20))...].prefix(Int(rate / 2))
        return (ToneAnalysis.fit(body, frequency: frequency, rate: rate).amplitude, Double(end - start + 1) / rate)
    }

    /// A 16-bit stereo WAV of what is played into the mic: the 660 Hz tone at 0.4 ± 0.01 for its 1 s ± 10%;
    /// currentTime follows the wall clock while recording; stop() tells the delegate once, successfully; ffprobe
    /// reads pcm_s16le, 44100 Hz, 2 channels in a WAV.
    @Test func recordsWhatIsPlayedIntoTheMic() throws {
        let url = S.temporaryURL("wav")
        defer { try? FileManager.default.removeItem(at: url) }
        let recorder = try AVAudioRecorder(url: url, settings: [AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: 44100.0,
                                                                AVNumberOfChannelsKey: 2, AVLinearPCMBitDepthKey: 16])
        #expect(recorder.url == url && recorder.format.commonFormat == .pcmFormatInt16 && recorder.format.channelCount == 2)
        #expect((recorder.settings[AVSampleRateKey] as? NSNumber)?.doubleValue == 44100)
        let probe = DelegateProbe()
        recorder.delegate = probe
        #expect(recorder.prepareToRecord())
        #expect(recorder.record())
        #expect(recorder.isRecording)
        let began = Date()
        Thread.sleep(forTimeInterval: 0.3)
        let player = try PulseTestServer.startPlaying(PulseTestServer.stereoSine(660, seconds: 1.0, amplitude: 0.4))
        player.waitUntilExit()
        Thread.sleep(forTimeInterval: 0.3)
        let elapsed = Date().timeIntervalSince(began)
        let position = recorder.currentTime
        recorder.stop()
        #expect(!recorder.isRecording && recorder.currentTime == 0)
        #expect(abs(position - elapsed) < 0.15, "currentTime \(position) after \(elapsed) s")
        #expect(probe.wait(2))
        Thread.sleep(forTimeInterval: 0.1)
        #expect(probe.calls == [true])

        let (x, rate) = try samples(url)
        let (amplitude, seconds) = try tone(x, frequency: 660, rate: rate)
        #expect(abs(amplitude - 0.4) < 0.01, "amplitude \(amplitude)")
        #expect(abs(seconds - 1.0) < 0.1, "tone lasts \(seconds) s")
        #expect(abs(Double(x.count) / rate - position) < 0.15, "file holds \(Double(x.count) / rate) s")
        let p = try ffprobe(url)
        #expect(p.codec == "pcm_s16le" && p.rate == 44100 && p.channels == 2 && p.container == "wav", "\(p)")
    }

    /// AAC in CAF for a set duration: record(forDuration: 1) stops by itself (delegate told, isRecording false)
    /// with 1 s ± 10% in the file; the tone decodes at 0.4 ± 0.03; ffprobe reads aac, 44100 Hz, 2 channels in CAF.
    @Test func recordsAACForADuration() throws {
        let url = S.temporaryURL("caf")
        defer { try? FileManager.default.removeItem(at: url) }
        let recorder = try AVAudioRecorder(url: url, settings: [AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 44100.0,
                                                                AVNumberOfChannelsKey: 2])
        #expect(recorder.format.streamDescription.pointee.mFramesPerPacket == 1024)
        #expect(recorder.format.magicCookie?.isEmpty == false)
        let probe = DelegateProbe()
        recorder.delegate = probe
        let player = try PulseTestServer.startPlaying(PulseTestServer.stereoSine(660, seconds: 2.5, amplitude: 0.4))
        defer { PulseTestServer.stop(player) }
        Thread.sleep(forTimeInterval: 0.3)
        #expect(recorder.record(forDuration: 1.0))
        #expect(probe.wait(3), "record(forDuration:) did not stop")
        #expect(!recorder.isRecording)
        Thread.sleep(forTimeInterval: 0.1)
        #expect(probe.calls == [true])

        let (x, rate) = try samples(url)
        let length = Double(x.count) / rate
        #expect(abs(length - 1.0) < 0.1, "file holds \(length) s")
        let amplitude = ToneAnalysis.fit(x[Int(0.3 * rate)...].prefix(Int(rate / 2)), frequency: 660, rate: rate).amplitude
        #expect(abs(amplitude - 0.4) < 0.03, "amplitude \(amplitude)")
        if abs(amplitude - 0.4) >= 0.03 { Issue.record("peaks per 50 ms: \(ToneAnalysis.envelope(x)); kept as \(ToneAnalysis.keep(url))") }
        let p = try ffprobe(url)
        #expect(p.codec == "aac" && p.rate == 44100 && p.channels == 2 && p.container == "caf", "\(p)")
        #expect(abs(p.duration - 1.0) < 0.1, "ffprobe duration \(p.duration)")
    }

    /// 24-bit mono AIFF at 48 kHz (big-endian, as AIFF needs), with pause and resume and metering: the input
    /// peak while the tone plays is 0.4's -7.96 dB within 1 dB; currentTime holds still while paused; ffprobe
    /// reads pcm_s24be, 48000 Hz, 1 channel in AIFF.
    @Test func aiffWithPauseAndMetering() throws {
        let url = S.temporaryURL("aif")
        defer { try? FileManager.default.removeItem(at: url) }
        let recorder = try AVAudioRecorder(url: url, settings: [AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: 48000.0,
                                                                AVNumberOfChannelsKey: 1, AVLinearPCMBitDepthKey: 24])
        recorder.isMeteringEnabled = true
        let player = try PulseTestServer.startPlaying(PulseTestServer.stereoSine(660, seconds: 2, amplitude: 0.4))
        defer { PulseTestServer.stop(player) }
        Thread.sleep(forTimeInterval: 0.3)
        #expect(recorder.record())
        Thread.sleep(forTimeInterval: 0.4)
        recorder.updateMeters()
        let peak = recorder.peakPower(forChannel: 0)
        let average = recorder.averagePower(forChannel: 0)
        #expect(recorder.peakPower(forChannel: 1) == -160)
        recorder.pause()
        #expect(!recorder.isRecording)
        let paused = recorder.currentTime
        Thread.sleep(forTimeInterval: 0.3)
        #expect(recorder.currentTime == paused)
        #expect(recorder.record())
        Thread.sleep(forTimeInterval: 0.3)
        let resumed = recorder.currentTime
        recorder.stop()
        #expect(abs(Double(peak) - 20 * log10(0.4)) < 1, "peak \(peak) dB")
        #expect(abs(Double(average) - 20 * log10(0.4 / 2.0.squareRoot())) < 1, "average \(average) dB")
        #expect(abs(paused - 0.4) < 0.1 && abs(resumed - paused - 0.3) < 0.1, "paused at \(paused), then \(resumed)")

        let (x, rate) = try samples(url)
        #expect(rate == 48000)
        #expect(abs(Double(x.count) / rate - resumed) < 0.12, "file holds \(Double(x.count) / rate) s")
        let amplitude = ToneAnalysis.fit(x[Int(0.1 * rate)...].prefix(Int(rate / 4)), frequency: 660, rate: rate).amplitude
        #expect(abs(amplitude - 0.4) < 0.01, "amplitude \(amplitude)")
        let p = try ffprobe(url)
        #expect(p.codec == "pcm_s24be" && p.rate == 48000 && p.channels == 1 && p.container == "aiff", "\(p)")
    }

    /// record(atTime:) waits for its time: isRecording at once, currentTime 0 a quarter second in, 0.4 s ± 0.1
    /// recorded 0.8 s after asking for a start 0.4 s ahead.
    @Test func recordAtTimeStartsLater() throws {
        let url = S.temporaryURL("caf")
        defer { try? FileManager.default.removeItem(at: url) }
        let recorder = try AVAudioRecorder(url: url, settings: [AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: 44100.0,
                                                                AVNumberOfChannelsKey: 1, AVLinearPCMBitDepthKey: 16])
        let now = recorder.deviceCurrentTime
        #expect(recorder.record(atTime: now + 0.4))
        #expect(recorder.isRecording)
        Thread.sleep(forTimeInterval: 0.25)
        #expect(recorder.currentTime == 0)
        Thread.sleep(forTimeInterval: max(0, now + 0.8 - recorder.deviceCurrentTime))
        let position = recorder.currentTime
        recorder.stop()
        #expect(abs(position - 0.4) < 0.1, "currentTime \(position)")
    }

    /// deleteRecording() removes the file init made, refuses while recording and removes the file once stopped;
    /// record() after either starts a new file.
    @Test func deleteRecordingAndRecordAgain() throws {
        let url = S.temporaryURL("caf")
        defer { try? FileManager.default.removeItem(at: url) }
        let recorder = try AVAudioRecorder(url: url, format: try #require(AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 44100,
                                                                                        channels: 1, interleaved: true)))
        #expect(FileManager.default.fileExists(atPath: url.path))
        // Deleting the file init made, before recording: record() makes it again.
        #expect(recorder.deleteRecording())
        #expect(!FileManager.default.fileExists(atPath: url.path))
        #expect(recorder.record())
        Thread.sleep(forTimeInterval: 0.3)
        #expect(!recorder.deleteRecording())
        recorder.stop()
        #expect(recorder.deleteRecording())
        #expect(!FileManager.default.fileExists(atPath: url.path))
        #expect(recorder.record())
        Thread.sleep(forTimeInterval: 0.2)
        recorder.stop()
        let file = try AVAudioFile(forReading: url)
        #expect(file.length > 4410)
    }

    /// AVAudioApplication's input mute: a recording made while muted holds only zeros though the tone plays into the
    /// mic; unmuted, the next recording hears it.
    @Test func applicationInputMuteZeroesTheRecording() throws {
        func record() throws -> [Float] {
            let url = S.temporaryURL("wav")
            defer { try? FileManager.default.removeItem(at: url) }
            let recorder = try AVAudioRecorder(url: url, settings: [AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: 44100.0,
                                                                    AVNumberOfChannelsKey: 1, AVLinearPCMBitDepthKey: 16])
            let player = try PulseTestServer.startPlaying(PulseTestServer.stereoSine(660, seconds: 1.2, amplitude: 0.4))
            defer { PulseTestServer.stop(player) }
            Thread.sleep(forTimeInterval: 0.2)
            #expect(recorder.record())
            Thread.sleep(forTimeInterval: 0.7)
            recorder.stop()
            return try samples(url).samples
        }
        try AVAudioApplication.shared.setInputMuted(true)
        #expect(AVAudioApplication.shared.isInputMuted)
        let muted = try record()
        try AVAudioApplication.shared.setInputMuted(false)
        let open = try record()
        #expect(muted.count > 20_000 && muted.allSatisfy { $0 == 0 }, "\(muted.count) samples, peak \(muted.map(abs).max() ?? 0)")
        #expect(open.contains { abs($0) > 0.2 })
    }
}
