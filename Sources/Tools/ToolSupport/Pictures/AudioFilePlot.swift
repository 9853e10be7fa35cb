// afinfo --plot (an OpenCoreAudio extension, not in Apple's afinfo): a PNG of an audio file with its
// waveform on top and a spectrogram below, sharing a time axis in seconds; the spectrogram has a
// frequency axis in kHz and a colour bar in dBFS. The file is read through ExtAudioFile (public API)
// as Float32 and the channels are mixed (mean); the arithmetic is AudioDSP's.
import AudioDSP
import AudioToolbox
import Foundation

/// Draws and writes the plot of one audio file.
public enum AudioFilePlot {
    /// Why a plot could not be made, as a message for the tool's standard error.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The spectrogram's colour scale.
    public static let colors = SpectrogramColors(floorDecibels: -100, ceilingDecibels: 0)

    /// The analysis frame: 2048 samples up to 50 kHz (21.5 Hz bins at 44.1 kHz), 4096 above.
    public static func fftSize(sampleRate: Double) -> Int { sampleRate > 50000 ? 4096 : 2048 }

    /// Reads `path`, draws it at `width` x `height` (clamped as PlotLayout does) and writes the PNG to `output`.
    public static func write(path: String, to output: String, width: Int, height: Int) throws(Failure) {
        let (samples, sampleRate, channels) = try readMix(path)
        let image = draw(samples: samples, sampleRate: sampleRate, channels: channels,
                         title: URL(fileURLWithPath: path).lastPathComponent, layout: PlotLayout(width: width, height: height))
        do {
            try image.write(to: URL(fileURLWithPath: output))
        } catch {
            throw Failure(description: "cannot write \(output): \(error.localizedDescription)")
        }
    }

    /// The whole file as Float32, channels mixed to one (their mean).
    static func readMix(_ path: String) throws(Failure) -> (samples: [Float], sampleRate: Double, channels: Int) {
        let url = CFURLCreateWithFileSystemPath(kCFAllocatorDefault, path as CFString, .cfurlposixPathStyle, false)!
        let reader: Float32FileReader
        do {
            reader = try Float32FileReader(url)
        } catch {
            switch error.step {
            case .open: throw Failure(description: "Error opening file \(path): \(describe(error.status))")
            case .format:
                if let f = error.format { throw Failure(description: "cannot plot \(path): \(f.mChannelsPerFrame) channels at \(f.mSampleRate) Hz") }
                throw Failure(description: "cannot read the format of \(path): \(describe(error.status))")
            default: throw Failure(description: "cannot decode \(path) to Float32: \(describe(error.status))")
            }
        }
        let format = reader.format, channels = reader.channels
        guard channels <= 64, format.mSampleRate.isFinite else {
            throw Failure(description: "cannot plot \(path): \(channels) channels at \(format.mSampleRate) Hz")
        }
        var mix: [Float] = []
        let scale = 1 / Float(channels)
        do {
            try reader.forEachChunk { chunk, frames in
                for f in 0..<frames {
                    var sum: Float = 0
                    for c in 0..<channels { sum += chunk[f * channels + c] }
                    mix.append(sum * scale)
                }
            }
        } catch {
            throw Failure(description: "Error reading \(path): \(describe(error.status))")
        }
        return (mix, format.mSampleRate, channels)
    }

    /// The picture of a (mixed) signal.
    public static func draw(samples: [Float], sampleRate: Double, channels: Int, title: String, layout: PlotLayout) -> PNGImage {
        let s = layout.textScale
        let ink = PNGImage.Color(40, 40, 40), grid = PNGImage.Color(200, 200, 200)
        var image = PNGImage(width: layout.width, height: layout.height, background: .white)
        let duration = Double(samples.count) / sampleRate
        let nyquist = sampleRate / 2
        let line = BitmapFont.glyphHeight * s
        image.text("\(title)   \(formatted(sampleRate)) Hz   \(channels) ch\(channels > 1 ? " (mixed)" : "")   "
                   + String(format: "%.3f s", duration), x: layout.plotLeft, y: 6, ink, scale: s)

        // Waveform: min...max per column, full scale at the panel's edges.
        let top = layout.waveformTop, h = layout.waveformHeight, w = layout.plotWidth
        image.fill(x: layout.plotLeft, y: top, width: w, height: h, PNGImage.Color(248, 248, 248))
        var lo = [Float](repeating: 0, count: w), hi = [Float](repeating: 0, count: w)
        samples.withUnsafeBufferPointer { x in
            lo.withUnsafeMutableBufferPointer { l in hi.withUnsafeMutableBufferPointer { u in
                WaveformColumns.minMax(x, columns: w, minimum: l, maximum: u)
            } }
        }
        func waveY(_ v: Float) -> Int { top + Int(((1 - Double(min(max(v, -1), 1))) / 2 * Double(h - 1)).rounded()) }
        image.fill(x: layout.plotLeft, y: waveY(0), width: w, height: 1, grid)
        if !samples.isEmpty {
            for c in 0..<w {
                image.line(from: (layout.plotLeft + c, waveY(hi[c])), to: (layout.plotLeft + c, waveY(lo[c])), PNGImage.Color(30, 80, 200))
            }
        }
        image.stroke(x: layout.plotLeft - 1, y: top - 1, width: w + 2, height: h + 2, ink)
        for (v, label) in [(Float(1), "1"), (0, "0"), (-1, "-1")] {
            let y = waveY(v)
            image.fill(x: layout.plotLeft - 5, y: y, width: 4, height: 1, ink)
            image.text(label, x: layout.plotLeft - 7 - BitmapFont.width(of: label, scale: s), y: min(max(y - line / 2, top), top + h - line),
                       ink, scale: s)
        }

        // Spectrogram: one frame per column centred on the column's time, the loudest bin in each row's band.
        drawSpectrogram(into: &image, samples: samples, sampleRate: sampleRate, layout: layout)
        let sTop = layout.spectrogramTop, sh = layout.spectrogramHeight
        image.stroke(x: layout.plotLeft - 1, y: sTop - 1, width: w + 2, height: sh + 2, ink)
        let kHz = AxisTicks(span: nyquist / 1000, maximumCount: max(2, min(10, sh / (line * 3))))
        for value in kHz.values {
            let y = layout.row(frequency: value * 1000, nyquist: nyquist)
            image.fill(x: layout.plotLeft - 5, y: y, width: 4, height: 1, ink)
            let label = kHz.label(value)
            image.text(label, x: layout.plotLeft - 7 - BitmapFont.width(of: label, scale: s), y: min(max(y - line / 2, sTop), sTop + sh - line),
                       ink, scale: s)
        }
        image.text("kHz", x: layout.plotLeft - 7 - BitmapFont.width(of: "kHz", scale: s), y: sTop - line - 6, ink, scale: s)

        // Time axis under both panels.
        let time = AxisTicks(span: duration, maximumCount: max(2, min(10, w / 80)))
        for t in time.values where duration > 0 {
            let x = layout.x(time: t, duration: duration)
            image.fill(x: x, y: sTop + sh + 1, width: 1, height: 4, ink)
            image.fill(x: x, y: top + h + 1, width: 1, height: 3, ink)
            let label = time.label(t)
            image.text(label, x: x - BitmapFont.width(of: label, scale: s) / 2, y: layout.timeLabelTop, ink, scale: s)
        }
        let axisTitle = "Time (s)"
        image.text(axisTitle, x: layout.plotLeft + (w - BitmapFont.width(of: axisTitle, scale: s)) / 2, y: layout.timeTitleTop, ink, scale: s)
        // Whose picture this is: OpenCoreAudio's, not a copy of anything Apple's afinfo makes.
        let credit = "OpenCoreAudio afinfo --plot", creditLeft = layout.width - 6 - BitmapFont.width(of: credit)
        if creditLeft > layout.plotLeft + (w + BitmapFont.width(of: axisTitle, scale: s)) / 2 + 12 {  // only where it clears the axis title
            image.text(credit, x: creditLeft, y: layout.height - 6 - BitmapFont.glyphHeight, grid)
        }

        // Colour bar: the scale's top (0 dBFS) at the top.
        let barLeft = layout.colorBarLeft, barWidth = layout.colorBarWidth
        for r in 0..<sh {
            let db = colors.ceilingDecibels - (colors.ceilingDecibels - colors.floorDecibels) * Double(r) / Double(max(sh - 1, 1))
            image.fill(x: barLeft, y: sTop + r, width: barWidth, height: 1, colors.color(decibels: db))
        }
        image.stroke(x: barLeft - 1, y: sTop - 1, width: barWidth + 2, height: sh + 2, ink)
        for db in stride(from: colors.ceilingDecibels, through: colors.floorDecibels, by: -20) {
            let y = sTop + Int(((colors.ceilingDecibels - db) / (colors.ceilingDecibels - colors.floorDecibels) * Double(sh - 1)).rounded())
            image.fill(x: barLeft + barWidth + 1, y: y, width: 4, height: 1, ink)
            image.text(String(format: "%.0f", db), x: barLeft + barWidth + 7, y: min(max(y - line / 2, sTop), sTop + sh - line), ink, scale: s)
        }
        image.text("dBFS", x: barLeft, y: sTop - line - 6, ink, scale: s)
        return image
    }

    private static func drawSpectrogram(into image: inout PNGImage, samples: [Float], sampleRate: Double, layout: PlotLayout) {
        let n = fftSize(sampleRate: sampleRate)
        guard let spectrum = ShortTimeSpectrum(size: n, floorDecibels: Float(colors.floorDecibels) - 1) else { return }
        let h = layout.spectrogramHeight, w = layout.plotWidth
        let binHz = sampleRate / Double(n), nyquist = sampleRate / 2
        // Each row's band [low, high) of frequencies and the bins whose centres fall in it; a band narrower
        // than a bin shows the bin nearest its centre.
        let bands: [ClosedRange<Int>] = (0..<h).map { r in
            let high = nyquist * (1 - Double(r) / Double(h)), low = nyquist * (1 - Double(r + 1) / Double(h))
            let first = Int((low / binHz).rounded(.up))
            let last = r == 0 ? n / 2 : Int((high / binHz).rounded(.up)) - 1
            if first <= last { return first...last }
            let nearest = min(max(Int(((low + high) / 2 / binHz).rounded()), 0), n / 2)
            return nearest...nearest
        }
        var levels = [Float](repeating: 0, count: spectrum.binCount)
        samples.withUnsafeBufferPointer { x in
            levels.withUnsafeMutableBufferPointer { out in
                for c in 0..<w {
                    let centre = Int(((Double(c) + 0.5) / Double(w) * Double(x.count)).rounded(.down))
                    spectrum.levels(of: x, start: centre - n / 2, into: out)
                    for r in 0..<h {
                        var loudest = -Float.infinity
                        for k in bands[r] { loudest = max(loudest, out[k]) }
                        image.set(x: layout.plotLeft + c, y: layout.spectrogramTop + r, colors.color(decibels: Double(loudest)))
                    }
                }
            }
        }
    }

    private static func formatted(_ rate: Double) -> String {
        rate == rate.rounded() ? String(Int(rate)) : String(format: "%.2f", rate)
    }
}
