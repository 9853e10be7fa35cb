import Foundation

/// A track of an AVAudioSequencer: a MusicTrack of the sequencer's MusicSequence with its destination (an audio
/// unit of the engine or a MIDI endpoint), loop, offset, mute, solo and length. Properties are the MusicTrack's.
open class AVMusicTrack: NSObject, @unchecked Sendable {
    let track: MusicTrack
    weak var sequencer: AVAudioSequencer?
    private var destinationUnit: AVAudioUnit?
    /// Where the loop begins (MusicTrackLoopInfo loops a track's last `loopDuration` beats; the start is kept).
    private var loopStart: AVMusicTimeStamp = 0

    init(track: MusicTrack, sequencer: AVAudioSequencer) {
        self.track = track
        self.sequencer = sequencer
    }

    private func property<T>(_ id: UInt32, _ initial: T) -> T {
        var value = initial
        var size = UInt32(MemoryLayout<T>.size)
        _ = withUnsafeMutableBytes(of: &value) { MusicTrackGetProperty(track, id, $0.baseAddress!, &size) }
        return value
    }

    private func setProperty<T>(_ id: UInt32, _ value: T) {
        var v = value
        _ = withUnsafeMutableBytes(of: &v) { MusicTrackSetProperty(track, id, $0.baseAddress!, UInt32(MemoryLayout<T>.size)) }
    }

    /// The audio unit the track plays (it must be attached to the sequencer's engine); nil for none.
    open var destinationAudioUnit: AVAudioUnit? {
        get { destinationUnit }
        set {
            destinationUnit = newValue
            if let unit = newValue { MusicTrackSetDestNode(track, unit.graphNode) }
        }
    }

    /// The MIDI endpoint the track plays instead of an audio unit.
    open var destinationMIDIEndpoint: MIDIEndpointRef {
        get {
            var endpoint = MIDIEndpointRef()
            return MusicTrackGetDestMIDIEndpoint(track, &endpoint) == noErr ? endpoint : 0
        }
        set {
            destinationUnit = nil
            MusicTrackSetDestMIDIEndpoint(track, newValue)
        }
    }

    /// The beats the loop covers.
    open var loopRange: AVBeatRange {
        get { AVBeatRange(start: loopStart, length: property(kSequenceTrackProperty_LoopInfo, MusicTrackLoopInfo()).loopDuration) }
        set {
            loopStart = newValue.start
            var info = property(kSequenceTrackProperty_LoopInfo, MusicTrackLoopInfo())
            info.loopDuration = newValue.length
            if isLoopingEnabled { setProperty(kSequenceTrackProperty_LoopInfo, info) } else { storedLength = newValue.length }
        }
    }

    private var storedLength: AVMusicTimeStamp = 0
    private var storedLoops: Int = AVMusicTrackLoopCount.forever.rawValue
    private var looping = false

    /// Whether the track loops (the whole track when no loop range was set).
    open var isLoopingEnabled: Bool {
        get { looping }
        set {
            looping = newValue
            var info = MusicTrackLoopInfo()
            if newValue {
                let length = storedLength > 0 ? storedLength : lengthInBeats
                info.loopDuration = length
                info.numberOfLoops = Int32(storedLoops == AVMusicTrackLoopCount.forever.rawValue ? 0 : storedLoops)
            } else {
                storedLength = property(kSequenceTrackProperty_LoopInfo, MusicTrackLoopInfo()).loopDuration
            }
            setProperty(kSequenceTrackProperty_LoopInfo, info)
        }
    }

    /// How many times the loop plays (`AVMusicTrackLoopCount.forever.rawValue` for ever).
    open var numberOfLoops: Int {
        get { storedLoops }
        set {
            storedLoops = newValue
            if looping {
                var info = property(kSequenceTrackProperty_LoopInfo, MusicTrackLoopInfo())
                info.numberOfLoops = Int32(clamping: newValue == AVMusicTrackLoopCount.forever.rawValue ? 0 : max(newValue, 1))
                setProperty(kSequenceTrackProperty_LoopInfo, info)
            }
        }
    }

    /// Beats by which the track's events are delayed.
    open var offsetTime: AVMusicTimeStamp {
        get { property(kSequenceTrackProperty_OffsetTime, MusicTimeStamp(0)) }
        set { setProperty(kSequenceTrackProperty_OffsetTime, newValue) }
    }

    /// Whether the track is silent.
    open var isMuted: Bool {
        get { property(kSequenceTrackProperty_MuteStatus, DarwinBoolean(false)).boolValue }
        set { setProperty(kSequenceTrackProperty_MuteStatus, DarwinBoolean(newValue)) }
    }

    /// Whether only soloed tracks play.
    open var isSoloed: Bool {
        get { property(kSequenceTrackProperty_SoloStatus, DarwinBoolean(false)).boolValue }
        set { setProperty(kSequenceTrackProperty_SoloStatus, DarwinBoolean(newValue)) }
    }

    /// The track's length in beats (its last event's end, or what was set if longer).
    open var lengthInBeats: AVMusicTimeStamp {
        get { property(kSequenceTrackProperty_TrackLength, MusicTimeStamp(0)) }
        set { setProperty(kSequenceTrackProperty_TrackLength, newValue) }
    }

    /// The track's length in seconds, through the sequence's tempo map.
    open var lengthInSeconds: TimeInterval {
        get { sequencer?.seconds(forBeats: lengthInBeats) ?? 0 }
        set { if let s = sequencer { lengthInBeats = s.beats(forSeconds: newValue) } }
    }

    /// Ticks per quarter note the sequence was read with or will be written with (the tempo track's).
    open var timeResolution: Int {
        Int(property(kSequenceTrackProperty_TimeResolution, Int16(0)))
    }
}
