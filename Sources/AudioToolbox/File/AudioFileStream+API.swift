// Audio File Stream Services (AudioFileStream.h) for WAVE, AIFF/AIFC and CAF holding linear PCM.

private func withStream(_ id: AudioFileStreamID?, _ body: (AudioFileStreamObject) -> OSStatus) -> OSStatus {
    guard let s = AudioFileStreamObject.handles.object(id.map { UnsafeMutableRawPointer($0) }, as: AudioFileStreamObject.self) else {
        return kAudio_ParamError
    }
    return body(s)
}

/// Opens a parser. The property listener hears about each property as the header reveals it (last
/// ReadyToProducePackets); the packets proc receives audio as it arrives.
@discardableResult
public func AudioFileStreamOpen(_ inClientData: UnsafeMutableRawPointer?, _ inPropertyListenerProc: AudioFileStream_PropertyListenerProc,
                                _ inPacketsProc: AudioFileStream_PacketsProc, _ inFileTypeHint: AudioFileTypeID,
                                _ outAudioFileStream: UnsafeMutablePointer<AudioFileStreamID?>) -> OSStatus {
    let s = AudioFileStreamObject(clientData: inClientData, propertyProc: inPropertyListenerProc, packetsProc: inPacketsProc,
                                  hint: inFileTypeHint)
    outAudioFileStream.pointee = OpaquePointer(AudioFileStreamObject.handles.add(s))
    return noErr
}

/// Feeds the next bytes of the file, in pieces of any size.
@discardableResult
public func AudioFileStreamParseBytes(_ inAudioFileStream: AudioFileStreamID, _ inDataByteSize: UInt32, _ inData: UnsafeRawPointer?,
                                      _ inFlags: AudioFileStreamParseFlags) -> OSStatus {
    withStream(inAudioFileStream) { s in
        guard inDataByteSize == 0 || inData != nil else { return kAudio_ParamError }
        let bytes = UnsafeRawBufferPointer(start: inData, count: inData == nil ? 0 : Int(inDataByteSize))
        return s.parse(bytes, discontinuity: inFlags.contains(.discontinuity))
    }
}

/// The file byte offset of a packet; feed bytes from there next (with the discontinuity flag).
@discardableResult
public func AudioFileStreamSeek(_ inAudioFileStream: AudioFileStreamID, _ inPacketOffset: Int64,
                                _ outDataByteOffset: UnsafeMutablePointer<Int64>, _ ioFlags: UnsafeMutablePointer<AudioFileStreamSeekFlags>) -> OSStatus {
    withStream(inAudioFileStream) { s in
        switch s.seek(inPacketOffset) {
        case .success(let offset):
            outDataByteOffset.pointee = offset
            ioFlags.pointee = []  // exact: PCM packets have a fixed size
            return noErr
        case .failure(let e):
            return e.status
        }
    }
}

/// Apple's `AudioFileStreamGetPropertyInfo`: a property's size and writability.
@discardableResult
public func AudioFileStreamGetPropertyInfo(_ inAudioFileStream: AudioFileStreamID, _ inPropertyID: AudioFileStreamPropertyID,
                                           _ outPropertyDataSize: UnsafeMutablePointer<UInt32>?,
                                           _ outWritable: UnsafeMutablePointer<DarwinBoolean>?) -> OSStatus {
    withStream(inAudioFileStream) { AudioFileStreamObject.propertyTable.info($0, inPropertyID, outPropertyDataSize, outWritable) }
}

/// Apple's `AudioFileStreamGetProperty`: reads a property.
@discardableResult
public func AudioFileStreamGetProperty(_ inAudioFileStream: AudioFileStreamID, _ inPropertyID: AudioFileStreamPropertyID,
                                       _ ioPropertyDataSize: UnsafeMutablePointer<UInt32>, _ outPropertyData: UnsafeMutableRawPointer) -> OSStatus {
    withStream(inAudioFileStream) { AudioFileStreamObject.propertyTable.get($0, inPropertyID, ioPropertyDataSize, outPropertyData) }
}

/// No stream property is settable for linear PCM.
@discardableResult
public func AudioFileStreamSetProperty(_ inAudioFileStream: AudioFileStreamID, _ inPropertyID: AudioFileStreamPropertyID,
                                       _ inPropertyDataSize: UInt32, _ inPropertyData: UnsafeRawPointer) -> OSStatus {
    withStream(inAudioFileStream) { _ in kAudioFileStreamError_UnsupportedProperty }
}

/// Apple's `AudioFileStreamClose`: frees the parser.
@discardableResult
public func AudioFileStreamClose(_ inAudioFileStream: AudioFileStreamID) -> OSStatus {
    AudioFileStreamObject.handles.remove(UnsafeMutableRawPointer(inAudioFileStream), as: AudioFileStreamObject.self) == nil
        ? kAudio_ParamError : noErr
}
