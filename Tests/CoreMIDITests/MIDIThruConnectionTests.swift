import CoreMIDI
import Foundation
import Testing

/// Thru connections: Apple's parameter layout, defaults, routing with channel map, note range, transforms and
/// filters (expected bytes worked out by hand from the header's rules), parameters read back, changed, found.
@Suite struct MIDIThruConnectionTests {
    /// Parameters with `controls` and `maps` after them, as a CFData.
    private func data(_ p: MIDIThruConnectionParams, controls: [MIDIControlTransform] = [], maps: [MIDIValueMap] = []) -> CFData {
        var p = p
        p.numControlTransforms = UInt16(controls.count)
        p.numMaps = UInt16(maps.count)
        var d = withUnsafeBytes(of: &p) { Data($0) }
        for c in controls { withUnsafeBytes(of: c) { d.append(contentsOf: $0) } }
        for m in maps { withUnsafeBytes(of: m) { d.append(contentsOf: $0) } }
        #expect(d.count == MIDIThruConnectionParamsSize(&p))
        return d as NSData
    }

    @Test func layoutAndDefaultsAreApples() {
        // Apple's sizes: 204-byte params (4-byte aligned), 8-byte control transforms, 128-byte maps.
        #expect(MemoryLayout<MIDIThruConnectionParams>.size == 204)
        #expect(MemoryLayout<MIDIControlTransform>.size == 8)
        #expect(MemoryLayout<MIDIValueMap>.size == 128)
        #expect(MemoryLayout<MIDIThruConnectionParams>.offset(of: \.numDestinations) == 72)
        #expect(MemoryLayout<MIDIThruConnectionParams>.offset(of: \.channelMap) == 140)
        #expect(MemoryLayout<MIDIThruConnectionParams>.offset(of: \.noteNumber) == 160)
        #expect(MemoryLayout<MIDIThruConnectionParams>.offset(of: \.filterOutAllControls) == 191)
        var p = MIDIThruConnectionParams()
        p.version = 7
        p.lowVelocity = 9
        MIDIThruConnectionParamsInitialize(&p)
        #expect(p.version == 0 && p.numSources == 0 && p.numDestinations == 0 && p.lowVelocity == 0)
        let channels: [UInt8] = withUnsafeBytes(of: p.channelMap) { Array($0) }
        #expect(channels == (0..<16).map { UInt8($0) })
        #expect(p.lowNote == 0 && p.highNote == 127 && p.highVelocity == 0)
        #expect(p.noteNumber.transform == .none && p.filterOutSysEx == 0)
        #expect(kMIDIThruConnection_MaxEndpoints == 8)
        #expect(MIDITransformType.mapValue.rawValue == 12 && MIDITransformControlType.controlType_14BitNRPN.rawValue == 5)
    }

    @Test func routesWithChannelMapNoteRangeTransformsAndFilters() async throws {
        var client = MIDIClientRef(), src = MIDIEndpointRef(), dst = MIDIEndpointRef()
        let changes = Inbox<MIDINotificationMessageID>()
        MIDIClientCreateWithBlock("thru" as CFString, &client) { changes.add($0.pointee.messageID) }
        defer { MIDIClientDispose(client) }
        MIDISourceCreate(client, "thru src" as CFString, &src)
        let inbox = Inbox<[UInt8]>()
        MIDIDestinationCreateWithBlock(client, "thru dst" as CFString, &dst) { list, _ in
            for p in list.unsafeSequence() { inbox.add(bytes(p)) }
        }
        var p = MIDIThruConnectionParams()
        MIDIThruConnectionParamsInitialize(&p)
        p.numSources = 1
        p.sources.0.endpointRef = src
        p.numDestinations = 1
        var dstID: Int32 = 0
        MIDIObjectGetIntegerProperty(dst, kMIDIPropertyUniqueID, &dstID)
        p.destinations.0.uniqueID = dstID  // by unique ID alone
        p.channelMap.0 = 3  // channel 1 -> 4
        p.channelMap.1 = 0xFF  // channel 2 dropped
        p.lowNote = 40
        p.highNote = 80
        p.noteNumber = MIDITransform(transform: .add, param: 12)  // transpose up an octave
        p.velocity = MIDITransform(transform: .scale, param: 0x0800)  // x 0.5 (4.12 fixed point)
        p.programChange = MIDITransform(transform: .mapValue, param: 0)
        p.filterOutBeatClock = 1
        var map = MIDIValueMap()
        withUnsafeMutableBytes(of: &map.value) { for i in 0..<128 { $0[i] = UInt8(127 - i) } }
        let controls = [MIDIControlTransform(controlType: .controlType_7Bit, remappedControlType: .controlType_7Bit, controlNumber: 7,
                                             transform: .mapControl, param: 11),
                        MIDIControlTransform(controlType: .controlType_7Bit, remappedControlType: .controlType_7Bit, controlNumber: 11,
                                             transform: .add, param: 10 << 7)]
        var thru = MIDIThruConnectionRef()
        #expect(MIDIThruConnectionCreate("org.example.thru-test" as CFString, data(p, controls: controls, maps: [map]), &thru) == noErr)

        let input: [[UInt8]] = [
            [0x90, 60, 100],  // -> ch 4, note 72, velocity 50
            [0x91, 60, 100],  // channel 2: dropped
            [0x90, 30, 100],  // below lowNote: dropped
            [0xF8],  // clock: dropped
            [0xB0, 7, 64],  // CC 7 -> CC 11, then +10 (the CC 11 transform)
            [0xC0, 5],  // program through the map: 122
            [0x80, 60, 0],  // note off: ch 4, note 72
            [0xF0, 1, 2, 0xF7],  // SysEx passes
        ]
        let builder = MIDIPacketList.Builder(byteSize: 1024)
        for m in input { builder.append(timestamp: 0, data: m) }
        builder.withUnsafePointer { _ = MIDIReceived(src, $0) }
        let expected: [UInt8] = [0x93, 72, 50, 0xB3, 11, 74, 0xC3, 122, 0x83, 72, 0, 0xF0, 1, 2, 0xF7]
        let end = Date().addingTimeInterval(2)
        while inbox.all.flatMap({ $0 }).count < expected.count && Date() < end { try await Task.sleep(nanoseconds: 1_000_000) }
        #expect(inbox.all.flatMap { $0 } == expected)

        // The parameters come back with the source's unique ID and the destination's reference filled in.
        var out = Unmanaged<CFData>.passRetained(NSData())
        out.release()
        #expect(MIDIThruConnectionGetParams(thru, &out) == noErr)
        let back = out.takeRetainedValue() as Data
        let expectedSize = 204 + 2 * 8 + 128
        #expect(back.count == expectedSize)
        let read = back.withUnsafeBytes { $0.loadUnaligned(as: MIDIThruConnectionParams.self) }
        var srcID: Int32 = 0
        MIDIObjectGetIntegerProperty(src, kMIDIPropertyUniqueID, &srcID)
        #expect(read.sources.0.uniqueID == srcID)
        #expect(read.destinations.0.endpointRef == dst)
        #expect(read.numMaps == 1)

        // Found by owner; changed; disposed of.
        var list = Unmanaged<CFData>.passRetained(NSData())
        list.release()
        #expect(MIDIThruConnectionFind("org.example.thru-test" as CFString, &list) == noErr)
        let refs = (list.takeRetainedValue() as Data).withUnsafeBytes { Array($0.bindMemory(to: MIDIThruConnectionRef.self)) }
        #expect(refs == [thru])
        p.noteNumber = MIDITransform(transform: .none, param: 0)
        p.channelMap.0 = 0
        #expect(MIDIThruConnectionSetParams(thru, data(p)) == noErr)
        let before = inbox.all.count
        let note = MIDIPacketList.Builder(byteSize: 64)
        note.append(timestamp: 0, data: [0x90, 64, 20])
        note.withUnsafePointer { _ = MIDIReceived(src, $0) }
        let got = try await inbox.wait(for: before + 1)
        #expect(got.last == [0x90, 64, 10])
        #expect(MIDIThruConnectionDispose(thru) == noErr)
        #expect(MIDIThruConnectionDispose(thru) == kMIDIObjectNotFound)
        note.withUnsafePointer { _ = MIDIReceived(src, $0) }
        try await Task.sleep(nanoseconds: 50_000_000)
        #expect(inbox.all.count == before + 1)
        // Create, change, dispose: three at least (the notification goes to every client of the process, and other
        // suites running in parallel, such as JACKMIDITests, make thru connections of their own).
        #expect(changes.all.filter { $0 == .msgThruConnectionsChanged }.count >= 3)
    }

    @Test func malformedParametersAreRefused() {
        var thru = MIDIThruConnectionRef()
        var p = MIDIThruConnectionParams()
        MIDIThruConnectionParamsInitialize(&p)
        #expect(MIDIThruConnectionCreate(nil, Data(count: 100) as NSData, &thru) == -50)  // short
        p.version = 1
        #expect(MIDIThruConnectionCreate(nil, withUnsafeBytes(of: &p) { Data($0) } as NSData, &thru) == -50)
        p.version = 0
        p.numSources = 9
        #expect(MIDIThruConnectionCreate(nil, withUnsafeBytes(of: &p) { Data($0) } as NSData, &thru) == -50)
        p.numSources = 0
        p.numMaps = 3  // announced, not there
        #expect(MIDIThruConnectionCreate(nil, withUnsafeBytes(of: &p) { Data($0) } as NSData, &thru) == -50)
        var out = Unmanaged<CFData>.passRetained(NSData())
        out.release()
        #expect(MIDIThruConnectionGetParams(0xBAD, &out) == kMIDIObjectNotFound)
    }
}
