import AVFoundation
import Foundation
import Testing

/// AVAudioEngine in offline manual rendering: players, mixers and effects against independently computed
/// expectations.
@Suite struct EngineOfflineTests {
    static let rate = 44100.0
    static let format = AVAudioFormat(standardFormatWithSampleRate: rate, channels: 2)!

    /// A stereo buffer of reproducible noise (left and right differ).
    static func noise(frames: Int, seed: UInt64 = 1) -> AVAudioPCMBuffer {
        let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: AVAudioFrameCount(frames))!
        buffer.frameLength = AVAudioFrameCount(frames)
        var state = seed
        for c in 0..<2 {
            for i in 0..<frames {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                buffer.floatChannelData![c][i] = Float(Int64(bitPattern: state >> 11) % 20000) / 40000
            }
        }
        return buffer
    }

    /// Renders `frames` frames of the engine in slices of `slice`, returning (left, right).
    static func render(_ engine: AVAudioEngine, frames: Int, slice: Int = 512) throws -> ([Float], [Float]) {
        let buffer = AVAudioPCMBuffer(pcmFormat: engine.manualRenderingFormat, frameCapacity: AVAudioFrameCount(slice))!
        var left: [Float] = [], right: [Float] = []
        while left.count < frames {
            let n = min(slice, frames - left.count)
            let status = try engine.renderOffline(AVAudioFrameCount(n), to: buffer)
            #expect(status == .success)
            left += UnsafeBufferPointer(start: buffer.floatChannelData![0], count: n)
            right += UnsafeBufferPointer(start: buffer.floatChannelData![engine.manualRenderingFormat.channelCount > 1 ? 1 : 0], count: n)
        }
        return (left, right)
    }

    static func manualEngine() throws -> AVAudioEngine {
        let engine = AVAudioEngine()
        try engine.enableManualRenderingMode(.offline, format: format, maximumFrameCount: 4096)
        return engine
    }

    @Test func playerBufferStartsAtItsSampleTime() throws {
        let engine = try Self.manualEngine()
        let player = AVAudioPlayerNode()
        engine.attach(player)
        engine.connect(player, to: engine.mainMixerNode, format: Self.format)
        try engine.start()
        let buffer = Self.noise(frames: 3000)
        player.scheduleBuffer(buffer, at: AVAudioTime(sampleTime: 1000, atRate: Self.rate), options: [])
        player.play()
        let (left, right) = try Self.render(engine, frames: 5000, slice: 333)
        #expect(left[0..<1000].allSatisfy { $0 == 0 } && right[0..<1000].allSatisfy { $0 == 0 })
        let expectedLeft = Array(UnsafeBufferPointer(start: buffer.floatChannelData![0], count: 3000))
        let expectedRight = Array(UnsafeBufferPointer(start: buffer.floatChannelData![1], count: 3000))
        #expect(Array(left[1000..<4000]) == expectedLeft)
        #expect(Array(right[1000..<4000]) == expectedRight)
        #expect(left[4000...].allSatisfy { $0 == 0 })
        #expect(engine.manualRenderingSampleTime == 5000)
    }
}

extension EngineOfflineTests {
    @Test func mixerGivesTheWeightedSum() throws {
        let engine = try Self.manualEngine()
        let a = AVAudioPlayerNode(), b = AVAudioPlayerNode()
        for p in [a, b] {
            engine.attach(p)
            engine.connect(p, to: engine.mainMixerNode, format: Self.format)
        }
        a.volume = 0.5
        b.volume = 0.25
        try engine.start()
        let x = Self.noise(frames: 4000, seed: 7), y = Self.noise(frames: 4000, seed: 9)
        a.scheduleBuffer(x)
        b.scheduleBuffer(y)
        a.play()
        b.play()
        let (left, right) = try Self.render(engine, frames: 4000)
        var worst: Float = 0
        for i in 0..<4000 {
            worst = max(worst, abs(left[i] - (0.5 * x.floatChannelData![0][i] + 0.25 * y.floatChannelData![0][i])))
            worst = max(worst, abs(right[i] - (0.5 * x.floatChannelData![1][i] + 0.25 * y.floatChannelData![1][i])))
        }
        #expect(worst < 1e-7, "largest error \(worst)")
    }

    @Test func eqNodeMatchesTheEffectUnit() throws {
        let engine = try Self.manualEngine()
        let player = AVAudioPlayerNode()
        let eq = AVAudioUnitEQ(numberOfBands: 2)
        eq.bands[0].filterType = .parametric
        eq.bands[0].frequency = 1000
        eq.bands[0].bandwidth = 1
        eq.bands[0].gain = 9
        eq.bands[0].bypass = false
        eq.bands[1].filterType = .highShelf
        eq.bands[1].frequency = 6000
        eq.bands[1].gain = -6
        eq.bands[1].bypass = false
        eq.globalGain = -2
        engine.attach(player)
        engine.attach(eq)
        engine.connect(player, to: eq, format: Self.format)
        engine.connect(eq, to: engine.mainMixerNode, format: Self.format)
        try engine.start()
        let input = Self.noise(frames: 8192, seed: 3)
        player.scheduleBuffer(input)
        player.play()
        let (left, right) = try Self.render(engine, frames: 8192)

        // The same AUNBandEQ, driven directly through AudioUnitRender with a render callback.
        var d = AudioComponentDescription(componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_NBandEQ,
                                          componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        var unit: AudioUnit?
        #expect(AudioComponentInstanceNew(AudioComponentFindNext(nil, &d)!, &unit) == noErr)
        var bands: UInt32 = 2
        AudioUnitSetProperty(unit!, kAUNBandEQProperty_NumberOfBands, kAudioUnitScope_Global, 0, &bands, 4)
        var asbd = Self.format.streamDescription.pointee
        for scope in [kAudioUnitScope_Input, kAudioUnitScope_Output] {
            AudioUnitSetProperty(unit!, kAudioUnitProperty_StreamFormat, scope, 0, &asbd, UInt32(MemoryLayout<AudioStreamBasicDescription>.size))
        }
        let settings: [(AudioUnitParameterID, Float)] = [
            (kAUNBandEQParam_FilterType, 0), (kAUNBandEQParam_Frequency, 1000), (kAUNBandEQParam_Bandwidth, 1), (kAUNBandEQParam_Gain, 9),
            (kAUNBandEQParam_BypassBand, 0), (kAUNBandEQParam_FilterType + 1, Float(kAUNBandEQFilterType_HighShelf)),
            (kAUNBandEQParam_Frequency + 1, 6000), (kAUNBandEQParam_Gain + 1, -6), (kAUNBandEQParam_BypassBand + 1, 0), (kAUNBandEQParam_GlobalGain, -2)]
        for (id, value) in settings { AudioUnitSetParameter(unit!, id, kAudioUnitScope_Global, 0, value, 0) }
        let source = Unmanaged.passUnretained(input).toOpaque()
        var callback = AURenderCallbackStruct(inputProc: { refCon, _, timeStamp, _, frames, ioData in
            let input = Unmanaged<AVAudioPCMBuffer>.fromOpaque(refCon).takeUnretainedValue()
            let out = UnsafeMutableAudioBufferListPointer(ioData!)
            let start = Int(timeStamp.pointee.mSampleTime)
            for c in 0..<2 { out[c].mData!.assumingMemoryBound(to: Float.self).update(from: input.floatChannelData![c] + start, count: Int(frames)) }
            return noErr
        }, inputProcRefCon: source)
        AudioUnitSetProperty(unit!, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &callback, UInt32(MemoryLayout<AURenderCallbackStruct>.size))
        #expect(AudioUnitInitialize(unit!) == noErr)
        let out = AVAudioPCMBuffer(pcmFormat: Self.format, frameCapacity: 512)!
        var worst: Float = 0
        for start in stride(from: 0, to: 8192, by: 512) {
            out.frameLength = 512
            var stamp = AudioTimeStamp()
            stamp.mSampleTime = Double(start)
            stamp.mFlags = .sampleTimeValid
            var flags: AudioUnitRenderActionFlags = []
            #expect(AudioUnitRender(unit!, &flags, &stamp, 0, 512, out.mutableAudioBufferList) == noErr)
            for i in 0..<512 {
                worst = max(worst, abs(out.floatChannelData![0][i] - left[start + i]), abs(out.floatChannelData![1][i] - right[start + i]))
            }
        }
        AudioComponentInstanceDispose(unit!)
        #expect(worst < 1e-6, "largest difference \(worst)")
        #expect(left.map(abs).max()! > 0.1, "the EQ passed the signal")
    }

    @Test func sourceNodeAtAnotherRateIsConverted() throws {
        let engine = AVAudioEngine()
        let out48 = AVAudioFormat(standardFormatWithSampleRate: 48000, channels: 2)!
        try engine.enableManualRenderingMode(.offline, format: out48, maximumFrameCount: 1024)
        let blockFormat = AVAudioFormat(standardFormatWithSampleRate: 24000, channels: 1)!
        var phase = 0.0
        let source = AVAudioSourceNode(format: blockFormat) { _, _, frames, list in
            let out = UnsafeMutableAudioBufferListPointer(list)[0].mData!.assumingMemoryBound(to: Float.self)
            for i in 0..<Int(frames) {
                out[i] = Float(0.5 * sin(phase))
                phase += 2 * .pi * 1000 / 24000
            }
            return noErr
        }
        engine.attach(source)
        engine.connect(source, to: engine.mainMixerNode, format: blockFormat)
        try engine.start()
        let (left, _) = try Self.render(engine, frames: 48000, slice: 1024)
        let tail = Array(left[24000...])
        // A 1 kHz sine at 48 kHz: 1,000 cycles a second, a constant-power centre pan (0.707) on the mono source.
        let crossings = zip(tail, tail.dropFirst()).filter { $0.0 < 0 && $0.1 >= 0 }.count
        #expect(abs(crossings - 500) <= 1, "\(crossings) upward crossings in 0.5 s")
        let peak = tail.map(abs).max()!
        #expect(abs(peak - 0.5 * 0.7071) < 0.01, "peak \(peak)")
    }

    @Test func tapSeesWhatIsRendered() throws {
        let engine = try Self.manualEngine()
        let player = AVAudioPlayerNode()
        engine.attach(player)
        engine.connect(player, to: engine.mainMixerNode, format: Self.format)
        let lock = NSLock()
        var tapped: [Float] = [], times: [AVAudioFramePosition] = []
        engine.mainMixerNode.installTap(onBus: 0, bufferSize: 1000, format: nil) { buffer, when in
            lock.withLock {
                tapped += UnsafeBufferPointer(start: buffer.floatChannelData![0], count: Int(buffer.frameLength))
                times.append(when.sampleTime)
            }
        }
        try engine.start()
        player.scheduleBuffer(Self.noise(frames: 8000, seed: 5))
        player.play()
        let (left, _) = try Self.render(engine, frames: 8000, slice: 256)
        let deadline = Date().addingTimeInterval(5)
        while lock.withLock({ tapped.count }) < 8000 && Date() < deadline { usleep(2000) }
        lock.withLock {
            #expect(tapped.count == 8000)
            #expect(tapped == left)
            #expect(times == (0..<8).map { AVAudioFramePosition($0 * 1000) })
        }
        engine.mainMixerNode.removeTap(onBus: 0)
    }

    @Test func fanOutFeedsTwoMixerInputs() throws {
        let engine = try Self.manualEngine()
        let player = AVAudioPlayerNode()
        let submix = AVAudioMixerNode()
        engine.attach(player)
        engine.attach(submix)
        engine.connect(submix, to: engine.mainMixerNode, format: Self.format)
        engine.connect(player, to: [AVAudioConnectionPoint(node: engine.mainMixerNode, bus: 1), AVAudioConnectionPoint(node: submix, bus: 0)],
                       fromBus: 0, format: Self.format)
        #expect(engine.outputConnectionPoints(for: player, outputBus: 0).count == 2)
        try engine.start()
        let x = Self.noise(frames: 2048, seed: 11)
        player.scheduleBuffer(x)
        player.play()
        let (left, _) = try Self.render(engine, frames: 2048)
        var worst: Float = 0
        for i in 0..<2048 { worst = max(worst, abs(left[i] - 2 * x.floatChannelData![0][i])) }
        #expect(worst < 1e-6, "the player rendered once and reached the main mix twice (largest error \(worst))")
    }

    @Test func sinkNodeReceivesItsInput() throws {
        let engine = AVAudioEngine()
        try engine.enableManualRenderingMode(.realtime, format: Self.format, maximumFrameCount: 512)
        let player = AVAudioPlayerNode()
        let counter = SinkCounter()
        let sink = AVAudioSinkNode { _, frames, list in
            let data = UnsafeMutableAudioBufferListPointer(UnsafeMutablePointer(mutating: list))[0].mData!.assumingMemoryBound(to: Float.self)
            counter.add(UnsafeBufferPointer(start: data, count: Int(frames)))
            return noErr
        }
        engine.attach(player)
        engine.attach(sink)
        engine.connect(player, to: sink, format: Self.format)
        _ = engine.mainMixerNode
        try engine.start()
        let x = Self.noise(frames: 2048, seed: 13)
        player.scheduleBuffer(x)
        player.play()
        let block = engine.manualRenderingBlock
        let out = AVAudioPCMBuffer(pcmFormat: Self.format, frameCapacity: 512)!
        for _ in 0..<4 {
            out.frameLength = 512
            var error: OSStatus = noErr
            #expect(block(512, out.mutableAudioBufferList, &error) == .success && error == noErr)
        }
        #expect(counter.samples == Array(UnsafeBufferPointer(start: x.floatChannelData![0], count: 2048)))
    }
}

/// Collects what a sink node receives (the test reads it after rendering).
final class SinkCounter: @unchecked Sendable {
    private(set) var samples: [Float] = []
    func add(_ data: UnsafeBufferPointer<Float>) { samples += data }
}

extension EngineOfflineTests {
    /// The frequency of a sine by least-squares fit of its zero crossings (interpolated), in hertz.
    static func frequency(_ x: ArraySlice<Float>, rate: Double) -> Double {
        var crossings: [Double] = []
        var previous = x.first!
        for (i, v) in zip(x.indices.dropFirst(), x.dropFirst()) {
            if previous < 0 && v >= 0 { crossings.append(Double(i - 1) + Double(-previous / (v - previous))) }
            previous = v
        }
        let n = Double(crossings.count)
        let meanK = (n - 1) / 2, meanT = crossings.reduce(0, +) / n
        var num = 0.0, den = 0.0
        for (k, t) in crossings.enumerated() {
            num += (Double(k) - meanK) * (t - meanT)
            den += (Double(k) - meanK) * (Double(k) - meanK)
        }
        return rate / (num / den)
    }

    @Test func fileThroughTimePitchAtRateTwoKeepsItsPitch() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("avf-tp-\(getpid()).caf")
        defer { try? FileManager.default.removeItem(at: url) }
        let mono = AVAudioFormat(standardFormatWithSampleRate: Self.rate, channels: 1)!
        do {
            let file = try AVAudioFile(forWriting: url, settings: mono.settings)
            let buffer = AVAudioPCMBuffer(pcmFormat: mono, frameCapacity: 88200)!
            buffer.frameLength = 88200
            for i in 0..<88200 { buffer.floatChannelData![0][i] = Float(0.5 * sin(2 * Double.pi * 440 * Double(i) / Self.rate)) }
            try file.write(from: buffer)
        }
        let file = try AVAudioFile(forReading: url)
        #expect(file.length == 88200)
        let engine = try Self.manualEngine()
        let player = AVAudioPlayerNode()
        let timePitch = AVAudioUnitTimePitch()
        timePitch.rate = 2
        engine.attach(player)
        engine.attach(timePitch)
        engine.connect(player, to: timePitch, format: file.processingFormat)
        engine.connect(timePitch, to: engine.mainMixerNode, format: file.processingFormat)
        try engine.start()
        let done = DoneFlag()
        player.scheduleFile(file, at: nil) { done.set() }
        player.play()
        let (left, _) = try Self.render(engine, frames: 88200, slice: 1024)
        let last = left.lastIndex { abs($0) > 0.01 }!
        #expect(abs(Double(last) - 44100) < 2048, "sounded for \(last) frames, half the file is 44,100")
        let f = Self.frequency(left[8000..<36000], rate: Self.rate)
        let cents = 1200 * log2(f / 440)
        #expect(abs(cents) < 1, "\(f) Hz is \(cents) cents from 440")
        let deadline = Date().addingTimeInterval(2)
        while !done.isSet && Date() < deadline { usleep(1000) }
        #expect(done.isSet, "the completion handler ran")
    }
}

/// Set once from a completion handler.
final class DoneFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}

extension EngineOfflineTests {
    @Test func mixerGrowsForAHighBus() throws {
        let engine = try Self.manualEngine()
        let player = AVAudioPlayerNode()
        engine.attach(player)
        engine.connect(player, to: engine.mainMixerNode, fromBus: 0, toBus: 100, format: Self.format)
        #expect(engine.mainMixerNode.numberOfInputs > 100)
        #expect(engine.inputConnectionPoint(for: engine.mainMixerNode, inputBus: 100)?.node === player)
        #expect(engine.mainMixerNode.nextAvailableInputBus == 0)
        try engine.start()
        let x = Self.noise(frames: 1024, seed: 21)
        player.scheduleBuffer(x)
        player.play()
        let (left, _) = try Self.render(engine, frames: 1024)
        #expect(left == Array(UnsafeBufferPointer(start: x.floatChannelData![0], count: 1024)))
    }
}

extension EngineOfflineTests {
    @Test func monoOutputPassesAMonoSourceAtUnity() throws {
        let mono = AVAudioFormat(standardFormatWithSampleRate: Self.rate, channels: 1)!
        let engine = AVAudioEngine()
        let player = AVAudioPlayerNode()
        engine.attach(player)
        engine.connect(player, to: engine.mainMixerNode, format: mono)  // before manual rendering, as Apple's sample does
        try engine.enableManualRenderingMode(.offline, format: mono, maximumFrameCount: 1024)
        #expect(engine.mainMixerNode.outputFormat(forBus: 0).channelCount == 1)
        try engine.start()
        let x = AVAudioPCMBuffer(pcmFormat: mono, frameCapacity: 2048)!
        x.frameLength = 2048
        for i in 0..<2048 { x.floatChannelData![0][i] = Float(i % 64) / 128 - 0.25 }
        player.scheduleBuffer(x)
        player.play()
        let (out, _) = try Self.render(engine, frames: 2048)
        #expect(out == Array(UnsafeBufferPointer(start: x.floatChannelData![0], count: 2048)))
    }
}

extension EngineOfflineTests {
    /// Holds the input block's buffer list (the test thread renders, so no locking).
    final class InputFeed: @unchecked Sendable {
        let buffer: AVAudioPCMBuffer
        var position = 0
        init(_ buffer: AVAudioPCMBuffer) { self.buffer = buffer }
    }

    @Test func manualInputBlockFeedsTheInputNode() throws {
        let engine = try Self.manualEngine()
        let source = Self.noise(frames: 4096, seed: 31)
        let feed = InputFeed(source)
        let chunk = AVAudioPCMBuffer(pcmFormat: Self.format, frameCapacity: 4096)!
        #expect(engine.inputNode.setManualRenderingInputPCMFormat(Self.format) { frames in
            chunk.frameLength = frames
            for c in 0..<2 {
                chunk.floatChannelData![c].update(from: feed.buffer.floatChannelData![c] + feed.position, count: Int(frames))
            }
            feed.position += Int(frames)
            return UnsafePointer(chunk.audioBufferList)
        })
        engine.connect(engine.inputNode, to: engine.mainMixerNode, format: Self.format)
        try engine.start()
        let (left, right) = try Self.render(engine, frames: 4096, slice: 512)
        #expect(left == Array(UnsafeBufferPointer(start: source.floatChannelData![0], count: 4096)))
        #expect(right == Array(UnsafeBufferPointer(start: source.floatChannelData![1], count: 4096)))
    }
}
