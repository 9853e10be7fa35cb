/// The AppleMIDI session protocol's packets (0xFFFF then a two-letter command): the invitation exchange on
/// the control and data ports (IN, OK, NO, BY), clock synchronisation (CK) and receiver feedback (RS).
enum AppleMIDICommand: Equatable {
    /// IN: an invitation from `ssrc`, with the initiator's token and its session name.
    case invitation(token: UInt32, ssrc: UInt32, name: String)
    /// OK: the invitation with `token` is accepted by `ssrc`.
    case accepted(token: UInt32, ssrc: UInt32, name: String)
    /// NO: the invitation with `token` is refused.
    case rejected(token: UInt32, ssrc: UInt32)
    /// BY: `ssrc` ends the session.
    case bye(token: UInt32, ssrc: UInt32)
    /// CK: the three-way clock exchange; `count` says how many of the timestamps (10 kHz ticks) are filled in.
    case clock(ssrc: UInt32, count: UInt8, t1: UInt64, t2: UInt64, t3: UInt64)
    /// RS: `ssrc` has received everything up to `sequence` (the sender may move its journal checkpoint there).
    case feedback(ssrc: UInt32, sequence: UInt16)

    /// The protocol version AppleMIDI sends in IN, OK, NO and BY.
    static let protocolVersion: UInt32 = 2

    /// Whether bytes are an AppleMIDI command rather than RTP (the RTP version bits can never be 0xFFFF).
    static func isCommand(_ bytes: [UInt8]) -> Bool { bytes.count >= 2 && bytes[0] == 0xFF && bytes[1] == 0xFF }

    /// Parses a command packet.
    static func parse(_ bytes: [UInt8]) throws(RTPMIDIError) -> AppleMIDICommand {
        var r = RTPMIDIByteReader(bytes)
        guard try r.u16() == 0xFFFF else { throw .malformed }
        let command = try r.u16()
        switch command {
        case 0x494E, 0x4F4B, 0x4E4F, 0x4259:  // IN OK NO BY
            let version = try r.u32()
            guard version == protocolVersion else { throw .malformed }
            let token = try r.u32(), ssrc = try r.u32()
            switch command {
            case 0x494E: return .invitation(token: token, ssrc: ssrc, name: name(&r))
            case 0x4F4B: return .accepted(token: token, ssrc: ssrc, name: name(&r))
            case 0x4E4F: return .rejected(token: token, ssrc: ssrc)
            default: return .bye(token: token, ssrc: ssrc)
            }
        case 0x434B:  // CK
            let ssrc = try r.u32(), count = try r.u8()
            try r.skip(3)
            let t1 = try r.u64(), t2 = try r.u64(), t3 = try r.u64()
            guard count <= 2 else { throw .malformed }
            return .clock(ssrc: ssrc, count: count, t1: t1, t2: t2, t3: t3)
        case 0x5253:  // RS
            let ssrc = try r.u32(), sequence = try r.u16()
            return .feedback(ssrc: ssrc, sequence: sequence)
        default:
            throw .unknownCommand
        }
    }

    /// The session name after the fixed fields: up to a NUL or the end (peers that omit the NUL exist).
    private static func name(_ r: inout RTPMIDIByteReader) -> String {
        var out: [UInt8] = []
        while let b = try? r.u8(), b != 0 { out.append(b) }
        return String(decoding: out, as: UTF8.self)
    }

    /// The packet's bytes.
    var bytes: [UInt8] {
        var out: [UInt8] = [0xFF, 0xFF]
        func exchange(_ c: String, _ token: UInt32, _ ssrc: UInt32, _ name: String?) {
            out += Array(c.utf8)
            out.appendBE(Self.protocolVersion)
            out.appendBE(token)
            out.appendBE(ssrc)
            if let name { out += Array(name.utf8.filter { $0 != 0 }) + [0] }
        }
        switch self {
        case let .invitation(token, ssrc, name): exchange("IN", token, ssrc, name)
        case let .accepted(token, ssrc, name): exchange("OK", token, ssrc, name)
        case let .rejected(token, ssrc): exchange("NO", token, ssrc, nil)
        case let .bye(token, ssrc): exchange("BY", token, ssrc, nil)
        case let .clock(ssrc, count, t1, t2, t3):
            out += Array("CK".utf8)
            out.appendBE(ssrc)
            out += [count, 0, 0, 0]
            out.appendBE(t1)
            out.appendBE(t2)
            out.appendBE(t3)
        case let .feedback(ssrc, sequence):
            out += Array("RS".utf8)
            out.appendBE(ssrc)
            out.appendBE(sequence)
            out += [0, 0]
        }
        return out
    }
}
