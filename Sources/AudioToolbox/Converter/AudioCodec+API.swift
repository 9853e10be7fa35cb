// The AudioCodec API (AudioCodec.h) over the registered codecs: an 'adec'/'aenc' component opened with
// AudioComponentInstanceNew is driven by these calls. Not for a render thread: codecs allocate.

private func withCodec(_ codec: AudioCodec, _ body: (AudioCodecObject) -> OSStatus) -> OSStatus {
    guard let object = AudioCodecInstances.codec(codec) else { return badComponentInstance }
    return body(object)
}

/// The size of a property's value and whether it can be set now.
@discardableResult
public func AudioCodecGetPropertyInfo(_ inCodec: AudioCodec, _ inPropertyID: AudioCodecPropertyID,
                                      _ outSize: UnsafeMutablePointer<UInt32>?,
                                      _ outWritable: UnsafeMutablePointer<DarwinBoolean>?) -> OSStatus {
    withCodec(inCodec) { codec in
        switch codec.value(inPropertyID, specifier: nil) {
        case .failure(let status): return status
        case .bytes(let b): outSize?.pointee = UInt32(b.count)
        case .string: outSize?.pointee = UInt32(MemoryLayout<CFString>.size)
        }
        outWritable?.pointee = DarwinBoolean(codec.isWritable(inPropertyID) ?? false)
        return noErr
    }
}

/// Copies a property's value into `outPropertyData`; `ioPropertyDataSize` says the room and becomes the
/// bytes written. A list is cut to the whole items that fit; a CFString is handed out +1 retained.
/// For ...FormatsForOutputFormat / ...ForInputFormat the buffer holds the given format on input.
@discardableResult
public func AudioCodecGetProperty(_ inCodec: AudioCodec, _ inPropertyID: AudioCodecPropertyID,
                                  _ ioPropertyDataSize: UnsafeMutablePointer<UInt32>,
                                  _ outPropertyData: UnsafeMutableRawPointer) -> OSStatus {
    withCodec(inCodec) { codec in
        let room = Int(ioPropertyDataSize.pointee)
        var specifier: AudioStreamBasicDescription?
        if inPropertyID == kAudioCodecPropertyInputFormatsForOutputFormat || inPropertyID == kAudioCodecPropertyOutputFormatsForInputFormat {
            guard room >= MemoryLayout<AudioStreamBasicDescription>.size else { return kAudioCodecBadPropertySizeError }
            specifier = outPropertyData.loadUnaligned(as: AudioStreamBasicDescription.self)
        }
        switch codec.value(inPropertyID, specifier: specifier) {
        case .failure(let status):
            return status
        case .string(let s):
            guard room >= MemoryLayout<CFString>.size else { return kAudioCodecBadPropertySizeError }
            outPropertyData.storeBytes(of: Unmanaged.passRetained(s as NSString as CFString), as: Unmanaged<CFString>.self)
            ioPropertyDataSize.pointee = UInt32(MemoryLayout<CFString>.size)
        case .bytes(let b):
            var count = b.count
            if room < count {
                let item = listItemSize(inPropertyID)
                guard item > 0, room >= item else { return kAudioCodecBadPropertySizeError }
                count = room / item * item
            }
            b.withUnsafeBytes { if count > 0 { outPropertyData.copyMemory(from: $0.baseAddress!, byteCount: count) } }
            ioPropertyDataSize.pointee = UInt32(count)
        }
        return noErr
    }
}

/// The item size of a list-valued property (0: not a list; a short buffer is then an error).
private func listItemSize(_ id: AudioCodecPropertyID) -> Int {
    switch id {
    case kAudioCodecPropertySupportedInputFormats, kAudioCodecPropertySupportedOutputFormats,
         kAudioCodecPropertyInputFormatsForOutputFormat, kAudioCodecPropertyOutputFormatsForInputFormat:
        return MemoryLayout<AudioStreamBasicDescription>.size
    case kAudioCodecPropertyAvailableBitRateRange, kAudioCodecPropertyApplicableBitRateRange:
        return MemoryLayout<AudioValueRange>.size
    case kAudioCodecPropertyFormatList:
        return MemoryLayout<AudioFormatListItem>.size
    default:
        return 0
    }
}

/// Sets a property. Formats, magic cookie and input buffer size only before AudioCodecInitialize
/// (kAudioCodecStateError after); a value of the wrong size answers kAudioCodecBadPropertySizeError.
@discardableResult
public func AudioCodecSetProperty(_ inCodec: AudioCodec, _ inPropertyID: AudioCodecPropertyID,
                                  _ inPropertyDataSize: UInt32, _ inPropertyData: UnsafeRawPointer) -> OSStatus {
    withCodec(inCodec) { $0.setValue(inPropertyID, inPropertyData, size: Int(inPropertyDataSize)) }
}

/// Makes the codec ready to take data: the formats and magic cookie given (nil keeps those set as properties).
@discardableResult
public func AudioCodecInitialize(_ inCodec: AudioCodec, _ inInputFormat: UnsafePointer<AudioStreamBasicDescription>?,
                                 _ inOutputFormat: UnsafePointer<AudioStreamBasicDescription>?,
                                 _ inMagicCookie: UnsafeRawPointer?, _ inMagicCookieByteSize: UInt32) -> OSStatus {
    withCodec(inCodec) { codec in
        let cookie = inMagicCookie.flatMap { inMagicCookieByteSize > 0 ? Array(UnsafeRawBufferPointer(start: $0, count: Int(inMagicCookieByteSize))) : nil }
        return codec.initialize(input: inInputFormat?.pointee, output: inOutputFormat?.pointee, cookie: cookie)
    }
}

/// Returns the codec to the uninitialized state (formats can be set again); buffered data is dropped.
@discardableResult
public func AudioCodecUninitialize(_ inCodec: AudioCodec) -> OSStatus {
    withCodec(inCodec) { $0.uninitialize() }
}

/// Appends as many whole packets of `inInputData` as the input buffer holds; `ioInputDataByteSize` and
/// `ioNumberPackets` become what was taken. For linear PCM input a packet is a frame. Appending nothing
/// (0 bytes, as Apple documents) marks the end of the input so an encoder emits its last packets.
@discardableResult
public func AudioCodecAppendInputData(_ inCodec: AudioCodec, _ inInputData: UnsafeRawPointer,
                                      _ ioInputDataByteSize: UnsafeMutablePointer<UInt32>,
                                      _ ioNumberPackets: UnsafeMutablePointer<UInt32>,
                                      _ inPacketDescription: UnsafePointer<AudioStreamPacketDescription>?) -> OSStatus {
    withCodec(inCodec) { $0.appendInput(inInputData, bytes: &ioInputDataByteSize.pointee, packetCount: &ioNumberPackets.pointee,
                                        descriptions: inPacketDescription) }
}

/// Produces up to `ioNumberPackets` output packets (frames, for PCM) into `outOutputData`; both sizes
/// become what was written and `outStatus` is a kAudioCodecProduceOutputPacket... value.
@discardableResult
public func AudioCodecProduceOutputPackets(_ inCodec: AudioCodec, _ outOutputData: UnsafeMutableRawPointer,
                                           _ ioOutputDataByteSize: UnsafeMutablePointer<UInt32>,
                                           _ ioNumberPackets: UnsafeMutablePointer<UInt32>,
                                           _ outPacketDescription: UnsafeMutablePointer<AudioStreamPacketDescription>?,
                                           _ outStatus: UnsafeMutablePointer<UInt32>) -> OSStatus {
    withCodec(inCodec) { $0.produceOutput(outOutputData, bytes: &ioOutputDataByteSize.pointee, packetCount: &ioNumberPackets.pointee,
                                          descriptions: outPacketDescription, status: &outStatus.pointee) }
}

/// AudioCodecAppendInputData from a buffer list's single (interleaved) buffer; `outBytesConsumed` is what was taken.
@discardableResult
public func AudioCodecAppendInputBufferList(_ inCodec: AudioCodec, _ inBufferList: UnsafePointer<AudioBufferList>,
                                            _ ioNumberPackets: UnsafeMutablePointer<UInt32>,
                                            _ inPacketDescription: UnsafePointer<AudioStreamPacketDescription>?,
                                            _ outBytesConsumed: UnsafeMutablePointer<UInt32>) -> OSStatus {
    withCodec(inCodec) { codec in
        guard inBufferList.pointee.mNumberBuffers == 1 else { return kAudioCodecUnsupportedFormatError }
        let buffer = inBufferList.pointee.mBuffers
        var bytes = buffer.mDataByteSize
        let status = codec.appendInput(buffer.mData.map { UnsafeRawPointer($0) }, bytes: &bytes,
                                       packetCount: &ioNumberPackets.pointee, descriptions: inPacketDescription)
        outBytesConsumed.pointee = status == noErr ? bytes : 0
        return status
    }
}

/// AudioCodecProduceOutputPackets into a buffer list's single (interleaved) buffer; its mDataByteSize
/// becomes the bytes written.
@discardableResult
public func AudioCodecProduceOutputBufferList(_ inCodec: AudioCodec, _ ioBufferList: UnsafeMutablePointer<AudioBufferList>,
                                              _ ioNumberPackets: UnsafeMutablePointer<UInt32>,
                                              _ outPacketDescription: UnsafeMutablePointer<AudioStreamPacketDescription>?,
                                              _ outStatus: UnsafeMutablePointer<UInt32>) -> OSStatus {
    withCodec(inCodec) { codec in
        guard ioBufferList.pointee.mNumberBuffers == 1 else { return kAudioCodecUnsupportedFormatError }
        var bytes = ioBufferList.pointee.mBuffers.mDataByteSize
        let status = codec.produceOutput(ioBufferList.pointee.mBuffers.mData, bytes: &bytes, packetCount: &ioNumberPackets.pointee,
                                         descriptions: outPacketDescription, status: &outStatus.pointee)
        ioBufferList.pointee.mBuffers.mDataByteSize = status == noErr ? bytes : 0
        return status
    }
}

/// Drops buffered data and the codec's carried state; formats and magic cookie stay.
@discardableResult
public func AudioCodecReset(_ inCodec: AudioCodec) -> OSStatus {
    withCodec(inCodec) { $0.reset() }
}
