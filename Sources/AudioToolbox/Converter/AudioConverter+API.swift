import AudioDSP

// Audio Converter Services (AudioConverter.h) for linear PCM: every integer, fixed-point and float
// layout, channel maps, and sample-rate conversion. Compressed formats answer
// kAudioConverterErr_FormatNotSupported.

private func withConverter(_ ref: AudioConverterRef?, _ body: (AudioConverterObject) -> OSStatus) -> OSStatus {
    guard let c = AudioConverterObject.handles.object(ref.map { UnsafeMutableRawPointer($0) }, as: AudioConverterObject.self) else {
        return kAudio_ParamError
    }
    return body(c)
}

/// Creates a converter between two linear PCM formats.
@discardableResult
public func AudioConverterNew(_ inSourceFormat: UnsafePointer<AudioStreamBasicDescription>,
                              _ inDestinationFormat: UnsafePointer<AudioStreamBasicDescription>,
                              _ outAudioConverter: UnsafeMutablePointer<AudioConverterRef?>) -> OSStatus {
    outAudioConverter.pointee = nil
    let source = inSourceFormat.pointee, destination = inDestinationFormat.pointee
    let rates = AudioConverterObject.checkRates(input: source.mSampleRate, output: destination.mSampleRate)
    if rates != noErr { return rates }
    guard let input = PCMFormat(source), let output = PCMFormat(destination) else { return kAudioConverterErr_FormatNotSupported }
    let converter = AudioConverterObject(input: input, output: output)
    outAudioConverter.pointee = OpaquePointer(AudioConverterObject.handles.add(converter))
    return noErr
}

/// As AudioConverterNew; the class descriptions name codecs, which linear PCM does not use.
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
    withConverter(inAudioConverter) { c in
        guard !c.sampleRatesDiffer, c.input.isInterleaved, c.output.isInterleaved else {
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
    withConverter(inAudioConverter) { c in
        guard !c.sampleRatesDiffer else { return kAudioConverterErr_OperationNotSupported }
        let inList = UnsafeMutableAudioBufferListPointer(UnsafeMutablePointer(mutating: inInputData))
        let outList = UnsafeMutableAudioBufferListPointer(outOutputData)
        let frames = Int(inNumberPCMFrames)
        guard inList.count == c.input.bufferCount, outList.count == c.output.bufferCount else { return kAudio_ParamError }
        for b in inList where b.mData == nil || Int(b.mDataByteSize) < frames * c.input.bytesPerFrame {
            return kAudioConverterErr_InvalidInputSize
        }
        for b in outList where b.mData == nil || Int(b.mDataByteSize) < frames * c.output.bytesPerFrame {
            return kAudioConverterErr_InvalidOutputSize
        }
        c.convertDirect(from: inList, inFrame: 0, to: outList, outFrame: 0, frames: frames)
        for i in 0..<outList.count { outList[i].mDataByteSize = UInt32(frames * c.output.bytesPerFrame) }
        return noErr
    }
}

/// Pull-model conversion: fills `outOutputData` with up to `*ioOutputDataPacketSize` frames, calling
/// `inInputDataProc` for input as needed. The proc returning 0 packets ends the input: the converter
/// flushes (with sample-rate conversion, the remaining filtered frames) and returns what it produced;
/// later calls produce 0 frames until AudioConverterReset. A proc error stops the fill and is returned
/// along with the frames produced so far.
@discardableResult
public func AudioConverterFillComplexBuffer(_ inAudioConverter: AudioConverterRef,
                                            _ inInputDataProc: AudioConverterComplexInputDataProc,
                                            _ inInputDataProcUserData: UnsafeMutableRawPointer?,
                                            _ ioOutputDataPacketSize: UnsafeMutablePointer<UInt32>,
                                            _ outOutputData: UnsafeMutablePointer<AudioBufferList>,
                                            _ outPacketDescription: UnsafeMutablePointer<AudioStreamPacketDescription>?) -> OSStatus {
    withConverter(inAudioConverter) { c in
        let list = UnsafeMutableAudioBufferListPointer(outOutputData)
        guard list.count == c.output.bufferCount else { return kAudio_ParamError }
        var capacity = Int(ioOutputDataPacketSize.pointee)
        for b in list {
            guard b.mData != nil else { return kAudio_ParamError }
            capacity = min(capacity, Int(b.mDataByteSize) / c.output.bytesPerFrame)
        }
        let (produced, status): (Int, OSStatus)
        switch c.fill(list, capacity: capacity, proc: inInputDataProc, userData: inInputDataProcUserData) {
        case .produced(let n): (produced, status) = (n, noErr)
        case .failed(let n, let error): (produced, status) = (n, error)
        }
        ioOutputDataPacketSize.pointee = UInt32(produced)
        for i in 0..<list.count { list[i].mDataByteSize = UInt32(produced * c.output.bytesPerFrame) }
        return status
    }
}
