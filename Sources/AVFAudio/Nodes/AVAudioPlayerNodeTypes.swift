// AVAudioPlayerNode.h's options, callback types and handler.

/// How a scheduled buffer plays.
public struct AVAudioPlayerNodeBufferOptions: OptionSet, Sendable {
    public let rawValue: UInt
    /// Creates options from their raw value.
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// The buffer repeats until interrupted or the player stops.
    public static let loops = AVAudioPlayerNodeBufferOptions(rawValue: 1 << 0)
    /// The buffer replaces whatever is playing or scheduled, at once.
    public static let interrupts = AVAudioPlayerNodeBufferOptions(rawValue: 1 << 1)
    /// The buffer replaces a looping buffer at the end of its current pass.
    public static let interruptsAtLoop = AVAudioPlayerNodeBufferOptions(rawValue: 1 << 2)
}

/// When a completion handler is called.
public enum AVAudioPlayerNodeCompletionCallbackType: Int, Sendable {
    /// The data has been consumed by the player.
    case dataConsumed = 0
    /// The data has been rendered by the player.
    case dataRendered = 1
    /// The data has been played by the device (after its presentation latency).
    case dataPlayedBack = 2
}

/// A completion handler told which stage completed.
public typealias AVAudioPlayerNodeCompletionHandler = (AVAudioPlayerNodeCompletionCallbackType) -> Void
