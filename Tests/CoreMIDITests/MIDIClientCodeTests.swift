import CoreMIDI
import Foundation
import Testing

/// Code as macOS/iOS apps write it (virtual source, input port, notify block, Swift iteration,
/// the classic MIDIPacketNext walk, string properties through Unmanaged), compiled unchanged.
final class TypicalMIDIClient: @unchecked Sendable {
    var client = MIDIClientRef()
    var inputPort = MIDIPortRef()
    var virtualSource = MIDIEndpointRef()
    var notes: [UInt8] = []
    var classicNotes: [UInt8] = []
    var setupChanges = 0
    let lock = NSLock()

    func start() -> OSStatus {
        var status = MIDIClientCreateWithBlock("MyApp" as CFString, &client) { [weak self] notification in
            if notification.pointee.messageID == .msgSetupChanged {
                self?.lock.withLock { self?.setupChanges += 1 }
            }
        }
        guard status == noErr else { return status }
        status = MIDISourceCreate(client, "MyApp Out" as CFString, &virtualSource)
        guard status == noErr else { return status }
        status = MIDIInputPortCreateWithBlock(client, "Input" as CFString, &inputPort) { [weak self] packetList, _ in
            self?.handle(packetList)
        }
        guard status == noErr else { return status }
        for i in 0..<MIDIGetNumberOfSources() {
            let source = MIDIGetSource(i)
            var name: Unmanaged<CFString>?
            if MIDIObjectGetStringProperty(source, kMIDIPropertyDisplayName, &name) == noErr, let name {
                let displayName = name.takeRetainedValue() as String
                if displayName == "MyApp Out" { MIDIPortConnectSource(inputPort, source, nil) }
            }
        }
        return noErr
    }

    func handle(_ packetList: UnsafePointer<MIDIPacketList>) {
        for packet in packetList.unsafeSequence() {
            let data = packet.bytes()
            if data.count >= 3 && data[0] & 0xF0 == 0x90 { lock.withLock { notes.append(data[1]) } }
        }
        // The older idiom: copy the first packet and step with MIDIPacketNext.
        var packet = packetList.pointee.packet
        for _ in 0..<packetList.pointee.numPackets {
            let note = packet.data.1
            if packet.data.0 & 0xF0 == 0x90 { lock.withLock { classicNotes.append(note) } }
            packet = MIDIPacketNext(&packet).pointee
        }
    }

    func play(_ note: UInt8) {
        var packetList = MIDIPacketList()
        let packet = MIDIPacketListInit(&packetList)
        let bytes: [UInt8] = [0x90, note, 100]
        _ = MIDIPacketListAdd(&packetList, MemoryLayout<MIDIPacketList>.size, packet, 0, bytes.count, bytes)
        MIDIReceived(virtualSource, &packetList)
    }

    func stop() {
        MIDIPortDispose(inputPort)
        MIDIEndpointDispose(virtualSource)
        MIDIClientDispose(client)
    }
}

@Suite struct MIDIClientCodeTests {
    @Test func typicalClientCompilesAndRuns() async throws {
        let app = TypicalMIDIClient()
        #expect(app.start() == noErr)
        app.play(60)
        app.play(64)
        let end = Date().addingTimeInterval(2)
        while app.lock.withLock({ app.notes.count }) < 2 && Date() < end { try await Task.sleep(nanoseconds: 1_000_000) }
        #expect(app.lock.withLock { app.notes } == [60, 64])
        #expect(app.lock.withLock { app.classicNotes } == [60, 64])
        #expect(app.lock.withLock { app.setupChanges } >= 1)
        app.stop()
    }

    @Test func sysexSendCompletes() async throws {
        var client = MIDIClientRef(), dest = MIDIEndpointRef()
        _ = MIDIClientCreate("c" as CFString, nil, nil, &client)
        let inbox = Inbox<[UInt8]>()
        _ = MIDIDestinationCreateWithBlock(client, "d" as CFString, &dest) { list, _ in
            for p in list.unsafeSequence() { inbox.add(Array(p.bytes())) }  // all 303, past the nominal 256
        }
        let sysex: [UInt8] = [0xF0, 0x7E] + [UInt8](repeating: 0x11, count: 300) + [0xF7]
        let data = UnsafeMutablePointer<UInt8>.allocate(capacity: sysex.count)
        data.initialize(from: sysex, count: sysex.count)
        let done = Inbox<Bool>()
        let request = UnsafeMutablePointer<MIDISysexSendRequest>.allocate(capacity: 1)
        request.pointee = MIDISysexSendRequest(destination: dest, data: data, bytesToSend: UInt32(sysex.count), complete: false,
                                               reserved: (0, 0, 0), completionProc: { r in
            Unmanaged<Inbox<Bool>>.fromOpaque(r.pointee.completionRefCon!).takeUnretainedValue().add(r.pointee.complete.boolValue)
        }, completionRefCon: Unmanaged.passUnretained(done).toOpaque())
        #expect(MIDISendSysex(request) == noErr)
        #expect(try await done.wait(for: 1) == [true])
        #expect(try await inbox.wait(for: 1) == [sysex])
        #expect(request.pointee.bytesToSend == 0)
        request.deallocate()
        data.deallocate()
        _ = MIDIClientDispose(client)
    }

    @Test func propertiesRoundTripAndUniqueIDs() {
        var client = MIDIClientRef(), a = MIDIEndpointRef(), b = MIDIEndpointRef()
        _ = MIDIClientCreate("c" as CFString, nil, nil, &client)
        _ = MIDISourceCreate(client, "a" as CFString, &a)
        _ = MIDIDestinationCreateWithBlock(client, "b" as CFString, &b) { _, _ in }
        for key in [kMIDIPropertyName, kMIDIPropertyManufacturer, kMIDIPropertyModel, kMIDIPropertyDisplayName] {
            #expect(MIDIObjectSetStringProperty(a, key, "v-\(key)" as CFString) == noErr)
            var out: Unmanaged<CFString>?
            #expect(MIDIObjectGetStringProperty(a, key, &out) == noErr)
            #expect((out?.takeRetainedValue() as String?) == "v-\(key)")
        }
        var idA: Int32 = 0, idB: Int32 = 0
        _ = MIDIObjectGetIntegerProperty(a, kMIDIPropertyUniqueID, &idA)
        _ = MIDIObjectGetIntegerProperty(b, kMIDIPropertyUniqueID, &idB)
        #expect(idA != idB && idA != 0)
        #expect(MIDIObjectSetIntegerProperty(b, kMIDIPropertyUniqueID, idA) == kMIDIIDNotUnique)
        #expect(MIDIObjectSetIntegerProperty(b, kMIDIPropertyUniqueID, 12345) == noErr)
        var found = MIDIObjectRef()
        #expect(MIDIObjectFindByUniqueID(12345, &found, nil) == noErr && found == b)
        var offline: Int32 = -1
        #expect(MIDIObjectGetIntegerProperty(a, kMIDIPropertyOffline, &offline) == noErr && offline == 0)
        var wrong: Int32 = 0
        #expect(MIDIObjectGetIntegerProperty(a, kMIDIPropertyName, &wrong) == kMIDIWrongPropertyType)
        #expect(MIDIObjectGetIntegerProperty(a, "nope" as CFString, &wrong) == kMIDIUnknownProperty)
        #expect(MIDIObjectGetIntegerProperty(0xBAD, kMIDIPropertyOffline, &wrong) == kMIDIObjectNotFound)
        // Private endpoints are left out of the lists (other tests' endpoints come and go meanwhile).
        #expect((0..<MIDIGetNumberOfSources()).map(MIDIGetSource).contains(a))
        #expect(MIDIObjectSetIntegerProperty(a, kMIDIPropertyPrivate, 1) == noErr)
        #expect(!(0..<MIDIGetNumberOfSources()).map(MIDIGetSource).contains(a))
        #expect(MIDIObjectSetDataProperty(a, "blob" as CFString, Data([1, 2, 3]) as NSData) == noErr)
        var blob: Unmanaged<CFData>?
        #expect(MIDIObjectGetDataProperty(a, "blob" as CFString, &blob) == noErr)
        #expect((blob?.takeRetainedValue()).map { Data(referencing: $0) } == Data([1, 2, 3]))
        #expect(MIDIObjectRemoveProperty(a, "blob" as CFString) == noErr)
        #expect(MIDIObjectGetDataProperty(a, "blob" as CFString, &blob) == kMIDIUnknownProperty)
        #expect(MIDIGetNumberOfDevices() == 0 && MIDIGetDevice(0) == 0 && MIDIGetSource(99_999) == 0)
        #expect(MIDIEndpointGetEntity(a, nil) == kMIDIObjectNotFound)
        #expect(MIDIClientDispose(client) == noErr)
        #expect(MIDIClientDispose(client) == kMIDIInvalidClient)
        #expect(MIDIObjectFindByUniqueID(12345, &found, nil) == kMIDIObjectNotFound)
        #expect(MIDIRestart() == noErr)
    }
}

@Suite struct MIDINotificationTests {
    @Test func addedRemovedAndPropertyChanged() async throws {
        let inbox = Inbox<(MIDINotificationMessageID, MIDIObjectRef, String)>()
        var client = MIDIClientRef(), other = MIDIClientRef(), src = MIDIEndpointRef()
        MIDIClientCreateWithBlock("watcher" as CFString, &client) { n in
            switch n.pointee.messageID {
            case .msgObjectAdded, .msgObjectRemoved:
                n.withMemoryRebound(to: MIDIObjectAddRemoveNotification.self, capacity: 1) { inbox.add((n.pointee.messageID, $0.pointee.child, "")) }
            case .msgPropertyChanged:
                n.withMemoryRebound(to: MIDIObjectPropertyChangeNotification.self, capacity: 1) {
                    inbox.add((n.pointee.messageID, $0.pointee.object, $0.pointee.propertyName.takeUnretainedValue() as String))
                }
            default: break
            }
        }
        MIDIClientCreate("maker" as CFString, nil, nil, &other)
        MIDISourceCreate(other, "s" as CFString, &src)
        MIDIObjectSetStringProperty(src, kMIDIPropertyModel, "X1" as CFString)
        MIDIEndpointDispose(src)
        // Other tests' endpoints come and go meanwhile: wait for this one's three.
        var mine = inbox.all.filter { $0.1 == src }
        for _ in 0..<2000 where mine.count < 3 {
            try await Task.sleep(nanoseconds: 1_000_000)
            mine = inbox.all.filter { $0.1 == src }
        }
        #expect(mine.map(\.0) == [.msgObjectAdded, .msgPropertyChanged, .msgObjectRemoved])
        #expect(mine.count == 3 && mine[1].2 == "model")
        MIDIClientDispose(other)
        MIDIClientDispose(client)
    }
}

@Suite struct MIDIUMPSysExTests {
    @Test func umpSysexSendAndBytesForGroup() async throws {
        var client = MIDIClientRef(), dest = MIDIEndpointRef()
        MIDIClientCreate("c" as CFString, nil, nil, &client)
        let inbox = Inbox<[UInt8]>()
        MIDIDestinationCreateWithBlock(client, "d" as CFString, &dest) { list, _ in
            for p in list.unsafeSequence() { inbox.add(Array(p.bytes())) }
        }
        let start = MIDI1UPSysEx(2, 1, 6, 1, 2, 3, 4, 5, 6), end = MIDI1UPSysEx(2, 3, 1, 7, 0, 0, 0, 0, 0)
        let words = UnsafeMutablePointer<UInt32>.allocate(capacity: 4)
        words.initialize(from: [start.word0, start.word1, end.word0, end.word1], count: 4)
        let done = Inbox<Bool>()
        let request = UnsafeMutablePointer<MIDISysexSendRequestUMP>.allocate(capacity: 1)
        request.pointee = MIDISysexSendRequestUMP(destination: dest, words: words, wordsToSend: 4, complete: false, completionProc: { r in
            Unmanaged<Inbox<Bool>>.fromOpaque(r.pointee.completionRefCon!).takeUnretainedValue().add(r.pointee.complete.boolValue)
        }, completionRefCon: Unmanaged.passUnretained(done).toOpaque())
        #expect(MIDISendUMPSysex(request) == noErr)
        #expect(try await done.wait(for: 1) == [true])
        #expect(try await inbox.wait(for: 1) == [[0xF0, 1, 2, 3, 4, 5, 6, 7, 0xF7]])

        let builder = MIDIEventList.Builder(inProtocol: ._1_0, wordSize: 64)
        builder.append(timestamp: 0, words: [start.word0, start.word1, MIDI1UPNoteOn(2, 0, 60, 1), end.word0, end.word1])
        builder.withUnsafePointer { list in
            var data: Unmanaged<CFData>?
            let first = Array(list.unsafeSequence())[0]
            #expect(MIDIEventPacketSysexBytesForGroup(first, 2, &data) == noErr)
            #expect(data.map { Data(referencing: $0.takeRetainedValue()) } == Data([0xF0, 1, 2, 3, 4, 5, 6, 7, 0xF7]))
            #expect(MIDIEventPacketSysexBytesForGroup(first, 1, &data) == kMIDIUnknownError)
        }
        request.deallocate()
        words.deallocate()
        MIDIClientDispose(client)
    }
}
