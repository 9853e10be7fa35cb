import AudioDSP
import Foundation
import OCASpeech
import Synchronization

/// A speech channel (the Speech Synthesis Manager's SpeechChannel) as AUSpeechSynthesis owns it: text spoken by
/// espeak-ng on a synthesis thread of the channel's own, resampled from the engine's 22.05 kHz to the unit's rate
/// and handed to the render thread through a lock-free ring (which waits for room, so a long text streams). The
/// render side only copies. Speaking again, or StopSpeech, stops what is being spoken. Rate (words per minute),
/// pitch (Apple's semitone-like pitch base: 69 is A 440 Hz), volume (0...1) and voice apply to the next text.
package final class SpeechChannelObject: @unchecked Sendable {
    static let handles = LiveHandleTable()

    /// The channel behind a SpeechChannel value, if it is live.
    package static func channel(_ handle: UnsafeMutableRawPointer?) -> SpeechChannelObject? {
        handles.object(handle, as: SpeechChannelObject.self)
    }

    /// How many channels are speaking or have speech still to play.
    package static var busyCount: Int { handles.all(as: SpeechChannelObject.self).filter(\.isBusy).count }
    /// The process-wide engine (espeak-ng has one instance); nil when espeak-ng's data is missing.
    package static let engine: SpeechEngine? = try? SpeechEngine()

    /// The channel's SpeechChannel value for clients.
    package private(set) var handle: UnsafeMutableRawPointer?

    private struct Settings {
        var rate = 175.0
        var pitchBase = 69 + 12 * log2(98 / 440.0)  // espeak-ng's default voice, on Apple's scale
        var volume = 1.0
        var voice: String?
    }
    private let settings = LockedState(Settings())
    private let outputRate: Double
    private let ring: SampleRing
    private let synthesizing = Atomic<Bool>(false)
    private let stopRequested = Atomic<Bool>(false)
    /// Where the audio a stop dropped ends in the ring (-1: nothing to drop). A position, not a flag: a new utterance
    /// written before the next render comes after it and must not be dropped with the old one.
    private let discardUpTo = Atomic<Int>(-1)
    private let done = DispatchSemaphore(value: 1)

    /// A channel producing audio at `outputRate`.
    package init(outputRate: Double) {
        self.outputRate = outputRate
        ring = SampleRing(capacity: Int(outputRate * 4))
        handle = Self.handles.add(self)
    }

    /// Releases the channel's handle (the owner disposes of it).
    package func invalidate() {
        stop()
        if let handle { _ = Self.handles.remove(handle, as: SpeechChannelObject.self) }
        handle = nil
    }

    /// Whether the channel is synthesizing or has audio not yet played.
    package var isBusy: Bool { synthesizing.load(ordering: .acquiring) || ring.count > 0 }

    /// Words per minute.
    package var rate: Double {
        get { settings.withLock { $0.rate } }
        set { settings.withLock { $0.rate = newValue } }
    }
    /// Apple's pitch base (semitones, 69 = 440 Hz).
    package var pitchBase: Double {
        get { settings.withLock { $0.pitchBase } }
        set { settings.withLock { $0.pitchBase = newValue } }
    }
    /// 0...1.
    package var volume: Double {
        get { settings.withLock { $0.volume } }
        set { settings.withLock { $0.volume = newValue } }
    }
    /// An espeak-ng voice identifier, or nil for the default.
    package var voice: String? {
        get { settings.withLock { $0.voice } }
        set { settings.withLock { $0.voice = newValue } }
    }

    /// Speaks `text`, interrupting anything being spoken. Returns noErr, or -241 (synthOpenFailed) without an engine.
    package func speak(_ text: String) -> OSStatus {
        guard let engine = Self.engine else { return -241 }
        stop()
        done.wait()
        stopRequested.store(false, ordering: .releasing)
        synthesizing.store(true, ordering: .releasing)
        let s = settings.withLock { $0 }
        let rate = outputRate
        let thread = Thread { [self] in
            defer {
                synthesizing.store(false, ordering: .releasing)
                done.signal()
            }
            let converter = SampleRateConverter(inputRate: SpeechEngine.sampleRate, outputRate: rate, channels: 1, quality: .high,
                                                algorithm: .sinc)
            let capacity = 8192
            let out = UnsafeMutablePointer<Float>.allocate(capacity: capacity)
            defer { out.deallocate() }
            var outs: [UnsafeMutablePointer<Float>] = [out]
            /// Resamples `chunk` (nil: the end) into the ring, waiting for room; false once stopped.
            func deliver(_ chunk: UnsafeBufferPointer<Float>?) -> Bool {
                var offset = 0
                let total = chunk?.count ?? 0
                repeat {
                    let (used, made): (Int, Int) = outs.withUnsafeMutableBufferPointer { o in
                        if let chunk, let base = chunk.baseAddress {
                            var input: [UnsafePointer<Float>] = [base + offset]
                            return input.withUnsafeMutableBufferPointer { i in
                                let r = converter.process(input: UnsafePointer(i.baseAddress!), inputFrames: total - offset, endOfInput: false,
                                                          output: UnsafePointer(o.baseAddress!), outputCapacity: capacity)
                                return (r.inputConsumed, r.outputProduced)
                            }
                        }
                        let r = converter.process(input: nil, inputFrames: 0, endOfInput: true, output: UnsafePointer(o.baseAddress!),
                                                  outputCapacity: capacity)
                        return (r.inputConsumed, r.outputProduced)
                    }
                    offset += used
                    var written = 0
                    while written < made {
                        if stopRequested.load(ordering: .acquiring) { return false }
                        written += ring.write(out + written, count: made - written)
                        if written < made { usleep(2000) }
                    }
                    if chunk == nil && made == 0 { return true }
                    if chunk != nil && used == 0 && made == 0 { break }
                } while chunk == nil || offset < total
                return !stopRequested.load(ordering: .acquiring)
            }
            let hertz = 440 * pow(2, (s.pitchBase - 69) / 12)
            let finished = (try? engine.speak(text, voice: s.voice, rate: s.rate, pitch: hertz, volume: s.volume) { chunk in
                deliver(chunk)
            }) ?? false
            if finished { _ = deliver(nil) }
        }
        thread.name = "SpeechChannel"
        thread.start()
        return noErr
    }

    /// Stops speaking at once: the synthesis ends and what is waiting is dropped at the next render.
    package func stop() {
        stopRequested.store(true, ordering: .releasing)
        if synthesizing.load(ordering: .acquiring) {
            done.wait()
            done.signal()
        }
        discardUpTo.store(ring.writePosition, ordering: .releasing)
    }

    // MARK: Render side

    /// Fills `frames` frames of every channel of `output` (mono speech on all of them); answers whether any speech
    /// was written. With `wait` (offline rendering), waits for the synthesis instead of playing silence.
    package func render(into output: UnsafeMutableAudioBufferListPointer, frames: Int, wait: Bool) -> Bool {
        let drop = discardUpTo.exchange(-1, ordering: .acquiring)
        if drop >= 0 { ring.discard(upTo: drop) }
        guard output.count > 0, let first = output[0].mData?.assumingMemoryBound(to: Float.self) else { return false }
        if wait {
            while ring.count < frames && synthesizing.load(ordering: .acquiring) && !stopRequested.load(ordering: .acquiring) {
                usleep(500)
            }
        }
        let got = ring.read(into: first, count: frames)
        (first + got).update(repeating: 0, count: frames - got)
        for c in 1..<max(output.count, 1) {
            output[c].mData?.assumingMemoryBound(to: Float.self).update(from: first, count: frames)
        }
        return got > 0
    }
}
