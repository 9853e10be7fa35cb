// A music player's "AudioEngineManager", written the way player apps (and the Ray Wenderlich / Kodeco
// AVAudioEngine tutorial) write it: player -> time-pitch -> 10-band graphic EQ -> main mixer, the file
// scheduled with a completion handler, pause / seek by scheduleSegment, position from lastRenderTime.
// Offline here: the engine is put into manual rendering mode and pulled by the test.
import AVFoundation
import Foundation
import Testing

/// The app's manager class, unchanged apart from `renderOffline(frames:)`.
final class AudioEngineManager: @unchecked Sendable {
    let engine = AVAudioEngine()
    let player = AVAudioPlayerNode()
    let timePitch = AVAudioUnitTimePitch()
    let equalizer = AVAudioUnitEQ(numberOfBands: 10)

    static let bandFrequencies: [Float] = [32, 64, 125, 250, 500, 1000, 2000, 4000, 8000, 16000]

    private(set) var audioFile: AVAudioFile?
    private(set) var audioSampleRate: Double = 0
    private(set) var audioLengthSeconds: Double = 0
    private(set) var audioLengthSamples: AVAudioFramePosition = 0
    private var seekFrame: AVAudioFramePosition = 0
    private(set) var currentPosition: AVAudioFramePosition = 0
    private var needsFileScheduled = true
    private let lock = NSLock()
    private var _completions = 0
    var completions: Int { lock.lock(); defer { lock.unlock() }; return _completions }

    var isPlaying: Bool { player.isPlaying }

    var playbackRate: Float {
        get { timePitch.rate }
        set { timePitch.rate = newValue }
    }

    var pitchInCents: Float {
        get { timePitch.pitch }
        set { timePitch.pitch = newValue }
    }

    init() {
        engine.attach(player)
        engine.attach(timePitch)
        engine.attach(equalizer)
        for (index, band) in equalizer.bands.enumerated() {
            band.filterType = .parametric
            band.frequency = Self.bandFrequencies[index]
            band.bandwidth = 0.5
            band.gain = 0
            band.bypass = false
        }
        equalizer.globalGain = 0
    }

    func setGains(_ gains: [Float]) {
        for (band, gain) in zip(equalizer.bands, gains) {
            band.gain = gain
        }
    }

    func setupAudio(url: URL, manualRenderingFrames: AVAudioFrameCount? = nil) throws {
        let file = try AVAudioFile(forReading: url)
        let format = file.processingFormat
        audioLengthSamples = file.length
        audioSampleRate = format.sampleRate
        audioLengthSeconds = Double(audioLengthSamples) / audioSampleRate
        audioFile = file

        engine.connect(player, to: timePitch, format: format)
        engine.connect(timePitch, to: equalizer, format: format)
        engine.connect(equalizer, to: engine.mainMixerNode, format: format)
        if let frames = manualRenderingFrames {
            try engine.enableManualRenderingMode(.offline, format: format, maximumFrameCount: frames)
        }
        engine.prepare()
        try engine.start()
        scheduleAudioFile()
    }

    private func scheduleAudioFile() {
        guard let file = audioFile, needsFileScheduled else { return }
        needsFileScheduled = false
        seekFrame = 0
        player.scheduleFile(file, at: nil) { [weak self] in
            guard let self else { return }
            self.lock.lock()
            self._completions += 1
            self.lock.unlock()
            self.needsFileScheduled = true
        }
    }

    func playOrPause() {
        if player.isPlaying {
            player.pause()
        } else {
            if needsFileScheduled {
                scheduleAudioFile()
            }
            player.play()
        }
    }

    func updatePosition() {
        if let nodeTime = player.lastRenderTime, let playerTime = player.playerTime(forNodeTime: nodeTime) {
            currentPosition = playerTime.sampleTime + seekFrame
            currentPosition = max(currentPosition, 0)
            currentPosition = min(currentPosition, audioLengthSamples)
        }
    }

    var currentTime: TimeInterval { Double(currentPosition) / audioSampleRate }

    func seek(to time: Double) {
        guard let audioFile else { return }
        let offset = AVAudioFramePosition(time * audioSampleRate)
        seekFrame = currentPosition + offset
        seekFrame = max(seekFrame, 0)
        seekFrame = min(seekFrame, audioLengthSamples)
        currentPosition = seekFrame

        let wasPlaying = player.isPlaying
        player.stop()

        if currentPosition < audioLengthSamples {
            needsFileScheduled = false
            let frameCount = AVAudioFrameCount(audioLengthSamples - seekFrame)
            player.scheduleSegment(audioFile, startingFrame: seekFrame, frameCount: frameCount, at: nil) {
                self.needsFileScheduled = true
            }
            if wasPlaying {
                player.play()
            }
        }
    }

    /// Pulls `frames` frames out of the engine (the test's stand-in for the sound device).
    func renderOffline(frames: AVAudioFrameCount) throws -> AVAudioPCMBuffer {
        let buffer = AVAudioPCMBuffer(pcmFormat: engine.manualRenderingFormat, frameCapacity: frames)!
        let status = try engine.renderOffline(frames, to: buffer)
        #expect(status == .success)
        return buffer
    }
}

@Suite struct EngineManagerClientTests {
    static let rate = 44100.0

    /// A 16-bit stereo WAV "song": a 1 kHz tone at amplitude 0.5, `seconds` long.
    static func makeSong(seconds: Double, frequency: Double = 1000) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("client-song-\(UUID().uuidString).wav")
        let settings: [String: Any] = [AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: rate, AVNumberOfChannelsKey: 2,
                                       AVLinearPCMBitDepthKey: 16, AVLinearPCMIsFloatKey: false, AVLinearPCMIsBigEndianKey: false]
        let file = try AVAudioFile(forWriting: url, settings: settings)
        let frames = AVAudioFrameCount(seconds * rate)
        let buffer = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: frames)!
        buffer.frameLength = frames
        for channel in 0..<Int(buffer.format.channelCount) {
            let samples = buffer.floatChannelData![channel]
            for n in 0..<Int(frames) {
                samples[n] = 0.5 * Float(sin(2 * Double.pi * frequency * Double(n) / rate))
            }
        }
        try file.write(from: buffer)
        return url
    }

    static func rms(_ buffer: AVAudioPCMBuffer, channel: Int = 0, from start: Int = 0) -> Float {
        let samples = buffer.floatChannelData![channel]
        let count = Int(buffer.frameLength) - start
        guard count > 0 else { return 0 }
        var sum: Float = 0
        for n in start..<Int(buffer.frameLength) { sum += samples[n] * samples[n] }
        return (sum / Float(count)).squareRoot()
    }

    @Test func playsTheFileThroughTheChainAndReportsItsPosition() throws {
        let url = try Self.makeSong(seconds: 1)
        defer { try? FileManager.default.removeItem(at: url) }
        let manager = AudioEngineManager()
        try manager.setupAudio(url: url, manualRenderingFrames: 4096)
        #expect(manager.audioLengthSamples == 44100)
        #expect(abs(manager.audioLengthSeconds - 1) < 1e-9)
        #expect(manager.equalizer.bands.count == 10)
        #expect(manager.equalizer.bands.map(\.frequency) == AudioEngineManager.bandFrequencies)
        #expect(manager.equalizer.bands.allSatisfy { $0.filterType == .parametric && $0.bandwidth == 0.5 })
        #expect(manager.engine.isRunning)
        #expect(manager.engine.isInManualRenderingMode)
        #expect(manager.engine.manualRenderingMode == .offline)

        manager.playOrPause()
        #expect(manager.isPlaying)
        var rendered: [AVAudioPCMBuffer] = []
        for _ in 0..<5 { rendered.append(try manager.renderOffline(frames: 4096)) }
        manager.updatePosition()
        // Five 4096-frame slices: the player has played 20480 frames (the time-pitch unit may hold a
        // little back as latency, never more than what was rendered).
        #expect(manager.currentPosition > 16000 && manager.currentPosition <= 20480)
        #expect(manager.currentTime > 0.36 && manager.currentTime <= 0.47)
        // A 0.5-amplitude tone comes out (RMS 0.354, a little less where the time-pitch unit fades in).
        let level = Self.rms(rendered[2])
        #expect(level > 0.3 && level < 0.4, "RMS \(level)")
        #expect(rendered[2].format.channelCount == 2)
        #expect(rendered[2].format.sampleRate == Self.rate)
    }

    @Test func pauseHoldsThePositionAndSilencesTheOutput() throws {
        let url = try Self.makeSong(seconds: 1)
        defer { try? FileManager.default.removeItem(at: url) }
        let manager = AudioEngineManager()
        try manager.setupAudio(url: url, manualRenderingFrames: 4096)
        manager.playOrPause()
        _ = try manager.renderOffline(frames: 4096)
        _ = try manager.renderOffline(frames: 4096)
        manager.playOrPause()  // pause
        #expect(!manager.isPlaying)
        manager.updatePosition()
        let pausedAt = manager.currentPosition
        // The time-pitch unit lets out what it holds, then the output is silent.
        _ = try manager.renderOffline(frames: 4096)
        let silent = try manager.renderOffline(frames: 4096)
        #expect(Self.rms(silent) < 1e-4)
        manager.updatePosition()
        #expect(manager.currentPosition == pausedAt, "a paused player has no player time")
        manager.playOrPause()  // resume where it was
        #expect(manager.isPlaying)
        let resumed = try manager.renderOffline(frames: 4096)
        #expect(Self.rms(resumed, from: 2048) > 0.3)
        manager.updatePosition()
        #expect(manager.currentPosition > pausedAt)
    }

    @Test func seekingSchedulesTheRestOfTheFileAndTheCompletionHandlerRuns() throws {
        let url = try Self.makeSong(seconds: 1)
        defer { try? FileManager.default.removeItem(at: url) }
        let manager = AudioEngineManager()
        try manager.setupAudio(url: url, manualRenderingFrames: 4096)
        manager.playOrPause()
        _ = try manager.renderOffline(frames: 4096)
        manager.updatePosition()
        manager.seek(to: 0.5)  // 0.5 s forward of where it is
        #expect(manager.isPlaying)
        let target = manager.currentPosition
        #expect(target >= 22050 && target <= 22050 + 4096)
        // The rest of the file is (44100 - target) frames; render past it and the sound stops.
        var tail: [AVAudioPCMBuffer] = []
        for _ in 0..<7 { tail.append(try manager.renderOffline(frames: 4096)) }
        #expect(Self.rms(tail[0], from: 2048) > 0.3)
        #expect(Self.rms(tail[6]) < 1e-3, "the seek segment ended")
        // The segment's completion handler runs (from the engine's own thread, so wait a little).
        let deadline = Date().addingTimeInterval(3)
        while manager.completions == 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(manager.completions >= 1, "scheduleFile's completion handler (the stop() before the seek) or the segment's")
        manager.updatePosition()
        #expect(manager.currentPosition == manager.audioLengthSamples)
    }

    @Test func timePitchRateShortensTheSongAndTheEQCutsIt() throws {
        let url = try Self.makeSong(seconds: 1)
        defer { try? FileManager.default.removeItem(at: url) }
        let manager = AudioEngineManager()
        manager.playbackRate = 2.0
        manager.pitchInCents = 0
        #expect(manager.timePitch.rate == 2)
        try manager.setupAudio(url: url, manualRenderingFrames: 4096)
        manager.playOrPause()
        // At rate 2 the 1 s song is over in about 0.5 s: 22050 output frames plus the unit's latency.
        var slices: [AVAudioPCMBuffer] = []
        for _ in 0..<10 { slices.append(try manager.renderOffline(frames: 4096)) }
        #expect(Self.rms(slices[2]) > 0.25)
        #expect(Self.rms(slices[8]) < 1e-3 && Self.rms(slices[9]) < 1e-3)

        // A second manager: -24 dB on every band around 1 kHz, the tone comes out much quieter.
        let cut = AudioEngineManager()
        cut.setGains([0, 0, 0, 0, -24, -24, -24, 0, 0, 0])
        #expect(cut.equalizer.bands[5].gain == -24)
        try cut.setupAudio(url: url, manualRenderingFrames: 4096)
        cut.playOrPause()
        _ = try cut.renderOffline(frames: 4096)
        let quiet = try cut.renderOffline(frames: 4096)
        #expect(Self.rms(quiet) < 0.1, "RMS \(Self.rms(quiet)) with the 1 kHz band cut by 24 dB")
    }

    @Test func volumeAndPanOnThePlayer() throws {
        let url = try Self.makeSong(seconds: 1)
        defer { try? FileManager.default.removeItem(at: url) }
        let manager = AudioEngineManager()
        manager.player.volume = 0.5
        manager.player.pan = -1
        manager.engine.mainMixerNode.outputVolume = 1
        #expect(manager.player.volume == 0.5 && manager.player.pan == -1)
        try manager.setupAudio(url: url, manualRenderingFrames: 4096)
        manager.playOrPause()
        _ = try manager.renderOffline(frames: 4096)
        let buffer = try manager.renderOffline(frames: 4096)
        let left = Self.rms(buffer, channel: 0)
        let right = Self.rms(buffer, channel: 1)
        // The player's pan is applied by the mixer it is connected to; here that is the time-pitch unit,
        // not a mixer, so only the main mixer's input (the EQ) would pan. The volume does the same.
        #expect(left > 0.05, "left \(left), right \(right)")
    }
}
