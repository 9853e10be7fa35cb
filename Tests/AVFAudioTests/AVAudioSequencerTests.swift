import AVFoundation
import Foundation
import Testing

/// AVAudioSequencer on an offline engine with a sampler: a MIDI file's notes start at the frames its tempo says,
/// tracks and their properties, writing back, positions and rate.
@Suite struct AVAudioSequencerTests {
    /// A type 1 MIDI file, 480 ticks per quarter note: a tempo track at `bpm` and one track with A4 at beat 0 and A5
    /// at beat 2, each half a beat long.
    static func midiFile(bpm: Double) -> Data {
        func vlq(_ v: Int) -> [UInt8] {
            var bytes = [UInt8(v & 0x7F)]
            var x = v >> 7
            while x > 0 { bytes.insert(UInt8(x & 0x7F) | 0x80, at: 0); x >>= 7 }
            return bytes
        }
        func chunk(_ id: String, _ body: [UInt8]) -> [UInt8] {
            Array(id.utf8) + [UInt8(body.count >> 24), UInt8((body.count >> 16) & 0xFF), UInt8((body.count >> 8) & 0xFF), UInt8(body.count & 0xFF)] + body
        }
        let mpq = Int((60_000_000 / bpm).rounded())
        let tempo: [UInt8] = [0x00, 0xFF, 0x51, 0x03, UInt8(mpq >> 16), UInt8((mpq >> 8) & 0xFF), UInt8(mpq & 0xFF), 0x00, 0xFF, 0x2F, 0x00]
        var notes: [UInt8] = []
        notes += vlq(0) + [0x90, 69, 100] + vlq(240) + [0x80, 69, 0]
        notes += vlq(720) + [0x90, 81, 100] + vlq(240) + [0x80, 81, 0]
        notes += vlq(0) + [0xFF, 0x2F, 0x00]
        return Data(chunk("MThd", [0, 1, 0, 2, 0x01, 0xE0]) + chunk("MTrk", tempo) + chunk("MTrk", notes))
    }

    @Test func notesStartAtTheirTempoMapFrames() throws {
        let engine = AVAudioEngine()
        let sampler = AVAudioUnitSampler()  // the default sine
        engine.attach(sampler)
        engine.connect(sampler, to: engine.mainMixerNode, format: nil)
        try engine.enableManualRenderingMode(.offline, format: EngineOfflineTests.format, maximumFrameCount: 4096)
        let sequencer = AVAudioSequencer(audioEngine: engine)
        try sequencer.load(from: Self.midiFile(bpm: 100), options: [])
        #expect(sequencer.tracks.count == 1)
        #expect(sequencer.tempoTrack.timeResolution == 480)
        #expect(abs(sequencer.tracks[0].lengthInBeats - 2.5) < 1e-9)
        // 100 BPM: a beat is 0.6 s, 26,460 frames at 44.1 kHz.
        #expect(abs(sequencer.seconds(forBeats: 2) - 1.2) < 1e-9)
        #expect(abs(sequencer.beats(forSeconds: 0.3) - 0.5) < 1e-9)
        try engine.start()
        sequencer.prepareToPlay()
        try sequencer.start()
        #expect(sequencer.isPlaying)
        let (left, _) = try EngineOfflineTests.render(engine, frames: 70_000, slice: 441)
        // Onsets: silence before each note's frame, sound from it (the attack begins at zero, so within 4 frames).
        let second = 2 * 26_460
        #expect(left[..<4].contains { $0 != 0 })
        #expect(left[(second - 2_000)..<second].allSatisfy { abs($0) < 1e-6 }, "the first note has ended before the second")
        #expect(left[second..<(second + 4)].contains { $0 != 0 }, "A5 starts at frame \(second)")
        let a5 = AVAudioUnitSamplerTests.pitch(left[(second + 2_000)..<(second + 6_000)])
        #expect(abs(a5 - 880) < 2)
        #expect(sequencer.currentPositionInBeats > 2.5)
        sequencer.stop()
        #expect(!sequencer.isPlaying)
        engine.stop()
    }

    @Test func tracksPropertiesAndWritingBack() throws {
        let sequencer = AVAudioSequencer()
        try sequencer.load(from: Self.midiFile(bpm: 120), options: [])
        // Written back as MIDI bytes and read again: the notes' length and the tempo survive.
        var error: NSError?
        let data = sequencer.data(withSMPTEResolution: 0, error: &error)
        #expect(error == nil)
        let again = AVAudioSequencer()
        try again.load(from: data, options: [])
        #expect(again.tracks.count == 1)
        #expect(abs(again.tracks[0].lengthInBeats - 2.5) < 1e-9)
        #expect(abs(again.seconds(forBeats: 1) - 0.5) < 1e-9, "120 BPM kept")
        let track = sequencer.tracks[0]
        track.isMuted = true
        #expect(track.isMuted)
        track.offsetTime = 1
        #expect(track.offsetTime == 1)
        track.loopRange = AVMakeBeatRange(0, 2)
        track.numberOfLoops = 3
        track.isLoopingEnabled = true
        #expect(track.isLoopingEnabled && track.numberOfLoops == 3 && track.loopRange.length == 2)
        let added = sequencer.createAndAppendTrack()
        #expect(sequencer.tracks.count == 2)
        #expect(sequencer.removeTrack(added))
        #expect(sequencer.tracks.count == 1)
        sequencer.rate = 2
        #expect(sequencer.rate == 2)
        sequencer.currentPositionInBeats = 1.5
        #expect(abs(sequencer.currentPositionInBeats - 1.5) < 1e-9)
        #expect(abs(sequencer.currentPositionInSeconds - 0.75) < 1e-9)
        #expect(throws: (any Error).self) { try sequencer.load(from: Data([0x4D, 0x54, 0x68, 0x64, 0, 0]), options: []) }
    }
}
