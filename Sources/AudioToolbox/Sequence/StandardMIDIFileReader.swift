import Foundation

/// Reads a Standard MIDI File (formats 0, 1 and 2; PPQ or SMPTE division) into a sequence. Every length
/// is checked against the bytes that remain, so hostile input ends in kAudioFileInvalidFileError, never
/// a read past the end, a hang or an allocation larger than the input. The sequence is only changed
/// when the whole file parsed.
struct StandardMIDIFileReader {
    struct Failure: Error {}

    /// One event of a track in file ticks.
    enum Event {
        case note(channel: UInt8, note: UInt8, velocity: UInt8, release: UInt8, endTick: UInt64?)
        case channel(status: UInt8, data1: UInt8, data2: UInt8)
        case raw([UInt8])
        case meta(type: UInt8, data: [UInt8])
        case tempo(microsecondsPerQuarter: UInt32)
    }
    struct TrackChunk {
        var events: [(tick: UInt64, event: Event)] = []
        var endTick: UInt64 = 0
    }

    private(set) var format: UInt16 = 0
    private(set) var division: Int16 = 480
    private(set) var chunks: [TrackChunk] = []

    /// Ticks beyond this are refused (about 70 000 hours at 480 PPQ, 120 BPM): keeps beat arithmetic exact.
    static let maximumTick: UInt64 = 1 << 40

    init(_ bytes: UnsafeRawBufferPointer) throws(Failure) {
        var r = Reader(bytes: bytes)
        guard try r.tag() == "MThd" else { throw Failure() }
        let headerLength = Int(try r.uint32())
        guard headerLength >= 6, headerLength <= r.remaining else { throw Failure() }
        format = try r.uint16()
        let trackCount = Int(try r.uint16())
        division = Int16(bitPattern: try r.uint16())
        try r.skip(headerLength - 6)
        guard format <= 2, trackCount >= 1, division != 0 else { throw Failure() }
        if division < 0 {
            let fps = -Int(Int8(truncatingIfNeeded: division >> 8)), ticks = Int(division & 0xFF)
            guard [24, 25, 29, 30].contains(fps), ticks > 0 else { throw Failure() }
        }
        while chunks.count < trackCount {
            guard r.remaining >= 8 else { throw Failure() }
            let tag = try r.tag()
            let length = Int(try r.uint32())
            guard length <= r.remaining else { throw Failure() }
            let body = UnsafeRawBufferPointer(rebasing: r.bytes[r.offset..<(r.offset + length)])
            try r.skip(length)
            if tag == "MTrk" { chunks.append(try Self.track(body)) }
        }
    }

    private static func track(_ body: UnsafeRawBufferPointer) throws(Failure) -> TrackChunk {
        var r = Reader(bytes: body)
        var chunk = TrackChunk()
        var tick: UInt64 = 0
        var running: UInt8 = 0
        var open: [Int: [Int]] = [:]  // channel << 7 | note -> indices of sounding notes, oldest first
        while r.remaining > 0 {
            tick += UInt64(try r.variableLength())
            guard tick <= maximumTick else { throw Failure() }
            chunk.endTick = tick
            var status = try r.byte()
            var firstData: UInt8? = nil
            if status < 0x80 {
                guard running != 0 else { throw Failure() }
                firstData = status
                status = running
            }
            switch status {
            case 0x80...0xEF:
                running = status
                let d1: UInt8
                if let firstData { d1 = firstData } else { d1 = try r.byte() }
                var d2: UInt8 = 0
                if (status & 0xE0) != 0xC0 { d2 = try r.byte() }
                guard d1 < 0x80, d2 < 0x80 else { throw Failure() }
                let channel = status & 0x0F, key = Int(channel) << 7 | Int(d1)
                switch status & 0xF0 {
                case 0x90 where d2 > 0:
                    open[key, default: []].append(chunk.events.count)
                    chunk.events.append((tick, .note(channel: channel, note: d1, velocity: d2, release: 0, endTick: nil)))
                case 0x80, 0x90:
                    // A note-off (or note-on with velocity 0) ends the oldest sounding note of that key.
                    guard var list = open[key], !list.isEmpty else { continue }
                    let i = list.removeFirst()
                    open[key] = list
                    if case .note(let c, let n, let v, _, _) = chunk.events[i].event {
                        let release: UInt8 = status & 0xF0 == 0x80 ? d2 : 0
                        chunk.events[i].event = .note(channel: c, note: n, velocity: v, release: release, endTick: tick)
                    }
                default:
                    chunk.events.append((tick, .channel(status: status, data1: d1, data2: d2)))
                }
            case 0xF0, 0xF7:
                running = 0
                let length = try r.variableLength()
                guard length <= r.remaining else { throw Failure() }
                var data = status == 0xF0 ? [UInt8(0xF0)] : []
                data.append(contentsOf: try r.bytes(length))
                chunk.events.append((tick, .raw(data)))
            case 0xFF:
                running = 0
                let type = try r.byte()
                let length = try r.variableLength()
                guard length <= r.remaining else { throw Failure() }
                let data = try r.bytes(length)
                if type == 0x2F {
                    chunk.endTick = tick
                    return close(chunk, open)
                }
                if type == 0x51 {
                    guard data.count == 3 else { throw Failure() }
                    let us = UInt32(data[0]) << 16 | UInt32(data[1]) << 8 | UInt32(data[2])
                    guard us > 0 else { throw Failure() }
                    chunk.events.append((tick, .tempo(microsecondsPerQuarter: us)))
                } else {
                    chunk.events.append((tick, .meta(type: type, data: data)))
                }
            default:
                throw Failure()
            }
        }
        return close(chunk, open)  // no end-of-track event: the chunk's end is the track's end
    }

    /// Notes still sounding at the end of the track last until its end.
    private static func close(_ chunk: TrackChunk, _ open: [Int: [Int]]) -> TrackChunk {
        var chunk = chunk
        for i in open.values.joined() {
            if case .note(let c, let n, let v, _, _) = chunk.events[i].event {
                chunk.events[i].event = .note(channel: c, note: n, velocity: v, release: 0, endTick: chunk.endTick)
            }
        }
        return chunk
    }

    /// Beats (or seconds for a SMPTE file) of a tick.
    func beats(_ tick: UInt64) -> Double {
        if division > 0 { return Double(tick) / Double(division) }
        let fps = -Int(Int8(truncatingIfNeeded: division >> 8)), ticks = Int(division & 0xFF)
        return Double(tick) / ((fps == 29 ? 29.97 : Double(fps)) * Double(ticks))
    }

    /// Adds the file's tracks to the sequence (the tempo map and time signatures to its tempo track).
    func apply(to sequence: MusicSequenceObject, flags: MusicSequenceLoadFlags) {
        let tempo = sequence.tempoTrack!
        sequence.resolution = division
        if division < 0 {
            // Real time: a beat is a second.
            sequence.type = .seconds
            tempo.insert(MusicEventRecord(time: 0, type: kMusicEventType_ExtendedTempo, payload: .of(ExtendedTempoEvent(bpm: 60))))
        }
        let byChannel = flags.contains(.smf_ChannelsToTracks)
        var channelTracks: [UInt8: MusicTrackObject] = [:]
        var channelEvents: [(channel: UInt8, time: Double, event: MusicEventRecord)] = []
        var otherEvents: [MusicEventRecord] = []
        for (index, chunk) in chunks.enumerated() {
            let conductor = format == 1 && index == 0
            var trackEvents: [MusicEventRecord] = []
            for (tick, event) in chunk.events {
                let time = beats(tick)
                switch event {
                case .tempo(let us):
                    if division > 0 {
                        tempo.insert(MusicEventRecord(time: time, type: kMusicEventType_ExtendedTempo,
                                                      payload: .of(ExtendedTempoEvent(bpm: 60_000_000 / Double(us)))))
                    }
                case .meta(let type, let data):
                    let record = MusicEventRecord(time: time, type: kMusicEventType_Meta, payload: Self.metaPayload(type, data))
                    if conductor || [0x54, 0x58, 0x59].contains(type) { tempo.insert(record) }
                    else if byChannel { otherEvents.append(record) } else { trackEvents.append(record) }
                case .raw(let data):
                    let record = MusicEventRecord(time: time, type: kMusicEventType_MIDIRawData, payload: Self.rawPayload(data))
                    if byChannel { otherEvents.append(record) } else { trackEvents.append(record) }
                case .note(let c, let n, let v, let release, let end):
                    let duration = beats(end ?? tick) - time
                    let message = MIDINoteMessage(channel: c, note: n, velocity: v, releaseVelocity: release, duration: Float32(duration))
                    let record = MusicEventRecord(time: time, type: kMusicEventType_MIDINoteMessage, payload: .of(message))
                    if byChannel { channelEvents.append((c, time, record)) } else { trackEvents.append(record) }
                case .channel(let status, let d1, let d2):
                    let record = MusicEventRecord(time: time, type: kMusicEventType_MIDIChannelMessage,
                                                  payload: .of(MIDIChannelMessage(status: status, data1: d1, data2: d2, reserved: 0)))
                    if byChannel { channelEvents.append((status & 0x0F, time, record)) } else { trackEvents.append(record) }
                }
            }
            guard !byChannel, !(conductor && trackEvents.isEmpty) else { continue }
            let track = sequence.newTrack()
            for e in trackEvents { track.insert(e) }
        }
        guard byChannel else { return }
        for channel in Set(channelEvents.map(\.channel)).sorted() { channelTracks[channel] = sequence.newTrack() }
        for e in channelEvents { channelTracks[e.channel]!.insert(e.event) }
        if !otherEvents.isEmpty {
            let track = sequence.newTrack()
            for e in otherEvents { track.insert(e) }
        }
    }

    static func metaPayload(_ type: UInt8, _ data: [UInt8]) -> MusicEventPayload {
        data.withUnsafeBytes { .variable(header: [type, 0, 0, 0] + le32(data.count), data: $0, minimum: 9) }
    }

    static func rawPayload(_ data: [UInt8]) -> MusicEventPayload {
        data.withUnsafeBytes { .variable(header: le32(data.count), data: $0, minimum: 5) }
    }

    private static func le32(_ n: Int) -> [UInt8] { withUnsafeBytes(of: UInt32(n).littleEndian) { Array($0) } }
}

/// A bounds-checked cursor over the file's bytes.
private struct Reader {
    let bytes: UnsafeRawBufferPointer
    var offset = 0
    var remaining: Int { bytes.count - offset }

    mutating func byte() throws(StandardMIDIFileReader.Failure) -> UInt8 {
        guard offset < bytes.count else { throw .init() }
        defer { offset += 1 }
        return bytes[offset]
    }
    mutating func uint16() throws(StandardMIDIFileReader.Failure) -> UInt16 {
        UInt16(try byte()) << 8 | UInt16(try byte())
    }
    mutating func uint32() throws(StandardMIDIFileReader.Failure) -> UInt32 {
        UInt32(try uint16()) << 16 | UInt32(try uint16())
    }
    mutating func tag() throws(StandardMIDIFileReader.Failure) -> String {
        String(decoding: try bytes(4), as: UTF8.self)
    }
    mutating func skip(_ n: Int) throws(StandardMIDIFileReader.Failure) {
        guard n >= 0, n <= remaining else { throw .init() }
        offset += n
    }
    mutating func bytes(_ n: Int) throws(StandardMIDIFileReader.Failure) -> [UInt8] {
        guard n >= 0, n <= remaining else { throw .init() }
        defer { offset += n }
        return Array(bytes[offset..<(offset + n)])
    }
    /// A variable-length quantity: at most four bytes (28 bits), as the SMF specification allows.
    mutating func variableLength() throws(StandardMIDIFileReader.Failure) -> Int {
        var value = 0
        for _ in 0..<4 {
            let b = try byte()
            value = value << 7 | Int(b & 0x7F)
            if b < 0x80 { return value }
        }
        throw .init()
    }
}
