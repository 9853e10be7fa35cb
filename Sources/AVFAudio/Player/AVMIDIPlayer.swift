import Foundation

/// A block called when a MIDI player reaches the end (`play(_:)` takes it as a Sendable closure, as Apple's does).
public typealias AVMIDIPlayerCompletionHandler = () -> Void

/// Apple's player of MIDI files: the file's MusicSequence played by a MusicPlayer through a private AUGraph of a
/// General MIDI synthesizer (AUMIDISynth: 16 channels, percussion on channel 10, the given SoundFont/DLS bank or
/// the installed default) into the default output device.
open class AVMIDIPlayer: NSObject, @unchecked Sendable {
    private let sequence: MusicSequence
    private let player: MusicPlayer
    private let graph: AUGraph
    private let lock = NSLock()
    /// Counts play() calls: a watcher whose play was stopped or superseded does nothing.
    private var generation = 0
    private var synthNode: AUNode = 0
    /// Whether the default output was added to the graph.
    private var hasOutput = false

    /// A player of the MIDI file at `inURL` with the bank at `bankURL` (nil: the installed General MIDI bank).
    public convenience init(contentsOf inURL: URL, soundBankURL bankURL: URL?) throws {
        try self.init(load: { MusicSequenceFileLoad($0, inURL as CFURL, .anyType, []) }, bankURL: bankURL)
    }

    /// A player of MIDI file bytes with the bank at `bankURL` (nil: the installed General MIDI bank).
    public convenience init(data: Data, soundBankURL bankURL: URL?) throws {
        try self.init(load: { MusicSequenceFileLoadData($0, data as CFData, .anyType, []) }, bankURL: bankURL)
    }

    private init(load: (MusicSequence) -> OSStatus, bankURL: URL?) throws {
        var s: MusicSequence?
        try AVAudioError.check(NewMusicSequence(&s))
        var p: MusicPlayer?
        var g: AUGraph?
        NewMusicPlayer(&p)
        NewAUGraph(&g)
        sequence = s!
        player = p!
        graph = g!
        super.init()
        try AVAudioError.check(load(sequence))
        // The synthesizer, with its bank loaded (and checked) now as Apple's player does; the default output is
        // added at the first prepare or play, so a player that never plays never opens a device.
        var synth = AudioComponentDescription(componentType: kAudioUnitType_MusicDevice, componentSubType: kAudioUnitSubType_MIDISynth,
                                              componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        try AVAudioError.check(AUGraphAddNode(graph, &synth, &synthNode))
        try AVAudioError.check(AUGraphOpen(graph))
        var unit: AudioUnit?
        try AVAudioError.check(AUGraphNodeInfo(graph, synthNode, nil, &unit))
        if let bankURL, let unit {
            guard FileManager.default.fileExists(atPath: bankURL.path) else { throw AVAudioError.make(kAudio_FileNotFoundError) }
            var url: CFURL? = bankURL as CFURL
            try AVAudioError.check(AudioUnitSetProperty(unit, kMusicDeviceProperty_SoundBankURL, kAudioUnitScope_Global, 0, &url,
                                                        UInt32(MemoryLayout<CFURL?>.size)))
        }
        try AVAudioError.check(MusicSequenceSetAUGraph(sequence, graph))
        try AVAudioError.check(MusicPlayerSetSequence(player, sequence))
    }

    deinit {
        MusicPlayerStop(player)
        AUGraphStop(graph)
        DisposeMusicPlayer(player)
        DisposeMusicSequence(sequence)
        DisposeAUGraph(graph)
    }

    /// The sequence's length in beats: the end of its longest track.
    private var lengthInBeats: MusicTimeStamp {
        var count: UInt32 = 0
        MusicSequenceGetTrackCount(sequence, &count)
        var length: MusicTimeStamp = 0
        for i in 0..<count {
            var track: MusicTrack?
            guard MusicSequenceGetIndTrack(sequence, i, &track) == noErr, let track else { continue }
            var value: MusicTimeStamp = 0
            var size = UInt32(MemoryLayout<MusicTimeStamp>.size)
            MusicTrackGetProperty(track, kSequenceTrackProperty_TrackLength, &value, &size)
            length = max(length, value)
        }
        return length
    }

    /// The sequence's length in seconds, through its tempo map.
    open var duration: TimeInterval {
        var seconds: Float64 = 0
        MusicSequenceGetSecondsForBeats(sequence, lengthInBeats, &seconds)
        return seconds
    }

    /// Whether the player is playing (from play() to the end of the sequence or stop()).
    open var isPlaying: Bool {
        var playing = DarwinBoolean(false)
        MusicPlayerIsPlaying(player, &playing)
        return playing.boolValue
    }

    /// The play rate (1: the file's tempo; above 0).
    open var rate: Float {
        get {
            var scalar: Float64 = 1
            MusicPlayerGetPlayRateScalar(player, &scalar)
            return Float(scalar)
        }
        set {
            guard newValue > 0, newValue.isFinite else { return }
            MusicPlayerSetPlayRateScalar(player, Float64(newValue))
        }
    }

    /// The play position in seconds; setting it moves the player (while playing too). Not range checked.
    open var currentPosition: TimeInterval {
        get {
            var beats: MusicTimeStamp = 0
            MusicPlayerGetTime(player, &beats)
            var seconds: Float64 = 0
            MusicSequenceGetSecondsForBeats(sequence, beats, &seconds)
            return seconds
        }
        set {
            var beats: MusicTimeStamp = 0
            MusicSequenceGetBeatsForSeconds(sequence, max(0, newValue), &beats)
            MusicPlayerSetTime(player, beats)
        }
    }

    /// Adds the default output after the synthesizer (once).
    private func attachOutput() -> OSStatus {
        lock.withLock {
            guard !hasOutput else { return noErr }
            var output = AudioComponentDescription(componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_DefaultOutput,
                                                   componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
            var outputNode: AUNode = 0
            var status = AUGraphAddNode(graph, &output, &outputNode)
            if status == noErr { status = AUGraphConnectNodeInput(graph, synthNode, 0, outputNode, 0) }
            if status == noErr { hasOutput = true }
            return status
        }
    }

    /// Loads the instruments and starts the device (rendering silence), so play() sounds at once.
    open func prepareToPlay() {
        guard attachOutput() == noErr, MusicPlayerPreroll(player) == noErr else { return }
        AUGraphStart(graph)
    }

    /// Plays from the current position; `completionHandler` is called once the end is reached (not after stop()).
    open func play(_ completionHandler: (@Sendable () -> Void)? = nil) {
        guard attachOutput() == noErr, MusicPlayerStart(player) == noErr else { return }
        let end = lengthInBeats
        let mine: Int = lock.withLock { generation += 1; return generation }
        // The end is watched off the render thread: the player's time against the sequence's length.
        let watcher = Thread { [weak self] in
            while let me = self {
                let current: Bool = me.lock.withLock { me.generation == mine }
                guard current, me.isPlaying else { return }
                var beats: MusicTimeStamp = 0
                MusicPlayerGetTime(me.player, &beats)
                if beats >= end {
                    let finish: Bool = me.lock.withLock {
                        guard me.generation == mine else { return false }
                        me.generation += 1
                        return true
                    }
                    guard finish else { return }
                    MusicPlayerStop(me.player)
                    AUGraphStop(me.graph)
                    if let completionHandler { DispatchQueue.global().async(execute: completionHandler) }
                    return
                }
                Thread.sleep(forTimeInterval: 0.005)
            }
        }
        watcher.name = "OpenCoreAudio.AVMIDIPlayer"
        watcher.start()
    }

    /// Stops playing, keeping the position; sounding notes are released and the device is closed.
    open func stop() {
        lock.withLock { generation += 1 }
        MusicPlayerStop(player)
        AUGraphStop(graph)
    }
}
