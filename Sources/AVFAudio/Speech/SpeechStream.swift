import Foundation
import OCASpeech

/// One utterance's audio as it is synthesised: samples and word marks appended by the synthesis thread, read by the
/// speech queue's thread and the synthesizer's.
final class SpeechStream: @unchecked Sendable {
    private let condition = NSCondition()
    private var samples: [Float] = []
    private var wordMarks: [SpeechEngine.WordMark] = []
    private var finished = false

    func append(_ chunk: UnsafeBufferPointer<Float>) {
        condition.lock()
        samples.append(contentsOf: chunk)
        condition.broadcast()
        condition.unlock()
    }

    func addMark(_ mark: SpeechEngine.WordMark) {
        condition.withLock { wordMarks.append(mark) }
    }

    /// Synthesis ended (at the text's end or stopped).
    func finish() {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// The utterance's length in samples, once synthesis has ended.
    var endSamples: Int? { condition.withLock { finished ? samples.count : nil } }

    /// The word marks so far, in order.
    var marks: [SpeechEngine.WordMark] { condition.withLock { wordMarks } }

    /// Waits until `frames` samples are made or synthesis ended.
    func waitForStart(frames: Int) {
        condition.lock()
        while samples.count < frames && !finished { condition.wait() }
        condition.unlock()
    }

    /// Waits until synthesis ended.
    func waitForEnd() {
        condition.lock()
        while !finished { condition.wait() }
        condition.unlock()
    }

    /// Copies up to `count` samples from `offset` into `destination`: how many, and whether that is all there will be.
    func read(into destination: UnsafeMutablePointer<Float>, from offset: Int, count: Int) -> (copied: Int, ended: Bool) {
        condition.lock()
        defer { condition.unlock() }
        let n = max(0, min(count, samples.count - offset))
        if n > 0 { samples.withUnsafeBufferPointer { destination.update(from: $0.baseAddress! + offset, count: n) } }
        return (n, finished && offset + n >= samples.count)
    }
}
