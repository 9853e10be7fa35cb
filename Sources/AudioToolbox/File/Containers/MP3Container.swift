/// MPEG audio files (.mp3, .mp2, .mp1): an optional ID3v2 tag, frames found by their sync and header
/// (each frame one packet; junk between frames skipped by resynchronising on two consecutive valid
/// headers), an optional Xing/Info or VBRI frame that is metadata rather than audio, and an optional
/// ID3v1 tag at the end. LAME's encoder delay and padding become the packet table (priming = delay +
/// 529 for the decoder's own delay, remainder = padding - 529), as gapless players read them. Read only:
/// there is no MP3 encoder, here or in Apple's AudioToolbox.
enum MP3Container: AudioFileContainer {
    static var fileType: AudioFileTypeID { kAudioFileMP3Type }

    /// How far past the tags a first frame is looked for.
    static let syncSearchBytes: Int64 = 1 << 16

    /// A valid header at `offset` followed by another valid one of the same stream (or the end).
    static func confirmedHeader(_ store: ByteStore, at offset: Int64, end: Int64) -> MPEGAudioFrameHeader? {
        guard let b = store.bytes(at: offset, count: 4), let h = b.withUnsafeBufferPointer({ MPEGAudioFrameHeader($0.baseAddress!) }) else { return nil }
        let next = offset + Int64(h.frameBytes)
        if next + 4 > end { return next <= end ? h : nil }
        guard let nb = store.bytes(at: next, count: 4), let n = nb.withUnsafeBufferPointer({ MPEGAudioFrameHeader($0.baseAddress!) }),
              n.version == h.version, n.layer == h.layer, n.sampleRate == h.sampleRate else { return nil }
        return h
    }

    /// The next confirmed frame at or after `offset` within `limit` bytes.
    static func resync(_ store: ByteStore, from offset: Int64, limit: Int64, end: Int64) -> (Int64, MPEGAudioFrameHeader)? {
        var base = offset
        let stop = min(end - 4, offset + limit)
        while base <= stop {
            let count = Int(min(4096, stop - base + 4))
            guard count >= 4, let window = store.bytes(at: base, count: count) else { return nil }
            for i in 0..<(window.count - 3) where window[i] == 0xFF && window[i + 1] & 0xE0 == 0xE0 {
                if let h = confirmedHeader(store, at: base + Int64(i), end: end) { return (base + Int64(i), h) }
            }
            base += Int64(count - 3)
        }
        return nil
    }

    static func parse(_ store: ByteStore) -> Result<AudioFileLayout, OSStatusError> {
        let fileSize = store.size
        var start: Int64 = 0
        var info: [String: String] = [:]
        var userData: [(UInt32, [UInt8])] = []
        if let head = store.bytes(at: 0, count: 10), let tagSize = ID3Tag.v2Size(head), Int64(tagSize) <= fileSize {
            if let tag = store.bytes(at: 0, count: min(tagSize, 1 << 24)) {
                info = ID3Tag.parseV2(tag)
                userData.append((OCAFormat.fourCharCode("id3 "), tag))
            }
            start = Int64(tagSize)
        }
        var end = fileSize
        if fileSize - start >= 128, let tail = store.bytes(at: fileSize - 128, count: 128), let v1 = ID3Tag.parseV1(tail) {
            end -= 128
            for (k, v) in v1 where info[k] == nil { info[k] = v }
        }
        // A file that is recognisably something else is not taken as MPEG audio by a stray sync.
        guard let (first, header) = resync(store, from: start, limit: start == 0 ? 4096 : syncSearchBytes, end: end) else {
            return .failure(OSStatusError(kAudioFileInvalidFileError))
        }
        var format = header.streamDescription
        var dataOffset = first
        var table: AudioFilePacketTableInfo?
        var declaredFrames: Int64?
        // The first frame may be a Xing/Info or VBRI header: metadata, not audio.
        if let frame = store.bytes(at: first, count: header.frameBytes), header.layer == 3 {
            let x = header.xingOffset
            if frame.count >= x + 8, [[0x58, 0x69, 0x6E, 0x67], [0x49, 0x6E, 0x66, 0x6F]].contains(Array(frame[x..<(x + 4)])) {
                let flags = UInt32(frame[x + 4]) << 24 | UInt32(frame[x + 5]) << 16 | UInt32(frame[x + 6]) << 8 | UInt32(frame[x + 7])
                var p = x + 8
                if flags & 1 != 0, frame.count >= p + 4 {
                    declaredFrames = Int64(frame[p]) << 24 | Int64(frame[p + 1]) << 16 | Int64(frame[p + 2]) << 8 | Int64(frame[p + 3])
                    p += 4
                }
                // LAME's tag sits after the Xing fields when all four are present; delay and padding are
                // two 12-bit numbers 21 bytes into it.
                if flags & 0xF == 0xF, frame.count >= x + 0x8D + 3 {
                    let d = x + 0x8D
                    let delay = Int64(frame[d]) << 4 | Int64(frame[d + 1] >> 4)
                    let padding = Int64(frame[d + 1] & 0x0F) << 8 | Int64(frame[d + 2])
                    if delay > 0 || padding > 0 {
                        let priming = delay + 529
                        table = AudioFilePacketTableInfo(mNumberValidFrames: 0, mPrimingFrames: Int32(priming),
                                                         mRemainderFrames: Int32(max(0, padding - 529)))
                    }
                }
                dataOffset = first + Int64(header.frameBytes)
            } else if frame.count >= 36 + 18, Array(frame[36..<40]) == [0x56, 0x42, 0x52, 0x49] {
                declaredFrames = Int64(frame[50]) << 24 | Int64(frame[51]) << 16 | Int64(frame[52]) << 8 | Int64(frame[53])
                dataOffset = first + Int64(header.frameBytes)
            }
        }
        _ = declaredFrames
        // Every frame's place and size (a packet index), resynchronising past junk.
        var index = PacketIndex(variableFrames: false)
        var offset = dataOffset
        var lastEnd = dataOffset
        var headerBytes = [UInt8](repeating: 0, count: 4)
        while offset + 4 <= end {
            guard store.read(at: offset, count: 4, into: &headerBytes) == 4 else { break }
            let h = headerBytes.withUnsafeBufferPointer { MPEGAudioFrameHeader($0.baseAddress!) }
            if let h, h.version == header.version, h.layer == header.layer, h.sampleRate == header.sampleRate {
                guard offset + Int64(h.frameBytes) <= end else { break }  // a cut-off last frame
                index.append(offset: offset - dataOffset, size: UInt32(h.frameBytes), frames: 0)
                offset += Int64(h.frameBytes)
                lastEnd = offset
                continue
            }
            guard let (next, _) = resync(store, from: offset + 1, limit: syncSearchBytes, end: end) else { break }
            offset = next
        }
        guard index.count > 0 else { return .failure(OSStatusError(kAudioFileInvalidFileError)) }
        format.mChannelsPerFrame = UInt32(header.channels)
        if var t = table {
            let total = Int64(index.count) * Int64(header.samplesPerFrame)
            t.mNumberValidFrames = max(0, total - Int64(t.mPrimingFrames) - Int64(t.mRemainderFrames))
            table = t
        }
        var layout = AudioFileLayout(fileType: kAudioFileMP3Type, format: format, dataOffset: dataOffset, dataByteCount: lastEnd - dataOffset,
                                     info: info, userData: userData)
        layout.packetIndex = index
        layout.packetTable = table
        layout.tailLocked = true
        return .success(layout)
    }

    static func create(format: AudioStreamBasicDescription, channelLayout: [UInt8]?, magicCookie: [UInt8]?) -> Result<([UInt8], AudioFileLayout), OSStatusError> {
        .failure(OSStatusError(kAudioFileUnsupportedDataFormatError))
    }

    static func sizeFields(_ layout: AudioFileLayout, dataByteCount: Int64) -> [(Int64, [UInt8])] { [] }
}
