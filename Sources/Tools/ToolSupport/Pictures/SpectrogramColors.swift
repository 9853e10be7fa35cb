// The spectrogram's colour scale: black through blue, purple, red, orange and yellow to white, with
// brightness (r+g+b) rising all the way, so the loudest bin is also the brightest pixel.

/// Maps a level in dB to a colour over a fixed range.
public struct SpectrogramColors: Sendable {
    /// The level drawn black (and anything below it).
    public let floorDecibels: Double
    /// The level drawn white (and anything above it).
    public let ceilingDecibels: Double

    /// A scale over floor...ceiling dB (afinfo --plot: -100...0 dBFS).
    public init(floorDecibels: Double = -100, ceilingDecibels: Double = 0) {
        self.floorDecibels = floorDecibels
        self.ceilingDecibels = max(ceilingDecibels, floorDecibels + 1)
    }

    private static let stops: [(Double, Double, Double)] = [
        (0, 0, 0), (0, 0, 140), (120, 0, 160), (220, 40, 40), (255, 150, 0), (255, 240, 60), (255, 255, 255),
    ]

    /// The colour of a level.
    public func color(decibels: Double) -> PNGImage.Color {
        var t = (decibels - floorDecibels) / (ceilingDecibels - floorDecibels)
        t = t.isNaN ? 0 : min(max(t, 0), 1)
        let position = t * Double(Self.stops.count - 1)
        let i = min(Int(position), Self.stops.count - 2)
        let f = position - Double(i)
        let a = Self.stops[i], b = Self.stops[i + 1]
        func mix(_ x: Double, _ y: Double) -> UInt8 { UInt8((x + (y - x) * f).rounded()) }
        return PNGImage.Color(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
    }
}
