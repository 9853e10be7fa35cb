import ApplicationServices
import AudioDSP
import AudioToolbox
import Foundation
import Testing

/// AUSpeechSynthesis and the Speech Synthesis Manager calls: the book's chapter 7 speech graph (speech unit ->
/// AUMatrixReverb -> output), rendered offline through GenericOutput.
@Suite(.serialized) struct SpeechSynthesisTests {  // SpeechBusy counts every channel in the process
    static let rate = 44100.0
    static let format = OCAFormat.canonical(sampleRate: 44100, channels: 2)

    final class MyAUGraphPlayer {
        var graph: AUGraph?
        var speechAU: AudioUnit?
        var output: AudioUnit?
    }

    /// Listings 7.21-7.26 with GenericOutput in place of the default output: speech, optionally through the
    /// reverb set to `room`.
    func createGraph(_ player: MyAUGraphPlayer, room: UInt32?) {
        #expect(NewAUGraph(&player.graph) == noErr)
        var outputcd = TestSupport.genericOutput
        var outputNode = AUNode()
        #expect(AUGraphAddNode(player.graph!, &outputcd, &outputNode) == noErr)
        var speechcd = AudioComponentDescription(componentType: kAudioUnitType_Generator, componentSubType: kAudioUnitSubType_SpeechSynthesis,
                                                 componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        var speechNode = AUNode()
        #expect(AUGraphAddNode(player.graph!, &speechcd, &speechNode) == noErr)
        #expect(AUGraphOpen(player.graph!) == noErr)
        #expect(AUGraphNodeInfo(player.graph!, speechNode, nil, &player.speechAU) == noErr)
        #expect(AUGraphNodeInfo(player.graph!, outputNode, nil, &player.output) == noErr)
        if let room {
            var reverbcd = AudioComponentDescription(componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_MatrixReverb,
                                                     componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
            var reverbNode = AUNode()
            #expect(AUGraphAddNode(player.graph!, &reverbcd, &reverbNode) == noErr)
            #expect(AUGraphConnectNodeInput(player.graph!, speechNode, 0, reverbNode, 0) == noErr)
            #expect(AUGraphConnectNodeInput(player.graph!, reverbNode, 0, outputNode, 0) == noErr)
            var reverbUnit: AudioUnit?
            #expect(AUGraphNodeInfo(player.graph!, reverbNode, nil, &reverbUnit) == noErr)
            #expect(AUGraphInitialize(player.graph!) == noErr)
            var roomType = room
            #expect(AudioUnitSetProperty(reverbUnit!, kAudioUnitProperty_ReverbRoomType, kAudioUnitScope_Global, 0, &roomType,
                                         UInt32(MemoryLayout<UInt32>.size)) == noErr)
            // Half dry, so the speech itself is heard and its end can be found.
            #expect(AudioUnitSetParameter(reverbUnit!, kReverbParam_DryWetMix, kAudioUnitScope_Global, 0, 50, 0) == noErr)
        } else {
            #expect(AUGraphConnectNodeInput(player.graph!, speechNode, 0, outputNode, 0) == noErr)
            #expect(AUGraphInitialize(player.graph!) == noErr)
        }
        // Offline, the render waits for the synthesizer instead of playing silence.
        var one: UInt32 = 1
        #expect(AudioUnitSetProperty(player.speechAU!, kAudioUnitProperty_OfflineRender, kAudioUnitScope_Global, 0, &one, 4) == noErr)
    }

    /// Listing 7.23: the unit's own channel, then SpeakCFString.
    func prepareSpeechAU(_ player: MyAUGraphPlayer, _ text: String) {
        var chan: SpeechChannel?
        var propsize = UInt32(MemoryLayout<SpeechChannel>.size)
        #expect(AudioUnitGetProperty(player.speechAU!, kAudioUnitProperty_SpeechChannel, kAudioUnitScope_Global, 0, &chan, &propsize) == noErr)
        #expect(SpeakCFString(chan!, text as CFString, nil) == 0)
    }

    func render(_ player: MyAUGraphPlayer, seconds: Double) throws -> [Double] {
        try TestSupport.render(player.output!, format: Self.format, totalFrames: Int(seconds * Self.rate), slices: [512]).channels[0]
    }

    /// The speech graph says "hello world" (about a second of speech at espeak-ng's level), and through the large
    /// hall a reverb tail follows the speech whose decay is the room's documented decay within 20%.
    @Test func theBooksSpeechGraphSpeaksThroughTheReverb() throws {
        let dry = MyAUGraphPlayer()
        createGraph(dry, room: nil)
        defer { DisposeAUGraph(dry.graph!) }
        prepareSpeechAU(dry, "hello world")
        let speech = try render(dry, seconds: 2)
        let end = try #require(speech.lastIndex { abs($0) > 1e-3 }, "nothing was said")
        let start = try #require(speech.firstIndex { abs($0) > 1e-3 })
        let rms = EffectTestSupport.rms(speech[start...end])
        #expect(20 * log10(rms) > -40, "speech at \(20 * log10(rms)) dBFS")
        #expect(Double(end - start) / Self.rate > 0.5 && Double(end - start) / Self.rate < 1.6, "spoke for \(Double(end - start) / Self.rate) s")

        let wet = MyAUGraphPlayer()
        createGraph(wet, room: UInt32(AUReverbRoomType.reverbRoomType_LargeHall.rawValue))
        defer { DisposeAUGraph(wet.graph!) }
        prepareSpeechAU(wet, "hello world")
        let heard = try render(wet, seconds: 7)
        // After the speech: a tail, decaying at the hall's rate (low band, Schroeder integration).
        let tail = Array(heard[(end + 441)...])
        #expect(20 * log10(EffectTestSupport.rms(tail[0..<22050][...])) > -50, "no reverb tail")
        let decay = EffectTestSupport.rt60(tail, rate: Self.rate, lowPass: 300)
        let hall = ReverbRoomPreset(roomType: 4)!.decayTimeAt0Hz
        #expect(abs(decay / hall - 1) < 0.2, "tail decays in \(decay) s, the large hall in \(hall) s")
    }

    @Test func channelsCountVoicesAndStop() throws {
        var count: Int16 = 0
        #expect(CountVoices(&count) == 0)
        #expect(count > 10)
        var voice = VoiceSpec(creator: 0, id: 0)
        #expect(GetIndVoice(1, &voice) == 0)
        #expect(GetIndVoice(count + 1, &voice) == OSErr(voiceNotFound))
        let player = MyAUGraphPlayer()
        createGraph(player, room: nil)
        defer { DisposeAUGraph(player.graph!) }
        var chan: SpeechChannel?
        var size = UInt32(MemoryLayout<SpeechChannel>.size)
        #expect(AudioUnitGetProperty(player.speechAU!, kAudioUnitProperty_SpeechChannel, kAudioUnitScope_Global, 0, &chan, &size) == noErr)
        #expect(SetSpeechRate(chan!, 300 << 16) == 0)
        var rate: Fixed = 0
        #expect(GetSpeechRate(chan!, &rate) == 0 && rate == 300 << 16)
        #expect(SpeakCFString(chan!, "the quick brown fox jumps over the lazy dog" as CFString, nil) == 0)
        #expect(SpeechBusy() >= 1)
        #expect(StopSpeech(chan!) == 0)
        let after = try render(player, seconds: 0.5)
        #expect(after.allSatisfy { $0 == 0 }, "speech continued after StopSpeech")
        #expect(SpeechBusy() == 0)
    }
}
