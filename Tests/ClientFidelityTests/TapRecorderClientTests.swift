// A recorder with a level meter, as apps write one: a tap on a mixer computes the RMS power in dB from
// floatChannelData and appends the tapped buffers to an AVAudioFile created with the mixer's output
// settings; the file is read back afterwards. The "microphone" is an AVAudioSourceNode playing a tone
// and the engine runs offline.
import AVFoundation
import Foundation
import Testing

/// The app's recorder: meter + file writer on a tap.
final class TapRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var file: AVAudioFile?
    private var _powers: [Float] = []
    private var _framesWritten: AVAudioFramePosition = 0
    private var _tapFormats: [AVAudioFormat] = []
    private var _errors: [Error] = []

    var powers: [Float] { lock.lock(); defer { lock.unlock() }; return _powers }
    var framesWritten: AVAudioFramePosition { lock.lock(); defer { lock.unlock() }; return _framesWritten }
    var tapFormats: [AVAudioFormat] { lock.lock(); defer { lock.unlock() }; return _tapFormats }
    var errors: [Error] { lock.lock(); defer { lock.unlock() }; return _errors }

    /// RMS power of the first channel, in dBFS, the way meter code usually computes it.
    static func power(of buffer: AVAudioPCMBuffer) -> Float {
        guard let channelData = buffer.floatChannelData else { return -160 }
        let channelDataValue = channelData.pointee
        let channelDataValueArray = stride(from: 0, to: Int(buffer.frameLength), by: buffer.stride).map { channelDataValue[$0] }
        let rms = sqrt(channelDataValueArray.map { $0 * $0 }.reduce(0, +) / Float(buffer.frameLength))
        let avgPower = 20 * log10(rms)
        return avgPower.isFinite ? avgPower : -160
    }

    func start(on mixer: AVAudioMixerNode, writingTo url: URL) throws {
        let format = mixer.outputFormat(forBus: 0)
        file = try AVAudioFile(forWriting: url, settings: format.settings)
        mixer.installTap(onBus: 0, bufferSize: 1024, format: format) { [weak self] buffer, _ in
            guard let self else { return }
            let power = Self.power(of: buffer)
            self.lock.lock()
            defer { self.lock.unlock() }
            self._powers.append(power)
            self._tapFormats.append(buffer.format)
            // A buffer delivered after stop() finds no file: it must not count as written (`try self.file?.write`
            // would skip the write and still count it, which made framesWritten run ahead of the file).
            guard let file = self.file else { return }
            do {
                try file.write(from: buffer)
                self._framesWritten += AVAudioFramePosition(buffer.frameLength)
            } catch {
                self._errors.append(error)
            }
        }
    }

    func stop(on mixer: AVAudioMixerNode) {
        mixer.removeTap(onBus: 0)
        lock.lock()
        file = nil  // closes the file
        lock.unlock()
    }
}

@Suite struct TapRecorderClientTests {
    static let rate = 48000.0

    /// The "microphone": a 440 Hz sine at `amplitude` on every channel.
    static func tone(amplitude: Float, format: AVAudioFormat) -> AVAudioSourceNode {
        var phase: Double = 0
        let increment = 2 * Double.pi * 440 / format.sampleRate
        return AVAudioSourceNode(format: format) { _, _, frameCount, audioBufferList -> OSStatus in
            let ablPointer = UnsafeMutableAudioBufferListPointer(audioBufferList)
            for frame in 0..<Int(frameCount) {
                let value = amplitude * Float(sin(phase))
                phase += increment
                for buffer in ablPointer {
                    let buf: UnsafeMutableBufferPointer<Float> = UnsafeMutableBufferPointer(buffer)
                    buf[frame] = value
                }
            }
            return noErr
        }
    }

    @Test func meterAndRecordFromATapThenReadTheFileBack() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("client-recording-\(UUID().uuidString).caf")
        defer { try? FileManager.default.removeItem(at: url) }
        let engine = AVAudioEngine()
        let format = AVAudioFormat(standardFormatWithSampleRate: Self.rate, channels: 2)!
        let source = Self.tone(amplitude: 0.5, format: format)
        let recordMixer = AVAudioMixerNode()
        engine.attach(source)
        engine.attach(recordMixer)
        engine.connect(source, to: recordMixer, format: format)
        engine.connect(recordMixer, to: engine.mainMixerNode, format: format)
        engine.mainMixerNode.outputVolume = 0  // monitor muted, as recorders do to avoid feedback
        try engine.enableManualRenderingMode(.offline, format: format, maximumFrameCount: 1024)

        let recorder = TapRecorder()
        try recorder.start(on: recordMixer, writingTo: url)
        try engine.start()

        let output = AVAudioPCMBuffer(pcmFormat: engine.manualRenderingFormat, frameCapacity: engine.manualRenderingMaximumFrameCount)!
        let total: AVAudioFramePosition = 48000
        while engine.manualRenderingSampleTime < total {
            let status = try engine.renderOffline(1024, to: output)
            #expect(status == .success)
        }
        #expect(engine.manualRenderingSampleTime >= total)
        // The monitor is muted.
        #expect(output.floatChannelData![0][100] == 0)
        // Taps are delivered off the render thread; wait for them (generously: the suite shares a loaded machine).
        let deadline = Date().addingTimeInterval(30)
        while recorder.framesWritten < total - 4096 && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        recorder.stop(on: recordMixer)
        engine.stop()

        #expect(recorder.errors.isEmpty, "\(recorder.errors)")
        #expect(recorder.framesWritten >= total - 4096 && recorder.framesWritten <= engine.manualRenderingSampleTime)
        #expect(recorder.tapFormats.allSatisfy { $0.sampleRate == Self.rate && $0.channelCount == 2 })
        // A 0.5-amplitude sine is -9.03 dBFS RMS.
        let steady = recorder.powers.dropFirst().dropLast()
        #expect(!steady.isEmpty)
        #expect(steady.allSatisfy { abs($0 - -9.03) < 0.3 }, "\(Array(steady.prefix(4)))")

        // Read the recording back.
        let file = try AVAudioFile(forReading: url)
        // The bytes on disk tell a stale header (bytes beyond its size) from frames that never reached the file.
        let bytesOnDisk = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int).flatMap { $0 } ?? -1
        #expect(file.length == recorder.framesWritten, "file of \(bytesOnDisk) bytes, \(recorder.tapFormats.count) tap buffers")
        #expect(file.fileFormat.sampleRate == Self.rate)
        #expect(file.fileFormat.channelCount == 2)
        #expect(file.processingFormat.commonFormat == .pcmFormatFloat32)
        #expect(!file.processingFormat.isInterleaved)
        let buffer = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: AVAudioFrameCount(file.length))!
        try file.read(into: buffer)
        #expect(AVAudioFramePosition(buffer.frameLength) == file.length)
        #expect(file.framePosition == file.length)
        #expect(abs(TapRecorder.power(of: buffer) - -9.03) < 0.2)
        var peak: Float = 0
        for n in 0..<Int(buffer.frameLength) { peak = max(peak, abs(buffer.floatChannelData![1][n])) }
        #expect(peak > 0.49 && peak <= 0.5001)
    }

    @Test func recordingToA16BitWAVWithAppSettings() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("client-recording-\(UUID().uuidString).wav")
        defer { try? FileManager.default.removeItem(at: url) }
        let settings: [String: Any] = [
            AVFormatIDKey: Int(kAudioFormatLinearPCM),
            AVSampleRateKey: 44100.0,
            AVNumberOfChannelsKey: 2,
            AVLinearPCMBitDepthKey: 16,
            AVLinearPCMIsFloatKey: false,
            AVLinearPCMIsBigEndianKey: false,
        ]
        let engine = AVAudioEngine()
        let format = AVAudioFormat(standardFormatWithSampleRate: 44100, channels: 2)!
        let source = Self.tone(amplitude: 0.25, format: format)
        engine.attach(source)
        engine.connect(source, to: engine.mainMixerNode, format: format)
        try engine.enableManualRenderingMode(.offline, format: format, maximumFrameCount: 4096)

        var written: AVAudioFramePosition = 0
        do {
            let file = try AVAudioFile(forWriting: url, settings: settings, commonFormat: .pcmFormatFloat32, interleaved: false)
            #expect(file.fileFormat.commonFormat == .pcmFormatInt16)
            #expect(file.processingFormat.commonFormat == .pcmFormatFloat32)
            try engine.start()
            let buffer = AVAudioPCMBuffer(pcmFormat: engine.manualRenderingFormat, frameCapacity: 4096)!
            for _ in 0..<5 {
                let status = try engine.renderOffline(4096, to: buffer)
                #expect(status == .success)
                try file.write(from: buffer)
                written += AVAudioFramePosition(buffer.frameLength)
            }
            #expect(file.length == written)
            engine.stop()
        }
        let file = try AVAudioFile(forReading: url, commonFormat: .pcmFormatInt16, interleaved: true)
        #expect(file.length == written)
        #expect(file.processingFormat.commonFormat == .pcmFormatInt16)
        let buffer = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: 4096)!
        try file.read(into: buffer, frameCount: 2048)
        #expect(buffer.frameLength == 2048)
        var peak: Int16 = 0
        for n in 0..<2048 { peak = max(peak, abs(buffer.int16ChannelData![0][n])) }
        // 0.25 through the stereo mixer, the file's one channel is 0.25 of full scale.
        #expect(peak > 8000 && peak < 8300, "peak \(peak)")
    }
}
