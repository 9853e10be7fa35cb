import Foundation
import Testing
import ToolSupport

/// afinfo --plot (our extension): the PNG of a sox-made 3 kHz sine opens in PIL at the requested size,
/// is not blank, carries the duration's tick label where the layout puts it, and its spectrogram's
/// brightest row is 3 kHz's row.
@Suite struct AfinfoPlotTests {
    static func temp(_ ext: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("oca-plot-\(UUID().uuidString).\(ext)")
    }

    /// Ink of `text` as the tool draws it (our font, at the layout's scale), as a mask.
    static func mask(_ text: String, scale: Int) -> (width: Int, height: Int, ink: [Bool]) {
        let w = BitmapFont.width(of: text, scale: scale), h = BitmapFont.glyphHeight * scale
        var canvas = PNGImage(width: w, height: h, background: .white)
        canvas.text(text, x: 0, y: 0, .black, scale: scale)
        return (w, h, (0..<(w * h)).map { canvas.pixel(x: $0 % w, y: $0 / w) == .black })
    }

    /// True when the picture shows exactly `text`'s ink (dark) and no other dark pixel in its box at (x, y).
    static func shows(_ picture: PictureReader.Picture, _ text: String, x: Int, y: Int, scale: Int) -> Bool {
        let m = mask(text, scale: scale)
        for j in 0..<m.height {
            for i in 0..<m.width {
                guard x + i >= 0, y + j >= 0, x + i < picture.width, y + j < picture.height else { return false }
                let p = picture.pixel(x + i, y + j)
                let dark = Int(p.0) + Int(p.1) + Int(p.2) < 300
                if dark != m.ink[j * m.width + i] { return false }
            }
        }
        return true
    }

    @Test func plotOfASineShowsItsDurationAndFrequency() throws {
        let sox = try #require(Tools.sox, "sox is required (scripts/setup.sh installs it)")
        let wav = Self.temp("wav"), png = Self.temp("png")
        defer { for u in [wav, png] { try? FileManager.default.removeItem(at: u) } }
        let synth = try Tools.run(executable: sox, ["-n", "-r", "44100", "-b", "16", "-c", "1", wav.path, "synth", "2.5", "sine", "3000", "vol", "0.5"])
        try #require(synth.status == 0, "sox: \(synth.stderr)")
        let result = try Tools.run("afinfo", ["--plot", png.path, "--plot-size", "1000x700", wav.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("File:"), "the report is still printed: \(result.stdout)")

        let picture = try PictureReader.read(png)
        #expect(picture.width == 1000 && picture.height == 700 && picture.mode == "RGB")
        let layout = PlotLayout(width: 1000, height: 700)
        // Not blank: many colours, and the spectrogram panel is not one colour.
        var colours = Set<Int>()
        for i in stride(from: 0, to: picture.rgb.count, by: 3) {
            colours.insert(Int(picture.rgb[i]) << 16 | Int(picture.rgb[i + 1]) << 8 | Int(picture.rgb[i + 2]))
        }
        #expect(colours.count > 50, "\(colours.count) colours")

        // The time axis: "0.0" at the left edge and the duration's tick, "2.5", at the right edge, centred
        // under their ticks; the frequency axis' "kHz" and the colour bar's "dBFS" titles.
        let s = layout.textScale
        for (label, t) in [("0.0", 0.0), ("2.5", 2.5), ("1.0", 1.0)] {
            let x = layout.x(time: t, duration: 2.5) - BitmapFont.width(of: label, scale: s) / 2
            #expect(Self.shows(picture, label, x: x, y: layout.timeLabelTop, scale: s), "tick label \(label) at x \(x)")
        }
        #expect(!Self.shows(picture, "3.0", x: layout.x(time: 2.5, duration: 2.5) - BitmapFont.width(of: "3.0", scale: s) / 2,
                            y: layout.timeLabelTop, scale: s))
        let line = BitmapFont.glyphHeight * s
        #expect(Self.shows(picture, "kHz", x: layout.plotLeft - 7 - BitmapFont.width(of: "kHz", scale: s), y: layout.spectrogramTop - line - 6, scale: s))
        #expect(Self.shows(picture, "dBFS", x: layout.colorBarLeft, y: layout.spectrogramTop - line - 6, scale: s))

        // The spectrogram's brightest row (mean r+g+b over the middle 80 % of the columns, away from the
        // half-empty frames at both ends) is the row the layout gives 3 kHz, within one FFT bin's height.
        let left = layout.plotLeft + layout.plotWidth / 10, right = layout.plotLeft + layout.plotWidth * 9 / 10
        var brightness: [Double] = []
        for y in layout.spectrogramTop..<(layout.spectrogramTop + layout.spectrogramHeight) {
            var sum = 0
            for x in left..<right {
                let p = picture.pixel(x, y)
                sum += Int(p.0) + Int(p.1) + Int(p.2)
            }
            brightness.append(Double(sum) / Double(right - left))
        }
        let brightest = layout.spectrogramTop + brightness.indices.max { brightness[$0] < brightness[$1] }!
        let expected = layout.row(frequency: 3000, nyquist: 22050)
        let binRows = Double(layout.spectrogramHeight) / Double(AudioFilePlot.fftSize(sampleRate: 44100) / 2)
        let tolerance = max(1, Int(binRows.rounded(.up)))
        #expect(abs(brightest - expected) <= tolerance, "brightest row \(brightest), 3 kHz is row \(expected) (± \(tolerance))")
        // The tone is bright (near the top of the colour scale: -6 dBFS) and the rest of the column dark.
        #expect(brightness[brightest - layout.spectrogramTop] > 600, "\(brightness[brightest - layout.spectrogramTop])")
        let farRow = layout.row(frequency: 15000, nyquist: 22050) - layout.spectrogramTop
        #expect(brightness[farRow] < 30, "15 kHz row brightness \(brightness[farRow])")

        // The dB scale: the tone's pixel in the middle column read against the colour bar gives its level. sox's
        // amplitude 0.5 is -6.02 dBFS; 3 kHz lies 0.32 of a bin off a bin centre, where a Hann window reads
        // about 0.4 dB low, so the bar must say -6.4 dB within a couple of dB of colour quantisation.
        let middle = layout.plotLeft + layout.plotWidth / 2
        let tone = picture.pixel(middle, brightest)
        var nearest = (distance: Int.max, row: 0)
        for r in 0..<layout.spectrogramHeight {
            let bar = picture.pixel(layout.colorBarLeft + layout.colorBarWidth / 2, layout.spectrogramTop + r)
            let d = abs(Int(bar.0) - Int(tone.0)) + abs(Int(bar.1) - Int(tone.1)) + abs(Int(bar.2) - Int(tone.2))
            if d < nearest.distance { nearest = (d, r) }
        }
        let toneDecibels = -100 * Double(nearest.row) / Double(layout.spectrogramHeight - 1)
        #expect(abs(toneDecibels - -6.4) < 2, "the tone reads \(toneDecibels) dBFS on the colour bar (colour distance \(nearest.distance))")

        // The waveform: amplitude 0.5 reaches a quarter of the panel's height above and below the centre line.
        let wave = (layout.waveformTop..<(layout.waveformTop + layout.waveformHeight)).filter { y in
            let p = picture.pixel(middle, y)
            return p.2 > 150 && p.0 < 100  // the waveform's blue
        }
        let quarter = Double(layout.waveformHeight - 1) / 4
        let centre = Double(layout.waveformTop) + Double(layout.waveformHeight - 1) / 2
        #expect(abs(Double(wave.first ?? 0) - (centre - quarter)) <= 1.5 && abs(Double(wave.last ?? 0) - (centre + quarter)) <= 1.5,
                "waveform spans rows \(wave.first ?? -1)...\(wave.last ?? -1), expected \(centre - quarter)...\(centre + quarter)")
    }

    @Test func plotArgumentsAreChecked() throws {
        let wav = Self.temp("wav"), png = Self.temp("png")
        defer { for u in [wav, png] { try? FileManager.default.removeItem(at: u) } }
        try Fixture.writeWAV(wav, frames: 4410)
        let two = try Tools.run("afinfo", ["--plot", png.path, wav.path, wav.path])
        #expect(two.status == 1 && two.stderr.contains("--plot draws one audio file"), "\(two.stderr)")
        let badSize = try Tools.run("afinfo", ["--plot", png.path, "--plot-size", "12x", wav.path])
        #expect(badSize.status == 1 && badSize.stderr.contains("--plot-size"), "\(badSize.stderr)")
        let missing = try Tools.run("afinfo", [wav.path, "--plot"])
        #expect(missing.status == 1 && missing.stderr.contains("--plot needs a value"), "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: png.path))
        // A tiny request is enlarged to the minimum size.
        let small = try Tools.run("afinfo", ["--plot", png.path, "--plot-size", "10x10", wav.path])
        #expect(small.status == 0, "\(small.stderr)")
        let picture = try PictureReader.read(png)
        #expect(picture.width == PlotLayout.minimumSize.width && picture.height == PlotLayout.minimumSize.height)
        #expect(try Tools.run("afinfo", ["-h"]).stdout.contains("--plot"))
    }
}
