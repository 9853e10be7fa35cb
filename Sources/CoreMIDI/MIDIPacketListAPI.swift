/// A packet list's first packet (a pointer to its `packet` field, as C's `&list->packet[0]`).
func MIDIPacketListFirst(_ list: UnsafePointer<MIDIPacketList>) -> UnsafeMutablePointer<MIDIPacket> {
    (UnsafeMutableRawPointer(mutating: list) + 4).assumingMemoryBound(to: MIDIPacket.self)
}

/// An event list's first packet (`&list->packet[0]`).
func MIDIEventListFirst(_ list: UnsafePointer<MIDIEventList>) -> UnsafeMutablePointer<MIDIEventPacket> {
    (UnsafeMutableRawPointer(mutating: list) + 8).assumingMemoryBound(to: MIDIEventPacket.self)
}

/// Empties a packet list and returns its first packet, to pass to MIDIPacketListAdd.
@discardableResult public func MIDIPacketListInit(_ pktlist: UnsafeMutablePointer<MIDIPacketList>) -> UnsafeMutablePointer<MIDIPacket> {
    pktlist.pointee.numPackets = 0
    return MIDIPacketListFirst(pktlist)
}

/// Whether bytes start a SysEx (or continue one: no status byte), which Apple never merges.
private func isSysEx(_ first: UInt8) -> Bool { first == 0xF0 || first < 0x80 }

/// Adds an event to a packet list: appended to `curPacket` when it has the same timestamp and neither is
/// SysEx, else as a new packet after it; nil when the list (of `listSize` bytes) has no room.
@discardableResult public func MIDIPacketListAdd(_ pktlist: UnsafeMutablePointer<MIDIPacketList>, _ listSize: Int,
                              _ curPacket: UnsafeMutablePointer<MIDIPacket>, _ time: MIDITimeStamp,
                              _ nData: Int, _ data: UnsafePointer<UInt8>) -> UnsafeMutablePointer<MIDIPacket>! {
    let base = UnsafeMutableRawPointer(pktlist)
    let end = base + listSize
    if pktlist.pointee.numPackets > 0, curPacket.pointee.timeStamp == time, nData > 0,
       !isSysEx(data[0]), curPacket.pointee.length > 0 {
        let first = (UnsafeMutableRawPointer(curPacket) + 10).load(as: UInt8.self)
        let length = Int(curPacket.pointee.length)
        if !isSysEx(first), length + nData <= 256, UnsafeMutableRawPointer(curPacket) + 10 + length + nData <= end {
            (UnsafeMutableRawPointer(curPacket) + 10 + length).copyMemory(from: data, byteCount: nData)
            curPacket.pointee.length = UInt16(length + nData)
            return curPacket
        }
    }
    let next = pktlist.pointee.numPackets == 0 ? MIDIPacketListFirst(pktlist) : MIDIPacketNext(curPacket)
    guard nData <= 0xFFFF, UnsafeMutableRawPointer(next) + 10 + nData <= end else { return nil }
    let raw = UnsafeMutableRawPointer(next)
    raw.storeBytes(of: time, as: UInt64.self)
    (raw + 8).storeBytes(of: UInt16(nData), as: UInt16.self)
    (raw + 10).copyMemory(from: data, byteCount: nData)
    pktlist.pointee.numPackets += 1
    return next
}

/// Empties an event list, sets its protocol, and returns its first packet, to pass to MIDIEventListAdd.
@discardableResult public func MIDIEventListInit(_ evtlist: UnsafeMutablePointer<MIDIEventList>, _ protocol: MIDIProtocolID) -> UnsafeMutablePointer<MIDIEventPacket> {
    evtlist.pointee.protocol = `protocol`
    evtlist.pointee.numPackets = 0
    return MIDIEventListFirst(evtlist)
}

/// Adds UMP words to an event list: appended to `curPacket` when it has the same timestamp and room
/// (64 words), else as a new packet after it; nil when the list (of `listSize` bytes) has no room.
@discardableResult public func MIDIEventListAdd(_ evtlist: UnsafeMutablePointer<MIDIEventList>, _ listSize: Int,
                             _ curPacket: UnsafeMutablePointer<MIDIEventPacket>, _ time: MIDITimeStamp,
                             _ wordCount: Int, _ words: UnsafePointer<UInt32>) -> UnsafeMutablePointer<MIDIEventPacket>! {
    let end = UnsafeMutableRawPointer(evtlist) + listSize
    if evtlist.pointee.numPackets > 0, curPacket.pointee.timeStamp == time {
        let count = Int(curPacket.pointee.wordCount)
        if count + wordCount <= 64, UnsafeMutableRawPointer(curPacket) + 12 + 4 * (count + wordCount) <= end {
            (UnsafeMutableRawPointer(curPacket) + 12 + 4 * count).copyMemory(from: words, byteCount: 4 * wordCount)
            curPacket.pointee.wordCount = UInt32(count + wordCount)
            return curPacket
        }
    }
    let next = evtlist.pointee.numPackets == 0 ? MIDIEventListFirst(evtlist) : MIDIEventPacketNext(curPacket)
    guard wordCount <= 64, UnsafeMutableRawPointer(next) + 12 + 4 * wordCount <= end else { return nil }
    let raw = UnsafeMutableRawPointer(next)
    raw.storeBytes(of: time, as: UInt64.self)
    (raw + 8).storeBytes(of: UInt32(wordCount), as: UInt32.self)
    (raw + 12).copyMemory(from: words, byteCount: 4 * wordCount)
    evtlist.pointee.numPackets += 1
    return next
}
