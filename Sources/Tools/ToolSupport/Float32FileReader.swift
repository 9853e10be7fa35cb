// An audio file read whole as interleaved Float32 at its own rate and channel count, in chunks: what the tools'
// analyses (afinfo --plot, Sound Check) read through the public ExtAudioFile API.
import AudioToolbox

/// An open file whose frames come out as interleaved Float32 at the file's rate and channels.
public final class Float32FileReader {
    /// Where reading failed, with Audio File Services' status.
    public struct Failure: Error {
        public enum Step: Sendable { case open, format, clientFormat, read }
        public let step: Step
        public let status: OSStatus
        /// The file's format when it was read but has no channels or no rate (`.format` with kAudio_ParamError).
        public var format: AudioStreamBasicDescription? = nil
    }

    public let file: ExtAudioFileRef
    /// The file's data format.
    public let format: AudioStreamBasicDescription
    public var channels: Int { Int(format.mChannelsPerFrame) }

    /// Opens `url` and asks for Float32 (a file with no channels or no rate fails at `.format` with kAudio_ParamError).
    public init(_ url: CFURL) throws(Failure) {
        var ref: ExtAudioFileRef?
        var status = ExtAudioFileOpenURL(url, &ref)
        guard status == noErr, let ref else { throw Failure(step: .open, status: status) }
        var f = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        status = ExtAudioFileGetProperty(ref, kExtAudioFileProperty_FileDataFormat, &size, &f)
        guard status == noErr, f.mChannelsPerFrame > 0, f.mSampleRate > 0 else {
            ExtAudioFileDispose(ref)
            throw Failure(step: .format, status: status == noErr ? kAudio_ParamError : status, format: status == noErr ? f : nil)
        }
        let channels = f.mChannelsPerFrame
        var client = AudioStreamBasicDescription(mSampleRate: f.mSampleRate, mFormatID: kAudioFormatLinearPCM,
                                                 mFormatFlags: kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked,
                                                 mBytesPerPacket: 4 * channels, mFramesPerPacket: 1, mBytesPerFrame: 4 * channels,
                                                 mChannelsPerFrame: channels, mBitsPerChannel: 32, mReserved: 0)
        status = ExtAudioFileSetProperty(ref, kExtAudioFileProperty_ClientDataFormat, size, &client)
        guard status == noErr else {
            ExtAudioFileDispose(ref)
            throw Failure(step: .clientFormat, status: status)
        }
        file = ref
        format = f
    }

    deinit { ExtAudioFileDispose(file) }

    /// Reads every remaining frame, handing `body` each chunk of up to 8,192 interleaved frames and its frame count.
    public func forEachChunk(_ body: (UnsafeBufferPointer<Float>, Int) -> Void) throws(Failure) {
        let chunk = 8192
        var samples = [Float](repeating: 0, count: chunk * channels)
        while true {
            var frames = UInt32(chunk)
            let status = samples.withUnsafeMutableBytes { raw -> OSStatus in
                var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: UInt32(channels),
                                                                                     mDataByteSize: UInt32(raw.count), mData: raw.baseAddress))
                return ExtAudioFileRead(file, &frames, &list)
            }
            guard status == noErr else { throw Failure(step: .read, status: status) }
            if frames == 0 { return }
            samples.withUnsafeBufferPointer { body($0, min(Int(frames), chunk)) }
        }
    }
}
