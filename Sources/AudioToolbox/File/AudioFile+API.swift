import Foundation

// Audio File Services (AudioFile.h) for WAVE, AIFF/AIFC and CAF holding linear PCM.

private func withFile(_ id: AudioFileID?, _ body: (AudioFileObject) -> OSStatus) -> OSStatus {
    guard let f = AudioFileObject.handles.object(id.map { UnsafeMutableRawPointer($0) }, as: AudioFileObject.self) else {
        return kAudio_ParamError
    }
    f.lock.lock()
    defer { f.lock.unlock() }
    return body(f)
}

private func register(_ result: Result<AudioFileObject, OSStatusError>, _ out: UnsafeMutablePointer<AudioFileID?>) -> OSStatus {
    switch result {
    case .success(let f):
        out.pointee = OpaquePointer(AudioFileObject.handles.add(f))
        return noErr
    case .failure(let e):
        return e.status
    }
}

/// The file-system path of a URL, as Apple's CFURLGetFileSystemRepresentation gives it: for file URLs and
/// for URLs without a scheme (`URL(string: "./x.aif")`, a path relative to the working directory). Read
/// through NSURL's own accessors: bridging a malformed NSURL (an empty path) to `URL` traps.
func fileSystemPath(_ url: CFURL) -> Result<String, OSStatusError> {
    guard url.scheme == nil || url.isFileURL else { return .failure(OSStatusError(kAudio_BadFilePathError)) }
    // An empty path names no file, as open("") says (ENOENT).
    guard let path = url.path, !path.isEmpty else { return .failure(OSStatusError(kAudio_FileNotFoundError)) }
    return .success(path)
}

/// Opens a URL's file. Non-blocking first, so that a FIFO without a writer (or a device) cannot hang the
/// caller; anything but a regular file is refused as an invalid file (Apple's parsers find no audio file
/// in one), and the descriptor is made blocking again for ordinary reads and writes.
private func openDescriptor(_ url: CFURL, flags: Int32) -> Result<Int32, OSStatusError> {
    let path: String
    switch fileSystemPath(url) {
    case .failure(let e): return .failure(e)
    case .success(let p): path = p
    }
    let fd = Foundation.open(path, flags | O_CLOEXEC | O_NONBLOCK, 0o644)
    guard fd >= 0 else {
        switch errno {
        case ENOENT: return .failure(OSStatusError(kAudio_FileNotFoundError))
        case EACCES, EPERM, EROFS: return .failure(OSStatusError(kAudio_FilePermissionError))
        case EMFILE, ENFILE: return .failure(OSStatusError(kAudio_TooManyFilesOpenError))
        case EISDIR, ENXIO: return .failure(OSStatusError(kAudioFileInvalidFileError))
        default: return .failure(OSStatusError(kAudio_BadFilePathError))
        }
    }
    var st = stat()
    guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else {
        close(fd)
        return .failure(OSStatusError(kAudioFileInvalidFileError))
    }
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
    return .success(fd)
}

/// Creates a new audio file. With kAudioFileFlags_EraseFile an existing file is replaced; without it,
/// an existing file makes this fail (kAudio_FilePermissionError), as Apple's does.
@discardableResult
public func AudioFileCreateWithURL(_ inFileRef: CFURL, _ inFileType: AudioFileTypeID,
                                   _ inFormat: UnsafePointer<AudioStreamBasicDescription>, _ inFlags: AudioFileFlags,
                                   _ outAudioFile: UnsafeMutablePointer<AudioFileID?>) -> OSStatus {
    outAudioFile.pointee = nil
    guard let container = AudioFileObject.containers[inFileType] else { return kAudioFileUnsupportedFileTypeError }
    // The format first: a refused one leaves no file behind and an existing one untouched.
    if case .failure(let e) = container.create(format: inFormat.pointee, channelLayout: nil, magicCookie: nil) { return e.status }
    let flags = O_RDWR | O_CREAT | (inFlags.contains(.eraseFile) ? 0 : O_EXCL)
    switch openDescriptor(inFileRef, flags: flags) {
    case .failure(let e): return e.status == kAudio_FileNotFoundError ? kAudio_BadFilePathError : e.status
    case .success(let fd):
        // Emptied only now that the file is known to be a regular file and the format is writable.
        return register(AudioFileObject.create(ByteStore(.file(fd), writable: true), type: inFileType, format: inFormat.pointee), outAudioFile)
    }
}

/// Opens an existing audio file; the type hint is tried first (0: no hint).
@discardableResult
public func AudioFileOpenURL(_ inFileRef: CFURL, _ inPermissions: AudioFilePermissions, _ inFileTypeHint: AudioFileTypeID,
                             _ outAudioFile: UnsafeMutablePointer<AudioFileID?>) -> OSStatus {
    outAudioFile.pointee = nil
    let writable = inPermissions == .writePermission || inPermissions == .readWritePermission
    switch openDescriptor(inFileRef, flags: writable ? O_RDWR : O_RDONLY) {
    case .failure(let e): return e.status
    case .success(let fd):
        return register(AudioFileObject.open(ByteStore(.file(fd), writable: writable), hint: inFileTypeHint, writable: writable), outAudioFile)
    }
}

/// Opens a file whose bytes the client provides through callbacks.
@discardableResult
public func AudioFileOpenWithCallbacks(_ inClientData: UnsafeMutableRawPointer, _ inReadFunc: AudioFile_ReadProc,
                                       _ inWriteFunc: AudioFile_WriteProc?, _ inGetSizeFunc: AudioFile_GetSizeProc,
                                       _ inSetSizeFunc: AudioFile_SetSizeProc?, _ inFileTypeHint: AudioFileTypeID,
                                       _ outAudioFile: UnsafeMutablePointer<AudioFileID?>) -> OSStatus {
    outAudioFile.pointee = nil
    let store = ByteStore(.callbacks(client: inClientData, read: inReadFunc, write: inWriteFunc, getSize: inGetSizeFunc,
                                     setSize: inSetSizeFunc), writable: inWriteFunc != nil)
    return register(AudioFileObject.open(store, hint: inFileTypeHint, writable: inWriteFunc != nil), outAudioFile)
}

/// Creates a new file through client callbacks (they must support writing and resizing).
@discardableResult
public func AudioFileInitializeWithCallbacks(_ inClientData: UnsafeMutableRawPointer, _ inReadFunc: AudioFile_ReadProc,
                                             _ inWriteFunc: AudioFile_WriteProc, _ inGetSizeFunc: AudioFile_GetSizeProc,
                                             _ inSetSizeFunc: AudioFile_SetSizeProc, _ inFileType: AudioFileTypeID,
                                             _ inFormat: UnsafePointer<AudioStreamBasicDescription>, _ inFlags: AudioFileFlags,
                                             _ outAudioFile: UnsafeMutablePointer<AudioFileID?>) -> OSStatus {
    outAudioFile.pointee = nil
    let store = ByteStore(.callbacks(client: inClientData, read: inReadFunc, write: inWriteFunc, getSize: inGetSizeFunc,
                                     setSize: inSetSizeFunc), writable: true)
    return register(AudioFileObject.create(store, type: inFileType, format: inFormat.pointee), outAudioFile)
}

/// Writes the final header and closes the file.
@discardableResult
public func AudioFileClose(_ inAudioFile: AudioFileID) -> OSStatus {
    guard let f = AudioFileObject.handles.remove(UnsafeMutableRawPointer(inAudioFile), as: AudioFileObject.self) else {
        return kAudio_ParamError
    }
    f.lock.lock()
    defer { f.lock.unlock() }
    return f.updateHeader()
}

/// Brings the header up to date; an MPEG-4 file whose 'moov' follows the data gets it moved in front
/// (every other file is already laid out with the data last).
@discardableResult
public func AudioFileOptimize(_ inAudioFile: AudioFileID) -> OSStatus {
    withFile(inAudioFile) { $0.optimize() }
}

/// Reads audio data bytes, from `inStartingByte` within the data. Short at the end with
/// kAudioFileEndOfFileError.
@discardableResult
public func AudioFileReadBytes(_ inAudioFile: AudioFileID, _ inUseCache: Bool, _ inStartingByte: Int64,
                               _ ioNumBytes: UnsafeMutablePointer<UInt32>, _ outBuffer: UnsafeMutableRawPointer) -> OSStatus {
    withFile(inAudioFile) { f in
        let (n, status) = f.readBytes(at: inStartingByte, count: Int(ioNumBytes.pointee), into: outBuffer)
        ioNumBytes.pointee = UInt32(n)
        return n > 0 && status == kAudioFileEndOfFileError ? noErr : status
    }
}

/// Apple's `AudioFileWriteBytes`: writes audio data bytes at a byte offset.
@discardableResult
public func AudioFileWriteBytes(_ inAudioFile: AudioFileID, _ inUseCache: Bool, _ inStartingByte: Int64,
                                _ ioNumBytes: UnsafeMutablePointer<UInt32>, _ inBuffer: UnsafeRawPointer) -> OSStatus {
    withFile(inAudioFile) { f in
        let status = f.writeBytes(at: inStartingByte, count: Int(ioNumBytes.pointee), from: inBuffer)
        if status != noErr { ioNumBytes.pointee = 0 }
        return status
    }
}

/// Reads whole packets. `ioNumBytes` is the buffer's size on entry and the bytes read on exit;
/// `ioNumPackets` likewise for packets. Variable-bit-rate data needs `outPacketDescriptions` to be found
/// in the buffer. Past the end: 0 packets and noErr (end of file).
@discardableResult
public func AudioFileReadPacketData(_ inAudioFile: AudioFileID, _ inUseCache: Bool, _ ioNumBytes: UnsafeMutablePointer<UInt32>,
                                    _ outPacketDescriptions: UnsafeMutablePointer<AudioStreamPacketDescription>?,
                                    _ inStartingPacket: Int64, _ ioNumPackets: UnsafeMutablePointer<UInt32>,
                                    _ outBuffer: UnsafeMutableRawPointer?) -> OSStatus {
    withFile(inAudioFile) { f in
        guard inStartingPacket >= 0 else { return kAudioFileInvalidPacketOffsetError }
        let (packets, bytes, status) = f.readPackets(from: inStartingPacket, count: Int(ioNumPackets.pointee), capacity: Int(ioNumBytes.pointee),
                                                     into: outBuffer, descriptions: outPacketDescriptions)
        ioNumPackets.pointee = UInt32(packets)
        ioNumBytes.pointee = UInt32(bytes)
        return status
    }
}

/// The older form of AudioFileReadPacketData: the buffer must hold every requested packet.
@available(*, deprecated, renamed: "AudioFileReadPacketData")
@discardableResult
public func AudioFileReadPackets(_ inAudioFile: AudioFileID, _ inUseCache: Bool, _ outNumBytes: UnsafeMutablePointer<UInt32>,
                                 _ outPacketDescriptions: UnsafeMutablePointer<AudioStreamPacketDescription>?,
                                 _ inStartingPacket: Int64, _ ioNumPackets: UnsafeMutablePointer<UInt32>,
                                 _ outBuffer: UnsafeMutableRawPointer?) -> OSStatus {
    outNumBytes.pointee = UInt32.max
    return AudioFileReadPacketData(inAudioFile, inUseCache, outNumBytes, outPacketDescriptions, inStartingPacket, ioNumPackets, outBuffer)
}

/// Writes packets at `inStartingPacket`. For constant-bit-rate data `inNumBytes` is not needed to
/// find the packets, so a call that passes the packet count there (as the book's chapter 6 does) works;
/// variable-bit-rate packets are appended and need their descriptions.
@discardableResult
public func AudioFileWritePackets(_ inAudioFile: AudioFileID, _ inUseCache: Bool, _ inNumBytes: UInt32,
                                  _ inPacketDescriptions: UnsafePointer<AudioStreamPacketDescription>?, _ inStartingPacket: Int64,
                                  _ ioNumPackets: UnsafeMutablePointer<UInt32>, _ inBuffer: UnsafeRawPointer) -> OSStatus {
    withFile(inAudioFile) { f in
        let status = f.writePackets(at: inStartingPacket, count: Int(ioNumPackets.pointee), bytes: Int(inNumBytes), from: inBuffer,
                                    descriptions: inPacketDescriptions)
        if status != noErr { ioNumPackets.pointee = 0 }
        return status
    }
}

/// Apple's `AudioFileGetPropertyInfo`: a property's size and writability.
@discardableResult
public func AudioFileGetPropertyInfo(_ inAudioFile: AudioFileID, _ inPropertyID: AudioFilePropertyID,
                                     _ outDataSize: UnsafeMutablePointer<UInt32>?, _ isWritable: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    withFile(inAudioFile) { f in
        guard let (size, writable) = f.propertyInfo(inPropertyID) else { return kAudioFileUnsupportedPropertyError }
        outDataSize?.pointee = size
        isWritable?.pointee = writable ? 1 : 0
        return noErr
    }
}

/// Reads a property. Object values (InfoDictionary) are +1 retained.
@discardableResult
public func AudioFileGetProperty(_ inAudioFile: AudioFileID, _ inPropertyID: AudioFilePropertyID,
                                 _ ioDataSize: UnsafeMutablePointer<UInt32>, _ outPropertyData: UnsafeMutableRawPointer) -> OSStatus {
    withFile(inAudioFile) { $0.getProperty(inPropertyID, ioDataSize, outPropertyData) }
}

/// Apple's `AudioFileSetProperty`: writes a property.
@discardableResult
public func AudioFileSetProperty(_ inAudioFile: AudioFileID, _ inPropertyID: AudioFilePropertyID, _ inDataSize: UInt32,
                                 _ inPropertyData: UnsafeRawPointer) -> OSStatus {
    withFile(inAudioFile) { $0.setProperty(inPropertyID, inDataSize, inPropertyData) }
}

/// Apple's `AudioFileGetGlobalInfoSize`: the size of a global-info value.
@discardableResult
public func AudioFileGetGlobalInfoSize(_ inPropertyID: AudioFilePropertyID, _ inSpecifierSize: UInt32,
                                       _ inSpecifier: UnsafeMutableRawPointer?, _ outDataSize: UnsafeMutablePointer<UInt32>) -> OSStatus {
    switch AudioFileGlobalInfo.value(inPropertyID, inSpecifierSize, inSpecifier) {
    case .success(.bytes(let b)): outDataSize.pointee = UInt32(b.count)
    case .success(.object): outDataSize.pointee = UInt32(MemoryLayout<UnsafeRawPointer>.size)
    case .failure(let e): return e.status
    }
    return noErr
}

/// Global facts about the file types (readable/writable types, names, extensions, the stream
/// descriptions each type holds, ...). Object values (CFString, CFArray) are +1 retained.
@discardableResult
public func AudioFileGetGlobalInfo(_ inPropertyID: AudioFilePropertyID, _ inSpecifierSize: UInt32,
                                   _ inSpecifier: UnsafeMutableRawPointer?, _ ioDataSize: UnsafeMutablePointer<UInt32>,
                                   _ outPropertyData: UnsafeMutableRawPointer) -> OSStatus {
    switch AudioFileGlobalInfo.value(inPropertyID, inSpecifierSize, inSpecifier) {
    case .success(.bytes(let b)):
        let n = min(Int(ioDataSize.pointee), b.count)
        b.withUnsafeBytes { if n > 0 { outPropertyData.copyMemory(from: $0.baseAddress!, byteCount: n) } }
        ioDataSize.pointee = UInt32(n)
    case .success(.object(let o)):
        guard Int(ioDataSize.pointee) >= MemoryLayout<UnsafeRawPointer>.size else { return kAudioFileBadPropertySizeError }
        outPropertyData.storeBytes(of: UnsafeRawPointer(Unmanaged.passRetained(o).toOpaque()), as: UnsafeRawPointer.self)
        ioDataSize.pointee = UInt32(MemoryLayout<UnsafeRawPointer>.size)
    case .failure(let e):
        return e.status
    }
    return noErr
}

/// Chunks other than the audio and its description, by four-char code ("user data").
@discardableResult
public func AudioFileCountUserData(_ inAudioFile: AudioFileID, _ inUserDataID: UInt32, _ outNumberItems: UnsafeMutablePointer<UInt32>) -> OSStatus {
    withFile(inAudioFile) { f in
        outNumberItems.pointee = UInt32(f.layout.userData.count { $0.0 == inUserDataID })
        return noErr
    }
}

/// Apple's `AudioFileGetUserDataSize`: the size of a user-data chunk.
@discardableResult
public func AudioFileGetUserDataSize(_ inAudioFile: AudioFileID, _ inUserDataID: UInt32, _ inIndex: UInt32,
                                     _ outUserDataSize: UnsafeMutablePointer<UInt32>) -> OSStatus {
    withFile(inAudioFile) { f in
        guard let b = f.userData(inUserDataID, inIndex) else { return kAudioFileInvalidChunkError }
        outUserDataSize.pointee = UInt32(b.count)
        return noErr
    }
}

/// Apple's `AudioFileGetUserDataSize64`: the size of a user-data chunk as a 64-bit count.
@discardableResult
public func AudioFileGetUserDataSize64(_ inAudioFile: AudioFileID, _ inUserDataID: UInt32, _ inIndex: UInt32,
                                       _ outUserDataSize: UnsafeMutablePointer<UInt64>) -> OSStatus {
    withFile(inAudioFile) { f in
        guard let b = f.userData(inUserDataID, inIndex) else { return kAudioFileInvalidChunkError }
        outUserDataSize.pointee = UInt64(b.count)
        return noErr
    }
}

/// Apple's `AudioFileGetUserDataAtOffset`: up to `*ioUserDataSize` bytes of a user-data chunk from `inOffset`;
/// `*ioUserDataSize` comes back as the bytes copied (0 at the chunk's end). A negative offset or one past the end
/// answers kAudio_ParamError.
@discardableResult
public func AudioFileGetUserDataAtOffset(_ inAudioFile: AudioFileID, _ inUserDataID: UInt32, _ inIndex: UInt32, _ inOffset: Int64,
                                         _ ioUserDataSize: UnsafeMutablePointer<UInt32>, _ outUserData: UnsafeMutableRawPointer) -> OSStatus {
    withFile(inAudioFile) { f in
        guard let b = f.userData(inUserDataID, inIndex) else { return kAudioFileInvalidChunkError }
        guard inOffset >= 0, inOffset <= Int64(b.count) else { return kAudio_ParamError }
        let n = min(Int(ioUserDataSize.pointee), b.count - Int(inOffset))
        b.withUnsafeBytes { if n > 0 { outUserData.copyMemory(from: $0.baseAddress! + Int(inOffset), byteCount: n) } }
        ioUserDataSize.pointee = UInt32(n)
        return noErr
    }
}

/// Apple's `AudioFileSetUserData`: replaces the `inIndex`th chunk of `inUserDataID` with `inUserDataSize` bytes
/// (the chunk's contents, without its header), or adds one when `inIndex` is the number of such chunks. CAF, WAVE
/// and AIFF files opened for writing: the chunk is written after the audio data and stays there as the audio grows;
/// a chunk that lies before the audio cannot be changed (kAudioFileOperationNotSupportedError), nor can the chunks
/// the file's own properties manage (CAF's desc, data, pakt, kuki, chan, info, free; WAVE's fmt, data, ds64, fact,
/// JUNK; AIFF's COMM, SSND, FVER: kAudioFileInvalidChunkError). Other file types (RF64 among them) answer
/// kAudioFileOperationNotSupportedError.
@discardableResult
public func AudioFileSetUserData(_ inAudioFile: AudioFileID, _ inUserDataID: UInt32, _ inIndex: UInt32, _ inUserDataSize: UInt32,
                                 _ inUserData: UnsafeRawPointer) -> OSStatus {
    withFile(inAudioFile) { f in
        f.setUserData(inUserDataID, inIndex, Array(UnsafeRawBufferPointer(start: inUserData, count: Int(inUserDataSize))))
    }
}

/// Apple's `AudioFileRemoveUserData`: removes the `inIndex`th chunk of `inUserDataID`, under the rules of
/// AudioFileSetUserData (kAudioFileInvalidChunkError if there is no such chunk).
@discardableResult
public func AudioFileRemoveUserData(_ inAudioFile: AudioFileID, _ inUserDataID: UInt32, _ inIndex: UInt32) -> OSStatus {
    withFile(inAudioFile) { f in f.removeUserData(inUserDataID, inIndex) }
}

/// Apple's `AudioFileGetUserData`: a user-data chunk's bytes.
@discardableResult
public func AudioFileGetUserData(_ inAudioFile: AudioFileID, _ inUserDataID: UInt32, _ inIndex: UInt32,
                                 _ ioUserDataSize: UnsafeMutablePointer<UInt32>, _ outUserData: UnsafeMutableRawPointer) -> OSStatus {
    AudioFileGetUserDataAtOffset(inAudioFile, inUserDataID, inIndex, 0, ioUserDataSize, outUserData)
}
