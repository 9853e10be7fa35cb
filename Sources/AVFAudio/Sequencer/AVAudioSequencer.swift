import Foundation

/// The block an AVAudioSequencer calls for each user event it plays (off the render thread).
public typealias AVAudioSequencerUserCallback = (AVMusicTrack, Data, AVMusicTimeStamp) -> Void

/// Apple's MIDI sequencer: a MusicSequence of tracks and a MusicPlayer. With an engine, tracks play the engine's
/// instrument nodes (the first music device by default, or a track's `destinationAudioUnit`) sample-accurately from the
/// engine's render, in device or manual rendering; without one, tracks play MIDI endpoints.
open class AVAudioSequencer: NSObject, @unchecked Sendable {
    let sequence: MusicSequence
    let player: MusicPlayer
    private weak var engine: AVAudioEngine?
    private var trackObjects: [MusicTrack: AVMusicTrack] = [:]
    private var userCallback: AVAudioSequencerUserCallback?

    /// A sequencer whose tracks play MIDI endpoints only.
    public override init() {
        var s: MusicSequence?
        NewMusicSequence(&s)
        sequence = s!
        var p: MusicPlayer?
        NewMusicPlayer(&p)
        player = p!
        super.init()
        MusicPlayerSetSequence(player, sequence)
    }

    /// A sequencer playing the instrument nodes of `engine`.
    public convenience init(audioEngine engine: AVAudioEngine) {
        self.init()
        self.engine = engine
        MusicSequenceSetAUGraph(sequence, engine.graph)
    }

    deinit {
        MusicPlayerStop(player)
        DisposeMusicPlayer(player)
        DisposeMusicSequence(sequence)
    }

    private func sequenceLoadFlags(_ options: AVMusicSequenceLoadOptions) -> MusicSequenceLoadFlags {
        options.contains(.smf_ChannelsToTracks) ? .smf_ChannelsToTracks : []
    }

    /// Adds a MIDI file's events to the sequence.
    open func load(from fileURL: URL, options: AVMusicSequenceLoadOptions = []) throws {
        try AVAudioError.check(MusicSequenceFileLoad(sequence, fileURL as CFURL, .anyType, sequenceLoadFlags(options)))
    }

    /// Adds the events of MIDI file bytes to the sequence.
    open func load(from data: Data, options: AVMusicSequenceLoadOptions = []) throws {
        try AVAudioError.check(MusicSequenceFileLoadData(sequence, data as CFData, .anyType, sequenceLoadFlags(options)))
    }

    /// Writes the sequence as a Standard MIDI File; `resolution` ticks per quarter note (0: the tempo track's).
    open func write(to fileURL: URL, smpteResolution resolution: Int, replaceExisting replace: Bool) throws {
        try AVAudioError.check(MusicSequenceFileCreate(sequence, fileURL as CFURL, .midiType,
                                                       replace ? .eraseFile : [], Int16(clamping: resolution)))
    }

    /// The sequence as Standard MIDI File bytes.
    open func data(withSMPTEResolution SMPTEResolution: Int, error outError: NSErrorPointer) -> Data {
        var data: Unmanaged<CFData>?
        let status = MusicSequenceFileCreateData(sequence, .midiType, [], Int16(clamping: SMPTEResolution), &data)
        guard status == noErr, let data else {
            outError?.pointee = AVAudioError.make(status)
            return Data()
        }
        return data.takeRetainedValue() as Data
    }

    /// Seconds at a beat, through the tempo map.
    open func seconds(forBeats beats: AVMusicTimeStamp) -> TimeInterval {
        var seconds: Float64 = 0
        MusicSequenceGetSecondsForBeats(sequence, beats, &seconds)
        return seconds
    }

    /// The beat at a time in seconds, through the tempo map.
    open func beats(forSeconds seconds: TimeInterval) -> AVMusicTimeStamp {
        var beats: MusicTimeStamp = 0
        MusicSequenceGetBeatsForSeconds(sequence, seconds, &beats)
        return beats
    }

    /// Reverses every track's events in time, the tempo track's too.
    open func reverseEvents() {
        MusicSequenceReverse(sequence)
    }

    /// A new, empty track at the end of the list.
    open func createAndAppendTrack() -> AVMusicTrack {
        var track: MusicTrack?
        MusicSequenceNewTrack(sequence, &track)
        return wrap(track!)
    }

    /// Removes a track from the sequence; false when it is not one of its tracks.
    open func removeTrack(_ track: AVMusicTrack) -> Bool {
        guard MusicSequenceDisposeTrack(sequence, track.track) == noErr else { return false }
        trackObjects[track.track] = nil
        return true
    }

    /// The block called for every user event played (nil: none).
    open func setUserCallback(_ userCallback: AVAudioSequencerUserCallback?) {
        self.userCallback = userCallback
        if userCallback == nil {
            MusicSequenceSetUserCallback(sequence, nil, nil)
            return
        }
        MusicSequenceSetUserCallback(sequence, { clientData, _, track, eventTime, eventData, _, _ in
            guard let clientData else { return }
            let me = Unmanaged<AVAudioSequencer>.fromOpaque(clientData).takeUnretainedValue()
            let length = Int(eventData.pointee.length)
            let bytes = UnsafeRawPointer(eventData).advanced(by: MemoryLayout<UInt32>.size)
            let data = Data(bytes: bytes, count: length)
            me.userCallback?(me.wrap(track), data, eventTime)
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    private func wrap(_ track: MusicTrack) -> AVMusicTrack {
        if let known = trackObjects[track] { return known }
        let t = AVMusicTrack(track: track, sequencer: self)
        trackObjects[track] = t
        return t
    }

    /// The tracks, not counting the tempo track.
    open var tracks: [AVMusicTrack] {
        var count: UInt32 = 0
        MusicSequenceGetTrackCount(sequence, &count)
        return (0..<count).compactMap { i in
            var track: MusicTrack?
            MusicSequenceGetIndTrack(sequence, i, &track)
            return track.map(wrap)
        }
    }

    /// The tempo track (tempo and time signature events).
    open var tempoTrack: AVMusicTrack {
        var track: MusicTrack?
        MusicSequenceGetTempoTrack(sequence, &track)
        return wrap(track!)
    }

    /// What the sequence says about itself (duration, tempo, time signature, copyright, title).
    open var userInfo: [String: Any] {
        (MusicSequenceGetInfoDictionary(sequence) as? [String: Any]) ?? [:]
    }

    // MARK: Playing

    /// The play position in seconds; setting it moves the player (while playing too).
    open var currentPositionInSeconds: TimeInterval {
        get { seconds(forBeats: currentPositionInBeats) }
        set { currentPositionInBeats = beats(forSeconds: newValue) }
    }

    /// The play position in beats; setting it moves the player (while playing too).
    open var currentPositionInBeats: TimeInterval {
        get {
            var time: MusicTimeStamp = 0
            MusicPlayerGetTime(player, &time)
            return time
        }
        set { MusicPlayerSetTime(player, newValue) }
    }

    /// Whether the player was started and not stopped.
    open var isPlaying: Bool {
        var playing = DarwinBoolean(false)
        MusicPlayerIsPlaying(player, &playing)
        return playing.boolValue
    }

    /// The play rate (1 is the tempo map's speed; above 0).
    open var rate: Float {
        get {
            var scalar: Float64 = 1
            MusicPlayerGetPlayRateScalar(player, &scalar)
            return Float(scalar)
        }
        set {
            guard newValue > 0 else { return }
            MusicPlayerSetPlayRateScalar(player, Float64(newValue))
        }
    }

    /// The host time at which a beat plays (while playing).
    open func hostTime(forBeats inBeats: AVMusicTimeStamp, error outError: NSErrorPointer) -> UInt64 {
        var time: UInt64 = 0
        let status = MusicPlayerGetHostTimeForBeats(player, inBeats, &time)
        if status != noErr { outError?.pointee = AVAudioError.make(status); return 0 }
        return time
    }

    /// The beat that plays at a host time (while playing).
    open func beats(forHostTime inHostTime: UInt64, error outError: NSErrorPointer) -> AVMusicTimeStamp {
        var beats: MusicTimeStamp = 0
        let status = MusicPlayerGetBeatsForHostTime(player, inHostTime, &beats)
        if status != noErr { outError?.pointee = AVAudioError.make(status); return 0 }
        return beats
    }

    /// Prepares playback from the current position (start does it when this was not called).
    open func prepareToPlay() {
        MusicPlayerPreroll(player)
    }

    /// Starts playing from the current position. With an engine, the engine must be running.
    open func start() throws {
        if let engine, !engine.isRunning { throw AVAudioError.make(kAudioToolboxErr_InvalidPlayerState) }
        try AVAudioError.check(MusicPlayerStart(player))
    }

    /// Stops playing, keeping the position; sounding notes are released.
    open func stop() {
        MusicPlayerStop(player)
    }
}
