/// The boxes of an MPEG-4 audio file this engine writes: 'ftyp' with the file type's brand, and the
/// 'moov' describing one sound track whose packets lie end to end in 'mdat' (sample entry with the
/// codec's configuration box, stts/stsc/stsz and stco or co64, an edit list and iTunSMPB for priming and
/// remainder, iTunes 'ilst' items for the info dictionary). Built whole from the layout each time the
/// header is brought up to date; the layout's packet offsets are from `dataOffset`.
enum MP4Writer {
    /// Packets a chunk holds: about a second of audio, so chunk offsets stay few.
    static func samplesPerChunk(_ f: AudioStreamBasicDescription) -> Int {
        f.mFramesPerPacket > 0 ? max(1, Int((f.mSampleRate / Double(f.mFramesPerPacket)).rounded())) : 32
    }

    static func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
        var w = ByteWriter()
        w.be(UInt64(8 + body.count), 4)
        w.fourCC(OCAFormat.fourCharCode(type))
        return w.bytes + body
    }

    /// A "full box": version and flags before the body.
    static func fullBox(_ type: String, version: UInt8 = 0, flags: UInt32 = 0, _ body: [UInt8]) -> [UInt8] {
        box(type, [version, UInt8(flags >> 16 & 0xFF), UInt8(flags >> 8 & 0xFF), UInt8(flags & 0xFF)] + body)
    }

    static func be(_ v: UInt64, _ n: Int) -> [UInt8] { (0..<n).reversed().map { UInt8(truncatingIfNeeded: v >> UInt64(8 * $0)) } }

    /// 'ftyp': M4A / M4B for Apple's audio types, 3gp4 for 3GPP (TS 26.244's release-4 brand, the first with
    /// AMR and AAC), 3g2a for 3GPP2, mp42 for plain MPEG-4.
    static func fileTypeBox(_ type: AudioFileTypeID) -> [UInt8] {
        switch type {
        case kAudioFile3GPType: return box("ftyp", Array("3gp4".utf8) + be(0, 4) + Array("3gp4isom".utf8))
        case kAudioFile3GP2Type: return box("ftyp", Array("3g2a".utf8) + be(0, 4) + Array("3g2a3gp4isom".utf8))
        default:
            let major = type == kAudioFileM4AType ? "M4A " : type == kAudioFileM4BType ? "M4B " : "mp42"
            return box("ftyp", Array(major.utf8) + be(0, 4) + Array((major + "mp42isom").utf8) + be(0, 4))
        }
    }

    /// 3GPP TS 26.244's AMRSpecificBox ('damr'): vendor, decoder version 0, the modes the stream may use (a bit
    /// per frame type: every speech mode), mode change period 0 (changes at any frame), frames per sample.
    static func amrSpecificBox(wideband: Bool, framesPerSample: Int) -> [UInt8] {
        let modeSet: UInt64 = wideband ? 0x01FF : 0x00FF
        return box("damr", Array("oca ".utf8) + [0] + be(modeSet, 2) + [0, UInt8(clamping: max(framesPerSample, 1))])
    }

    /// The codec configuration box for a sample entry, or nil for a format MP4 files here cannot hold. A channel layout
    /// goes into a 'chan' box after the configuration (QuickTime's: a full box holding CAF's 'chan' body), as Apple's
    /// files carry it.
    static func sampleEntry(_ f: AudioStreamBasicDescription, cookie: [UInt8]?, channelLayout: [UInt8]? = nil) -> [UInt8]? {
        var entryType: String
        var config: [UInt8]
        switch f.mFormatID {
        case kAudioFormatMPEG4AAC, kAudioFormatMPEG4AAC_HE, kAudioFormatMPEG4AAC_HE_V2:
            // The encoder's cookie is an ES_Descriptor; a bare AudioSpecificConfig is wrapped in one.
            guard let cookie else { return nil }
            let es = ESDescriptor(cookie) != nil ? (cookie.first == 0x03 ? cookie : Array(cookie.dropFirst(4)))
                : AudioSpecificConfig(cookie) != nil ? ESDescriptor.make(audioSpecificConfig: cookie, averageBitRate: 0, maximumBitRate: 0) : nil
            guard let es else { return nil }
            entryType = "mp4a"
            config = fullBox("esds", es)
        case kAudioFormatAppleLossless:
            guard let cookie, let alac = try? ALACSpecificConfig(cookie: cookie) else { return nil }
            entryType = "alac"
            // The 24-byte config alone: the channel count implies ALAC's layout.
            config = fullBox("alac", alac.cookieBytes)
        case kAudioFormatFLAC:
            guard let info = cookie.flatMap(FLACCookie.streamInfo) else { return nil }
            entryType = "fLaC"
            config = FLACCookie.bytes(info)
        case kAudioFormatOpus:
            guard let head = cookie.flatMap(OpusHeader.init) ?? OpusHeader.standard(channels: Int(f.mChannelsPerFrame)),
                  head.mappingFamily <= 1 else { return nil }
            entryType = "Opus"
            config = box("dOps", head.dOpsBody)
        case kAudioFormatAMR, kAudioFormatAMR_WB:
            let wideband = f.mFormatID == kAudioFormatAMR_WB
            entryType = wideband ? "sawb" : "samr"
            // A packet of several frames is one sample; variable packets (copied from a 3GP) say nothing fixed.
            config = amrSpecificBox(wideband: wideband, framesPerSample: Int(f.mFramesPerPacket) / AMRFrame.samples(wideband: wideband))
        default:
            return nil
        }
        // AudioSampleEntry (version 0): the 16.16 rate field holds rates up to 65,535 Hz; above, the
        // configuration box carries the rate and the field is 0.
        let rate = f.mSampleRate <= 65535 ? UInt64(f.mSampleRate) << 16 : 0
        let bits: UInt64 = f.mFormatID == kAudioFormatAppleLossless || f.mFormatID == kAudioFormatFLAC
            ? UInt64(FLACCookie.bits(flags: f.mFormatFlags) ?? 16) : 16
        let fields = be(0, 6) + be(1, 2) + be(0, 8) + be(UInt64(f.mChannelsPerFrame), 2) + be(bits, 2) + be(0, 4) + be(rate, 4)
        let chan = channelLayout.map { $0.count >= 12 ? fullBox("chan", CAFContainer.nativeLayoutToCAF($0)) : [] } ?? []
        return box(entryType, fields + config + chan)
    }

    /// The 'moov' for `layout`'s packets, with the data starting at `dataOffset` in the file; nil when the
    /// format (or its missing cookie) cannot be described.
    static func movie(_ layout: AudioFileLayout, dataOffset: Int64) -> [UInt8]? {
        let f = layout.format
        guard let entry = sampleEntry(f, cookie: layout.magicCookie, channelLayout: layout.channelLayout), f.mSampleRate >= 1 else { return nil }
        let index = layout.packetIndex ?? PacketIndex(variableFrames: f.mFramesPerPacket == 0)
        let timescale = UInt64(min(f.mSampleRate.rounded(), Double(UInt32.max)))
        let fpp = f.mFramesPerPacket
        let total = UInt64(f.mFramesPerPacket > 0 ? Int64(index.count) * Int64(fpp) : index.totalVariableFrames)
        let table = layout.packetTable
        let priming = UInt64(max(0, table?.mPrimingFrames ?? 0))
        let valid = table.map { UInt64(max(0, min($0.mNumberValidFrames, Int64(total) - Int64(priming)))) } ?? total
        let wide = total > UInt64(UInt32.max)

        // stts: runs of equal durations.
        var runs: [(count: UInt64, delta: UInt64)] = []
        for i in 0..<index.count {
            let d = UInt64(index.frames(at: i, constant: fpp))
            if let last = runs.last, last.delta == d { runs[runs.count - 1].count += 1 } else { runs.append((1, d)) }
        }
        let stts = fullBox("stts", be(UInt64(runs.count), 4) + runs.flatMap { be($0.count, 4) + be($0.delta, 4) })
        // stsc and the chunk offsets: fixed-size chunks, the last one short.
        let perChunk = samplesPerChunk(f)
        let chunks = (index.count + perChunk - 1) / perChunk
        var stscEntries: [(first: Int, count: Int)] = []
        if chunks > 0 { stscEntries.append((1, min(perChunk, index.count))) }
        if chunks > 1, index.count % perChunk != 0 { stscEntries.append((chunks, index.count % perChunk)) }
        let stsc = fullBox("stsc", be(UInt64(stscEntries.count), 4) + stscEntries.flatMap { be(UInt64($0.first), 4) + be(UInt64($0.count), 4) + be(1, 4) })
        var sizes = ByteWriter()
        sizes.bytes.reserveCapacity(12 + 4 * index.count)
        sizes.be(0, 4); sizes.be(0, 4); sizes.be(UInt64(index.count), 4)
        for s in index.sizes { sizes.be(UInt64(s), 4) }
        let stsz = box("stsz", sizes.bytes)
        let offsets = (0..<chunks).map { UInt64(dataOffset + index.offsets[$0 * perChunk]) }
        let stco = (offsets.last ?? 0) > UInt64(UInt32.max)
            ? fullBox("co64", be(UInt64(chunks), 4) + offsets.flatMap { be($0, 8) })
            : fullBox("stco", be(UInt64(chunks), 4) + offsets.flatMap { be($0, 4) })
        let stsd = fullBox("stsd", be(1, 4) + entry)
        let stbl = box("stbl", stsd + stts + stsc + stsz + stco)
        let dinf = box("dinf", fullBox("dref", be(1, 4) + fullBox("url ", flags: 1, [])))
        let minf = box("minf", fullBox("smhd", be(0, 4)) + dinf + stbl)
        let hdlr = fullBox("hdlr", be(0, 4) + Array("soun".utf8) + be(0, 12) + Array("SoundHandler".utf8) + [0])
        // Language "und", packed as three 5-bit letters.
        let mdhd = wide ? fullBox("mdhd", version: 1, be(0, 16) + be(timescale, 4) + be(total, 8) + be(0x55C4, 2) + be(0, 2))
            : fullBox("mdhd", be(0, 8) + be(timescale, 4) + be(total, 4) + be(0x55C4, 2) + be(0, 2))
        let mdia = box("mdia", mdhd + hdlr + minf)
        let matrix = be(0x10000, 4) + be(0, 12) + be(0x10000, 4) + be(0, 12) + be(0x4000_0000, 4)
        // The movie and track durations (movie timescale = the sample rate) are the frames a player plays.
        let tkhd = wide ? fullBox("tkhd", version: 1, flags: 7, be(0, 16) + be(1, 4) + be(0, 4) + be(valid, 8) + be(0, 8) + be(0, 4) + be(0x0100, 2) + be(0, 2) + matrix + be(0, 8))
            : fullBox("tkhd", flags: 7, be(0, 8) + be(1, 4) + be(0, 4) + be(valid, 4) + be(0, 8) + be(0, 4) + be(0x0100, 2) + be(0, 2) + matrix + be(0, 8))
        var edts: [UInt8] = []
        if table != nil && (priming > 0 || valid < total) {
            // One edit: skip the priming frames, play the valid ones (ffmpeg and Apple honour it).
            edts = box("edts", wide ? fullBox("elst", version: 1, be(1, 4) + be(valid, 8) + be(priming, 8) + be(0x10000, 4))
                               : fullBox("elst", be(1, 4) + be(valid, 4) + be(priming, 4) + be(0x10000, 4)))
        }
        let trak = box("trak", tkhd + edts + mdia)
        let mvhd = wide ? fullBox("mvhd", version: 1, be(0, 16) + be(timescale, 4) + be(valid, 8) + be(0x10000, 4) + be(0x0100, 2) + be(0, 10) + matrix + be(0, 24) + be(2, 4))
            : fullBox("mvhd", be(0, 8) + be(timescale, 4) + be(valid, 4) + be(0x10000, 4) + be(0x0100, 2) + be(0, 10) + matrix + be(0, 24) + be(2, 4))
        // A file shorter than its priming (none written yet, or one packet of a codec priming more) has no remainder.
        let remainder = total >= priming + valid ? total - priming - valid : 0
        return box("moov", mvhd + trak + userData(layout, priming: priming, remainder: remainder, valid: valid))
    }

    /// udta/meta/ilst: the info dictionary's simple text items and, with a packet table, iTunSMPB.
    static func userData(_ layout: AudioFileLayout, priming: UInt64, remainder: UInt64, valid: UInt64) -> [UInt8] {
        func text(_ value: String) -> [UInt8] { box("data", be(1, 4) + be(0, 4) + Array(value.utf8)) }
        var items: [UInt8] = []
        for (atom, key) in MP4Container.ilstKeys.sorted(by: { $0.key < $1.key }) {
            guard let value = layout.info[key] else { continue }
            // The © sign is the byte 0xA9 in the atom's type.
            let type = atom.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }
            items += be(UInt64(8 + 16 + value.utf8.count), 4) + type + text(value)
        }
        // Keys that are no iTunes atom go into freeform items (Sound Check as iTunNORM), as iTunes keeps its own.
        let named = Set(MP4Container.ilstKeys.values).union([kAFInfoDictionary_TrackNumber, kAFInfoDictionary_ApproximateDurationInSeconds])
        for (key, value) in layout.info.sorted(by: { $0.key < $1.key }) where !named.contains(key) {
            let name = key == MP4Container.soundCheckKey ? "iTunNORM" : key
            items += box("----", fullBox("mean", Array("com.apple.iTunes".utf8)) + fullBox("name", Array(name.utf8)) + text(value))
        }
        if layout.packetTable != nil {
            let fields = [0, priming, remainder].map { hex($0, 8) } + [hex(valid, 16)] + Array(repeating: hex(0, 8), count: 8)
            let smpb = " " + fields.joined(separator: " ")
            items += box("----", fullBox("mean", Array("com.apple.iTunes".utf8)) + fullBox("name", Array("iTunSMPB".utf8)) + text(smpb))
        }
        guard !items.isEmpty else { return [] }
        let hdlr = fullBox("hdlr", be(0, 4) + Array("mdirappl".utf8) + be(0, 9))
        return box("udta", fullBox("meta", hdlr + box("ilst", items)))
    }

    static func hex(_ v: UInt64, _ digits: Int) -> String {
        let s = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - s.count)) + s
    }
}
