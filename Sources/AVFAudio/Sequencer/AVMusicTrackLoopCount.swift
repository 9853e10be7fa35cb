import Foundation

/// The loop count that means forever.
public enum AVMusicTrackLoopCount: Int, Sendable {
    case forever = -1
}
