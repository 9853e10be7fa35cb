// Audit snippets, second round: a player split to two effects (connect to connection points), varispeed and
// time-pitch bounces whose lengths follow from their rates, the connectMIDI calls, AudioFormatGetProperty. Apple's API only; offline.
import AVFoundation
import Foundation
import Testing

@Suite struct AuditGraphSnippetTests {
    static func constant(_ format: AVAudioFormat, frames: AVAudioFrameCount, value: Float) -> AVAudioPCMBuffer {
        let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: frames)!
        buffer.frameLength = frames
        for c in 0..<Int(format.channelCount) { for i in 0..<Int(frames) { buffer.floatChannelData![c][i] = value } }
        return buffer
    }

    /// One player feeding two mixer inputs through connect(_:to:[AVAudioConnectionPoint]...): the signal doubles.
    @Test func splitToConnectionPoints() throws {
        let engine = AVAudioEngine()
        let player = AVAudioPlayerNode()
        let dry = AVAudioMixerNode()
        let wet = AVAudioMixerNode()
        [player, dry, wet].forEach(engine.attach)
        let format = AVAudioFormat(standardFormatWithSampleRate: 44100, channels: 2)!
        engine.connect(dry, to: engine.mainMixerNode, fromBus: 0, toBus: 0, format: format)
        engine.connect(wet, to: engine.mainMixerNode, fromBus: 0, toBus: 1, format: format)
        let points = [AVAudioConnectionPoint(node: dry, bus: 0), AVAudioConnectionPoint(node: wet, bus: 0)]
        engine.connect(player, to: points, fromBus: 0, format: format)
        #expect(engine.outputConnectionPoints(for: player, outputBus: 0).count == 2)
        wet.outputVolume = 0.5
        try engine.enableManualRenderingMode(.offline, format: format, maximumFrameCount: 1024)
        player.scheduleBuffer(Self.constant(format, frames: 1024, value: 0.2), at: nil, options: .loops)
        try engine.start()
        player.play()
        let out = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 1024)!
        #expect(try engine.renderOffline(1024, to: out) == .success)
        // 0.2 dry + 0.1 wet.
        #expect(abs(out.floatChannelData![0][500] - 0.3) < 1e-4, "\(out.floatChannelData![0][500])")
        engine.stop()
        engine.reset()
    }

    /// Varispeed at rate 2 plays a one-second file in half a second; the completion handler says so.
    @Test func varispeedBounceLength() throws {
        let engine = AVAudioEngine()
        let player = AVAudioPlayerNode()
        let varispeed = AVAudioUnitVarispeed()
        engine.attach(player)
        engine.attach(varispeed)
        let format = AVAudioFormat(standardFormatWithSampleRate: 48000, channels: 1)!
        engine.connect(player, to: varispeed, format: format)
        engine.connect(varispeed, to: engine.mainMixerNode, format: format)
        varispeed.rate = 2
        try engine.enableManualRenderingMode(.offline, format: format, maximumFrameCount: 4800)
        let played = Shared(false)
        player.scheduleBuffer(Self.constant(format, frames: 48000, value: 0.25), at: nil, options: [], completionCallbackType: .dataRendered) { type in
            #expect(type == .dataRendered)
            played.value = true
        }
        try engine.start()
        player.play()
        let out = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 4800)!
        var nonSilent = 0
        for _ in 0..<10 {
            _ = try engine.renderOffline(4800, to: out)
            nonSilent += (0..<Int(out.frameLength)).filter { abs(out.floatChannelData![0][$0]) > 0.1 }.count
        }
        // 24000 frames of output, give or take the resampler's latency.
        #expect(abs(nonSilent - 24000) < 200, "nonSilent \(nonSilent)")
        let deadline = Date().addingTimeInterval(2)
        while !played.value && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(played.value)
        engine.stop()
    }

    /// A sampler driven by connectMIDI from an AVAudioUnitMIDIInstrument's MIDI output is covered by the MIDI
    /// snippets; here the MIDI connection calls and their bookkeeping.
    @Test func connectMIDIBookkeeping() throws {
        let engine = AVAudioEngine()
        let source = AVAudioUnitSampler()
        let destination = AVAudioUnitSampler()
        engine.attach(source)
        engine.attach(destination)
        engine.connect(destination, to: engine.mainMixerNode, format: nil)
        engine.connectMIDI(source, to: destination, format: nil, block: nil)
        engine.disconnectMIDI(source, from: destination)
        engine.connectMIDI(source, to: [destination], format: nil) { sampleTime, cable, length, midiBytes in
            return noErr
        }
        engine.disconnectMIDIOutput(source)
        engine.disconnectMIDIInput(destination)
    }

    /// AudioFormatGetProperty for an AAC format's missing fields, as recorder code fills an ASBD.
    @Test func audioFormatFillsASBD() {
        var asbd = AudioStreamBasicDescription()
        asbd.mFormatID = kAudioFormatMPEG4AAC
        asbd.mSampleRate = 44100
        asbd.mChannelsPerFrame = 2
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        #expect(AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 0, nil, &size, &asbd) == noErr)
        #expect(asbd.mFramesPerPacket == 1024)
        var name: Unmanaged<CFString>?
        var nameSize = UInt32(MemoryLayout<Unmanaged<CFString>?>.size)
        #expect(AudioFormatGetProperty(kAudioFormatProperty_FormatName, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &asbd, &nameSize, &name) == noErr)
        let text = name?.takeRetainedValue() as String?
        #expect(text?.isEmpty == false)
    }
}
