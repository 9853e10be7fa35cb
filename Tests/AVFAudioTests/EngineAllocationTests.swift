import AVFoundation
import AllocationCounter
import COCASupport
import Foundation
import Testing

/// The engine's render path allocates nothing and takes no lock (RealtimeSanitizer in rtsan-test.sh): the manual
/// rendering block driving players (a looping buffer, a file read ahead by the service thread), a source node,
/// effects, a time-pitch unit, the main mixer and a tap, while the client changes volumes and schedules buffers.
@Suite struct EngineAllocationTests {
    @Test func renderingAllocatesNothing() throws {
        let format = AVAudioFormat(standardFormatWithSampleRate: 44100, channels: 2)!
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("avf-alloc-\(getpid()).caf")
        defer { try? FileManager.default.removeItem(at: url) }
        do {
            let file = try AVAudioFile(forWriting: url, settings: format.settings)
            let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 441000)!
            buffer.frameLength = 441000
            for c in 0..<2 { for i in 0..<441000 { buffer.floatChannelData![c][i] = Float(0.3 * sin(Double(i) * 0.05)) } }
            try file.write(from: buffer)
        }
        let engine = AVAudioEngine()
        try engine.enableManualRenderingMode(.realtime, format: format, maximumFrameCount: 256)
        let player = AVAudioPlayerNode(), filePlayer = AVAudioPlayerNode()
        let eq = AVAudioUnitEQ(numberOfBands: 4), reverb = AVAudioUnitReverb(), delay = AVAudioUnitDelay()
        let distortion = AVAudioUnitDistortion(), timePitch = AVAudioUnitTimePitch()
        var phase: Float = 0
        let source = AVAudioSourceNode { _, _, frames, list in
            for i in 0..<Int(frames) {
                phase += 0.03
                for b in UnsafeMutableAudioBufferListPointer(list) { b.mData!.assumingMemoryBound(to: Float.self)[i] = 0.1 * sin(phase) }
            }
            return noErr
        }
        for node in [player, filePlayer, eq, reverb, delay, distortion, timePitch, source] as [AVAudioNode] { engine.attach(node) }
        engine.connect(player, to: eq, format: format)
        engine.connect(eq, to: reverb, format: format)
        engine.connect(reverb, to: delay, format: format)
        engine.connect(delay, to: engine.mainMixerNode, format: format)
        engine.connect(filePlayer, to: timePitch, format: format)
        engine.connect(timePitch, to: distortion, format: format)
        engine.connect(distortion, to: engine.mainMixerNode, format: format)
        engine.connect(source, to: engine.mainMixerNode, format: format)
        reverb.loadFactoryPreset(.mediumHall)
        distortion.loadFactoryPreset(.multiEcho1)
        timePitch.rate = 1.5
        timePitch.pitch = 300
        let tapped = TapCounter()
        engine.mainMixerNode.installTap(onBus: 0, bufferSize: 4096, format: nil) { buffer, _ in tapped.add(Int(buffer.frameLength)) }
        try engine.start()
        let loop = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 1000)!
        loop.frameLength = 1000
        for c in 0..<2 { for i in 0..<1000 { loop.floatChannelData![c][i] = Float(i % 100) / 400 } }
        player.scheduleBuffer(loop, at: nil, options: .loops)
        filePlayer.scheduleFile(try AVAudioFile(forReading: url), at: nil)
        filePlayer.prepare(withFrameCount: 8192)
        player.play()
        filePlayer.play()

        let block = engine.manualRenderingBlock
        let out = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 256)!
        var failures = 0, heard = 0
        func renderOne(_ k: Int) {
            out.frameLength = 256
            var status: OSStatus = noErr
            if block(256, out.mutableAudioBufferList, &status) != .success { failures += 1 }
            if out.floatChannelData![0][100] != 0 { heard += 1 }
        }
        renderOne(0)
        oca_alloc_counting_start()
        oca_realtime_enter()
        for k in 1..<5_000 { renderOne(k) }
        oca_realtime_exit()
        let count = oca_alloc_counting_stop()
        // The client side between renders (allowed to allocate): volumes and another scheduled buffer.
        player.volume = 0.5
        eq.bands[0].gain = 6
        player.scheduleBuffer(loop, at: nil, options: .interrupts)
        oca_alloc_counting_start()
        oca_realtime_enter()
        for k in 5_000..<10_000 { renderOne(k) }
        oca_realtime_exit()
        let count2 = oca_alloc_counting_stop()
        #expect(failures == 0)
        #expect(count + count2 == 0, "\(count) + \(count2) allocations on the render thread")
        #expect(heard > 9_000, "sound in \(heard) of 10,000 slices")
        let deadline = Date().addingTimeInterval(3)
        while tapped.frames < 2_400_000 && Date() < deadline { usleep(2000) }
        #expect(tapped.frames >= 2_400_000, "the tap delivered \(tapped.frames) frames")
        engine.stop()
    }
}

/// Frames a tap has delivered.
final class TapCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    func add(_ frames: Int) { lock.withLock { n += frames } }
    var frames: Int { lock.withLock { n } }
}
