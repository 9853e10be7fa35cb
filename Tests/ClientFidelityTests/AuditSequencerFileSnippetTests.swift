// Audit snippets, third round: AVAudioSequencer files and loops, a time-pitch bounce whose length follows from
// its rate, file segments scheduled on a player with their completion handlers. Apple's API only; offline.
import AVFoundation
import Foundation
import Testing

@Suite struct AuditSequencerFileSnippetTests {
    static func tempURL(_ ext: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("audit-\(UUID().uuidString).\(ext)")
    }

    /// A sequence written to a .mid file and loaded back with smfChannelsToTracks; track loop settings.
    @Test func sequencerFileRoundTripAndLoops() throws {
        let url = Self.tempURL("mid")
        defer { try? FileManager.default.removeItem(at: url) }
        let sequencer = AVAudioSequencer()
        let track = sequencer.createAndAppendTrack()
        track.addEvent(AVMIDINoteEvent(channel: 2, key: 64, velocity: 80, duration: 2), at: 1)
        track.addEvent(AVMIDIControlChangeEvent(channel: 2, messageType: .volume, value: 100), at: 0)
        try sequencer.write(to: url, smpteResolution: 0, replaceExisting: true)
        #expect(throws: (any Error).self) { try sequencer.write(to: url, smpteResolution: 0, replaceExisting: false) }

        let loaded = AVAudioSequencer()
        try loaded.load(from: url, options: .smf_ChannelsToTracks)
        #expect(loaded.tracks.count >= 1)
        let notes = loaded.tracks.flatMap { track -> [AVMIDINoteEvent] in
            var found: [AVMIDINoteEvent] = []
            track.enumerateEvents(in: AVMakeBeatRange(0, AVMusicTimeStampEndOfTrack)) { event, _, _ in
                if let note = event as? AVMIDINoteEvent { found.append(note) }
            }
            return found
        }
        #expect(notes.count == 1)
        #expect(notes.first?.key == 64 && notes.first?.channel == 2 && notes.first?.duration == 2)

        let first = loaded.tracks[0]
        first.loopRange = AVMakeBeatRange(0, 4)
        first.isLoopingEnabled = true
        first.numberOfLoops = AVMusicTrackLoopCount.forever.rawValue
        #expect(first.loopRange.length == 4)
        #expect(first.isLoopingEnabled)
        #expect(first.numberOfLoops == -1)
        first.isMuted = true
        first.isSoloed = false
        first.offsetTime = 0.5
        #expect(first.isMuted && first.offsetTime == 0.5)
        #expect(loaded.tempoTrack.lengthInBeats >= 0)
    }

    /// Time-pitch at rate 0.5 stretches a quarter second to half a second.
    @Test func timePitchBounceLength() throws {
        let engine = AVAudioEngine()
        let player = AVAudioPlayerNode()
        let timePitch = AVAudioUnitTimePitch()
        engine.attach(player)
        engine.attach(timePitch)
        let format = AVAudioFormat(standardFormatWithSampleRate: 44100, channels: 1)!
        engine.connect(player, to: timePitch, format: format)
        engine.connect(timePitch, to: engine.mainMixerNode, format: format)
        timePitch.rate = 0.5
        #expect(timePitch.rate == 0.5)
        try engine.enableManualRenderingMode(.offline, format: format, maximumFrameCount: 4410)
        let source = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 11025)!
        source.frameLength = 11025
        for i in 0..<11025 { source.floatChannelData![0][i] = 0.4 * Float(sin(2 * Double.pi * 440 * Double(i) / 44100)) }
        player.scheduleBuffer(source, completionHandler: nil)
        try engine.start()
        player.play()
        let out = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 4410)!
        var lastLoud = 0
        for slice in 0..<10 {
            _ = try engine.renderOffline(4410, to: out)
            for i in 0..<Int(out.frameLength) where abs(out.floatChannelData![0][i]) > 0.05 { lastLoud = slice * 4410 + i }
        }
        // 22050 frames of output plus the stretcher's latency (under 0.1 s).
        #expect(lastLoud > 20000 && lastLoud < 22050 + 4410, "lastLoud \(lastLoud)")
        engine.stop()
    }

    /// A file scheduled whole, then a segment, with completion handlers; the rendered frames are the file's.
    @Test func scheduleFileAndSegment() throws {
        let url = Self.tempURL("caf")
        defer { try? FileManager.default.removeItem(at: url) }
        let format = AVAudioFormat(standardFormatWithSampleRate: 8000, channels: 1)!
        do {
            let file = try AVAudioFile(forWriting: url, settings: format.settings)
            let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 800)!
            buffer.frameLength = 800
            for i in 0..<800 { buffer.floatChannelData![0][i] = Float(i) / 1000 }
            try file.write(from: buffer)
        }
        let file = try AVAudioFile(forReading: url)
        let engine = AVAudioEngine()
        let player = AVAudioPlayerNode()
        engine.attach(player)
        engine.connect(player, to: engine.mainMixerNode, format: file.processingFormat)
        try engine.enableManualRenderingMode(.offline, format: format, maximumFrameCount: 400)
        let completions = Shared(0)
        player.scheduleFile(file, at: nil) { completions.mutate { $0 += 1 } }
        player.scheduleSegment(file, startingFrame: 100, frameCount: 200, at: nil) { completions.mutate { $0 += 1 } }
        player.prepare(withFrameCount: 400)
        try engine.start()
        player.play()
        let out = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 400)!
        var rendered: [Float] = []
        for _ in 0..<3 {
            #expect(try engine.renderOffline(400, to: out) == .success)
            rendered += UnsafeBufferPointer(start: out.floatChannelData![0], count: Int(out.frameLength))
        }
        #expect(abs(rendered[799] - 0.799) < 1e-6)
        #expect(abs(rendered[800] - 0.1) < 1e-6)
        #expect(abs(rendered[999] - 0.299) < 1e-6)
        #expect(rendered[1000] == 0)
        let deadline = Date().addingTimeInterval(2)
        while completions.value < 2 && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(completions.value == 2)
        engine.stop()
    }
}
