import Foundation

/// A tempo change in beats per minute (the tempo track's ExtendedTempoEvent).
open class AVExtendedTempoEvent: AVMusicEvent, @unchecked Sendable {
    /// The tempo from the event's beat on, in beats per minute (above 0).
    open var tempo: Double

    /// A tempo change to `tempo` beats per minute.
    public init(tempo: Double) {
        self.tempo = tempo
        super.init()
    }

    override var musicEvent: (type: MusicEventType, bytes: [UInt8])? {
        (kMusicEventType_ExtendedTempo, Self.bytes(of: ExtendedTempoEvent(bpm: tempo)))
    }
}
