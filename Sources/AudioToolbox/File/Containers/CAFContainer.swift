/// Core Audio Format: 'desc', 'data' (with the unknown size -1 a crashed writer leaves: the data runs
/// to the end of the file), 'chan', 'kuki', 'pakt', 'info', 'free' and other chunks kept as user data.
/// Linear PCM of every depth and endianness, and any compressed format: constant-bit-rate packets by
/// the description, variable ones by the 'pakt' table. All fields are big-endian; chunk sizes are 64-bit.
enum CAFContainer: AudioFileContainer {
    static var fileType: AudioFileTypeID { kAudioFileCAFType }

    static let caff = OCAFormat.fourCharCode("caff"), desc = OCAFormat.fourCharCode("desc"), data = OCAFormat.fourCharCode("data")
    static let chan = OCAFormat.fourCharCode("chan"), kuki = OCAFormat.fourCharCode("kuki"), info = OCAFormat.fourCharCode("info")
    static let free = OCAFormat.fourCharCode("free"), pakt = OCAFormat.fourCharCode("pakt")

    static func parse(_ store: ByteStore) -> Result<AudioFileLayout, OSStatusError> {
        let fileSize = store.size
        guard let header = store.bytes(at: 0, count: 8) else { return .failure(OSStatusError(kAudioFileInvalidFileError)) }
        var r = ByteReader(header)
        guard r.fourCC() == caff, r.u16be() == 1 else { return .failure(OSStatusError(kAudioFileInvalidFileError)) }
        var format: AudioStreamBasicDescription?
        var layout: [UInt8]?, cookie: [UInt8]?
        var dataOffset: Int64 = -1, dataSize: Int64 = 0, dataSizeField: Int64 = 0
        var infoDict: [String: String] = [:]
        var userData: [(UInt32, [UInt8])] = []
        var offset: Int64 = 8, chunks = 0
        var packetTable: AudioFilePacketTableInfo?
        var paktBody: [UInt8]?
        var afterData: [(UInt32, [UInt8])]? = nil  // chunks after a sized data chunk, kept so appending can move them
        while offset + 12 <= fileSize {
            chunks += 1
            if chunks > 10_000 { return .failure(OSStatusError(kAudioFileInvalidFileError)) }
            guard let ch = store.bytes(at: offset, count: 12) else { break }
            var cr = ByteReader(ch)
            let id = cr.fourCC()!, rawSize = Int64(bitPattern: cr.u64be()!)
            let body = offset + 12
            if id == data {
                // 4 bytes of edit count, then audio; size -1 means "to the end of the file".
                guard rawSize == -1 || rawSize >= 4 else { return .failure(OSStatusError(kAudioFileInvalidChunkError)) }
                dataOffset = body + 4
                dataSizeField = offset + 4
                let available = max(0, fileSize - dataOffset)
                // A size past the end (a truncated file, or a hostile one near Int64.max) is read as "to the
                // end", like -1: nothing after it can be reached, and body + rawSize must not be computed.
                if rawSize == -1 || rawSize > fileSize - body {
                    dataSize = available
                    break
                }
                dataSize = min(rawSize - 4, available)
                offset = body + rawSize
                afterData = []
                continue
            }
            guard rawSize >= 0, rawSize <= fileSize - body else { return .failure(OSStatusError(kAudioFileInvalidChunkError)) }
            if id == desc {
                guard rawSize >= 32, let b = store.bytes(at: body, count: 32) else { return .failure(OSStatusError(kAudioFileInvalidChunkError)) }
                switch parseDescription(b) {
                case .success(let f): format = f
                case .failure(let e): return .failure(e)
                }
            } else if rawSize <= 1 << 24, let b = store.bytes(at: body, count: Int(rawSize)) {
                afterData?.append((id, b))
                switch id {
                case chan: layout = cafLayoutToNative(b)
                case kuki: cookie = b
                case info: parseInfo(b, into: &infoDict)
                case free: break
                case pakt:
                    var pr = ByteReader(b)
                    guard let _ = pr.u64be(), let valid = pr.u64be(), let priming = pr.u32be(), let remainder = pr.u32be() else {
                        return .failure(OSStatusError(kAudioFileInvalidChunkError))
                    }
                    packetTable = AudioFilePacketTableInfo(mNumberValidFrames: Int64(bitPattern: valid), mPrimingFrames: Int32(bitPattern: priming),
                                                           mRemainderFrames: Int32(bitPattern: remainder))
                    paktBody = b
                default: userData.append((id, b))
                }
            }
            offset = body + rawSize
        }
        guard let format, dataOffset >= 0 else { return .failure(OSStatusError(kAudioFileInvalidFileError)) }
        if format.mBytesPerPacket > 0 { dataSize -= dataSize % Int64(format.mBytesPerPacket) }
        var index: PacketIndex?
        if format.mBytesPerPacket == 0 || format.mFramesPerPacket == 0 {
            // Variable packets can only be found through the table.
            guard let paktBody, paktBody.count >= 24 else { return .failure(OSStatusError(kAudioFileInvalidFileError)) }
            var header = ByteReader(paktBody)
            let packets = Int64(bitPattern: header.u64be() ?? 0)
            guard let parsed = PacketIndex.parseCAF(paktBody[24...], packets: packets, variableSizes: format.mBytesPerPacket == 0,
                                                    variableFrames: format.mFramesPerPacket == 0, constantSize: format.mBytesPerPacket,
                                                    dataSize: dataSize) else {
                return .failure(OSStatusError(kAudioFileInvalidPacketOffsetError))
            }
            index = parsed
        }
        var result = AudioFileLayout(fileType: kAudioFileCAFType, format: format, dataOffset: dataOffset, dataByteCount: dataSize,
                                     channelLayout: layout ?? (format.mFormatID == kAudioFormatOpus ? cookie.flatMap(OpusHeader.init)?.channelLayoutBytes : nil),
                                     magicCookie: cookie, info: infoDict,
                                     headerPatch: .caf(dataSizeOffset: dataSizeField), userData: userData)
        result.trailingChunks = afterData ?? []
        result.packetTable = packetTable
        result.packetIndex = index
        return .success(result)
    }

    static func parseDescription(_ b: [UInt8]) -> Result<AudioStreamBasicDescription, OSStatusError> {
        var r = ByteReader(b)
        let rate = Double(bitPattern: r.u64be()!)
        let formatID = r.u32be()!, cafFlags = r.u32be()!
        let bytesPerPacket = r.u32be()!, framesPerPacket = r.u32be()!, channels = r.u32be()!, bits = r.u32be()!
        guard rate > 0, rate <= 3_072_000, channels >= 1, channels <= 1024 else {
            return .failure(OSStatusError(kAudioFileUnsupportedDataFormatError))
        }
        guard formatID == kAudioFormatLinearPCM else {
            // Compressed: the fields are the codec's, kept as written (bounded so that sizes computed from
            // them cannot overflow).
            guard bytesPerPacket <= 1 << 24, framesPerPacket <= 1 << 24 else {
                return .failure(OSStatusError(kAudioFileInvalidChunkError))
            }
            return .success(AudioStreamBasicDescription(mSampleRate: rate, mFormatID: formatID, mFormatFlags: cafFlags,
                                                        mBytesPerPacket: bytesPerPacket, mFramesPerPacket: framesPerPacket, mBytesPerFrame: 0,
                                                        mChannelsPerFrame: channels, mBitsPerChannel: bits, mReserved: 0))
        }
        // Bound the container before multiplying: a hostile size must not overflow (found by fuzzing).
        guard framesPerPacket == 1, bytesPerPacket > 0, bytesPerPacket % channels == 0, bits >= 1, bits <= 64,
              bytesPerPacket / channels <= 8, (bytesPerPacket / channels) * 8 >= bits else {
            return .failure(OSStatusError(kAudioFileInvalidChunkError))
        }
        let isFloat = cafFlags & 1 != 0, little = cafFlags & 2 != 0
        let container = bytesPerPacket / channels
        var flags: AudioFormatFlags = isFloat ? kAudioFormatFlagIsFloat : kAudioFormatFlagIsSignedInteger
        if !little && container > 1 { flags |= kAudioFormatFlagIsBigEndian }
        flags |= container * 8 == bits ? kAudioFormatFlagIsPacked : kAudioFormatFlagIsAlignedHigh
        return .success(AudioStreamBasicDescription(mSampleRate: rate, mFormatID: formatID, mFormatFlags: flags,
                                                    mBytesPerPacket: bytesPerPacket, mFramesPerPacket: 1, mBytesPerFrame: bytesPerPacket,
                                                    mChannelsPerFrame: channels, mBitsPerChannel: bits, mReserved: 0))
    }

    /// CAF stores AudioChannelLayout big-endian; in memory it is native (little-endian) as Apple's API gives it.
    static func cafLayoutToNative(_ b: [UInt8]) -> [UInt8]? {
        guard b.count >= 12 else { return nil }
        var r = ByteReader(b)
        let tag = r.u32be()!, bitmap = r.u32be()!, count = r.u32be()!
        guard count <= 1024, b.count >= 12 + Int(count) * 20 else { return nil }
        var w = ByteWriter()
        w.le(UInt64(tag), 4); w.le(UInt64(bitmap), 4); w.le(UInt64(count), 4)
        for _ in 0..<count { for _ in 0..<5 { w.le(UInt64(r.u32be()!), 4) } }
        return w.bytes
    }

    static func nativeLayoutToCAF(_ b: [UInt8]) -> [UInt8] {
        var r = ByteReader(b)
        var w = ByteWriter()
        while r.remaining >= 4 { w.be(UInt64(r.u32le()!), 4) }
        return w.bytes
    }

    static func parseInfo(_ b: [UInt8], into dict: inout [String: String]) {
        var r = ByteReader(b)
        guard let count = r.u32be() else { return }
        var strings: [String] = []
        var current: [UInt8] = []
        while let byte = r.take(1)?.first {
            if byte == 0 { strings.append(String(decoding: current, as: UTF8.self)); current = [] } else { current.append(byte) }
        }
        for i in 0..<min(Int(count), strings.count / 2) { dict[strings[2 * i]] = strings[2 * i + 1] }
    }

    /// An 'info' chunk's body: the count, then each key and value NUL-terminated (keys sorted, for stable files).
    static func infoBody(_ info: [String: String]) -> [UInt8] {
        var w = ByteWriter()
        w.be(UInt64(info.count), 4)
        for (k, v) in info.sorted(by: { $0.key < $1.key }) { w.append(Array(k.utf8) + [0] + Array(v.utf8) + [0]) }
        return w.bytes
    }

    static func create(format f: AudioStreamBasicDescription, channelLayout: [UInt8]?, magicCookie: [UInt8]?) -> Result<([UInt8], AudioFileLayout), OSStatusError> {
        if f.mFormatID != kAudioFormatLinearPCM { return createCompressed(format: f, channelLayout: channelLayout, magicCookie: magicCookie) }
        guard let pcm = PCMFormat(f), pcm.isInterleaved, pcm.layout.fractionBits == 0,
              pcm.layout.isSigned || pcm.layout.isFloat else {
            return .failure(OSStatusError(kAudioFileUnsupportedDataFormatError))
        }
        let l = pcm.layout
        var w = ByteWriter()
        w.fourCC(caff); w.be(1, 2); w.be(0, 2)
        w.fourCC(desc); w.be(32, 8)
        w.be(f.mSampleRate.bitPattern, 8)
        w.be(UInt64(kAudioFormatLinearPCM), 4)
        w.be(UInt64((l.isFloat ? 1 : 0) | (l.isBigEndian || l.containerBytes == 1 ? 0 : 2)), 4)
        w.be(UInt64(f.mBytesPerPacket), 4); w.be(1, 4); w.be(UInt64(f.mChannelsPerFrame), 4); w.be(UInt64(l.validBits), 4)
        if let channelLayout, channelLayout.count >= 12 {
            w.fourCC(chan); w.be(UInt64(channelLayout.count), 8)
            w.append(nativeLayoutToCAF(channelLayout))
        }
        let dataSizeOffset = Int64(w.bytes.count + 4)
        // Unknown size until the file is closed: a crashed writer still leaves a readable file.
        w.fourCC(data); w.be(UInt64(bitPattern: -1), 8); w.be(0, 4)
        var stored = f
        stored.mFormatFlags = (l.isFloat ? kAudioFormatFlagIsFloat : kAudioFormatFlagIsSignedInteger)
            | (l.isBigEndian && l.containerBytes > 1 ? kAudioFormatFlagIsBigEndian : 0)
            | (l.validBits == l.containerBytes * 8 ? kAudioFormatFlagIsPacked : kAudioFormatFlagIsAlignedHigh)
        let layout = AudioFileLayout(fileType: kAudioFileCAFType, format: stored, dataOffset: Int64(w.bytes.count), dataByteCount: 0,
                                     channelLayout: channelLayout, headerPatch: .caf(dataSizeOffset: dataSizeOffset))
        return .success((w.bytes, layout))
    }

    /// A compressed stream's header: 'desc' with the codec's fields, the layout, the cookie, then 'data'.
    /// Variable packets get their 'pakt' table when the file is finished (AudioFileObject writes it).
    static func createCompressed(format requested: AudioStreamBasicDescription, channelLayout: [UInt8]?,
                                 magicCookie: [UInt8]?) -> Result<([UInt8], AudioFileLayout), OSStatusError> {
        // A codec's fixed fields the client left at 0 (frames per packet above all) are filled in.
        let f = CodecRegistry.entry(requested.mFormatID)?.completeFormat(requested, magicCookie) ?? requested
        guard f.mSampleRate > 0, f.mChannelsPerFrame >= 1, f.mChannelsPerFrame <= 1024 else {
            return .failure(OSStatusError(kAudioFileUnsupportedDataFormatError))
        }
        var w = ByteWriter()
        w.fourCC(caff); w.be(1, 2); w.be(0, 2)
        w.fourCC(desc); w.be(32, 8)
        w.be(f.mSampleRate.bitPattern, 8)
        w.be(UInt64(f.mFormatID), 4); w.be(UInt64(f.mFormatFlags), 4)
        w.be(UInt64(f.mBytesPerPacket), 4); w.be(UInt64(f.mFramesPerPacket), 4)
        w.be(UInt64(f.mChannelsPerFrame), 4); w.be(UInt64(f.mBitsPerChannel), 4)
        if let channelLayout, channelLayout.count >= 12 {
            w.fourCC(chan); w.be(UInt64(channelLayout.count), 8)
            w.append(nativeLayoutToCAF(channelLayout))
        }
        if let magicCookie, !magicCookie.isEmpty {
            w.fourCC(kuki); w.be(UInt64(magicCookie.count), 8)
            w.append(magicCookie)
        }
        let dataSizeOffset = Int64(w.bytes.count + 4)
        w.fourCC(data); w.be(UInt64(bitPattern: -1), 8); w.be(0, 4)
        var stored = f
        stored.mBytesPerFrame = 0
        var layout = AudioFileLayout(fileType: kAudioFileCAFType, format: stored, dataOffset: Int64(w.bytes.count), dataByteCount: 0,
                                     channelLayout: channelLayout, magicCookie: magicCookie, headerPatch: .caf(dataSizeOffset: dataSizeOffset))
        if f.mBytesPerPacket == 0 || f.mFramesPerPacket == 0 { layout.packetIndex = PacketIndex(variableFrames: f.mFramesPerPacket == 0) }
        return .success((w.bytes, layout))
    }

    /// The 'pakt' chunk's body for the packets written so far.
    static func packetTableBody(_ layout: AudioFileLayout, packetCount: Int64, validFrames: Int64) -> [UInt8] {
        var w = ByteWriter()
        let t = layout.packetTable
        w.be(UInt64(packetCount), 8)
        w.be(UInt64(bitPattern: t?.mNumberValidFrames ?? validFrames), 8)
        w.be(UInt64(UInt32(bitPattern: t?.mPrimingFrames ?? 0)), 4)
        w.be(UInt64(UInt32(bitPattern: t?.mRemainderFrames ?? 0)), 4)
        if let index = layout.packetIndex { w.append(index.cafTable(includeSizes: layout.format.mBytesPerPacket == 0)) }
        return w.bytes
    }

    static func sizeFields(_ layout: AudioFileLayout, dataByteCount: Int64) -> [(Int64, [UInt8])] {
        guard case .caf(let offset) = layout.headerPatch else { return [] }
        var w = ByteWriter()
        w.be(UInt64(dataByteCount + 4), 8)
        return [(offset, w.bytes)]
    }
}
