/// Reads an audio file whole into one mono Float channel at the file's own rate, for the sampler's zones
/// (kAUSamplerProperty_LoadAudioFiles, .aupreset file references, AVAudioUnitSampler.loadInstrument(at:)).
/// Any format ExtAudioFile reads; channels are averaged. Not for the render thread.
enum SamplerAudioFile {
    /// The longest file a zone takes (10 minutes at 48 kHz): a bigger one is refused, not allocated.
    static let maximumFrames: Int64 = 48_000 * 600

    static func read(_ path: String) -> Result<SamplerInstrumentBuilder.Sample, OSStatusError> {
        var file: ExtAudioFileRef?
        let url = NSURL(fileURLWithPath: path)
        var status = ExtAudioFileOpenURL(url, &file)
        guard status == noErr, let file else { return .failure(OSStatusError(status == noErr ? kAudioFileUnspecifiedError : status)) }
        defer { ExtAudioFileDispose(file) }
        var fileFormat = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        status = ExtAudioFileGetProperty(file, kExtAudioFileProperty_FileDataFormat, &size, &fileFormat)
        guard status == noErr else { return .failure(OSStatusError(status)) }
        var frameCount: Int64 = 0
        size = 8
        status = ExtAudioFileGetProperty(file, kExtAudioFileProperty_FileLengthFrames, &size, &frameCount)
        guard status == noErr else { return .failure(OSStatusError(status)) }
        guard frameCount >= 0, frameCount <= maximumFrames else { return .failure(OSStatusError(kAudioFileInvalidFileError)) }
        let channels = max(Int(fileFormat.mChannelsPerFrame), 1)
        var client = OCAFormat.canonical(sampleRate: fileFormat.mSampleRate, channels: UInt32(channels), interleaved: true)
        status = ExtAudioFileSetProperty(file, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &client)
        guard status == noErr else { return .failure(OSStatusError(status)) }
        var interleaved = [Float](repeating: 0, count: Int(frameCount) * channels)
        var done = 0
        while done < Int(frameCount) {
            var frames = UInt32(min(Int(frameCount) - done, 65536))
            let status = interleaved.withUnsafeMutableBufferPointer { buffer -> OSStatus in
                var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(
                    mNumberChannels: UInt32(channels), mDataByteSize: frames * UInt32(channels * 4),
                    mData: UnsafeMutableRawPointer(buffer.baseAddress! + done * channels)))
                return ExtAudioFileRead(file, &frames, &list)
            }
            guard status == noErr else { return .failure(OSStatusError(status)) }
            if frames == 0 { break }
            done += Int(frames)
        }
        var mono = [Float](repeating: 0, count: done)
        for i in 0..<done {
            var sum: Float = 0
            for c in 0..<channels { sum += interleaved[i * channels + c] }
            mono[i] = sum / Float(channels)
        }
        let name = (path as NSString).lastPathComponent
        return .success(.init(name: name, frames: mono, sampleRate: Int(fileFormat.mSampleRate.rounded()), loop: nil))
    }
}
