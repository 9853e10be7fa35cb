import Foundation

/// A range of beats in a track.
public struct AVBeatRange: Sendable, Equatable {
    public var start: AVMusicTimeStamp
    public var length: AVMusicTimeStamp
    /// The memberwise initializer of the imported C struct.
    public init(start: AVMusicTimeStamp, length: AVMusicTimeStamp) {
        self.start = start
        self.length = length
    }
    /// The zero range, as the imported struct's `init()`.
    public init() { self.init(start: 0, length: 0) }
}

/// Apple's inline maker of a beat range.
public func AVMakeBeatRange(_ startBeat: AVMusicTimeStamp, _ lengthInBeats: AVMusicTimeStamp) -> AVBeatRange {
    AVBeatRange(start: startBeat, length: lengthInBeats)
}

/// A length that reaches past the last event of a track.
public let AVMusicTimeStampEndOfTrack: AVMusicTimeStamp = .greatestFiniteMagnitude
