@testable import CoreMIDI
import Foundation
import Testing

/// The pymidi peer (scripts/rtpmidi-peer.py) in a child process: its output lines, and its stdin for commands.
final class RTPMIDIPeerProcess: @unchecked Sendable {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/rtpmidi-peer.py")
    let process = Process()
    private let input = Pipe(), output = Pipe(), errors = Pipe()
    let lines = Inbox<String>()
    private var partial = ""

    /// Starts `rtpmidi-peer.py` with `arguments`.
    init(_ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.script.path] + arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        output.fileHandleForReading.readabilityHandler = { [weak self] h in
            guard let self else { return }
            let data = h.availableData
            guard !data.isEmpty else { return }
            partial += String(decoding: data, as: UTF8.self)
            while let nl = partial.firstIndex(of: "\n") {
                lines.add(String(partial[..<nl]))
                partial = String(partial[partial.index(after: nl)...])
            }
        }
        try process.run()
    }

    /// The first line starting with `prefix` (waiting up to `seconds`), nil if none came.
    func line(_ prefix: String, after skip: Int = 0, seconds: Double = 15) async throws -> String? {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if let l = lines.all.dropFirst(skip).first(where: { $0.hasPrefix(prefix) }) { return l }
            if !process.isRunning { break }
            try await Task.sleep(nanoseconds: 2_000_000)
        }
        return lines.all.dropFirst(skip).first { $0.hasPrefix(prefix) }
    }

    /// Sends a command line to the peer.
    func command(_ text: String) { input.fileHandleForWriting.write(Data((text + "\n").utf8)) }

    /// What the peer wrote to stderr (for failure messages).
    var stderr: String { String(decoding: errors.fileHandleForReading.availableData, as: UTF8.self) }

    /// Asks the peer to quit and waits for it.
    func stop() {
        if process.isRunning { command("quit") }
        let end = Date().addingTimeInterval(3)
        while process.isRunning && Date() < end { usleep(10_000) }
        // SIGKILL: a child started from a dispatch worker thread inherits its blocked SIGTERM.
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}

/// An input port connected to a session's source endpoint, collecting each packet's bytes with arrival time.
final class SessionListener {
    var client = MIDIClientRef(), port = MIDIPortRef()
    let inbox = Inbox<[UInt8]>()
    let times = Inbox<UInt64>()
    /// Each packet's timestamp.
    let stamps = Inbox<MIDITimeStamp>()

    init(_ source: MIDIEndpointRef) {
        MIDIClientCreateWithBlock("listener" as CFString, &client, nil)
        let inbox = inbox, times = times, stamps = stamps
        MIDIInputPortCreateWithBlock(client, "in" as CFString, &port) { list, _ in
            for p in list.unsafeSequence() {
                inbox.add(bytes(p))
                stamps.add(p.pointee.timeStamp)
                times.add(AudioGetCurrentHostTime())
            }
        }
        MIDIPortConnectSource(port, source, nil)
    }

    deinit { MIDIClientDispose(client) }

    /// The bytes received so far, packets joined (a packet list merges messages with the same timestamp into
    /// one packet, as Apple's does), once there are at least `count` (or after `seconds`).
    func stream(atLeast count: Int, seconds: Double = 3) async throws -> [UInt8] {
        let end = Date().addingTimeInterval(seconds)
        while inbox.all.joined().count < count && Date() < end { try await Task.sleep(nanoseconds: 1_000_000) }
        return Array(inbox.all.joined())
    }
}

/// Sends MIDI 1.0 messages to a destination through an output port of its own.
final class Sender {
    var client = MIDIClientRef(), port = MIDIPortRef()
    init() {
        MIDIClientCreateWithBlock("sender" as CFString, &client, nil)
        MIDIOutputPortCreate(client, "out" as CFString, &port)
    }
    deinit { MIDIClientDispose(client) }

    /// Sends each message as its own packet, timestamp 0 (now).
    func send(_ messages: [[UInt8]], to destination: MIDIEndpointRef) {
        let builder = MIDIPacketList.Builder(byteSize: 1024)
        for m in messages { builder.append(timestamp: 0, data: m) }
        builder.withUnsafePointer { _ = MIDISend(port, destination, $0) }
    }
}

/// Waits (polling every millisecond, up to `seconds`) until `condition` holds. Shared by the network and JACK suites.
func eventually(_ seconds: Double = 5, _ condition: () -> Bool) async throws -> Bool {
    let end = Date().addingTimeInterval(seconds)
    while !condition() && Date() < end { try await Task.sleep(nanoseconds: 1_000_000) }
    return condition()
}

/// Network MIDI (MIDINetworkSession over RTP-MIDI) against pymidi, an independent implementation, and between two
/// of our sessions. Serialized: the tests share the process's default session and start peer processes; every
/// socket is on the loopback interface, on ports the kernel picks.
@Suite(.serialized) struct NetworkMIDITests {
    /// The default session, bound to the loopback interface on free ports, enabled, accepting anyone.
    static func defaultSession() -> MIDINetworkSession {
        MIDINetworkSession.bindAddress = "127.0.0.1"
        MIDINetworkSession.preferredPort = 0
        let s = MIDINetworkSession.default()
        s.connectionPolicy = .anyone
        s.isEnabled = true
        return s
    }

    @Test func pymidiIsInstalled() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", "import pymidi.packets, pymidi.protocol"]
        try p.run()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "pymidi is missing: pip install pymidi (scripts/setup.sh installs it)")
    }

    @Test func weInvitePymidi() async throws {
        let session = Self.defaultSession()
        #expect(session.isEnabled && session.networkPort > 0)
        let peer = try RTPMIDIPeerProcess(["listen"])
        defer { peer.stop() }
        let portLine = try await peer.line("PORT ")
        let pyPort = try #require(portLine.flatMap { Int($0.dropFirst(5)) }, "the pymidi peer did not start: \(peer.stderr)")
        let connection = MIDINetworkConnection(host: MIDINetworkHost(name: "pymidi", address: "127.0.0.1", port: pyPort))
        #expect(session.addConnection(connection))
        #expect(!session.addConnection(MIDINetworkConnection(host: MIDINetworkHost(name: "again", address: "localhost", port: pyPort))))
        #expect(try await peer.line("CONNECTED ") == "CONNECTED \(session.networkName)")
        #expect(try await eventually { session.engine.isConnected(connection) })
        let listed = session.connections()
        #expect(listed.contains(connection))
        #expect(listed.first?.host.address == "127.0.0.1" && listed.first?.host.port == pyPort)

        // Ours to pymidi: exact bytes, as pymidi parses them.
        let sender = Sender(), listener = SessionListener(session.sourceEndpoint())
        sender.send([[0x90, 60, 100], [0xB0, 7, 99]], to: session.destinationEndpoint())
        let got = try #require(try await peer.line("MIDI "))
        #expect(got.split(separator: " ").dropFirst(2) == ["903c64", "b00763"])

        // pymidi to ours.
        peer.command("send 913e50 c105")
        #expect(try await listener.stream(atLeast: 5) == [0x91, 0x3E, 0x50, 0xC1, 0x05])

        // A dropped packet: the next one carries a journal that pymidi parses (chapter N on channel 0).
        session.engine.dropOutgoingPackets = 1
        sender.send([[0x90, 62, 90]], to: session.destinationEndpoint())
        try await Task.sleep(nanoseconds: 50_000_000)
        sender.send([[0x80, 60, 0]], to: session.destinationEndpoint())
        let before = peer.lines.all.count
        let journal = try #require(try await peer.line("JOURNAL ", after: 1))
        #expect(journal.contains("chan=0 n=1 c=1"), "\(journal)")
        #expect(peer.lines.all.filter { $0.contains("903e5a") }.isEmpty, "the dropped packet arrived")
        _ = before

        // Round trip: ours -> pymidi -> back to ours, 20 notes, median.
        peer.command("echo")
        try await Task.sleep(nanoseconds: 100_000_000)
        var trips: [Double] = []
        for i in 0..<20 {
            let have = listener.inbox.all.count
            let start = AudioGetCurrentHostTime()
            sender.send([[0x92, UInt8(i), 1]], to: session.destinationEndpoint())
            #expect(try await eventually(2) { listener.inbox.all.count > have })
            #expect(listener.inbox.all.last == [0x92, UInt8(i), 1])
            if let t = listener.times.all.last { trips.append(Double(t &- start) / 1e6) }
        }
        trips.sort()
        print("network MIDI round trip via pymidi on loopback: median \(trips[trips.count / 2]) ms, max \(trips.last ?? -1) ms")
        #expect(trips.count == 20 && trips[trips.count / 2] < 50)

        #expect(session.removeConnection(connection))
        #expect(try await peer.line("BYE") != nil)
        #expect(!session.connections().contains(connection))
    }

    @Test func pymidiInvitesUs() async throws {
        let session = Self.defaultSession()
        let peer = try RTPMIDIPeerProcess(["invite", String(session.networkPort)])
        defer { peer.stop() }
        let local = try #require(try await peer.line("LOCAL ").flatMap { Int($0.dropFirst(6)) }, "the pymidi peer did not start: \(peer.stderr)")
        #expect(try await peer.line("CONNECTED ") == "CONNECTED \(session.networkName)")
        #expect(try await eventually { session.connections().contains { $0.host.port == local } })
        let c = try #require(session.connections().first { $0.host.port == local })
        #expect(c.host.name == "pymidi-peer" && c.host.address == "127.0.0.1")

        let sender = Sender(), listener = SessionListener(session.sourceEndpoint())
        let before = AudioGetCurrentHostTime()
        peer.command("send 903c7f")
        #expect(try await listener.stream(atLeast: 3) == [0x90, 0x3C, 0x7F])
        // Timestamped with the host time of its arrival.
        let stamp = try #require(listener.stamps.all.first), delivered = try #require(listener.times.all.first)
        #expect(stamp > before && stamp <= delivered)
        sender.send([[0x80, 0x3C, 0x40]], to: session.destinationEndpoint())
        let got = try #require(try await peer.line("MIDI "))
        #expect(got.split(separator: " ").dropFirst(2) == ["803c40"])
        peer.stop()
        // pymidi's BY ends the connection.
        #expect(try await eventually { !session.connections().contains { $0.host.port == local } })
    }

    @Test func connectionPolicy() async throws {
        let session = Self.defaultSession()
        session.connectionPolicy = .noOne
        let refused = try RTPMIDIPeerProcess(["invite", String(session.networkPort)])
        refused.process.waitUntilExit()
        #expect(refused.process.terminationStatus != 0 && refused.lines.all.first { $0.hasPrefix("CONNECTED") } == nil)

        session.connectionPolicy = .hostsInContactList
        let contact = MIDINetworkHost(name: "loopback", address: "127.0.0.1", port: 0)
        let contactsChanged = Inbox<Bool>(), sessionChanged = Inbox<Bool>()
        let observers = [
            NotificationCenter.default.addObserver(forName: Notification.Name(MIDINetworkNotificationContactsDidChange), object: session, queue: nil) { _ in
                contactsChanged.add(true)
            },
            NotificationCenter.default.addObserver(forName: Notification.Name(MIDINetworkNotificationSessionDidChange), object: session, queue: nil) { _ in
                sessionChanged.add(true)
            },
        ]
        defer { observers.forEach(NotificationCenter.default.removeObserver) }
        #expect(session.addContact(contact))
        #expect(contactsChanged.all.count == 1)
        #expect(!session.addContact(MIDINetworkHost(name: "same", address: "127.0.0.1", port: 0)))
        #expect(session.contacts().contains(contact))
        let accepted = try RTPMIDIPeerProcess(["invite", String(session.networkPort)])
        defer { accepted.stop() }
        #expect(try await accepted.line("CONNECTED ") != nil, "\(accepted.lines.all) \(accepted.stderr)")
        #expect(try await eventually { !sessionChanged.all.isEmpty }, "a peer connecting posts SessionDidChange")
        #expect(session.removeContact(contact))
        #expect(session.contacts().isEmpty)
        session.connectionPolicy = .anyone
    }

    /// The Bonjour announcement goes through avahi-publish; a stand-in script records how it is called (no
    /// mDNS traffic leaves the machine) and must be running exactly while the session is enabled.
    @Test func bonjourAnnouncementThroughAvahiPublish() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("oca-avahi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let tool = dir.appendingPathComponent("avahi-publish"), record = dir.appendingPathComponent("args")
        try "#!/bin/sh\necho \"$@\" > '\(record.path)'\nexec sleep 600\n".write(to: tool, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: tool.path)
        let saved = RTPMIDIBonjourAdvertiser.toolPath
        RTPMIDIBonjourAdvertiser.toolPath = tool.path
        defer { RTPMIDIBonjourAdvertiser.toolPath = saved }

        let session = MIDINetworkSession(localName: "Announced", address: "127.0.0.1", port: 0)
        #expect(!session.advertises, "a loopback session is not announced by default")
        session.advertises = true
        session.isEnabled = true
        let expected = "-s \(session.networkName) _apple-midi._udp \(session.networkPort)\n"
        #expect(try await eventually { (try? String(contentsOf: record, encoding: .utf8)) == expected })
        let advertiser = try #require(session.advertiser)
        #expect(advertiser.isRunning)
        session.isEnabled = false
        #expect(!advertiser.isRunning && session.advertiser == nil)
    }

    /// pymidi reads journal headers but repairs nothing, so recovery is checked between two of our sessions.
    @Test func lostPacketsAreRecoveredFromTheJournal() async throws {
        let a = MIDINetworkSession(localName: "A", address: "127.0.0.1", port: 0)
        let b = MIDINetworkSession(localName: "B", address: "127.0.0.1", port: 0)
        b.connectionPolicy = .anyone
        a.isEnabled = true
        b.isEnabled = true
        defer { a.isEnabled = false; b.isEnabled = false }
        let connection = MIDINetworkConnection(host: MIDINetworkHost(name: "B", address: "127.0.0.1", port: b.networkPort))
        #expect(a.addConnection(connection))
        #expect(try await eventually { a.engine.isConnected(connection) && !b.connections().isEmpty })
        let sender = Sender(), listener = SessionListener(b.sourceEndpoint())
        let dest = a.destinationEndpoint()

        sender.send([[0x90, 60, 100]], to: dest)
        #expect(try await listener.stream(atLeast: 3) == [0x90, 60, 100])
        a.engine.dropOutgoingPackets = 1
        sender.send([[0x90, 62, 90], [0xB0, 7, 99], [0xE0, 0x10, 0x50]], to: dest)  // lost
        sender.send([[0x80, 60, 0]], to: dest)
        // The repair (controller, pitch wheel, the lost note-on) comes before the packet's own note-off.
        let first = try await listener.stream(atLeast: 15)
        #expect(first == [0x90, 60, 100, 0xB0, 7, 99, 0xE0, 0x10, 0x50, 0x90, 62, 90, 0x80, 60, 0])

        a.engine.dropOutgoingPackets = 1
        sender.send([[0x80, 62, 0], [0xC3, 12]], to: dest)  // lost
        sender.send([[0x90, 64, 80]], to: dest)
        let second = try await listener.stream(atLeast: 23)
        #expect(Array(second.dropFirst(15)) == [0x80, 62, 0, 0xC3, 12, 0x90, 64, 80])
        let stats = try #require(b.connections().first.flatMap { b.engine.statistics($0) })
        print("journal recovery: \(stats.lost) packets lost, \(stats.recovered) commands recovered, clock round trip \(stats.roundTrip) x 100 us")
        #expect(stats.lost == 2 && stats.recovered == 5)

        // B's RS feedback (every 250 ms at most) moves A's checkpoint up to the last packet: the journal shrinks.
        #expect(try await eventually(2) { (a.engine.statistics(connection)?.unacknowledged ?? 99) <= 1 })
        let sent = try #require(a.engine.statistics(connection))
        #expect(sent.roundTrip >= 0 && sent.roundTrip < 100, "the initiator's CK exchange measured the round trip")

        // A SysEx longer than one packet crosses in segments and arrives whole.
        let sysex: [UInt8] = [0xF0, 0x7D] + (0..<3000).map { UInt8($0 % 100) } + [0xF7]
        let have = listener.inbox.all.joined().count
        let builder = MIDIPacketList.Builder(byteSize: 4000)
        builder.append(timestamp: 0, data: sysex)
        builder.withUnsafePointer { _ = MIDISend(sender.port, dest, $0) }
        let all = try await listener.stream(atLeast: have + sysex.count)
        #expect(Array(all.dropFirst(have)) == sysex)
    }
}
