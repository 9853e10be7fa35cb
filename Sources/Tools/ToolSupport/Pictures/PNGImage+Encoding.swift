// PNG output for PNGImage: 8-bit RGB, no interlace, filter 0 on every row, and the zlib stream deflated by
// our own FixedHuffmanDeflate (Linux Foundation has no zlib API; no compression library is linked).
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
        png.appendChunk("IDAT", zlibStream(scanlines()))
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

    /// A zlib stream (RFC 1950): header, the deflated bytes, Adler-32 of the bytes.
    private func zlibStream(_ bytes: [UInt8]) -> Data {
        var out = Data([0x78, 0x01])  // deflate, 32 KiB window; check bits make 0x7801 a multiple of 31
        out.append(contentsOf: FixedHuffmanDeflate.compress(bytes))
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
