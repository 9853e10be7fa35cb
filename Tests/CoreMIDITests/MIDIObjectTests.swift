import CoreMIDI
import Foundation
import Testing

@Suite struct MIDIObjectTests {
    @Test func clientsPortsEndpointsAndErrors() {
        var client = MIDIClientRef()
        #expect(MIDIClientCreate("test" as CFString, nil, nil, &client) == noErr)
        var src = MIDIEndpointRef()
        #expect(MIDISourceCreate(client, "src" as CFString, &src) == noErr)
        var name: Unmanaged<CFString>?
        #expect(MIDIObjectGetStringProperty(src, kMIDIPropertyDisplayName, &name) == noErr)
        #expect((name?.takeRetainedValue() as String?) == "src")
        var id: Int32 = 0
        #expect(MIDIObjectGetIntegerProperty(src, kMIDIPropertyUniqueID, &id) == noErr)
        var found = MIDIObjectRef(), type = MIDIObjectType(rawValue: 0)!
        #expect(MIDIObjectFindByUniqueID(id, &found, &type) == noErr)
        #expect(found == src && type == .source)
        var port = MIDIPortRef()
        #expect(MIDIInputPortCreate(0xDEAD, "p" as CFString, { _, _, _ in }, nil, &port) == kMIDIInvalidClient)
        #expect(MIDIPortConnectSource(0xDEAD, src, nil) == kMIDIInvalidPort)
        #expect(MIDIEndpointDispose(src) == noErr)
        #expect(MIDIEndpointDispose(src) == kMIDIUnknownEndpoint)
        #expect(MIDIObjectFindByUniqueID(id, &found, &type) == kMIDIObjectNotFound)
        #expect(MIDIClientDispose(client) == noErr)
    }

    @Test func sourceToInputPortKeepsPacketsAndTimestamps() async throws {
        var client = MIDIClientRef(), src = MIDIEndpointRef(), port = MIDIPortRef()
        _ = MIDIClientCreateWithBlock("c" as CFString, &client, nil)
        _ = MIDISourceCreate(client, "s" as CFString, &src)
        nonisolated(unsafe) var got: [(MIDITimeStamp, [UInt8])] = []
        let lock = NSLock()
        _ = MIDIInputPortCreateWithBlock(client, "in" as CFString, &port) { list, _ in
            var p = UnsafePointer(MIDIPacketListInitReadOnly(list))
            for _ in 0..<list.pointee.numPackets {
                let bytes = withUnsafeBytes(of: p.pointee.data) { Array($0.prefix(Int(p.pointee.length))) }
                lock.lock(); got.append((p.pointee.timeStamp, bytes)); lock.unlock()
                p = UnsafePointer(MIDIPacketNext(p))
            }
        }
        #expect(MIDIPortConnectSource(port, src, nil) == noErr)
        var buffer = [UInt8](repeating: 0, count: 1024)
        buffer.withUnsafeMutableBytes { raw in
            let list = raw.baseAddress!.assumingMemoryBound(to: MIDIPacketList.self)
            var cur = MIDIPacketListInit(list)
            cur = MIDIPacketListAdd(list, 1024, cur, 5, 3, [0x90, 60, 100])
            cur = MIDIPacketListAdd(list, 1024, cur, 6, 3, [0x80, 60, 0])
            #expect(list.pointee.numPackets == 2)
            #expect(MIDIReceived(src, list) == noErr)
        }
        try await Task.sleep(nanoseconds: 100_000_000)
        let result = lock.withLock { got }
        #expect(result.count == 2)
        #expect(result.first?.0 == 5 && result.first?.1 == [0x90, 60, 100])
        #expect(result.last?.0 == 6 && result.last?.1 == [0x80, 60, 0])
        _ = MIDIClientDispose(client)
    }
}

/// The first packet of a received list (as `&list->packet[0]`).
func MIDIPacketListInitReadOnly(_ list: UnsafePointer<MIDIPacketList>) -> UnsafePointer<MIDIPacket> {
    (UnsafeRawPointer(list) + 4).assumingMemoryBound(to: MIDIPacket.self)
}
