import AudioToolbox
import DeviceTestSupport
import Foundation
import Testing

/// afplay and afrecord: offline rendering checked sample by sample, and both tools against the PulseAudio
/// server (afplay's output heard on the "out" monitor; afrecord's file read back by sox).
@Suite(.serialized, .audioServer) struct PlayRecordToolTests {
    /// afplay -o writes what -f and --data ask: 24-bit and float linear PCM carry the 16-bit source's samples exactly,
    /// another rate is converted, an .m4a is AAC and a CAF holds FLAC (ffprobe names codec and rate of each); a file
    /// type that cannot hold the format is refused and nothing is left behind.
    @Test func afplayOutputTakesFileTypeAndDataFormat() throws {
        let input = Fixture.tempURL("wav")
        let outputs = ["wav", "aifc", "caf", "m4a", "caf", "wav"].map { Fixture.tempURL($0) }
        defer { ([input] + outputs).forEach { try? FileManager.default.removeItem(at: $0) } }
        try Fixture.writeWAV(input)
        let cases: [([String], String)] = [
            (["--data", "LEI24"], "pcm_s24le,44100"), (["-f", "AIFC", "--data", "BEF32"], "pcm_f32be,44100"),
            (["--data", "LEF32@48000"], "pcm_f32le,48000"), ([], "aac,44100"), (["--data", "flac"], "flac,44100"),
        ]
        let source = try Fixture.readFloat(input).samples
        for (i, (arguments, expected)) in cases.enumerated() {
            let r = try Tools.run("afplay", arguments + ["-o", outputs[i].path, input.path])
            #expect(r.status == 0, "\(arguments): \(r.stderr)")
            let probe = try AfconvertMP4Tests.ffprobe(outputs[i])
            #expect(probe.hasPrefix(expected), "\(arguments): ffprobe \(probe)")
            if i < 2 {
                let rendered = try Fixture.readFloat(outputs[i]).samples
                #expect(rendered == source, "\(arguments): the samples changed")
            }
        }
        let refused = try Tools.run("afplay", ["--data", "aac", "-o", outputs[5].path, input.path])
        #expect(refused.status == 1 && refused.stderr.contains("fmt?"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: outputs[5].path))
    }

    /// afplay -o renders the file unchanged (16-bit in, 16-bit out), scaled by -v, cut by -t.
    @Test func afplayRendersToAFile() throws {
        let input = Fixture.tempURL("wav"), output = Fixture.tempURL("wav"), short = Fixture.tempURL("caf")
        defer { for u in [input, output, short] { try? FileManager.default.removeItem(at: u) } }
        try Fixture.writeWAV(input)
        var r = try Tools.run("afplay", ["-o", output.path, input.path])
        #expect(r.status == 0, "\(r.stderr)")
        let source = try Fixture.readFloat(input).samples, rendered = try Fixture.readFloat(output).samples
        #expect(rendered.count == source.count)
        #expect(zip(source, rendered).allSatisfy { $0 == $1 }, "afplay -o changed the samples")
        r = try Tools.run("afplay", ["-v", "0.5", "-t", "0.25", "-o", short.path, input.path])
        #expect(r.status == 0, "\(r.stderr)")
        let (format, half) = try Fixture.readFloat(short)
        #expect(half.count == Int(0.25 * 44100) * 2 && format.mSampleRate == 44100)
        // Volume 0.5 of 16-bit samples, re-quantised to 16 bits: within one step.
        #expect(zip(source, half).allSatisfy { abs($0 * 0.5 - $1) <= 1.0 / 32768 })
        r = try Tools.run("afplay", ["-x", input.path])
        #expect(r.status == 1 && r.stderr.contains("unknown option"))
        r = try Tools.run("afplay", ["/nonexistent.wav"])
        #expect(r.status == 1 && r.stderr.contains("can't open"))
    }

    /// afplay -r: 2x plays in half the time at the same pitch (NewTimePitch in the graph); -r 0.5 -q 1 in twice.
    @Test func afplayRateKeepsPitch() throws {
        let input = Fixture.tempURL("wav"), fast = Fixture.tempURL("wav"), slow = Fixture.tempURL("wav")
        defer { for u in [input, fast, slow] { try? FileManager.default.removeItem(at: u) } }
        try Fixture.writeWAV(input)
        for (rate, url, extra) in [(2.0, fast, [String]()), (0.5, slow, ["-q", "1"])] {
            let r = try Tools.run("afplay", ["-r", "\(rate)", "-o", url.path] + extra + [input.path])
            #expect(r.status == 0, "\(r.stderr)")
            let samples = try Fixture.readFloat(url).samples
            #expect(abs(Double(samples.count / 2) - 44100 / rate) <= 1, "rate \(rate): \(samples.count / 2) frames")
            // The left channel's 440 Hz, measured away from the ends.
            let left = stride(from: 0, to: samples.count, by: 2).map { samples[$0] }
            let middle = left[(left.count / 4)..<(3 * left.count / 4)]
            let amplitude440 = ToneAnalysis.fit(middle, frequency: 440, rate: 44100).amplitude
            let amplitude880 = ToneAnalysis.fit(middle, frequency: 440 * rate, rate: 44100).amplitude
            #expect(amplitude440 > 0.45 && amplitude880 < 0.05, "rate \(rate): 440 Hz at \(amplitude440), \(440 * rate) Hz at \(amplitude880)")
        }
    }

    /// afplay's effect options (ours): --eq with 0 dB bands renders the file unchanged, a 1 kHz boost raises the
    /// 440 Hz tone by the peak's gain there; --reverb adds a room (the wet signal changes the samples, the level
    /// stays within a few dB); a bad room is refused.
    @Test func afplayEffects() throws {
        let input = Fixture.tempURL("wav"), flat = Fixture.tempURL("wav"), boosted = Fixture.tempURL("wav"), hall = Fixture.tempURL("wav")
        defer { for u in [input, flat, boosted, hall] { try? FileManager.default.removeItem(at: u) } }
        try Fixture.writeWAV(input)
        var r = try Tools.run("afplay", ["--eq", "0,0,0", "-o", flat.path, input.path])
        #expect(r.status == 0, "\(r.stderr)")
        let source = try Fixture.readFloat(input).samples
        #expect(try Fixture.readFloat(flat).samples == source)
        r = try Tools.run("afplay", ["--eq", "0,12,0", "-o", boosted.path, input.path])
        #expect(r.status == 0, "\(r.stderr)")
        let left = { (x: [Float]) in stride(from: 0, to: x.count, by: 2).map { x[$0] }[22050..<44100] }
        let gain = 20 * log10(ToneAnalysis.fit(left(try Fixture.readFloat(boosted).samples), frequency: 440, rate: 44100).amplitude
                              / ToneAnalysis.fit(left(source), frequency: 440, rate: 44100).amplitude)
        // A one-octave 12 dB peak at 1 kHz, 1.18 octaves above 440 Hz: about +1.6 dB there (cookbook design).
        let w = 2 * Double.pi * 1000 / 44100, s = sin(w), alpha = s * sinh(log(2) / 2 * w / s), a = pow(10, 12.0 / 40)
        func response(_ f: Double) -> Double {
            let v = 2 * Double.pi * f / 44100, c = cos(w)
            func mag(_ b: (Double, Double, Double)) -> Double {
                let re = b.0 + b.1 * cos(v) + b.2 * cos(2 * v), im = -(b.1 * sin(v) + b.2 * sin(2 * v))
                return (re * re + im * im).squareRoot()
            }
            return 20 * log10(mag((1 + alpha * a, -2 * c, 1 - alpha * a)) / mag((1 + alpha / a, -2 * c, 1 - alpha / a)))
        }
        #expect(abs(gain - response(440)) < 0.1, "gain \(gain) dB, designed \(response(440)) dB")
        r = try Tools.run("afplay", ["--reverb", "largehall", "-o", hall.path, input.path])
        #expect(r.status == 0, "\(r.stderr)")
        let wet = try Fixture.readFloat(hall).samples
        #expect(wet.count == source.count && wet != source)
        r = try Tools.run("afplay", ["--reverb", "bathroom", "-o", hall.path, input.path])
        #expect(r.status == 1 && r.stderr.contains("unknown room"))
        // Volume 3 over full scale: clipped flat without --limit, limited (not clipped) with it.
        r = try Tools.run("afplay", ["-v", "3", "-o", boosted.path, input.path])
        #expect(r.status == 0, "\(r.stderr)")
        let clipped = try Fixture.readFloat(boosted).samples.filter { abs($0) >= 32767.0 / 32768 }.count
        r = try Tools.run("afplay", ["-v", "3", "--limit", "-o", boosted.path, input.path])
        #expect(r.status == 0, "\(r.stderr)")
        let limited = try Fixture.readFloat(boosted).samples.filter { abs($0) >= 32767.0 / 32768 }.count
        #expect(clipped > 10_000 && limited < clipped / 20, "full-scale samples: \(clipped) clipped, \(limited) limited")
    }

    /// afplay on the default output: the sink hears the file's tones at the file's level (times -v), through an
    /// output queue by default (as Apple's afplay) and through an AUGraph with --graph; -v above 1 (a processing
    /// tap's gain on the queue path) and -v below 1 (the queue's Volume) scale it.
    @Test(arguments: [([String](), "output queue", 1.0), (["--graph"], "AUGraph", 1.0), (["-v", "0.5"], "output queue", 0.5),
                      (["-v", "1.5"], "output queue", 1.5)])
    func afplayPlaysOnTheDevice(options: [String], path: String, gain: Double) throws {
        let input = Fixture.tempURL("wav")
        defer { try? FileManager.default.removeItem(at: input) }
        try Fixture.writeWAV(input, frames: 88200)
        let capture = try PulseTestServer.Capture()
        Thread.sleep(forTimeInterval: 0.2)
        let started = Date()
        let r = try Tools.run("afplay", ["-d"] + options + [input.path])
        let took = Date().timeIntervalSince(started)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("playing through an \(path)"), "\(r.stderr)")
        // Two seconds of audio, played out before afplay returns (and not much later).
        #expect(took > 2 && took < 4.5, "afplay took \(took) s")
        let heard = capture.finish()
        for (channel, frequency) in Fixture.frequencies.enumerated() {
            let start = try #require(ToneAnalysis.onset(heard[channel], threshold: 0.03))
            let body = heard[channel][(start + 4410)...].prefix(44100)
            #expect(body.count == 44100)
            let amplitude = ToneAnalysis.fit(body, frequency: frequency, rate: 44100).amplitude
            #expect(abs(amplitude - gain * Fixture.amplitude) < 0.01, "channel \(channel): \(amplitude) (\(options))")
            #expect(ToneAnalysis.longestGap(body, threshold: 1e-3) < 8)
        }
    }

    /// afplay -r 2 on the queue path (the queue's time-pitch): the file's two seconds take one, at the file's pitch.
    @Test func afplayRateThroughTheQueue() throws {
        let input = Fixture.tempURL("wav")
        defer { try? FileManager.default.removeItem(at: input) }
        try Fixture.writeWAV(input, frames: 88200)
        let capture = try PulseTestServer.Capture()
        Thread.sleep(forTimeInterval: 0.2)
        let r = try Tools.run("afplay", ["-d", "-r", "2", "-q", "1", input.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("playing through an output queue"), "\(r.stderr)")
        let heard = capture.finish()
        let left = heard[0]
        let start = try #require(ToneAnalysis.onset(left, threshold: 0.05))
        let end = try #require(left.lastIndex { abs($0) > 0.05 })
        #expect(abs(Double(end - start) - 44100) < 2205, "heard \(end - start) frames")
        let frequency = Fixture.frequencies[0]
        let body = left[(start + 4410)..<(end - 4410)]
        let amplitude = ToneAnalysis.fit(body, frequency: frequency, rate: 44100).amplitude
        #expect(amplitude > 0.8 * Fixture.amplitude, "\(frequency) Hz at \(amplitude)")
    }

    /// afrecord -t 2 records what is played into the "mic" sink; sox reads the file: 2 s, 16-bit, the tone's level.
    /// afrecord -d aac: the recording is encoded on its way into a CAF file (AudioToolboxAAC, linked by the tool):
    /// 2 s exactly, and the tone at its level within AAC's error.
    @Test func afrecordRecordsAAC() throws {
        let output = Fixture.tempURL("caf")
        defer { try? FileManager.default.removeItem(at: output) }
        let player = try PulseTestServer.startPlaying(PulseTestServer.stereoSine(500, seconds: 3, amplitude: 0.4))
        Thread.sleep(forTimeInterval: 0.3)
        let r = try Tools.run("afrecord", ["-t", "2", "-d", "aac", output.path])
        PulseTestServer.stop(player)
        #expect(r.status == 0, "\(r.stderr)")
        let info = try Tools.run("afinfo", [output.path])
        #expect(info.stdout.contains("aac"), "\(info.stdout)")
        let (format, samples) = try Fixture.readFloat(output)
        #expect(format.mSampleRate == 44100 && samples.count == 2 * 88200, "\(samples.count / 2) frames")
        let left = stride(from: 0, to: samples.count, by: 2).map { samples[$0] }
        let amplitude = ToneAnalysis.fit(left[22050...].prefix(22050), frequency: 500, rate: 44100).amplitude
        #expect(abs(amplitude - 0.4) < 0.03, "amplitude \(amplitude)")
        if abs(amplitude - 0.4) >= 0.03 { Issue.record("peaks per 50 ms: \(ToneAnalysis.envelope(left)); kept as \(ToneAnalysis.keep(output))") }
    }

    @Test func afrecordRecordsTheInput() throws {
        let output = Fixture.tempURL("wav")
        defer { try? FileManager.default.removeItem(at: output) }
        let player = try PulseTestServer.startPlaying(PulseTestServer.stereoSine(500, seconds: 3, amplitude: 0.4))
        Thread.sleep(forTimeInterval: 0.3)
        let r = try Tools.run("afrecord", ["-t", "2", "-d", "LEI16", output.path])
        PulseTestServer.stop(player)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("RMS"), "no level meter: \(r.stderr)")
        let sox = try #require(Tools.sox)
        let info = try Tools.run(executable: sox, ["--i", "-D", output.path])
        #expect(Double(info.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) == 2.0)
        let bits = try Tools.run(executable: sox, ["--i", "-b", output.path])
        #expect(bits.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "16")
        let samples = try Fixture.readFloat(output).samples
        let left = stride(from: 0, to: samples.count, by: 2).map { samples[$0] }
        let amplitude = ToneAnalysis.fit(left[22050...].prefix(22050), frequency: 500, rate: 44100).amplitude
        #expect(abs(amplitude - 0.4) < 0.01, "amplitude \(amplitude)")
    }
}
