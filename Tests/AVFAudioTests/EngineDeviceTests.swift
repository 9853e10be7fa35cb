import AVFoundation
import DeviceTestSupport
import Foundation
import Testing

/// AVAudioEngine on the private PulseAudio server: a player heard on the "out" sink, the input node's tap hearing
/// what is played into the "mic" sink, and the engine following a change of the default output device.
@Suite(.serialized, .audioServer) struct EngineDeviceTests {
    typealias S = AVFAudioTestSupport

    /// Collects tapped samples (left channel).
    final class Collector: @unchecked Sendable {
        private let lock = NSLock()
        private var data: [Float] = []
        func add(_ buffer: AVAudioPCMBuffer) {
            lock.withLock { data += UnsafeBufferPointer(start: buffer.floatChannelData![0], count: Int(buffer.frameLength)) }
        }
        var samples: [Float] { lock.withLock { data } }
    }

    /// Counts configuration-change notifications.
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var n = 0
        func bump() { lock.withLock { n += 1 } }
        var count: Int { lock.withLock { n } }
    }

    @Test func playerIsHeardThroughTheMainMixer() throws {
        let url = try S.writeTone(seconds: 1, frequency: 1000, amplitude: 0.5)
        defer { try? FileManager.default.removeItem(at: url) }
        let file = try AVAudioFile(forReading: url)
        let engine = AVAudioEngine()
        let player = AVAudioPlayerNode()
        engine.attach(player)
        engine.connect(player, to: engine.mainMixerNode, format: file.processingFormat)
        let done = DoneFlag()
        player.scheduleFile(file, at: nil) { done.set() }
        let capture = try PulseTestServer.Capture()
        Thread.sleep(forTimeInterval: 0.2)
        try engine.start()
        #expect(engine.isRunning)
        player.play()
        let deadline = Date().addingTimeInterval(4)
        while !done.isSet && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(done.isSet, "the file's completion handler ran")
        #expect(player.lastRenderTime != nil && player.playerTime(forNodeTime: player.lastRenderTime!) != nil)
        Thread.sleep(forTimeInterval: 0.4)
        engine.stop()
        let heard = capture.finish()[0]
        let (start, end) = try #require(S.extent(heard), "nothing heard")
        let seconds = Double(end - start + 1) / S.rate
        #expect(abs(seconds - 1) < 0.05, "heard \(seconds) s")
        let amplitude = ToneAnalysis.fit(heard[(start + 2205)...].prefix(22050), frequency: 1000, rate: S.rate).amplitude
        #expect(abs(amplitude - 0.5) < 0.01, "amplitude \(amplitude)")
        #expect(S.longestSilence(Array(heard[start...end])) < 0.02, "a dropout")
    }

    @Test func inputTapHearsTheMic() throws {
        let engine = AVAudioEngine()
        let input = engine.inputNode
        let format = input.outputFormat(forBus: 0)
        #expect(format.sampleRate > 0 && format.channelCount > 0)
        let collector = Collector()
        input.installTap(onBus: 0, bufferSize: 4096, format: format) { buffer, _ in collector.add(buffer) }
        try engine.start()
        Thread.sleep(forTimeInterval: 0.2)
        PulseTestServer.play(PulseTestServer.stereoSine(660, seconds: 1, amplitude: 0.4), sink: "mic")
        Thread.sleep(forTimeInterval: 0.3)
        engine.stop()
        input.removeTap(onBus: 0)
        let heard = collector.samples
        let (start, end) = try #require(S.extent(heard), "the tap heard nothing")
        let seconds = Double(end - start + 1) / format.sampleRate
        #expect(abs(seconds - 1) < 0.1, "heard \(seconds) s")
        let amplitude = ToneAnalysis.fit(heard[(start + 2205)...].prefix(22050), frequency: 660, rate: format.sampleRate).amplitude
        #expect(abs(amplitude - 0.4) < 0.02, "amplitude \(amplitude)")
    }

    @Test func followsANewDefaultOutputDevice() throws {
        // The HAL's output devices; the test needs two to switch between.
        var address = AudioObjectPropertyAddress(mSelector: kAudioHardwarePropertyDevices, mScope: kAudioObjectPropertyScopeGlobal,
                                                 mElement: kAudioObjectPropertyElementMain)
        var size: UInt32 = 0
        AudioObjectGetPropertyDataSize(AudioObjectID(kAudioObjectSystemObject), &address, 0, nil, &size)
        var devices = [AudioDeviceID](repeating: 0, count: Int(size) / 4)
        AudioObjectGetPropertyData(AudioObjectID(kAudioObjectSystemObject), &address, 0, nil, &size, &devices)
        var defaultAddress = AudioObjectPropertyAddress(mSelector: kAudioHardwarePropertyDefaultOutputDevice, mScope: kAudioObjectPropertyScopeGlobal,
                                                        mElement: kAudioObjectPropertyElementMain)
        var original: AudioDeviceID = 0
        size = 4
        AudioObjectGetPropertyData(AudioObjectID(kAudioObjectSystemObject), &defaultAddress, 0, nil, &size, &original)
        let outputs = devices.filter { device in
            var streams = AudioObjectPropertyAddress(mSelector: kAudioDevicePropertyStreams, mScope: kAudioObjectPropertyScopeOutput,
                                                     mElement: kAudioObjectPropertyElementMain)
            var bytes: UInt32 = 0
            return AudioObjectGetPropertyDataSize(device, &streams, 0, nil, &bytes) == noErr && bytes > 0
        }
        let other = try #require(outputs.first { $0 != original }, "the HAL lists a second output device (\(outputs))")
        defer {
            var back = original
            AudioObjectSetPropertyData(AudioObjectID(kAudioObjectSystemObject), &defaultAddress, 0, nil, 4, &back)
        }

        let engine = AVAudioEngine()
        let player = AVAudioPlayerNode()
        engine.attach(player)
        let format = AVAudioFormat(standardFormatWithSampleRate: S.rate, channels: 2)!
        engine.connect(player, to: engine.mainMixerNode, format: format)
        let tone = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 4410)!
        tone.frameLength = 4410
        for i in 0..<4410 { for c in 0..<2 { tone.floatChannelData![c][i] = Float(0.3 * sin(2 * Double.pi * 1000 * Double(i) / S.rate)) } }
        player.scheduleBuffer(tone, at: nil, options: .loops)
        let changes = Counter()
        let observer = NotificationCenter.default.addObserver(forName: .AVAudioEngineConfigurationChange, object: engine, queue: nil) { _ in
            changes.bump()
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try engine.start()
        player.play()
        Thread.sleep(forTimeInterval: 0.5)
        var device = other
        #expect(AudioObjectSetPropertyData(AudioObjectID(kAudioObjectSystemObject), &defaultAddress, 0, nil, 4, &device) == noErr)
        let deadline = Date().addingTimeInterval(3)
        while changes.count == 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(changes.count == 1, "one configuration change posted")
        #expect(engine.isRunning, "the engine kept running on the new device")
        var current: AudioDeviceID = 0
        size = 4
        AudioUnitGetProperty(engine.outputNode.audioUnit!, kAudioOutputUnitProperty_CurrentDevice, kAudioUnitScope_Global, 0, &current, &size)
        #expect(current == other)
        let capture = try PulseTestServer.Capture()
        Thread.sleep(forTimeInterval: 1.2)
        let heard = capture.finish()[0]
        engine.stop()
        let loud = heard.filter { abs($0) > 0.2 }.count
        #expect(loud > 4410, "the tone is heard after the switch (\(loud) loud samples)")
    }
}
