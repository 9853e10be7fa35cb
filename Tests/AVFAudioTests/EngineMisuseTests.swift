import AVFoundation
import Foundation
import Testing

/// What Apple's engine aborts on ("required condition is false") answers here with an error or is ignored:
/// nothing a client does in the wrong order crashes the engine.
@Suite struct EngineMisuseTests {
    static let format = AVAudioFormat(standardFormatWithSampleRate: 44100, channels: 2)!

    @Test func manualRenderingErrorsHaveApplesCodes() throws {
        let engine = AVAudioEngine()
        let buffer = AVAudioPCMBuffer(pcmFormat: Self.format, frameCapacity: 512)!
        #expect(throws: NSError.self) { _ = try engine.renderOffline(512, to: buffer) }
        do { _ = try engine.renderOffline(512, to: buffer) } catch let e as NSError {
            #expect(e.domain == NSOSStatusErrorDomain && e.code == Int(AVAudioEngineManualRenderingError.invalidMode.rawValue))
        }
        try engine.enableManualRenderingMode(.offline, format: Self.format, maximumFrameCount: 512)
        do { _ = try engine.renderOffline(512, to: buffer) } catch let e as NSError {
            #expect(e.code == Int(AVAudioEngineManualRenderingError.notRunning.rawValue))
        }
        _ = engine.mainMixerNode
        try engine.start()
        do { try engine.enableManualRenderingMode(.realtime, format: Self.format, maximumFrameCount: 512) } catch let e as NSError {
            #expect(e.code == Int(AVAudioEngineManualRenderingError.initialized.rawValue))
        }
        #expect(throws: NSError.self) { _ = try engine.renderOffline(1024, to: buffer) }  // more than the buffer holds
        #expect(try engine.renderOffline(512, to: buffer) == .success)
        try engine.start()  // twice: fine
        engine.stop()
        engine.stop()
        engine.pause()
    }

    @Test func wrongOrderEditsAreIgnoredOrAnswered() throws {
        let engine = AVAudioEngine()
        try engine.enableManualRenderingMode(.offline, format: Self.format, maximumFrameCount: 512)
        let player = AVAudioPlayerNode(), loose = AVAudioPlayerNode(), eq = AVAudioUnitEQ()
        engine.attach(player)
        engine.connect(loose, to: engine.mainMixerNode, format: Self.format)  // not attached: ignored
        #expect(engine.outputConnectionPoints(for: loose, outputBus: 0).isEmpty)
        engine.disconnectNodeInput(eq)  // not attached, not connected
        engine.detach(eq)
        engine.detach(engine.outputNode)  // the I/O nodes stay
        #expect(engine.attachedNodes.contains(engine.outputNode))
        engine.connect(player, to: engine.mainMixerNode, format: Self.format)
        engine.attach(player)  // twice
        engine.mainMixerNode.removeTap(onBus: 0)  // no tap
        engine.mainMixerNode.installTap(onBus: 0, bufferSize: 512, format: nil) { _, _ in }
        engine.mainMixerNode.installTap(onBus: 0, bufferSize: 512, format: nil) { _, _ in }  // a second on the same bus: ignored
        try engine.start()
        // A mono buffer on a stereo player, an interleaved Int16 buffer, a segment past the file's end.
        let mono = AVAudioPCMBuffer(pcmFormat: AVAudioFormat(standardFormatWithSampleRate: 44100, channels: 1)!, frameCapacity: 256)!
        mono.frameLength = 256
        for i in 0..<256 { mono.floatChannelData![0][i] = 0.25 }
        player.scheduleBuffer(mono)
        let int16 = AVAudioPCMBuffer(pcmFormat: AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 44100, channels: 2, interleaved: true)!,
                                     frameCapacity: 256)!
        int16.frameLength = 256
        for i in 0..<512 { int16.int16ChannelData![0][i] = 16384 }
        player.scheduleBuffer(int16)
        player.play()
        let out = AVAudioPCMBuffer(pcmFormat: Self.format, frameCapacity: 512)!
        #expect(try engine.renderOffline(512, to: out) == .success)
        #expect(out.floatChannelData![0][10] == 0.25 && out.floatChannelData![1][10] == 0.25, "the mono buffer plays on both sides")
        #expect(out.floatChannelData![0][300] == 0.5 && out.floatChannelData![1][300] == 0.5, "the Int16 buffer plays converted")
        // Detaching a playing node while the engine runs, then rendering on.
        engine.detach(player)
        #expect(try engine.renderOffline(512, to: out) == .success)
        #expect(!engine.attachedNodes.contains(player))
        engine.mainMixerNode.removeTap(onBus: 0)
        engine.stop()
    }

    @Test func nodesOutliveTheirEngine() throws {
        let player = AVAudioPlayerNode()
        do {
            let engine = AVAudioEngine()
            try engine.enableManualRenderingMode(.offline, format: Self.format, maximumFrameCount: 512)
            engine.attach(player)
            engine.connect(player, to: engine.mainMixerNode, format: Self.format)
            try engine.start()
            player.play()
        }
        #expect(player.engine == nil)
        let engine = AVAudioEngine()
        try engine.enableManualRenderingMode(.offline, format: Self.format, maximumFrameCount: 512)
        engine.attach(player)
        engine.connect(player, to: engine.mainMixerNode, format: Self.format)
        try engine.start()
        let out = AVAudioPCMBuffer(pcmFormat: Self.format, frameCapacity: 512)!
        #expect(try engine.renderOffline(512, to: out) == .success)
    }
}
