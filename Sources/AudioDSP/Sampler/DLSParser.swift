/// Reads a Downloadable Sounds bank (RIFF form 'DLS ', DLS Level 1 v1.1b and Level 2.2) into the tables a
/// `SoundFont` plays: each DLS instrument becomes one preset with one instrument, each region one instrument zone
/// with its own sample header (the region's wave, with the region's or else the wave's 'wsmp' loop, unity note and
/// fine tune), and the articulation ('art1'/'art2' connection blocks, the region's or else the instrument's) is
/// translated by `DLSArticulation` into SoundFont generators and modulators over DLS's own defaults.
///
/// Why a SoundFont: the engine already plays the SoundFont 2 model, which DLS's articulation maps onto almost
/// one-to-one (same time cents, absolute cents, the same concave velocity curve), so one engine, one cache and one
/// set of real-time checks serve both formats.
///
/// Every size, count, offset and index is checked against its chunk before use; hostile bytes end in a
/// `SoundFontError`, and the allocations are bounded by the file's size (sample data: at most one Float per byte of
/// 'data'; tables: a constant per region and per connection block, each taking bytes of the file).
struct DLSParser {
    let riff: SoundFont.Parser
    init(_ raw: UnsafeRawBufferPointer) { riff = SoundFont.Parser(raw) }

    /// Bank flag of 'insh': the instrument is a drum kit (SoundFont bank 128).
    static let drumFlag = 0x8000_0000

    /// One 'wave' of the pool once decoded: where its points are in the sample data (channel c's `count` points
    /// start at `start + c * count`), its rate and own 'wsmp'.
    struct Wave { var start: Int; var count: Int; var channels: Int; var rate: Int; var sampleInfo: SampleInfo? }

    /// 'wlnk' channel bits (DLS Level 2 WAVELINK_CHANNEL_LEFT / _RIGHT).
    static let leftChannel = 1, rightChannel = 2

    /// A 'wsmp' chunk: unity note, fine tune (cents), gain (centibels) and the first loop, if any.
    struct SampleInfo {
        var unityNote = 60, fineTune = 0
        var gain = 0.0
        var loop: (start: Int, length: Int, release: Bool)?
    }

    func parse() throws(SoundFontError) -> SoundFont.Parsed {
        let raw = riff.raw
        guard raw.count >= 12, riff.fourCC(0) == "RIFF", riff.fourCC(8) == "DLS " else { throw .notSoundFont }
        let riffSize = riff.u32(4)
        guard riffSize >= 4, riffSize <= raw.count - 8 else { throw .truncatedChunk("RIFF") }
        var out = SoundFont.Parsed()
        var lins: SoundFont.Chunk?, wvpl: SoundFont.Chunk?, ptbl: SoundFont.Chunk?
        for (id, chunk) in try riff.chunks(12, 8 + riffSize, in: "DLS ") {
            switch id {
            case "LIST" where chunk.size >= 4:
                let inner = SoundFont.Chunk(offset: chunk.offset + 4, size: chunk.size - 4)
                switch riff.fourCC(chunk.offset) {
                case "lins": lins = inner
                case "wvpl": wvpl = inner
                case "INFO": out.name = try infoName(inner)
                default: break
                }
            case "ptbl": ptbl = chunk
            case "vers" where chunk.size >= 8:
                out.version = (riff.u32(chunk.offset) >> 16, riff.u32(chunk.offset) & 0xFFFF)
            default: break
            }
        }
        guard let lins else { throw .missingChunk("lins") }
        guard let wvpl else { throw .missingChunk("wvpl") }

        // The wave pool: each LIST 'wave' decoded once, found by its offset from the pool's first byte after 'wvpl'.
        var waves: [Wave] = []
        var waveAtOffset: [Int: Int] = [:]
        for (id, chunk) in try riff.chunks(wvpl.offset, wvpl.offset + wvpl.size, in: "wvpl")
        where id == "LIST" && chunk.size >= 4 && riff.fourCC(chunk.offset) == "wave" {
            let wave = try decodeWave(SoundFont.Chunk(offset: chunk.offset + 4, size: chunk.size - 4), into: &out.sampleData)
            waveAtOffset[chunk.offset - 8 - (wvpl.offset)] = waves.count
            waves.append(wave ?? Wave(start: 0, count: 0, channels: 1, rate: 0, sampleInfo: nil))
        }
        // The pool table maps a region's table index to a wave; without one, the index is the wave's ordinal.
        var cues: [Int] = []
        if let ptbl {
            guard ptbl.size >= 8 else { throw .badChunkSize("ptbl") }
            let header = riff.u32(ptbl.offset), count = riff.u32(ptbl.offset + 4)
            guard header >= 8, header <= ptbl.size, count <= (ptbl.size - header) / 4 else { throw .badChunkSize("ptbl") }
            cues = (0 ..< count).map { waveAtOffset[riff.u32(ptbl.offset + header + 4 * $0)] ?? -1 }
        } else {
            cues = Array(waves.indices)
        }

        for (id, chunk) in try riff.chunks(lins.offset, lins.offset + lins.size, in: "lins")
        where id == "LIST" && chunk.size >= 4 && riff.fourCC(chunk.offset) == "ins " {
            try instrument(SoundFont.Chunk(offset: chunk.offset + 4, size: chunk.size - 4), waves: waves, cues: cues, into: &out)
        }
        return out
    }

    /// INFO 'INAM', or "".
    func infoName(_ list: SoundFont.Chunk) throws(SoundFontError) -> String {
        for (id, chunk) in try riff.chunks(list.offset, list.offset + list.size, in: "INFO") where id == "INAM" {
            return riff.string(chunk.offset, chunk.size)
        }
        return ""
    }

    /// Decodes a wave's 'fmt ' and 'data' (PCM, 8-bit unsigned or 16-bit signed, each channel a run of its own)
    /// into `data`; nil (an unusable wave, whose regions are dropped) for other formats or a wave without data.
    func decodeWave(_ list: SoundFont.Chunk, into data: inout [Float]) throws(SoundFontError) -> Wave? {
        var format: SoundFont.Chunk?, body: SoundFont.Chunk?, info: SampleInfo?
        for (id, chunk) in try riff.chunks(list.offset, list.offset + list.size, in: "wave") {
            switch id {
            case "fmt ": format = chunk
            case "data": body = chunk
            case "wsmp": info = try sampleInfo(chunk)
            default: break
            }
        }
        guard let format, format.size >= 16, let body else { return nil }
        let tag = riff.u16(format.offset), channels = riff.u16(format.offset + 2)
        let rate = riff.u32(format.offset + 4), bits = riff.u16(format.offset + 14)
        guard tag == 1, channels >= 1, rate > 0, bits == 8 || bits == 16 else { return nil }
        let frameBytes = channels * bits / 8
        let count = body.size / frameBytes
        guard count >= 1 else { return nil }
        let start = data.count
        data.reserveCapacity(start + count * channels)  // at most one Float per byte of 'data'
        for c in 0 ..< channels {
            let first = body.offset + c * bits / 8
            if bits == 8 {
                for k in 0 ..< count { data.append(Float(riff.u8(first + k * frameBytes) - 128) * (1 / 128)) }
            } else {
                for k in 0 ..< count { data.append(Float(riff.i16(first + k * frameBytes)) * (1 / 32768)) }
            }
        }
        return Wave(start: start, count: count, channels: channels, rate: rate, sampleInfo: info)
    }

    /// A 'wsmp' chunk: header size (at least 20), unity note, fine tune, gain, options, loop count and the loops
    /// (16 bytes each, after the header); the first loop is kept.
    func sampleInfo(_ chunk: SoundFont.Chunk) throws(SoundFontError) -> SampleInfo {
        guard chunk.size >= 20 else { throw .badChunkSize("wsmp") }
        let at = chunk.offset
        let header = riff.u32(at)
        guard header >= 20, header <= chunk.size else { throw .badChunkSize("wsmp") }
        var info = SampleInfo()
        info.unityNote = min(riff.u16(at + 4), 127)
        info.fineTune = riff.i16(at + 6)
        info.gain = Double(Int32(truncatingIfNeeded: riff.u32(at + 8))) / 65536
        let loops = riff.u32(at + 16)
        if loops > 0 && chunk.size - header >= 16 {
            let loop = at + header
            guard riff.u32(loop) >= 16 else { throw .badChunkSize("wsmp loop") }
            info.loop = (riff.u32(loop + 8), riff.u32(loop + 12), riff.u32(loop + 4) == 1)
        }
        return info
    }

    /// One LIST 'ins ': its header, regions and articulation, appended as a preset, an instrument and its zones.
    func instrument(_ list: SoundFont.Chunk, waves: [Wave], cues: [Int], into out: inout SoundFont.Parsed) throws(SoundFontError) {
        var header: SoundFont.Chunk?, regions: SoundFont.Chunk?, articulation: [SoundFont.Chunk] = [], name = ""
        for (id, chunk) in try riff.chunks(list.offset, list.offset + list.size, in: "ins ") {
            if id == "insh" { header = chunk; continue }
            guard id == "LIST", chunk.size >= 4 else { continue }
            let inner = SoundFont.Chunk(offset: chunk.offset + 4, size: chunk.size - 4)
            switch riff.fourCC(chunk.offset) {
            case "lrgn": regions = inner
            case "lart", "lar2": articulation += try connectionChunks(inner)
            case "INFO": name = try infoName(inner)
            default: break
            }
        }
        guard let header, header.size >= 12 else { throw .missingChunk("insh") }
        let bankWord = riff.u32(header.offset + 4), program = riff.u32(header.offset + 8) & 0x7F
        let msb = bankWord >> 8 & 0x7F, lsb = bankWord & 0x7F
        // Drum kits are SoundFont's percussion bank; a melodic bank is its MSB (GS) or, when that is 0, its LSB.
        let bank = bankWord & DLSParser.drumFlag != 0 ? 128 : (msb != 0 ? msb : lsb)
        let instrumentIndex = out.instrumentZoneSets.count
        out.instrumentNames.append(name)
        var set = SoundFontZoneSet(global: -1, first: out.instrumentZones.count, count: 0)
        // Translated once: every region without articulation of its own shares it (the work stays linear in the file).
        let shared = DLSArticulation(try connections(articulation))
        if let regions {
            var lists: [SoundFont.Chunk] = []
            for (id, chunk) in try riff.chunks(regions.offset, regions.offset + regions.size, in: "lrgn") where id == "LIST" && chunk.size >= 4 {
                let kind = riff.fourCC(chunk.offset)
                if kind == "rgn " || kind == "rgn2" { lists.append(SoundFont.Chunk(offset: chunk.offset + 4, size: chunk.size - 4)) }
            }
            // A Level 2 stereo instrument links regions to the right channel: its left and right regions are panned
            // hard to their sides (a mono instrument's regions name the left channel, and stay centred).
            var stereo = false
            for list in lists where try waveLinkChannel(list) == DLSParser.rightChannel { stereo = true; break }
            for list in lists {
                try region(list, instrumentArticulation: shared, stereo: stereo, waves: waves, cues: cues, into: &out)
            }
        }
        set.count = out.instrumentZones.count - set.first
        out.instrumentZoneSets.append(set)
        out.presets.append(SoundFontPresetInfo(name: name, bank: bank, program: program))
        out.presetZoneSets.append(SoundFontZoneSet(global: -1, first: out.presetZones.count, count: 1))
        var presetZone = SoundFontZone()
        presetZone.generatorStart = out.generatorIDs.count
        presetZone.modulatorStart = out.modulators.count
        presetZone.link = instrumentIndex
        out.presetZones.append(presetZone)
    }

    /// The 'wlnk' channel bits of a region, 0 without a usable 'wlnk'.
    func waveLinkChannel(_ list: SoundFont.Chunk) throws(SoundFontError) -> Int {
        for (id, chunk) in try riff.chunks(list.offset, list.offset + list.size, in: "rgn ") where id == "wlnk" && chunk.size >= 12 {
            return riff.u32(chunk.offset + 4)
        }
        return 0
    }

    /// The 'art1'/'art2' chunks of a LIST 'lart'/'lar2'.
    func connectionChunks(_ list: SoundFont.Chunk) throws(SoundFontError) -> [SoundFont.Chunk] {
        try riff.chunks(list.offset, list.offset + list.size, in: "lart").compactMap { $0.id == "art1" || $0.id == "art2" ? $0.chunk : nil }
    }

    /// The connection blocks of 'art1'/'art2' chunks: header size (at least 8), count, then 12-byte blocks.
    func connections(_ chunks: [SoundFont.Chunk]) throws(SoundFontError) -> [DLSArticulation.Connection] {
        var result: [DLSArticulation.Connection] = []
        for chunk in chunks {
            guard chunk.size >= 8 else { throw .badChunkSize("art") }
            let header = riff.u32(chunk.offset), count = riff.u32(chunk.offset + 4)
            guard header >= 8, header <= chunk.size, count <= (chunk.size - header) / 12 else { throw .badChunkSize("art") }
            for k in 0 ..< count {
                let at = chunk.offset + header + 12 * k
                result.append(DLSArticulation.Connection(
                    source: riff.u16(at), control: riff.u16(at + 2), destination: riff.u16(at + 4), transform: riff.u16(at + 6),
                    scale: Double(Int32(truncatingIfNeeded: riff.u32(at + 8)))))
            }
        }
        return result
    }

    /// One region: 'rgnh' ranges and key group, optional 'wsmp', 'wlnk' and articulation, appended as a sample
    /// header and an instrument zone. A region whose wave is missing or unusable is dropped, as SoundFont zones are.
    func region(_ list: SoundFont.Chunk, instrumentArticulation: DLSArticulation, stereo: Bool, waves: [Wave], cues: [Int],
                into out: inout SoundFont.Parsed) throws(SoundFontError) {
        var header: SoundFont.Chunk?, link: SoundFont.Chunk?, info: SampleInfo?, articulation: [SoundFont.Chunk] = []
        for (id, chunk) in try riff.chunks(list.offset, list.offset + list.size, in: "rgn ") {
            switch id {
            case "rgnh": header = chunk
            case "wlnk": link = chunk
            case "wsmp": info = try sampleInfo(chunk)
            case "LIST" where chunk.size >= 4:
                let kind = riff.fourCC(chunk.offset)
                if kind == "lart" || kind == "lar2" {
                    articulation += try connectionChunks(SoundFont.Chunk(offset: chunk.offset + 4, size: chunk.size - 4))
                }
            default: break
            }
        }
        guard let header, header.size >= 12 else { throw .missingChunk("rgnh") }
        guard let link, link.size >= 12 else { throw .missingChunk("wlnk") }
        let channel = riff.u32(link.offset + 4), tableIndex = riff.u32(link.offset + 8)
        guard tableIndex < cues.count else { throw .badIndex("wlnk table index \(tableIndex) of \(cues.count)") }
        let waveIndex = cues[tableIndex]
        guard waveIndex >= 0, waveIndex < waves.count else { throw .badIndex("pool table cue \(tableIndex)") }
        let wave = waves[waveIndex]
        guard wave.count > 0 else { return }
        let sample = info ?? wave.sampleInfo ?? SampleInfo()

        var zone = SoundFontZone()
        zone.keyLow = min(riff.u16(header.offset), 127)
        zone.keyHigh = min(riff.u16(header.offset + 2), 127)
        zone.velocityLow = min(riff.u16(header.offset + 4), 127)
        zone.velocityHigh = min(riff.u16(header.offset + 6), 127)
        if zone.keyHigh < zone.keyLow || zone.velocityHigh < zone.velocityLow { return }
        let keyGroup = riff.u16(header.offset + 10)

        // The region's articulation, when it has one, replaces the instrument's (DLS Level 2's region-level 'lar2').
        var voice = articulation.isEmpty ? instrumentArticulation : DLSArticulation(try connections(articulation))
        if sample.gain != 0 { voice.attenuate(by: -sample.gain) }
        if stereo && (channel == DLSParser.leftChannel || channel == DLSParser.rightChannel) {
            voice.set(SoundFontGenerator.pan, channel == DLSParser.leftChannel ? -500 : 500)
        }
        // The right channel of a multichannel wave is its second run of points; anything else plays the first.
        let start = wave.start + (channel == DLSParser.rightChannel && wave.channels >= 2 ? wave.count : 0)
        if keyGroup != 0 { voice.set(SoundFontGenerator.exclusiveClass, Double(keyGroup)) }
        // A forward loop plays while the key is down and on through the release (SoundFont mode 1); a Level 2
        // release loop also ends at the key's release and lets the rest of the wave play (mode 3).
        if let loop = sample.loop { voice.set(SoundFontGenerator.sampleModes, loop.release ? 3 : 1) }

        var loopStart = start, loopEnd = start
        if let loop = sample.loop, loop.start < wave.count {
            loopStart = start + loop.start
            loopEnd = start + min(loop.start + min(loop.length, wave.count), wave.count)
        }
        let sampleIndex = out.samples.count
        out.samples.append(SoundFontSample(
            name: "", start: start, end: start + wave.count, loopStart: loopStart, loopEnd: loopEnd,
            hasValidLoop: loopEnd - loopStart >= 2, sampleRate: wave.rate, originalPitch: sample.unityNote,
            pitchCorrection: sample.fineTune, sampleType: 1))

        zone.generatorStart = out.generatorIDs.count
        zone.modulatorStart = out.modulators.count
        for id in 0 ..< SoundFontGenerator.count where voice.isSet(id) {
            out.generatorIDs.append(UInt8(id))
            out.generatorValues.append(voice.generators[id])
            zone.generatorMask |= UInt64(1) << UInt64(id)
        }
        zone.generatorCount = out.generatorIDs.count - zone.generatorStart
        out.modulators += voice.modulators
        zone.modulatorCount = voice.modulators.count
        zone.link = sampleIndex
        out.instrumentZones.append(zone)
    }
}
