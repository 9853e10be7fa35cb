import AVFoundation
import DeviceTestSupport
import Foundation
import Testing

/// Test audio and measurements shared by the player, recorder and session suites.
enum AVFAudioTestSupport {
    static let rate = 44100.0

    /// A temporary file name with `ext`.
    static func temporaryURL(_ ext: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("oca-avf-\(UUID().uuidString).\(ext)")
    }

    /// Writes a sine of `frequency` at `amplitude` on every channel with AVAudioFile, in the format `settings`
    /// give (16-bit PCM stereo at 44.1 kHz by default); the file type follows the extension.
    static func writeTone(seconds: Double, frequency: Double = 1000, amplitude: Float = 0.5, channels: UInt32 = 2, ext: String = "wav",
                          settings: [String: Any]? = nil) throws -> URL {
        let url = temporaryURL(ext)
        let fileSettings = settings ?? [AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: rate, AVNumberOfChannelsKey: channels,
                                        AVLinearPCMBitDepthKey: 16]
        let file = try AVAudioFile(forWriting: url, settings: fileSettings)
        let frames = AVAudioFrameCount(seconds * rate)
        let format = try #require(AVAudioFormat(standardFormatWithSampleRate: rate, channels: channels))
        let buffer = try #require(AVAudioPCMBuffer(pcmFormat: format, frameCapacity: frames))
        buffer.frameLength = frames
        let data = try #require(buffer.floatChannelData)
        for n in 0..<Int(frames) {
            let v = amplitude * Float(sin(2 * Double.pi * frequency * Double(n) / rate))
            for c in 0..<Int(channels) { data[c][n] = v }
        }
        try file.write(from: buffer)
        file.close()
        return url
    }

    /// Where sound starts and ends in a capture (samples above `threshold`), as frame indices.
    static func extent(_ x: [Float], threshold: Float = 0.02) -> (start: Int, end: Int)? {
        guard let s = x.firstIndex(where: { abs($0) > threshold }), let e = x.lastIndex(where: { abs($0) > threshold }) else { return nil }
        return (s, e)
    }

    /// Seconds of sound in a capture: 10 ms windows whose peak passes `threshold`.
    static func soundingSeconds(_ x: [Float], threshold: Float = 0.05) -> Double {
        var windows = 0
        var i = 0
        while i + 441 <= x.count {
            if x[i..<(i + 441)].contains(where: { abs($0) > threshold }) { windows += 1 }
            i += 441
        }
        return Double(windows) * 0.01
    }

    /// The longest silence (in seconds, 10 ms resolution) between the first and last sound of a capture.
    static func longestSilence(_ x: [Float], threshold: Float = 0.05) -> Double {
        guard let (s, e) = extent(x, threshold: threshold) else { return 0 }
        var longest = 0, run = 0
        var i = s
        while i + 441 <= e {
            if x[i..<(i + 441)].contains(where: { abs($0) > threshold }) { run = 0 } else { run += 1; longest = max(longest, run) }
            i += 441
        }
        return Double(longest) * 0.01
    }

    /// Runs `tool` with `arguments`, returning its standard output; fails the test when the tool is missing.
    static func runTool(_ tool: String, _ arguments: [String]) throws -> String {
        let which = PulseTestServer.run(["which", tool])
        try #require(which.0 == 0, "\(tool) must be installed for this test")
        let (status, out) = PulseTestServer.run([tool] + arguments)
        try #require(status == 0, "\(tool) \(arguments.joined(separator: " ")) failed (\(status))")
        return String(decoding: out, as: UTF8.self)
    }
}

/// Counts delegate calls and wakes a waiter on the first finish.
final class DelegateProbe: NSObject, AVAudioPlayerDelegate, AVAudioRecorderDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private let finished = DispatchSemaphore(value: 0)
    private(set) var finishes: [Bool] = []
    private(set) var errors = 0
    private(set) var threads: [Bool] = []

    func audioPlayerDidFinishPlaying(_ player: AVAudioPlayer, successfully flag: Bool) { record(flag) }
    func audioPlayerDecodeErrorDidOccur(_ player: AVAudioPlayer, error: (any Error)?) { lock.withLock { errors += 1 } }
    func audioRecorderDidFinishRecording(_ recorder: AVAudioRecorder, successfully flag: Bool) { record(flag) }
    func audioRecorderEncodeErrorDidOccur(_ recorder: AVAudioRecorder, error: (any Error)?) { lock.withLock { errors += 1 } }

    private func record(_ flag: Bool) {
        lock.withLock {
            finishes.append(flag)
            threads.append(Thread.isMainThread)
        }
        finished.signal()
    }

    /// Waits up to `seconds` for a finish; true when one came.
    func wait(_ seconds: Double) -> Bool { finished.wait(timeout: .now() + seconds) == .success }

    /// The finishes so far.
    var calls: [Bool] { lock.withLock { finishes } }
}
