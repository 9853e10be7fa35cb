import CoreMIDI
import Foundation
import Testing

/// Collects what a callback receives, from the MIDI queue.
final class Inbox<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [T] = []
    /// Adds one item.
    func add(_ item: T) { lock.withLock { items.append(item) } }
    /// Everything so far.
    var all: [T] { lock.withLock { items } }
    /// Waits up to `seconds` for `count` items.
    func wait(for count: Int, seconds: Double = 2) async throws -> [T] {
        let end = Date().addingTimeInterval(seconds)
        while all.count < count && Date() < end { try await Task.sleep(nanoseconds: 1_000_000) }
        return all
    }
}

/// A packet's bytes (read in place: a SysEx packet may run past the nominal 256).
func bytes(_ p: UnsafePointer<MIDIPacket>) -> [UInt8] {
    Array(UnsafeRawBufferPointer(start: UnsafeRawPointer(p) + 10, count: Int(p.pointee.length)))
}

@Suite struct MIDIRoutingTests {
    @Test func disconnectStopsDelivery() async throws {
        var client = MIDIClientRef(), src = MIDIEndpointRef(), port = MIDIPortRef()
        _ = MIDIClientCreateWithBlock("c" as CFString, &client, nil)
        _ = MIDISourceCreate(client, "s" as CFString, &src)
        let inbox = Inbox<[UInt8]>()
        _ = MIDIInputPortCreateWithBlock(client, "in" as CFString, &port) { list, _ in
            for p in list.unsafeSequence() { inbox.add(bytes(p)) }
        }
        _ = MIDIPortConnectSource(port, src, nil)
        let builder = MIDIPacketList.Builder(byteSize: 256)
        builder.append(timestamp: 0, data: [0xC0, 5])
        builder.withUnsafePointer { _ = MIDIReceived(src, $0) }
        #expect(try await inbox.wait(for: 1) == [[0xC0, 5]])
        #expect(MIDIPortDisconnectSource(port, src) == noErr)
        #expect(MIDIPortDisconnectSource(port, src) == kMIDINoConnection)
        builder.withUnsafePointer { _ = MIDIReceived(src, $0) }
        try await Task.sleep(nanoseconds: 50_000_000)
        #expect(inbox.all.count == 1)
        _ = MIDIClientDispose(client)
    }

    @Test func sendToVirtualDestinationAndFutureTimestamp() async throws {
        var client = MIDIClientRef(), dest = MIDIEndpointRef(), out = MIDIPortRef()
        _ = MIDIClientCreateWithBlock("c" as CFString, &client, nil)
        let inbox = Inbox<(MIDITimeStamp, UInt64, [UInt8])>()
        _ = MIDIDestinationCreateWithBlock(client, "d" as CFString, &dest) { list, _ in
            let now = AudioGetCurrentHostTime()
            for p in list.unsafeSequence() { inbox.add((p.pointee.timeStamp, now, bytes(p))) }
        }
        _ = MIDIOutputPortCreate(client, "out" as CFString, &out)
        #expect(MIDIGetNumberOfDestinations() >= 1)
        let sent = AudioGetCurrentHostTime()
        let due = sent + 30_000_000  // 30 ms ahead
        let builder = MIDIPacketList.Builder(byteSize: 256)
        builder.append(timestamp: 0, data: [0x90, 60, 1])
        builder.append(timestamp: due, data: [0x80, 60, 0])
        builder.withUnsafePointer { #expect(MIDISend(out, dest, $0) == noErr) }
        let got = try await inbox.wait(for: 2)
        #expect(got.count == 2)
        #expect(got.first?.2 == [0x90, 60, 1])
        let immediateLatency = Double((got.first?.1 ?? 0) &- sent) / 1e6
        let late = Double(Int64(bitPattern: (got.last?.1 ?? 0) &- due)) / 1e6
        print("CoreMIDI latency: immediate \(immediateLatency) ms, scheduled +\(late) ms after its timestamp")
        #expect(got.last?.0 == due && got.last?.2 == [0x80, 60, 0])
        // Never early; the bound on lateness is loose because the whole suite runs in parallel on a loaded machine
        // (the printed figure is the measurement).
        #expect(late >= 0 && late < 100)
        builder.withUnsafePointer { #expect(MIDISend(out, 0xBAD, $0) == kMIDIUnknownEndpoint) }
        _ = MIDIClientDispose(client)
    }

    @Test func packetListReachesProtocolPortsAsEventLists() async throws {
        var client = MIDIClientRef(), src = MIDIEndpointRef(), p1 = MIDIPortRef(), p2 = MIDIPortRef()
        _ = MIDIClientCreateWithBlock("c" as CFString, &client, nil)
        _ = MIDISourceCreate(client, "s" as CFString, &src)
        let one = Inbox<[UInt32]>(), two = Inbox<[UInt32]>()
        _ = MIDIInputPortCreateWithProtocol(client, "1" as CFString, ._1_0, &p1) { list, _ in
            #expect(list.pointee.protocol == ._1_0)
            for p in list.unsafeSequence() { one.add(Array(p.sequence())) }
        }
        _ = MIDIInputPortCreateWithProtocol(client, "2" as CFString, ._2_0, &p2) { list, _ in
            for p in list.unsafeSequence() { two.add(Array(p.sequence())) }
        }
        _ = MIDIPortConnectSource(p1, src, nil)
        _ = MIDIPortConnectSource(p2, src, nil)
        let builder = MIDIPacketList.Builder(byteSize: 256)
        builder.append(timestamp: 0, data: [0x91, 60, 0x40])
        builder.withUnsafePointer { _ = MIDIReceived(src, $0) }
        #expect(try await one.wait(for: 1) == [[MIDI1UPNoteOn(0, 1, 60, 0x40)]])
        let on = MIDI2NoteOn(0, 1, 60, 0, 0, 0x8000)
        #expect(try await two.wait(for: 1) == [[on.word0, on.word1]])
        _ = MIDIClientDispose(client)
    }

    @Test func eventListReachesPacketListPort() async throws {
        var client = MIDIClientRef(), src = MIDIEndpointRef(), port = MIDIPortRef()
        _ = MIDIClientCreateWithBlock("c" as CFString, &client, nil)
        _ = MIDISourceCreateWithProtocol(client, "s" as CFString, ._2_0, &src)
        let inbox = Inbox<[UInt8]>()
        _ = MIDIInputPortCreateWithBlock(client, "in" as CFString, &port) { list, _ in
            for p in list.unsafeSequence() { inbox.add(bytes(p)) }
        }
        _ = MIDIPortConnectSource(port, src, nil)
        let builder = MIDIEventList.Builder(inProtocol: ._2_0, wordSize: 64)
        let cc = MIDI2ControlChange(0, 2, 7, 0xFFFF_FFFF)
        builder.append(timestamp: 0, words: [cc.word0, cc.word1])
        builder.withUnsafePointer { _ = MIDIReceivedEventList(src, $0) }
        #expect(try await inbox.wait(for: 1) == [[0xB2, 7, 0x7F]])
        _ = MIDIClientDispose(client)
    }
}

@Suite struct MIDISchedulingTests {
    @Test func flushDropsPendingAndFutureEventsComeInTimestampOrder() async throws {
        var client = MIDIClientRef(), dest = MIDIEndpointRef(), out = MIDIPortRef()
        _ = MIDIClientCreateWithBlock("c" as CFString, &client, nil)
        let inbox = Inbox<(MIDITimeStamp, [UInt8], Bool)>()  // Bool: delivered on the MIDI thread
        _ = MIDIDestinationCreateWithBlock(client, "d" as CFString, &dest) { list, _ in
            for p in list.unsafeSequence() { inbox.add((p.pointee.timeStamp, bytes(p), currentThreadName() == "OCA.CoreMIDI")) }
        }
        _ = MIDIOutputPortCreate(client, "out" as CFString, &out)
        let now = AudioGetCurrentHostTime()
        // Sent out of order: a later one first.
        for (offset, note) in [(40_000_000, 3), (20_000_000, 2), (0, 1)] as [(UInt64, UInt8)] {
            let builder = MIDIPacketList.Builder(byteSize: 64)
            builder.append(timestamp: offset == 0 ? 0 : now + offset, data: [0x90, note, 1])
            builder.withUnsafePointer { _ = MIDISend(out, dest, $0) }
        }
        let got = try await inbox.wait(for: 3)
        #expect(got.map { $0.1[1] } == [1, 2, 3])
        #expect(got.allSatisfy { $0.2 }, "\(got.map { $0.2 })")  // on the module's MIDI thread
        let builder = MIDIPacketList.Builder(byteSize: 64)
        builder.append(timestamp: AudioGetCurrentHostTime() + 50_000_000, data: [0x80, 9, 0])
        builder.withUnsafePointer { _ = MIDISend(out, dest, $0) }
        #expect(MIDIFlushOutput(dest) == noErr)
        try await Task.sleep(nanoseconds: 100_000_000)
        #expect(inbox.all.count == 3)
        #expect(MIDIFlushOutput(0xBAD) == kMIDIUnknownEndpoint)
        // Disposed of with a delivery pending: the block is not called any more.
        let later = MIDIPacketList.Builder(byteSize: 64)
        later.append(timestamp: AudioGetCurrentHostTime() + 50_000_000, data: [0x80, 10, 0])
        later.withUnsafePointer { _ = MIDISend(out, dest, $0) }
        #expect(MIDIEndpointDispose(dest) == noErr)
        try await Task.sleep(nanoseconds: 80_000_000)
        #expect(inbox.all.count == 3)
        _ = MIDIClientDispose(client)
    }
}

/// The calling thread's name as the kernel knows it.
func currentThreadName() -> String {
    let fd = open("/proc/thread-self/comm", O_RDONLY)
    guard fd >= 0 else { return "?" }
    defer { close(fd) }
    var buffer = [UInt8](repeating: 0, count: 32)
    let n = read(fd, &buffer, buffer.count)
    return String(decoding: buffer.prefix(max(n, 0)), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}

@Suite struct MIDIReadProcTests {
    @Test func readProcGetsItsRefConAndTheConnectionRefCon() async throws {
        var client = MIDIClientRef(), src = MIDIEndpointRef(), port = MIDIPortRef()
        MIDIClientCreate("c" as CFString, nil, nil, &client)
        MIDISourceCreate(client, "s" as CFString, &src)
        let inbox = Inbox<(Int, [UInt8])>()
        let readProc: MIDIReadProc = { list, refCon, connRefCon in
            let inbox = Unmanaged<Inbox<(Int, [UInt8])>>.fromOpaque(refCon!).takeUnretainedValue()
            for p in list.unsafeSequence() { inbox.add((Int(bitPattern: connRefCon), Array(p.bytes()))) }
        }
        #expect(MIDIInputPortCreate(client, "in" as CFString, readProc, Unmanaged.passUnretained(inbox).toOpaque(), &port) == noErr)
        #expect(MIDIPortConnectSource(port, src, UnsafeMutableRawPointer(bitPattern: 42)) == noErr)
        let builder = MIDIPacketList.Builder(byteSize: 64)
        builder.append(timestamp: 0, data: [0xFA])
        builder.withUnsafePointer { _ = MIDIReceived(src, $0) }
        let got = try await inbox.wait(for: 1)
        #expect(got.first?.0 == 42 && got.first?.1 == [0xFA])
        #expect(MIDIPortConnectSource(port, port, nil) == kMIDIUnknownEndpoint)
        var dest = MIDIEndpointRef()
        MIDIDestinationCreateWithBlock(client, "d" as CFString, &dest) { _, _ in }
        #expect(MIDIPortConnectSource(port, dest, nil) == kMIDIWrongEndpointType)
        #expect(MIDIReceived(dest, builder.withUnsafePointer { $0 }) == kMIDIWrongEndpointType)
        MIDIClientDispose(client)
    }
}
