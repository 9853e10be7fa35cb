import Foundation
@testable import AudioToolbox

/// A minimal Core Audio Format reader/writer for ALAC streams (tests only): 'desc', 'kuki', 'pakt' (byte sizes
/// only, as ALAC's frames per packet are constant) and 'data'. CAF is big-endian throughout.
struct ALACCAFFile {
    var sampleRate: Double
    var channels: Int
    var framesPerPacket: Int
    /// Apple's ALAC source-depth flag: 1 = 16, 2 = 20, 3 = 24, 4 = 32 bits (FFmpeg writes 0).
    var formatFlags: UInt32
    var cookie: [UInt8]
    var packets: [[UInt8]]
    var validFrames: Int64
    var primingFrames: Int32 = 0
    var remainderFrames: Int32 = 0

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Parses a CAF file holding one ALAC stream.
    static func parse(_ bytes: [UInt8]) throws -> ALACCAFFile {
        /// The big-endian `n`-byte value at `at`.
        func be(_ at: Int, _ n: Int) throws -> UInt64 {
            guard at >= 0, at + n <= bytes.count else { throw Failure(description: "CAF truncated at \(at)") }
            return bytes[at..<(at + n)].reduce(0) { $0 << 8 | UInt64($1) }
        }
        guard bytes.count >= 8, bytes[0..<4].elementsEqual("caff".utf8) else { throw Failure(description: "not a CAF file") }
        var file = ALACCAFFile(sampleRate: 0, channels: 0, framesPerPacket: 0, formatFlags: 0, cookie: [], packets: [], validFrames: 0)
        var sizes = [Int]()
        var audio: ArraySlice<UInt8> = []
        var pos = 8
        while pos + 12 <= bytes.count {
            let type = String(decoding: bytes[pos..<(pos + 4)], as: UTF8.self)
            var size = Int(Int64(bitPattern: try be(pos + 4, 8)))
            let body = pos + 12
            if size < 0 { size = bytes.count - body } // a 'data' chunk of unknown size runs to the end
            guard body + size <= bytes.count else { throw Failure(description: "chunk \(type) overruns the file") }
            switch type {
            case "desc":
                file.sampleRate = Double(bitPattern: try be(body, 8))
                guard try be(body + 8, 4) == 0x616C_6163 else { throw Failure(description: "not ALAC") }
                file.formatFlags = UInt32(try be(body + 12, 4))
                file.framesPerPacket = Int(try be(body + 20, 4))
                file.channels = Int(try be(body + 24, 4))
            case "kuki":
                file.cookie = Array(bytes[body..<(body + size)])
            case "pakt":
                let count = Int(try be(body, 8))
                file.validFrames = Int64(bitPattern: try be(body + 8, 8))
                file.primingFrames = Int32(bitPattern: UInt32(try be(body + 16, 4)))
                file.remainderFrames = Int32(bitPattern: UInt32(try be(body + 20, 4)))
                var p = body + 24
                for _ in 0..<count {
                    var value = 0
                    while true {
                        let byte = Int(try be(p, 1))
                        p += 1
                        value = value << 7 | (byte & 0x7F)
                        if byte & 0x80 == 0 { break }
                    }
                    sizes.append(value)
                }
            case "data":
                audio = bytes[(body + 4)..<(body + size)] // after the edit count
            default:
                break
            }
            pos = body + size
        }
        var offset = audio.startIndex
        for size in sizes {
            guard offset + size <= audio.endIndex else { throw Failure(description: "packet table overruns the audio data") }
            file.packets.append(Array(audio[offset..<(offset + size)]))
            offset += size
        }
        return file
    }

    /// The file's bytes: header, 'desc', 'kuki', 'data', 'pakt'.
    func serialized() -> [UInt8] {
        var out = Array("caff".utf8) + [0, 1, 0, 0]
        /// Appends `value` as `n` big-endian bytes.
        func put(_ value: UInt64, _ n: Int) {
            for i in (0..<n).reversed() { out.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(i)))) }
        }
        /// Appends a chunk header.
        func chunk(_ type: String, _ size: Int) {
            out += Array(type.utf8)
            put(UInt64(size), 8)
        }
        chunk("desc", 32)
        put(sampleRate.bitPattern, 8)
        out += Array("alac".utf8)
        put(UInt64(formatFlags), 4)
        put(0, 4) // bytes per packet: variable
        put(UInt64(framesPerPacket), 4)
        put(UInt64(channels), 4)
        put(0, 4) // bits per channel: compressed
        chunk("kuki", cookie.count)
        out += cookie
        let audioBytes = packets.reduce(0) { $0 + $1.count }
        chunk("data", 4 + audioBytes)
        put(0, 4) // edit count
        for packet in packets { out += packet }
        var table = [UInt8]()
        for packet in packets {
            var size = packet.count
            var groups = [UInt8(size & 0x7F)]
            size >>= 7
            while size > 0 {
                groups.insert(UInt8(size & 0x7F) | 0x80, at: 0)
                size >>= 7
            }
            table += groups
        }
        chunk("pakt", 24 + table.count)
        put(UInt64(packets.count), 8)
        put(UInt64(bitPattern: validFrames), 8)
        put(UInt64(UInt32(bitPattern: primingFrames)), 4)
        put(UInt64(UInt32(bitPattern: remainderFrames)), 4)
        out += table
        return out
    }

    /// A CAF for packets from our encoder, as Apple writes it: valid frames and remainder in the packet table.
    static func wrapping(config: ALACSpecificConfig, packets: [[UInt8]], frames: Int) -> ALACCAFFile {
        let flags: [UInt8: UInt32] = [16: 1, 20: 2, 24: 3, 32: 4]
        let framesPerPacket = Int(config.frameLength)
        return ALACCAFFile(sampleRate: Double(config.sampleRate), channels: Int(config.numChannels), framesPerPacket: framesPerPacket,
                       formatFlags: flags[config.bitDepth] ?? 0, cookie: config.magicCookie, packets: packets,
                       validFrames: Int64(frames), primingFrames: 0,
                       remainderFrames: Int32(packets.count * framesPerPacket - frames))
    }
}
