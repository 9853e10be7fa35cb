import AVFoundation
import Foundation
import Testing

/// AVAudioEngine.connectMIDI / disconnectMIDI: what a source unit sends through its MIDI output block reaches the
/// destination sampler (heard in the next offline render) and the tap; after disconnecting, nothing does.
@Suite struct EngineMIDIConnectionTests {
    /// A source unit emitting `bytes` from its render, as a MIDI-making unit calls its output block.
    static func emit(_ node: AVAudioNode, _ bytes: [UInt8]) -> OSStatus? {
        guard let block = node.auAudioUnit.midiOutputEventBlock else { return nil }
        return bytes.withUnsafeBufferPointer { block(AUEventSampleTimeImmediate, 0, $0.count, $0.baseAddress!) }
    }

    @Test func midiFromTheSourceReachesTheSamplerAndTheTap() throws {
        let engine = AVAudioEngine()
        let source = AVAudioUnitSampler()  // stands in for a MIDI-making unit: its MIDI output block is what is wired
        let sampler = AVAudioUnitSampler()  // the default sine
        engine.attach(source)
        engine.attach(sampler)
        engine.connect(sampler, to: engine.mainMixerNode, format: nil)
        try engine.enableManualRenderingMode(.offline, format: EngineOfflineTests.format, maximumFrameCount: 4096)
        try engine.start()
        let tapped = TapLog()
        #expect(source.auAudioUnit.midiOutputEventBlock == nil)
        engine.connectMIDI(source, to: sampler, format: nil) { _, cable, length, bytes in
            tapped.add(cable, Array(UnsafeBufferPointer(start: bytes, count: length)))
            return noErr
        }
        #expect(Self.emit(source, [0x90, 69, 100]) == noErr)
        #expect(tapped.events == [[0, 0x90, 69, 100]])
        let (on, _) = try EngineOfflineTests.render(engine, frames: 8_820)
        #expect(on[..<4].contains { $0 != 0 }, "the note sounds from the render after the event")
        #expect(abs(AVAudioUnitSamplerTests.pitch(on[2_000..<6_000]) - 440) < 2)
        #expect(Self.emit(source, [0x80, 69, 0]) == noErr)
        _ = try EngineOfflineTests.render(engine, frames: 44_100)
        let (released, _) = try EngineOfflineTests.render(engine, frames: 4_410)
        #expect(AVAudioUnitSamplerTests.rms(released[...]) < 1e-4, "the note-off arrived too")

        engine.disconnectMIDI(source, from: sampler)
        #expect(source.auAudioUnit.midiOutputEventBlock == nil, "no connection left: the output block and tap are removed")
        #expect(Self.emit(source, [0x90, 69, 100]) == nil)
        let (silent, _) = try EngineOfflineTests.render(engine, frames: 4_410)
        #expect(silent.allSatisfy { $0 == 0 })

        // A new connection into the sampler from another source breaks the first one's.
        let other = AVAudioUnitSampler()
        engine.attach(other)
        engine.connectMIDI(source, to: [sampler], format: nil, block: nil)
        engine.connectMIDI(other, to: sampler, format: nil, block: nil)
        #expect(source.auAudioUnit.midiOutputEventBlock == nil)
        #expect(other.auAudioUnit.midiOutputEventBlock != nil)
        engine.disconnectMIDIInput(sampler)
        #expect(other.auAudioUnit.midiOutputEventBlock == nil)
        // Detaching a node breaks its MIDI connections both ways.
        engine.connectMIDI(other, to: sampler, format: nil, block: nil)
        engine.connectMIDI(sampler, to: source, format: nil, block: nil)
        engine.detach(sampler)
        #expect(other.auAudioUnit.midiOutputEventBlock == nil)
        #expect(sampler.auAudioUnit.midiOutputEventBlock == nil)
        engine.stop()
    }
}

/// Events a tap saw (cable first), thread-safe.
final class TapLog: @unchecked Sendable {
    private let lock = NSLock()
    private var log: [[UInt8]] = []
    func add(_ cable: UInt8, _ bytes: [UInt8]) { lock.withLock { log.append([cable] + bytes) } }
    var events: [[UInt8]] { lock.withLock { log } }
}
