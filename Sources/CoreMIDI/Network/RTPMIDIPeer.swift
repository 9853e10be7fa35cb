/// One peer of an RTP-MIDI session: its addresses and SSRC, where the invitation exchange stands, the
/// journal history of what was sent to it and the receiver state of what came from it. Touched only under
/// the session's lock.
final class RTPMIDIPeer {
    enum State { case invitingControl, invitingData, connected }

    /// The peer's control address; its data address is normally the next port.
    var control: RTPMIDIAddress
    var data: RTPMIDIAddress
    var ssrc: UInt32 = 0
    var name = ""
    var state: State
    /// Whether this session sent the invitation (it then also drives the clock synchronisation).
    let initiator: Bool
    var token: UInt32
    var attempts = 0
    /// Host time (ns) of the last invitation or clock exchange sent; 0: send at once.
    var lastAttempt: UInt64 = 0
    var lastSync: UInt64 = 0
    /// Clock exchanges started (the first ones come quickly, then every 10 s) and the host time anything
    /// last came from the peer (an initiator gives up on a peer silent for a minute).
    var syncs = 0
    var lastHeard: UInt64 = 0
    /// The public connection object that stands for this peer (the one given to addConnection, or one made
    /// for an accepted invitation).
    var connection: MIDINetworkConnection?

    /// The next packet's extended sequence number (the wire carries its low 16 bits).
    var sendSequence: Int64
    var history: RTPMIDIJournalHistory
    /// Packets sent and not yet acknowledged, with their host times: without RS feedback, packets older than
    /// the session's journal horizon leave the journal, which would otherwise grow with every note ever played.
    var unacknowledged: [(sequence: Int64, time: UInt64)] = []
    var receiver = RTPMIDIReceiverState()
    /// The last sequence number received and whether an RS for it is still to be sent.
    var lastReceived: UInt16 = 0
    var feedbackDue = false
    var lastFeedback: UInt64 = 0
    /// The last clock exchange's round trip and the peer's clock minus ours, in 10 kHz ticks.
    var roundTrip: Int64 = -1
    var clockOffset: Int64 = 0

    /// A peer to invite (initiator) or one whose invitation arrived.
    init(control: RTPMIDIAddress, initiator: Bool, token: UInt32, state: State) {
        self.control = control
        self.data = control.with(port: control.port &+ 1)
        self.initiator = initiator
        self.token = token
        self.state = state
        let first = Int64(UInt16.random(in: 0...UInt16.max))
        sendSequence = first
        history = RTPMIDIJournalHistory(first: first)
    }
}
