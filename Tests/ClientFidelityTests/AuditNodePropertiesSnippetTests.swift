// Audit snippets, ninth round: node and engine properties apps read and set (latencies, voice processing flags,
// bus names and counts, the manual rendering block), in offline mode. Apple's API only.
import AVFoundation
import Foundation
import Testing

@Suite struct AuditNodePropertiesSnippetTests {
    @Test func nodeAndEngineProperties() throws {
        let engine = AVAudioEngine()
        let format = AVAudioFormat(standardFormatWithSampleRate: 44100, channels: 2)!
        try engine.enableManualRenderingMode(.realtime, format: format, maximumFrameCount: 256)
        #expect(engine.manualRenderingMode == .realtime)
        let mixer = engine.mainMixerNode
        #expect(mixer.numberOfOutputs == 1)
        #expect(mixer.numberOfInputs >= 1)
        _ = mixer.name(forInputBus: 0)
        _ = mixer.name(forOutputBus: 0)
        #expect(mixer.latency >= 0)
        #expect(mixer.outputPresentationLatency >= 0)
        #expect(engine.outputNode.presentationLatency >= 0)
        _ = engine.outputNode.auAudioUnit
        #expect(!engine.isAutoShutdownEnabled || engine.isAutoShutdownEnabled)
        #expect(!engine.outputNode.isVoiceProcessingEnabled)
        let input = engine.inputNode
        #expect(!input.isVoiceProcessingBypassed)
        #expect(!input.isVoiceProcessingAGCEnabled || input.isVoiceProcessingAGCEnabled)
        #expect(!input.isVoiceProcessingInputMuted)
        _ = engine.musicSequence

        // The real-time manual rendering block, called as an app's own audio callback would.
        let player = AVAudioPlayerNode()
        engine.attach(player)
        engine.connect(player, to: mixer, format: format)
        let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 256)!
        buffer.frameLength = 256
        for c in 0..<2 { for i in 0..<256 { buffer.floatChannelData![c][i] = 0.125 } }
        player.scheduleBuffer(buffer, at: nil, options: .loops)
        let block = engine.manualRenderingBlock
        try engine.start()
        player.play()
        let out = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 256)!
        out.frameLength = 256
        var error: OSStatus = noErr
        let status = block(256, out.mutableAudioBufferList, &error)
        #expect(status == .success)
        #expect(error == noErr)
        #expect(out.floatChannelData![1][200] == 0.125)
        engine.stop()
    }
}
