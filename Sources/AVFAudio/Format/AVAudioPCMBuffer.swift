import Foundation

/// A buffer of linear PCM frames: `frameCapacity` frames of storage, `frameLength` of them valid.
open class AVAudioPCMBuffer: AVAudioBuffer, @unchecked Sendable {
    /// Frames the buffer can hold.
    public let frameCapacity: AVAudioFrameCount
    private let storage: UnsafeMutableRawPointer?
    private let deallocator: ((UnsafePointer<AudioBufferList>) -> Void)?
    private let channelPointers: UnsafeMutablePointer<UnsafeMutableRawPointer>
    private let bytesPerFrame: Int

    /// A buffer of `frameCapacity` frames (zeroed) in `format`; nil for a format that is not linear PCM.
    public init?(pcmFormat format: AVAudioFormat, frameCapacity: AVAudioFrameCount) {
        let f = format.streamDescription.pointee
        guard f.mFormatID == kAudioFormatLinearPCM, f.mBytesPerFrame > 0 else { return nil }
        let buffers = format.isInterleaved ? 1 : Int(f.mChannelsPerFrame)
        bytesPerFrame = Int(f.mBytesPerFrame)
        let (bytes, overflow) = bytesPerFrame.multipliedReportingOverflow(by: Int(frameCapacity))
        guard !overflow, bytes <= Int(UInt32.max) else { return nil }
        self.frameCapacity = frameCapacity
        storage = calloc(max(bytes * buffers, 1), 1)
        guard let storage else { return nil }
        deallocator = nil
        channelPointers = .allocate(capacity: max(Int(f.mChannelsPerFrame), 1))
        super.init(format: format, buffers: buffers)
        for b in 0..<buffers {
            list[b] = AudioBuffer(mNumberChannels: format.isInterleaved ? f.mChannelsPerFrame : 1, mDataByteSize: 0,
                                  mData: storage + b * bytes)
        }
        setChannelPointers()
    }

    /// A buffer over the client's memory in `bufferList` (not copied); `deallocator` is called with it when the
    /// buffer is freed. The frame length and capacity are what the list's byte sizes hold.
    public init?(pcmFormat format: AVAudioFormat, bufferListNoCopy bufferList: UnsafePointer<AudioBufferList>,
                 deallocator: ((UnsafePointer<AudioBufferList>) -> Void)? = nil) {
        let f = format.streamDescription.pointee
        let source = UnsafeMutableAudioBufferListPointer(UnsafeMutablePointer(mutating: bufferList))
        let buffers = format.isInterleaved ? 1 : Int(f.mChannelsPerFrame)
        guard f.mFormatID == kAudioFormatLinearPCM, f.mBytesPerFrame > 0, source.count == buffers,
              source.allSatisfy({ $0.mData != nil }) else { return nil }
        bytesPerFrame = Int(f.mBytesPerFrame)
        frameCapacity = source[0].mDataByteSize / f.mBytesPerFrame
        storage = nil
        self.deallocator = deallocator.map { d in { _ in d(bufferList) } }
        channelPointers = .allocate(capacity: max(Int(f.mChannelsPerFrame), 1))
        super.init(format: format, buffers: buffers)
        for b in 0..<buffers { list[b] = source[b] }
        setChannelPointers()
        frameLength = frameCapacity
    }

    deinit {
        deallocator?(audioBufferList)
        free(storage)
        channelPointers.deallocate()
    }

    private func setChannelPointers() {
        let channels = Int(format.channelCount)
        let sampleBytes = format.isInterleaved ? bytesPerFrame / max(channels, 1) : bytesPerFrame
        for c in 0..<channels {
            // Interleaved: each channel's first sample, read with `stride`.
            channelPointers[c] = format.isInterleaved ? list[0].mData! + c * sampleBytes : list[c].mData!
        }
    }

    /// Valid frames; setting it sets the buffer list's byte sizes. At most frameCapacity.
    public var frameLength: AVAudioFrameCount = 0 {
        didSet {
            if frameLength > frameCapacity { frameLength = frameCapacity }
            for b in 0..<list.count { list[b].mDataByteSize = frameLength * UInt32(bytesPerFrame) }
        }
    }

    /// Samples from one frame of a channel to the next (the channel count when interleaved, else 1).
    public var stride: Int { format.isInterleaved ? Int(format.channelCount) : 1 }

    /// One pointer per channel, for Float32 formats.
    public var floatChannelData: UnsafePointer<UnsafeMutablePointer<Float>>? { channelData(.pcmFormatFloat32) }
    /// One pointer per channel, for Int16 formats.
    public var int16ChannelData: UnsafePointer<UnsafeMutablePointer<Int16>>? { channelData(.pcmFormatInt16) }
    /// One pointer per channel, for Int32 formats.
    public var int32ChannelData: UnsafePointer<UnsafeMutablePointer<Int32>>? { channelData(.pcmFormatInt32) }

    private func channelData<T>(_ common: AVAudioCommonFormat) -> UnsafePointer<UnsafeMutablePointer<T>>? {
        guard format.commonFormat == common else { return nil }
        return UnsafeRawPointer(channelPointers).assumingMemoryBound(to: UnsafeMutablePointer<T>.self)
    }

    /// The start of channel `c`'s samples, whatever the sample type.
    func rawChannel(_ c: Int) -> UnsafeMutableRawPointer { channelPointers[c] }

    /// A new buffer with the same format, capacity and valid frames.
    open override func copy(with zone: NSZone? = nil) -> Any {
        guard let copy = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: frameCapacity) else { return self }
        for b in 0..<list.count {
            copy.list[b].mData!.copyMemory(from: list[b].mData!, byteCount: Int(frameCapacity) * bytesPerFrame)
        }
        copy.frameLength = frameLength
        return copy
    }
}
