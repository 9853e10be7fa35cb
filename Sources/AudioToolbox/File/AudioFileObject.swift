import Foundation

/// What an `AudioFileID` points at: an open container (WAVE, AIFF/AIFC or CAF), its parsed layout, and
/// the byte store behind it. Reading and writing go through packets (one frame each for linear PCM,
/// fixed-size runs of frames for constant-bit-rate codecs, the packet index for variable ones) or raw
/// data bytes; header sizes are patched when the data grows and at close. Never used on the render thread.
final class AudioFileObject: @unchecked Sendable {
    static let handles = LiveHandleTable()

    nonisolated(unsafe) static let containers: [AudioFileTypeID: AudioFileContainer.Type] = [
        kAudioFileWAVEType: WAVEContainer.self, kAudioFileAIFFType: AIFFContainer.self,
        kAudioFileAIFCType: AIFCContainer.self, kAudioFileCAFType: CAFContainer.self, kAudioFileRF64Type: RF64Container.self,
        kAudioFileMP3Type: MP3Container.self, kAudioFileFLACType: FLACContainer.self,
        kAudioFileM4AType: MP4Container.self, kAudioFileMPEG4Type: MPEG4Container.self, kAudioFileM4BType: M4BContainer.self,
        kAudioFileAAC_ADTSType: ADTSContainer.self, kOCAAudioFileOggType: OggContainer.self,
        kAudioFileAMRType: AMRContainer.self, kAudioFile3GPType: ThreeGPContainer.self, kAudioFile3GP2Type: ThreeGP2Container.self,
    ]

    let store: ByteStore
    let container: AudioFileContainer.Type
    var layout: AudioFileLayout
    let writable: Bool
    var headerDirty = false
    /// The data size the header last recorded (interim patches while writing).
    var patchedByteCount: Int64 = 0
    let lock = NSLock()
    /// Ogg being written: the packets not yet in pages, the page sequence and granule position.
    var oggWriter: OggStreamWriter?

    /// While a file grows its header is rewritten after about every second of audio (64 KiB to 8 MiB), so
    /// a writer killed mid-way leaves a file whose header covers all but the last second. CAF needs none:
    /// a new CAF's data size stays -1 ("to the end of the file") until it is closed.
    static let headerPatchSeconds = 1.0
    private var headerPatchInterval: Int64 {
        let perSecond = layout.format.mSampleRate * Double(layout.format.mBytesPerFrame) * Self.headerPatchSeconds
        return min(max(Int64(saturating: perSecond), 1 << 16), 1 << 23)
    }

    var handle: AudioFileID { OpaquePointer(Unmanaged.passUnretained(self).toOpaque()) }
    var format: AudioStreamBasicDescription { layout.format }
    var bytesPerPacket: Int64 { Int64(max(layout.format.mBytesPerPacket, 1)) }
    /// Variable-bit-rate data: packets are found through the index.
    var isVariable: Bool { layout.packetIndex != nil }
    var packetCount: Int64 {
        if let index = layout.packetIndex { return Int64(index.count) }
        return layout.dataByteCount / bytesPerPacket
    }
    var framesPerPacket: UInt32 { max(layout.format.mFramesPerPacket, 1) }
    /// Every frame the packets decode to, priming and remainder included.
    var totalFrames: Int64 {
        if let index = layout.packetIndex, layout.format.mFramesPerPacket == 0 { return index.totalVariableFrames }
        return packetCount * Int64(framesPerPacket)
    }
    /// The frames a reader should hear: after the priming frames, the valid ones; everything when there
    /// is no packet table. Clamped to the frames really there. (Linear PCM: frames are packets.)
    var playableRange: (start: Int64, count: Int64) {
        let total = totalFrames
        guard let t = layout.packetTable else { return (0, total) }
        let start = min(max(0, Int64(t.mPrimingFrames)), total)
        return (start, min(max(0, t.mNumberValidFrames), total - start))
    }

    /// The largest packet in the data (the format's size when constant).
    var maximumPacketSize: UInt32 { layout.packetIndex?.maximumSize ?? layout.format.mBytesPerPacket }

    init(store: ByteStore, container: AudioFileContainer.Type, layout: AudioFileLayout, writable: Bool) {
        self.store = store
        self.container = container
        self.layout = layout
        self.writable = writable
    }

    /// Opens an existing file: the hint first, then every container in turn.
    static func open(_ store: ByteStore, hint: AudioFileTypeID, writable: Bool) -> Result<AudioFileObject, OSStatusError> {
        // MPEG audio last: it has no signature, only frame syncs, so the others get the first look.
        var order: [AudioFileTypeID] = [kAudioFileWAVEType, kAudioFileAIFFType, kAudioFileCAFType, kAudioFileFLACType, kAudioFileM4AType,
                                        kOCAAudioFileOggType, kAudioFileAMRType, kAudioFileAAC_ADTSType, kAudioFileMP3Type]
        let family = hint == kAudioFileAIFCType ? kAudioFileAIFFType : hint == kAudioFileRF64Type ? kAudioFileWAVEType
            : hint == kAudioFileMP2Type || hint == kAudioFileMP1Type ? kAudioFileMP3Type
            : hint == kAudioFileMPEG4Type || hint == kAudioFileM4BType || hint == kAudioFile3GPType || hint == kAudioFile3GP2Type ? kAudioFileM4AType : hint
        if let h = order.firstIndex(of: family) { order.swapAt(0, h) }
        var firstError: OSStatusError?
        for type in order {
            switch containers[type]!.parse(store) {
            case .success(var layout):
                // Appending must not overwrite what follows the audio: CAF, WAVE and AIFF keep those chunks and move
                // them; anything else there (a chunk too large to keep, bytes that are not chunks) makes growing the
                // data an error instead.
                let tail = store.size - layout.paddedDataEnd
                layout.tailLocked = (tail > 0 && tail != layout.trailingChunkByteCount)
                    || (layout.packetTable != nil && layout.packetIndex == nil)
                return .success(AudioFileObject(store: store, container: containers[layout.fileType] ?? containers[type]!,
                                                layout: layout, writable: writable))
            case .failure(let e):
                // A file that is recognisably this container but broken reports its own error.
                if e.status != kAudioFileInvalidFileError && firstError == nil { firstError = e }
            }
        }
        return .failure(firstError ?? OSStatusError(kAudioFileUnsupportedFileTypeError))
    }

    /// Creates a new file of `type` holding `format`.
    static func create(_ store: ByteStore, type: AudioFileTypeID, format: AudioStreamBasicDescription) -> Result<AudioFileObject, OSStatusError> {
        guard let container = containers[type] else { return .failure(OSStatusError(kAudioFileUnsupportedFileTypeError)) }
        switch container.create(format: format, channelLayout: nil, magicCookie: nil) {
        case .failure(let e): return .failure(e)
        case .success(let (header, layout)):
            // Write, then cut to length: the file is never seen empty (a writer killed here leaves a header).
            guard store.write(at: 0, header), store.truncate(to: Int64(header.count)) else { return .failure(OSStatusError(store.writeFailure)) }
            let file = AudioFileObject(store: store, container: container, layout: layout, writable: true)
            file.headerDirty = true
            return .success(file)
        }
    }

    /// Rewrites the header with a channel layout (allowed before any audio is written).
    func setChannelLayout(_ bytes: [UInt8]) -> OSStatus {
        guard writable else { return kAudioFilePermissionsError }
        guard layout.dataByteCount == 0 else { return kAudioFileOperationNotSupportedError }
        switch container.create(format: layout.format, channelLayout: bytes, magicCookie: layout.magicCookie) {
        case .failure(let e): return e.status
        case .success(let (header, newLayout)):
            guard store.write(at: 0, header), store.truncate(to: Int64(header.count)) else { return store.writeFailure }
            let table = layout.packetTable, info = layout.info
            layout = newLayout
            layout.packetTable = table
            if layout.fileType == kOCAAudioFileOggType && !info.isEmpty {
                // Ogg: the comments set before the cookie stay in the new header pages.
                layout.info = info
                let status = rewriteOggHeader()
                if status != noErr { return status }
            }
            headerDirty = true
            return noErr
        }
    }

    // MARK: Packets

    /// Reads up to `count` whole packets from `start` that fit in `capacity` bytes, with a description of
    /// each when `descriptions` is given (offsets from the buffer's start). Returns packets and bytes read.
    func readPackets(from start: Int64, count: Int, capacity: Int, into buffer: UnsafeMutableRawPointer?,
                     descriptions: UnsafeMutablePointer<AudioStreamPacketDescription>?) -> (packets: Int, bytes: Int, status: OSStatus) {
        guard start >= 0 else { return (0, 0, kAudioFileInvalidPacketOffsetError) }
        let available = max(0, packetCount - start)
        guard let index = layout.packetIndex else {
            let packets = Int(min(Int64(count), available, Int64(capacity) / bytesPerPacket))
            guard let buffer else { return (packets, packets * Int(bytesPerPacket), noErr) }
            guard packets > 0 else {
                return (0, 0, available == 0 || capacity >= Int(bytesPerPacket) ? noErr : kAudioFileBadPropertySizeError)
            }
            let (n, status) = readBytes(at: start * bytesPerPacket, count: packets * Int(bytesPerPacket), into: buffer)
            let whole = n / Int(bytesPerPacket)
            if let descriptions {
                for i in 0..<whole {
                    descriptions[i] = AudioStreamPacketDescription(mStartOffset: Int64(i) * bytesPerPacket, mVariableFramesInPacket: 0,
                                                                   mDataByteSize: UInt32(bytesPerPacket))
                }
            }
            return (whole, whole * Int(bytesPerPacket), status == kAudioFileEndOfFileError ? noErr : status)
        }
        let first = Int(start)
        var packets = 0, bytes = 0
        // One read covers the packets' span: packets are in order but may have gaps (other tracks' data
        // in an MP4), so the span, not the sum of sizes, must fit.
        while Int64(packets) < min(Int64(count), available) {
            let span = Int(index.offsets[first + packets] - index.offsets[first]) + Int(index.sizes[first + packets])
            guard span <= capacity, index.offsets[first + packets] >= index.offsets[first] else { break }
            bytes = span
            packets += 1
        }
        if packets == 0 { return (0, 0, available == 0 ? noErr : kAudioFileBadPropertySizeError) }
        guard let buffer else { return (packets, bytes, noErr) }
        // Packets are laid end to end in the data, so one read takes them all.
        let base = index.offsets[first]
        let (n, status) = readBytes(at: base, count: Int(index.offsets[first + packets - 1] - base) + Int(index.sizes[first + packets - 1]), into: buffer)
        var whole = 0
        for i in 0..<packets {
            let offset = index.offsets[first + i] - base, size = index.sizes[first + i]
            guard offset + Int64(size) <= Int64(n) else { break }
            descriptions?[i] = AudioStreamPacketDescription(mStartOffset: offset,
                                                            mVariableFramesInPacket: layout.format.mFramesPerPacket == 0 ? index.frames(at: first + i, constant: 0) : 0,
                                                            mDataByteSize: size)
            whole += 1
        }
        let end = whole > 0 ? Int(index.offsets[first + whole - 1] - base) + Int(index.sizes[first + whole - 1]) : 0
        return (whole, end, whole == packets || status == kAudioFileEndOfFileError ? noErr : status)
    }

    /// Writes packets at `start`. Constant-size packets go where their number puts them; variable ones
    /// are appended (at the packet count) and recorded in the index, so their descriptions are required.
    func writePackets(at start: Int64, count: Int, bytes: Int, from buffer: UnsafeRawPointer,
                      descriptions: UnsafePointer<AudioStreamPacketDescription>?) -> OSStatus {
        guard start >= 0 else { return kAudioFileInvalidPacketOffsetError }
        if layout.fileType == kOCAAudioFileOggType {
            guard start == packetCount else { return kAudioFileInvalidPacketOffsetError }
            return writeOggPackets(count: count, bytes: bytes, from: buffer, descriptions: descriptions)
        }
        guard var index = layout.packetIndex else {
            return writeBytes(at: start * bytesPerPacket, count: count * Int(bytesPerPacket), from: buffer)
        }
        guard start == packetCount else { return kAudioFileInvalidPacketOffsetError }
        guard let descriptions else { return kAudio_ParamError }
        var offset = index.dataEnd
        for i in 0..<count {
            let d = descriptions[i]
            guard d.mStartOffset >= 0, d.mStartOffset + Int64(d.mDataByteSize) <= Int64(bytes) else { return kAudio_ParamError }
            if layout.format.mFramesPerPacket == 0 && d.mVariableFramesInPacket == 0 { return kAudio_ParamError }
            if layout.fileType == kAudioFileAAC_ADTSType {
                // ADTS: each packet is a frame, its header first.
                guard let header = ADTSContainer.frameHeader(layout.format, payloadSize: Int(d.mDataByteSize)) else { return kAudio_ParamError }
                let frame = header + Array(UnsafeRawBufferPointer(start: buffer + Int(d.mStartOffset), count: Int(d.mDataByteSize)))
                let status = frame.withUnsafeBytes { writeBytes(at: offset, count: frame.count, from: $0.baseAddress!) }
                guard status == noErr else { return status }
                offset += Int64(header.count)
            } else {
                let status = writeBytes(at: offset, count: Int(d.mDataByteSize), from: buffer + Int(d.mStartOffset))
                guard status == noErr else { return status }
            }
            index.append(offset: offset, size: d.mDataByteSize, frames: d.mVariableFramesInPacket)
            offset += Int64(d.mDataByteSize)
        }
        layout.packetIndex = index
        headerDirty = true
        return noErr
    }

    /// Sets the priming and remainder frames (and valid frames) a finished file records.
    func setPacketTableInfo(_ info: AudioFilePacketTableInfo) -> OSStatus {
        guard writable else { return kAudioFilePermissionsError }
        guard layout.fileType == kAudioFileCAFType || layout.fileType == kAudioFileFLACType || isWrittenMP4
                || layout.fileType == kOCAAudioFileOggType else { return kAudioFileOperationNotSupportedError }
        guard info.mPrimingFrames >= 0, info.mRemainderFrames >= 0 else { return kAudio_ParamError }
        layout.packetTable = info
        headerDirty = true
        return noErr
    }

    /// Sets the magic cookie (before any audio is written: it lives in the header).
    func setMagicCookie(_ bytes: [UInt8]) -> OSStatus {
        guard writable else { return kAudioFilePermissionsError }
        if isWrittenMP4 {
            // The cookie lives in the 'moov', built anew at each header update.
            guard MP4Writer.sampleEntry(layout.format, cookie: bytes) != nil else { return kAudioFileInvalidChunkError }
            layout.magicCookie = bytes
            headerDirty = true
            return noErr
        }
        if layout.fileType == kAudioFileFLACType || (layout.fileType == kOCAAudioFileOggType && layout.format.mFormatID == kAudioFormatFLAC && oggWriter != nil) {
            // STREAMINFO sits at a fixed place: it is rewritten in place with the next header update (Ogg FLAC: once
            // packets are written, even if still held for their page, as the stream's serial must not change).
            guard FLACCookie.streamInfo(bytes) != nil else { return kAudioFileInvalidChunkError }
            layout.magicCookie = bytes
            headerDirty = true
            return noErr
        }
        if layout.dataByteCount > 0 {
            // After audio is written, a CAF's cookie can still be replaced by one of the same size (an encoder's
            // final cookie, as the book's recorder copies it after recording): in place, in the 'kuki' chunk.
            guard layout.fileType == kAudioFileCAFType, let old = layout.magicCookie, old.count == bytes.count else {
                return kAudioFileOperationNotSupportedError
            }
            if old == bytes { return noErr }
            guard let offset = cookieOffsetInCAFHeader(), store.write(at: offset, bytes) else { return kAudioFileOperationNotSupportedError }
            layout.magicCookie = bytes
            return noErr
        }
        switch container.create(format: layout.format, channelLayout: layout.channelLayout, magicCookie: bytes) {
        case .failure(let e): return e.status
        case .success(let (header, newLayout)):
            guard store.write(at: 0, header), store.truncate(to: Int64(header.count)) else { return store.writeFailure }
            let table = layout.packetTable, info = layout.info
            layout = newLayout
            layout.packetTable = table
            if layout.fileType == kOCAAudioFileOggType && !info.isEmpty {
                // Ogg: the comments set before the cookie stay in the new header pages.
                layout.info = info
                let status = rewriteOggHeader()
                if status != noErr { return status }
            }
            headerDirty = true
            return noErr
        }
    }

    /// Where the 'kuki' chunk's body starts in a CAF file's header, by walking the chunks before the data.
    private func cookieOffsetInCAFHeader() -> Int64? {
        var at: Int64 = 8
        var header = [UInt8](repeating: 0, count: 12)
        while at + 12 <= layout.dataOffset {
            let got = header.withUnsafeMutableBytes { store.read(at: at, count: 12, into: $0.baseAddress!) }
            guard got == 12 else { return nil }
            let type = header[0..<4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            let size = header[4..<12].reduce(Int64(0)) { $0 << 8 | Int64($1) }
            if type == OCAFormat.fourCharCode("kuki") { return at + 12 }
            guard size >= 0, size <= layout.dataOffset else { return nil }
            at += 12 + size
        }
        return nil
    }

    // MARK: Data

    func readBytes(at start: Int64, count: Int, into buffer: UnsafeMutableRawPointer) -> (Int, OSStatus) {
        guard start >= 0 else { return (0, kAudioFilePositionError) }
        if start >= layout.dataByteCount { return (0, kAudioFileEndOfFileError) }
        let n = Int(min(Int64(count), layout.dataByteCount - start))
        let got = layout.dataSegments.map { $0.read(store, at: start, count: n, into: buffer) }
            ?? store.read(at: layout.dataOffset + start, count: n, into: buffer)
        // A read the device failed (EIO) is an I/O error, not the end of the audio.
        if got < n && store.readErrno != 0 { return (got, FileSystemStatus.from(errno: store.readErrno)) }
        return (got, got < count ? kAudioFileEndOfFileError : noErr)
    }

    func writeBytes(at start: Int64, count: Int, from buffer: UnsafeRawPointer) -> OSStatus {
        guard writable else { return kAudioFilePermissionsError }
        guard start >= 0 else { return kAudioFilePositionError }
        // Ogg data is pages, written from packets only.
        if layout.fileType == kOCAAudioFileOggType { return kAudioFileOperationNotSupportedError }
        let end = start + Int64(count)
        if layout.fileType == kAudioFileWAVEType || layout.fileType == kAudioFileAIFFType || layout.fileType == kAudioFileAIFCType,
           layout.dataOffset + end > Int64(UInt32.max) {
            return kAudioFileDoesNotAllow64BitDataSizeError
        }
        if end > layout.dataByteCount && layout.tailLocked { return kAudioFileOperationNotSupportedError }
        guard store.write(at: layout.dataOffset + start, buffer, count: count) else { return store.writeFailure }
        if end > layout.dataByteCount {
            layout.dataByteCount = end
            headerDirty = true
            if layout.fileType != kAudioFileCAFType && end - patchedByteCount >= headerPatchInterval { return updateHeader(final: false) }
        }
        return noErr
    }

    func markHeaderDirty() { headerDirty = true }

    /// Brings the header's size fields up to date (and pads RIFF/AIFF data to an even length). `final`
    /// is false for the interim updates made while the data grows.
    func updateHeader(final: Bool = true) -> OSStatus {
        guard writable, headerDirty else { return noErr }
        if case .mp4 = layout.headerPatch { return updateMP4Header(final: final) }
        if layout.fileType == kOCAAudioFileOggType { return updateOggHeader(final: final) }
        for (offset, bytes) in container.sizeFields(layout, dataByteCount: layout.dataByteCount) {
            guard store.write(at: offset, bytes) else { return store.writeFailure }
        }
        let padded = [kAudioFileWAVEType, kAudioFileRF64Type, kAudioFileAIFFType, kAudioFileAIFCType].contains(layout.fileType)
        if layout.dataByteCount & 1 == 1 && padded {
            store.write(at: layout.dataOffset + layout.dataByteCount, [0])
        }
        if layout.fileType == kAudioFileCAFType && (layout.packetIndex != nil || layout.packetTable != nil) {
            // The packet table follows the data, rewritten whole with each header update.
            let body = CAFContainer.packetTableBody(layout, packetCount: packetCount, validFrames: totalFrames)
            layout.trailingChunks.removeAll { $0.0 == CAFContainer.pakt }
            layout.trailingChunks.insert((CAFContainer.pakt, body), at: 0)
        }
        if !layout.trailingChunks.isEmpty {
            // Chunks after the (now sized) audio data; rewritten whole each time.
            let bytes = layout.trailingChunkBytes, end = layout.paddedDataEnd
            guard store.write(at: end, bytes), store.truncate(to: end + Int64(bytes.count)) else { return store.writeFailure }
        }
        headerDirty = false
        patchedByteCount = layout.dataByteCount
        return noErr
    }
}
