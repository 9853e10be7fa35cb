// Audit snippets: CoreMIDI's UMP API (MIDIClientCreateWithBlock, MIDIInputPortCreateWithProtocol,
// MIDIEventList), AVAudioUnitSampler played by notes and by AVAudioSequencer, offline. Apple's API only.
import AVFoundation
import CoreMIDI
import Foundation
import Testing

@Suite struct AuditMIDISnippetTests {
    static func energy(_ buffer: AVAudioPCMBuffer) -> Float {
        var sum: Float = 0
        for c in 0..<Int(buffer.format.channelCount) {
            for i in 0..<Int(buffer.frameLength) { sum += buffer.floatChannelData![c][i] * buffer.floatChannelData![c][i] }
        }
        return sum
    }

    /// A virtual source sends a MIDI 1.0 UMP note on; an input port created with the protocol receives it.
    @Test func umpVirtualSourceToInputPort() throws {
        var client = MIDIClientRef()
        let notifications = Shared(0)
        var status = MIDIClientCreateWithBlock("Audit Client" as CFString, &client) { notification in
            _ = notification.pointee.messageID
            notifications.mutate { $0 += 1 }
        }
        try #require(status == noErr)
        defer { MIDIClientDispose(client) }

        var source = MIDIEndpointRef()
        status = MIDISourceCreateWithProtocol(client, "Audit Source" as CFString, ._1_0, &source)
        try #require(status == noErr)
        defer { MIDIEndpointDispose(source) }

        let received = Shared<[UInt32]>([])
        let done = DispatchSemaphore(value: 0)
        var port = MIDIPortRef()
        status = MIDIInputPortCreateWithProtocol(client, "Audit Input" as CFString, ._1_0, &port) { eventList, srcConnRefCon in
            #expect(eventList.pointee.protocol == ._1_0)
            for packet in eventList.unsafeSequence() {
                let words = MIDIEventPacket.WordCollection(packet)
                received.mutate { $0 += Array(words) }
            }
            #expect(srcConnRefCon == UnsafeMutableRawPointer(bitPattern: 0x1234))
            done.signal()
        }
        try #require(status == noErr)
        defer { MIDIPortDispose(port) }
        #expect(MIDIPortConnectSource(port, source, UnsafeMutableRawPointer(bitPattern: 0x1234)) == noErr)

        var eventList = MIDIEventList()
        var packet = MIDIEventListInit(&eventList, ._1_0)
        let noteOn = MIDI1UPNoteOn(0, 0, 60, 100)
        #expect(noteOn == 0x2090_3C64)
        var words: [UInt32] = [noteOn]
        packet = MIDIEventListAdd(&eventList, MemoryLayout<MIDIEventList>.size, packet, 0, 1, &words)
        #expect(eventList.numPackets == 1)
        #expect(MIDIReceivedEventList(source, &eventList) == noErr)
        #expect(done.wait(timeout: .now() + 5) == .success)
        #expect(received.value == [0x2090_3C64])
        var words2: [UInt32] = []
        withUnsafePointer(to: &eventList) { list in
            for packet in list.unsafeSequence() { words2 += packet.words() }
        }
        #expect(words2 == [0x2090_3C64])
        _ = notifications.value
    }

    /// A virtual destination receiving what an output port sends with MIDISendEventList.
    @Test func sendEventListToVirtualDestination() throws {
        var client = MIDIClientRef()
        try #require(MIDIClientCreateWithBlock("Audit Sender" as CFString, &client, nil) == noErr)
        defer { MIDIClientDispose(client) }
        let got = Shared<[UInt32]>([])
        let done = DispatchSemaphore(value: 0)
        var destination = MIDIEndpointRef()
        try #require(MIDIDestinationCreateWithProtocol(client, "Audit Destination" as CFString, ._1_0, &destination) { list, _ in
            list.unsafeSequence().forEach { packet in
                got.mutate { $0.append(packet.pointee.words.0) }
            }
            done.signal()
        } == noErr)
        defer { MIDIEndpointDispose(destination) }
        var output = MIDIPortRef()
        try #require(MIDIOutputPortCreate(client, "Audit Output" as CFString, &output) == noErr)
        var list = MIDIEventList()
        let first = MIDIEventListInit(&list, ._1_0)
        var message = MIDI1UPChannelVoiceMessage(0, UInt8(MIDICVStatus.controlChange.rawValue), 3, 7, 127)
        _ = MIDIEventListAdd(&list, MemoryLayout<MIDIEventList>.size, first, 0, 1, &message)
        #expect(MIDISendEventList(output, destination, &list) == noErr)
        #expect(done.wait(timeout: .now() + 5) == .success)
        #expect(got.value == [0x20B3_077F])
        var name: Unmanaged<CFString>?
        #expect(MIDIObjectGetStringProperty(destination, kMIDIPropertyName, &name) == noErr)
        #expect(name?.takeRetainedValue() as String? == "Audit Destination")
    }

    /// The sampler's default instrument sounds while a note is held, offline.
    @Test func samplerNotesOffline() throws {
        let engine = AVAudioEngine()
        let sampler = AVAudioUnitSampler()
        engine.attach(sampler)
        engine.connect(sampler, to: engine.mainMixerNode, format: nil)
        let format = AVAudioFormat(standardFormatWithSampleRate: 44100, channels: 2)!
        try engine.enableManualRenderingMode(.offline, format: format, maximumFrameCount: 4096)
        try engine.start()
        sampler.overallGain = 0
        sampler.stereoPan = 0
        sampler.globalTuning = 0
        let out = AVAudioPCMBuffer(pcmFormat: engine.manualRenderingFormat, frameCapacity: 4096)!
        #expect(try engine.renderOffline(4096, to: out) == .success)
        #expect(Self.energy(out) == 0)
        sampler.startNote(60, withVelocity: 127, onChannel: 0)
        #expect(try engine.renderOffline(4096, to: out) == .success)
        #expect(Self.energy(out) > 0)
        sampler.stopNote(60, onChannel: 0)
        sampler.sendController(123, withValue: 0, onChannel: 0)
        sampler.sendProgramChange(0, bankMSB: UInt8(kAUSampler_DefaultMelodicBankMSB), bankLSB: UInt8(kAUSampler_DefaultBankLSB), onChannel: 0)
        engine.stop()
    }

    /// AVAudioSequencer: a track built in code (macOS 13 API), its length, SMF data, playback into a sampler.
    @Test func sequencerBuiltInCode() throws {
        let engine = AVAudioEngine()
        let sampler = AVAudioUnitSampler()
        engine.attach(sampler)
        engine.connect(sampler, to: engine.mainMixerNode, format: nil)
        let format = AVAudioFormat(standardFormatWithSampleRate: 44100, channels: 2)!
        try engine.enableManualRenderingMode(.offline, format: format, maximumFrameCount: 4410)
        let sequencer = AVAudioSequencer(audioEngine: engine)
        let track = sequencer.createAndAppendTrack()
        track.destinationAudioUnit = sampler
        for beat in 0..<4 {
            track.addEvent(AVMIDINoteEvent(channel: 0, key: UInt32(60 + beat), velocity: 100, duration: 0.5), at: AVMusicTimeStamp(beat))
        }
        #expect(sequencer.tracks.count == 1)
        #expect(track.lengthInBeats == 3.5)
        sequencer.tempoTrack.addEvent(AVExtendedTempoEvent(tempo: 120), at: 0)
        #expect(abs(sequencer.seconds(forBeats: 4) - 2) < 1e-6)
        #expect(abs(sequencer.beats(forSeconds: 1) - 2) < 1e-6)
        var keys: [UInt32] = []
        track.enumerateEvents(in: AVMakeBeatRange(0, AVMusicTimeStampEndOfTrack)) { event, timeStamp, removeEvent in
            if let note = event as? AVMIDINoteEvent { keys.append(note.key) }
        }
        #expect(keys == [60, 61, 62, 63])
        var error: NSError?
        let smf = sequencer.data(withSMPTEResolution: 0, error: &error)
        #expect(error == nil)
        #expect(smf.prefix(4) == Data("MThd".utf8))

        let reloaded = AVAudioSequencer()
        try reloaded.load(from: smf, options: [])
        #expect(reloaded.tracks.count == 1)
        #expect(reloaded.tracks[0].lengthInBeats == 3.5)

        sequencer.currentPositionInBeats = 0
        sequencer.prepareToPlay()
        try engine.start()
        try sequencer.start()
        #expect(sequencer.isPlaying)
        let out = AVAudioPCMBuffer(pcmFormat: engine.manualRenderingFormat, frameCapacity: 4410)!
        var energy: Float = 0
        for _ in 0..<10 {
            _ = try engine.renderOffline(4410, to: out)
            energy += Self.energy(out)
        }
        #expect(energy > 0)
        #expect(abs(sequencer.currentPositionInSeconds - 1.0) < 0.1, "position \(sequencer.currentPositionInSeconds)")
        sequencer.stop()
        engine.stop()
    }
}
