import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The RTP-MIDI engine behind a MIDINetworkSession: a control socket on port N and a data socket on N + 1,
/// AppleMIDI invitations both ways (IN/OK/NO/BY), clock synchronisation (CK, driven by the initiator),
/// receiver feedback (RS) and the recovery journal, on a network thread of its own that waits in poll().
///
/// Threading: calls come from any thread (sending comes from the MIDI thread); state sits behind one lock that
/// is never held while a callback runs. Callbacks (`accept`, `deliver`, `changed`) run on the network thread.
final class RTPMIDISession: @unchecked Sendable {
    /// One received MIDI command with the host time it is due.
    typealias Delivery = (time: UInt64, bytes: [UInt8])

    let name: String
    let ssrc = UInt32.random(in: 1...UInt32.max)
    /// Whether an invitation from this address (with this session name) is accepted.
    var accept: (RTPMIDIAddress, String) -> Bool = { _, _ in false }
    /// Receives what peers send, in order.
    var deliver: ([Delivery]) -> Void = { _ in }
    /// Told when a peer comes or goes.
    var changed: () -> Void = {}

    private let lock = NSLock()
    private var sockets: (control: RTPMIDISocket, data: RTPMIDISocket)?
    private var peers: [RTPMIDIPeer] = []
    private var running = false
    private var wake: [Int32] = [-1, -1]
    private let stopped = DispatchSemaphore(value: 0)
    /// Test hook: this many of the next outgoing data packets are dropped (sequence numbers and journal
    /// history advance as if they had been sent), to exercise the peer's journal recovery.
    var dropOutgoingPackets: Int {
        get { lock.withLock { dropping } }
        set { lock.withLock { dropping = newValue } }
    }
    private var dropping = 0

    /// A session advertising `name` in its invitations.
    init(name: String) { self.name = name }

    /// The bound control port, 0 when stopped.
    var port: UInt16 { lock.withLock { sockets?.control.port ?? 0 } }

    /// How long (ns) a sent packet stays in the journal when the peer sends no RS feedback for it (Apple's
    /// peers acknowledge several times a second; some implementations never do).
    static let journalHorizon: UInt64 = 10_000_000_000

    /// The clock in AppleMIDI's units (10 kHz ticks of the host clock).
    static func now() -> UInt64 { AudioGetCurrentHostTime() / 100_000 }

    /// Binds the sockets and starts the network thread; false if no port pair could be bound.
    func start(address: String, port: UInt16) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !running else { return true }
        guard let pair = RTPMIDISocket.pair(address: address, port: port) else { return false }
        sockets = pair
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { sockets = nil; return false }
        wake = fds
        running = true
        for p in peers { p.lastAttempt = 0; p.attempts = 0 }
        let readEnd = fds[0]
        let thread = Thread { [self] in run(control: pair.control, data: pair.data, wake: readEnd) }
        thread.name = "OCA.NetworkMIDI"
        thread.qualityOfService = .userInteractive
        thread.start()
        return true
    }

    /// Says goodbye to every peer, stops the thread and closes the sockets. Invitations this session made stay,
    /// to be sent again on the next start; accepted peers are forgotten.
    func stop() {
        lock.lock()
        guard running, let s = sockets else { lock.unlock(); return }
        for p in peers where p.state == .connected { s.control.send(AppleMIDICommand.bye(token: p.token, ssrc: ssrc).bytes, to: p.control) }
        peers.removeAll { !$0.initiator }
        for p in peers { p.state = .invitingControl; p.token = UInt32.random(in: 1...UInt32.max) }
        running = false
        _ = write(wake[1], [UInt8(1)], 1)
        lock.unlock()
        stopped.wait()
        lock.withLock {
            close(wake[0]); close(wake[1])
            wake = [-1, -1]
            sockets = nil
        }
        changed()
    }

    /// Starts inviting the session at `address` (its control port) on behalf of `connection`.
    func invite(_ address: RTPMIDIAddress, for connection: MIDINetworkConnection) {
        let peer = RTPMIDIPeer(control: address, initiator: true, token: UInt32.random(in: 1...UInt32.max), state: .invitingControl)
        peer.connection = connection
        lock.withLock {
            peers.append(peer)
            if running { _ = write(wake[1], [UInt8(1)], 1) }
        }
    }

    /// Ends the session with the peer behind `connection` (BY if it is connected); false if there is none.
    @discardableResult func disconnect(_ connection: MIDINetworkConnection) -> Bool {
        let found: Bool = lock.withLock {
            guard let i = peers.firstIndex(where: { $0.connection === connection }) else { return false }
            let p = peers.remove(at: i)
            if p.state != .invitingControl, let s = sockets {
                s.control.send(AppleMIDICommand.bye(token: p.token, ssrc: ssrc).bytes, to: p.control)
            }
            return true
        }
        if found { changed() }
        return found
    }

    /// The peers as the public API shows them: every invited or accepted peer with its connection object
    /// (made here for accepted ones, once), name and control address.
    func connections() -> [MIDINetworkConnection] {
        lock.withLock {
            peers.compactMap { p in
                if p.connection == nil, p.state == .connected {
                    p.connection = MIDINetworkConnection(host: MIDINetworkHost(name: p.name, address: p.control.host, port: Int(p.control.port)))
                }
                return p.connection
            }
        }
    }

    /// Whether the peer behind `connection` has completed the invitation exchange.
    func isConnected(_ connection: MIDINetworkConnection) -> Bool {
        lock.withLock { peers.contains { $0.connection === connection && $0.state == .connected } }
    }

    /// Diagnostics of the peer behind `connection`: the last clock round trip (10 kHz ticks, -1 before one),
    /// packets found lost and commands recovered from journals, and how many packets sent to it its
    /// feedback has not yet acknowledged (what the journal still covers).
    func statistics(_ connection: MIDINetworkConnection) -> (roundTrip: Int64, lost: Int, recovered: Int, unacknowledged: Int64)? {
        lock.withLock {
            peers.first { $0.connection === connection }.map {
                ($0.roundTrip, $0.receiver.lostPackets, $0.receiver.recoveredCommands, $0.sendSequence - $0.history.checkpoint)
            }
        }
    }

    /// Sends commands (each a complete MIDI 1.0 message or SysEx segment) to every connected peer, in as
    /// many packets as the list length needs, each with the journal of what that peer was sent before it.
    func send(_ commands: [[UInt8]]) {
        guard !commands.isEmpty else { return }
        var chunks: [[[UInt8]]] = [[]]
        var size = 0
        for c in commands.flatMap(RTPMIDIPacket.segments) {
            if size + c.count + 1 > RTPMIDIPacket.maximumListLength, !chunks[chunks.count - 1].isEmpty { chunks.append([]); size = 0 }
            chunks[chunks.count - 1].append(c)
            size += c.count + 1
        }
        lock.withLock {
            guard let s = sockets else { return }
            let timestamp = UInt32(truncatingIfNeeded: Self.now())
            let now = AudioGetCurrentHostTime()
            for p in peers where p.state == .connected {
                // Packets older than the horizon count as received (see `journalHorizon`).
                var old = 0
                while old < p.unacknowledged.count, now &- p.unacknowledged[old].time > Self.journalHorizon {
                    p.history.advance(to: p.unacknowledged[old].sequence + 1)
                    old += 1
                }
                p.unacknowledged.removeFirst(old)
                for chunk in chunks {
                    let sequence = p.sendSequence
                    p.unacknowledged.append((sequence, now))
                    let packet = RTPMIDIPacket(sequence: UInt16(truncatingIfNeeded: sequence), timestamp: timestamp, ssrc: ssrc,
                                               commands: chunk.map { .init(delta: 0, bytes: $0) }, journal: p.history.journal())
                    for c in chunk { p.history.record(c, sequence: sequence) }
                    p.sendSequence += 1
                    if dropping > 0 { dropping -= 1; continue }
                    s.data.send(packet.serialized(), to: p.data)
                }
            }
        }
    }

    // MARK: The network thread

    private func run(control: RTPMIDISocket, data: RTPMIDISocket, wake: Int32) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 8)
        defer { buffer.deallocate(); stopped.signal() }
        var fds = [pollfd(fd: control.fd, events: Int16(POLLIN), revents: 0), pollfd(fd: data.fd, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
        while lock.withLock({ running }) {
            _ = poll(&fds, nfds_t(fds.count), 50)
            if fds[2].revents != 0 { var b: UInt8 = 0; _ = read(wake, &b, 1) }
            while let (bytes, from) = control.receive(into: buffer) { handle(bytes, from: from, onData: false) }
            while let (bytes, from) = data.receive(into: buffer) { handle(bytes, from: from, onData: true) }
            timers()
        }
    }

    /// One datagram from either socket.
    private func handle(_ bytes: [UInt8], from: RTPMIDIAddress, onData: Bool) {
        if AppleMIDICommand.isCommand(bytes) {
            guard let command = try? AppleMIDICommand.parse(bytes) else { return }
            handle(command, from: from, onData: onData)
        } else if onData {
            guard let packet = try? RTPMIDIPacket.parse(bytes) else { return }
            let arrival = AudioGetCurrentHostTime()
            let out: [Delivery]? = lock.withLock {
                guard let p = peers.first(where: { $0.ssrc == packet.ssrc && $0.state == .connected }),
                      let repair = p.receiver.accept(packet) else { return nil }
                p.lastReceived = packet.sequence
                p.feedbackDue = true
                p.lastHeard = arrival
                var time = arrival
                var out: [Delivery] = repair.map { (arrival, $0) }
                for c in packet.commands {
                    time += UInt64(c.delta) * 100_000
                    out.append((time, c.bytes))
                }
                return out
            }
            if let out, !out.isEmpty { deliver(out) }
        }
    }

    private func handle(_ command: AppleMIDICommand, from: RTPMIDIAddress, onData: Bool) {
        var notify = false
        defer { if notify { changed() } }
        switch command {
        case let .invitation(token, peerSSRC, peerName):
            if !onData {
                let known = lock.withLock { peers.contains { $0.ssrc == peerSSRC && !$0.initiator } }
                // Asked outside the lock: the policy belongs to the public session object.
                let ok = known || accept(from, peerName)
                lock.withLock {
                    guard let s = sockets else { return }
                    guard ok else { s.control.send(AppleMIDICommand.rejected(token: token, ssrc: ssrc).bytes, to: from); return }
                    if !known {
                        // A peer inviting again from the same address under a new SSRC has restarted: forget the old one.
                        peers.removeAll { !$0.initiator && $0.control == from }
                        let p = RTPMIDIPeer(control: from, initiator: false, token: token, state: .invitingData)
                        p.ssrc = peerSSRC
                        p.name = peerName
                        peers.append(p)
                    }
                    s.control.send(AppleMIDICommand.accepted(token: token, ssrc: ssrc, name: name).bytes, to: from)
                }
            } else {
                lock.withLock {
                    guard let s = sockets, let p = peers.first(where: { $0.ssrc == peerSSRC && !$0.initiator }) else {
                        sockets?.data.send(AppleMIDICommand.rejected(token: token, ssrc: ssrc).bytes, to: from)
                        return
                    }
                    if p.state != .connected { p.state = .connected; p.data = from; notify = true }
                    s.data.send(AppleMIDICommand.accepted(token: token, ssrc: ssrc, name: name).bytes, to: from)
                }
            }
        case let .accepted(token, peerSSRC, peerName):
            lock.withLock {
                guard let s = sockets, let p = peers.first(where: { $0.initiator && $0.token == token }) else { return }
                if !onData, p.state == .invitingControl {
                    p.ssrc = peerSSRC
                    p.name = peerName
                    p.state = .invitingData
                    p.attempts = 0
                    p.lastAttempt = AudioGetCurrentHostTime()
                    s.data.send(AppleMIDICommand.invitation(token: token, ssrc: ssrc, name: name).bytes, to: p.data)
                } else if onData, p.state == .invitingData {
                    p.state = .connected
                    p.lastSync = 0
                    p.syncs = 0
                    p.lastHeard = AudioGetCurrentHostTime()
                    notify = true
                }
            }
        case let .rejected(token, _):
            lock.withLock {
                if let i = peers.firstIndex(where: { $0.initiator && $0.token == token && $0.state != .connected }) {
                    peers.remove(at: i)
                    notify = true
                }
            }
        case let .bye(_, peerSSRC):
            lock.withLock {
                let before = peers.count
                peers.removeAll { $0.ssrc == peerSSRC && $0.state != .invitingControl }
                notify = peers.count != before
            }
        case let .clock(peerSSRC, count, t1, t2, _):
            lock.withLock {
                guard onData, let s = sockets, let p = peers.first(where: { $0.ssrc == peerSSRC && $0.state == .connected }) else { return }
                let now = Self.now()
                p.lastHeard = AudioGetCurrentHostTime()
                switch count {
                case 0:
                    s.data.send(AppleMIDICommand.clock(ssrc: ssrc, count: 1, t1: t1, t2: now, t3: 0).bytes, to: p.data)
                case 1:
                    s.data.send(AppleMIDICommand.clock(ssrc: ssrc, count: 2, t1: t1, t2: t2, t3: now).bytes, to: p.data)
                    p.roundTrip = Int64(bitPattern: now &- t1)
                    // The peer read its clock at t2, half way through the round trip on ours.
                    p.clockOffset = Int64(bitPattern: t2 &- (t1 &+ (now &- t1) / 2))
                default:
                    if case let .clock(_, _, _, _, t3) = command {
                        p.roundTrip = Int64(bitPattern: t3 &- t1)
                        p.clockOffset = Int64(bitPattern: (t1 &+ (t3 &- t1) / 2) &- t2)
                    }
                }
            }
        case let .feedback(peerSSRC, sequence):
            lock.withLock {
                guard let p = peers.first(where: { $0.ssrc == peerSSRC && $0.state == .connected }) else { return }
                p.history.acknowledge(sequence, latest: p.sendSequence - 1)
                let checkpoint = p.history.checkpoint
                p.unacknowledged.removeAll { $0.sequence < checkpoint }
            }
        }
    }

    /// Invitations not answered yet are sent again every second (up to 12 times, then given up), the
    /// initiator synchronises clocks at once, five more times 1.5 s apart, then every 10 s, and drops a peer
    /// silent for a minute; receivers send RS feedback at most every 250 ms while packets come in.
    private func timers() {
        var notify = false
        lock.withLock {
            guard let s = sockets else { return }
            let now = AudioGetCurrentHostTime()
            var gaveUp: Set<ObjectIdentifier> = []
            for p in peers {
                switch p.state {
                case .invitingControl, .invitingData:
                    guard p.initiator, now &- p.lastAttempt >= 1_000_000_000 || p.lastAttempt == 0 else { continue }
                    p.attempts += 1
                    if p.attempts > 12 { gaveUp.insert(ObjectIdentifier(p)); continue }
                    p.lastAttempt = now
                    let invitation = AppleMIDICommand.invitation(token: p.token, ssrc: ssrc, name: name).bytes
                    if p.state == .invitingControl { s.control.send(invitation, to: p.control) } else { s.data.send(invitation, to: p.data) }
                case .connected:
                    if p.initiator, now &- p.lastHeard > 60_000_000_000 {
                        gaveUp.insert(ObjectIdentifier(p))  // no answer to a minute of clock exchanges: gone
                        continue
                    }
                    let interval: UInt64 = p.syncs < 6 ? 1_500_000_000 : 10_000_000_000
                    if p.initiator, p.lastSync == 0 || now &- p.lastSync >= interval {
                        p.lastSync = now
                        p.syncs += 1
                        s.data.send(AppleMIDICommand.clock(ssrc: ssrc, count: 0, t1: Self.now(), t2: 0, t3: 0).bytes, to: p.data)
                    }
                    if p.feedbackDue, now &- p.lastFeedback >= 250_000_000 {
                        p.feedbackDue = false
                        p.lastFeedback = now
                        s.control.send(AppleMIDICommand.feedback(ssrc: ssrc, sequence: p.lastReceived).bytes, to: p.control)
                    }
                }
            }
            if !gaveUp.isEmpty {
                peers.removeAll { gaveUp.contains(ObjectIdentifier($0)) }
                notify = true
            }
        }
        if notify { changed() }
    }
}
