/// Native FLAC files (.flac): "fLaC" (after an optional ID3v2 tag), metadata blocks (STREAMINFO, Vorbis
/// comments into the info dictionary), then frames, each one packet, found by their headers (CRC-8
/// checked, false syncs inside audio dropped). STREAMINFO's total samples become the packet table, and
/// STREAMINFO itself the magic cookie. Written files get their STREAMINFO rewritten at every header
/// update: sizes from the packets, totals from the packet table, the MD5 from the encoder's cookie.
enum FLACContainer: AudioFileContainer {
    static var fileType: AudioFileTypeID { kAudioFileFLACType }

    /// The largest metadata read (pictures can be large; a hostile length is bounded by the file too).
    static let maximumMetadataBytes = 1 << 25
    static let windowBytes = 1 << 22

    static let commentKeys: [String: String] = [
        "TITLE": kAFInfoDictionary_Title, "ARTIST": kAFInfoDictionary_Artist, "ALBUM": kAFInfoDictionary_Album,
        "DATE": kAFInfoDictionary_Year, "GENRE": kAFInfoDictionary_Genre, "TRACKNUMBER": kAFInfoDictionary_TrackNumber,
        "COMMENT": kAFInfoDictionary_Comments, "DESCRIPTION": kAFInfoDictionary_Comments, "COMPOSER": kAFInfoDictionary_Composer,
        "COPYRIGHT": kAFInfoDictionary_Copyright, "ISRC": kAFInfoDictionary_ISRC, "LYRICIST": kAFInfoDictionary_Lyricist,
        "ENCODER": kAFInfoDictionary_EncodingApplication,
    ]

    static func parse(_ store: ByteStore) -> Result<AudioFileLayout, OSStatusError> {
        let fileSize = store.size
        var want = Int(min(fileSize, 1 << 16))
        var metadata: FLACMetadata?
        while metadata == nil {
            guard let head = store.bytes(at: 0, count: want) else { return .failure(OSStatusError(kAudioFileInvalidFileError)) }
            switch head.withUnsafeBytes({ FLACMetadata.parse($0) }) {
            case .success(let m): metadata = m
            case .failure(.needMoreData(let atLeast)):
                guard atLeast > want, atLeast <= maximumMetadataBytes, Int64(atLeast) <= fileSize else {
                    return .failure(OSStatusError(want < 8 || head.prefix(4) != Array("fLaC".utf8)[...] && ID3Tag.v2Size(Array(head.prefix(10))) == nil
                                                  ? kAudioFileInvalidFileError : kAudioFileInvalidChunkError))
                }
                want = atLeast
            case .failure:
                return .failure(OSStatusError(kAudioFileInvalidFileError))
            }
        }
        let m = metadata!
        let info = m.streamInfo
        let dataOffset = Int64(m.firstFrameOffset)
        // Every frame's place: scanned window by window; a window's last frame is taken up by the next.
        var index = PacketIndex(variableFrames: true)
        var position = dataOffset
        var last: FLACFrameHeader?
        var window = windowBytes
        while position < fileSize {
            let count = Int(min(Int64(window), fileSize - position))
            guard let bytes = store.bytes(at: position, count: count) else { break }
            let final = position + Int64(count) >= fileSize
            let frames = bytes.withUnsafeBytes { FLACFrameHeader.scan($0, from: 0, streamInfo: info) }
                .filter { last == nil || $0.header.follows(last!) || $0.offset > 0 }
            if frames.isEmpty { break }
            let complete = final ? frames.count : frames.count - 1
            if complete == 0 {
                // One frame in a whole window: widen it (frames are bounded by the format's 16 MiB).
                guard window < 1 << 25 else { break }
                window *= 2
                continue
            }
            for i in 0..<complete {
                let end = i + 1 < frames.count ? frames[i + 1].offset : count
                index.append(offset: position + Int64(frames[i].offset) - dataOffset, size: UInt32(end - frames[i].offset),
                             frames: UInt32(frames[i].header.blockSize))
                last = frames[i].header
            }
            if final { break }
            position += Int64(frames[complete].offset)
        }
        guard index.count > 0 || info.totalSamples == 0 else { return .failure(OSStatusError(kAudioFileInvalidFileError)) }
        let fixed = info.minBlockSize == info.maxBlockSize
        var format = AudioStreamBasicDescription(mSampleRate: Double(info.sampleRate), mFormatID: kAudioFormatFLAC,
                                                 mFormatFlags: FLACCookie.formatFlags(bits: info.bitsPerSample), mBytesPerPacket: 0,
                                                 mFramesPerPacket: fixed ? UInt32(info.maxBlockSize) : 0, mBytesPerFrame: 0,
                                                 mChannelsPerFrame: UInt32(info.channels), mBitsPerChannel: 0, mReserved: 0)
        if !fixed { format.mFramesPerPacket = 0 }
        var dictionary: [String: String] = [:]
        for (key, value) in m.vorbisComments {
            if let k = commentKeys[key.uppercased()], dictionary[k] == nil { dictionary[k] = value }
        }
        var layout = AudioFileLayout(fileType: kAudioFileFLACType, format: format, dataOffset: dataOffset,
                                     dataByteCount: index.dataEnd, magicCookie: FLACCookie.bytes(info), info: dictionary, headerPatch: .flac)
        // Fixed-size blocks: the format's frames per packet, the short last block as remainder frames.
        if fixed {
            var constant = PacketIndex(variableFrames: false)
            for i in 0..<index.count { constant.append(offset: index.offsets[i], size: index.sizes[i], frames: 0) }
            layout.packetIndex = constant
            let total = Int64(index.count) * Int64(info.maxBlockSize)
            let valid = info.totalSamples > 0 ? min(info.totalSamples, total) : index.totalVariableFrames
            layout.packetTable = AudioFilePacketTableInfo(mNumberValidFrames: valid, mPrimingFrames: 0, mRemainderFrames: Int32(clamping: total - valid))
        } else {
            layout.packetIndex = index
        }
        layout.tailLocked = true
        return .success(layout)
    }

    static func create(format f: AudioStreamBasicDescription, channelLayout: [UInt8]?, magicCookie: [UInt8]?) -> Result<([UInt8], AudioFileLayout), OSStatusError> {
        guard f.mFormatID == kAudioFormatFLAC, let stored = FLACCodec.complete(f, magicCookie), stored.mChannelsPerFrame >= 1,
              stored.mSampleRate >= 1 else {
            return .failure(OSStatusError(kAudioFileUnsupportedDataFormatError))
        }
        let info = magicCookie.flatMap(FLACCookie.streamInfo) ?? streamInfo(for: stored)
        let header = FLACMetadata.serialize(streamInfo: info, vorbisComments: [], vendor: "OpenCoreAudio", padding: 1024)
        var layout = AudioFileLayout(fileType: kAudioFileFLACType, format: stored, dataOffset: Int64(header.count), dataByteCount: 0,
                                     magicCookie: FLACCookie.bytes(info), headerPatch: .flac)
        layout.packetIndex = PacketIndex(variableFrames: stored.mFramesPerPacket == 0)
        return .success((header, layout))
    }

    static func streamInfo(for f: AudioStreamBasicDescription) -> FLACStreamInfo {
        let block = f.mFramesPerPacket > 0 ? Int(f.mFramesPerPacket) : FLACCodec.blockSize
        return FLACStreamInfo(minBlockSize: block, maxBlockSize: block, sampleRate: Int(f.mSampleRate), channels: Int(f.mChannelsPerFrame),
                              bitsPerSample: FLACCookie.bits(flags: f.mFormatFlags) ?? 16)
    }

    /// STREAMINFO from the packets written and the cookie (whose MD5 and depth the encoder keeps).
    static func sizeFields(_ layout: AudioFileLayout, dataByteCount: Int64) -> [(Int64, [UInt8])] {
        var info = layout.magicCookie.flatMap(FLACCookie.streamInfo) ?? streamInfo(for: layout.format)
        if let index = layout.packetIndex, index.count > 0 {
            info.minFrameSize = Int(index.sizes.min() ?? 0)
            info.maxFrameSize = Int(index.maximumSize)
            let total = layout.format.mFramesPerPacket > 0 ? Int64(index.count) * Int64(layout.format.mFramesPerPacket) : index.totalVariableFrames
            info.totalSamples = layout.packetTable.map { $0.mNumberValidFrames } ?? total
        }
        return [(8, info.bytes)]
    }
}
