// libFuzzer target (FuzzSoundFont): the SoundFont 2 parser and what the sampler engine does with a bank that parses
// (every preset selected, notes across the keyboard rendered); any crash, hang or sanitizer report is a bug.
import AudioDSP

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let bytes, let font = try? SoundFont(bytes: Array(UnsafeBufferPointer(start: bytes, count: size))) else { return 0 }
    let engine = SamplerEngine(sampleRate: 44100, maximumVoices: 8)
    engine.load(font)
    let left = UnsafeMutablePointer<Float>.allocate(capacity: 256)
    let right = UnsafeMutablePointer<Float>.allocate(capacity: 256)
    defer { left.deallocate(); right.deallocate() }
    for (i, preset) in font.presets.prefix(4).enumerated() {
        engine.selectPreset(channel: i, bankMSB: preset.bank == 128 ? SamplerEngine.percussionBankMSB : SamplerEngine.melodicBankMSB,
                            bankLSB: preset.bank == 128 ? 0 : preset.bank, program: preset.program)
        for key: UInt8 in [0, 36, 60, 64, 96, 127] { engine.handle(status: 0x90 | UInt8(i), data1: key, data2: 100) }
        engine.handle(status: 0xB0 | UInt8(i), data1: 1, data2: 127)
        engine.handle(status: 0xE0 | UInt8(i), data1: 0, data2: 127)
    }
    for _ in 0..<8 { engine.render(frameCount: 256, left: left, right: right) }
    return 0
}
