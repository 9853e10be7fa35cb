import AudioDSP

// Audio Converter Services (AudioConverter.h): linear PCM in every integer, fixed-point and float
// layout, channel maps and sample-rate conversion, and the registered codecs on either side. A format
// no codec handles answers kAudioConverterErr_FormatNotSupported.

private func withConverter(_ ref: AudioConverterRef?, _ body: (AudioConverterObject) -> OSStatus) -> OSStatus {
    guard let c = AudioConverterObject.handles.object(ref.map { UnsafeMutableRawPointer($0) }, as: AudioConverterObject.self) else {
        return kAudio_ParamError
    }
    return body(c)
}

/// Creates a converter between two formats: linear PCM to linear PCM, or either side compressed in a
/// format a registered codec decodes (input) or encodes (output).
@discardableResult
public func AudioConverterNew(_ inSourceFormat: UnsafePointer<AudioStreamBasicDescription>,
                              _ inDestinationFormat: UnsafePointer<AudioStreamBasicDescription>,
                              _ outAudioConverter: UnsafeMutablePointer<AudioConverterRef?>) -> OSStatus {
    outAudioConverter.pointee = nil
    switch AudioConverterObject.make(input: inSourceFormat.pointee, output: inDestinationFormat.pointee) {
    case .success(let converter):
        outAudioConverter.pointee = OpaquePointer(AudioConverterObject.handles.add(converter))
        return noErr
    case .failure(let error):
        return error.status
    }
}

/// As AudioConverterNew: each format has one codec here, so the class descriptions (which pick among
/// a format's hardware and software codecs on Apple's systems) choose nothing.
@discardableResult
public func AudioConverterNewSpecific(_ inSourceFormat: UnsafePointer<AudioStreamBasicDescription>,
                                      _ inDestinationFormat: UnsafePointer<AudioStreamBasicDescription>,
                                      _ inNumberClassDescriptions: UInt32, _ inClassDescriptions: UnsafePointer<AudioClassDescription>,
                                      _ outAudioConverter: UnsafeMutablePointer<AudioConverterRef?>) -> OSStatus {
    AudioConverterNew(inSourceFormat, inDestinationFormat, outAudioConverter)
}

/// Apple's `AudioConverterDispose`: frees the converter.
@discardableResult
public func AudioConverterDispose(_ inAudioConverter: AudioConverterRef) -> OSStatus {
    AudioConverterObject.handles.remove(UnsafeMutableRawPointer(inAudioConverter), as: AudioConverterObject.self) == nil
        ? kAudio_ParamError : noErr
}

/// Forgets buffered input and resampler history (call after seeking).
@discardableResult
public func AudioConverterReset(_ inAudioConverter: AudioConverterRef) -> OSStatus {
    withConverter(inAudioConverter) { $0.reset(); return noErr }
}

/// Apple's `AudioConverterGetPropertyInfo`: a property's size and writability.
@discardableResult
public func AudioConverterGetPropertyInfo(_ inAudioConverter: AudioConverterRef, _ inPropertyID: AudioConverterPropertyID,
                                          _ outSize: UnsafeMutablePointer<UInt32>?,
                                          _ outWritable: UnsafeMutablePointer<DarwinBoolean>?) -> OSStatus {
    withConverter(inAudioConverter) { c in
        guard let (size, writable) = c.propertyInfo(inPropertyID) else { return kAudioConverterErr_PropertyNotSupported }
        outSize?.pointee = size
        outWritable?.pointee = DarwinBoolean(writable)
        return noErr
    }
}

/// Apple's `AudioConverterGetProperty`: reads a property.
@discardableResult
public func AudioConverterGetProperty(_ inAudioConverter: AudioConverterRef, _ inPropertyID: AudioConverterPropertyID,
                                      _ ioPropertyDataSize: UnsafeMutablePointer<UInt32>,
                                      _ outPropertyData: UnsafeMutableRawPointer) -> OSStatus {
    withConverter(inAudioConverter) { c in c.getProperty(inPropertyID, ioPropertyDataSize, outPropertyData) }
}

/// Apple's `AudioConverterSetProperty`: writes a property.
@discardableResult
public func AudioConverterSetProperty(_ inAudioConverter: AudioConverterRef, _ inPropertyID: AudioConverterPropertyID,
                                      _ inPropertyDataSize: UInt32, _ inPropertyData: UnsafeRawPointer) -> OSStatus {
    withConverter(inAudioConverter) { c in c.setProperty(inPropertyID, inPropertyDataSize, inPropertyData) }
}

/// Converts one interleaved buffer to another at the same sample rate. The output receives as many
/// whole frames as fit; `ioOutputDataSize` returns the bytes written.
@discardableResult
public func AudioConverterConvertBuffer(_ inAudioConverter: AudioConverterRef, _ inInputDataSize: UInt32,
                                        _ inInputData: UnsafeRawPointer, _ ioOutputDataSize: UnsafeMutablePointer<UInt32>,
                                        _ outOutputData: UnsafeMutableRawPointer) -> OSStatus {
    withConverter(inAudioConverter) { converter in
        let c = converter.pcm
        guard !converter.isCodec, !c.sampleRatesDiffer, c.input.isInterleaved, c.output.isInterleaved else {
            return kAudioConverterErr_OperationNotSupported  // Apple: use FillComplexBuffer for these
        }
        guard Int(inInputDataSize) % c.input.bytesPerFrame == 0 else { return kAudioConverterErr_InvalidInputSize }
        let frames = min(Int(inInputDataSize) / c.input.bytesPerFrame, Int(ioOutputDataSize.pointee) / c.output.bytesPerFrame)
        if frames == 0 && inInputDataSize > 0 { return kAudioConverterErr_InvalidOutputSize }
        var inList = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(
            mNumberChannels: UInt32(c.input.channels), mDataByteSize: inInputDataSize, mData: UnsafeMutableRawPointer(mutating: inInputData)))
        var outList = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(
            mNumberChannels: UInt32(c.output.channels), mDataByteSize: ioOutputDataSize.pointee, mData: outOutputData))
        c.convertDirect(from: UnsafeMutableAudioBufferListPointer(&inList), inFrame: 0,
                        to: UnsafeMutableAudioBufferListPointer(&outList), outFrame: 0, frames: frames)
        ioOutputDataSize.pointee = UInt32(frames * c.output.bytesPerFrame)
        return noErr
    }
}

/// Converts `inNumberPCMFrames` frames between buffer lists at the same sample rate.
@discardableResult
public func AudioConverterConvertComplexBuffer(_ inAudioConverter: AudioConverterRef, _ inNumberPCMFrames: UInt32,
                                               _ inInputData: UnsafePointer<AudioBufferList>,
                                               _ outOutputData: UnsafeMutablePointer<AudioBufferList>) -> OSStatus {
    withConverter(inAudioConverter) { $0.convertComplexBuffer(frames: inNumberPCMFrames, from: inInputData, to: outOutputData) }
}

/// Pull-model conversion: fills `outOutputData` with up to `*ioOutputDataPacketSize` packets (frames for
/// linear PCM), calling `inInputDataProc` for input as needed. The proc returning 0 packets ends the
/// input: the converter flushes (the resampler's filtered tail, an encoder's last packets) and returns
/// what it produced; later calls produce 0 until AudioConverterReset. A proc error stops the fill and is
/// returned along with what was produced so far. Compressed input needs packet descriptions from the
/// proc when its packets vary in size; variable-size output fills `outPacketDescription`.
@discardableResult
public func AudioConverterFillComplexBuffer(_ inAudioConverter: AudioConverterRef,
                                            _ inInputDataProc: AudioConverterComplexInputDataProc,
                                            _ inInputDataProcUserData: UnsafeMutableRawPointer?,
                                            _ ioOutputDataPacketSize: UnsafeMutablePointer<UInt32>,
                                            _ outOutputData: UnsafeMutablePointer<AudioBufferList>,
                                            _ outPacketDescription: UnsafeMutablePointer<AudioStreamPacketDescription>?) -> OSStatus {
    withConverter(inAudioConverter) { c in
        let list = UnsafeMutableAudioBufferListPointer(outOutputData)
        if c.encodeStage != nil {
            guard list.count == 1, list[0].mData != nil else { return kAudio_ParamError }
            if c.outputFormat.mBytesPerPacket == 0 && outPacketDescription == nil && ioOutputDataPacketSize.pointee > 0 {
                return kAudioConverterErr_RequiresPacketDescriptionsError
            }
            let (packets, status) = c.fill(list, capacity: Int(ioOutputDataPacketSize.pointee), descriptions: outPacketDescription,
                                           proc: inInputDataProc, userData: inInputDataProcUserData)
            ioOutputDataPacketSize.pointee = UInt32(packets)
            return status
        }
        let output = c.pcm.output
        guard list.count == output.bufferCount else { return kAudio_ParamError }
        var capacity = Int(ioOutputDataPacketSize.pointee)
        for b in list {
            guard b.mData != nil else { return kAudio_ParamError }
            capacity = min(capacity, Int(b.mDataByteSize) / output.bytesPerFrame)
        }
        let (produced, status) = c.fill(list, capacity: capacity, descriptions: nil, proc: inInputDataProc,
                                        userData: inInputDataProcUserData)
        ioOutputDataPacketSize.pointee = UInt32(produced)
        for i in 0..<list.count { list[i].mDataByteSize = UInt32(produced * output.bytesPerFrame) }
        return status
    }
}
