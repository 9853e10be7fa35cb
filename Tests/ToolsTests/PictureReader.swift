import Foundation
import Testing

/// Reads a PNG with an independent decoder: Debian's python3 with PIL (package python3-pil), which also
/// checks every chunk's CRC-32 and the zlib stream's Adler-32 here. The tests require it.
enum PictureReader {
    struct Picture {
        var width: Int
        var height: Int
        /// PIL's mode for the file as stored ("RGB" for ours).
        var mode: String
        /// RGB bytes, rows top first.
        var rgb: [UInt8]

        func pixel(_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8) {
            let i = (y * width + x) * 3
            return (rgb[i], rgb[i + 1], rgb[i + 2])
        }
    }

    static let python = "/usr/bin/python3"

    static let script = """
        import sys, struct, zlib
        from PIL import Image
        path, out = sys.argv[1], sys.argv[2]
        data = open(path, 'rb').read()
        assert data[:8] == b'\\x89PNG\\r\\n\\x1a\\n', 'not a PNG signature'
        pos, idat = 8, b''
        while pos < len(data):
            n, kind = struct.unpack('>I4s', data[pos:pos + 8])
            body = data[pos + 8:pos + 8 + n]
            crc, = struct.unpack('>I', data[pos + 8 + n:pos + 12 + n])
            assert zlib.crc32(kind + body) == crc, 'bad CRC in ' + kind.decode()
            if kind == b'IDAT': idat += body
            pos += 12 + n
        zlib.decompress(idat)  # checks the Adler-32
        im = Image.open(path)
        mode = im.mode
        im = im.convert('RGB')
        open(out, 'wb').write(im.tobytes())
        print(im.size[0], im.size[1], mode)
        """

    static func read(_ url: URL) throws -> Picture {
        try #require(FileManager.default.isExecutableFile(atPath: python), "\(python) is required (scripts/setup.sh installs python3-pil)")
        let raw = FileManager.default.temporaryDirectory.appendingPathComponent("oca-picture-\(UUID().uuidString).rgb")
        defer { try? FileManager.default.removeItem(at: raw) }
        let r = try Tools.run(executable: python, ["-c", script, url.path, raw.path])
        try #require(r.status == 0, "PIL could not read \(url.path) (python3-pil is required: scripts/setup.sh installs it): \(r.stderr)")
        let fields = r.stdout.split(whereSeparator: \.isWhitespace)
        try #require(fields.count == 3, "PIL: \(r.stdout)")
        let width = try #require(Int(fields[0])), height = try #require(Int(fields[1]))
        let rgb = [UInt8](try Data(contentsOf: raw))
        try #require(rgb.count == width * height * 3)
        return Picture(width: width, height: height, mode: String(fields[2]), rgb: rgb)
    }
}
