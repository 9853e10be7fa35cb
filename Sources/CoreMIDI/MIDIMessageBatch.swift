/// Packets copied out of a client's packet or event list, on their way to one receiver.
struct MIDIMessageBatch: @unchecked Sendable {
    /// One packet: MIDI 1.0 bytes or UMP words (of `protocolID`), with its timestamp.
    struct Packet {
        var time: MIDITimeStamp
        var bytes: [UInt8]?
        var words: [UInt32]?
        var protocolID: MIDIProtocolID
    }
    var packets: [Packet]
    var delayNanos: UInt64 = 0

    /// Copies a packet list (walked as clients walk it, with MIDIPacketNext).
    init(_ list: UnsafePointer<MIDIPacketList>) {
        packets = []
        var p = UnsafePointer(MIDIPacketListFirst(list))
        for _ in 0..<list.pointee.numPackets {
            let length = Int(p.pointee.length)
            let bytes = [UInt8](UnsafeRawBufferPointer(start: UnsafeRawPointer(p) + 10, count: length))
            packets.append(Packet(time: p.pointee.timeStamp, bytes: bytes, protocolID: ._1_0))
            p = UnsafePointer(MIDIPacketNext(p))
        }
    }

    /// Copies an event list.
    init(_ list: UnsafePointer<MIDIEventList>) {
        packets = []
        var p = UnsafePointer(MIDIEventListFirst(list))
        for _ in 0..<list.pointee.numPackets {
            let count = Int(p.pointee.wordCount)
            let words = [UInt32](UnsafeRawBufferPointer(start: UnsafeRawPointer(p) + 12, count: count * 4).bindMemory(to: UInt32.self))
            packets.append(Packet(time: p.pointee.timeStamp, words: words, protocolID: list.pointee.protocol))
            p = UnsafePointer(MIDIEventPacketNext(p))
        }
    }

    /// A batch of already-copied packets.
    init(packets: [Packet], delayNanos: UInt64 = 0) {
        self.packets = packets
        self.delayNanos = delayNanos
    }

    /// The packets due now as one batch, and each future one as its own batch with its delay.
    func splitByDueTime(now: MIDITimeStamp) -> [MIDIMessageBatch] {
        let due = packets.filter { $0.time <= now }
        var out = due.isEmpty ? [] : [MIDIMessageBatch(packets: due, delayNanos: 0)]
        for p in packets where p.time > now { out.append(MIDIMessageBatch(packets: [p], delayNanos: p.time - now)) }
        return out
    }

    /// Builds the list `receiver` wants and calls its proc or block (on the MIDI thread).
    func call(_ receiver: MIDIObject, _ connRefCon: UnsafeMutableRawPointer?) {
        if let block = receiver.receiveBlock {
            let size = 12 + packets.count * 12 + packets.reduce(0) { $0 + 4 * ($1.words?.count ?? 3 * ($1.bytes?.count ?? 0) + 8) } + 1024
            let raw = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
            defer { raw.deallocate() }
            let list = raw.bindMemory(to: MIDIEventList.self, capacity: 1)
            var cur: UnsafeMutablePointer<MIDIEventPacket>? = MIDIEventListInit(list, receiver.protocolID)
            for p in packets {
                let words = MIDIConversion.words(of: p, in: receiver.protocolID, parser: &receiver.byteParser)
                guard !words.isEmpty, let c = cur else { continue }
                cur = words.withUnsafeBufferPointer { MIDIEventListAdd(list, size, c, p.time, words.count, $0.baseAddress!) }
            }
            if list.pointee.numPackets > 0 { block(list, connRefCon) }
        } else {
            let size = 4 + packets.reduce(0) { $0 + 12 + 2 * ($1.bytes?.count ?? 0) + 8 * ($1.words?.count ?? 0) } + 1024
            let raw = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
            defer { raw.deallocate() }
            let list = raw.bindMemory(to: MIDIPacketList.self, capacity: 1)
            var cur: UnsafeMutablePointer<MIDIPacket>? = MIDIPacketListInit(list)
            for p in packets {
                let bytes = p.bytes ?? MIDIConversion.bytes(fromUMP: p.words ?? [])
                guard !bytes.isEmpty, let c = cur else { continue }
                cur = bytes.withUnsafeBufferPointer { MIDIPacketListAdd(list, size, c, p.time, bytes.count, $0.baseAddress!) }
            }
            guard list.pointee.numPackets > 0 else { return }
            if let proc = receiver.readProc { proc(list, receiver.refCon, connRefCon) }
            if let block = receiver.readBlock { block(list, connRefCon) }
        }
    }
}
