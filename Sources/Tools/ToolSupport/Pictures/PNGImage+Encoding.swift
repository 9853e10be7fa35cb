// PNG output for PNGImage: 8-bit RGB, no interlace, filter 0 on every row, and the zlib stream made of
// stored (uncompressed) deflate blocks, so no compression library is needed. Plots are a few MB at most.
import Foundation

extension PNGImage {
    /// The image as a PNG file's bytes (signature, IHDR, IDAT, IEND).
    public func pngData() -> Data {
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var header = Data()
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        header.append(contentsOf: [8, 2, 0, 0, 0])  // bit depth 8, colour type 2 (RGB), deflate, filter 0, no interlace
        png.appendChunk("IHDR", header)
        png.appendChunk("IDAT", zlibStored(scanlines()))
        png.appendChunk("IEND", Data())
        return png
    }

    /// Writes the PNG to a file, replacing it.
    public func write(to url: URL) throws {
        try pngData().write(to: url)
    }

    /// Each row preceded by its filter type byte (0: none).
    private func scanlines() -> [UInt8] {
        let stride = width * 3
        var raw = [UInt8]()
        raw.reserveCapacity((stride + 1) * height)
        for row in 0..<height {
            raw.append(0)
            raw.append(contentsOf: pixels[(row * stride)..<((row + 1) * stride)])
        }
        return raw
    }

    /// A zlib stream (RFC 1950) holding the bytes in stored deflate blocks (RFC 1951 section 3.2.4).
    private func zlibStored(_ bytes: [UInt8]) -> Data {
        var out = Data([0x78, 0x01])  // deflate, 32 KiB window; check bits make 0x7801 a multiple of 31
        var start = 0
        repeat {
            let count = min(bytes.count - start, 65535)
            let final = start + count == bytes.count
            out.append(final ? 1 : 0)  // BFINAL, BTYPE 00 (stored)
            out.append(UInt8(count & 0xFF))
            out.append(UInt8(count >> 8))
            out.append(UInt8(~count & 0xFF))
            out.append(UInt8((~count >> 8) & 0xFF))
            out.append(contentsOf: bytes[start..<(start + count)])
            start += count
        } while start < bytes.count
        out.appendBigEndian(PNGChecksum.adler32(bytes))
        return out
    }
}

extension Data {
    fileprivate mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)])
    }

    fileprivate mutating func appendChunk(_ type: String, _ body: Data) {
        appendBigEndian(UInt32(body.count))
        let typed = Data(type.utf8) + body
        append(typed)
        appendBigEndian(PNGChecksum.crc32(typed))
    }
}
