/// Builds a SoundFont 2 bank in memory from audio samples and zones, so that every instrument AUSampler makes
/// itself (its default sine, kAUSamplerProperty_LoadAudioFiles, an .aupreset's zones) plays through the same
/// parser and engine as a bank loaded from disk. One preset (bank 0, program 0) with one instrument; 24-bit
/// samples (16-bit 'smpl' plus the 'sm24' low bytes).
struct SamplerInstrumentBuilder {
    /// One key/velocity zone playing one sample.
    struct Zone {
        var sample: Int
        var keys: ClosedRange<UInt8> = 0...127
        var velocities: ClosedRange<UInt8> = 0...127
        var rootKey: UInt8 = 60
        /// Fine tuning in cents, added to the root key's pitch.
        var fineTune: Int16 = 0
        var loops: Bool = false
        /// Volume envelope in seconds.
        var attack: Double = 0.001
        var release: Double = 0.3
    }

    /// Audio for the bank: mono Float samples at a rate, with an optional loop (frame indices, end exclusive).
    struct Sample {
        var name: String
        var frames: [Float]
        var sampleRate: Int
        var loop: Range<Int>?
    }

    var name: String
    var samples: [Sample] = []
    var zones: [Zone] = []

    init(name: String) { self.name = name }

    /// AUSampler's instrument before anything is loaded: "Sine 440 built-in", a looped sine whose loop holds
    /// exactly ten periods (1,000 frames at 44,000 Hz), so every key plays in tune.
    static func defaultSine() -> SamplerInstrumentBuilder {
        var b = SamplerInstrumentBuilder(name: "Sine 440 built-in")
        let frames = (0..<1000).map { Float(sin(2 * Double.pi * 440 * Double($0) / 44000)) * 0.5 }
        b.samples = [Sample(name: "Sine 440", frames: frames, sampleRate: 44000, loop: 0..<1000)]
        b.zones = [Zone(sample: 0, rootKey: 69, loops: true, release: 0.1)]
        return b
    }

    // MARK: RIFF

    /// The bank as SoundFont 2.04 bytes.
    func bytes() -> [UInt8] {
        // sdta: every sample followed by 46 zero points, as the specification asks.
        var points: [Int32] = []
        var headers: [(start: Int, end: Int, loop: Range<Int>, rate: Int, name: String)] = []
        for s in samples {
            let start = points.count
            for f in s.frames {
                let v = Double(min(max(f, -1), 1)) * 8_388_607
                points.append(Int32(v.rounded()))
            }
            let end = points.count
            points.append(contentsOf: repeatElement(0, count: 46))
            let loop = s.loop.map { (start + $0.lowerBound)..<(start + $0.upperBound) } ?? (start..<end)
            headers.append((start, end, loop, s.sampleRate, s.name))
        }
        var smpl: [UInt8] = []
        var sm24: [UInt8] = []
        smpl.reserveCapacity(points.count * 2)
        for p in points {
            let u = UInt32(bitPattern: p)
            sm24.append(UInt8(truncatingIfNeeded: u))
            smpl.append(UInt8(truncatingIfNeeded: u >> 8))
            smpl.append(UInt8(truncatingIfNeeded: u >> 16))
        }

        // pdta: one preset -> one instrument -> the zones.
        var phdr: [UInt8] = []
        phdr += fixedName(name); phdr += le16(0); phdr += le16(0); phdr += le16(0); phdr += le32(0); phdr += le32(0); phdr += le32(0)
        phdr += fixedName("EOP"); phdr += le16(255); phdr += le16(255); phdr += le16(1); phdr += le32(0); phdr += le32(0); phdr += le32(0)
        let pbag = le16(0) + le16(0) + le16(1) + le16(0)
        let pgen = le16(41) + le16(0) + le16(0) + le16(0)  // instrument 0, then the terminal record
        let terminalModulator = [UInt8](repeating: 0, count: 10)

        var inst: [UInt8] = fixedName(name) + le16(0)
        inst += fixedName("EOI") + le16(UInt16(zones.count))
        var ibag: [UInt8] = []
        var igen: [UInt8] = []
        var generatorCount = 0
        func gen(_ op: UInt16, _ amount: UInt16) { igen += le16(op) + le16(amount); generatorCount += 1 }
        func range(_ op: UInt16, _ r: ClosedRange<UInt8>) { gen(op, UInt16(r.lowerBound) | UInt16(r.upperBound) << 8) }
        for z in zones {
            ibag += le16(UInt16(generatorCount)) + le16(0)
            range(43, z.keys)
            range(44, z.velocities)
            gen(34, UInt16(bitPattern: timecents(z.attack)))
            gen(38, UInt16(bitPattern: timecents(z.release)))
            if z.fineTune != 0 { gen(52, UInt16(bitPattern: z.fineTune)) }
            gen(54, z.loops ? 1 : 0)
            gen(58, UInt16(z.rootKey))
            gen(53, UInt16(z.sample))
        }
        ibag += le16(UInt16(generatorCount)) + le16(0)
        igen += [0, 0, 0, 0]

        var shdr: [UInt8] = []
        for h in headers {
            shdr += fixedName(h.name) + le32(UInt32(h.start)) + le32(UInt32(h.end)) + le32(UInt32(h.loop.lowerBound))
                + le32(UInt32(h.loop.upperBound)) + le32(UInt32(h.rate)) + [60, 0] + le16(0) + le16(1)
        }
        shdr += fixedName("EOS") + [UInt8](repeating: 0, count: 26)

        let info = list("INFO", [chunk("ifil", le16(2) + le16(4)), chunk("isng", zstring("EMU8000")), chunk("INAM", zstring(name))])
        let sdta = list("sdta", [chunk("smpl", smpl), chunk("sm24", sm24)])
        let pdta = list("pdta", [chunk("phdr", phdr), chunk("pbag", pbag), chunk("pmod", terminalModulator), chunk("pgen", pgen),
                                 chunk("inst", inst), chunk("ibag", ibag), chunk("imod", terminalModulator), chunk("igen", igen),
                                 chunk("shdr", shdr)])
        return chunk("RIFF", Array("sfbk".utf8) + info + sdta + pdta)
    }

    private func timecents(_ seconds: Double) -> Int16 {
        Int16(max(-12000, min(8000, (1200 * log2(max(seconds, 0.001))).rounded())))
    }

    private func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    private func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
    private func fixedName(_ s: String) -> [UInt8] {
        let b = Array(s.utf8.prefix(19))
        return b + [UInt8](repeating: 0, count: 20 - b.count)
    }
    private func zstring(_ s: String) -> [UInt8] {
        var b = Array(s.utf8.prefix(255)) + [0]
        if b.count % 2 == 1 { b.append(0) }
        return b
    }
    private func chunk(_ id: String, _ body: [UInt8]) -> [UInt8] {
        Array(id.utf8) + le32(UInt32(body.count)) + body + (body.count % 2 == 1 ? [0] : [])
    }
    private func list(_ type: String, _ chunks: [[UInt8]]) -> [UInt8] {
        chunk("LIST", Array(type.utf8) + chunks.flatMap { $0 })
    }
}
