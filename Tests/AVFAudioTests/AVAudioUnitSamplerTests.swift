import AVFoundation
import Foundation
import Testing

/// AVAudioUnitSampler and AVAudioUnitMIDIInstrument in an offline engine, as apps use them: a General MIDI
/// piano from a SoundFont, notes and controllers through the node, pan, gain and tuning.
@Suite struct AVAudioUnitSamplerTests {
    static let bank = URL(fileURLWithPath: "/usr/share/sounds/sf2/TimGM6mb.sf2")

    static func engine(with sampler: AVAudioUnitSampler) throws -> AVAudioEngine {
        let engine = AVAudioEngine()
        engine.attach(sampler)
        engine.connect(sampler, to: engine.mainMixerNode, format: nil)
        try engine.enableManualRenderingMode(.offline, format: EngineOfflineTests.format, maximumFrameCount: 4096)
        try engine.start()
        return engine
    }

    /// The strongest autocorrelation lag's frequency, between 50 and 1000 Hz.
    static func pitch(_ x: ArraySlice<Float>) -> Double {
        let s = Array(x)
        func r(_ lag: Int) -> Double { (0..<(s.count - lag)).reduce(0.0) { $0 + Double(s[$1]) * Double(s[$1 + lag]) } }
        let lags = Array(44...882)
        let values = lags.map(r)
        var best = 1
        for i in 1..<(values.count - 1) where values[i] > values[best] && values[i] >= values[i - 1] && values[i] >= values[i + 1] { best = i }
        let (a, b, c) = (values[best - 1], values[best], values[best + 1])
        return 44100 / (Double(lags[best]) + (a - c) / (2 * (a - 2 * b + c)))
    }

    static func rms(_ x: ArraySlice<Float>) -> Double { (x.reduce(0.0) { $0 + Double($1 * $1) } / Double(max(x.count, 1))).squareRoot() }

    @Test func soundBankPianoPlaysNotes() throws {
        try #require(FileManager.default.fileExists(atPath: Self.bank.path), "timgm6mb-soundfont is required")
        let sampler = AVAudioUnitSampler()
        try sampler.loadSoundBankInstrument(at: Self.bank, program: 0, bankMSB: UInt8(kAUSampler_DefaultMelodicBankMSB),
                                            bankLSB: UInt8(kAUSampler_DefaultBankLSB))
        let engine = try Self.engine(with: sampler)
        sampler.startNote(69, withVelocity: 100, onChannel: 0)
        let (on, _) = try EngineOfflineTests.render(engine, frames: 22050)
        #expect(abs(Self.pitch(on[4410..<8820]) - 440) < 2)
        sampler.stopNote(69, onChannel: 0)
        let (off, _) = try EngineOfflineTests.render(engine, frames: 88200)
        #expect(Self.rms(off[66150...]) < Self.rms(on[11025...]) / 1000, "released")
        engine.stop()
    }

    @Test func panGainAndTuning() throws {
        let sampler = AVAudioUnitSampler()  // the default sine instrument
        let engine = try Self.engine(with: sampler)
        sampler.startNote(69, withVelocity: 100, onChannel: 0)
        let (l0, r0) = try EngineOfflineTests.render(engine, frames: 8192)
        sampler.stopNote(69, onChannel: 0)
        _ = try EngineOfflineTests.render(engine, frames: 44100)
        sampler.stereoPan = 100
        sampler.overallGain = -6
        #expect(sampler.stereoPan == 100)
        #expect(sampler.overallGain == -6)
        sampler.globalTuning = 1200
        #expect(sampler.globalTuning == 1200)
        sampler.startNote(69, withVelocity: 100, onChannel: 0)
        let (l1, r1) = try EngineOfflineTests.render(engine, frames: 8192)
        #expect(Self.rms(l1[4096...]) < 1e-4, "panned hard right: the left is silent")
        let gain = 20 * log10(Self.rms(r1[4096...]) / Self.rms(r0[4096...]))
        #expect(abs(gain - (-6)) < 0.2, "right channel \(gain) dB")
        #expect(Self.rms(l0[4096...]) > 0.01)
        #expect(abs(Self.pitch(r1[4096...]) - 880) < 2, "an octave up")
        engine.stop()
    }

    @Test func auAudioUnitSchedulesMIDI() throws {
        let sampler = AVAudioUnitSampler()
        let engine = try Self.engine(with: sampler)
        let schedule = try #require(sampler.auAudioUnit.scheduleMIDIEventBlock, "a music device's bridge schedules MIDI")
        let noteOn: [UInt8] = [0x90, 69, 100, 0xB0, 7, 127]  // two messages in one event
        noteOn.withUnsafeBufferPointer { schedule(AUEventSampleTimeImmediate + 100, 0, $0.count, $0.baseAddress!) }
        let (left, _) = try EngineOfflineTests.render(engine, frames: 8192)
        #expect(left[..<100].allSatisfy { $0 == 0 }, "nothing before the event's offset")
        #expect(abs(Self.pitch(left[4096...]) - 440) < 2)
        #expect(AVAudioUnitReverb().auAudioUnit.scheduleMIDIEventBlock == nil, "effects take no MIDI")
        engine.stop()
    }

    @Test func instantiateMakesASamplerNode() async throws {
        let description = AudioComponentDescription(componentType: kAudioUnitType_MusicDevice, componentSubType: kAudioUnitSubType_Sampler,
                                                    componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        let unit = try await AVAudioUnit.instantiate(with: description)
        #expect(unit is AVAudioUnitSampler)
        #expect(unit.name == "AUSampler")
        let missing = URL(fileURLWithPath: "/nonexistent.sf2")
        #expect(throws: (any Error).self) { try (unit as! AVAudioUnitSampler).loadSoundBankInstrument(at: missing, program: 0, bankMSB: 0x79, bankLSB: 0) }
    }
}
