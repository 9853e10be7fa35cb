/// Ogg is not one of Apple's file types (AudioFile.h has no constant for it); third-party components use
/// the capture pattern 'OggS', and so does this package, under its own name.
let kOCAAudioFileOggType: AudioFileTypeID = 0x4F67_6753  // 'OggS'

/// Ogg files (.opus, .ogg, .oga) holding Opus (RFC 7845) or FLAC (the Ogg FLAC mapping); Opus is written too.
///
/// Why a de-paged view: Ogg cuts packets into pages, and a packet may span several, so a packet is not
/// one run of the file as every other container's packet index assumes. The pages are read once at open
/// (checksums verified, damaged pages skipped as libogg skips them); the bodies of the chosen stream's
/// pages after its headers, laid end to end, form the audio data (`DataSegmentMap`), in which every
/// packet is contiguous. The packet index points into that joined space, so ReadPacketData, ExtAudioFile
/// and seeking work unchanged, and memory is a few numbers per page and per packet, never the audio.
///
/// Opus: OpusHead is the magic cookie and its pre-skip the priming frames; the last page's granule
/// position gives the end, so the frames past it are the remainder; OpusTags fill the info dictionary.
/// FLAC: STREAMINFO from the mapping's first packet becomes the cookie in the native container's form,
/// its VORBIS_COMMENT the info dictionary. Of several multiplexed streams the first Opus or FLAC one is
/// read; a chained file (streams one after another) is read up to the end of its first stream.
enum OggContainer: AudioFileContainer {
    static var fileType: AudioFileTypeID { kOCAAudioFileOggType }

    /// Header packets larger than this (a huge embedded picture in the tags) make the file unreadable.
    static let maximumHeaderBytes = 1 << 24

    enum Codec { case opus, flac }

    static func parse(_ store: ByteStore) -> Result<AudioFileLayout, OSStatusError> {
        var reader = OggPageReader(store: store)
        guard let first = reader.next(), first.offset == 0, first.page.isFirst else { return .failure(OSStatusError(kAudioFileInvalidFileError)) }
        var page: (page: OggPage, offset: Int64, body: ArraySlice<UInt8>)? = first
        // The stream: the first beginning-of-stream page whose first packet is an Opus or FLAC ID header.
        var codec: Codec?
        var serial: UInt32 = 0
        var foreign = false
        while let p = page, p.page.isFirst, codec == nil {
            if p.body.starts(with: Array("OpusHead".utf8)) { codec = .opus } else if p.body.starts(with: [0x7F] + Array("FLAC".utf8)) { codec = .flac } else { foreign = true }
            if codec != nil { serial = p.page.serial } else { page = reader.next() }
        }
        guard let codec else { return .failure(OSStatusError(foreign ? kAudioFileUnsupportedDataFormatError : kAudioFileInvalidChunkError)) }
        var assembler = OggPacketAssembler(serial: serial, keepBytes: true)

        // Headers: OpusHead and OpusTags; FLAC's mapping packet then its metadata blocks.
        var headers: [[UInt8]] = []
        var headerBytes = 0
        var headersWanted = codec == .opus ? 2 : 1
        var dataOffset: Int64 = -1
        while headers.count < headersWanted, let p = page {
            for packet in assembler.add(p.page, body: p.body, virtualStart: 0) where headers.count < headersWanted {
                let bytes = packet.bytes ?? []
                headerBytes += bytes.count
                guard headerBytes <= maximumHeaderBytes else { return .failure(OSStatusError(kAudioFileInvalidChunkError)) }
                if headers.isEmpty && codec == .flac {
                    // 0x7F "FLAC" major minor, the count of header packets after this one (0: unknown), "fLaC", STREAMINFO.
                    guard bytes.count >= 13 + 4 + FLACStreamInfo.byteCount, bytes[5] == 1 else { return .failure(OSStatusError(kAudioFileInvalidChunkError)) }
                    let more = Int(bytes[7]) << 8 | Int(bytes[8])
                    headersWanted = more > 0 ? 1 + more : Int.max
                } else if codec == .flac, bytes.first.map({ $0 == 0xFF }) ?? true {
                    // A frame where a metadata block belongs (a header count that overstates, or none given and no last block).
                    return .failure(OSStatusError(kAudioFileInvalidChunkError))
                }
                headers.append(bytes)
                if codec == .flac && headers.count > 1 && headersWanted == Int.max && bytes[0] & 0x80 != 0 { headersWanted = headers.count }
            }
            if headers.count >= headersWanted { dataOffset = p.offset + Int64(p.page.length) }
            page = reader.next()
        }
        guard dataOffset >= 0 else { return .failure(OSStatusError(kAudioFileInvalidChunkError)) }

        // The stream's description from its ID header.
        var format = AudioStreamBasicDescription()
        var cookie: [UInt8]
        var comments: [(String, String)] = []
        var preSkip: Int64 = 0
        var streamInfo: FLACStreamInfo?
        switch codec {
        case .opus:
            guard let head = OpusHeader(headers[0]) else { return .failure(OSStatusError(kAudioFileInvalidChunkError)) }
            cookie = headers[0]
            preSkip = Int64(head.preSkip)
            format.mSampleRate = OpusCodec.sampleRate
            format.mFormatID = kAudioFormatOpus
            format.mChannelsPerFrame = UInt32(head.channels)
            // OpusTags must follow (a lost tags page would otherwise make the first audio packet the tags).
            guard headers[1].starts(with: Array("OpusTags".utf8)) else { return .failure(OSStatusError(kAudioFileInvalidChunkError)) }
            comments = headers[1].dropFirst(8).withUnsafeBytes { FLACMetadata.parseVorbisComment($0)?.comments } ?? []
        case .flac:
            guard let info = try? FLACStreamInfo(parsing: headers[0].dropFirst(13 + 4)) else { return .failure(OSStatusError(kAudioFileInvalidChunkError)) }
            streamInfo = info
            cookie = FLACCookie.bytes(info)
            format = AudioStreamBasicDescription(mSampleRate: Double(info.sampleRate), mFormatID: kAudioFormatFLAC,
                                                 mFormatFlags: FLACCookie.formatFlags(bits: info.bitsPerSample), mBytesPerPacket: 0,
                                                 mFramesPerPacket: 0, mBytesPerFrame: 0, mChannelsPerFrame: UInt32(info.channels),
                                                 mBitsPerChannel: 0, mReserved: 0)
            for block in headers.dropFirst() where block.count >= 4 && block[0] & 0x7F == FLACMetadata.BlockType.vorbisComment.rawValue {
                comments = block.dropFirst(4).withUnsafeBytes { FLACMetadata.parseVorbisComment($0)?.comments } ?? []
                break
            }
        }

        // The audio: every page of the stream after the headers, up to its last page.
        assembler.keepBytes = false
        var map = DataSegmentMap()
        var packets: [(offset: Int64, size: UInt32, frames: UInt32)] = []
        var firstGranule: Int64 = -1, framesBeforeFirstGranule: Int64 = 0
        var lastGranule: Int64 = -1
        var frameTotal: Int64 = 0
        while let p = page {
            page = reader.next()
            guard p.page.serial == serial else { continue }
            let start = map.length
            map.append(fileOffset: p.offset + Int64(p.page.headerLength), count: p.page.bodyLength)
            let ended = assembler.add(p.page, body: p.body, virtualStart: start)
            for packet in ended {
                let frames = packetFrames(packet.head, codec: codec, streamInfo: streamInfo)
                // Not audio this stream can decode (an empty packet ending the stream, say): left out.
                guard frames > 0 else { continue }
                packets.append((packet.virtualOffset, UInt32(packet.size), UInt32(frames)))
                frameTotal += Int64(frames)
            }
            // The granule position counts the frames of every packet ended so far, on this page included.
            if !ended.isEmpty && p.page.granulePosition >= 0 {
                if firstGranule < 0 { firstGranule = p.page.granulePosition; framesBeforeFirstGranule = frameTotal }
                lastGranule = p.page.granulePosition
            }
            if p.page.isLast { break }
        }

        // Packets of one length are described by the format; the last one may be shorter (FLAC's last block).
        let common = packets.first?.frames ?? 0
        let fixed = packets.dropLast().allSatisfy { $0.frames == common } && (packets.last.map { $0.frames <= common } ?? true)
            && (codec == .flac || packets.last.map { $0.frames == common } ?? true)
        format.mFramesPerPacket = fixed ? common : 0
        if codec == .opus && packets.isEmpty { format.mFramesPerPacket = UInt32(OpusCodec.framesPerPacket) }
        let base = packets.first?.offset ?? 0
        map.trimFront(to: base)
        var index = PacketIndex(variableFrames: !fixed)
        for p in packets { index.append(offset: p.offset - base, size: p.size, frames: p.frames) }
        let total = fixed ? Int64(packets.count) * Int64(common) : frameTotal

        // Priming (Opus's pre-skip) and the frames the last granule position cuts off the end.
        let startGranule = firstGranule >= 0 ? max(0, firstGranule - framesBeforeFirstGranule) : 0
        let priming = min(preSkip, total)
        var valid = total - priming
        if lastGranule >= 0 { valid = min(valid, max(0, lastGranule - startGranule - priming)) }
        if codec == .flac, var info = streamInfo, info.totalSamples == 0 {
            // Written before the audio (ffmpeg cannot go back in an Ogg stream): the totals and frame sizes as the
            // native container's file states them.
            if info.totalSamples == 0 { info.totalSamples = valid }
            if index.count > 0 {
                info.minFrameSize = Int(index.sizes.min()!)
                info.maxFrameSize = Int(index.maximumSize)
            }
            if info.isValid { cookie = FLACCookie.bytes(info) }
        }

        var dictionary: [String: String] = [:]
        for (key, value) in comments {
            if let k = FLACContainer.commentKeys[key.uppercased()], dictionary[k] == nil { dictionary[k] = value }
        }
        var layout = AudioFileLayout(fileType: kOCAAudioFileOggType, format: format, dataOffset: dataOffset,
                                     dataByteCount: index.dataEnd, magicCookie: cookie, info: dictionary)
        // Opus with more than two channels: mapping family 1's order as Apple's Ogg layout tag.
        if codec == .opus { layout.channelLayout = OpusHeader(cookie)?.channelLayoutBytes }
        layout.packetIndex = index
        layout.dataSegments = map
        layout.oggSerial = serial
        if packets.isEmpty && preSkip > 0 {
            // Only the headers so far (a stream being parsed): the priming is known, the end not yet.
            layout.packetTable = AudioFilePacketTableInfo(mNumberValidFrames: 0, mPrimingFrames: Int32(clamping: preSkip), mRemainderFrames: 0)
        } else if priming > 0 || valid < total {
            layout.packetTable = AudioFilePacketTableInfo(mNumberValidFrames: valid, mPrimingFrames: Int32(clamping: priming),
                                                          mRemainderFrames: Int32(clamping: total - priming - valid))
        }
        layout.tailLocked = true
        return .success(layout)
    }

    /// The frames an audio packet holds, from its first bytes: Opus's TOC, a FLAC frame header (0: not audio).
    static func packetFrames(_ head: [UInt8], codec: Codec, streamInfo: FLACStreamInfo?) -> Int {
        switch codec {
        case .opus: return OpusCodec.frames(inPacket: head)
        case .flac:
            return head.withUnsafeBytes { raw in
                if case .success(let h) = FLACFrameHeader.parse(raw, at: 0, streamInfo: streamInfo) { return h.blockSize }
                return 0
            }
        }
    }

    /// A Vorbis comment body: the vendor, then the info dictionary's entries that have a comment name (Apple's keys
    /// mapped back to TITLE, ARTIST, ALBUM ... as the reader maps them), sorted by name.
    static func commentBody(_ info: [String: String]) -> [UInt8] {
        let vendor = Array("OpenCoreAudio".utf8)
        func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        var names: [String: String] = [:]
        for (name, key) in FLACContainer.commentKeys where name != "DESCRIPTION" { names[key] = name }
        let entries = info.compactMap { key, value in names[key].map { Array("\($0)=\(value)".utf8) } }.sorted { $0.lexicographicallyPrecedes($1) }
        return le32(vendor.count) + vendor + le32(entries.count) + entries.flatMap { le32($0.count) + $0 }
    }

    /// The Opus comment header written: "OpusTags" and the comment body.
    static func tagsPacket(_ info: [String: String] = [:]) -> [UInt8] { Array("OpusTags".utf8) + commentBody(info) }

    /// A new Ogg Opus file (1-8 channels; more than two in mapping family 1): its OpusHead and OpusTags pages; the
    /// audio pages follow as packets are written (see AudioFileObject+Ogg). Other formats:
    /// kAudioFileUnsupportedDataFormatError.
    static func create(format f: AudioStreamBasicDescription, channelLayout: [UInt8]?, magicCookie: [UInt8]?) -> Result<([UInt8], AudioFileLayout), OSStatusError> {
        if f.mFormatID == kAudioFormatFLAC { return createFLAC(format: f, magicCookie: magicCookie) }
        guard f.mFormatID == kAudioFormatOpus, var stored = OpusCodec.complete(f, magicCookie),
              let head = magicCookie.flatMap(OpusHeader.init) ?? OpusHeader.standard(channels: Int(stored.mChannelsPerFrame)),
              head.mappingFamily <= 1 else {
            return .failure(OSStatusError(kAudioFileUnsupportedDataFormatError))
        }
        stored.mSampleRate = OpusCodec.sampleRate
        let serial = UInt32.random(in: 1...UInt32.max)
        let header = OggStreamWriter.headerPages(serial: serial, id: head.bytes, comments: tagsPacket())
        var layout = AudioFileLayout(fileType: kOCAAudioFileOggType, format: stored, dataOffset: Int64(header.count), dataByteCount: 0,
                                     magicCookie: head.bytes)
        layout.packetIndex = PacketIndex(variableFrames: stored.mFramesPerPacket == 0)
        layout.dataSegments = DataSegmentMap()
        layout.oggSerial = serial
        layout.channelLayout = head.channelLayoutBytes
        return .success((header, layout))
    }

    /// A new Ogg FLAC file (the Ogg FLAC mapping): a first page holding only the mapping packet (0x7F "FLAC",
    /// version 1.0, one header packet to follow, "fLaC" and the STREAMINFO block), then a page with the
    /// VORBIS_COMMENT block; one FLAC frame a packet follows, each page's granule position its last sample. The
    /// STREAMINFO is the cookie's (a placeholder from the format until the encoder's arrives), rewritten at close.
    static func createFLAC(format f: AudioStreamBasicDescription, magicCookie: [UInt8]?) -> Result<([UInt8], AudioFileLayout), OSStatusError> {
        let bits = FLACCookie.bits(flags: f.mFormatFlags) ?? 16
        guard let info = magicCookie.flatMap(FLACCookie.streamInfo)
                ?? (f.mSampleRate > 0 && (1...8).contains(f.mChannelsPerFrame)
                    ? FLACStreamInfo(minBlockSize: 4096, maxBlockSize: 4096, sampleRate: Int(f.mSampleRate), channels: Int(f.mChannelsPerFrame), bitsPerSample: bits)
                    : nil) else {
            return .failure(OSStatusError(kAudioFileUnsupportedDataFormatError))
        }
        var stored = f
        stored.mFormatFlags = FLACCookie.formatFlags(bits: info.bitsPerSample)
        stored.mChannelsPerFrame = UInt32(info.channels)
        stored.mSampleRate = Double(info.sampleRate)
        stored.mBytesPerPacket = 0
        stored.mBytesPerFrame = 0
        stored.mBitsPerChannel = 0
        let serial = UInt32.random(in: 1...UInt32.max)
        let header = OggStreamWriter.headerPages(serial: serial, id: flacMappingPacket(info), comments: flacCommentPacket())
        var layout = AudioFileLayout(fileType: kOCAAudioFileOggType, format: stored, dataOffset: Int64(header.count), dataByteCount: 0,
                                     magicCookie: FLACCookie.bytes(info))
        layout.packetIndex = PacketIndex(variableFrames: stored.mFramesPerPacket == 0)
        layout.dataSegments = DataSegmentMap()
        layout.oggSerial = serial
        return .success((header, layout))
    }

    /// Ogg FLAC's first packet: 0x7F "FLAC", mapping version 1.0, one header packet after it, "fLaC", STREAMINFO.
    static func flacMappingPacket(_ info: FLACStreamInfo) -> [UInt8] {
        [0x7F] + Array("FLAC".utf8) + [1, 0, 0, 1] + Array("fLaC".utf8) + [0, 0, 0, UInt8(FLACStreamInfo.byteCount)] + info.bytes
    }

    /// The VORBIS_COMMENT metadata block (the last one) holding the comment body.
    static func flacCommentPacket(_ info: [String: String] = [:]) -> [UInt8] {
        let body = commentBody(info)
        return [0x84, UInt8(truncatingIfNeeded: body.count >> 16), UInt8(truncatingIfNeeded: body.count >> 8), UInt8(truncatingIfNeeded: body.count)] + body
    }

    /// The header pages of a stream being written (its ID packet from the cookie, its comments from `info`).
    static func headerPages(_ layout: AudioFileLayout) -> [UInt8]? {
        let serial = layout.oggSerial ?? 0
        if layout.format.mFormatID == kAudioFormatFLAC {
            guard let info = layout.magicCookie.flatMap(FLACCookie.streamInfo) else { return nil }
            return OggStreamWriter.headerPages(serial: serial, id: flacMappingPacket(info), comments: flacCommentPacket(layout.info))
        }
        guard let head = layout.magicCookie.flatMap(OpusHeader.init) else { return nil }
        return OggStreamWriter.headerPages(serial: serial, id: head.bytes, comments: tagsPacket(layout.info))
    }

    /// No size fields: pages carry their own sizes (the end is written at close, see AudioFileObject+Ogg).
    static func sizeFields(_ layout: AudioFileLayout, dataByteCount: Int64) -> [(Int64, [UInt8])] { [] }
}
