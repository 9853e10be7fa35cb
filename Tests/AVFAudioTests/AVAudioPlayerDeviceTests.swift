import AVFoundation
import AudioToolboxAAC
import DeviceTestSupport
import Foundation
import Testing

/// AVAudioPlayer on the private PulseAudio server: what it plays is heard on the "out" sink's monitor. The test
/// files are sines written with AVAudioFile; what is heard is measured against what was written.
@Suite(.serialized, .audioServer) struct AVAudioPlayerDeviceTests {
    typealias S = AVFAudioTestSupport

    /// Plays while `body` runs and returns the left channel heard on "out".
    func listen(_ body: () throws -> Void) throws -> [Float] {
        let capture = try PulseTestServer.Capture()
        Thread.sleep(forTimeInterval: 0.2)
        try body()
        Thread.sleep(forTimeInterval: 0.3)
        return capture.finish()[0]
    }

    /// A 1.5 s stereo 1 kHz tone at 0.5: the player reports the file's duration and channels, plays it once
    /// (heard at 0.5 ± 0.01 for 1.5 s ± 50 ms, no dropout), its position advances in real time (0.4 s ± 80 ms
    /// over 0.4 s of wall clock, once the device runs), and the delegate is told once, successfully, off the main
    /// thread; then isPlaying is false and currentTime 0.
    @Test func playsAToneFileAndTellsTheDelegate() throws {
        let url = try S.writeTone(seconds: 1.5)
        defer { try? FileManager.default.removeItem(at: url) }
        let player = try AVAudioPlayer(contentsOf: url)
        #expect(abs(player.duration - 1.5) < 1e-6)
        #expect(player.numberOfChannels == 2)
        #expect(player.currentTime == 0 && !player.isPlaying)
        #expect(player.url == url && player.data == nil)
        #expect(player.format.sampleRate == 44100 && player.format.commonFormat == .pcmFormatInt16)
        #expect((player.settings[AVFormatIDKey] as? NSNumber)?.uint32Value == kAudioFormatLinearPCM)
        let probe = DelegateProbe()
        player.delegate = probe
        var advanced = 0.0
        let heard = try listen {
            #expect(player.prepareToPlay())
            #expect(player.play())
            #expect(player.isPlaying)
            // A sound server that has just started may take a moment to run the device: time from when it does.
            let deadline = Date().addingTimeInterval(2)
            while player.currentTime < 0.1 && Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
            let first = player.currentTime
            Thread.sleep(forTimeInterval: 0.4)
            advanced = player.currentTime - first
            #expect(probe.wait(5), "the delegate was not told")
        }
        #expect(abs(advanced - 0.4) < 0.08, "currentTime advanced \(advanced) s in 0.4 s")
        Thread.sleep(forTimeInterval: 0.2)
        #expect(probe.calls == [true])
        #expect(probe.threads == [false])
        #expect(!player.isPlaying && player.currentTime == 0)
        let (start, end) = try #require(S.extent(heard), "nothing heard")
        let seconds = Double(end - start + 1) / S.rate
        #expect(abs(seconds - 1.5) < 0.05, "heard \(seconds) s")
        let body = heard[(start + 2205)...].prefix(44100)
        let amplitude = ToneAnalysis.fit(body, frequency: 1000, rate: S.rate).amplitude
        #expect(abs(amplitude - 0.5) < 0.01, "amplitude \(amplitude)")
        #expect(ToneAnalysis.longestGap(body, threshold: 1e-3) < 8)
    }

    /// Pausing keeps the position (currentTime holds still while paused) and play() resumes from it: the tone is
    /// heard for the file's 2 s in all, with one silence of the pause's length (0.5 s ± 0.15).
    @Test func pauseAndResumeKeepThePosition() throws {
        let url = try S.writeTone(seconds: 2)
        defer { try? FileManager.default.removeItem(at: url) }
        let player = try AVAudioPlayer(contentsOf: url)
        let probe = DelegateProbe()
        player.delegate = probe
        var paused = (0.0, 0.0)
        let heard = try listen {
            #expect(player.play())
            Thread.sleep(forTimeInterval: 0.6)
            player.pause()
            #expect(!player.isPlaying)
            paused.0 = player.currentTime
            Thread.sleep(forTimeInterval: 0.5)
            paused.1 = player.currentTime
            #expect(player.play())
            #expect(probe.wait(5))
        }
        #expect(abs(paused.0 - 0.6) < 0.1, "paused at \(paused.0)")
        #expect(paused.0 == paused.1)
        let sounding = S.soundingSeconds(heard)
        #expect(abs(sounding - 2.0) < 0.1, "tone heard for \(sounding) s")
        let silence = S.longestSilence(heard)
        #expect(abs(silence - 0.5) < 0.15, "silence of \(silence) s")
        #expect(probe.calls == [true])
    }

    /// stop() keeps the position; setting currentTime to 0 rewinds, and play() starts from the beginning again.
    /// Setting currentTime while playing seeks.
    @Test func stopThenRewindAndSeek() throws {
        let url = try S.writeTone(seconds: 3)
        defer { try? FileManager.default.removeItem(at: url) }
        let player = try AVAudioPlayer(contentsOf: url)
        #expect(player.play())
        Thread.sleep(forTimeInterval: 0.4)
        player.stop()
        #expect(!player.isPlaying)
        let stopped = player.currentTime
        #expect(abs(stopped - 0.4) < 0.1, "stopped at \(stopped)")
        player.currentTime = 0
        #expect(player.currentTime == 0)
        #expect(player.play())
        Thread.sleep(forTimeInterval: 0.3)
        let again = player.currentTime
        #expect(abs(again - 0.3) < 0.1, "\(again) s after restarting")
        player.currentTime = 2.0
        Thread.sleep(forTimeInterval: 0.3)
        let sought = player.currentTime
        #expect(abs(sought - 2.3) < 0.1, "\(sought) s after seeking to 2")
        #expect(player.isPlaying)
        player.stop()
    }

    /// numberOfLoops = 1 plays the file twice: 0.8 s of tone becomes 1.6 s ± 50 ms, without a gap at the seam,
    /// and the delegate is told once.
    @Test func oneLoopPlaysTwiceAsLong() throws {
        let url = try S.writeTone(seconds: 0.8)
        defer { try? FileManager.default.removeItem(at: url) }
        let player = try AVAudioPlayer(contentsOf: url)
        player.numberOfLoops = 1
        let probe = DelegateProbe()
        player.delegate = probe
        let heard = try listen {
            #expect(player.play())
            #expect(probe.wait(5))
        }
        let (start, end) = try #require(S.extent(heard))
        let seconds = Double(end - start + 1) / S.rate
        #expect(abs(seconds - 1.6) < 0.05, "heard \(seconds) s")
        #expect(S.longestSilence(heard) < 0.02)
        Thread.sleep(forTimeInterval: 0.1)
        #expect(probe.calls == [true])
    }

    /// Metering: the peak reported while a tone plays is the file's peak (measured from the samples written,
    /// -6.02 dB for 0.5) within 1 dB, and the average its RMS (-9.03 dB) within 1 dB; channels beyond the file's
    /// read -160.
    @Test func meteringMatchesTheFile() throws {
        let url = try S.writeTone(seconds: 1)
        defer { try? FileManager.default.removeItem(at: url) }
        // The file's own peak and RMS, read back independently of the player.
        let file = try AVAudioFile(forReading: url)
        let buffer = try #require(AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: AVAudioFrameCount(file.length)))
        try file.read(into: buffer)
        let samples = UnsafeBufferPointer(start: try #require(buffer.floatChannelData)[0], count: Int(buffer.frameLength))
        let peak = 20 * log10(samples.map { abs($0) }.max() ?? 0)
        let rms = 10 * log10(samples.reduce(0) { $0 + Double($1) * Double($1) } / Double(samples.count))
        let player = try AVAudioPlayer(contentsOf: url)
        player.isMeteringEnabled = true
        #expect(player.play())
        Thread.sleep(forTimeInterval: 0.4)
        player.updateMeters()
        let measured = (player.peakPower(forChannel: 0), player.averagePower(forChannel: 0), player.peakPower(forChannel: 1))
        #expect(player.peakPower(forChannel: 2) == -160)
        player.stop()
        #expect(abs(measured.0 - peak) < 1, "peak \(measured.0) dB, file \(peak) dB")
        #expect(abs(Double(measured.1) - rms) < 1, "average \(measured.1) dB, file \(rms) dB")
        #expect(abs(measured.2 - peak) < 1)
    }

    /// enableRate with rate 2 plays a 2 s file in 1 s ± 0.1, the tone still at 1 kHz (pitch kept).
    @Test func rateTwoHalvesTheTime() throws {
        let url = try S.writeTone(seconds: 2)
        defer { try? FileManager.default.removeItem(at: url) }
        let player = try AVAudioPlayer(contentsOf: url)
        player.enableRate = true
        player.rate = 2
        let probe = DelegateProbe()
        player.delegate = probe
        let heard = try listen {
            #expect(player.play())
            #expect(probe.wait(5))
        }
        let (start, end) = try #require(S.extent(heard))
        let seconds = Double(end - start + 1) / S.rate
        #expect(abs(seconds - 1.0) < 0.1, "heard \(seconds) s")
        let body = heard[(start + 4410)...].prefix(22050)
        let at1k = ToneAnalysis.fit(body, frequency: 1000, rate: S.rate).amplitude
        let at2k = ToneAnalysis.fit(body, frequency: 2000, rate: S.rate).amplitude
        #expect(at1k > 0.35 && at2k < 0.05, "1 kHz at \(at1k), 2 kHz at \(at2k)")
    }

    /// pan -1 sends a stereo file to the left only (right below 0.005 while left keeps 0.5); a 0.5 s fade to 0
    /// with setVolume(_:fadeDuration:) takes the tone from 90% to 10% of its level in 0.4 s ± 0.1 (linear).
    @Test func panAndVolumeFade() throws {
        let url = try S.writeTone(seconds: 1.5)
        defer { try? FileManager.default.removeItem(at: url) }
        let player = try AVAudioPlayer(contentsOf: url)
        player.pan = -1
        #expect(player.pan == -1)
        let capture = try PulseTestServer.Capture()
        Thread.sleep(forTimeInterval: 0.2)
        #expect(player.play())
        Thread.sleep(forTimeInterval: 0.6)
        player.setVolume(0, fadeDuration: 0.5)
        Thread.sleep(forTimeInterval: 0.8)
        #expect(player.volume == 0)
        player.stop()
        Thread.sleep(forTimeInterval: 0.2)
        let heard = capture.finish()
        let (start, _) = try #require(S.extent(heard[0]))
        let left = ToneAnalysis.fit(heard[0][(start + 2205)...].prefix(8820), frequency: 1000, rate: S.rate).amplitude
        let right = ToneAnalysis.fit(heard[1][(start + 2205)...].prefix(8820), frequency: 1000, rate: S.rate).amplitude
        #expect(abs(left - 0.5) < 0.01 && right < 0.005, "left \(left), right \(right)")
        // The level in 10 ms windows: when it passes 90% and 10% of 0.5 on the way down.
        var levels: [Double] = []
        var i = start
        while i + 441 <= heard[0].count {
            levels.append(ToneAnalysis.fit(heard[0][i..<(i + 441)], frequency: 1000, rate: S.rate).amplitude)
            i += 441
        }
        let high = try #require(levels.lastIndex { $0 > 0.45 })
        let low = try #require(levels[high...].firstIndex { $0 < 0.05 })
        let fall = Double(low - high) * 0.01
        #expect(abs(fall - 0.4) < 0.1, "90% to 10% in \(fall) s")
    }

    /// play(atTime:) waits for its time on deviceCurrentTime's clock: isPlaying at once, currentTime still 0
    /// a quarter second in, and 0.5 s ± 0.1 of audio played a second after asking for a start 0.5 s ahead.
    @Test func playAtTimeStartsLater() throws {
        let url = try S.writeTone(seconds: 2)
        defer { try? FileManager.default.removeItem(at: url) }
        let player = try AVAudioPlayer(contentsOf: url)
        let now = player.deviceCurrentTime
        #expect(player.play(atTime: now + 0.5))
        #expect(player.isPlaying)
        Thread.sleep(forTimeInterval: 0.25)
        #expect(player.currentTime == 0)
        Thread.sleep(forTimeInterval: max(0, now + 1.0 - player.deviceCurrentTime))
        let position = player.currentTime
        #expect(abs(position - 0.5) < 0.1, "currentTime \(position)")
        player.stop()
    }

    /// The test tone encoded to MP3 by ffmpeg (libmp3lame; ffmpeg must be installed) plays through the queue's MP3 decoder: its
    /// duration is 1.5 s within 50 ms (the encoder's delay and padding, when the file does not say them), and the
    /// 1 kHz tone is heard at 0.5 ± 0.03 for 1.5 s ± 60 ms.
    @Test func playsAnMP3File() throws {
        let wav = try S.writeTone(seconds: 1.5)
        let url = S.temporaryURL("mp3")
        defer {
            try? FileManager.default.removeItem(at: url)
            try? FileManager.default.removeItem(at: wav)
        }
        _ = try S.runTool("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", "-i", wav.path, "-c:a", "libmp3lame", "-b:a", "192k", url.path])
        let player = try AVAudioPlayer(contentsOf: url)
        #expect(abs(player.duration - 1.5) < 0.05, "duration \(player.duration)")
        #expect(player.numberOfChannels == 2 && player.format.streamDescription.pointee.mFormatID == kAudioFormatMPEGLayer3)
        let probe = DelegateProbe()
        player.delegate = probe
        let heard = try listen {
            #expect(player.play())
            #expect(probe.wait(5))
        }
        let (start, end) = try #require(S.extent(heard))
        let seconds = Double(end - start + 1) / S.rate
        #expect(abs(seconds - 1.5) < 0.06, "heard \(seconds) s")
        let amplitude = ToneAnalysis.fit(heard[(start + 2205)...].prefix(44100), frequency: 1000, rate: S.rate).amplitude
        #expect(abs(amplitude - 0.5) < 0.03, "amplitude \(amplitude)")
    }

    /// An AAC file in CAF, given as data: its duration (the packet table's valid frames) is the 1 s written
    /// (± 1 ms), and it plays the tone at 0.5 ± 0.03 for 1 s ± 60 ms.
    @Test func playsAACFromData() throws {
        let url = try S.writeTone(seconds: 1, ext: "caf",
                                  settings: [AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 44100.0, AVNumberOfChannelsKey: 2])
        defer { try? FileManager.default.removeItem(at: url) }
        let player = try AVAudioPlayer(data: try Data(contentsOf: url))
        #expect(player.url == nil && player.data != nil)
        #expect(abs(player.duration - 1.0) < 0.001, "duration \(player.duration)")
        #expect((player.settings[AVFormatIDKey] as? NSNumber)?.uint32Value == kAudioFormatMPEG4AAC)
        #expect(player.format.magicCookie?.isEmpty == false)
        let probe = DelegateProbe()
        player.delegate = probe
        let heard = try listen {
            #expect(player.play())
            #expect(probe.wait(5))
        }
        let (start, end) = try #require(S.extent(heard))
        let seconds = Double(end - start + 1) / S.rate
        #expect(abs(seconds - 1.0) < 0.06, "heard \(seconds) s")
        let amplitude = ToneAnalysis.fit(heard[(start + 2205)...].prefix(22050), frequency: 1000, rate: S.rate).amplitude
        #expect(abs(amplitude - 0.5) < 0.03, "amplitude \(amplitude)")
    }
}
