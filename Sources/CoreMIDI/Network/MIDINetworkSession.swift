import Foundation

/// A network MIDI session as Apple's Network MIDI driver runs it: one source and one destination endpoint,
/// connected over RTP-MIDI (RFC 6295 with the AppleMIDI session protocol) to any number of peers, a Mac's
/// network sessions among them. What peers send arrives at `sourceEndpoint()` (timestamped with its arrival
/// time, later commands of a packet by their delta times); what is sent to `destinationEndpoint()` goes to every
/// connected peer. Control on UDP port `networkPort`, MIDI on the next port; IPv4 only. An enabled session is
/// announced over Bonjour where avahi's `avahi-publish` is installed (see RTPMIDIBonjourAdvertiser); this
/// implementation does not browse, so peers are connected to by address and port.
///
/// Threading: any thread. Notifications are posted to NotificationCenter.default, with the session as object,
/// from the session's network thread (peers coming and going) or the calling thread (changes made through
/// this API). The network thread waits on its sockets, never on a render thread.
open class MIDINetworkSession: NSObject, @unchecked Sendable {
    nonisolated(unsafe) private static var sharedSession: MIDINetworkSession?
    private static let sharedLock = NSLock()

    /// Where `default()`'s session binds its sockets and the control port it asks for first (Apple's 5004;
    /// the next even pairs if taken). Tests set a loopback address and 0 (any free pair) before enabling it.
    nonisolated(unsafe) static var bindAddress = "0.0.0.0"
    nonisolated(unsafe) static var preferredPort: UInt16 = 5004

    private let lock = NSRecursiveLock()
    let engine: RTPMIDISession
    private let address: String
    private let requestedPort: UInt16
    private var enabled = false
    private var policy = MIDINetworkConnectionPolicy.noOne
    private var contactList: [MIDINetworkHost] = []
    /// Connections added while the session is disabled, invited once it is enabled.
    private var waiting: [MIDINetworkConnection] = []
    /// Whether enabling announces the session over Bonjour (with avahi-publish, where installed); not for a
    /// session bound to the loopback interface, which no other host could reach.
    var advertises: Bool
    private(set) var advertiser: RTPMIDIBonjourAdvertiser?
    private var client = MIDIClientRef()
    private var source = MIDIEndpointRef()
    private var destination = MIDIEndpointRef()

    /// The process's session (a singleton, disabled until enabled).
    open class func `default`() -> MIDINetworkSession {
        sharedLock.withLock {
            if let s = sharedSession { return s }
            let s = MIDINetworkSession(localName: "Session 1", address: bindAddress, port: preferredPort)
            sharedSession = s
            return s
        }
    }

    /// A session with its own endpoints named `localName`, bound to `address` and `port` when enabled.
    init(localName: String, address: String, port: UInt16) {
        self.localName = localName
        self.address = address
        requestedPort = port
        advertises = !address.hasPrefix("127.")
        engine = RTPMIDISession(name: ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "OpenCoreAudio")
        super.init()
        MIDIClientCreateWithBlock("Network MIDI" as CFString, &client, nil)
        MIDISourceCreate(client, localName as CFString, &source)
        let engine = self.engine
        MIDIDestinationCreateWithBlock(client, localName as CFString, &destination) { list, _ in
            // On the MIDI thread, at each packet's time: out to every connected peer.
            var commands: [[UInt8]] = []
            for p in list.unsafeSequence() {
                let bytes = Array(UnsafeRawBufferPointer(start: UnsafeRawPointer(p) + 10, count: Int(p.pointee.length)))
                commands += RTPMIDIPacket.commands(fromStream: bytes)
            }
            engine.send(commands)
        }
        let source = self.source
        engine.deliver = { deliveries in
            let size = deliveries.reduce(4) { $0 + 12 + $1.bytes.count }
            let builder = MIDIPacketList.Builder(byteSize: size)
            for d in deliveries { builder.append(timestamp: d.time, data: d.bytes) }
            builder.withUnsafePointer { _ = MIDIReceived(source, $0) }
        }
        engine.accept = { [weak self] from, _ in self?.accepts(from) ?? false }
        engine.changed = { [weak self] in self?.post(MIDINetworkNotificationSessionDidChange) }
    }

    deinit {
        engine.stop()
        MIDIClientDispose(client)
    }

    /// Whether the session is on the network: enabling binds its ports and invites the connections added so
    /// far; disabling says goodbye to every peer. Off at first, as on Apple's platforms.
    open var isEnabled: Bool {
        get { lock.withLock { enabled } }
        set {
            if newValue {
                let started: Bool = lock.withLock {
                    guard !enabled, engine.start(address: address, port: requestedPort) else { return false }
                    enabled = true
                    if advertises { advertiser = RTPMIDIBonjourAdvertiser(name: engine.name, port: engine.port) }
                    for c in waiting { if let a = c.host.resolved { engine.invite(a, for: c) } }
                    waiting = []
                    return true
                }
                if started { post(MIDINetworkNotificationSessionDidChange) }
            } else {
                let (wasEnabled, announcement) = lock.withLock {
                    defer { enabled = false; advertiser = nil }
                    return (enabled, advertiser)
                }
                announcement?.stop()
                // Not under the lock: stopping waits for the network thread, which may be asking `accepts`.
                if wasEnabled { engine.stop() }
            }
        }
    }

    /// The session's control port (UDP; MIDI data uses the next port).
    open var networkPort: Int { Int(engine.port != 0 ? engine.port : requestedPort) }

    /// The name peers see for this session (the host's name).
    open var networkName: String { engine.name }

    /// The name of the session's endpoints.
    public let localName: String

    /// Who may connect to the session.
    open var connectionPolicy: MIDINetworkConnectionPolicy {
        get { lock.withLock { policy } }
        set {
            lock.withLock { policy = newValue }
            post(MIDINetworkNotificationSessionDidChange)
        }
    }

    /// The hosts in the session's contact list.
    open func contacts() -> Set<MIDINetworkHost> { lock.withLock { Set(contactList) } }

    /// Adds a host to the contact list; false if a host with the same address is already there.
    @discardableResult open func addContact(_ contact: MIDINetworkHost) -> Bool {
        let added: Bool = lock.withLock {
            guard !contactList.contains(where: { $0.hasSameAddress(as: contact) }) else { return false }
            contactList.append(contact)
            return true
        }
        if added { post(MIDINetworkNotificationContactsDidChange) }
        return added
    }

    /// Removes a host (or one with the same address) from the contact list; false if it is not there.
    @discardableResult open func removeContact(_ contact: MIDINetworkHost) -> Bool {
        let removed: Bool = lock.withLock {
            guard let i = contactList.firstIndex(where: { $0 === contact || $0.hasSameAddress(as: contact) }) else { return false }
            contactList.remove(at: i)
            return true
        }
        if removed { post(MIDINetworkNotificationContactsDidChange) }
        return removed
    }

    /// The session's connections: those added (while being established too) and those peers made by inviting it.
    open func connections() -> Set<MIDINetworkConnection> {
        lock.withLock { Set(engine.connections() + waiting) }
    }

    /// Connects to the connection's host (invited now if the session is enabled, else once it is); false if
    /// the host cannot be resolved to an address or is already connected.
    @discardableResult open func addConnection(_ connection: MIDINetworkConnection) -> Bool {
        let added: Bool = lock.withLock {
            guard let address = connection.host.resolved else { return false }
            guard !(engine.connections() + waiting).contains(where: { $0 === connection || $0.host.hasSameAddress(as: connection.host) }) else { return false }
            if enabled { engine.invite(address, for: connection) } else { waiting.append(connection) }
            return true
        }
        if added { post(MIDINetworkNotificationSessionDidChange) }
        return added
    }

    /// Disconnects (BY) and forgets a connection; false if it is not one of the session's.
    @discardableResult open func removeConnection(_ connection: MIDINetworkConnection) -> Bool {
        let removed: Bool = lock.withLock {
            if let i = waiting.firstIndex(where: { $0 === connection }) { waiting.remove(at: i); return true }
            let match = engine.connections().first { $0 === connection } ?? engine.connections().first { $0.host.hasSameAddress(as: connection.host) }
            return match.map { engine.disconnect($0) } ?? false
        }
        if removed { post(MIDINetworkNotificationSessionDidChange) }
        return removed
    }

    /// The source endpoint: what peers send arrives here.
    open func sourceEndpoint() -> MIDIEndpointRef { source }

    /// The destination endpoint: what is sent here goes to every connected peer.
    open func destinationEndpoint() -> MIDIEndpointRef { destination }

    /// Whether an invitation from `from` is accepted under the connection policy (contacts match by
    /// address, and by port unless the contact's port is 0).
    private func accepts(_ from: RTPMIDIAddress) -> Bool {
        lock.withLock {
            switch policy {
            case .noOne: return false
            case .anyone: return true
            case .hostsInContactList:
                return contactList.contains { c in
                    guard c.netServiceName == nil, let a = RTPMIDIAddress.resolve(c.address, port: 0) else { return false }
                    return a.ip == from.ip && (c.port == 0 || c.port == Int(from.port))
                }
            }
        }
    }

    private func post(_ name: String) {
        NotificationCenter.default.post(name: Notification.Name(name), object: self)
    }
}
