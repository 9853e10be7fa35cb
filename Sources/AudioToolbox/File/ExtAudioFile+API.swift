import Foundation

// Extended Audio File Services (ExtendedAudioFile.h): an audio file with a client format.

private func withExt(_ ref: ExtAudioFileRef?, _ body: (ExtAudioFileObject) -> OSStatus) -> OSStatus {
    guard let x = ExtAudioFileObject.handles.object(ref.map { UnsafeMutableRawPointer($0) }, as: ExtAudioFileObject.self) else {
        return kAudio_ParamError
    }
    x.lock.lock()
    defer { x.lock.unlock() }
    return body(x)
}

private func wrap(_ fileID: AudioFileID, owns: Bool, forWriting: Bool, _ out: UnsafeMutablePointer<ExtAudioFileRef?>) -> OSStatus {
    guard let file = AudioFileObject.handles.object(UnsafeMutableRawPointer(fileID), as: AudioFileObject.self) else { return kAudio_ParamError }
    // Linear PCM, or a format a registered codec decodes (reading) or encodes (writing).
    if PCMFormat(file.format) == nil {
        let codec = CodecRegistry.entry(file.format.mFormatID)
        guard forWriting ? codec?.makeEncoder != nil : codec?.makeDecoder != nil else { return kExtAudioFileError_InvalidDataFormat }
    }
    let x = ExtAudioFileObject(file: file, handle: fileID, ownsFile: owns, forWriting: forWriting)
    out.pointee = OpaquePointer(ExtAudioFileObject.handles.add(x))
    return noErr
}

/// Opens a file for reading; the client format starts as the file's format.
@discardableResult
public func ExtAudioFileOpenURL(_ inURL: CFURL, _ outExtAudioFile: UnsafeMutablePointer<ExtAudioFileRef?>) -> OSStatus {
    outExtAudioFile.pointee = nil
    var fileID: AudioFileID?
    let status = AudioFileOpenURL(inURL, .readPermission, 0, &fileID)
    guard status == noErr, let fileID else { return status }
    let wrapped = wrap(fileID, owns: true, forWriting: false, outExtAudioFile)
    if wrapped != noErr { AudioFileClose(fileID) }
    return wrapped
}

/// Wraps an open AudioFileID (which the caller keeps and closes).
@discardableResult
public func ExtAudioFileWrapAudioFileID(_ inFileID: AudioFileID, _ inForWriting: Bool,
                                        _ outExtAudioFile: UnsafeMutablePointer<ExtAudioFileRef?>) -> OSStatus {
    outExtAudioFile.pointee = nil
    return wrap(inFileID, owns: false, forWriting: inForWriting, outExtAudioFile)
}

/// Creates a file of `inFileType` with the data format `inStreamDesc`; set the client format to write
/// in another format. `inFlags` takes AudioFileFlags (kAudioFileFlags_EraseFile).
@discardableResult
public func ExtAudioFileCreateWithURL(_ inURL: CFURL, _ inFileType: AudioFileTypeID,
                                      _ inStreamDesc: UnsafePointer<AudioStreamBasicDescription>,
                                      _ inChannelLayout: UnsafePointer<AudioChannelLayout>?, _ inFlags: UInt32,
                                      _ outExtAudioFile: UnsafeMutablePointer<ExtAudioFileRef?>) -> OSStatus {
    outExtAudioFile.pointee = nil
    var fileID: AudioFileID?
    var status = AudioFileCreateWithURL(inURL, inFileType, inStreamDesc, AudioFileFlags(rawValue: inFlags), &fileID)
    guard status == noErr, let fileID else { return status }
    if let inChannelLayout {
        let size = 12 + 20 * Int(inChannelLayout.pointee.mNumberChannelDescriptions)
        status = AudioFileSetProperty(fileID, kAudioFilePropertyChannelLayout, UInt32(size), inChannelLayout)
        if status != noErr { AudioFileClose(fileID); return status }
    }
    status = wrap(fileID, owns: true, forWriting: true, outExtAudioFile)
    if status != noErr { AudioFileClose(fileID) }
    return status
}

/// Flushes pending output, finishes the file and frees the object (closing the file if it opened it).
@discardableResult
public func ExtAudioFileDispose(_ inExtAudioFile: ExtAudioFileRef) -> OSStatus {
    guard let x = ExtAudioFileObject.handles.remove(UnsafeMutableRawPointer(inExtAudioFile), as: ExtAudioFileObject.self) else {
        return kAudio_ParamError
    }
    x.lock.lock()
    let status = x.finish()
    x.lock.unlock()
    if x.ownsFile { AudioFileClose(x.fileHandle) }
    return status
}

/// Reads up to `*ioNumberFrames` client frames (clamped to the buffers' capacity); 0 at the end.
@discardableResult
public func ExtAudioFileRead(_ inExtAudioFile: ExtAudioFileRef, _ ioNumberFrames: UnsafeMutablePointer<UInt32>,
                             _ ioData: UnsafeMutablePointer<AudioBufferList>) -> OSStatus {
    withExt(inExtAudioFile) { x in
        let list = UnsafeMutableAudioBufferListPointer(ioData)
        let (n, status) = x.read(list, frames: Int(ioNumberFrames.pointee))
        ioNumberFrames.pointee = UInt32(n)
        if let pcm = PCMFormat(x.clientFormat) {
            for b in 0..<list.count { list[b].mDataByteSize = UInt32(n * pcm.bytesPerFrame) }
        }
        return status
    }
}

/// Apple's `ExtAudioFileWrite`: converts and writes frames in the client format.
@discardableResult
public func ExtAudioFileWrite(_ inExtAudioFile: ExtAudioFileRef, _ inNumberFrames: UInt32,
                              _ ioData: UnsafePointer<AudioBufferList>) -> OSStatus {
    withExt(inExtAudioFile) { $0.write(UnsafeMutablePointer(mutating: ioData), frames: Int(inNumberFrames)) }
}

/// Writes from a real-time thread without blocking it: frames go into a ring that a background
/// thread writes to the file. Call it once with 0 frames and nil data off the render thread first to
/// allocate the ring. A full ring answers kExtAudioFileError_AsyncWriteBufferOverflow.
@discardableResult
public func ExtAudioFileWriteAsync(_ inExtAudioFile: ExtAudioFileRef, _ inNumberFrames: UInt32,
                                   _ ioData: UnsafePointer<AudioBufferList>?) -> OSStatus {
    // Once primed, no lock and no handle lookup: the render thread must never wait. (Like
    // AudioUnitRender, the handle must then be live.)
    let raw = UnsafeMutableRawPointer(inExtAudioFile)
    let primed = Unmanaged<ExtAudioFileObject>.fromOpaque(raw)._withUnsafeGuaranteedRef { $0.asyncWriter.isPrimed }
    if !primed {
        guard let x = ExtAudioFileObject.handles.object(raw, as: ExtAudioFileObject.self) else { return kAudio_ParamError }
        guard x.forWriting, let pcm = PCMFormat(x.clientFormat) else { return kExtAudioFileError_InvalidOperationOrder }
        x.asyncWriter.prime(x, format: pcm, frames: Int(x.ioBufferSizeBytes) / pcm.bytesPerFrame * 4)
    }
    guard let ioData, inNumberFrames > 0 else { return noErr }
    return Unmanaged<ExtAudioFileObject>.fromOpaque(raw)._withUnsafeGuaranteedRef { x in
        let status = x.asyncWriter.enqueue(UnsafeMutableAudioBufferListPointer(UnsafeMutablePointer(mutating: ioData)), frames: Int(inNumberFrames))
        return status != noErr ? status : x.asyncWriter.lastError
    }
}

/// Moves the read (or write) position to a client frame.
@discardableResult
public func ExtAudioFileSeek(_ inExtAudioFile: ExtAudioFileRef, _ inFrameOffset: Int64) -> OSStatus {
    withExt(inExtAudioFile) { $0.seek(inFrameOffset) }
}

/// Apple's `ExtAudioFileTell`: the read position in client frames.
@discardableResult
public func ExtAudioFileTell(_ inExtAudioFile: ExtAudioFileRef, _ outFrameOffset: UnsafeMutablePointer<Int64>) -> OSStatus {
    withExt(inExtAudioFile) { x in outFrameOffset.pointee = x.tell; return noErr }
}

/// Apple's `ExtAudioFileGetPropertyInfo`: a property's size and writability.
@discardableResult
public func ExtAudioFileGetPropertyInfo(_ inExtAudioFile: ExtAudioFileRef, _ inPropertyID: ExtAudioFilePropertyID,
                                        _ outSize: UnsafeMutablePointer<UInt32>?, _ outWritable: UnsafeMutablePointer<DarwinBoolean>?) -> OSStatus {
    withExt(inExtAudioFile) { ExtAudioFileObject.propertyTable.info($0, inPropertyID, outSize, outWritable) }
}

/// Apple's `ExtAudioFileGetProperty`: reads a property.
@discardableResult
public func ExtAudioFileGetProperty(_ inExtAudioFile: ExtAudioFileRef, _ inPropertyID: ExtAudioFilePropertyID,
                                    _ ioPropertyDataSize: UnsafeMutablePointer<UInt32>, _ outPropertyData: UnsafeMutableRawPointer) -> OSStatus {
    withExt(inExtAudioFile) { ExtAudioFileObject.propertyTable.get($0, inPropertyID, ioPropertyDataSize, outPropertyData) }
}

/// Apple's `ExtAudioFileSetProperty`: writes a property (the client format, the codec's, ...).
@discardableResult
public func ExtAudioFileSetProperty(_ inExtAudioFile: ExtAudioFileRef, _ inPropertyID: ExtAudioFilePropertyID,
                                    _ inPropertyDataSize: UInt32, _ inPropertyData: UnsafeRawPointer) -> OSStatus {
    withExt(inExtAudioFile) { ExtAudioFileObject.propertyTable.set($0, inPropertyID, inPropertyDataSize, inPropertyData) }
}
