import AVFoundation
import DeviceTestSupport
import Foundation
import Testing

/// AVMIDIPlayer on the private PulseAudio server: a MIDI file played with the General MIDI SoundFont is heard on
/// the "out" sink's monitor with its notes' pitches at the file's tempo, and the completion handler is called once.
@Suite(.serialized, .audioServer) struct AVMIDIPlayerDeviceTests {
    @Test func playsAFileToTheEndAndCallsTheCompletion() throws {
        try #require(FileManager.default.fileExists(atPath: AVAudioUnitSamplerTests.bank.path), "timgm6mb-soundfont is required")
        // 100 BPM: A4 at 0 s, A5 at 1.2 s, each 0.3 s; the sequence ends at 1.5 s.
        let player = try AVMIDIPlayer(data: AVAudioSequencerTests.midiFile(bpm: 100), soundBankURL: AVAudioUnitSamplerTests.bank)
        player.prepareToPlay()
        let done = DispatchSemaphore(value: 0)
        let calls = Counter()
        let capture = try PulseTestServer.Capture()
        Thread.sleep(forTimeInterval: 0.2)
        player.play { calls.add(); done.signal() }
        #expect(player.isPlaying)
        // The player's clock runs from the device's first render (a server that has just started may take a
        // moment): the sequence's beat 0 was heard at `started`.
        let deadline = Date().addingTimeInterval(3)
        while player.currentPosition < 0.05 && Date() < deadline { Thread.sleep(forTimeInterval: 0.002) }
        let started = Date().addingTimeInterval(-player.currentPosition)
        let finished = done.wait(timeout: .now() + 5) == .success
        let took = Date().timeIntervalSince(started)
        Thread.sleep(forTimeInterval: 0.5)
        let heard = capture.finish()[0]
        #expect(finished, "the completion handler was not called")
        #expect(calls.value == 1)
        #expect(!player.isPlaying)
        // The end is seen within the watcher's 5 ms poll and a render slice of the file's 1.5 s.
        #expect(took > 1.48 && took < 1.6, "completion after \(took) s")
        let onset = try #require(ToneAnalysis.onset(heard, threshold: 0.005), "nothing heard")
        let a4 = AVAudioUnitSamplerTests.pitch(heard[(onset + 2_205)..<(onset + 8_820)])
        let second = onset + Int(1.2 * 44_100)
        try #require(heard.count > second + 8_820, "the capture ends early")
        let a5 = AVAudioUnitSamplerTests.pitch(heard[(second + 2_205)..<(second + 8_820)])
        #expect(abs(a4 - 440) < 4, "first note \(a4) Hz")
        #expect(abs(a5 - 880) < 8, "second note at 1.2 s: \(a5) Hz")
    }

    @Test func rateTwoPlaysInHalfTheTime() throws {
        try #require(FileManager.default.fileExists(atPath: AVAudioUnitSamplerTests.bank.path), "timgm6mb-soundfont is required")
        let player = try AVMIDIPlayer(data: AVAudioSequencerTests.midiFile(bpm: 100), soundBankURL: AVAudioUnitSamplerTests.bank)
        player.rate = 2
        player.prepareToPlay()
        let done = DispatchSemaphore(value: 0)
        let capture = try PulseTestServer.Capture()
        Thread.sleep(forTimeInterval: 0.2)
        player.play { done.signal() }
        let deadline = Date().addingTimeInterval(3)
        while player.currentPosition < 0.05 && Date() < deadline { Thread.sleep(forTimeInterval: 0.002) }
        // At rate 2 the position (file seconds) runs twice as fast as the clock.
        let started = Date().addingTimeInterval(-player.currentPosition / 2)
        let finished = done.wait(timeout: .now() + 5) == .success
        let took = Date().timeIntervalSince(started)
        Thread.sleep(forTimeInterval: 0.5)
        let heard = capture.finish()[0]
        #expect(finished)
        #expect(took > 0.73 && took < 0.85, "completion after \(took) s")
        let onset = try #require(ToneAnalysis.onset(heard, threshold: 0.005), "nothing heard")
        let second = onset + Int(0.6 * 44_100)
        try #require(heard.count > second + 8_820, "the capture ends early")
        // The notes keep their pitch; the second comes at 0.6 s.
        #expect(abs(AVAudioUnitSamplerTests.pitch(heard[(onset + 1_000)..<(onset + 5_000)]) - 440) < 4)
        #expect(abs(AVAudioUnitSamplerTests.pitch(heard[(second + 1_000)..<(second + 5_000)]) - 880) < 8)
    }

    @Test func stopEndsPlayingWithoutTheCompletion() throws {
        try #require(FileManager.default.fileExists(atPath: AVAudioUnitSamplerTests.bank.path), "timgm6mb-soundfont is required")
        let player = try AVMIDIPlayer(data: AVAudioSequencerTests.midiFile(bpm: 100), soundBankURL: AVAudioUnitSamplerTests.bank)
        let calls = Counter()
        player.play { calls.add() }
        Thread.sleep(forTimeInterval: 0.5)
        player.stop()
        #expect(!player.isPlaying)
        let position = player.currentPosition
        #expect(position > 0.3 && position < 0.9, "stopped at \(position) s")
        Thread.sleep(forTimeInterval: 1.5)
        #expect(calls.value == 0)
        #expect(abs(player.currentPosition - position) < 1e-9, "the position is kept")
    }
}

/// A thread-safe call counter.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
