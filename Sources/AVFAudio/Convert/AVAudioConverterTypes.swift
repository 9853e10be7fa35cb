// AVAudioConverter.h's enums and the prime-info struct.

/// Where the converter takes the frames that prime a resampler or codec.
public enum AVAudioConverterPrimeMethod: Int, Sendable {
    /// From before the first output (the leading frames are read and dropped).
    case pre = 0
    /// Silence stands in for them: output starts late by the latency (the default).
    case normal = 1
    /// No priming: output starts at once, with the filter's start transient.
    case none = 2
}

/// Frames of priming before and after the data.
public struct AVAudioConverterPrimeInfo: Equatable, Sendable {
    public var leadingFrames: AVAudioFrameCount
    public var trailingFrames: AVAudioFrameCount
    /// Zero frames.
    public init() { leadingFrames = 0; trailingFrames = 0 }
    /// The given frames.
    public init(leadingFrames: AVAudioFrameCount, trailingFrames: AVAudioFrameCount) {
        self.leadingFrames = leadingFrames
        self.trailingFrames = trailingFrames
    }
}

/// What an input block answers with the buffer it returns.
public enum AVAudioConverterInputStatus: Int, Sendable {
    /// The returned buffer holds data.
    case haveData = 0
    /// No data now: the conversion returns what it has and may be called again later.
    case noDataNow = 1
    /// No more data: the converter flushes what it holds.
    case endOfStream = 2
}

/// The result of a block-driven conversion.
public enum AVAudioConverterOutputStatus: Int, Sendable {
    /// The output buffer holds data (it was filled, or the input ended within it).
    case haveData = 0
    /// The input block answered noDataNow before the output buffer was full.
    case inputRanDry = 1
    /// The input has ended and everything is out: nothing was returned.
    case endOfStream = 2
    /// The conversion failed (the error says why).
    case error = 3
}

/// Supplies input to a conversion: up to `inNumberOfPackets` packets, with the status in `outStatus`.
public typealias AVAudioConverterInputBlock = (_ inNumberOfPackets: AVAudioPacketCount,
                                               _ outStatus: UnsafeMutablePointer<AVAudioConverterInputStatus>) -> AVAudioBuffer?

/// Where an NSError is returned by the methods that take one (Objective-C's `NSError **`).
public typealias NSErrorPointer = UnsafeMutablePointer<NSError?>?
