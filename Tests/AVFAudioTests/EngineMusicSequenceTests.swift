import AVFoundation
import Foundation
import Testing

/// AVAudioEngine.musicSequence: a MusicSequence made with the C API and played by a MusicPlayer sounds through the
/// engine's sampler in an offline render, from the frame its tempo map gives.
@Suite struct EngineMusicSequenceTests {
    @Test func aMusicSequencePlaysThroughTheEnginesInstrument() throws {
        let engine = AVAudioEngine()
        let sampler = AVAudioUnitSampler()  // the default sine
        engine.attach(sampler)
        engine.connect(sampler, to: engine.mainMixerNode, format: nil)
        try engine.enableManualRenderingMode(.offline, format: EngineOfflineTests.format, maximumFrameCount: 4096)
        var s: MusicSequence?
        #expect(NewMusicSequence(&s) == noErr)
        let sequence = try #require(s)
        defer { DisposeMusicSequence(sequence) }
        var tempo: MusicTrack?
        MusicSequenceGetTempoTrack(sequence, &tempo)
        #expect(MusicTrackNewExtendedTempoEvent(tempo!, 0, 150) == noErr)
        var t: MusicTrack?
        MusicSequenceNewTrack(sequence, &t)
        var note = MIDINoteMessage(channel: 0, note: 69, velocity: 100, releaseVelocity: 0, duration: 0.5)
        #expect(MusicTrackNewMIDINoteEvent(t!, 1, &note) == noErr)
        #expect(engine.musicSequence == nil)
        engine.musicSequence = sequence
        #expect(engine.musicSequence == sequence)
        var graph: AUGraph?
        #expect(MusicSequenceGetAUGraph(sequence, &graph) == noErr && graph != nil, "the sequence plays through the engine's graph")

        var p: MusicPlayer?
        NewMusicPlayer(&p)
        let player = try #require(p)
        defer { DisposeMusicPlayer(player) }
        MusicPlayerSetSequence(player, sequence)
        try engine.start()
        #expect(MusicPlayerStart(player) == noErr)
        let (left, _) = try EngineOfflineTests.render(engine, frames: 30_000, slice: 441)
        // 150 BPM: beat 1 is 0.4 s, frame 17,640; the attack starts from zero, so sound within 4 frames.
        let onset = 17_640
        #expect(left[..<onset].allSatisfy { abs($0) < 1e-6 }, "silent before the note")
        #expect(left[onset..<(onset + 4)].contains { $0 != 0 }, "the note starts at frame \(onset)")
        #expect(abs(AVAudioUnitSamplerTests.pitch(left[(onset + 2_000)..<(onset + 6_000)]) - 440) < 2)
        MusicPlayerStop(player)
        engine.stop()
        engine.musicSequence = nil
        #expect(engine.musicSequence == nil)
    }
}
