// Text to speech saved to a file, as apps write it: AVSpeechSynthesizer.write hands over PCM buffers; the first
// one's format makes the AVAudioFile, every buffer is appended, and an empty buffer says the speech is done.
import AVFoundation
import Foundation
import Testing

final class SpeechFileWriter: @unchecked Sendable {
    private let lock = NSLock()
    private var output: AVAudioFile?
    private(set) var failure: Error?
    let done = DispatchSemaphore(value: 0)

    func save(_ text: String, to url: URL, using synthesizer: AVSpeechSynthesizer) {
        let utterance = AVSpeechUtterance(string: text)
        utterance.voice = AVSpeechSynthesisVoice(language: "en-US")
        utterance.rate = AVSpeechUtteranceDefaultSpeechRate
        synthesizer.write(utterance) { [self] (buffer: AVAudioBuffer) in
            guard let pcmBuffer = buffer as? AVAudioPCMBuffer else { return }
            lock.lock()
            defer { lock.unlock() }
            if pcmBuffer.frameLength == 0 {
                output = nil  // closes the file
                done.signal()
                return
            }
            do {
                if output == nil {
                    output = try AVAudioFile(forWriting: url, settings: pcmBuffer.format.settings,
                                             commonFormat: pcmBuffer.format.commonFormat, interleaved: pcmBuffer.format.isInterleaved)
                }
                try output?.write(from: pcmBuffer)
            } catch {
                failure = error
            }
        }
    }
}

@Suite struct SpeechToFileClientTests {
    @Test func speechIsSavedAndReadBack() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("speech-\(UUID().uuidString).caf")
        defer { try? FileManager.default.removeItem(at: url) }
        let synthesizer = AVSpeechSynthesizer()
        let writer = SpeechFileWriter()
        writer.save("Testing one two three, this sentence is saved to a file.", to: url, using: synthesizer)
        #expect(writer.done.wait(timeout: .now() + 30) == .success)
        #expect(writer.failure == nil)
        let file = try AVAudioFile(forReading: url)
        let seconds = Double(file.length) / file.fileFormat.sampleRate
        #expect(seconds > 2 && seconds < 8, "\(seconds) s")
        let buffer = try #require(AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: AVAudioFrameCount(file.length)))
        try file.read(into: buffer)
        let samples = UnsafeBufferPointer(start: buffer.floatChannelData![0], count: Int(buffer.frameLength))
        let rms = (samples.reduce(0.0) { $0 + Double($1 * $1) } / Double(samples.count)).squareRoot()
        #expect(rms > 0.01, "rms \(rms)")
    }
}
