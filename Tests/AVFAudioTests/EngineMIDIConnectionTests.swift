import AVFoundation
import AllocationCounter
import COCASupport
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

    /// A MIDI processor whose audio goes nowhere is rendered for its MIDI: its note-on for sample 10,000, made in the
    /// render that reaches it, sounds on the sampler from frame 10,000 (the event's time becomes an offset in the render).
    @Test func aMIDIOnlySourceIsRenderedForItsMIDI() throws {
        #expect(MIDINoteSourceUnit.registered)
        var made: AVAudioUnit?
        AVAudioUnit.instantiate(with: MIDINoteSourceUnit.description) { unit, _ in made = unit }
        let source = try #require(made)
        let engine = AVAudioEngine()
        let sampler = AVAudioUnitSampler()  // the default sine
        engine.attach(source)
        engine.attach(sampler)
        engine.connect(sampler, to: engine.mainMixerNode, format: nil)
        try engine.enableManualRenderingMode(.offline, format: EngineOfflineTests.format, maximumFrameCount: 4096)
        let tapped = TapLog()
        engine.connectMIDI(source, to: sampler, format: nil) { time, cable, length, bytes in
            tapped.add(cable, Array(UnsafeBufferPointer(start: bytes, count: length)))
            return time == AUEventSampleTime(MIDINoteSourceUnit.noteAt) ? noErr : -1
        }
        try engine.start()
        let (left, _) = try EngineOfflineTests.render(engine, frames: 17_640, slice: 441)
        #expect(tapped.events == [[0, 0x90, 81, 100]])
        let onset = Int(MIDINoteSourceUnit.noteAt)  // inside the slice from 9,702 (slices of 441)
        #expect(left[..<onset].allSatisfy { $0 == 0 }, "silent before the note's frame")
        #expect(left[onset..<(onset + 4)].contains { $0 != 0 }, "the note starts at frame \(onset)")
        #expect(abs(AVAudioUnitSamplerTests.pitch(left[(onset + 2_000)..<(onset + 6_000)]) - 880) < 2)
        engine.disconnectMIDIOutput(source)
        #expect(source.auAudioUnit.midiOutputEventBlock == nil)
        engine.stop()
    }

    /// The MIDI path on the render thread allocates nothing: the pull of a MIDI-only source, its output block, the
    /// forwarding to the tap and the sampler, and the note the sampler then plays (realtime manual rendering).
    @Test func theMIDIPathAllocatesNothing() throws {
        #expect(MIDINoteSourceUnit.registered)
        var made: AVAudioUnit?
        AVAudioUnit.instantiate(with: MIDINoteSourceUnit.description) { unit, _ in made = unit }
        let source = try #require(made)
        let engine = AVAudioEngine()
        let sampler = AVAudioUnitSampler()
        engine.attach(source)
        engine.attach(sampler)
        engine.connect(sampler, to: engine.mainMixerNode, format: nil)
        try engine.enableManualRenderingMode(.realtime, format: EngineOfflineTests.format, maximumFrameCount: 256)
        let taps = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        taps.pointee = 0
        defer { taps.deallocate() }
        engine.connectMIDI(source, to: sampler, format: nil) { _, _, _, _ in taps.pointee += 1; return noErr }
        try engine.start()
        let block = engine.manualRenderingBlock
        let out = AVAudioPCMBuffer(pcmFormat: EngineOfflineTests.format, frameCapacity: 256)!
        var failures = 0, heard = 0
        func renderOne() {
            out.frameLength = 256
            var status: OSStatus = noErr
            if block(256, out.mutableAudioBufferList, &status) != .success { failures += 1 }
            if out.floatChannelData![0][100] != 0 { heard += 1 }
        }
        // The first sounding render allocates once, outside the MIDI path: Swift instantiating generic metadata for an
        // option-set literal (SetAlgebra.init(arrayLiteral:)) under AVAudioEngine's render, a one-time cost. A note
        // played beforehand takes it.
        sampler.startNote(60, withVelocity: 100, onChannel: 0)
        renderOne()
        sampler.stopNote(60, onChannel: 0)
        for _ in 0..<5 { renderOne() }
        oca_alloc_counting_start()
        oca_realtime_enter()
        for _ in 0..<200 { renderOne() }  // 51,200 frames: the note-on comes at 10,000
        oca_realtime_exit()
        let count = oca_alloc_counting_stop()
        #expect(failures == 0)
        #expect(count == 0, "\(count) allocations on the render thread")
        #expect(taps.pointee == 1)
        #expect(heard > 150, "the note sounded in \(heard) of 200 slices")
        engine.stop()
    }
}

/// A MIDI processor unit as an app would write one: silent audio, and a note-on through its MIDI output block in the
/// render that reaches `noteAt` (sample time).
final class MIDINoteSourceUnit: AUAudioUnit {
    static let description = AudioComponentDescription(componentType: kAudioUnitType_MIDIProcessor, componentSubType: 0x6d6e_6f74 /* mnot */,
                                                       componentManufacturer: 0x4f63_6174 /* Ocat */, componentFlags: 0, componentFlagsMask: 0)
    static let registered: Bool = {
        AUAudioUnit.registerSubclass(MIDINoteSourceUnit.self, as: description, name: "OCA Tests: MIDI Note Source", version: 1)
        return true
    }()
    static let noteAt: Double = 10_000

    private var outputBusArray: AUAudioUnitBusArray!
    private let state = UnsafeMutablePointer<UInt8>.allocate(capacity: 4)  // sent flag, then the note-on bytes

    override init(componentDescription: AudioComponentDescription, options: AudioComponentInstantiationOptions = []) throws {
        try super.init(componentDescription: componentDescription, options: options)
        outputBusArray = AUAudioUnitBusArray(audioUnit: self, busType: .output,
                                             busses: [try AUAudioUnitBus(format: AVAudioFormat(standardFormatWithSampleRate: 44100, channels: 2)!)])
        state.initialize(from: [0, 0x90, 81, 100], count: 4)
    }

    deinit { state.deallocate() }

    override var outputBusses: AUAudioUnitBusArray { outputBusArray }

    override var internalRenderBlock: AUInternalRenderBlock {
        let state = state
        return { [unowned self] _, timestamp, frames, _, output, _, _ in
            for b in UnsafeMutableAudioBufferListPointer(output) { memset(b.mData, 0, Int(b.mDataByteSize)) }
            let t = timestamp.pointee.mSampleTime
            if state[0] == 0, t + Double(frames) > Self.noteAt, let send = self.midiOutputEventBlock {
                state[0] = 1
                _ = send(AUEventSampleTime(Self.noteAt), 0, 3, state + 1)
            }
            return noErr
        }
    }
}

/// Events a tap saw (cable first), thread-safe.
final class TapLog: @unchecked Sendable {
    private let lock = NSLock()
    private var log: [[UInt8]] = []
    func add(_ cable: UInt8, _ bytes: [UInt8]) { lock.withLock { log.append([cable] + bytes) } }
    var events: [[UInt8]] { lock.withLock { log } }
}
