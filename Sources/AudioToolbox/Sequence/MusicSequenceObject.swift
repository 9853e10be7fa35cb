import CoreMIDI
import Foundation

/// A sequence: the tempo track, the other tracks, the graph or MIDI endpoint its tracks play to, its
/// type, file resolution and user-event callback. One lock guards every sequence, track and iterator
/// (edits are rare and short); the render thread never takes it (players flatten a sequence first).
final class MusicSequenceObject {
    static let handles = LiveHandleTable()
    static let lock = NSRecursiveLock()

    private(set) var tempoTrack: MusicTrackObject!
    var tracks: [MusicTrackObject] = []
    var graph: AUGraph?
    /// The graph MusicSequenceGetAUGraph made because none was set (disposed with the sequence).
    var ownedGraph: AUGraph?
    var type: MusicSequenceType = .beats
    /// Ticks per quarter note (or a negative SMPTE division) from the file it was read from; 480 else.
    var resolution: Int16 = 480
    var userCallback: MusicSequenceUserCallback?
    var userClientData: UnsafeMutableRawPointer?
    /// The player that has this sequence (it cannot be disposed meanwhile).
    weak var player: AnyObject?
    /// Set by the player while it plays this sequence (its graph cannot change meanwhile).
    var isPlaying = false
    private(set) var handle: MusicSequence?

    init() {
        tempoTrack = MusicTrackObject(sequence: self, isTempoTrack: true)
    }

    func activate() -> MusicSequence {
        let h = OpaquePointer(Self.handles.add(self))
        handle = h
        _ = tempoTrack.activate()
        return h
    }

    func dispose() {
        for t in tracks { t.deactivate() }
        tempoTrack.deactivate()
        tracks.removeAll()
        if let g = ownedGraph { DisposeAUGraph(g) }
        ownedGraph = nil
    }

    func newTrack() -> MusicTrackObject {
        let t = MusicTrackObject(sequence: self, isTempoTrack: false)
        _ = t.activate()
        tracks.append(t)
        return t
    }

    /// Tells a playing player that events, tempo or track settings changed.
    func edited() {
        if isPlaying { (player as? MusicPlayerObject)?.sequenceEdited() }
    }

    var tempoMap: TempoMap { TempoMap(track: tempoTrack) }
    var timeSignatures: TimeSignatureMap { TimeSignatureMap(track: tempoTrack) }

    /// The end of the last event of any track (beats).
    var length: MusicTimeStamp { tracks.reduce(0) { max($0, $1.length + $1.offset) } }

    /// The graph's first music-device node: where tracks without a destination play.
    func defaultNode() -> AUNode? {
        guard let graph = graph ?? ownedGraph else { return nil }
        var count: UInt32 = 0
        AUGraphGetNodeCount(graph, &count)
        for i in 0..<count {
            var node: AUNode = 0
            var d = AudioComponentDescription()
            guard AUGraphGetIndNode(graph, i, &node) == noErr, AUGraphNodeInfo(graph, node, &d, nil) == noErr else { continue }
            if d.componentType == kAudioUnitType_MusicDevice { return node }
        }
        return nil
    }

    /// Makes the graph a sequence plays through when none was set, as Apple's does: a music device (DLSSynth
    /// where present, else AUSampler or MIDISynth) into the default output.
    func makeDefaultGraph() -> OSStatus {
        var graph: AUGraph?
        NewAUGraph(&graph)
        guard let graph else { return kAudio_ParamError }
        var synth = AudioComponentDescription(componentType: kAudioUnitType_MusicDevice, componentSubType: kAudioUnitSubType_DLSSynth,
                                              componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        for subtype in [kAudioUnitSubType_DLSSynth, kAudioUnitSubType_Sampler, kAudioUnitSubType_MIDISynth] {
            synth.componentSubType = subtype
            if AudioComponentFindNext(nil, &synth) != nil { break }
        }
        var output = AudioComponentDescription(componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_DefaultOutput,
                                               componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        var synthNode: AUNode = 0, outputNode: AUNode = 0
        var status = AUGraphAddNode(graph, &synth, &synthNode)
        if status == noErr { status = AUGraphAddNode(graph, &output, &outputNode) }
        if status == noErr { status = AUGraphConnectNodeInput(graph, synthNode, 0, outputNode, 0) }
        guard status == noErr else {
            DisposeAUGraph(graph)
            return status
        }
        ownedGraph = graph
        return noErr
    }

    /// Whether some track has MIDI to play and neither a node nor an endpoint to play it to.
    var needsDefaultGraph: Bool {
        graph == nil && ownedGraph == nil && tracks.contains { t in
            t.destEndpoint == nil && t.destNode == nil
                && t.events.contains { $0.type == kMusicEventType_MIDINoteMessage || $0.type == kMusicEventType_MIDIChannelMessage }
        }
    }

    /// Reverses every track's events in time (notes keep their durations and end where they began).
    func reverse() {
        let end = max(length, tempoTrack.length)
        for track in tracks + [tempoTrack!] {
            let old = track.events
            track.events.removeAll()
            for e in old { track.insert(e.moved(to: max(0, end - e.end))) }
        }
    }
}
