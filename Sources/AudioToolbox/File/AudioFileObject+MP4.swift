/// Writing MPEG-4 files: the 'moov' is rebuilt from the layout at every header update. While the data
/// grows it goes into the space reserved in front of 'mdat' (so a writer killed mid-way leaves a file
/// whose 'moov' covers the packets of the last update) for as long as it fits; at close it goes there
/// if it fits, else after the data, and AudioFileOptimize moves it in front.
extension AudioFileObject {
    /// A file this engine is writing as MPEG-4.
    var isWrittenMP4: Bool {
        if case .mp4 = layout.headerPatch { return true }
        return false
    }

    static let mdatHeaderSize: Int64 = 16

    /// The 'mdat' header: a 64-bit size, so the data may pass 4 GiB.
    private func mdatHeader() -> [UInt8] {
        MP4Writer.be(1, 4) + Array("mdat".utf8) + MP4Writer.be(UInt64(Self.mdatHeaderSize + layout.dataByteCount), 8)
    }

    private static func freeBox(_ size: Int64) -> [UInt8] { MP4Writer.be(UInt64(size), 4) + Array("free".utf8) }

    func updateMP4Header(final: Bool) -> OSStatus {
        guard case .mp4(let reserveOffset, let reserveSize) = layout.headerPatch else { return noErr }
        let count = layout.packetIndex?.count ?? 0
        // While writing, a 'moov' that has outgrown the reserve is not built at all (the sample sizes
        // alone take 4 bytes a packet): the last one that fitted stays, covering the packets before it.
        if !final && 4 * Int64(count) + 2048 > reserveSize { return noErr }
        guard let moov = MP4Writer.movie(layout, dataOffset: layout.dataOffset) else {
            // No cookie yet (the codec's configuration is unknown): nothing can be described.
            return count == 0 || !final ? noErr : kAudioFileInvalidChunkError
        }
        let dataEnd = layout.dataOffset + layout.dataByteCount
        let size = Int64(moov.count)
        if size == reserveSize || size + 8 <= reserveSize {
            let padding = reserveSize - size
            guard store.write(at: layout.dataOffset - Self.mdatHeaderSize, mdatHeader()),
                  store.write(at: reserveOffset, moov + (padding > 0 ? Self.freeBox(padding) : [])),
                  store.truncate(to: dataEnd) else { return store.writeFailure }
        } else if final {
            // After the data; the reserve becomes free space (a stale 'moov' there would be read first).
            guard store.write(at: dataEnd, moov), store.truncate(to: dataEnd + size),
                  store.write(at: layout.dataOffset - Self.mdatHeaderSize, mdatHeader()),
                  store.write(at: reserveOffset, Self.freeBox(reserveSize)) else { return store.writeFailure }
        } else {
            return noErr
        }
        headerDirty = false
        patchedByteCount = layout.dataByteCount
        return noErr
    }

    /// kAudioFilePropertyReserveDuration: room in front of the data for the 'moov' of `seconds` of audio (the
    /// sample table's 4 bytes a packet and the chunk offsets, with slack), 32 KiB to 64 MiB; before any audio.
    func reserveMovie(seconds: Double) -> OSStatus {
        guard case .mp4 = layout.headerPatch else { return noErr }
        guard layout.dataByteCount == 0 else { return kAudioFileOperationNotSupportedError }
        guard seconds.isFinite, seconds >= 0 else { return kAudio_ParamError }
        let f = layout.format
        let packets = seconds * f.mSampleRate / Double(f.mFramesPerPacket > 0 ? f.mFramesPerPacket : 960)
        let bytes = Int64(min(max(packets * 5 + 8192, Double(MP4Container.reservedMovieBytes)), Double(1 << 26)))
        switch MP4Container.create(type: layout.fileType, format: f, channelLayout: layout.channelLayout, magicCookie: layout.magicCookie,
                                    reserve: bytes) {
        case .failure(let e): return e.status
        case .success(let (header, newLayout)):
            guard store.write(at: 0, header), store.truncate(to: Int64(header.count)) else { return store.writeFailure }
            let (table, info) = (layout.packetTable, layout.info)
            layout = newLayout
            layout.packetTable = table
            layout.info = info
            headerDirty = true
            return noErr
        }
    }

    /// Whether the 'moov' comes before the 'mdat' (MPEG-4; every other file is laid out as it stays).
    var isOptimized: Bool {
        guard [kAudioFileM4AType, kAudioFileMPEG4Type, kAudioFileM4BType, kAudioFile3GPType, kAudioFile3GP2Type].contains(layout.fileType) else { return true }
        let top = MP4Box.children(store, from: 0, to: store.size, limit: 64).map(\.type)
        guard let moov = top.firstIndex(of: OCAFormat.fourCharCode("moov")),
              let mdat = top.firstIndex(of: OCAFormat.fourCharCode("mdat")) else { return true }
        return moov < mdat
    }

    /// AudioFileOptimize: the header brought up to date and, for an MPEG-4 file whose 'moov' follows the
    /// data (one written here whose 'moov' outgrew the reserve, or any opened for writing), the 'moov' moved
    /// to just after 'ftyp': everything between moves up by the 'moov's size (from the end backwards, a MiB
    /// at a time) and the chunk offsets into it grow by as much.
    func optimize() -> OSStatus {
        let status = updateHeader()
        guard status == noErr, writable, !isOptimized else { return status }
        let top = MP4Box.children(store, from: 0, to: store.size, limit: 10_000)
        guard let ftyp = top.first, ftyp.type == OCAFormat.fourCharCode("ftyp"),
              let moov = top.first(where: { $0.type == OCAFormat.fourCharCode("moov") }), moov.start > ftyp.end else { return noErr }
        let delta = moov.end - moov.start
        guard delta <= 1 << 26, var bytes = store.bytes(at: moov.start, count: Int(delta)) else { return kAudioFileInvalidChunkError }
        let shifted = ftyp.end..<moov.start
        guard Self.shiftChunkOffsets(&bytes, in: 8..<bytes.count, of: shifted, by: delta) else { return kAudioFileOperationNotSupportedError }
        let block = 1 << 20
        var buffer = [UInt8](repeating: 0, count: block)
        var position = shifted.upperBound
        while position > shifted.lowerBound {
            let n = Int(min(Int64(block), position - shifted.lowerBound))
            position -= Int64(n)
            let got = buffer.withUnsafeMutableBytes { store.read(at: position, count: n, into: $0.baseAddress!) }
            guard got == n else { return kAudioFileInvalidFileError }
            let ok = buffer.withUnsafeBytes { store.write(at: position + delta, $0.baseAddress!, count: n) }
            guard ok else { return store.writeFailure }
        }
        guard store.write(at: ftyp.end, bytes) else { return store.writeFailure }
        if shifted.contains(layout.dataOffset) { layout.dataOffset += delta }
        if isWrittenMP4 {
            // The 'moov' now sits where a reserve of its size would be; the old reserve stays as free space.
            layout.headerPatch = .mp4(reserveOffset: ftyp.end, reserveSize: delta)
        }
        return noErr
    }

    /// Adds `delta` to every stco/co64 chunk offset inside `range` of a 'moov' that points into `moved`;
    /// false when a 32-bit offset would overflow.
    static func shiftChunkOffsets(_ b: inout [UInt8], in range: Range<Int>, of moved: Range<Int64>, by delta: Int64) -> Bool {
        func u32(_ at: Int) -> UInt64 { b[at..<at + 4].reduce(UInt64(0)) { $0 << 8 | UInt64($1) } }
        func put(_ v: UInt64, at: Int, _ n: Int) { for k in 0..<n { b[at + k] = UInt8(truncatingIfNeeded: v >> UInt64(8 * (n - 1 - k))) } }
        let containers = ["trak", "mdia", "minf", "stbl"].map(OCAFormat.fourCharCode)
        var at = range.lowerBound
        while at + 8 <= range.upperBound {
            var size = Int(u32(at))
            var body = at + 8
            if size == 1 {
                guard at + 16 <= range.upperBound else { return true }
                size = Int(clamping: u32(at + 8) << 32 | u32(at + 12))
                body = at + 16
            }
            guard size >= body - at, size <= range.upperBound - at else { return true }
            let type = UInt32(u32(at + 4))
            if containers.contains(type) {
                if !shiftChunkOffsets(&b, in: body..<at + size, of: moved, by: delta) { return false }
            } else if type == OCAFormat.fourCharCode("stco") || type == OCAFormat.fourCharCode("co64") {
                let width = type == OCAFormat.fourCharCode("co64") ? 8 : 4
                guard body + 8 <= at + size else { return true }
                let n = Int(u32(body + 4))
                for e in 0..<min(n, (at + size - body - 8) / width) {
                    let p = body + 8 + e * width
                    let v = width == 8 ? u32(p) << 32 | u32(p + 4) : u32(p)
                    guard v <= UInt64(Int64.max), moved.contains(Int64(v)) else { continue }
                    let shifted = v + UInt64(delta)
                    if width == 4 && shifted > UInt64(UInt32.max) { return false }
                    put(shifted, at: p, width)
                }
            }
            at += size
        }
        return true
    }
}
