import Foundation

// Audio file components (AudioFileComponent.h). Every built-in file type is an 'afil' component (subtype the
// file type, manufacturer 'appl'); an instance is associated with a file by CreateURL, OpenURL or the callback
// calls, and the rest forward to that file's AudioFile calls. Without a file those answer kAudioFileNotOpenError.

/// Runs `body` on the instance's associated file.
private func withComponentFile(_ c: AudioFileComponent, _ body: (AudioFileID) -> OSStatus) -> OSStatus {
    guard let object = AudioFileComponentObject.live(c) else { return badComponentInstance }
    guard let file = object.file else { return kAudioFileNotOpenError }
    return body(file)
}

/// Associates the instance with a file just made or opened, if it has none yet and the file is of its type.
private func associate(_ c: AudioFileComponent, _ make: (AudioFileTypeID, UnsafeMutablePointer<AudioFileID?>) -> OSStatus) -> OSStatus {
    guard let object = AudioFileComponentObject.live(c) else { return badComponentInstance }
    guard object.file == nil else { return kAudioFileOperationNotSupportedError }
    var file: AudioFileID?
    let status = make(object.fileType, &file)
    guard status == noErr, let file else { return status == noErr ? kAudioFileUnspecifiedError : status }
    // A file of another type is not this component's to handle (the AudioFile open tries every type).
    var type: AudioFileTypeID = 0
    var size = UInt32(MemoryLayout<AudioFileTypeID>.size)
    AudioFileGetProperty(file, kAudioFilePropertyFileFormat, &size, &type)
    guard type == object.fileType else {
        AudioFileClose(file)
        return kAudioFileInvalidFileError
    }
    object.file = file
    return noErr
}

/// Creates a file of the component's type at a URL and associates the instance with it.
public func AudioFileComponentCreateURL(_ inComponent: AudioFileComponent, _ inFileRef: CFURL,
                                        _ inFormat: UnsafePointer<AudioStreamBasicDescription>, _ inFlags: UInt32) -> OSStatus {
    associate(inComponent) { AudioFileCreateWithURL(inFileRef, $0, inFormat, AudioFileFlags(rawValue: inFlags), $1) }
}

/// Opens the file at a URL as the component's type and associates the instance with it. The file is opened by its
/// URL; `inFileDescriptor` (Audio File Services' own descriptor at Apple) is not used.
public func AudioFileComponentOpenURL(_ inComponent: AudioFileComponent, _ inFileRef: CFURL, _ inPermissions: Int8,
                                      _ inFileDescriptor: Int32) -> OSStatus {
    guard let permissions = AudioFilePermissions(rawValue: inPermissions) else { return kAudioFilePermissionsError }
    return associate(inComponent) { AudioFileOpenURL(inFileRef, permissions, $0, $1) }
}

/// Opens a file read (and written) through client callbacks as the component's type.
public func AudioFileComponentOpenWithCallbacks(_ inComponent: AudioFileComponent, _ inClientData: UnsafeMutableRawPointer,
                                                _ inReadFunc: AudioFile_ReadProc, _ inWriteFunc: AudioFile_WriteProc,
                                                _ inGetSizeFunc: AudioFile_GetSizeProc, _ inSetSizeFunc: AudioFile_SetSizeProc) -> OSStatus {
    associate(inComponent) { AudioFileOpenWithCallbacks(inClientData, inReadFunc, inWriteFunc, inGetSizeFunc, inSetSizeFunc, $0, $1) }
}

/// Creates a file through client callbacks (of the component's type; `inFileType` must be it or 0).
public func AudioFileComponentInitializeWithCallbacks(_ inComponent: AudioFileComponent, _ inClientData: UnsafeMutableRawPointer,
                                                      _ inReadFunc: AudioFile_ReadProc, _ inWriteFunc: AudioFile_WriteProc,
                                                      _ inGetSizeFunc: AudioFile_GetSizeProc, _ inSetSizeFunc: AudioFile_SetSizeProc,
                                                      _ inFileType: UInt32, _ inFormat: UnsafePointer<AudioStreamBasicDescription>,
                                                      _ inFlags: UInt32) -> OSStatus {
    associate(inComponent) { type, out in
        guard inFileType == 0 || inFileType == type else { return kAudioFileUnsupportedFileTypeError }
        return AudioFileInitializeWithCallbacks(inClientData, inReadFunc, inWriteFunc, inGetSizeFunc, inSetSizeFunc, type, inFormat,
                                                AudioFileFlags(rawValue: inFlags), out)
    }
}

/// Closes the associated file (its header written); the instance can then open another.
public func AudioFileComponentCloseFile(_ inComponent: AudioFileComponent) -> OSStatus {
    guard let object = AudioFileComponentObject.live(inComponent) else { return badComponentInstance }
    return object.closeFile()
}

/// AudioFileOptimize on the associated file.
public func AudioFileComponentOptimize(_ inComponent: AudioFileComponent) -> OSStatus {
    withComponentFile(inComponent) { AudioFileOptimize($0) }
}

/// AudioFileReadBytes on the associated file.
public func AudioFileComponentReadBytes(_ inComponent: AudioFileComponent, _ inUseCache: Bool, _ inStartingByte: Int64,
                                        _ ioNumBytes: UnsafeMutablePointer<UInt32>, _ outBuffer: UnsafeMutableRawPointer) -> OSStatus {
    withComponentFile(inComponent) { AudioFileReadBytes($0, inUseCache, inStartingByte, ioNumBytes, outBuffer) }
}

/// AudioFileWriteBytes on the associated file.
public func AudioFileComponentWriteBytes(_ inComponent: AudioFileComponent, _ inUseCache: Bool, _ inStartingByte: Int64,
                                         _ ioNumBytes: UnsafeMutablePointer<UInt32>, _ inBuffer: UnsafeRawPointer) -> OSStatus {
    withComponentFile(inComponent) { AudioFileWriteBytes($0, inUseCache, inStartingByte, ioNumBytes, inBuffer) }
}

/// AudioFileReadPackets on the associated file.
public func AudioFileComponentReadPackets(_ inComponent: AudioFileComponent, _ inUseCache: Bool, _ outNumBytes: UnsafeMutablePointer<UInt32>,
                                          _ outPacketDescriptions: UnsafeMutablePointer<AudioStreamPacketDescription>?,
                                          _ inStartingPacket: Int64, _ ioNumPackets: UnsafeMutablePointer<UInt32>,
                                          _ outBuffer: UnsafeMutableRawPointer) -> OSStatus {
    withComponentFile(inComponent) {
        AudioFileReadPackets($0, inUseCache, outNumBytes, outPacketDescriptions, inStartingPacket, ioNumPackets, outBuffer)
    }
}

/// AudioFileReadPacketData on the associated file.
public func AudioFileComponentReadPacketData(_ inComponent: AudioFileComponent, _ inUseCache: Bool, _ ioNumBytes: UnsafeMutablePointer<UInt32>,
                                             _ outPacketDescriptions: UnsafeMutablePointer<AudioStreamPacketDescription>?,
                                             _ inStartingPacket: Int64, _ ioNumPackets: UnsafeMutablePointer<UInt32>,
                                             _ outBuffer: UnsafeMutableRawPointer) -> OSStatus {
    withComponentFile(inComponent) {
        AudioFileReadPacketData($0, inUseCache, ioNumBytes, outPacketDescriptions, inStartingPacket, ioNumPackets, outBuffer)
    }
}

/// AudioFileWritePackets on the associated file.
public func AudioFileComponentWritePackets(_ inComponent: AudioFileComponent, _ inUseCache: Bool, _ inNumBytes: UInt32,
                                           _ inPacketDescriptions: UnsafePointer<AudioStreamPacketDescription>?, _ inStartingPacket: Int64,
                                           _ ioNumPackets: UnsafeMutablePointer<UInt32>, _ inBuffer: UnsafeRawPointer) -> OSStatus {
    withComponentFile(inComponent) {
        AudioFileWritePackets($0, inUseCache, inNumBytes, inPacketDescriptions, inStartingPacket, ioNumPackets, inBuffer)
    }
}

/// AudioFileGetPropertyInfo on the associated file.
public func AudioFileComponentGetPropertyInfo(_ inComponent: AudioFileComponent, _ inPropertyID: AudioFileComponentPropertyID,
                                              _ outPropertySize: UnsafeMutablePointer<UInt32>?, _ outWritable: UnsafeMutablePointer<UInt32>?) -> OSStatus {
    withComponentFile(inComponent) { AudioFileGetPropertyInfo($0, inPropertyID, outPropertySize, outWritable) }
}

/// AudioFileGetProperty on the associated file.
public func AudioFileComponentGetProperty(_ inComponent: AudioFileComponent, _ inPropertyID: AudioFileComponentPropertyID,
                                          _ ioPropertyDataSize: UnsafeMutablePointer<UInt32>, _ outPropertyData: UnsafeMutableRawPointer) -> OSStatus {
    withComponentFile(inComponent) { AudioFileGetProperty($0, inPropertyID, ioPropertyDataSize, outPropertyData) }
}

/// AudioFileSetProperty on the associated file.
public func AudioFileComponentSetProperty(_ inComponent: AudioFileComponent, _ inPropertyID: AudioFileComponentPropertyID,
                                          _ inPropertyDataSize: UInt32, _ inPropertyData: UnsafeRawPointer) -> OSStatus {
    withComponentFile(inComponent) { AudioFileSetProperty($0, inPropertyID, inPropertyDataSize, inPropertyData) }
}

/// AudioFileCountUserData on the associated file.
public func AudioFileComponentCountUserData(_ inComponent: AudioFileComponent, _ inUserDataID: UInt32,
                                            _ outNumberItems: UnsafeMutablePointer<UInt32>) -> OSStatus {
    withComponentFile(inComponent) { AudioFileCountUserData($0, inUserDataID, outNumberItems) }
}

/// AudioFileGetUserDataSize on the associated file.
public func AudioFileComponentGetUserDataSize(_ inComponent: AudioFileComponent, _ inUserDataID: UInt32, _ inIndex: UInt32,
                                              _ outUserDataSize: UnsafeMutablePointer<UInt32>) -> OSStatus {
    withComponentFile(inComponent) { AudioFileGetUserDataSize($0, inUserDataID, inIndex, outUserDataSize) }
}

/// AudioFileGetUserDataSize64 on the associated file.
public func AudioFileComponentGetUserDataSize64(_ inComponent: AudioFileComponent, _ inUserDataID: UInt32, _ inIndex: UInt32,
                                                _ outUserDataSize: UnsafeMutablePointer<UInt64>) -> OSStatus {
    withComponentFile(inComponent) { AudioFileGetUserDataSize64($0, inUserDataID, inIndex, outUserDataSize) }
}

/// AudioFileGetUserData on the associated file.
public func AudioFileComponentGetUserData(_ inComponent: AudioFileComponent, _ inUserDataID: UInt32, _ inIndex: UInt32,
                                          _ ioUserDataSize: UnsafeMutablePointer<UInt32>, _ outUserData: UnsafeMutableRawPointer) -> OSStatus {
    withComponentFile(inComponent) { AudioFileGetUserData($0, inUserDataID, inIndex, ioUserDataSize, outUserData) }
}

/// AudioFileGetUserDataAtOffset on the associated file.
public func AudioFileComponentGetUserDataAtOffset(_ inComponent: AudioFileComponent, _ inUserDataID: UInt32, _ inIndex: UInt32,
                                                  _ inOffset: Int64, _ ioUserDataSize: UnsafeMutablePointer<UInt32>,
                                                  _ outUserData: UnsafeMutableRawPointer) -> OSStatus {
    withComponentFile(inComponent) { AudioFileGetUserDataAtOffset($0, inUserDataID, inIndex, inOffset, ioUserDataSize, outUserData) }
}

/// AudioFileSetUserData on the associated file.
public func AudioFileComponentSetUserData(_ inComponent: AudioFileComponent, _ inUserDataID: UInt32, _ inIndex: UInt32,
                                          _ inUserDataSize: UInt32, _ inUserData: UnsafeRawPointer) -> OSStatus {
    withComponentFile(inComponent) { AudioFileSetUserData($0, inUserDataID, inIndex, inUserDataSize, inUserData) }
}

/// AudioFileRemoveUserData on the associated file.
public func AudioFileComponentRemoveUserData(_ inComponent: AudioFileComponent, _ inUserDataID: UInt32, _ inIndex: UInt32) -> OSStatus {
    withComponentFile(inComponent) { AudioFileRemoveUserData($0, inUserDataID, inIndex) }
}

/// Whether a file name extension is one of the component's type's (1 or 0, compared without case).
public func AudioFileComponentExtensionIsThisFormat(_ inComponent: AudioFileComponent, _ inExtension: CFString,
                                                    _ outResult: UnsafeMutablePointer<UInt32>) -> OSStatus {
    guard let object = AudioFileComponentObject.live(inComponent) else { return badComponentInstance }
    var type = object.fileType
    var list: Unmanaged<CFArray>?
    var size = UInt32(MemoryLayout<Unmanaged<CFArray>?>.size)
    let status = AudioFileGetGlobalInfo(kAudioFileGlobalInfo_ExtensionsForType, 4, &type, &size, &list)
    guard status == noErr, let array = list?.takeRetainedValue() as? [String] else { return status == noErr ? kAudioFileUnspecifiedError : status }
    let ext = (inExtension as String).lowercased()
    outResult.pointee = array.contains { $0.lowercased() == ext } ? 1 : 0
    return noErr
}

/// Whether data from the start of a file is the component's type (1 or 0), by the type's signature.
public func AudioFileComponentFileDataIsThisFormat(_ inComponent: AudioFileComponent, _ inDataByteSize: UInt32, _ inData: UnsafeRawPointer,
                                                   _ outResult: UnsafeMutablePointer<UInt32>) -> OSStatus {
    guard let object = AudioFileComponentObject.live(inComponent) else { return badComponentInstance }
    outResult.pointee = object.recognizes(UnsafeRawBufferPointer(start: inData, count: Int(inDataByteSize))) ? 1 : 0
    return noErr
}

/// Deprecated (a Carbon file reference number): answers kAudio_UnimplementedError, as no such numbers exist here.
@available(*, deprecated, message: "no longer supported")
public func AudioFileComponentFileIsThisFormat(_ inComponent: AudioFileComponent, _ inFileRefNum: Int16,
                                               _ outResult: UnsafeMutablePointer<UInt32>) -> OSStatus {
    guard AudioFileComponentObject.live(inComponent) != nil else { return badComponentInstance }
    return kAudio_UnimplementedError
}

/// Deprecated: whether the data the read callback gives from offset 0 is the component's type (its first 4 KiB
/// checked as AudioFileComponentFileDataIsThisFormat does).
@available(*, deprecated, message: "no longer supported")
public func AudioFileComponentDataIsThisFormat(_ inComponent: AudioFileComponent, _ inClientData: UnsafeMutableRawPointer?,
                                               _ inReadFunc: AudioFile_ReadProc?, _ inWriteFunc: AudioFile_WriteProc?,
                                               _ inGetSizeFunc: AudioFile_GetSizeProc?, _ inSetSizeFunc: AudioFile_SetSizeProc?,
                                               _ outResult: UnsafeMutablePointer<UInt32>) -> OSStatus {
    guard let object = AudioFileComponentObject.live(inComponent) else { return badComponentInstance }
    guard let inReadFunc, let inClientData else { return kAudio_ParamError }
    var head = [UInt8](repeating: 0, count: 4096)
    var got: UInt32 = 0
    let status = head.withUnsafeMutableBytes { inReadFunc(inClientData, 0, UInt32($0.count), $0.baseAddress!, &got) }
    guard status == noErr || status == kAudioFileEndOfFileError else { return status }
    outResult.pointee = head.withUnsafeBytes { object.recognizes(UnsafeRawBufferPointer(rebasing: $0.prefix(Int(got)))) } ? 1 : 0
    return noErr
}

/// The AudioFileGetGlobalInfo question a component property asks, for the component's type: the global property
/// and its specifier bytes; nil for a property the components do not answer (the deprecated fast-dispatch table
/// and HFS type codes).
private func globalQuestion(_ object: AudioFileComponentObject, _ id: AudioFileComponentPropertyID, _ specifierSize: UInt32,
                            _ specifier: UnsafeRawPointer?) -> Result<(AudioFilePropertyID, [UInt8])?, OSStatusError> {
    let type = withUnsafeBytes(of: object.fileType) { Array($0) }
    switch id {
    case kAudioFileComponent_CanRead, kAudioFileComponent_CanWrite:
        return .success(nil)
    case kAudioFileComponent_FileTypeName: return .success((kAudioFileGlobalInfo_FileTypeName, type))
    case kAudioFileComponent_ExtensionsForType: return .success((kAudioFileGlobalInfo_ExtensionsForType, type))
    case kAudioFileComponent_UTIsForType: return .success((kAudioFileGlobalInfo_UTIsForType, type))
    case kAudioFileComponent_MIMETypesForType: return .success((kAudioFileGlobalInfo_MIMETypesForType, type))
    case kAudioFileComponent_AvailableFormatIDs: return .success((kAudioFileGlobalInfo_AvailableFormatIDs, type))
    case kAudioFileComponent_AvailableStreamDescriptionsForFormat:
        guard let specifier, specifierSize >= 4 else { return .failure(OSStatusError(kAudioFileBadPropertySizeError)) }
        let pair = AudioFileTypeAndFormatID(mFileType: object.fileType, mFormatID: specifier.loadUnaligned(as: AudioFormatID.self))
        return .success((kAudioFileGlobalInfo_AvailableStreamDescriptionsForFormat, withUnsafeBytes(of: pair) { Array($0) }))
    default:
        return .failure(OSStatusError(kAudioFileUnsupportedPropertyError))
    }
}

/// Whether the component's type is readable (CanRead) or writable (CanWrite), as a UInt32 1 or 0.
private func canDo(_ object: AudioFileComponentObject, _ id: AudioFileComponentPropertyID) -> UInt32 {
    let list = id == kAudioFileComponent_CanRead ? kAudioFileGlobalInfo_ReadableTypes : kAudioFileGlobalInfo_WritableTypes
    var size: UInt32 = 0
    guard AudioFileGetGlobalInfoSize(list, 0, nil, &size) == noErr else { return 0 }
    var types = [AudioFileTypeID](repeating: 0, count: Int(size) / 4)
    guard AudioFileGetGlobalInfo(list, 0, nil, &size, &types) == noErr else { return 0 }
    return types.contains(object.fileType) ? 1 : 0
}

/// The size of a component property's value for the component's type (kAudioFileComponent_CanRead, ...).
public func AudioFileComponentGetGlobalInfoSize(_ inComponent: AudioFileComponent, _ inPropertyID: AudioFileComponentPropertyID,
                                                _ inSpecifierSize: UInt32, _ inSpecifier: UnsafeRawPointer?,
                                                _ outPropertySize: UnsafeMutablePointer<UInt32>) -> OSStatus {
    guard let object = AudioFileComponentObject.live(inComponent) else { return badComponentInstance }
    switch globalQuestion(object, inPropertyID, inSpecifierSize, inSpecifier) {
    case .failure(let e): return e.status
    case .success(nil):
        outPropertySize.pointee = 4
        return noErr
    case .success(let (id, spec)?):
        var s = spec
        return s.withUnsafeMutableBytes { AudioFileGetGlobalInfoSize(id, UInt32($0.count), $0.baseAddress, outPropertySize) }
    }
}

/// A component property's value for the component's type: CanRead/CanWrite (UInt32), FileTypeName (CFString),
/// Extensions/UTIs/MIMETypesForType (CFArray), AvailableFormatIDs, AvailableStreamDescriptionsForFormat (the
/// specifier a format ID). The deprecated FastDispatchTable and HFSTypeCodesForType answer
/// kAudioFileUnsupportedPropertyError.
public func AudioFileComponentGetGlobalInfo(_ inComponent: AudioFileComponent, _ inPropertyID: AudioFileComponentPropertyID,
                                            _ inSpecifierSize: UInt32, _ inSpecifier: UnsafeRawPointer?,
                                            _ ioPropertyDataSize: UnsafeMutablePointer<UInt32>, _ outPropertyData: UnsafeMutableRawPointer) -> OSStatus {
    guard let object = AudioFileComponentObject.live(inComponent) else { return badComponentInstance }
    switch globalQuestion(object, inPropertyID, inSpecifierSize, inSpecifier) {
    case .failure(let e): return e.status
    case .success(nil):
        guard ioPropertyDataSize.pointee >= 4 else { return kAudioFileBadPropertySizeError }
        outPropertyData.storeBytes(of: canDo(object, inPropertyID), as: UInt32.self)
        ioPropertyDataSize.pointee = 4
        return noErr
    case .success(let (id, spec)?):
        var s = spec
        return s.withUnsafeMutableBytes { AudioFileGetGlobalInfo(id, UInt32($0.count), $0.baseAddress, ioPropertyDataSize, outPropertyData) }
    }
}
