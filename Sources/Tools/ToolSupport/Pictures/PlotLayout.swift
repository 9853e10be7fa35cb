// Where afinfo --plot puts things: title, waveform panel, spectrogram panel, time axis, frequency axis
// and colour bar. Public so that the tests can find a frequency's row and a tick's label in the pixels.

/// The geometry of an audio file plot of a given size. All coordinates are pixels from the top-left.
public struct PlotLayout: Sendable {
    /// The size afinfo --plot uses unless told otherwise.
    public static let defaultSize = (width: 1200, height: 800)
    /// The smallest size a plot is drawn at; smaller requests are enlarged to it.
    public static let minimumSize = (width: 320, height: 240)
    /// The largest size; larger requests are reduced to it.
    public static let maximumSize = (width: 4096, height: 4096)

    public let width: Int
    public let height: Int
    /// Font pixel size: 2 on plots at least 900 pixels wide, else 1.
    public let textScale: Int
    /// The left edge shared by both panels, and their width.
    public let plotLeft: Int
    public let plotWidth: Int
    public let waveformTop: Int
    public let waveformHeight: Int
    public let spectrogramTop: Int
    public let spectrogramHeight: Int
    /// The colour bar beside the spectrogram (same top and height).
    public let colorBarLeft: Int
    public let colorBarWidth: Int
    /// The top of the time axis' tick labels.
    public let timeLabelTop: Int
    /// The top of the time axis' title ("Time (s)").
    public let timeTitleTop: Int

    /// The layout for a requested size (clamped to `minimumSize`...`maximumSize`).
    public init(width: Int, height: Int) {
        self.width = min(max(width, Self.minimumSize.width), Self.maximumSize.width)
        self.height = min(max(height, Self.minimumSize.height), Self.maximumSize.height)
        let s = self.width >= 900 ? 2 : 1
        textScale = s
        let line = BitmapFont.glyphHeight * s
        plotLeft = 8 * BitmapFont.advance * s
        colorBarWidth = 8 * s
        let right = 8 * s + colorBarWidth + 6 + 5 * BitmapFont.advance * s + 8
        plotWidth = self.width - plotLeft - right
        colorBarLeft = plotLeft + plotWidth + 8 * s
        waveformTop = line + 12
        let bottom = 6 + line + 6 + line + 8
        let panels = self.height - waveformTop - bottom - (line + 10)
        waveformHeight = panels * 3 / 10
        spectrogramTop = waveformTop + waveformHeight + line + 10
        spectrogramHeight = panels - waveformHeight
        timeLabelTop = spectrogramTop + spectrogramHeight + 6
        timeTitleTop = timeLabelTop + line + 6
    }

    /// The column of a time (seconds) on the shared time axis; `duration` maps to the right edge.
    public func x(time: Double, duration: Double) -> Int {
        guard duration > 0 else { return plotLeft }
        return plotLeft + min(Int((time / duration * Double(plotWidth)).rounded()), plotWidth - 1)
    }

    /// The spectrogram row (image y) whose frequency band holds `frequency`: row 0 of the panel holds
    /// the top 1/spectrogramHeight of 0...nyquist, the bottom row starts at 0 Hz.
    public func row(frequency: Double, nyquist: Double) -> Int {
        let fromTop = Int(((1 - frequency / nyquist) * Double(spectrogramHeight)).rounded(.down))
        return spectrogramTop + min(max(fromTop, 0), spectrogramHeight - 1)
    }

    /// "WIDTHxHEIGHT" (for example "1200x800") as a size; nil unless it is two positive numbers.
    public static func parseSize(_ text: String) -> (width: Int, height: Int)? {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0 else { return nil }
        return (w, h)
    }
}
