import AudioToolbox
import Foundation
import Testing

/// Audio rendered through AUGenericOutput, measured by an independent tool (sox's `stat` effect).
@Suite struct OutsideToolTests {
    static func sox() -> String? {
        ["/usr/bin/sox", "/usr/local/bin/sox"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    @Test func soxMeasuresTheRenderedSine() throws {
        let sox = try #require(Self.sox(), "sox is missing: run scripts/setup.sh")
        let unit = try TestSupport.newUnit()
        defer { AudioComponentInstanceDispose(unit) }
        let format = OCAFormat.linearPCM(sampleRate: 44100, channels: 1, bitsPerChannel: 16, isFloat: false, interleaved: true)
        TestSupport.setFormat(unit, kAudioUnitScope_Input, 0, format)
        TestSupport.setFormat(unit, kAudioUnitScope_Output, 0, format)
        let source = SineSource(frequency: 1000, amplitude: 0.5, format: format)
        TestSupport.setCallback(unit, 0, SineSource.callback, source.refCon)
        #expect(AudioUnitInitialize(unit) == noErr)
        let out = try TestSupport.render(unit, format: format, totalFrames: 44100, slices: [512, 100, 1024])
        let samples = out.channels[0].map { Int16($0) }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("oca-sine-\(getpid()).raw")
        defer { try? FileManager.default.removeItem(at: path) }
        try samples.withUnsafeBytes { try Data($0).write(to: path) }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: sox)
        process.arguments = ["-t", "raw", "-r", "44100", "-e", "signed-integer", "-b", "16", "-c", "1", path.path, "-n", "stat"]
        let pipe = Pipe()
        process.standardError = pipe
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        func field(_ name: String) -> Double? {
            text.split(separator: "\n").first { $0.hasPrefix(name) }
                .flatMap { Double($0.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)) }
        }
        let rms = try #require(field("RMS     amplitude"), "sox output: \(text)")
        let peak = try #require(field("Maximum amplitude"))
        let frequency = try #require(field("Rough   frequency"))
        // Int16 quantisation of 0.5 × sine: RMS 0.35355 within 1e-4; sox's rough frequency within 1%.
        #expect(abs(rms - 0.5 / 2.0.squareRoot()) < 1e-4)
        #expect(abs(peak - 0.5) < 1e-4)
        #expect(abs(frequency - 1000) < 10)
    }
}
