import AudioToolbox
import Foundation
import Testing

/// DLS banks through the units: AUSampler's kAUSamplerProperty_LoadInstrument with kInstrumentType_DLSPreset
/// (the file's form type, not the instrument type, tells DLS from SoundFont: both names have the value 1), and
/// DLSSynth's and AUMIDISynth's kMusicDeviceProperty_SoundBankURL; a malformed .dls answers kAudioUnitErr_InvalidFile as a malformed
/// SoundFont does.
@Suite struct AUSamplerDLSTests {
    typealias T = AUSamplerTests
    typealias Event = AUSamplerTests.Event

    /// A DLS Level 1 bank written here: melodic program 0, a 440 Hz sine (44000 Hz, 100 points a period, the last
    /// 1000 points looped) at unity note 69; a drum kit (drum flag) whose key 38 plays the same wave at unity note
    /// 26 (880 Hz). Layout per the DLS Level 1 file format; the pool table holds the one wave's offset.
    static func bank() -> [UInt8] {
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 255), UInt8(v >> 8 & 255)] }
        func le32(_ v: Int) -> [UInt8] { le16(v & 0xFFFF) + le16(v >> 16 & 0xFFFF) }
        func chunk(_ id: String, _ p: [UInt8]) -> [UInt8] { Array(id.utf8) + le32(p.count) + p + (p.count & 1 == 1 ? [0] : []) }
        func list(_ type: String, _ c: [[UInt8]]) -> [UInt8] { chunk("LIST", Array(type.utf8) + c.flatMap { $0 }) }
        func wsmp(unity: Int) -> [UInt8] {
            chunk("wsmp", le32(20) + le16(unity) + le16(0) + le32(0) + le32(0) + le32(1) + le32(16) + le32(0) + le32(3000) + le32(1000))
        }
        func instrument(_ name: String, bank: Int, keys: ClosedRange<Int>, unity: Int) -> [UInt8] {
            let region = list("rgn ", [chunk("rgnh", le16(keys.lowerBound) + le16(keys.upperBound) + le16(0) + le16(127) + le16(0) + le16(0)),
                                       wsmp(unity: unity), chunk("wlnk", le16(0) + le16(0) + le32(1) + le32(0))])
            return list("ins ", [chunk("insh", le32(1) + le32(bank) + le32(0)), list("lrgn", [region]),
                                 list("INFO", [chunk("INAM", Array(name.utf8) + [0])])])
        }
        let points = (0 ..< 4000).flatMap { le16(Int((16000 * sin(2 * Double.pi * Double($0) / 100)).rounded()) & 0xFFFF) }
        let wave = list("wave", [chunk("fmt ", le16(1) + le16(1) + le32(44000) + le32(88000) + le16(2) + le16(16)), wsmp(unity: 69),
                                 chunk("data", points)])
        return chunk("RIFF", Array("DLS ".utf8) + chunk("colh", le32(2))
                     + list("lins", [instrument("Sine", bank: 0, keys: 0...127, unity: 69),
                                     instrument("Kit", bank: Int(0x8000_0000), keys: 38...38, unity: 26)])
                     + chunk("ptbl", le32(8) + le32(1) + le32(0)) + list("wvpl", [wave]))
    }

    static func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(getpid()).dls").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func load(_ unit: AudioUnit, _ path: String, bankMSB: Int, program: UInt8 = 0) -> OSStatus {
        let url = NSURL(fileURLWithPath: path)
        var data = AUSamplerInstrumentData(fileURL: Unmanaged.passUnretained(url), instrumentType: UInt8(kInstrumentType_DLSPreset),
                                           bankMSB: UInt8(bankMSB), bankLSB: UInt8(kAUSampler_DefaultBankLSB), presetID: program)
        return withExtendedLifetime(url) {
            AudioUnitSetProperty(unit, kAUSamplerProperty_LoadInstrument, kAudioUnitScope_Global, 0, &data,
                                 UInt32(MemoryLayout<AUSamplerInstrumentData>.size))
        }
    }

    @Test func samplerLoadsADLSPresetAndItsDrumKit() throws {
        let path = try Self.write(Self.bank(), "sampler")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let unit = try T.sampler()
        defer { AudioComponentInstanceDispose(unit) }
        try #require(AudioUnitInitialize(unit) == noErr)
        #expect(Self.load(unit, path, bankMSB: kAUSampler_DefaultMelodicBankMSB) == noErr)
        let x = try T.render(unit, events: [Event(frame: 0, status: 0x90, data1: 69, data2: 100),
                                            Event(frame: 22050, status: 0x80, data1: 69, data2: 0),
                                            Event(frame: 44100, status: 0x90, data1: 81, data2: 100)], total: 66150)
        let a4 = ToneFit.frequency(x[4410..<22050], near: 440, span: 20, sampleRate: T.rate)
        let a5 = ToneFit.frequency(x[48510..<66150], near: 880, span: 20, sampleRate: T.rate)
        #expect(abs(a4 - 440) < 1, "note 69 on the DLS preset: \(a4) Hz")
        #expect(abs(a5 - 880) < 1, "note 81: \(a5) Hz")
        // The percussion bank MSB selects the drum-flagged instrument.
        #expect(Self.load(unit, path, bankMSB: kAUSampler_DefaultPercussionBankMSB) == noErr)
        let drum = try T.render(unit, events: [Event(frame: 0, status: 0x90, data1: 38, data2: 100)], total: 22050)
        let f = ToneFit.frequency(drum[4410..<22050], near: 880, span: 20, sampleRate: T.rate)
        #expect(abs(f - 880) < 1, "drum key 38: \(f) Hz")
        // A program the bank lacks, as for SoundFonts.
        #expect(Self.load(unit, path, bankMSB: kAUSampler_DefaultMelodicBankMSB, program: 5) == kAudioUnitErr_InvalidPropertyValue)
    }

    @Test func malformedDLSIsAnInvalidFile() throws {
        let unit = try T.sampler()
        defer { AudioComponentInstanceDispose(unit) }
        let good = Self.bank()
        // Cut short with its RIFF size left as written; the pool table pointing past the pool; the region's wave
        // link naming a table entry that does not exist.
        var cues = good, link = good
        let ptbl = (0 ..< good.count - 4).first { good[$0 ..< $0 + 4].elementsEqual("ptbl".utf8) }!
        cues[ptbl + 16] = 0x40
        let wlnk = (0 ..< good.count - 4).first { good[$0 ..< $0 + 4].elementsEqual("wlnk".utf8) }!
        link[wlnk + 16] = 7
        for (name, bytes) in [("cut", Array(good[0 ..< good.count / 2])), ("cues", cues), ("link", link)] {
            let path = try Self.write(bytes, "bad-\(name)")
            defer { try? FileManager.default.removeItem(atPath: path) }
            #expect(Self.load(unit, path, bankMSB: kAUSampler_DefaultMelodicBankMSB) == kAudioUnitErr_InvalidFile, "\(name)")
        }
        // The unit still plays its sine.
        try #require(AudioUnitInitialize(unit) == noErr)
        let x = try T.render(unit, events: [Event(frame: 0, status: 0x90, data1: 69, data2: 100)], total: 22050)
        #expect(T.rms(x[4410..<22050]) > 0.01)
    }

    @Test(arguments: [kAudioUnitSubType_DLSSynth, kAudioUnitSubType_MIDISynth])
    func generalMIDISynthsTakeADLSSoundBank(_ subType: OSType) throws {
        let path = try Self.write(Self.bank(), "gmsynth-\(subType)")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let unit = try TestSupport.newUnit(T.description(subType))
        defer { AudioComponentInstanceDispose(unit) }
        var url: Unmanaged<CFURL>? = Unmanaged.passRetained(NSURL(fileURLWithPath: path))
        #expect(AudioUnitSetProperty(unit, kMusicDeviceProperty_SoundBankURL, kAudioUnitScope_Global, 0, &url,
                                     UInt32(MemoryLayout<CFURL?>.size)) == noErr)
        url?.release()
        try #require(AudioUnitInitialize(unit) == noErr)
        // Channel 10 plays the kit, channel 1 the melodic program.
        let drum = try T.render(unit, events: [Event(frame: 0, status: 0x99, data1: 38, data2: 100)], total: 22050)
        AudioUnitReset(unit, kAudioUnitScope_Global, 0)
        let melodic = try T.render(unit, events: [Event(frame: 0, status: 0x90, data1: 69, data2: 100)], total: 22050)
        let d = ToneFit.frequency(drum[4410..<22050], near: 880, span: 20, sampleRate: T.rate)
        let m = ToneFit.frequency(melodic[4410..<22050], near: 440, span: 20, sampleRate: T.rate)
        #expect(abs(d - 880) < 1, "channel 10 key 38: \(d) Hz")
        #expect(abs(m - 440) < 1, "channel 1 key 69: \(m) Hz")
        var count: UInt32 = 0, size: UInt32 = 4
        #expect(AudioUnitGetProperty(unit, kMusicDeviceProperty_InstrumentCount, kAudioUnitScope_Global, 0, &count, &size) == noErr)
        #expect(count == 2)
    }
}
