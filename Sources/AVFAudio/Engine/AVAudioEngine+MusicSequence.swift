import Foundation

extension AVAudioEngine {
    /// The MusicSequence that plays through the engine's graph, as with AUGraph: a MusicPlayer playing it sends each
    /// track's events to the engine's first instrument node (or the node a track names), sample-accurately from the
    /// engine's render. Setting another sequence (or nil) detaches the previous one from the engine.
    public var musicSequence: MusicSequence? {
        get { withLock { musicSequenceStorage } }
        set {
            withLock {
                if let old = musicSequenceStorage, old != newValue { MusicSequenceSetAUGraph(old, nil) }
                musicSequenceStorage = newValue
                if let newValue { MusicSequenceSetAUGraph(newValue, graph) }
            }
        }
    }
}
