// AudioConverterFillBuffer, the converter's call before macOS 10.5: bytes in, bytes out, one interleaved buffer
// each way and no packet descriptions. It runs the AudioConverterFillComplexBuffer path with an adapter that
// turns the byte-count input callback into a packet-count one.

/// What the adapter needs: the caller's callback and the input packet shape.
private struct FillBufferInput {
    let proc: AudioConverterInputDataProc
    let userData: UnsafeMutableRawPointer?
    let bytesPerPacket: UInt32
    let channels: UInt32
}

/// The complex input callback that asks the legacy one for bytes and lends them as whole packets.
private let fillBufferAdapter: AudioConverterComplexInputDataProc = { converter, ioPackets, ioData, outDescriptions, userData in
    let input = userData!.assumingMemoryBound(to: FillBufferInput.self).pointee
    var size = ioPackets.pointee * input.bytesPerPacket
    var data = UnsafeMutableRawPointer(userData!)  // replaced by the callback
    let status = input.proc(converter, &size, &data, input.userData)
    let packets = status == noErr ? size / input.bytesPerPacket : 0
    ioPackets.pointee = packets
    let list = UnsafeMutableAudioBufferListPointer(ioData)
    list[0] = AudioBuffer(mNumberChannels: input.channels, mDataByteSize: packets * input.bytesPerPacket,
                          mData: packets > 0 ? data : nil)
    outDescriptions?.pointee = nil
    return status
}

/// Apple's deprecated `AudioConverterFillBuffer`: fills `outOutputData` with up to `*ioOutputDataSize` bytes of
/// converted audio (whole packets), pulling input from `inInputDataProc` in bytes; `*ioOutputDataSize` comes back
/// as the bytes written (0 at the end of the input). A callback error stops the fill and is returned with what was
/// produced. Formats without a constant packet size (which need packet descriptions) answer
/// kAudioConverterErr_RequiresPacketDescriptionsError; PCM that is not interleaved (more than one buffer) answers
/// kAudioConverterErr_FormatNotSupported, since either side is one byte buffer.
@discardableResult
public func AudioConverterFillBuffer(_ inAudioConverter: AudioConverterRef, _ inInputDataProc: AudioConverterInputDataProc,
                                     _ inInputDataProcUserData: UnsafeMutableRawPointer?,
                                     _ ioOutputDataSize: UnsafeMutablePointer<UInt32>,
                                     _ outOutputData: UnsafeMutableRawPointer) -> OSStatus {
    var inFormat = AudioStreamBasicDescription(), outFormat = AudioStreamBasicDescription()
    var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
    var status = AudioConverterGetProperty(inAudioConverter, kAudioConverterCurrentInputStreamDescription, &size, &inFormat)
    guard status == noErr else { return status }
    status = AudioConverterGetProperty(inAudioConverter, kAudioConverterCurrentOutputStreamDescription, &size, &outFormat)
    guard status == noErr else { return status }
    guard inFormat.mBytesPerPacket > 0, outFormat.mBytesPerPacket > 0 else {
        return kAudioConverterErr_RequiresPacketDescriptionsError
    }
    for f in [inFormat, outFormat] where f.mFormatID == kAudioFormatLinearPCM {
        if f.mFormatFlags & kAudioFormatFlagIsNonInterleaved != 0 && f.mChannelsPerFrame > 1 {
            return kAudioConverterErr_FormatNotSupported
        }
    }
    var input = FillBufferInput(proc: inInputDataProc, userData: inInputDataProcUserData,
                                bytesPerPacket: inFormat.mBytesPerPacket, channels: inFormat.mChannelsPerFrame)
    var packets = ioOutputDataSize.pointee / outFormat.mBytesPerPacket
    var output = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: outFormat.mChannelsPerFrame,
                                                                       mDataByteSize: packets * outFormat.mBytesPerPacket,
                                                                       mData: outOutputData))
    status = withUnsafeMutablePointer(to: &input) { inputPointer in
        AudioConverterFillComplexBuffer(inAudioConverter, fillBufferAdapter, UnsafeMutableRawPointer(inputPointer), &packets,
                                        &output, nil)
    }
    ioOutputDataSize.pointee = packets * outFormat.mBytesPerPacket
    return status
}
