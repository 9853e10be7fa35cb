import Foundation

/// How a MIDI file's contents map to tracks: as the file has them, or one track per MIDI channel.
public struct AVMusicSequenceLoadOptions: OptionSet, Sendable {
    public let rawValue: UInt
    /// The memberwise initializer of an option set.
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// One track per track in the file (plus a tempo track).
    public static let smf_PreserveTracks = AVMusicSequenceLoadOptions([])
    /// One track per MIDI channel, then one for SysEx and meta events.
    public static let smf_ChannelsToTracks = AVMusicSequenceLoadOptions(rawValue: 1 << 0)
}
