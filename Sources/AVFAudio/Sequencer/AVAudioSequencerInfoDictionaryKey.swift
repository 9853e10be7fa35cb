import Foundation

/// The keys of `AVAudioSequencer.userInfo` (the sequence's info dictionary).
public struct AVAudioSequencerInfoDictionaryKey: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    /// A key with this string.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A key with this string.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    public static let album = Self("album")
    public static let approximateDurationInSeconds = Self("approximate duration in seconds")
    public static let artist = Self("artist")
    public static let channelLayout = Self("channel layout")
    public static let comments = Self("comments")
    public static let composer = Self("composer")
    public static let copyright = Self("copyright")
    public static let encodingApplication = Self("encoding application")
    public static let genre = Self("genre")
    public static let ISRC = Self("ISRC")
    public static let keySignature = Self("key signature")
    public static let lyricist = Self("lyricist")
    public static let nominalBitRate = Self("nominal bit rate")
    public static let recordedDate = Self("recorded date")
    public static let sourceBitDepth = Self("source bit depth")
    public static let sourceEncoder = Self("source encoder")
    public static let subTitle = Self("subtitle")
    public static let tempo = Self("tempo")
    public static let timeSignature = Self("time signature")
    public static let title = Self("title")
    public static let trackNumber = Self("track number")
    public static let year = Self("year")
}
