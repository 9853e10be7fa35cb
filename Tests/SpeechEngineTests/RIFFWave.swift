import Foundation

/// A minimal reader for the 16-bit PCM RIFF/WAVE files the espeak-ng CLI writes.
struct RIFFWave {
    /// Frames per second from the `fmt ` chunk.
    let sampleRate: Int
    /// Channel count from the `fmt ` chunk.
    let channels: Int
    /// Raw 16-bit samples (interleaved if multichannel).
    let samples: [Int16]

    enum ReadError: Error { case notRIFF, missingChunk(String), unsupportedFormat(Int, Int) }

    init(contentsOf url: URL) throws {
        let bytes = [UInt8](try Data(contentsOf: url))
        func u32(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24 }
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func tag(_ at: Int) -> String { String(decoding: bytes[at..<at + 4], as: UTF8.self) }
        guard bytes.count >= 12, tag(0) == "RIFF", tag(8) == "WAVE" else { throw ReadError.notRIFF }

        var format: (channels: Int, rate: Int, bits: Int, code: Int)?
        var data: ArraySlice<UInt8>?
        var offset = 12
        while offset + 8 <= bytes.count {
            let id = tag(offset)
            // Clamp: the CLI writes placeholder sizes when it cannot seek (stdout).
            let size = min(u32(offset + 4), bytes.count - offset - 8)
            let body = offset + 8
            if id == "fmt " {
                format = (u16(body + 2), u32(body + 4), u16(body + 14), u16(body))
            } else if id == "data" {
                data = bytes[body..<body + size]
            }
            offset = body + size + (size & 1)
        }
        guard let format else { throw ReadError.missingChunk("fmt ") }
        guard let data else { throw ReadError.missingChunk("data") }
        guard format.code == 1, format.bits == 16 else { throw ReadError.unsupportedFormat(format.code, format.bits) }
        sampleRate = format.rate
        channels = format.channels
        samples = stride(from: data.startIndex, to: data.endIndex - 1, by: 2).map {
            Int16(bitPattern: UInt16(data[$0]) | UInt16(data[$0 + 1]) << 8)
        }
    }
}
