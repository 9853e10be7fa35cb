// A pixel canvas for the tools' pictures (afinfo --plot, graph diagrams): 8-bit RGB, drawn with
// rectangles, lines and OpenCoreAudio's own bitmap font, written as PNG by PNGImage+Encoding.swift.
// Not Core Audio API: an OpenCoreAudio extension for its tools.
import Foundation

/// An 8-bit RGB image, row-major from the top-left corner. Drawing clips to the image.
public struct PNGImage: Sendable {
    /// An 8-bit RGB colour.
    public struct Color: Equatable, Sendable {
        public var red: UInt8
        public var green: UInt8
        public var blue: UInt8

        /// A colour from its three 8-bit components.
        public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
            self.red = red
            self.green = green
            self.blue = blue
        }

        public static let black = Color(0, 0, 0)
        public static let white = Color(255, 255, 255)
    }

    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Three bytes (red, green, blue) per pixel, rows top first.
    public private(set) var pixels: [UInt8]

    /// A canvas filled with one colour. Sizes are clamped to 1...16384 (a PNG row must fit in memory,
    /// and a caller's typo must not ask for gigabytes).
    public init(width: Int, height: Int, background: Color = .white) {
        self.width = min(max(width, 1), 16384)
        self.height = min(max(height, 1), 16384)
        pixels = [UInt8](repeating: 0, count: self.width * self.height * 3)
        fill(x: 0, y: 0, width: self.width, height: self.height, background)
    }

    /// The colour of one pixel; nil outside the image.
    public func pixel(x: Int, y: Int) -> Color? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        let i = (y * width + x) * 3
        return Color(pixels[i], pixels[i + 1], pixels[i + 2])
    }

    /// Sets one pixel; nothing happens outside the image.
    public mutating func set(x: Int, y: Int, _ color: Color) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        let i = (y * width + x) * 3
        pixels[i] = color.red
        pixels[i + 1] = color.green
        pixels[i + 2] = color.blue
    }

    /// Fills a rectangle (clipped).
    public mutating func fill(x: Int, y: Int, width w: Int, height h: Int, _ color: Color) {
        let x0 = max(x, 0), y0 = max(y, 0)
        let x1 = min(x + w, width), y1 = min(y + h, height)
        guard x0 < x1, y0 < y1 else { return }
        for row in y0..<y1 {
            for column in x0..<x1 { set(x: column, y: row, color) }
        }
    }

    /// Draws a one-pixel rectangle outline.
    public mutating func stroke(x: Int, y: Int, width w: Int, height h: Int, _ color: Color) {
        guard w > 0, h > 0 else { return }
        fill(x: x, y: y, width: w, height: 1, color)
        fill(x: x, y: y + h - 1, width: w, height: 1, color)
        fill(x: x, y: y, width: 1, height: h, color)
        fill(x: x + w - 1, y: y, width: 1, height: h, color)
    }

    /// Draws a one-pixel line between two points, both ends included (Bresenham).
    public mutating func line(from start: (x: Int, y: Int), to end: (x: Int, y: Int), _ color: Color) {
        var x = start.x, y = start.y
        let dx = abs(end.x - x), dy = -abs(end.y - y)
        let sx = x < end.x ? 1 : -1, sy = y < end.y ? 1 : -1
        var error = dx + dy
        while true {
            set(x: x, y: y, color)
            if x == end.x && y == end.y { break }
            let e2 = 2 * error
            if e2 >= dy { error += dy; x += sx }
            if e2 <= dx { error += dx; y += sy }
        }
    }

    /// Draws text in the bitmap font with its top-left corner at (x, y); each font pixel becomes a
    /// `scale` x `scale` square. Characters the font lacks leave a blank.
    public mutating func text(_ string: String, x: Int, y: Int, _ color: Color, scale: Int = 1) {
        let scale = max(scale, 1)
        var left = x
        for c in string {
            if let rows = BitmapFont.rows(c) {
                for (r, bits) in rows.enumerated() {
                    for column in 0..<BitmapFont.glyphWidth where bits & (0x10 >> UInt8(column)) != 0 {
                        fill(x: left + column * scale, y: y + r * scale, width: scale, height: scale, color)
                    }
                }
            }
            left += BitmapFont.advance * scale
        }
    }
}
