import Foundation
import Testing
import ToolSupport

/// The tools' PNG writer, read back by PIL (an independent decoder): size, mode and every pixel exact.
@Suite struct PNGImageTests {
    @Test func pixelsSurviveAnIndependentDecoder() throws {
        // 300 x 200 RGB is 180,200 bytes of scanlines: three stored deflate blocks, the last one partial.
        var image = PNGImage(width: 300, height: 200, background: PNGImage.Color(10, 20, 30))
        for y in 0..<200 where y % 7 == 0 {
            for x in 0..<300 { image.set(x: x, y: y, PNGImage.Color(UInt8(x & 0xFF), UInt8(y), UInt8((x * y) & 0xFF))) }
        }
        image.fill(x: 290, y: 190, width: 40, height: 40, .white)  // clipped at the corner
        image.line(from: (0, 199), to: (299, 0), PNGImage.Color(255, 0, 0))
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("oca-png-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: url) }
        try image.write(to: url)
        let picture = try PictureReader.read(url)
        #expect(picture.width == 300 && picture.height == 200)
        #expect(picture.mode == "RGB")
        #expect(picture.rgb == image.pixels)
        // Independently of the canvas: values the drawing calls must have put where they said.
        #expect(picture.pixel(0, 0) == (0, 0, 0) || picture.pixel(0, 0) == (255, 0, 0))
        #expect(picture.pixel(5, 7) == (5, 7, 35))
        #expect(picture.pixel(299, 199) == (255, 255, 255))
        #expect(picture.pixel(1, 1) == (10, 20, 30))
        #expect(picture.pixel(0, 199) == (255, 0, 0) && picture.pixel(299, 0) == (255, 0, 0))
    }

    /// Noise (literals only), long runs (matches of the longest length, 258) and rows repeated from far back
    /// (12 and 24 KiB back, inside the 32 KiB window) all decode to the same pixels; the flat parts compress.
    @Test func deflateCasesDecodeExactly() throws {
        var g = SystemRandomNumberGenerator()
        var image = PNGImage(width: 4000, height: 40, background: PNGImage.Color(7, 7, 7))
        for y in 0..<10 { for x in 0..<4000 { image.set(x: x, y: y, PNGImage.Color(.random(in: 0...255, using: &g), .random(in: 0...255, using: &g), 9)) } }
        for y in 20..<40 { for x in 0..<4000 where (x / 5 + y) % 3 == 0 { image.set(x: x, y: y, .white) } }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("oca-png-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: url) }
        try image.write(to: url)
        let picture = try PictureReader.read(url)
        #expect(picture.width == 4000 && picture.height == 40)
        #expect(picture.rgb == image.pixels)
        let size = try Data(contentsOf: url).count
        // 10 noisy rows cannot shrink much (2/3 random bytes); the 30 others should almost vanish.
        #expect(size < image.pixels.count / 2, "\(size) bytes for \(image.pixels.count) bytes of pixels")
    }

    @Test func oddSizesAndTinyImages() throws {
        for (w, h) in [(1, 1), (37, 23), (1, 400)] {
            var image = PNGImage(width: w, height: h, background: .black)
            image.set(x: w - 1, y: h - 1, PNGImage.Color(1, 2, 3))
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("oca-png-\(UUID().uuidString).png")
            defer { try? FileManager.default.removeItem(at: url) }
            try image.write(to: url)
            let picture = try PictureReader.read(url)
            #expect(picture.width == w && picture.height == h)
            #expect(picture.pixel(w - 1, h - 1) == (1, 2, 3))
            #expect(picture.rgb == image.pixels)
        }
    }

    /// Text: the glyph of "2" at scale 2 lands where drawn, ink where the font's rows have bits.
    @Test func textIsDrawnFromTheFont() throws {
        var image = PNGImage(width: 40, height: 20, background: .white)
        image.text("2.5", x: 3, y: 2, .black, scale: 2)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("oca-png-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: url) }
        try image.write(to: url)
        let picture = try PictureReader.read(url)
        // The "2" as drawn by hand in the font's table: .###. / #...# / ....# / ...#. / ..#.. / .#... / #####
        let two = [".###.", "#...#", "....#", "...#.", "..#..", ".#...", "#####"]
        for (r, row) in two.enumerated() {
            for (c, ch) in row.enumerated() {
                for dy in 0..<2 {
                    for dx in 0..<2 {
                        let p = picture.pixel(3 + c * 2 + dx, 2 + r * 2 + dy)
                        #expect(p == (ch == "#" ? (0, 0, 0) : (255, 255, 255)), "row \(r) column \(c)")
                    }
                }
            }
        }
        #expect(BitmapFont.width(of: "2.5", scale: 2) == 34)
        #expect(BitmapFont.rows("s") != nil && BitmapFont.rows("H") != nil && BitmapFont.rows("z") != nil
                && BitmapFont.rows("d") != nil && BitmapFont.rows("B") != nil && BitmapFont.rows("k") != nil)
    }
}
