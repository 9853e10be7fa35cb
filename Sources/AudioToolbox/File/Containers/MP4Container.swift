/// MPEG-4 and M4A files (.m4a, .mp4): the first sound track's sample entry ('mp4a' with its esds, 'alac',
/// 'fLaC' with dfLa, 'Opus' with dOps, '.mp3', 3GP's 'samr' and 'sawb'), its sample table (stsz sizes, stco/co64 chunk offsets,
/// stsc samples per chunk, stts durations) as the packet index, the edit list or iTunes' iTunSMPB as
/// priming and remainder, and iTunes metadata ('ilst') into the info dictionary. Written through MP4Writer.
enum MP4Container: AudioFileContainer {
    static var fileType: AudioFileTypeID { kAudioFileM4AType }

    static func u32(_ b: [UInt8], _ at: Int) -> UInt32? {
        guard at >= 0, at + 4 <= b.count else { return nil }
        return UInt32(b[at]) << 24 | UInt32(b[at + 1]) << 16 | UInt32(b[at + 2]) << 8 | UInt32(b[at + 3])
    }
    static func u64(_ b: [UInt8], _ at: Int) -> UInt64? {
        guard let hi = u32(b, at), let lo = u32(b, at + 4) else { return nil }
        return UInt64(hi) << 32 | UInt64(lo)
    }

    static let ilstKeys: [String: String] = [
        "\u{A9}nam": kAFInfoDictionary_Title, "\u{A9}ART": kAFInfoDictionary_Artist, "\u{A9}alb": kAFInfoDictionary_Album,
        "\u{A9}day": kAFInfoDictionary_Year, "\u{A9}gen": kAFInfoDictionary_Genre, "\u{A9}cmt": kAFInfoDictionary_Comments,
        "\u{A9}wrt": kAFInfoDictionary_Composer, "cprt": kAFInfoDictionary_Copyright, "\u{A9}too": kAFInfoDictionary_EncodingApplication,
    ]

    /// The info-dictionary key iTunNORM (Sound Check's volume adjustment) is read into and written from.
    static let soundCheckKey = "sound check"

    static func parse(_ store: ByteStore) -> Result<AudioFileLayout, OSStatusError> { parse(store, track: 0) }

    /// The file's layout for its sound track number `track` (0-based, in the order of the 'trak' boxes).
    static func parse(_ store: ByteStore, track trackNumber: UInt32) -> Result<AudioFileLayout, OSStatusError> {
        let invalid = Result<AudioFileLayout, OSStatusError>.failure(OSStatusError(kAudioFileInvalidFileError))
        let top = MP4Box.children(store, from: 0, to: store.size, limit: 1000)
        guard let first = top.first, [OCAFormat.fourCharCode("ftyp"), OCAFormat.fourCharCode("moov")].contains(first.type) else { return invalid }
        var fileType = kAudioFileMPEG4Type
        if first.type == OCAFormat.fourCharCode("ftyp"), let brand = store.bytes(at: first.bodyStart, count: 4),
           brand == Array("M4A ".utf8) || brand == Array("M4B ".utf8) {
            fileType = kAudioFileM4AType
        } else if first.type == OCAFormat.fourCharCode("ftyp"), let brand = store.bytes(at: first.bodyStart, count: 4) {
            // 3GPP's brands ('3gp4'-'3gp9', '3gr6', ...) and 3GPP2's ('3g2a'-'3g2c').
            if brand.starts(with: Array("3g2".utf8)) { fileType = kAudioFile3GP2Type } else if brand.starts(with: Array("3g".utf8)) { fileType = kAudioFile3GPType }
        }
        guard let moov = top.first(where: { $0.type == OCAFormat.fourCharCode("moov") }) else { return invalid }
        let moovChildren = MP4Box.children(store, from: moov.bodyStart, to: moov.end)
        var movieTimescale: UInt32 = 0
        if let mvhd = moovChildren.first(where: { $0.type == OCAFormat.fourCharCode("mvhd") }), let b = mvhd.body(store, limit: 256) {
            movieTimescale = (b.first == 1 ? u32(b, 20) : u32(b, 12)) ?? 0
        }
        // The sound tracks; the one asked for is read.
        var tracks: [(trak: MP4Box, mdia: MP4Box)] = []
        for trak in moovChildren where trak.type == OCAFormat.fourCharCode("trak") {
            guard let mdia = trak.child("mdia", in: store), let hdlr = mdia.child("hdlr", in: store),
                  let h = hdlr.body(store, limit: 4096), h.count >= 12, Array(h[8..<12]) == Array("soun".utf8) else { continue }
            tracks.append((trak, mdia))
        }
        guard Int(trackNumber) < tracks.count || tracks.isEmpty else { return .failure(OSStatusError(kAudio_ParamError)) }
        guard let (trak, mdia) = tracks.isEmpty ? nil : tracks[Int(trackNumber)], let minf = mdia.child("minf", in: store), let stbl = minf.child("stbl", in: store),
              let mdhdBox = mdia.child("mdhd", in: store), let mdhd = mdhdBox.body(store, limit: 256) else { return invalid }
        let mediaTimescale = (mdhd.first == 1 ? u32(mdhd, 20) : u32(mdhd, 12)) ?? 0
        // The sample entry.
        guard let stsd = stbl.child("stsd", in: store), let entry = MP4Box.children(store, from: stsd.bodyStart + 8, to: stsd.end, limit: 1).first,
              let fields = store.bytes(at: entry.bodyStart, count: 28) else { return invalid }
        let version = Int(fields[8]) << 8 | Int(fields[9])
        var channels = UInt32(fields[16]) << 8 | UInt32(fields[17])
        var rate = Double(u32(fields, 24)! >> 16)
        var childrenStart = entry.bodyStart + 28
        if version == 1 { childrenStart += 16 }
        if version == 2, let v2 = store.bytes(at: entry.bodyStart + 28, count: 36) {
            rate = Double(bitPattern: u64(v2, 4)!)
            channels = u32(v2, 12)!
            childrenStart += 36
        }
        let entryChildren = MP4Box.children(store, from: childrenStart, to: entry.end)
        func boxBytes(_ type: String) -> [UInt8]? {
            guard let box = entryChildren.first(where: { $0.type == OCAFormat.fourCharCode(type) }), box.end - box.start <= 1 << 20 else { return nil }
            return store.bytes(at: box.start, count: Int(box.end - box.start))
        }
        var format = AudioStreamBasicDescription()
        format.mSampleRate = rate
        format.mChannelsPerFrame = channels
        var cookie: [UInt8]?
        switch entry.type {
        case OCAFormat.fourCharCode("mp4a"):
            guard let esds = boxBytes("esds"), esds.count > 12, let es = ESDescriptor(Array(esds[12...])),
                  let described = es.streamDescription else { return .failure(OSStatusError(kAudioFileUnsupportedDataFormatError)) }
            cookie = Array(esds[12...])
            format.mFormatID = described.mFormatID
            format.mFramesPerPacket = described.mFramesPerPacket
            if described.mSampleRate > 0 { format.mSampleRate = described.mSampleRate }
            if described.mChannelsPerFrame > 0 { format.mChannelsPerFrame = described.mChannelsPerFrame }
        case OCAFormat.fourCharCode("alac"):
            guard let config = boxBytes("alac"), config.count >= 12 + 24 else { return .failure(OSStatusError(kAudioFileInvalidChunkError)) }
            cookie = Array(config[12...])
            let depth = Int(config[12 + 5])
            format.mFormatID = kAudioFormatAppleLossless
            format.mFormatFlags = FLACCookie.formatFlags(bits: depth)
            format.mFramesPerPacket = u32(config, 12)!
            format.mChannelsPerFrame = UInt32(config[12 + 9])
            format.mSampleRate = Double(u32(config, 12 + 20)!)
        case OCAFormat.fourCharCode("fLaC"):
            guard let dfLa = boxBytes("dfLa"), let info = FLACCookie.streamInfo(dfLa) else { return .failure(OSStatusError(kAudioFileInvalidChunkError)) }
            cookie = FLACCookie.bytes(info)
            format = FLACCodec.complete(format, cookie) ?? format
            format.mFormatID = kAudioFormatFLAC
        case OCAFormat.fourCharCode("Opus"):
            cookie = boxBytes("dOps").map { Array($0.dropFirst(8)) }
            format.mFormatID = kAudioFormatOpus
            format.mFramesPerPacket = 960
            format.mSampleRate = 48000
        case OCAFormat.fourCharCode("samr"), OCAFormat.fourCharCode("sawb"):
            // 3GPP TS 26.244: storage-format frames, one or more a sample (the 'damr' box says nothing the
            // frames do not). The frames a packet holds come from the sample durations below.
            let wideband = entry.type == OCAFormat.fourCharCode("sawb")
            format = AMRContainer.format(wideband: wideband)
            format.mFramesPerPacket = 0
        case OCAFormat.fourCharCode(".mp3"):
            format.mFormatID = kAudioFormatMPEGLayer3
            format.mFramesPerPacket = 1152
        default:
            return .failure(OSStatusError(kAudioFileUnsupportedDataFormatError))
        }
        guard format.mChannelsPerFrame >= 1, format.mChannelsPerFrame <= 64, format.mSampleRate > 0, format.mSampleRate <= 3_072_000 else {
            return .failure(OSStatusError(kAudioFileUnsupportedDataFormatError))
        }
        // The sample table.
        guard let stsz = stbl.child("stsz", in: store)?.body(store, limit: 1 << 26), stsz.count >= 12,
              let stscBody = stbl.child("stsc", in: store)?.body(store, limit: 1 << 26), stscBody.count >= 8 else { return invalid }
        let constantSize = Int(u32(stsz, 4)!)
        let sampleCount = Int(u32(stsz, 8)!)
        guard constantSize > 0 || sampleCount <= (stsz.count - 12) / 4 else { return invalid }
        var offsets: [UInt64] = []
        if let stco = stbl.child("stco", in: store)?.body(store, limit: 1 << 26), stco.count >= 8 {
            let n = min(Int(u32(stco, 4)!), (stco.count - 8) / 4)
            offsets = (0..<n).map { UInt64(u32(stco, 8 + 4 * $0)!) }
        } else if let co64 = stbl.child("co64", in: store)?.body(store, limit: 1 << 26), co64.count >= 8 {
            let n = min(Int(u32(co64, 4)!), (co64.count - 8) / 8)
            offsets = (0..<n).map { u64(co64, 8 + 8 * $0)! }
        }
        let stscCount = min(Int(u32(stscBody, 4)!), (stscBody.count - 8) / 12)
        let runs = (0..<stscCount).map { (first: Int(u32(stscBody, 8 + 12 * $0)!), perChunk: Int(u32(stscBody, 12 + 12 * $0)!)) }
        // Every sample's file offset: chunk by chunk, samples laid end to end within a chunk.
        var sampleOffsets: [Int64] = []
        var sizes: [UInt32] = []
        sampleOffsets.reserveCapacity(min(sampleCount, 1 << 22))
        var sample = 0
        var run = 0
        for (chunkIndex, chunkOffset) in offsets.enumerated() where sample < sampleCount {
            while run + 1 < runs.count && runs[run + 1].first <= chunkIndex + 1 { run += 1 }
            guard run < runs.count, runs[run].perChunk >= 0 else { break }
            var offset = Int64(clamping: chunkOffset)
            for _ in 0..<min(runs[run].perChunk, sampleCount - sample) {
                let size = constantSize > 0 ? constantSize : Int(u32(stsz, 12 + 4 * sample)!)
                guard offset >= 0, offset + Int64(size) <= store.size else { return .failure(OSStatusError(kAudioFileInvalidPacketOffsetError)) }
                sampleOffsets.append(offset)
                sizes.append(UInt32(size))
                offset += Int64(size)
                sample += 1
            }
        }
        guard !sizes.isEmpty else { return invalid }
        // Durations: one frames-per-packet for all (the last may be short), or per-packet frames.
        var durations: [(count: Int, delta: UInt32)] = []
        if let stts = stbl.child("stts", in: store)?.body(store, limit: 1 << 26), stts.count >= 8 {
            let n = min(Int(u32(stts, 4)!), (stts.count - 8) / 8)
            durations = (0..<n).map { (Int(u32(stts, 8 + 8 * $0)!), u32(stts, 12 + 8 * $0)!) }
        }
        let scale = mediaTimescale > 0 ? format.mSampleRate / Double(mediaTimescale) : 1
        let main = durations.first.map { UInt32((Double($0.delta) * scale).rounded()) } ?? format.mFramesPerPacket
        let uniform = durations.dropLast().allSatisfy { UInt32((Double($0.delta) * scale).rounded()) == main }
            && (durations.last.map { UInt32((Double($0.delta) * scale).rounded()) <= main } ?? true)
        if format.mFramesPerPacket == 0 || !uniform { format.mFramesPerPacket = uniform ? main : 0 }
        let dataOffset = sampleOffsets.min()!
        var index = PacketIndex(variableFrames: format.mFramesPerPacket == 0)
        var durationIterator = durations.flatMap { Array(repeating: $0.delta, count: min($0.count, sizes.count)) }.makeIterator()
        var totalFrames: Int64 = 0
        for i in 0..<sizes.count {
            let frames = UInt32((Double(durationIterator.next() ?? main) * scale).rounded())
            totalFrames += Int64(format.mFramesPerPacket == 0 ? frames : format.mFramesPerPacket)
            index.append(offset: sampleOffsets[i] - dataOffset, size: sizes[i], frames: frames)
        }
        let sampleFrames = durations.reduce(Int64(0)) { $0 + Int64($1.count) * Int64((Double($1.delta) * scale).rounded()) }
        // Priming and remainder: iTunSMPB, else the edit list, else the short last packet.
        var table: AudioFilePacketTableInfo?
        let info = metadata(store, moovChildren: moovChildren, table: &table)
        if table == nil, let elst = trak.child("edts", in: store)?.child("elst", in: store)?.body(store, limit: 1 << 16), elst.count >= 8 {
            let wide = elst[0] == 1
            let n = min(Int(u32(elst, 4)!), (elst.count - 8) / (wide ? 20 : 12))
            for e in 0..<n {
                let at = 8 + e * (wide ? 20 : 12)
                let segment = wide ? Int64(bitPattern: u64(elst, at)!) : Int64(u32(elst, at)!)
                let mediaTime = wide ? Int64(bitPattern: u64(elst, at + 8)!) : Int64(Int32(bitPattern: u32(elst, at + 4)!))
                guard mediaTime >= 0 else { continue }  // an empty edit
                let priming = Int64((Double(mediaTime) * scale).rounded())
                var valid = movieTimescale > 0 ? Int64((Double(segment) * format.mSampleRate / Double(movieTimescale)).rounded()) : totalFrames - priming
                // The edit's duration is in the movie's (often millisecond) timescale: never past the samples' own.
                let sampled = sampleFrames > 0 ? sampleFrames : totalFrames
                valid = min(max(valid, 0), sampled - priming, totalFrames - priming)
                table = AudioFilePacketTableInfo(mNumberValidFrames: valid, mPrimingFrames: Int32(clamping: priming),
                                                 mRemainderFrames: Int32(clamping: totalFrames - priming - valid))
                break
            }
        }
        if table == nil && sampleFrames > 0 && sampleFrames < totalFrames {
            table = AudioFilePacketTableInfo(mNumberValidFrames: sampleFrames, mPrimingFrames: 0, mRemainderFrames: Int32(clamping: totalFrames - sampleFrames))
        }
        // A 'chan' box in the sample entry (QuickTime's, which Apple writes): a full box around CAF's layout.
        let channelLayout = boxBytes("chan").flatMap { $0.count >= 12 + 12 ? CAFContainer.cafLayoutToNative(Array($0[12...])) : nil }
            ?? (format.mFormatID == kAudioFormatOpus ? cookie.flatMap(OpusHeader.init)?.channelLayoutBytes : nil)
        var layout = AudioFileLayout(fileType: fileType, format: format, dataOffset: dataOffset, dataByteCount: index.dataEnd,
                                     channelLayout: channelLayout, magicCookie: cookie, info: info)
        layout.packetIndex = index
        layout.packetTable = table
        layout.tailLocked = true
        layout.audioTrackCount = UInt32(tracks.count)
        layout.audioTrack = trackNumber
        return .success(layout)
    }

    /// iTunes metadata (moov/udta/meta/ilst) into the info dictionary; iTunSMPB into `table`.
    static func metadata(_ store: ByteStore, moovChildren: [MP4Box], table: inout AudioFilePacketTableInfo?) -> [String: String] {
        var info: [String: String] = [:]
        guard let udta = moovChildren.first(where: { $0.type == OCAFormat.fourCharCode("udta") }),
              let meta = udta.child("meta", in: store),
              let ilst = MP4Box.children(store, from: meta.bodyStart + 4, to: meta.end).first(where: { $0.type == OCAFormat.fourCharCode("ilst") })
        else { return info }
        for item in MP4Box.children(store, from: ilst.bodyStart, to: ilst.end, limit: 1000) {
            let parts = MP4Box.children(store, from: item.bodyStart, to: item.end, limit: 8)
            guard let data = parts.first(where: { $0.type == OCAFormat.fourCharCode("data") })?.body(store, limit: 1 << 16), data.count >= 8 else { continue }
            let value = Array(data[8...])
            let key = String(decoding: withUnsafeBytes(of: item.type.bigEndian) { Array($0) }.map { $0 == 0xA9 ? 0xC2A9 : UInt16($0) }
                .flatMap { $0 > 0xFF ? [UInt8(0xC2), UInt8(0xA9)] : [UInt8($0)] }, as: UTF8.self)
            if key == "trkn", value.count >= 4 {
                info[kAFInfoDictionary_TrackNumber] = String(Int(value[2]) << 8 | Int(value[3]))
            } else if key == "----" {
                let name = parts.first(where: { $0.type == OCAFormat.fourCharCode("name") })?.body(store, limit: 256).map { String(decoding: $0.dropFirst(4), as: UTF8.self) }
                if name == "iTunSMPB" {
                    let fields = String(decoding: value, as: UTF8.self).split(separator: " ").compactMap { UInt64($0, radix: 16) }
                    if fields.count >= 4 {
                        table = AudioFilePacketTableInfo(mNumberValidFrames: Int64(clamping: fields[3]), mPrimingFrames: Int32(clamping: fields[1]),
                                                         mRemainderFrames: Int32(clamping: fields[2]))
                    }
                } else if let name {
                    // Other iTunes freeform items are kept by name (iTunNORM, Sound Check's gains, as "sound check").
                    info[name == "iTunNORM" ? soundCheckKey : name] = String(decoding: value, as: UTF8.self)
                }
            } else if let k = ilstKeys[key] {
                info[k] = String(decoding: value, as: UTF8.self)
            }
        }
        return info
    }

    static func create(format: AudioStreamBasicDescription, channelLayout: [UInt8]?, magicCookie: [UInt8]?) -> Result<([UInt8], AudioFileLayout), OSStatusError> {
        create(type: kAudioFileM4AType, format: format, channelLayout: channelLayout, magicCookie: magicCookie)
    }

    /// The formats an MPEG-4 file written here holds (the list AvailableFormatIDs gives).
    static let writableFormats: [AudioFormatID] = [kAudioFormatMPEG4AAC, kAudioFormatMPEG4AAC_HE, kAudioFormatMPEG4AAC_HE_V2,
                                                   kAudioFormatAppleLossless, kAudioFormatFLAC, kAudioFormatOpus]
    /// The formats a 3GPP or 3GPP2 file written here holds: AAC and the two AMR bands (TS 26.244's sample entries).
    static let writable3GPFormats: [AudioFormatID] = [kAudioFormatMPEG4AAC, kAudioFormatMPEG4AAC_HE, kAudioFormatMPEG4AAC_HE_V2,
                                                      kAudioFormatAMR, kAudioFormatAMR_WB]

    /// The formats a file of `type` written here holds.
    static func writableFormats(_ type: AudioFileTypeID) -> [AudioFormatID] {
        type == kAudioFile3GPType || type == kAudioFile3GP2Type ? writable3GPFormats : writableFormats
    }

    /// Room in front of 'mdat' for the 'moov' (a free box until the first header update): the sample
    /// table of a few minutes of AAC, a quarter of an hour of ALAC.
    static let reservedMovieBytes: Int64 = 32 * 1024

    /// A new file: 'ftyp', the reserve, and the 'mdat' header; the 'moov' comes with the header updates.
    static func create(type: AudioFileTypeID, format requested: AudioStreamBasicDescription, channelLayout: [UInt8]? = nil,
                       magicCookie: [UInt8]?, reserve: Int64 = reservedMovieBytes) -> Result<([UInt8], AudioFileLayout), OSStatusError> {
        guard writableFormats(type).contains(requested.mFormatID) else { return .failure(OSStatusError(kAudioFileUnsupportedDataFormatError)) }
        var f = CodecRegistry.entry(requested.mFormatID)?.completeFormat(requested, magicCookie) ?? requested
        if f.mFramesPerPacket == 0 {
            // A codec that is not linked in (AAC without AudioToolboxAAC): the format's fixed packet length.
            switch f.mFormatID {
            case kAudioFormatMPEG4AAC: f.mFramesPerPacket = 1024
            case kAudioFormatMPEG4AAC_HE, kAudioFormatMPEG4AAC_HE_V2: f.mFramesPerPacket = 2048
            case kAudioFormatOpus: f.mFramesPerPacket = 960
            default: break
            }
        }
        guard f.mSampleRate >= 1, f.mSampleRate <= 3_072_000, f.mChannelsPerFrame >= 1, f.mChannelsPerFrame <= 64,
              f.mFormatID != kAudioFormatAppleLossless || f.mFramesPerPacket > 0 else {
            return .failure(OSStatusError(kAudioFileUnsupportedDataFormatError))
        }
        f.mBytesPerPacket = 0
        f.mBytesPerFrame = 0
        let ftyp = MP4Writer.fileTypeBox(type)
        let header = ftyp + MP4Writer.be(UInt64(reserve), 4) + Array("free".utf8) + [UInt8](repeating: 0, count: Int(reserve) - 8)
            + MP4Writer.be(1, 4) + Array("mdat".utf8) + MP4Writer.be(16, 8)
        var layout = AudioFileLayout(fileType: type, format: f, dataOffset: Int64(header.count), dataByteCount: 0, channelLayout: channelLayout,
                                     magicCookie: magicCookie, headerPatch: .mp4(reserveOffset: Int64(ftyp.count), reserveSize: reserve))
        layout.packetIndex = PacketIndex(variableFrames: f.mFramesPerPacket == 0)
        return .success((header, layout))
    }

    static func sizeFields(_ layout: AudioFileLayout, dataByteCount: Int64) -> [(Int64, [UInt8])] { [] }
}
