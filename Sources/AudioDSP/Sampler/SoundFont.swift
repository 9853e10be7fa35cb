#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A SoundFont 2 bank (RIFF form 'sfbk', SoundFont 2.04): its presets, instruments and sample headers, and its
/// sample data converted once to Float32 in -1...1 (16-bit 'smpl' data, refined by 'sm24' when present).
///
/// Parsing trusts nothing: every chunk size, record count and index is checked before it is used, and the
/// allocations are bounded by the file's own size (the sample data is twice the 'smpl' chunk, the tables a small
/// multiple of their chunks). Malformed input throws `SoundFontError`.
///
/// Threading: immutable after initialisation; the sample data may be read from any thread (the engine renders
/// from it) as long as the SoundFont is alive.
public final class SoundFont: @unchecked Sendable {
    /// The bank's name (INFO 'INAM'), empty when absent.
    public let name: String
    /// The SoundFont version the file declares (INFO 'ifil'), as (major, minor).
    public let version: (major: Int, minor: Int)
    /// The presets in file order.
    public let presets: [SoundFontPresetInfo]
    /// The instruments' names in file order.
    public let instrumentNames: [String]
    /// The sample headers in file order (the terminal 'EOS' record excluded).
    public let samples: [SoundFontSample]
    /// The sample data, normalised to -1...1.
    public let sampleData: UnsafeBufferPointer<Float>

    /// bank << 8 | program per preset, for lookups.
    let presetKeys: [Int]
    let presetZoneSets: [SoundFontZoneSet]
    let instrumentZoneSets: [SoundFontZoneSet]
    let presetZones: [SoundFontZone]
    let instrumentZones: [SoundFontZone]
    let generatorIDs: [UInt8]
    let generatorValues: [Float]
    let modulators: [SoundFontModulator]

    /// Reads and parses the SoundFont 2 or DLS bank at `path`.
    public convenience init(contentsOf path: String) throws(SoundFontError) {
        guard let file = fopen(path, "rb") else { throw .unreadableFile(path: path, errno: errno) }
        defer { fclose(file) }
        guard fseek(file, 0, SEEK_END) == 0 else { throw .unreadableFile(path: path, errno: errno) }
        let size = ftell(file)
        guard size >= 0, fseek(file, 0, SEEK_SET) == 0 else { throw .unreadableFile(path: path, errno: errno) }
        var readError: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            count = size == 0 ? 0 : fread(buffer.baseAddress!, 1, size, file)
            if count != size { readError = ferror(file) != 0 ? errno : EIO }
        }
        if readError != 0 { throw .unreadableFile(path: path, errno: readError) }
        try self.init(bytes: bytes)
    }

    /// Parses a bank held in memory: a SoundFont 2 ('sfbk') or a DLS Level 1/2 bank ('DLS ', see `DLSParser`).
    public init(bytes: [UInt8]) throws(SoundFontError) {
        let result = bytes.withUnsafeBytes { raw -> Result<Parsed, SoundFontError> in
            do throws(SoundFontError) {
                // The form type decides: 'DLS ' is a Downloadable Sounds bank, read into the same tables.
                if raw.count >= 12 && Parser(raw).fourCC(8) == "DLS " { return .success(try DLSParser(raw).parse()) }
                return .success(try Parser(raw).parse())
            } catch { return .failure(error) }
        }
        var parsed = try result.get()
        name = parsed.name
        version = parsed.version
        presets = parsed.presets
        presetKeys = parsed.presets.map { $0.bank << 8 | ($0.program & 0xFF) }
        instrumentNames = parsed.instrumentNames
        samples = parsed.samples
        presetZoneSets = parsed.presetZoneSets
        instrumentZoneSets = parsed.instrumentZoneSets
        presetZones = parsed.presetZones
        instrumentZones = parsed.instrumentZones
        generatorIDs = parsed.generatorIDs
        generatorValues = parsed.generatorValues
        modulators = parsed.modulators
        let data = UnsafeMutableBufferPointer<Float>.allocate(capacity: max(parsed.sampleData.count, 1))
        _ = data.initialize(from: parsed.sampleData)
        if parsed.sampleData.isEmpty { data[0] = 0 }
        sampleData = UnsafeBufferPointer(rebasing: data[0 ..< parsed.sampleData.count])
        parsed.sampleData = []
    }

    deinit {
        if let base = sampleData.baseAddress { UnsafeMutablePointer(mutating: base).deallocate() }
    }

    /// The index in `presets` of the preset with this bank and program, or nil.
    public func presetIndex(bank: Int, program: Int) -> Int? {
        guard (0 ... 255).contains(program) else { return nil }
        let k = findPreset(bank: bank, program: program)
        return k >= 0 ? k : nil
    }

    /// Every region (preset zone × instrument zone pair) of preset `presetIndex` that sounds for `key` and
    /// `velocity`, resolved as SoundFont 2.04 section 9.4 describes. Empty when the preset index is out of range.
    public func regions(presetIndex: Int, key: Int, velocity: Int) -> [SoundFontRegion] {
        guard presets.indices.contains(presetIndex) else { return [] }
        var result: [SoundFontRegion] = []
        let generators = UnsafeMutablePointer<Float>.allocate(capacity: SoundFontGenerator.count)
        let mods = UnsafeMutablePointer<SoundFontModulator>.allocate(capacity: SoundFont.maximumVoiceModulators)
        defer { generators.deallocate(); mods.deallocate() }
        forEachRegion(presetIndex: presetIndex, key: key, velocity: velocity) { p, i in
            merge(preset: presetIndex, presetZone: p, instrumentZone: i, generators: generators)
            let count = mergeModulators(preset: presetIndex, presetZone: p, instrumentZone: i, into: mods)
            let pz = presetZones[p], iz = instrumentZones[i]
            result.append(SoundFontRegion(
                generators: Array(UnsafeBufferPointer(start: generators, count: SoundFontGenerator.count)),
                modulators: Array(UnsafeBufferPointer(start: mods, count: count)),
                sampleIndex: iz.link,
                keyRange: max(pz.keyLow, iz.keyLow) ... max(min(pz.keyHigh, iz.keyHigh), max(pz.keyLow, iz.keyLow)),
                velocityRange: max(pz.velocityLow, iz.velocityLow) ... max(min(pz.velocityHigh, iz.velocityHigh), max(pz.velocityLow, iz.velocityLow))))
        }
        return result
    }

    /// The most modulators a voice holds (defaults, instrument's and preset's); a zone pair with more keeps the first.
    static let maximumVoiceModulators = 64

    /// Calls `body(presetZone, instrumentZone)` for each zone pair of the preset that answers to key and velocity.
    func forEachRegion(presetIndex: Int, key: Int, velocity: Int, _ body: (Int, Int) -> Void) {
        let set = presetZoneSets[presetIndex]
        for p in set.first ..< set.first + set.count {
            let pz = presetZones[p]
            guard pz.contains(key: key, velocity: velocity) else { continue }
            let inst = instrumentZoneSets[pz.link]
            for i in inst.first ..< inst.first + inst.count where instrumentZones[i].contains(key: key, velocity: velocity) {
                body(p, i)
            }
        }
    }

    /// Writes the merged generators of a zone pair: defaults, instrument global, instrument zone (absolute), then
    /// the preset zone's values, or its global zone's where the zone has none, added.
    func merge(preset: Int, presetZone p: Int, instrumentZone i: Int, generators g: UnsafeMutablePointer<Float>) {
        for n in 0 ..< SoundFontGenerator.count { g[n] = SoundFontGenerator.defaultValue(n) }
        let iz = instrumentZones[i]
        let instSet = instrumentZoneSets[presetZones[p].link]
        if instSet.global >= 0 { apply(instrumentZones[instSet.global], to: g, adding: false, skipping: 0) }
        apply(iz, to: g, adding: false, skipping: 0)
        let pz = presetZones[p]
        apply(pz, to: g, adding: true, skipping: 0)
        let presetSet = presetZoneSets[preset]
        if presetSet.global >= 0 { apply(presetZones[presetSet.global], to: g, adding: true, skipping: pz.generatorMask) }
    }

    private func apply(_ zone: SoundFontZone, to g: UnsafeMutablePointer<Float>, adding: Bool, skipping mask: UInt64) {
        for k in zone.generatorStart ..< zone.generatorStart + zone.generatorCount {
            let id = Int(generatorIDs[k])
            if mask & (1 << UInt64(id)) != 0 { continue }
            if adding { g[id] += generatorValues[k] } else { g[id] = generatorValues[k] }
        }
    }

    /// Writes the merged modulators of a zone pair into `out` (capacity `maximumVoiceModulators`); returns the count.
    func mergeModulators(preset: Int, presetZone p: Int, instrumentZone i: Int, into out: UnsafeMutablePointer<SoundFontModulator>) -> Int {
        var count = 0
        let defaults = SoundFontModulator.defaults
        for k in 0 ..< defaults.count { out[count] = defaults[k]; count += 1 }
        let instSet = instrumentZoneSets[presetZones[p].link]
        let global = instSet.global >= 0 ? instrumentZones[instSet.global] : nil
        count = add(local: instrumentZones[i], global: global, to: out, count: count, overwrite: true)
        let presetSet = presetZoneSets[preset]
        let presetGlobal = presetSet.global >= 0 ? presetZones[presetSet.global] : nil
        return add(local: presetZones[p], global: presetGlobal, to: out, count: count, overwrite: false)
    }

    /// FluidSynth's fluid_defpreset_noteon_add_mod_to_voice: the zone's modulators and its global zone's that no
    /// local one is identical to; each replaces (instrument level) or adds to (preset level) an identical modulator
    /// already in the list, or is appended.
    private func add(local: SoundFontZone, global: SoundFontZone?, to out: UnsafeMutablePointer<SoundFontModulator>,
                     count start: Int, overwrite: Bool) -> Int {
        var count = start
        let localEnd = local.modulatorStart + local.modulatorCount
        for k in local.modulatorStart ..< localEnd {
            SoundFont.place(modulators[k], into: out, count: &count, limit: start, overwrite: overwrite)
        }
        if let global {
            for k in global.modulatorStart ..< global.modulatorStart + global.modulatorCount {
                let m = modulators[k]
                var shadowed = false
                for j in local.modulatorStart ..< localEnd where modulators[j].isIdentical(to: m) { shadowed = true; break }
                if !shadowed { SoundFont.place(m, into: out, count: &count, limit: start, overwrite: overwrite) }
            }
        }
        return count
    }

    /// Replaces (instrument level) or adds to (preset level) the first identical modulator among `out[0 ..< limit]`,
    /// else appends while there is room. Preset modulators of amount 0 change nothing and are skipped.
    private static func place(_ m: SoundFontModulator, into out: UnsafeMutablePointer<SoundFontModulator>, count: inout Int,
                              limit: Int, overwrite: Bool) {
        if !overwrite && m.amount == 0 { return }
        for k in 0 ..< limit where out[k].isIdentical(to: m) {
            if overwrite { out[k] = m } else { out[k].amount += m.amount }
            return
        }
        if count < maximumVoiceModulators { out[count] = m; count += 1 }
    }

    /// The preset with this bank and program, by a plain scan (no allocation: the engine calls it on program change).
    func findPreset(bank: Int, program: Int) -> Int {
        for k in 0 ..< presetKeys.count where presetKeys[k] == bank << 8 | program { return k }
        return -1
    }
}

extension SoundFont {
    struct Parsed {
        var name = ""
        var version = (major: 0, minor: 0)
        var presets: [SoundFontPresetInfo] = []
        var instrumentNames: [String] = []
        var samples: [SoundFontSample] = []
        var presetZoneSets: [SoundFontZoneSet] = []
        var instrumentZoneSets: [SoundFontZoneSet] = []
        var presetZones: [SoundFontZone] = []
        var instrumentZones: [SoundFontZone] = []
        var generatorIDs: [UInt8] = []
        var generatorValues: [Float] = []
        var modulators: [SoundFontModulator] = []
        var sampleData: [Float] = []
    }

    /// A chunk's payload: offset and size inside the file's bytes (both already checked against the bytes).
    struct Chunk { var offset: Int; var size: Int }

    struct Parser {
        let raw: UnsafeRawBufferPointer
        init(_ raw: UnsafeRawBufferPointer) { self.raw = raw }

        func u8(_ at: Int) -> Int { Int(raw[at]) }
        func u16(_ at: Int) -> Int { Int(raw[at]) | Int(raw[at + 1]) << 8 }
        func i16(_ at: Int) -> Int { Int(Int16(bitPattern: UInt16(u16(at)))) }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        func fourCC(_ at: Int) -> String { String(decoding: raw[at ..< at + 4], as: UTF8.self) }
        func string(_ at: Int, _ length: Int) -> String {
            var end = at
            while end < at + length && raw[end] != 0 { end += 1 }
            return String(decoding: raw[at ..< end], as: UTF8.self)
        }

        /// The sub-chunks of the region [start, end), each checked to lie inside it.
        func chunks(_ start: Int, _ end: Int, in parent: String) throws(SoundFontError) -> [(id: String, chunk: Chunk)] {
            var result: [(id: String, chunk: Chunk)] = []
            var at = start
            while end - at >= 8 {
                let id = fourCC(at), size = u32(at + 4)
                guard size <= end - at - 8 else { throw .truncatedChunk(id) }
                result.append((id, Chunk(offset: at + 8, size: size)))
                at += 8 + size + (size & 1)
            }
            return result
        }

        /// The records of a table chunk: count = size / recordSize, which must divide and reach `minimum`.
        func records(_ chunk: Chunk?, _ id: String, size recordSize: Int, minimum: Int) throws(SoundFontError) -> Int {
            guard let chunk else { throw .missingChunk(id) }
            guard chunk.size % recordSize == 0, chunk.size / recordSize >= minimum else { throw .badChunkSize(id) }
            return chunk.size / recordSize
        }

        func parse() throws(SoundFontError) -> Parsed {
            guard raw.count >= 12, fourCC(0) == "RIFF", fourCC(8) == "sfbk" else { throw .notSoundFont }
            let riffSize = u32(4)
            guard riffSize >= 4, riffSize <= raw.count - 8 else { throw .truncatedChunk("RIFF") }
            var out = Parsed()
            var lists: [String: Chunk] = [:]
            for (id, chunk) in try chunks(12, 8 + riffSize, in: "sfbk") where id == "LIST" && chunk.size >= 4 {
                lists[fourCC(chunk.offset)] = Chunk(offset: chunk.offset + 4, size: chunk.size - 4)
            }
            guard let info = lists["INFO"] else { throw .missingChunk("INFO") }
            guard let sdta = lists["sdta"] else { throw .missingChunk("sdta") }
            guard let pdta = lists["pdta"] else { throw .missingChunk("pdta") }

            for (id, chunk) in try chunks(info.offset, info.offset + info.size, in: "INFO") {
                if id == "ifil" && chunk.size >= 4 { out.version = (u16(chunk.offset), u16(chunk.offset + 2)) }
                if id == "INAM" { out.name = string(chunk.offset, chunk.size) }
            }

            var smpl: Chunk?, sm24: Chunk?
            for (id, chunk) in try chunks(sdta.offset, sdta.offset + sdta.size, in: "sdta") {
                if id == "smpl" { smpl = chunk }
                if id == "sm24" { sm24 = chunk }
            }
            guard let smpl else { throw .missingChunk("smpl") }
            let pointCount = smpl.size / 2
            // sm24 is used only when it holds one byte per point (padded to even), as SoundFont 2.04 section 6.2 says.
            let lowBytes = sm24.flatMap { $0.size == pointCount || $0.size == pointCount + (pointCount & 1) ? $0 : nil }
            out.sampleData = [Float](unsafeUninitializedCapacity: pointCount) { buffer, count in
                let base = smpl.offset
                if let lowBytes {
                    for k in 0 ..< pointCount {
                        let v = Int32(Int16(bitPattern: UInt16(u16(base + 2 * k)))) << 8 | Int32(raw[lowBytes.offset + k])
                        buffer[k] = Float(v) * (1 / 8_388_608)
                    }
                } else {
                    for k in 0 ..< pointCount { buffer[k] = Float(i16(base + 2 * k)) * (1 / 32768) }
                }
                count = pointCount
            }

            var table: [String: Chunk] = [:]
            for (id, chunk) in try chunks(pdta.offset, pdta.offset + pdta.size, in: "pdta") where table[id] == nil { table[id] = chunk }
            let phdrCount = try records(table["phdr"], "phdr", size: 38, minimum: 2)
            let pbagCount = try records(table["pbag"], "pbag", size: 4, minimum: 1)
            let pmodCount = try records(table["pmod"], "pmod", size: 10, minimum: 0)
            let pgenCount = try records(table["pgen"], "pgen", size: 4, minimum: 0)
            let instCount = try records(table["inst"], "inst", size: 22, minimum: 2)
            let ibagCount = try records(table["ibag"], "ibag", size: 4, minimum: 1)
            let imodCount = try records(table["imod"], "imod", size: 10, minimum: 0)
            let igenCount = try records(table["igen"], "igen", size: 4, minimum: 0)
            let shdrCount = try records(table["shdr"], "shdr", size: 46, minimum: 1)

            // Samples first: instrument zones refer to them.
            let shdr = table["shdr"]!.offset
            var sampleUsable: [Bool] = []
            for s in 0 ..< shdrCount - 1 {
                let at = shdr + 46 * s
                var start = u32(at + 20), end = u32(at + 24)
                var loopStart = u32(at + 28), loopEnd = u32(at + 32)
                let rate = u32(at + 36), type = u16(at + 44)
                end = min(end, pointCount)
                start = min(start, end)
                loopStart = min(max(loopStart, start), end)
                loopEnd = min(max(loopEnd, start), end)
                var pitch = u8(at + 40)
                if pitch > 127 { pitch = 60 }
                let sample = SoundFontSample(
                    name: string(at, 20), start: start, end: end, loopStart: loopStart, loopEnd: loopEnd,
                    hasValidLoop: loopEnd - loopStart >= 2, sampleRate: rate, originalPitch: pitch,
                    pitchCorrection: Int(Int8(bitPattern: UInt8(u8(at + 41)))), sampleType: type)
                out.samples.append(sample)
                sampleUsable.append(end - start >= 1 && rate > 0 && type & 0x8000 == 0)
            }

            // Instruments, then presets, with their bags, generators and modulators.
            let inst = table["inst"]!.offset
            var instBags: [Int] = []
            for k in 0 ..< instCount {
                if k < instCount - 1 { out.instrumentNames.append(string(inst + 22 * k, 20)) }
                instBags.append(u16(inst + 22 * k + 20))
            }
            var instrumentZones: [SoundFontZone] = []
            out.instrumentZoneSets = try zones(bagStarts: instBags, bag: table["ibag"]!, bagCount: ibagCount,
                                               gen: table["igen"]!, genCount: igenCount, mod: table["imod"]!, modCount: imodCount,
                                               linkGenerator: SoundFontGenerator.sampleID, linkCount: shdrCount - 1,
                                               usable: sampleUsable, preset: false, zones: &instrumentZones, into: &out)
            out.instrumentZones = instrumentZones

            let phdr = table["phdr"]!.offset
            var presetBags: [Int] = []
            for k in 0 ..< phdrCount {
                let at = phdr + 38 * k
                if k < phdrCount - 1 {
                    out.presets.append(SoundFontPresetInfo(name: string(at, 20), bank: u16(at + 22), program: u16(at + 20)))
                }
                presetBags.append(u16(at + 24))
            }
            var presetZones: [SoundFontZone] = []
            out.presetZoneSets = try zones(bagStarts: presetBags, bag: table["pbag"]!, bagCount: pbagCount,
                                           gen: table["pgen"]!, genCount: pgenCount, mod: table["pmod"]!, modCount: pmodCount,
                                           linkGenerator: SoundFontGenerator.instrument, linkCount: instCount - 1,
                                           usable: [Bool](repeating: true, count: instCount - 1), preset: true,
                                           zones: &presetZones, into: &out)
            out.presetZones = presetZones
            return out
        }

        /// Parses the zones of every preset or instrument. `bagStarts` holds each record's first bag plus the
        /// terminal record's; they must ascend and stay inside the bag table, and each bag's generator and modulator
        /// indices must ascend inside theirs. A zone whose link generator is missing is the global zone when it comes
        /// first and is dropped otherwise; a zone linking to an unusable sample is dropped.
        func zones(bagStarts: [Int], bag: Chunk, bagCount: Int, gen: Chunk, genCount: Int, mod: Chunk, modCount: Int,
                   linkGenerator: Int, linkCount: Int, usable: [Bool], preset: Bool,
                   zones: inout [SoundFontZone], into out: inout Parsed) throws(SoundFontError) -> [SoundFontZoneSet] {
            let what = preset ? "preset" : "instrument"
            var sets: [SoundFontZoneSet] = []
            for k in 0 ..< bagStarts.count - 1 {
                let firstBag = bagStarts[k], endBag = bagStarts[k + 1]
                guard firstBag <= endBag, endBag <= bagCount else { throw .badIndex("\(what) \(k) bag index") }
                var set = SoundFontZoneSet(global: -1, first: zones.count, count: 0)
                for b in firstBag ..< endBag {
                    let genStart = u16(bag.offset + 4 * b), modStart = u16(bag.offset + 4 * b + 2)
                    let genEnd = b + 1 < bagCount ? u16(bag.offset + 4 * b + 4) : genStart
                    let modEnd = b + 1 < bagCount ? u16(bag.offset + 4 * b + 6) : modStart
                    guard genStart <= genEnd, genEnd <= genCount else { throw .badIndex("\(what) bag \(b) generator index") }
                    guard modStart <= modEnd, modEnd <= modCount else { throw .badIndex("\(what) bag \(b) modulator index") }
                    var zone = SoundFontZone()
                    zone.generatorStart = out.generatorIDs.count
                    zone.modulatorStart = out.modulators.count
                    for g in genStart ..< genEnd {
                        let at = gen.offset + 4 * g
                        let id = u16(at)
                        if id == SoundFontGenerator.keyRange {
                            zone.keyLow = u8(at + 2); zone.keyHigh = u8(at + 3)
                        } else if id == SoundFontGenerator.velRange {
                            zone.velocityLow = u8(at + 2); zone.velocityHigh = u8(at + 3)
                        } else if id == linkGenerator {
                            let target = u16(at + 2)
                            guard target < linkCount else { throw .badIndex("\(what) bag \(b) links to \(target) of \(linkCount)") }
                            zone.link = target
                            break  // generators after the link generator are ignored (section 7.5/7.9)
                        } else if SoundFontGenerator.isDefined(id) && (!preset || SoundFontGenerator.isValidAtPresetLevel(id))
                                    && id != SoundFontGenerator.instrument && id != SoundFontGenerator.sampleID {
                            // FluidSynth scales initialAttenuation by 0.4 at both levels (EMU hardware compatibility).
                            let value: Float
                            if id == SoundFontGenerator.initialAttenuation { value = Float(i16(at + 2)) * 0.4 }
                            else { value = Float(i16(at + 2)) }
                            let bit = UInt64(1) << UInt64(id)
                            if zone.generatorMask & bit != 0 {
                                // A repeated generator: the later value replaces the earlier.
                                for e in zone.generatorStart ..< out.generatorIDs.count where Int(out.generatorIDs[e]) == id {
                                    out.generatorValues[e] = value
                                }
                            } else {
                                zone.generatorMask |= bit
                                out.generatorIDs.append(UInt8(id))
                                out.generatorValues.append(value)
                            }
                        }
                    }
                    zone.generatorCount = out.generatorIDs.count - zone.generatorStart
                    for m in modStart ..< modEnd {
                        let at = mod.offset + 10 * m
                        let modulator = SoundFontModulator(source: UInt16(u16(at)), destination: UInt16(u16(at + 2)),
                                                           amount: Double(i16(at + 4)), amountSource: UInt16(u16(at + 6)),
                                                           transform: UInt16(u16(at + 8)))
                        if Parser.isSupported(modulator) { out.modulators.append(modulator) }
                    }
                    zone.modulatorCount = out.modulators.count - zone.modulatorStart
                    if zone.link < 0 {
                        if b == firstBag { set.global = zones.count; zones.append(zone); set.first = zones.count }
                        continue
                    }
                    if !usable[zone.link] { continue }
                    zones.append(zone)
                }
                set.count = zones.count - set.first
                sets.append(set)
            }
            return sets
        }

        /// Modulators the engine evaluates: a generator destination (not a link), sources the engine knows
        /// (SoundFont 2.04 section 8.2.1 general controllers, or CCs other than the ones the spec forbids), a
        /// linear or absolute-value transform. FluidSynth drops the same kinds.
        static func isSupported(_ m: SoundFontModulator) -> Bool {
            guard Int(m.destination) < SoundFontGenerator.count, SoundFontGenerator.isDefined(Int(m.destination)) else { return false }
            guard m.transform == 0 || m.transform == 2 else { return false }
            guard m.source & 0xFF != 0 else { return false }  // "no controller" as the primary source: output 0
            if m.isIdentical(to: SoundFontModulator.velocityToFilterCutoff) { return false }
            return isSupportedSource(m.source) && isSupportedSource(m.amountSource)
        }

        static func isSupportedSource(_ s: UInt16) -> Bool {
            let index = Int(s & 0x7F)
            if Int(s >> 10) > 3 { return false }  // curve types 0...3
            if s & 0x80 != 0 {
                switch index {
                case 0, 6, 32, 38, 98, 99, 100, 101, 120...127: return false
                default: return true
                }
            }
            return [0, 2, 3, 10, 13, 14, 16].contains(index)
        }
    }
}
