import CALSA
import Foundation

/// The ALSA sequencer as Core MIDI devices: every other sequencer client (hardware ports of sound cards and
/// software clients alike, the system client left out) is a device, each of its exported ports an entity with
/// a source (a readable port) and/or a destination (a writable port); unique IDs are hashed from the client and
/// port names (client numbers of software clients change between runs, names do not). Our virtual sources and
/// destinations become sequencer ports of our client, named after them (`aconnect -l` lists them).
///
/// Opening: lazily (MIDIBackends.update), snd_seq_open on "default"; where it fails (no /dev/snd/seq, as on
/// machines without sound devices) the backend stays off quietly and tries again at most every 5 s.
///
/// Threads: one input thread ("OCA.ALSASeq") blocks in snd_seq_event_input: port and client announcements
/// (subscribed from System:Announce) rescan the ports; MIDI events are decoded to bytes and delivered with the
/// host time of their arrival. Sending encodes bytes into events sent directly (no sequencer queue): packets
/// with future timestamps wait on the MIDI thread's scheduler until due. Everything else under `lock`, taken
/// before MIDIServer's, never under it (removals are done on a dispatch queue).
final class ALSASequencerBackend: MIDIEndpointDriver, @unchecked Sendable {
    static let shared = ALSASequencerBackend()

    private struct Address: Hashable {
        let client: Int32
        let port: Int32
    }

    /// An outside port shown as an entity with its endpoints.
    private struct OutsidePort {
        let entity: MIDIEntityRef
        let source: MIDIEndpointRef?
        let destination: MIDIEndpointRef?
    }

    private let lock = NSLock()
    private var seq: OpaquePointer?
    private var encoder: OpaquePointer?
    private var ourClient: Int32 = -1
    /// Our port that listens to outside sources (connected on demand) and to System:Announce.
    private var inPort: Int32 = -1
    /// Our port that sends to outside destinations (events addressed directly).
    private var outPort: Int32 = -1
    private var virtualPorts: [MIDIEndpointRef: Int32] = [:]
    private var outside: [Address: OutsidePort] = [:]
    private var devices: [Int32: MIDIDeviceRef] = [:]
    private var lastAttempt: UInt64 = 0
    /// The error of the last snd_seq_open (0 when open): -2 (ENOENT) without /dev/snd/seq.
    private(set) var openError: Int32 = 0

    /// Whether the sequencer is open.
    var isOpen: Bool { lock.withLock { seq != nil } }
    /// Our sequencer client number (-1 when closed).
    var clientID: Int32 { lock.withLock { ourClient } }

    // MARK: Opening

    /// Opens the sequencer on first use; retries a failed open at most every 5 s.
    func update() {
        lock.withLock {
            guard seq == nil else { return }
            let now = AudioGetCurrentHostTime()
            if lastAttempt != 0 && now - lastAttempt < 5_000_000_000 { return }
            lastAttempt = now
            var handle: OpaquePointer?
            let err = oca_alsa_seq_open_quietly(&handle)
            guard err >= 0, let handle else { openError = err; return }
            openError = 0
            seq = handle
            snd_seq_set_client_name(handle, String(ProcessInfo.processInfo.processName.prefix(60)))
            ourClient = snd_seq_client_id(handle)
            let type = UInt32(SND_SEQ_PORT_TYPE_MIDI_GENERIC | SND_SEQ_PORT_TYPE_APPLICATION)
            inPort = snd_seq_create_simple_port(handle, "CoreMIDI in", UInt32(SND_SEQ_PORT_CAP_WRITE), type)
            outPort = snd_seq_create_simple_port(handle, "CoreMIDI out", UInt32(SND_SEQ_PORT_CAP_READ), type)
            snd_seq_connect_from(handle, inPort, Int32(SND_SEQ_CLIENT_SYSTEM), Int32(SND_SEQ_PORT_SYSTEM_ANNOUNCE))
            snd_midi_event_new(65_536, &encoder)
            for e in MIDIServer.shared.virtualEndpoints() { addVirtualLocked(e.ref, e.kind, e.name) }
            rescanLocked()
            nonisolated(unsafe) let reader = handle  // used by the input thread alone from here on, for reading
            let thread = Thread { [unowned self] in self.run(reader) }
            thread.name = "OCA.ALSASeq"
            thread.qualityOfService = .userInteractive
            thread.start()
        }
    }

    // MARK: Our virtual endpoints

    private func addVirtualLocked(_ ref: MIDIEndpointRef, _ kind: MIDIObject.Kind, _ name: String) {
        guard let seq, virtualPorts[ref] == nil else { return }
        let caps = kind == .source ? SND_SEQ_PORT_CAP_READ | SND_SEQ_PORT_CAP_SUBS_READ : SND_SEQ_PORT_CAP_WRITE | SND_SEQ_PORT_CAP_SUBS_WRITE
        let port = snd_seq_create_simple_port(seq, String(name.prefix(60)), UInt32(caps), UInt32(SND_SEQ_PORT_TYPE_MIDI_GENERIC | SND_SEQ_PORT_TYPE_APPLICATION))
        if port >= 0 { virtualPorts[ref] = port }
    }

    /// Publishes a new virtual endpoint as a sequencer port.
    func publish(_ ref: MIDIEndpointRef) {
        let s = MIDIServer.shared
        guard let (kind, name) = s.locked({ s.object(ref).map { ($0.kind, $0.strings["name"] ?? "") } }) else { return }
        lock.withLock { addVirtualLocked(ref, kind, name) }
    }

    /// A virtual endpoint went: its port is deleted off the caller's thread (which may hold MIDIServer's lock).
    func unpublish(_ ref: MIDIEndpointRef) {
        DispatchQueue.global().async { [self] in
            lock.withLock {
                guard let seq, let port = virtualPorts.removeValue(forKey: ref) else { return }
                snd_seq_delete_simple_port(seq, port)
            }
        }
    }

    /// Whether a virtual source has a sequencer port.
    func publishes(_ source: MIDIEndpointRef) -> Bool { lock.withLock { virtualPorts[source] != nil } }

    // MARK: Sending

    /// MIDIReceived on a virtual source: to the subscribers of its port.
    func sourceSent(_ source: MIDIEndpointRef, _ batch: MIDIMessageBatch) {
        guard let port = lock.withLock({ virtualPorts[source] }) else { return }
        schedule(batch, from: port, to: nil, flushKey: 0)
    }

    /// MIDISend to an outside port: addressed to it directly from our output port.
    func send(_ batch: MIDIMessageBatch, to destination: MIDIObject) {
        let target: (Address, Int32)? = lock.withLock {
            guard let addr = outside.first(where: { $0.value.destination == destination.ref })?.key else { return nil }
            return (addr, outPort)
        }
        guard let (addr, port) = target else { return }
        schedule(batch, from: port, to: addr, flushKey: destination.ref)
    }

    /// An input port listens to an outside source: our input port subscribes to it.
    func listen(to source: MIDIObject) {
        lock.withLock {
            guard let seq, let addr = outside.first(where: { $0.value.source == source.ref })?.key else { return }
            snd_seq_connect_from(seq, inPort, addr.client, addr.port)  // -EBUSY when already subscribed: fine
        }
    }

    /// Sends due packets now and schedules later ones on the MIDI thread (no sequencer queue is used).
    private func schedule(_ batch: MIDIMessageBatch, from port: Int32, to dest: Address?, flushKey: MIDIEndpointRef) {
        let now = AudioGetCurrentHostTime()
        for packet in batch.packets {
            let bytes = packet.bytes ?? MIDIConversion.bytes(fromUMP: packet.words ?? [])
            if packet.time > now {
                MIDIServer.shared.scheduler.schedule(at: packet.time, destination: flushKey) { [self] in output(bytes, from: port, to: dest) }
            } else {
                output(bytes, from: port, to: dest)
            }
        }
    }

    /// Encodes bytes into sequencer events and sends each directly (to `dest`, or to the port's subscribers).
    private func output(_ bytes: [UInt8], from port: Int32, to dest: Address?) {
        lock.withLock {
            guard let seq, let encoder, !bytes.isEmpty else { return }
            snd_midi_event_reset_encode(encoder)
            bytes.withUnsafeBufferPointer { buffer in
                var offset = 0
                while offset < buffer.count {
                    var ev = snd_seq_event_t()
                    let used = snd_midi_event_encode(encoder, buffer.baseAddress! + offset, buffer.count - offset, &ev)
                    guard used > 0 else { break }
                    offset += used
                    guard ev.type != snd_seq_event_type_t(SND_SEQ_EVENT_NONE.rawValue) else { continue }  // message not complete yet
                    ev.source.port = UInt8(truncatingIfNeeded: port)
                    ev.dest.client = UInt8(truncatingIfNeeded: dest?.client ?? Int32(SND_SEQ_ADDRESS_SUBSCRIBERS))
                    ev.dest.port = UInt8(truncatingIfNeeded: dest?.port ?? Int32(SND_SEQ_ADDRESS_UNKNOWN))
                    ev.queue = UInt8(SND_SEQ_QUEUE_DIRECT)
                    snd_seq_event_output_direct(seq, &ev)
                }
            }
        }
    }

    // MARK: Input

    private func run(_ handle: OpaquePointer) {
        setKernelThreadName("OCA.ALSASeq")
        var decoder: OpaquePointer?
        snd_midi_event_new(65_536, &decoder)
        snd_midi_event_no_status(decoder, 1)  // every message with its status byte
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            var event: UnsafeMutablePointer<snd_seq_event_t>?
            let r = snd_seq_event_input(handle, &event)
            guard r >= 0, let ev = event?.pointee else {
                if r != -ENOSPC { usleep(10_000) }  // ENOSPC: our input overran, events were lost; go on
                continue
            }
            let type = Int(ev.type)
            let announcements = [SND_SEQ_EVENT_CLIENT_START, SND_SEQ_EVENT_CLIENT_EXIT, SND_SEQ_EVENT_CLIENT_CHANGE,
                                 SND_SEQ_EVENT_PORT_START, SND_SEQ_EVENT_PORT_EXIT, SND_SEQ_EVENT_PORT_CHANGE].map { Int($0.rawValue) }
            if announcements.contains(type) {
                lock.withLock { rescanLocked() }
                continue
            }
            snd_midi_event_reset_decode(decoder)
            var copy = ev
            let count = buffer.withUnsafeMutableBufferPointer { snd_midi_event_decode(decoder, $0.baseAddress, $0.count, &copy) }
            guard count > 0 else { continue }
            deliver(Array(buffer.prefix(count)), to: Int32(ev.dest.port), from: Address(client: Int32(ev.source.client), port: Int32(ev.source.port)))
        }
    }

    /// Bytes that arrived at one of our ports: from an outside source (to the input ports connected to it) or
    /// for one of our virtual destinations.
    private func deliver(_ bytes: [UInt8], to port: Int32, from source: Address) {
        let s = MIDIServer.shared
        let batch = MIDIMessageBatch(packets: [MIDIMessageBatch.Packet(time: AudioGetCurrentHostTime(), bytes: bytes, protocolID: ._1_0)])
        let (endpoint, destination): (MIDIEndpointRef?, MIDIEndpointRef?) = lock.withLock {
            if port == inPort { return (outside[source]?.source, nil) }
            return (nil, virtualPorts.first(where: { $0.value == port })?.key)
        }
        if let endpoint {
            for (p, conn) in s.receivers(ofSource: endpoint) { s.deliver(batch, to: p, connRefCon: conn) }
        }
        if let destination, let d = s.locked({ s.object(destination, [.destination]) }), d.receives {
            s.deliver(batch, to: d, connRefCon: nil)
        }
    }

    // MARK: Outside ports as devices

    /// Brings the devices in line with the sequencer's exported ports (other clients', the system client's left out).
    private func rescanLocked() {
        guard let seq else { return }
        var cinfo: OpaquePointer?, pinfo: OpaquePointer?
        snd_seq_client_info_malloc(&cinfo)
        snd_seq_port_info_malloc(&pinfo)
        defer {
            snd_seq_client_info_free(cinfo)
            snd_seq_port_info_free(pinfo)
        }
        var current: [Address: (client: String, port: String, read: Bool, write: Bool)] = [:]
        let read = UInt32(SND_SEQ_PORT_CAP_READ | SND_SEQ_PORT_CAP_SUBS_READ), write = UInt32(SND_SEQ_PORT_CAP_WRITE | SND_SEQ_PORT_CAP_SUBS_WRITE)
        snd_seq_client_info_set_client(cinfo, -1)
        while snd_seq_query_next_client(seq, cinfo) >= 0 {
            let client = snd_seq_client_info_get_client(cinfo)
            guard client != ourClient, client != Int32(SND_SEQ_CLIENT_SYSTEM) else { continue }
            let clientName = String(cString: snd_seq_client_info_get_name(cinfo))
            snd_seq_port_info_set_client(pinfo, client)
            snd_seq_port_info_set_port(pinfo, -1)
            while snd_seq_query_next_port(seq, pinfo) >= 0 {
                let caps = snd_seq_port_info_get_capability(pinfo)
                guard caps & UInt32(SND_SEQ_PORT_CAP_NO_EXPORT) == 0, caps & read == read || caps & write == write else { continue }
                current[Address(client: client, port: snd_seq_port_info_get_port(pinfo))] =
                    (clientName, String(cString: snd_seq_port_info_get_name(pinfo)), caps & read == read, caps & write == write)
            }
        }
        let s = MIDIServer.shared
        for (addr, port) in outside where current[addr] == nil {
            outside[addr] = nil
            s.locked { s.remove(port.entity) }
            if !outside.keys.contains(where: { $0.client == addr.client }), let device = devices.removeValue(forKey: addr.client) {
                s.locked { s.remove(device) }
            }
        }
        for (addr, info) in current.sorted(by: { ($0.key.client, $0.key.port) < ($1.key.client, $1.key.port) }) where outside[addr] == nil {
            let device = devices[addr.client] ?? s.create(.device, owner: 0, name: info.client,
                                                           uniqueID: JACKMIDIBackend.uniqueID("alsa-client:" + info.client)) { o in
                o.strings["driver"] = "org.alsa-project.seq"
            }
            devices[addr.client] = device
            let key = "\(info.client):\(info.port)"
            let entity = s.create(.entity, owner: device, name: info.port, uniqueID: JACKMIDIBackend.uniqueID("alsa-entity:" + key))
            func endpoint(_ kind: MIDIObject.Kind) -> MIDIEndpointRef {
                s.create(kind, owner: entity, name: info.port, uniqueID: JACKMIDIBackend.uniqueID("alsa-\(kind == .source ? "source" : "destination"):" + key)) { o in
                    o.driver = self
                    o.strings["displayName"] = info.client == info.port ? info.port : "\(info.client) \(info.port)"
                }
            }
            outside[addr] = OutsidePort(entity: entity, source: info.read ? endpoint(.source) : nil, destination: info.write ? endpoint(.destination) : nil)
        }
    }
}
