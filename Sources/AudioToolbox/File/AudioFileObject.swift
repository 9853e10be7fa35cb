import Foundation

/// What an `AudioFileID` points at: an open container (WAVE, AIFF/AIFC or CAF) holding linear PCM,
/// its parsed layout, and the byte store behind it. Reading and writing go through packets (one PCM
/// frame each) or raw data bytes; header sizes are patched when the data grows and at close.
/// Never used on the render thread.
final class AudioFileObject: @unchecked Sendable {
    static let handles = LiveHandleTable()

    nonisolated(unsafe) static let containers: [AudioFileTypeID: AudioFileContainer.Type] = [
        kAudioFileWAVEType: WAVEContainer.self, kAudioFileAIFFType: AIFFContainer.self,
        kAudioFileAIFCType: AIFCContainer.self, kAudioFileCAFType: CAFContainer.self, kAudioFileRF64Type: RF64Container.self,
    ]

    let store: ByteStore
    let container: AudioFileContainer.Type
    var layout: AudioFileLayout
    let writable: Bool
    private var headerDirty = false
    /// The data size the header last recorded (interim patches while writing).
    private var patchedByteCount: Int64 = 0
    let lock = NSLock()

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
    var packetCount: Int64 { layout.dataByteCount / bytesPerPacket }
    /// The frames a reader should hear (linear PCM: one frame per packet): after the priming frames, the
    /// valid ones; everything when there is no packet table. Clamped to the data really there.
    var playableRange: (start: Int64, count: Int64) {
        guard let t = layout.packetTable else { return (0, packetCount) }
        let start = min(max(0, Int64(t.mPrimingFrames)), packetCount)
        return (start, min(max(0, t.mNumberValidFrames), packetCount - start))
    }

    init(store: ByteStore, container: AudioFileContainer.Type, layout: AudioFileLayout, writable: Bool) {
        self.store = store
        self.container = container
        self.layout = layout
        self.writable = writable
    }

    /// Opens an existing file: the hint first, then every container in turn.
    static func open(_ store: ByteStore, hint: AudioFileTypeID, writable: Bool) -> Result<AudioFileObject, OSStatusError> {
        var order: [AudioFileTypeID] = [kAudioFileWAVEType, kAudioFileAIFFType, kAudioFileCAFType]
        let family = hint == kAudioFileAIFCType ? kAudioFileAIFFType : hint == kAudioFileRF64Type ? kAudioFileWAVEType : hint
        if let h = order.firstIndex(of: family) { order.swapAt(0, h) }
        var firstError: OSStatusError?
        for type in order {
            switch containers[type]!.parse(store) {
            case .success(var layout):
                // Appending must not overwrite what follows the audio: CAF keeps those chunks and moves them;
                // anything else (a WAVE LIST after data, say) makes growing the data an error instead.
                let pad: Int64 = layout.fileType == kAudioFileCAFType ? 0 : layout.dataByteCount & 1
                let tail = store.size - (layout.dataOffset + layout.dataByteCount + pad)
                let kept = layout.trailingChunks.reduce(Int64(0)) { $0 + 12 + Int64($1.1.count) }
                layout.tailLocked = (tail > 0 && tail != kept) || layout.packetTable != nil
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
        switch container.create(format: format, channelLayout: nil) {
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
        switch container.create(format: layout.format, channelLayout: bytes) {
        case .failure(let e): return e.status
        case .success(let (header, newLayout)):
            guard store.write(at: 0, header), store.truncate(to: Int64(header.count)) else { return store.writeFailure }
            layout = newLayout
            headerDirty = true
            return noErr
        }
    }

    // MARK: Data

    func readBytes(at start: Int64, count: Int, into buffer: UnsafeMutableRawPointer) -> (Int, OSStatus) {
        guard start >= 0 else { return (0, kAudioFilePositionError) }
        if start >= layout.dataByteCount { return (0, kAudioFileEndOfFileError) }
        let n = Int(min(Int64(count), layout.dataByteCount - start))
        let got = store.read(at: layout.dataOffset + start, count: n, into: buffer)
        // A read the device failed (EIO) is an I/O error, not the end of the audio.
        if got < n && store.readErrno != 0 { return (got, FileSystemStatus.from(errno: store.readErrno)) }
        return (got, got < count ? kAudioFileEndOfFileError : noErr)
    }

    func writeBytes(at start: Int64, count: Int, from buffer: UnsafeRawPointer) -> OSStatus {
        guard writable else { return kAudioFilePermissionsError }
        guard start >= 0 else { return kAudioFilePositionError }
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
            if layout.fileType != kAudioFileCAFType && end - patchedByteCount >= headerPatchInterval { return updateHeader() }
        }
        return noErr
    }

    func markHeaderDirty() { headerDirty = true }

    /// Brings the header's size fields up to date (and pads RIFF/AIFF data to an even length).
    func updateHeader() -> OSStatus {
        guard writable, headerDirty else { return noErr }
        for (offset, bytes) in container.sizeFields(layout, dataByteCount: layout.dataByteCount) {
            guard store.write(at: offset, bytes) else { return store.writeFailure }
        }
        if layout.dataByteCount & 1 == 1 && layout.fileType != kAudioFileCAFType {
            store.write(at: layout.dataOffset + layout.dataByteCount, [0])
        }
        if !layout.trailingChunks.isEmpty {
            // CAF chunks after the (now sized) audio data; rewritten whole each time.
            var w = ByteWriter()
            for (id, body) in layout.trailingChunks { w.fourCC(id); w.be(UInt64(body.count), 8); w.append(body) }
            let end = layout.dataOffset + layout.dataByteCount
            guard store.write(at: end, w.bytes), store.truncate(to: end + Int64(w.bytes.count)) else { return store.writeFailure }
        }
        headerDirty = false
        patchedByteCount = layout.dataByteCount
        return noErr
    }
}
