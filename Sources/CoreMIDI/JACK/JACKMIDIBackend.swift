import CJack
import Foundation

/// JACK MIDI as Core MIDI devices. The process is one JACK client (named after the process). Every other
/// client's MIDI ports become a device (one per JACK client, named after it) with one entity, whose sources
/// are the client's output ports and destinations its input ports; unique IDs are hashed from the port
/// and client names, so they are the same in every run. Our virtual sources and destinations become JACK
/// output and input ports of our client, named after them, for outside clients to connect to.
///
/// Finding the server: lazily (MIDIBackends.update), at the server JACK_DEFAULT_SERVER names ("default"
/// without it), never starting one (JackNoStartServer). A changed JACK_DEFAULT_SERVER is noticed at the next
/// API call (the devices of the old server go, those of the new one come); a server that shuts down takes
/// its devices along, and the poll thread looks for it again every second.
///
/// Threads: JACK's process thread runs the C callback in CJack's shim, which only moves events between
/// JACK buffers and lock-free single-reader/single-writer rings (jack_ringbuffer: one per input port, two per
/// output port). Everything else happens here, under `lock`: MIDISend and MIDIReceived write to output rings
/// (timestamp 0 or past: the as-soon-as-possible ring, placed at the next cycle's first frame; future: the timed
/// ring, at the frame of their host time; packets more than `horizon` ahead wait on the MIDI thread's scheduler
/// first, so the timed ring stays in time order and a later send is held up by at most `horizon`); the
/// poll thread ("OCA.JACKMIDI")
/// drains the input rings every millisecond into MIDIServer's delivery and rescans the ports when JACK
/// says the graph changed. Lock order: this lock, then MIDIServer's (which never calls in while held,
/// removals are only noted in `pendingRemovals`).
final class JACKMIDIBackend: MIDIEndpointDriver, @unchecked Sendable {
    static let shared = JACKMIDIBackend()

    /// What one of our JACK ports stands for.
    private enum Role: Equatable {
        /// Our virtual source (a JACK output port) or destination (an input port).
        case virtualSource(MIDIEndpointRef), virtualDestination(MIDIEndpointRef)
        /// The output port that feeds an outside input port, and the input port fed by an outside output port.
        case toOutside(String), fromOutside(String)
        var isOutput: Bool {
            switch self {
            case .virtualSource, .toOutside: return true
            default: return false
            }
        }
    }

    private struct Slot {
        let role: Role
        let port: OpaquePointer
        /// Timed events (output) or received ones (input).
        let ring: UnsafeMutablePointer<jack_ringbuffer_t>
        /// An output port's as-soon-as-possible events, which never wait behind a timed one.
        let nowRing: UnsafeMutablePointer<jack_ringbuffer_t>?
        var splitter = MIDIMessageSplitter()
    }

    /// An outside port shown as an endpoint.
    private struct OutsidePort {
        let endpoint: MIDIEndpointRef
        let client: String
    }

    private static let ringBytes = 1 << 16
    /// How far ahead of its time a packet goes into a ring (later ones wait on the scheduler); also what JACK
    /// destinations announce as kMIDIPropertyAdvanceScheduleTimeMuSec.
    static let horizon: UInt64 = 50_000_000

    private let lock = NSLock()
    private var client: OpaquePointer?
    private var state: UnsafeMutablePointer<oca_jack_state>?
    private var slots: [Int: Slot] = [:]
    private var outside: [String: OutsidePort] = [:]
    private var devices: [String: MIDIDeviceRef] = [:]
    private var entities: [String: MIDIEntityRef] = [:]
    private var serverName: String?
    private var ourName = ""
    private var wanted: String?
    private var lastAttempt: UInt64 = 0
    private var lastAttemptServer = ""
    private var lastOffsetSync: UInt64 = 0
    private var threadStarted = false
    private let pendingLock = NSLock()
    private var pendingRemovals: [MIDIEndpointRef] = []

    /// The server JACK_DEFAULT_SERVER names, as libjack reads it.
    private static func requestedServer() -> String {
        getenv("JACK_DEFAULT_SERVER").map { String(cString: $0) } ?? "default"
    }

    /// Whether we are connected to a server (for tests and diagnostics).
    var isConnected: Bool { lock.withLock { client != nil } }
    /// Our JACK client's name ("" when not connected).
    var clientName: String { lock.withLock { client != nil ? ourName : "" } }
    /// The server's sample rate and period (0 when not connected).
    var timing: (rate: Double, frames: Int) {
        lock.withLock {
            guard let client else { return (0, 0) }
            return (Double(jack_get_sample_rate(client)), Int(jack_get_buffer_size(client)))
        }
    }
    /// Events dropped so far because a ring or JACK buffer was full.
    var droppedEvents: Int { lock.withLock { state.map { Int(oca_jack_dropped($0)) } ?? 0 } }

    // MARK: Connection

    /// Connects on first use, follows a changed JACK_DEFAULT_SERVER, retries a missing server at most twice a second.
    func update() {
        let name = Self.requestedServer()
        lock.withLock {
            wanted = name
            if client != nil && serverName == name { return }
            if client != nil { disconnectLocked() }
            let now = AudioGetCurrentHostTime()
            if lastAttempt != 0 && now - lastAttempt < 500_000_000 && lastAttemptServer == name { return }
            lastAttempt = now
            lastAttemptServer = name
            connectLocked(server: name)
        }
    }

    private func connectLocked(server: String) {
        oca_jack_silence()
        var status = jack_status_t(rawValue: 0)
        let processName = String(ProcessInfo.processInfo.processName.prefix(40))
        guard let c = oca_jack_open(processName.isEmpty ? "CoreMIDI" : processName, server, &status) else { return }
        let raw = UnsafeMutableRawPointer.allocate(byteCount: MemoryLayout<oca_jack_state>.size, alignment: MemoryLayout<oca_jack_state>.alignment)
        raw.initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<oca_jack_state>.size)
        let st = raw.bindMemory(to: oca_jack_state.self, capacity: 1)
        st.pointee.client = c
        syncOffset(st)
        guard oca_jack_install(st) == 0, jack_activate(c) == 0 else {
            jack_client_close(c)
            raw.deallocate()
            return
        }
        client = c
        state = st
        serverName = server
        ourName = String(cString: jack_get_client_name(c))
        pendingLock.withLock { pendingRemovals = [] }
        for e in MIDIServer.shared.virtualEndpoints() {
            _ = addSlotLocked(e.kind == .source ? .virtualSource(e.ref) : .virtualDestination(e.ref), portName: e.name)
        }
        rescanLocked()
        if !threadStarted {
            threadStarted = true
            let thread = Thread { [unowned self] in self.run() }
            thread.name = "OCA.JACKMIDI"
            thread.qualityOfService = .userInteractive
            thread.start()
        }
    }

    /// Drops the client, its ports and every device it showed (their removal is notified). `serverGone`: the server
    /// shut the client down; then the client is abandoned, not closed: libjack's jack_client_close on a client whose
    /// server has gone can block for ever on a lock of libjack's own (seen in CI after a test stopped its jackd), so
    /// the dead client, its rings and state are left allocated (a few kilobytes per server that goes away).
    private func disconnectLocked(serverGone: Bool = false) {
        guard let c = client, let st = state else { return }
        if !serverGone {
            jack_client_close(c)  // no process callback runs after this
            for slot in slots.values {
                jack_ringbuffer_free(slot.ring)
                if let r = slot.nowRing { jack_ringbuffer_free(r) }
            }
            UnsafeMutableRawPointer(st).deallocate()
        }
        slots = [:]
        client = nil
        state = nil
        serverName = nil
        let s = MIDIServer.shared
        s.locked { for device in devices.values { s.remove(device) } }
        outside = [:]
        devices = [:]
        entities = [:]
    }

    /// Host time = JACK time + offset (both monotonic clocks; resampled every second for drift).
    private func syncOffset(_ st: UnsafeMutablePointer<oca_jack_state>) {
        let before = AudioGetCurrentHostTime()
        let jackMicros = jack_get_time()
        let after = AudioGetCurrentHostTime()
        oca_jack_set_offset(st, Int64(bitPattern: before / 2 + after / 2) - Int64(jackMicros) * 1000)
        lastOffsetSync = after
    }

    // MARK: Ports

    /// Registers a JACK port for `role` (a unique short name from `portName`) and publishes it to the process callback.
    private func addSlotLocked(_ role: Role, portName: String) -> Int? {
        guard let c = client, let st = state else { return nil }
        if let existing = slots.first(where: { $0.value.role == role }) { return existing.key }
        guard let index = (0..<Int(OCA_JACK_SLOTS)).first(where: { slots[$0] == nil }) else { return nil }
        var base = String(portName.replacingOccurrences(of: ":", with: "-").prefix(120))
        if base.isEmpty { base = "port" }
        var name = base, n = 1
        while jack_port_by_name(c, "\(ourName):\(name)") != nil { n += 1; name = "\(base) \(n)" }
        let flags = UInt(role.isOutput ? JackPortIsOutput.rawValue : JackPortIsInput.rawValue)
        guard let port = jack_port_register(c, name, JACK_DEFAULT_MIDI_TYPE, flags, 0) else { return nil }
        let ring = jack_ringbuffer_create(Self.ringBytes), nowRing = role.isOutput ? jack_ringbuffer_create(Self.ringBytes) : nil
        guard let ring, nowRing != nil || !role.isOutput else {
            jack_port_unregister(c, port)
            if let ring { jack_ringbuffer_free(ring) }
            return nil
        }
        slots[index] = Slot(role: role, port: port, ring: ring, nowRing: nowRing)
        oca_jack_slot_publish(st, Int32(index), port, ring, nowRing, role.isOutput ? 1 : 0)
        return index
    }

    /// Takes a port away from the process callback, waits until no cycle can still use it, then frees it.
    private func removeSlotLocked(_ index: Int) {
        guard let slot = slots.removeValue(forKey: index), let c = client, let st = state else { return }
        oca_jack_slot_clear(st, Int32(index))
        let seen = oca_jack_cycles(st)
        let deadline = AudioGetCurrentHostTime() + 500_000_000
        while oca_jack_cycles(st) < seen + 2 && AudioGetCurrentHostTime() < deadline { usleep(500) }
        jack_port_unregister(c, slot.port)
        // A stalled server may still be in a cycle that read the slot: then the ring is left (tiny) rather than freed under it.
        if oca_jack_cycles(st) >= seen + 2 {
            jack_ringbuffer_free(slot.ring)
            if let r = slot.nowRing { jack_ringbuffer_free(r) }
        }
    }

    /// Publishes a new virtual endpoint as a JACK port.
    func publish(_ ref: MIDIEndpointRef) {
        let s = MIDIServer.shared
        guard let (kind, name) = s.locked({ s.object(ref).map { ($0.kind, $0.strings["name"] ?? "") } }) else { return }
        lock.withLock { _ = addSlotLocked(kind == .source ? .virtualSource(ref) : .virtualDestination(ref), portName: name) }
    }

    /// Notes that a virtual endpoint went (the poll thread unregisters its port).
    func unpublish(_ ref: MIDIEndpointRef) {
        pendingLock.withLock { pendingRemovals.append(ref) }
    }

    /// Whether a virtual source has a JACK port.
    func publishes(_ source: MIDIEndpointRef) -> Bool {
        lock.withLock { slots.values.contains { $0.role == .virtualSource(source) } }
    }

    // MARK: Sending

    /// MIDIReceived on a virtual source: to its JACK output port.
    func sourceSent(_ source: MIDIEndpointRef, _ batch: MIDIMessageBatch) {
        enqueue(batch, role: .virtualSource(source), flushKey: 0)
    }

    /// MIDISend to an outside JACK input port: through our output port connected to it (made on first use).
    func send(_ batch: MIDIMessageBatch, to destination: MIDIObject) {
        let name: String? = lock.withLock {
            guard let (port, _) = outside.first(where: { $0.value.endpoint == destination.ref }) else { return nil }
            guard addSlotLocked(.toOutside(port), portName: "to \(port)") != nil else { return nil }
            connectLocked(role: .toOutside(port), outsidePort: port)
            return port
        }
        guard let name else { return }
        enqueue(batch, role: .toOutside(name), flushKey: destination.ref)
    }

    /// An input port listens to an outside JACK output port: our input port, connected to it (made on first use).
    func listen(to source: MIDIObject) {
        lock.withLock {
            guard let (port, _) = outside.first(where: { $0.value.endpoint == source.ref }) else { return }
            guard addSlotLocked(.fromOutside(port), portName: "from \(port)") != nil else { return }
            connectLocked(role: .fromOutside(port), outsidePort: port)
        }
    }

    /// Connects our port for `role` with the outside port (in the direction the role says), unless already connected.
    private func connectLocked(role: Role, outsidePort: String) {
        guard let c = client, let slot = slots.values.first(where: { $0.role == role }) else { return }
        let ours = String(cString: jack_port_name(slot.port))
        guard jack_port_connected_to(slot.port, outsidePort) == 0 else { return }
        if role.isOutput { jack_connect(c, ours, outsidePort) } else { jack_connect(c, outsidePort, ours) }
    }

    /// Puts the packets due within `horizon` into the port's ring now and schedules the others (MIDIFlushOutput
    /// drops those of `flushKey`, the destination, while they wait).
    private func enqueue(_ batch: MIDIMessageBatch, role: Role, flushKey: MIDIEndpointRef) {
        let now = AudioGetCurrentHostTime()
        for packet in batch.packets {
            let bytes = packet.bytes ?? MIDIConversion.bytes(fromUMP: packet.words ?? [])
            if packet.time > now + Self.horizon {
                MIDIServer.shared.scheduler.schedule(at: packet.time - Self.horizon, destination: flushKey) { [self] in
                    write(bytes, time: packet.time, role: role)
                }
            } else {
                write(bytes, time: packet.time, role: role)
            }
        }
    }

    /// Splits bytes into complete messages and writes them to the role's ring, each as one record (header and
    /// message in one write, so that the process callback never sees half of one).
    private func write(_ bytes: [UInt8], time: UInt64, role: Role) {
        lock.withLock {
            guard let index = slots.first(where: { $0.value.role == role })?.key, var slot = slots[index] else { return }
            let messages = slot.splitter.messages(bytes)
            slots[index] = slot
            // Timestamp 0 and past times go to the as-soon-as-possible ring, future ones (in time order) to the timed one.
            let ring = (time == 0 || time <= AudioGetCurrentHostTime()) ? slot.nowRing ?? slot.ring : slot.ring
            let header = MemoryLayout<oca_jack_event_header>.size
            for message in messages {
                var record = [UInt8](repeating: 0, count: header + message.count)
                record.withUnsafeMutableBytes { raw in
                    raw.storeBytes(of: oca_jack_event_header(time: time, size: UInt32(message.count), reserved: 0), as: oca_jack_event_header.self)
                    raw.baseAddress!.advanced(by: header).copyMemory(from: message, byteCount: message.count)
                }
                guard jack_ringbuffer_write_space(ring) >= record.count else { continue }
                _ = record.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { jack_ringbuffer_write(ring, $0.baseAddress, $0.count) } }
            }
        }
    }

    // MARK: The poll thread

    private func run() {
        setKernelThreadName("OCA.JACKMIDI")
        while true {
            let connected = lock.withLock { tickLocked() }
            usleep(connected ? 1000 : 250_000)
        }
    }

    /// One round of the poll thread; false when there is no server.
    private func tickLocked() -> Bool {
        let removed = pendingLock.withLock { () -> [MIDIEndpointRef] in defer { pendingRemovals = [] }; return pendingRemovals }
        guard let st = state else {
            // Looks again for a server that went away (once a second).
            if wanted != nil, AudioGetCurrentHostTime() - lastAttempt > 1_000_000_000 {
                lastAttempt = AudioGetCurrentHostTime()
                lastAttemptServer = Self.requestedServer()
                connectLocked(server: lastAttemptServer)
            }
            return false
        }
        for ref in removed {
            for (index, slot) in slots where slot.role == .virtualSource(ref) || slot.role == .virtualDestination(ref) { removeSlotLocked(index) }
        }
        if oca_jack_take_flag(&st.pointee.shut_down) != 0 {
            disconnectLocked(serverGone: true)
            lastAttempt = AudioGetCurrentHostTime()
            return false
        }
        if oca_jack_take_flag(&st.pointee.graph_changed) != 0 { rescanLocked() }
        drainLocked()
        if AudioGetCurrentHostTime() - lastOffsetSync > 1_000_000_000 { syncOffset(st) }
        return true
    }

    /// Hands what the input rings hold to Core MIDI: an outside source's events to the input ports connected
    /// to it, events for our virtual destination to its read proc or block.
    private func drainLocked() {
        let s = MIDIServer.shared
        let header = MemoryLayout<oca_jack_event_header>.size
        for slot in slots.values where !slot.role.isOutput {
            var packets: [MIDIMessageBatch.Packet] = []
            while true {
                var h = oca_jack_event_header()
                let peeked = withUnsafeMutableBytes(of: &h) { jack_ringbuffer_peek(slot.ring, $0.baseAddress!.assumingMemoryBound(to: CChar.self), header) }
                guard peeked == header, jack_ringbuffer_read_space(slot.ring) >= header + Int(h.size) else { break }
                jack_ringbuffer_read_advance(slot.ring, header)
                var bytes = [UInt8](repeating: 0, count: Int(h.size))
                _ = bytes.withUnsafeMutableBufferPointer { $0.withMemoryRebound(to: CChar.self) { jack_ringbuffer_read(slot.ring, $0.baseAddress, $0.count) } }
                packets.append(MIDIMessageBatch.Packet(time: h.time, bytes: bytes, protocolID: ._1_0))
            }
            guard !packets.isEmpty else { continue }
            let batch = MIDIMessageBatch(packets: packets)
            switch slot.role {
            case .virtualDestination(let ref):
                if let d = s.locked({ s.object(ref, [.destination]) }), d.receives { s.deliver(batch, to: d, connRefCon: nil) }
            case .fromOutside(let name):
                guard let endpoint = outside[name]?.endpoint else { continue }
                for (port, conn) in s.receivers(ofSource: endpoint) { s.deliver(batch, to: port, connRefCon: conn) }
            default: break
            }
        }
    }

    // MARK: Outside ports as devices

    /// Brings the devices in line with the MIDI ports JACK has (other clients' only).
    private func rescanLocked() {
        guard let c = client else { return }
        var current: [String: Bool] = [:]  // full name: is an output port
        if let names = jack_get_ports(c, nil, JACK_DEFAULT_MIDI_TYPE, 0) {
            var i = 0
            while let name = names[i] {
                let full = String(cString: name)
                if !full.hasPrefix(ourName + ":"), let port = jack_port_by_name(c, name) {
                    current[full] = jack_port_flags(port) & Int32(JackPortIsOutput.rawValue) != 0
                }
                i += 1
            }
            jack_free(names)
        }
        let s = MIDIServer.shared
        for (name, port) in outside where current[name] == nil {
            outside[name] = nil
            s.locked { s.remove(port.endpoint) }
            for (index, slot) in slots where slot.role == .toOutside(name) || slot.role == .fromOutside(name) { removeSlotLocked(index) }
            if !outside.values.contains(where: { $0.client == port.client }), let device = devices.removeValue(forKey: port.client) {
                entities[port.client] = nil
                s.locked { s.remove(device) }
            }
        }
        for (name, isOutput) in current.sorted(by: { $0.key < $1.key }) where outside[name] == nil {
            let clientName = String(name.prefix { $0 != ":" })
            let portName = String(name.dropFirst(clientName.count + 1))
            let entity = entityLocked(for: clientName)
            let endpoint = s.create(isOutput ? .source : .destination, owner: entity, name: portName,
                                    uniqueID: Self.uniqueID("jack-port:" + name)) { o in
                o.driver = self
                o.strings["displayName"] = "\(clientName) \(portName)"
                o.strings["driver"] = "org.jackaudio.jack"
                if !isOutput { o.integers["scheduleAheadMuSec"] = Int32(Self.horizon / 1000) }
            }
            outside[name] = OutsidePort(endpoint: endpoint, client: clientName)
        }
    }

    /// The entity (under its device) for a JACK client, made on first use.
    private func entityLocked(for clientName: String) -> MIDIEntityRef {
        if let entity = entities[clientName] { return entity }
        let s = MIDIServer.shared
        let device = s.create(.device, owner: 0, name: clientName, uniqueID: Self.uniqueID("jack-client:" + clientName)) { o in
            o.strings["manufacturer"] = "JACK"
            o.strings["model"] = "JACK MIDI client"
            o.strings["driver"] = "org.jackaudio.jack"
        }
        let entity = s.create(.entity, owner: device, name: clientName, uniqueID: Self.uniqueID("jack-entity:" + clientName))
        devices[clientName] = device
        entities[clientName] = entity
        return entity
    }

    /// A unique ID that depends only on `key` (FNV-1a, 32 bits): the same for the same port in every run.
    static func uniqueID(_ key: String) -> MIDIUniqueID {
        var hash: UInt32 = 0x811C_9DC5
        for byte in key.utf8 { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
        let id = MIDIUniqueID(bitPattern: hash)
        return id == kMIDIInvalidUniqueID ? 1 : id
    }
}
