import AVFoundation
import Foundation
import Testing

/// Connections and disconnections made on one thread while another renders through the manual rendering block
/// (realtime mode: the render thread adopts each edit at a slice boundary, as on a device). Apple's engine
/// aborts on some of these; ours must not crash, and no slice may be torn (half before an edit, half after).
@Suite struct EngineLiveEditTests {
    static let format = AVAudioFormat(standardFormatWithSampleRate: 48000, channels: 2)!

    /// Collects the render thread's findings.
    final class RenderLog: @unchecked Sendable {
        let lock = NSLock()
        var slices = 0, torn = 0, unexpected = 0, failures = 0
        var levels = Set<Int>()
    }

    @Test func twoHundredEditsWhileRendering() throws {
        let engine = AVAudioEngine()
        try engine.enableManualRenderingMode(.realtime, format: Self.format, maximumFrameCount: 512)
        let mixer = engine.mainMixerNode
        // Four sources each adding a constant 0.25 to both channels.
        let sources = (0..<4).map { _ in
            AVAudioSourceNode { _, _, frames, list in
                for buffer in UnsafeMutableAudioBufferListPointer(list) {
                    buffer.mData!.assumingMemoryBound(to: Float.self).update(repeating: 0.25, count: Int(frames))
                }
                return noErr
            }
        }
        sources.forEach(engine.attach)
        engine.connect(sources[0], to: mixer, fromBus: 0, toBus: 0, format: Self.format)
        try engine.start()

        let log = RenderLog()
        let stop = StopFlag()
        let block = RenderBlockBox(engine.manualRenderingBlock)
        let renderer = Thread {
            let buffer = AVAudioPCMBuffer(pcmFormat: Self.format, frameCapacity: 512)!
            while !stop.isSet {
                buffer.frameLength = 512
                var error: OSStatus = noErr
                let status = block.block(512, buffer.mutableAudioBufferList, &error)
                log.lock.withLock {
                    guard status == .success else { log.failures += 1; return }
                    log.slices += 1
                    for c in 0..<2 {
                        let data = buffer.floatChannelData![c]
                        let first = data[0]
                        if (0..<512).contains(where: { data[$0] != first }) { log.torn += 1 }
                        let level = (first / 0.25).rounded()
                        if abs(first - level * 0.25) > 1e-6 || level < 0 || level > 4 { log.unexpected += 1 }
                        log.levels.insert(Int(level))
                    }
                }
                usleep(200)
            }
        }
        renderer.start()

        var connected = [true, false, false, false]
        var random = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let i = Int.random(in: 0..<4, using: &random)
            if connected[i] {
                engine.disconnectNodeOutput(sources[i])
            } else {
                engine.connect(sources[i], to: mixer, fromBus: 0, toBus: i, format: Self.format)
            }
            connected[i].toggle()
            #expect(engine.outputConnectionPoints(for: sources[i], outputBus: 0).count == (connected[i] ? 1 : 0))
        }
        usleep(20000)
        stop.set()
        while !renderer.isFinished { usleep(1000) }
        engine.stop()
        log.lock.withLock {
            #expect(log.slices > 50, "\(log.slices) slices rendered")
            #expect(log.torn == 0, "\(log.torn) torn slices")
            #expect(log.unexpected == 0 && log.failures == 0)
            #expect(log.levels.count >= 3, "levels heard: \(log.levels.sorted())")
        }
    }
}

/// Set once to stop a thread.
final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}

/// The render block carried to the render thread.
struct RenderBlockBox: @unchecked Sendable {
    let block: AVAudioEngineManualRenderingBlock
    init(_ block: @escaping AVAudioEngineManualRenderingBlock) { self.block = block }
}
