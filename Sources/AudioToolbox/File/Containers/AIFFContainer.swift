/// AIFF and AIFC: big-endian signed integers (AIFF, AIFC 'NONE'), little-endian ('sowt') and floats
/// ('fl32', 'fl64'), and AIFC's compressed types µ-law, A-law and IMA4 ('ulaw', 'alaw', 'ima4', whose
/// COMM frame count counts packets of 64 frames). The sample rate is an 80-bit IEEE extended float.
enum AIFFContainer: AudioFileContainer {
    static var fileType: AudioFileTypeID { kAudioFileAIFFType }

    static let form = OCAFormat.fourCharCode("FORM"), aiff = OCAFormat.fourCharCode("AIFF"), aifc = OCAFormat.fourCharCode("AIFC")
    static let comm = OCAFormat.fourCharCode("COMM"), ssnd = OCAFormat.fourCharCode("SSND"), fver = OCAFormat.fourCharCode("FVER")
    static let none = OCAFormat.fourCharCode("NONE"), sowt = OCAFormat.fourCharCode("sowt")
    static let fl32 = OCAFormat.fourCharCode("fl32"), fl64 = OCAFormat.fourCharCode("fl64")
    static let FL32 = OCAFormat.fourCharCode("FL32"), FL64 = OCAFormat.fourCharCode("FL64")
    static let ulaw = OCAFormat.fourCharCode("ulaw"), ULAW = OCAFormat.fourCharCode("ULAW")
    static let alaw = OCAFormat.fourCharCode("alaw"), ALAW = OCAFormat.fourCharCode("ALAW"), ima4 = OCAFormat.fourCharCode("ima4")

    /// An AIFC compression type's stream and the name written beside it (nil: not a codec type).
    static func compressedFormat(_ type: UInt32, rate: Double, channels: UInt32) -> (AudioStreamBasicDescription, String)? {
        let id: AudioFormatID, name: String
        switch type {
        case ulaw, ULAW: (id, name) = (kAudioFormatULaw, "\u{B5}law 2:1")
        case alaw, ALAW: (id, name) = (kAudioFormatALaw, "alaw 2:1")
        case ima4: (id, name) = (kAudioFormatAppleIMA4, "IMA 4:1")
        default: return nil
        }
        var f = AudioStreamBasicDescription()
        f.mSampleRate = rate
        f.mFormatID = id
        f.mChannelsPerFrame = channels
        guard let complete = CodecRegistry.entry(id)?.completeFormat(f, nil) else { return nil }
        return (complete, name)
    }

    /// 80-bit extended (big-endian) to Double.
    static func extended(_ b: ArraySlice<UInt8>) -> Double {
        let bytes = Array(b)
        let exponent = Int(UInt16(bytes[0] & 0x7F) << 8 | UInt16(bytes[1]))
        var mantissa: UInt64 = 0
        for i in 2..<10 { mantissa = mantissa << 8 | UInt64(bytes[i]) }
        if exponent == 0 && mantissa == 0 { return 0 }
        let value = Double(mantissa) * pow(2.0, Double(exponent - 16383 - 63))
        return bytes[0] & 0x80 != 0 ? -value : value
    }

    /// Double to 80-bit extended (big-endian).
    static func extendedBytes(_ x: Double) -> [UInt8] {
        guard x > 0, x.isFinite else { return [UInt8](repeating: 0, count: 10) }
        let e = Int(x.exponent)
        let mantissa = UInt64(x.significand * pow(2.0, 63))
        var w = ByteWriter()
        w.be(UInt64(e + 16383), 2)
        w.be(mantissa, 8)
        return w.bytes
    }

    static func parse(_ store: ByteStore) -> Result<AudioFileLayout, OSStatusError> {
        let fileSize = store.size
        guard let header = store.bytes(at: 0, count: 12) else { return .failure(OSStatusError(kAudioFileInvalidFileError)) }
        var r = ByteReader(header)
        guard r.fourCC() == form, r.u32be() != nil, let kind = r.fourCC(), kind == aiff || kind == aifc else {
            return .failure(OSStatusError(kAudioFileInvalidFileError))
        }
        var format: AudioStreamBasicDescription?
        var frames: Int64 = 0
        var frameCountField: Int64 = 0
        var dataOffset: Int64 = -1, dataSize: Int64 = 0, ssndSizeField: Int64 = 0
        var userData: [(UInt32, [UInt8])] = []
        /// The chunks after the sound data, kept to be moved when the data grows.
        var trailing: [(UInt32, [UInt8])] = []
        var info: [String: String] = [:]
        var offset: Int64 = 12, chunks = 0
        while offset + 8 <= fileSize {
            chunks += 1
            if chunks > 10_000 { return .failure(OSStatusError(kAudioFileInvalidFileError)) }
            guard let ch = store.bytes(at: offset, count: 8) else { break }
            // Not a chunk: audio a killed writer appended after its last header patch, or junk. Stop here.
            guard ByteReader.isChunkID(ch[0..<4]) else { break }
            var cr = ByteReader(ch)
            let id = cr.fourCC()!, size = Int64(cr.u32be()!)
            let body = offset + 8
            if id == comm {
                guard size >= 18, size <= 1 << 16, let b = store.bytes(at: body, count: Int(size)) else {
                    return .failure(OSStatusError(kAudioFileInvalidChunkError))
                }
                var c = ByteReader(b)
                let channels = UInt32(c.u16be()!)
                frameCountField = body + 2
                frames = Int64(c.u32be()!)
                let bits = UInt32(c.u16be()!)
                let rate = extended(c.take(10)!)
                var compression = none
                if kind == aifc {
                    guard let ct = c.fourCC() else { return .failure(OSStatusError(kAudioFileInvalidChunkError)) }
                    compression = ct
                }
                guard channels >= 1, channels <= 1024, rate > 0, rate <= 3_072_000, bits >= 1, bits <= 64 else {
                    return .failure(OSStatusError(kAudioFileUnsupportedDataFormatError))
                }
                if let (compressed, _) = compressedFormat(compression, rate: rate, channels: channels) {
                    format = compressed
                    offset = body + size + (size & 1)
                    continue
                }
                var flags: AudioFormatFlags
                var sampleBits = bits
                switch compression {
                case none: flags = kAudioFormatFlagIsBigEndian | kAudioFormatFlagIsSignedInteger
                case sowt: flags = kAudioFormatFlagIsSignedInteger
                case fl32, FL32: flags = kAudioFormatFlagIsBigEndian | kAudioFormatFlagIsFloat; sampleBits = 32
                case fl64, FL64: flags = kAudioFormatFlagIsBigEndian | kAudioFormatFlagIsFloat; sampleBits = 64
                default: return .failure(OSStatusError(kAudioFileUnsupportedDataFormatError))
                }
                let container = (sampleBits + 7) / 8
                flags |= container * 8 == sampleBits ? kAudioFormatFlagIsPacked : kAudioFormatFlagIsAlignedHigh
                if bits <= 8 { flags &= ~kAudioFormatFlagIsBigEndian }
                format = AudioStreamBasicDescription(mSampleRate: rate, mFormatID: kAudioFormatLinearPCM, mFormatFlags: flags,
                                                     mBytesPerPacket: container * channels, mFramesPerPacket: 1,
                                                     mBytesPerFrame: container * channels, mChannelsPerFrame: channels,
                                                     mBitsPerChannel: sampleBits, mReserved: 0)
            } else if id == ssnd {
                guard let b = store.bytes(at: body, count: 8) else { return .failure(OSStatusError(kAudioFileInvalidChunkError)) }
                var s = ByteReader(b)
                let blockOffset = Int64(s.u32be()!)
                _ = s.u32be()
                ssndSizeField = offset + 4
                dataOffset = body + 8 + blockOffset
                dataSize = max(0, min(size - 8 - blockOffset, fileSize - dataOffset))
            } else if size <= 1 << 20, let b = store.bytes(at: body, count: Int(size)) {
                let names = [OCAFormat.fourCharCode("NAME"): "title", OCAFormat.fourCharCode("AUTH"): "artist",
                             OCAFormat.fourCharCode("(c) "): "copyright", OCAFormat.fourCharCode("ANNO"): "comments"]
                if let key = names[id] { info[key] = String(decoding: b.prefix { $0 != 0 }, as: UTF8.self) }
                userData.append((id, b))
                if dataOffset >= 0 { trailing.append((id, b)) }
            }
            offset = body + size + (size & 1)
        }
        guard let format, dataOffset >= 0 else { return .failure(OSStatusError(kAudioFileInvalidFileError)) }
        // The data holds at most what COMM promises and what the file has (COMM counts packets).
        let bytesPerPacket = Int64(max(format.mBytesPerPacket, 1))
        dataSize = min(dataSize - dataSize % bytesPerPacket, frames * bytesPerPacket)
        return .success(AudioFileLayout(fileType: kind == aifc ? kAudioFileAIFCType : kAudioFileAIFFType, format: format,
                                        dataOffset: dataOffset, dataByteCount: dataSize, info: info,
                                        headerPatch: .aiff(formSizeOffset: 4, frameCountOffset: frameCountField, ssndSizeOffset: ssndSizeField),
                                        userData: userData, trailingChunks: trailing))
    }

    static func create(format f: AudioStreamBasicDescription, channelLayout: [UInt8]?, magicCookie: [UInt8]?) -> Result<([UInt8], AudioFileLayout), OSStatusError> {
        createFile(format: f, aifc: false)
    }

    static func createFile(format requested: AudioStreamBasicDescription, aifc: Bool) -> Result<([UInt8], AudioFileLayout), OSStatusError> {
        if requested.mFormatID != kAudioFormatLinearPCM { return createCompressed(format: requested, aifc: aifc) }
        // AIFF integers are signed whatever the flags say, and mixability is no concern of a file: Apple's
        // writer ignores those flags (a client's 8-bit format without the signed flag is still AIFF's).
        var f = requested
        f.mFormatFlags &= ~kAudioFormatFlagIsNonMixable
        if f.mFormatFlags & kAudioFormatFlagIsFloat == 0 { f.mFormatFlags |= kAudioFormatFlagIsSignedInteger }
        guard let pcm = PCMFormat(f), pcm.isInterleaved else { return .failure(OSStatusError(kAudioFileUnsupportedDataFormatError)) }
        let l = pcm.layout
        let compression: UInt32
        if l.isFloat {
            guard aifc, l.isBigEndian else { return .failure(OSStatusError(kAudioFileUnsupportedDataFormatError)) }
            compression = l.containerBytes == 8 ? fl64 : fl32
        } else {
            guard l.isSigned, l.fractionBits == 0, l.validBits == l.containerBytes * 8 || l.isAlignedHigh else {
                return .failure(OSStatusError(kAudioFileUnsupportedDataFormatError))
            }
            if l.isBigEndian || l.validBits <= 8 {
                compression = none
            } else {
                // 'sowt' is byte-swapped 16-bit; other readers (ffmpeg) take it as 16-bit whatever the
                // header says, so wider little-endian data is refused rather than written unreadably.
                guard aifc, l.validBits == 16, l.containerBytes == 2 else { return .failure(OSStatusError(kAudioFileUnsupportedDataFormatError)) }
                compression = sowt
            }
        }
        var w = ByteWriter()
        w.fourCC(form); w.be(0, 4); w.fourCC(aifc ? AIFFContainer.aifc : AIFFContainer.aiff)
        if aifc {
            w.fourCC(fver); w.be(4, 4); w.be(0xA2805140, 4)  // AIFC version 1
        }
        w.fourCC(comm)
        w.be(aifc ? 24 : 18, 4)
        w.be(UInt64(f.mChannelsPerFrame), 2)
        let frameCountOffset = Int64(w.bytes.count)
        w.be(0, 4)
        w.be(UInt64(l.validBits), 2)
        w.append(extendedBytes(f.mSampleRate))
        if aifc {
            w.fourCC(compression)
            w.append([0, 0])  // empty Pascal-string name, padded
        }
        let ssndSizeOffset = Int64(w.bytes.count + 4)
        w.fourCC(ssnd); w.be(8, 4); w.be(0, 4); w.be(0, 4)
        var stored = f
        stored.mFormatFlags = l.isFloat ? kAudioFormatFlagIsFloat | kAudioFormatFlagIsBigEndian | kAudioFormatFlagIsPacked
            : kAudioFormatFlagIsSignedInteger | (l.isBigEndian && l.validBits > 8 ? kAudioFormatFlagIsBigEndian : 0)
              | (l.validBits == l.containerBytes * 8 ? kAudioFormatFlagIsPacked : kAudioFormatFlagIsAlignedHigh)
        let layout = AudioFileLayout(fileType: aifc ? kAudioFileAIFCType : kAudioFileAIFFType, format: stored,
                                     dataOffset: Int64(w.bytes.count), dataByteCount: 0,
                                     headerPatch: .aiff(formSizeOffset: 4, frameCountOffset: frameCountOffset, ssndSizeOffset: ssndSizeOffset))
        return .success((w.bytes, layout))
    }

    /// An AIFC header for one of its compressed types (AIFF proper holds none).
    static func createCompressed(format f: AudioStreamBasicDescription, aifc: Bool) -> Result<([UInt8], AudioFileLayout), OSStatusError> {
        let types: [AudioFormatID: UInt32] = [kAudioFormatULaw: ulaw, kAudioFormatALaw: alaw, kAudioFormatAppleIMA4: ima4]
        guard aifc, let type = types[f.mFormatID], f.mChannelsPerFrame >= 1, f.mChannelsPerFrame <= 1024, f.mSampleRate > 0,
              let (stored, name) = compressedFormat(type, rate: f.mSampleRate, channels: f.mChannelsPerFrame) else {
            return .failure(OSStatusError(kAudioFileUnsupportedDataFormatError))
        }
        var nameBytes: [UInt8] = [UInt8(name.utf8.count)] + Array(name.utf8)
        if nameBytes.count & 1 == 1 { nameBytes.append(0) }
        var w = ByteWriter()
        w.fourCC(form); w.be(0, 4); w.fourCC(AIFFContainer.aifc)
        w.fourCC(fver); w.be(4, 4); w.be(0xA2805140, 4)
        w.fourCC(comm)
        w.be(UInt64(22 + nameBytes.count), 4)
        w.be(UInt64(f.mChannelsPerFrame), 2)
        let frameCountOffset = Int64(w.bytes.count)
        w.be(0, 4)
        w.be(16, 2)  // the decoded sample size, as Apple writes it for these types
        w.append(extendedBytes(f.mSampleRate))
        w.fourCC(type)
        w.append(nameBytes)
        let ssndSizeOffset = Int64(w.bytes.count + 4)
        w.fourCC(ssnd); w.be(8, 4); w.be(0, 4); w.be(0, 4)
        let layout = AudioFileLayout(fileType: kAudioFileAIFCType, format: stored, dataOffset: Int64(w.bytes.count), dataByteCount: 0,
                                     headerPatch: .aiff(formSizeOffset: 4, frameCountOffset: frameCountOffset, ssndSizeOffset: ssndSizeOffset))
        return .success((w.bytes, layout))
    }

    static func sizeFields(_ layout: AudioFileLayout, dataByteCount: Int64) -> [(Int64, [UInt8])] {
        guard case .aiff(let formOffset, let framesOffset, let ssndOffset) = layout.headerPatch else { return [] }
        var formSize = ByteWriter(), frames = ByteWriter(), ssndSize = ByteWriter()
        formSize.be(UInt64(clamping: layout.dataOffset + dataByteCount + (dataByteCount & 1) + layout.trailingChunkByteCount - 8), 4)
        // COMM's count: frames for linear PCM, packets for the compressed types.
        frames.be(UInt64(clamping: dataByteCount / Int64(max(layout.format.mBytesPerPacket, 1))), 4)
        ssndSize.be(UInt64(clamping: dataByteCount + 8), 4)
        return [(formOffset, formSize.bytes), (framesOffset, frames.bytes), (ssndOffset, ssndSize.bytes)]
    }
}

/// AIFC: as AIFF, with compression types for little-endian and float data.
enum AIFCContainer: AudioFileContainer {
    static var fileType: AudioFileTypeID { kAudioFileAIFCType }
    static func parse(_ store: ByteStore) -> Result<AudioFileLayout, OSStatusError> { AIFFContainer.parse(store) }
    static func create(format: AudioStreamBasicDescription, channelLayout: [UInt8]?, magicCookie: [UInt8]?) -> Result<([UInt8], AudioFileLayout), OSStatusError> {
        AIFFContainer.createFile(format: format, aifc: true)
    }
    static func sizeFields(_ layout: AudioFileLayout, dataByteCount: Int64) -> [(Int64, [UInt8])] {
        AIFFContainer.sizeFields(layout, dataByteCount: dataByteCount)
    }
}
