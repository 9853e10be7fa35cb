// A step-sequencer drum machine as people build them on AVAudioEngine: one AVAudioPlayerNode per drum,
// all into a submix AVAudioMixerNode, through AVAudioUnitVarispeed (tempo) to the main mixer; each hit
// scheduled sample-accurately with scheduleBuffer(_:at: AVAudioTime(sampleTime:atRate:)). Plus the
// looping-buffer idioms (.loops, .interrupts, .interruptsAtLoop) and completion callback types.
import AVFoundation
import Foundation
import Testing

/// The app's drum machine.
final class DrumMachine: @unchecked Sendable {
    let engine = AVAudioEngine()
    let submix = AVAudioMixerNode()
    let varispeed = AVAudioUnitVarispeed()
    let format: AVAudioFormat
    private(set) var players: [String: AVAudioPlayerNode] = [:]
    private(set) var samples: [String: AVAudioPCMBuffer] = [:]
    var tempo: Double = 120
    let stepsPerBeat = 4

    init(sampleRate: Double) {
        format = AVAudioFormat(standardFormatWithSampleRate: sampleRate, channels: 2)!
        engine.attach(submix)
        engine.attach(varispeed)
        engine.connect(submix, to: varispeed, format: format)
        engine.connect(varispeed, to: engine.mainMixerNode, format: format)
    }

    /// A drum "sample": a 64-frame block at `level` (easy to find in the output).
    func addDrum(_ name: String, level: Float) {
        let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 64)!
        buffer.frameLength = 64
        for channel in 0..<Int(format.channelCount) {
            for n in 0..<64 { buffer.floatChannelData![channel][n] = level }
        }
        let player = AVAudioPlayerNode()
        engine.attach(player)
        engine.connect(player, to: submix, format: format)
        players[name] = player
        samples[name] = buffer
    }

    var framesPerStep: AVAudioFramePosition {
        AVAudioFramePosition(format.sampleRate * 60 / tempo / Double(stepsPerBeat))
    }

    /// `pattern["kick"] = [0, 4, 8, 12]`: the steps each drum hits on.
    func schedule(_ pattern: [String: [Int]]) {
        for (name, steps) in pattern {
            guard let player = players[name], let buffer = samples[name] else { continue }
            for step in steps {
                let time = AVAudioTime(sampleTime: AVAudioFramePosition(step) * framesPerStep, atRate: format.sampleRate)
                player.scheduleBuffer(buffer, at: time, options: [], completionHandler: nil)
            }
        }
    }

    func start(maximumFrameCount: AVAudioFrameCount = 1024) throws {
        try engine.enableManualRenderingMode(.offline, format: format, maximumFrameCount: maximumFrameCount)
        engine.prepare()
        try engine.start()
        for player in players.values { player.play() }
    }

    func render(frames: Int) throws -> [Float] {
        var out: [Float] = []
        let buffer = AVAudioPCMBuffer(pcmFormat: engine.manualRenderingFormat, frameCapacity: engine.manualRenderingMaximumFrameCount)!
        while out.count < frames {
            let n = min(Int(buffer.frameCapacity), frames - out.count)
            let status = try engine.renderOffline(AVAudioFrameCount(n), to: buffer)
            guard status == .success else { break }
            out += UnsafeBufferPointer(start: buffer.floatChannelData![0], count: Int(buffer.frameLength))
        }
        return out
    }
}

@Suite struct DrumMachineClientTests {
    /// Where each hit starts: indices where the signal rises above `threshold` from below.
    static func onsets(_ samples: [Float], threshold: Float = 0.01) -> [Int] {
        var result: [Int] = []
        var previous: Float = 0
        for (n, value) in samples.enumerated() {
            if abs(value) > threshold && abs(previous) <= threshold { result.append(n) }
            previous = value
        }
        return result
    }

    @Test func patternHitsLandOnTheirSamples() throws {
        let machine = DrumMachine(sampleRate: 48000)
        machine.addDrum("kick", level: 0.5)
        machine.addDrum("snare", level: 0.25)
        machine.addDrum("hat", level: 0.125)
        #expect(machine.framesPerStep == 6000)
        machine.schedule(["kick": [0, 8], "snare": [4, 12], "hat": [2, 6, 10, 14]])
        try machine.start()
        let out = try machine.render(frames: 16 * 6000)
        #expect(out.count == 96000)
        let steps = Self.onsets(out).map { Double($0) / 6000 }
        #expect(steps == [0, 2, 4, 6, 8, 10, 12, 14], "onsets at steps \(steps)")
        // Every hit is exactly where it was scheduled, at its level.
        #expect(out[0] == 0.5 && out[63] == 0.5 && out[64] == 0)
        #expect(out[24000] == 0.25 && out[23999] == 0)
        #expect(out[12000] == 0.125 && out[11999] == 0 && out[12063] == 0.125 && out[12064] == 0)
    }

    @Test func coincidentHitsSumInTheMixer() throws {
        let machine = DrumMachine(sampleRate: 44100)
        machine.tempo = 90
        machine.addDrum("kick", level: 0.5)
        machine.addDrum("hat", level: 0.125)
        let step = machine.framesPerStep
        #expect(step == 7350)
        machine.schedule(["kick": [1], "hat": [1, 3]])
        try machine.start(maximumFrameCount: 512)
        let out = try machine.render(frames: Int(step) * 4)
        #expect(out[Int(step)] == 0.625)
        #expect(out[Int(step) * 3] == 0.125)
        #expect(out[Int(step) - 1] == 0)
    }

    @Test func varispeedDoublesTheTempo() throws {
        let machine = DrumMachine(sampleRate: 48000)
        machine.addDrum("kick", level: 0.5)
        machine.varispeed.rate = 2
        #expect(machine.varispeed.rate == 2)
        machine.schedule(["kick": [0, 4, 8, 12]])
        try machine.start()
        let out = try machine.render(frames: 8 * 6000)
        let onsets = Self.onsets(out, threshold: 0.25)
        // At rate 2 the hits, 24000 frames apart, come out 12000 frames apart (give or take the resampler's latency).
        #expect(onsets.count == 4, "\(onsets)")
        if onsets.count == 4 {
            for index in 1..<4 {
                #expect(abs(onsets[index] - onsets[index - 1] - 12000) <= 2, "\(onsets)")
            }
            #expect(onsets[0] < 64)
        }
    }

    @Test func loopingBufferAndInterrupts() throws {
        let engine = AVAudioEngine()
        let player = AVAudioPlayerNode()
        let format = AVAudioFormat(standardFormatWithSampleRate: 44100, channels: 2)!
        engine.attach(player)
        engine.connect(player, to: engine.mainMixerNode, format: format)
        try engine.enableManualRenderingMode(.offline, format: format, maximumFrameCount: 1000)

        let loop = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 300)!
        loop.frameLength = 300
        for n in 0..<300 { loop.floatChannelData![0][n] = Float(n + 1) / 1000; loop.floatChannelData![1][n] = Float(n + 1) / 1000 }
        let fill = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 500)!
        fill.frameLength = 500
        for n in 0..<500 { fill.floatChannelData![0][n] = -0.5; fill.floatChannelData![1][n] = -0.5 }

        player.scheduleBuffer(loop, at: nil, options: .loops)
        try engine.start()
        player.play()
        let out = AVAudioPCMBuffer(pcmFormat: engine.manualRenderingFormat, frameCapacity: 1000)!
        #expect(try engine.renderOffline(1000, to: out) == .success)
        let first = Array(UnsafeBufferPointer(start: out.floatChannelData![0], count: 1000))
        // The loop repeats seamlessly: 300-frame period.
        #expect(first[0] == 0.001 && first[299] == 0.3 && first[300] == 0.001 && first[999] == 0.1)

        // .interrupts: the new buffer replaces the loop at once.
        player.scheduleBuffer(fill, at: nil, options: .interrupts)
        #expect(try engine.renderOffline(1000, to: out) == .success)
        let second = Array(UnsafeBufferPointer(start: out.floatChannelData![0], count: 1000))
        #expect(second[0] == -0.5 && second[499] == -0.5)
        #expect(second[500] == 0 && second[999] == 0)

        // .interruptsAtLoop: the loop finishes its pass first.
        player.scheduleBuffer(loop, at: nil, options: [.loops, .interrupts])
        #expect(try engine.renderOffline(1000, to: out) == .success)
        player.scheduleBuffer(fill, at: nil, options: .interruptsAtLoop)
        #expect(try engine.renderOffline(1000, to: out) == .success)
        let third = Array(UnsafeBufferPointer(start: out.floatChannelData![0], count: 1000))
        // 1000 frames were 3 passes and 100 frames of the fourth: it completes, then the new buffer plays.
        #expect(third[0] == 0.101 && third[199] == 0.3, "the loop pass in progress completes")
        #expect(third[200] == -0.5 && third[699] == -0.5 && third[700] == 0)
    }

    @Test func completionCallbackTypes() throws {
        let engine = AVAudioEngine()
        let player = AVAudioPlayerNode()
        let format = AVAudioFormat(standardFormatWithSampleRate: 44100, channels: 2)!
        engine.attach(player)
        engine.connect(player, to: engine.mainMixerNode, format: format)
        try engine.enableManualRenderingMode(.offline, format: format, maximumFrameCount: 4096)
        let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 1000)!
        buffer.frameLength = 1000

        final class Log: @unchecked Sendable {
            let lock = NSLock()
            var types: [AVAudioPlayerNodeCompletionCallbackType] = []
            func add(_ type: AVAudioPlayerNodeCompletionCallbackType) { lock.lock(); types.append(type); lock.unlock() }
            var snapshot: [AVAudioPlayerNodeCompletionCallbackType] { lock.lock(); defer { lock.unlock() }; return types }
        }
        let log = Log()
        player.scheduleBuffer(buffer, at: nil, options: [], completionCallbackType: .dataConsumed) { type in log.add(type) }
        player.scheduleBuffer(buffer, at: nil, options: [], completionCallbackType: .dataRendered) { type in log.add(type) }
        player.scheduleBuffer(buffer, at: nil, options: [], completionCallbackType: .dataPlayedBack) { type in log.add(type) }
        try engine.start()
        player.play()
        let out = AVAudioPCMBuffer(pcmFormat: engine.manualRenderingFormat, frameCapacity: 4096)!
        for _ in 0..<3 { _ = try engine.renderOffline(4096, to: out) }
        let deadline = Date().addingTimeInterval(3)
        while log.snapshot.count < 3 && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(Set(log.snapshot.map(\.rawValue)) == [0, 1, 2], "\(log.snapshot.map(\.rawValue))")
        #expect(AVAudioPlayerNodeCompletionCallbackType.dataConsumed.rawValue == 0)
        #expect(AVAudioPlayerNodeCompletionCallbackType.dataPlayedBack.rawValue == 2)
    }
}
