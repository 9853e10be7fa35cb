import AudioDSP

extension AudioConverterObject {
    /// AudioConverterConvertComplexBuffer's work: `frames` linear PCM frames converted at one rate, list to list.
    /// Reached directly (no handle lookup, so no lock) by the units that own their converter and call it on the
    /// render thread.
    func convertComplexBuffer(frames count: UInt32, from inInputData: UnsafePointer<AudioBufferList>,
                              to outOutputData: UnsafeMutablePointer<AudioBufferList>) -> OSStatus {
        let c = pcm
        guard !isCodec, !c.sampleRatesDiffer else { return kAudioConverterErr_OperationNotSupported }
        let inList = UnsafeMutableAudioBufferListPointer(UnsafeMutablePointer(mutating: inInputData))
        let outList = UnsafeMutableAudioBufferListPointer(outOutputData)
        let frames = Int(count)
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
