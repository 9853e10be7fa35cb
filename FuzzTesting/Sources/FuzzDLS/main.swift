// libFuzzer target (FuzzDLS): the DLS Level 1/2 parser (RIFF 'DLS ', read by SoundFont(bytes:)) and what the sampler
// engine does with a bank that parses (every preset selected, notes across the keyboard and velocities rendered,
// the modulation wheel and pitch wheel moved); any crash, hang or sanitizer report is a bug. Inputs that are not
// 'DLS ' forms are skipped so the time goes to the DLS reader (FuzzSoundFont covers 'sfbk').
import AudioDSP

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let bytes, size >= 12, bytes[8] == 0x44, bytes[9] == 0x4C, bytes[10] == 0x53, bytes[11] == 0x20 else { return 0 }
    guard let font = try? SoundFont(bytes: Array(UnsafeBufferPointer(start: bytes, count: size))) else { return 0 }
    let engine = SamplerEngine(sampleRate: 44100, maximumVoices: 8)
    engine.load(font)
    let left = UnsafeMutablePointer<Float>.allocate(capacity: 256)
    let right = UnsafeMutablePointer<Float>.allocate(capacity: 256)
    defer { left.deallocate(); right.deallocate() }
    for (i, preset) in font.presets.prefix(4).enumerated() {
        engine.selectPreset(channel: i, bankMSB: preset.bank == 128 ? SamplerEngine.percussionBankMSB : SamplerEngine.melodicBankMSB,
                            bankLSB: preset.bank == 128 ? 0 : preset.bank, program: preset.program)
        for (key, velocity): (UInt8, UInt8) in [(0, 1), (36, 127), (60, 64), (64, 100), (96, 20), (127, 127)] {
            engine.handle(status: 0x90 | UInt8(i), data1: key, data2: velocity)
        }
        engine.handle(status: 0xB0 | UInt8(i), data1: 1, data2: 127)
        engine.handle(status: 0xE0 | UInt8(i), data1: 0, data2: 127)
    }
    for _ in 0..<4 { engine.render(frameCount: 256, left: left, right: right) }
    for i in 0..<4 { engine.handle(status: 0xB0 | UInt8(i), data1: 123, data2: 0) }
    for _ in 0..<4 { engine.render(frameCount: 256, left: left, right: right) }
    return 0
}
