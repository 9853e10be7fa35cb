/// RIFF WAVE: PCM (format 1), IEEE float (3) and WAVE_FORMAT_EXTENSIBLE (0xFFFE, with PCM or float
/// subformats and a channel mask), LIST/INFO metadata. 8-bit samples are unsigned, wider ones signed
/// little-endian; extensible files with fewer valid bits than the container keep them in the high bits.
enum WAVEContainer: AudioFileContainer {
    static var fileType: AudioFileTypeID { kAudioFileWAVEType }

    static let riff = OCAFormat.fourCharCode("RIFF"), wave = OCAFormat.fourCharCode("WAVE")
    static let fmt = OCAFormat.fourCharCode("fmt "), data = OCAFormat.fourCharCode("data")
    static let list = OCAFormat.fourCharCode("LIST"), info = OCAFormat.fourCharCode("INFO")
    static let rf64 = OCAFormat.fourCharCode("RF64"), bw64 = OCAFormat.fourCharCode("BW64"), ds64 = OCAFormat.fourCharCode("ds64")

    static func parse(_ store: ByteStore) -> Result<AudioFileLayout, OSStatusError> {
        let fileSize = store.size
        guard let header = store.bytes(at: 0, count: 12) else { return .failure(OSStatusError(kAudioFileInvalidFileError)) }
        var r = ByteReader(header)
        let magic = r.fourCC()
        guard magic == riff || magic == rf64 || magic == bw64, r.u32le() != nil, r.fourCC() == wave else {
            return .failure(OSStatusError(kAudioFileInvalidFileError))
        }
        let is64 = magic != riff
        /// RF64: the real data size lives in the ds64 chunk (the data chunk says 0xFFFFFFFF).
        var ds64DataSize: Int64?
        var ds64Offset: Int64 = -1
        var format: AudioStreamBasicDescription?
        var layout: [UInt8]?
        var dataOffset: Int64 = -1, dataSize: Int64 = 0, dataSizeField: Int64 = 0
        var infoDict: [String: String] = [:]
        var userData: [(UInt32, [UInt8])] = []
        /// The chunks after the data, kept to be moved when the data grows.
        var trailing: [(UInt32, [UInt8])] = []
        var offset: Int64 = 12
        var chunks = 0
        while offset + 8 <= fileSize {
            chunks += 1
            if chunks > 10_000 { return .failure(OSStatusError(kAudioFileInvalidFileError)) }  // a loop of tiny chunks
            guard let ch = store.bytes(at: offset, count: 8) else { break }
            // Not a chunk: audio a killed writer appended after its last header patch, or junk. Stop here.
            guard ByteReader.isChunkID(ch[0..<4]) else { break }
            var cr = ByteReader(ch)
            let id = cr.fourCC()!, size = Int64(cr.u32le()!)
            let body = offset + 8
            if id == ds64, is64 {
                guard size >= 24, let b = store.bytes(at: body, count: 24) else { return .failure(OSStatusError(kAudioFileInvalidChunkError)) }
                var d = ByteReader(b)
                _ = d.u64le()
                ds64DataSize = Int64(clamping: d.u64le()!)
                ds64Offset = body
            } else if id == data {
                dataOffset = body
                dataSizeField = offset + 4
                var declared = size == 0xFFFF_FFFF ? (ds64DataSize ?? fileSize - body) : size
                // 0 followed by bytes that are not a chunk: a writer that never patched its header (ours before
                // this one, others still); the data runs to the end of the file, as ffmpeg reads it too.
                if size == 0, let next = store.bytes(at: body, count: 8), !ByteReader.isChunkID(next[0..<4]) { declared = fileSize - body }
                // A size past the end (a truncated file or a writer that never finished): use what is there.
                dataSize = max(0, min(declared, fileSize - body))
                if is64 || (size == 0 && declared > 0) { break }  // RF64 data, or data to the end: nothing after it to skip to
            } else if id == fmt {
                guard size >= 16, size <= 1 << 16, let b = store.bytes(at: body, count: Int(size)) else {
                    return .failure(OSStatusError(kAudioFileInvalidChunkError))
                }
                switch parseFormat(b) {
                case .success(let (f, l)): format = f; layout = l
                case .failure(let e): return .failure(e)
                }
            } else if id == list, size >= 4, size <= 1 << 20, let b = store.bytes(at: body, count: Int(size)) {
                parseInfo(b, into: &infoDict)
                userData.append((id, b))
                if dataOffset >= 0 { trailing.append((id, b)) }
            } else if size <= 1 << 20, let b = store.bytes(at: body, count: Int(size)) {
                userData.append((id, b))
                if dataOffset >= 0 { trailing.append((id, b)) }
            }
            // Chunks are word aligned; a size can never move us backwards.
            offset = body + size + (size & 1)
        }
        guard let format else { return .failure(OSStatusError(kAudioFileInvalidFileError)) }
        guard dataOffset >= 0 else { return .failure(OSStatusError(kAudioFileInvalidFileError)) }
        // Whole frames only.
        dataSize -= dataSize % Int64(max(format.mBytesPerFrame, 1))
        return .success(AudioFileLayout(fileType: is64 ? kAudioFileRF64Type : kAudioFileWAVEType, format: format, dataOffset: dataOffset,
                                        dataByteCount: dataSize, channelLayout: layout, info: infoDict,
                                        headerPatch: .wave(riffSizeOffset: 4, dataSizeOffset: dataSizeField, ds64Offset: ds64Offset),
                                        userData: userData, trailingChunks: trailing))
    }

    /// The 'fmt ' chunk: returns the stream format and, for extensible files, a bitmap channel layout.
    static func parseFormat(_ b: [UInt8]) -> Result<(AudioStreamBasicDescription, [UInt8]?), OSStatusError> {
        var r = ByteReader(b)
        var tag = r.u16le()!
        let channels = UInt32(r.u16le()!), rate = Double(r.u32le()!)
        _ = r.u32le()  // byte rate: derived, not trusted
        let blockAlign = UInt32(r.u16le()!)
        var bits = UInt32(r.u16le()!)
        var layout: [UInt8]?
        if tag == 0xFFFE {
            guard let extra = r.u16le(), extra >= 22, let valid = r.u16le(), let mask = r.u32le(), let sub = r.u16le() else {
                return .failure(OSStatusError(kAudioFileInvalidChunkError))
            }
            tag = sub
            if valid > 0 && UInt32(valid) < bits { bits = UInt32(valid) }
            if mask != 0 {
                var w = ByteWriter()
                w.le(UInt64(kAudioChannelLayoutTag_UseChannelBitmap), 4)
                w.le(UInt64(mask), 4)
                w.le(0, 4)
                layout = w.bytes
            }
        }
        guard channels >= 1, channels <= 1024, rate > 0, rate <= 3_072_000, bits >= 1, bits <= 64 else {
            return .failure(OSStatusError(kAudioFileUnsupportedDataFormatError))
        }
        let container = blockAlign / channels
        guard blockAlign > 0, blockAlign % channels == 0, container * 8 >= bits, container <= 8 else {
            return .failure(OSStatusError(kAudioFileInvalidChunkError))
        }
        if tag == 6 || tag == 7 {
            // WAVE_FORMAT_ALAW / MULAW: one byte per sample.
            guard bits == 8, blockAlign == channels else { return .failure(OSStatusError(kAudioFileUnsupportedDataFormatError)) }
            var g = AudioStreamBasicDescription()
            g.mSampleRate = rate
            g.mFormatID = tag == 7 ? kAudioFormatULaw : kAudioFormatALaw
            g.mChannelsPerFrame = channels
            guard let complete = CodecRegistry.entry(g.mFormatID)?.completeFormat(g, nil) else {
                return .failure(OSStatusError(kAudioFileUnsupportedDataFormatError))
            }
            return .success((complete, layout))
        }
        var flags: AudioFormatFlags
        switch tag {
        case 1:
            flags = bits > 8 ? kAudioFormatFlagIsSignedInteger : 0
        case 3:
            guard bits == 32 || bits == 64, container * 8 == bits else { return .failure(OSStatusError(kAudioFileUnsupportedDataFormatError)) }
            flags = kAudioFormatFlagIsFloat
        default:
            return .failure(OSStatusError(kAudioFileUnsupportedDataFormatError))
        }
        if container * 8 == bits { flags |= kAudioFormatFlagIsPacked } else { flags |= kAudioFormatFlagIsAlignedHigh }
        let f = AudioStreamBasicDescription(mSampleRate: rate, mFormatID: kAudioFormatLinearPCM, mFormatFlags: flags,
                                            mBytesPerPacket: blockAlign, mFramesPerPacket: 1, mBytesPerFrame: blockAlign,
                                            mChannelsPerFrame: channels, mBitsPerChannel: bits, mReserved: 0)
        return .success((f, layout))
    }

    /// LIST/INFO sub-chunks: four-char key, size, NUL-terminated text.
    static func parseInfo(_ b: [UInt8], into dict: inout [String: String]) {
        var r = ByteReader(b)
        guard r.fourCC() == info else { return }
        let names: [String: String] = ["INAM": "title", "IART": "artist", "IPRD": "album", "ICMT": "comments",
                                       "ICRD": "year", "IGNR": "genre", "ICOP": "copyright", "ISFT": "encoding application",
                                       "ITRK": "track number"]
        while r.remaining >= 8 {
            let key = OCAFormat.string(fromFourCharCode: r.fourCC()!).trimmingCharacters(in: CharacterSet(charactersIn: "'"))
            let size = Int(r.u32le()!)
            guard let text = r.take(size) else { return }
            if size & 1 == 1 { _ = r.skip(1) }
            let value = String(decoding: text.prefix { $0 != 0 }, as: UTF8.self)
            dict[names[key] ?? key] = value
        }
    }

    static func create(format f: AudioStreamBasicDescription, channelLayout: [UInt8]?, magicCookie: [UInt8]?) -> Result<([UInt8], AudioFileLayout), OSStatusError> {
        createFile(format: f, channelLayout: channelLayout, rf64: false)
    }

    /// A new WAVE file, or an RF64 one (ds64 chunk with 64-bit sizes, for data beyond 4 GiB).
    static func createFile(format f: AudioStreamBasicDescription, channelLayout: [UInt8]?, rf64 isRF64: Bool)
        -> Result<([UInt8], AudioFileLayout), OSStatusError> {
        if f.mFormatID == kAudioFormatULaw || f.mFormatID == kAudioFormatALaw { return createG711(format: f, rf64: isRF64) }
        // The header holds the rate as a 32-bit integer: one that rounds to 0 or past it cannot be written.
        guard let pcm = PCMFormat(f), pcm.isInterleaved, f.mSampleRate.rounded() >= 1, f.mSampleRate.rounded() <= Double(UInt32.max) else {
            return .failure(OSStatusError(kAudioFileUnsupportedDataFormatError))
        }
        let l = pcm.layout
        // WAVE holds little-endian data: unsigned 8-bit, signed wider integers, or floats; no fixed point.
        let signedOK = l.validBits <= 8 ? !l.isSigned || l.isFloat : l.isSigned
        guard !l.isBigEndian, l.fractionBits == 0, signedOK || l.isFloat, l.isFloat || l.validBits == 8 || l.validBits > 8 else {
            return .failure(OSStatusError(kAudioFileUnsupportedDataFormatError))
        }
        if !l.isFloat && l.validBits == 8 && l.isSigned { return .failure(OSStatusError(kAudioFileUnsupportedDataFormatError)) }
        if !l.isFloat && l.validBits < l.containerBytes * 8 && !l.isAlignedHigh { return .failure(OSStatusError(kAudioFileUnsupportedDataFormatError)) }
        let extensible = f.mChannelsPerFrame > 2 || l.validBits != l.containerBytes * 8 || (!l.isFloat && l.validBits > 16)
        var w = ByteWriter()
        // Sizes start as 0xFFFFFFFF, "unknown: to the end of the file" (as streaming writers leave them), so a
        // writer killed before its first header patch still leaves a file readers take whole.
        w.fourCC(isRF64 ? rf64 : riff); w.le(0xFFFF_FFFF, 4); w.fourCC(wave)
        var ds64Offset: Int64 = -1
        if isRF64 {
            w.fourCC(ds64); w.le(28, 4)
            ds64Offset = Int64(w.bytes.count)
            w.le(0, 8); w.le(0, 8); w.le(0, 8); w.le(0, 4)  // riff size, data size, sample count, table length
        }
        w.fourCC(fmt)
        w.le(extensible ? 40 : (l.isFloat ? 18 : 16), 4)
        w.le(extensible ? 0xFFFE : (l.isFloat ? 3 : 1), 2)
        w.le(UInt64(f.mChannelsPerFrame), 2)
        w.le(UInt64(f.mSampleRate.rounded()), 4)
        w.le(min(UInt64(f.mSampleRate.rounded()) * UInt64(f.mBytesPerFrame), UInt64(UInt32.max)), 4)
        w.le(UInt64(f.mBytesPerFrame), 2)
        w.le(UInt64(l.containerBytes * 8), 2)
        if extensible {
            w.le(22, 2)
            w.le(UInt64(l.validBits), 2)
            w.le(UInt64(channelMask(channelLayout, channels: f.mChannelsPerFrame)), 4)
            // KSDATAFORMAT_SUBTYPE_PCM / IEEE_FLOAT: xxxxxxxx-0000-0010-8000-00aa00389b71
            w.le(l.isFloat ? 3 : 1, 4)
            w.append([0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71])
        } else if l.isFloat {
            w.le(0, 2)
        }
        let dataSizeOffset = Int64(w.bytes.count + 4)
        w.fourCC(data); w.le(0xFFFF_FFFF, 4)
        var stored = f
        stored.mFormatFlags = (l.isFloat ? kAudioFormatFlagIsFloat : (l.validBits > 8 ? kAudioFormatFlagIsSignedInteger : 0))
            | (l.validBits == l.containerBytes * 8 ? kAudioFormatFlagIsPacked : kAudioFormatFlagIsAlignedHigh)
        let layout = AudioFileLayout(fileType: isRF64 ? kAudioFileRF64Type : kAudioFileWAVEType, format: stored,
                                     dataOffset: Int64(w.bytes.count), dataByteCount: 0, channelLayout: channelLayout,
                                     headerPatch: .wave(riffSizeOffset: 4, dataSizeOffset: dataSizeOffset, ds64Offset: ds64Offset))
        return .success((w.bytes, layout))
    }

    /// A WAVE (or RF64) header for µ-law or A-law data: format tag 7 or 6, 8 bits, a byte per sample.
    static func createG711(format f: AudioStreamBasicDescription, rf64 isRF64: Bool) -> Result<([UInt8], AudioFileLayout), OSStatusError> {
        guard f.mChannelsPerFrame >= 1, f.mChannelsPerFrame <= 1024, f.mSampleRate.rounded() >= 1, f.mSampleRate.rounded() <= Double(UInt32.max),
              let stored = CodecRegistry.entry(f.mFormatID)?.completeFormat(f, nil) else {
            return .failure(OSStatusError(kAudioFileUnsupportedDataFormatError))
        }
        var w = ByteWriter()
        w.fourCC(isRF64 ? rf64 : riff); w.le(0xFFFF_FFFF, 4); w.fourCC(wave)
        var ds64Offset: Int64 = -1
        if isRF64 {
            w.fourCC(ds64); w.le(28, 4)
            ds64Offset = Int64(w.bytes.count)
            w.le(0, 8); w.le(0, 8); w.le(0, 8); w.le(0, 4)
        }
        w.fourCC(fmt); w.le(18, 4)
        w.le(f.mFormatID == kAudioFormatULaw ? 7 : 6, 2)
        w.le(UInt64(f.mChannelsPerFrame), 2)
        w.le(UInt64(f.mSampleRate.rounded()), 4)
        w.le(min(UInt64(f.mSampleRate.rounded()) * UInt64(f.mChannelsPerFrame), UInt64(UInt32.max)), 4)
        w.le(UInt64(f.mChannelsPerFrame), 2)
        w.le(8, 2)
        w.le(0, 2)
        let dataSizeOffset = Int64(w.bytes.count + 4)
        w.fourCC(data); w.le(0xFFFF_FFFF, 4)
        let layout = AudioFileLayout(fileType: isRF64 ? kAudioFileRF64Type : kAudioFileWAVEType, format: stored,
                                     dataOffset: Int64(w.bytes.count), dataByteCount: 0,
                                     headerPatch: .wave(riffSizeOffset: 4, dataSizeOffset: dataSizeOffset, ds64Offset: ds64Offset))
        return .success((w.bytes, layout))
    }

    /// The WAVE channel mask: from a bitmap layout, else the first N standard speaker positions.
    static func channelMask(_ layout: [UInt8]?, channels: UInt32) -> UInt32 {
        if let layout, layout.count >= 8 {
            var r = ByteReader(layout)
            if r.u32le() == kAudioChannelLayoutTag_UseChannelBitmap, let bitmap = r.u32le() { return bitmap }
        }
        return channels >= 32 ? 0 : (UInt32(1) << channels) - 1
    }

    static func sizeFields(_ layout: AudioFileLayout, dataByteCount: Int64) -> [(Int64, [UInt8])] {
        guard case .wave(let riffOffset, let dataOffsetField, let ds64Offset) = layout.headerPatch else { return [] }
        if ds64Offset >= 0 {
            // RF64: the 32-bit fields stay 0xFFFFFFFF; the sizes go into ds64.
            var ds = ByteWriter()
            ds.le(UInt64(max(0, layout.dataOffset + dataByteCount + (dataByteCount & 1) + layout.trailingChunkByteCount - 8)), 8)
            ds.le(UInt64(dataByteCount), 8)
            ds.le(UInt64(dataByteCount / Int64(max(layout.format.mBytesPerPacket, 1))), 8)
            return [(ds64Offset, ds.bytes)]
        }
        var riffSize = ByteWriter(), dataSize = ByteWriter()
        riffSize.le(UInt64(clamping: max(0, layout.dataOffset + dataByteCount + (dataByteCount & 1) + layout.trailingChunkByteCount - 8)), 4)
        dataSize.le(UInt64(clamping: dataByteCount), 4)
        return [(riffOffset, riffSize.bytes), (dataOffsetField, dataSize.bytes)]
    }
}

/// RF64 (EBU Tech 3306): WAVE with 64-bit sizes in a ds64 chunk, for audio data beyond 4 GiB.
enum RF64Container: AudioFileContainer {
    static var fileType: AudioFileTypeID { kAudioFileRF64Type }
    static func parse(_ store: ByteStore) -> Result<AudioFileLayout, OSStatusError> { WAVEContainer.parse(store) }
    static func create(format: AudioStreamBasicDescription, channelLayout: [UInt8]?, magicCookie: [UInt8]?) -> Result<([UInt8], AudioFileLayout), OSStatusError> {
        WAVEContainer.createFile(format: format, channelLayout: channelLayout, rf64: true)
    }
    static func sizeFields(_ layout: AudioFileLayout, dataByteCount: Int64) -> [(Int64, [UInt8])] {
        WAVEContainer.sizeFields(layout, dataByteCount: dataByteCount)
    }
}
