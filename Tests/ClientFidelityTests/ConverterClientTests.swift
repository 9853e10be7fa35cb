// AVAudioConverter as apps use it: resampling microphone buffers (48 kHz stereo) to 16 kHz mono Float32
// or Int16 for a speech recognizer, with the input block that hands over one buffer and then says
// .noDataNow; and the simple convert(to:from:) for a sample-format change.
import AVFoundation
import Foundation
import Testing

/// The app's resampler for a speech SDK.
final class SpeechResampler {
    let inputFormat: AVAudioFormat
    let outputFormat: AVAudioFormat
    private let converter: AVAudioConverter

    init?(inputFormat: AVAudioFormat, sampleRate: Double = 16000, commonFormat: AVAudioCommonFormat = .pcmFormatFloat32) {
        guard let outputFormat = AVAudioFormat(commonFormat: commonFormat, sampleRate: sampleRate, channels: 1, interleaved: false),
              let converter = AVAudioConverter(from: inputFormat, to: outputFormat) else { return nil }
        self.inputFormat = inputFormat
        self.outputFormat = outputFormat
        self.converter = converter
    }

    func convert(_ buffer: AVAudioPCMBuffer) throws -> AVAudioPCMBuffer {
        let ratio = outputFormat.sampleRate / inputFormat.sampleRate
        let capacity = AVAudioFrameCount(Double(buffer.frameLength) * ratio) + 1
        guard let outBuffer = AVAudioPCMBuffer(pcmFormat: outputFormat, frameCapacity: capacity) else {
            throw NSError(domain: "SpeechResampler", code: 1)
        }
        var error: NSError?
        var gotData = false
        let status = converter.convert(to: outBuffer, error: &error) { _, outStatus in
            if gotData {
                outStatus.pointee = .noDataNow
                return nil
            }
            gotData = true
            outStatus.pointee = .haveData
            return buffer
        }
        if status == .error, let error {
            throw error
        }
        return outBuffer
    }

    func finish() -> AVAudioPCMBuffer {
        let outBuffer = AVAudioPCMBuffer(pcmFormat: outputFormat, frameCapacity: 1024)!
        var error: NSError?
        _ = converter.convert(to: outBuffer, error: &error) { _, outStatus in
            outStatus.pointee = .endOfStream
            return nil
        }
        return outBuffer
    }
}

@Suite struct ConverterClientTests {
    static func tone(format: AVAudioFormat, frames: AVAudioFrameCount, frequency: Double, start: Int = 0) -> AVAudioPCMBuffer {
        let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: frames)!
        buffer.frameLength = frames
        for channel in 0..<Int(format.channelCount) {
            for n in 0..<Int(frames) {
                buffer.floatChannelData![channel][n] = 0.5 * Float(sin(2 * Double.pi * frequency * Double(start + n) / format.sampleRate))
            }
        }
        return buffer
    }

    static func frequency(_ samples: [Float], rate: Double) -> Double {
        var first = -1, last = -1, crossings = 0
        for n in 1..<samples.count where samples[n - 1] < 0 && samples[n] >= 0 {
            crossings += 1
            if first < 0 { first = n }
            last = n
        }
        return crossings > 1 ? Double(crossings - 1) * rate / Double(last - first) : 0
    }

    @Test func microphoneBuffersTo16kMono() throws {
        let micFormat = AVAudioFormat(standardFormatWithSampleRate: 48000, channels: 2)!
        let resampler = try #require(SpeechResampler(inputFormat: micFormat))
        #expect(resampler.outputFormat.sampleRate == 16000)
        #expect(resampler.outputFormat.channelCount == 1)
        var samples: [Float] = []
        // Ten 4800-frame "tap" buffers, as an input-node tap would deliver them.
        for index in 0..<10 {
            let buffer = Self.tone(format: micFormat, frames: 4800, frequency: 1000, start: index * 4800)
            let out = try resampler.convert(buffer)
            #expect(out.format == resampler.outputFormat)
            #expect(out.frameLength > 0 && out.frameLength <= 1601)
            samples += Array(UnsafeBufferPointer(start: out.floatChannelData![0], count: Int(out.frameLength)))
        }
        let rest = resampler.finish()
        samples += Array(UnsafeBufferPointer(start: rest.floatChannelData![0], count: Int(rest.frameLength)))
        // 48000 frames in, 16000 out (the resampler's latency is given back at the end of stream).
        #expect(abs(samples.count - 16000) <= 32, "\(samples.count) frames")
        #expect(abs(Self.frequency(Array(samples[1000..<15000]), rate: 16000) - 1000) < 2)
        // Stereo (same signal on both sides) downmixed to mono keeps the level: a 0.5 sine (no clipping).
        let peak = samples[1000..<15000].map(abs).max() ?? 0
        #expect(peak > 0.3 && peak < 0.75, "peak \(peak)")
    }

    @Test func microphoneBuffersTo16kInt16ForASpeechSDK() throws {
        let micFormat = AVAudioFormat(standardFormatWithSampleRate: 44100, channels: 1)!
        let resampler = try #require(SpeechResampler(inputFormat: micFormat, commonFormat: .pcmFormatInt16))
        #expect(resampler.outputFormat.commonFormat == .pcmFormatInt16)
        let buffer = Self.tone(format: micFormat, frames: 44100, frequency: 440)
        let out = try resampler.convert(buffer)
        // One pass without end of stream: the resampler keeps back its latency.
        #expect(out.frameLength > 15800 && out.frameLength <= 16000, "\(out.frameLength)")
        let data = Data(bytes: out.int16ChannelData![0], count: Int(out.frameLength) * 2)
        #expect(data.count == Int(out.frameLength) * MemoryLayout<Int16>.size)
        let samples = Array(UnsafeBufferPointer(start: out.int16ChannelData![0], count: Int(out.frameLength))).map { Float($0) / 32768 }
        #expect(abs(Self.frequency(Array(samples[500...]), rate: 16000) - 440) < 2)
        let peak = samples[500...].map(abs).max() ?? 0
        #expect(abs(peak - 0.5) < 0.02, "peak \(peak)")
    }

    @Test func floatToInt16InterleavedWithConvertToFrom() throws {
        let inputFormat = AVAudioFormat(standardFormatWithSampleRate: 44100, channels: 2)!
        let outputFormat = AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 44100, channels: 2, interleaved: true)!
        let converter = try #require(AVAudioConverter(from: inputFormat, to: outputFormat))
        #expect(converter.inputFormat == inputFormat)
        #expect(converter.outputFormat == outputFormat)
        let input = AVAudioPCMBuffer(pcmFormat: inputFormat, frameCapacity: 4)!
        input.frameLength = 4
        let left: [Float] = [0, 0.5, -0.5, 1]
        let right: [Float] = [0.25, -0.25, -1, 0]
        for n in 0..<4 {
            input.floatChannelData![0][n] = left[n]
            input.floatChannelData![1][n] = right[n]
        }
        let output = AVAudioPCMBuffer(pcmFormat: outputFormat, frameCapacity: 4)!
        try converter.convert(to: output, from: input)
        #expect(output.frameLength == 4)
        #expect(output.format.isInterleaved)
        #expect(output.stride == 2)
        #expect(output.floatChannelData == nil)
        let interleaved = Array(UnsafeBufferPointer(start: output.int16ChannelData![0], count: 8))
        #expect(interleaved == [0, 8192, 16384, -8192, -16384, -32768, 32767, 0])
        let abl = output.audioBufferList.pointee
        #expect(abl.mNumberBuffers == 1)
        #expect(abl.mBuffers.mNumberChannels == 2)
        #expect(abl.mBuffers.mDataByteSize == 16)
    }

    /// A 5.1 buffer folded to stereo with `downmix` on: the ITU-R BS.775 equations (L + 0.7071 C + 0.7071 Ls),
    /// the LFE left out; with it off the first two channels pass unchanged.
    @Test func downmixFiveOneToStereo() throws {
        let surround = AVAudioChannelLayout(layoutTag: kAudioChannelLayoutTag_MPEG_5_1_A)!
        let inputFormat = AVAudioFormat(standardFormatWithSampleRate: 48000, channelLayout: surround)
        let outputFormat = AVAudioFormat(standardFormatWithSampleRate: 48000, channels: 2)!
        let input = AVAudioPCMBuffer(pcmFormat: inputFormat, frameCapacity: 8)!
        input.frameLength = 8
        for c in 0..<6 { for n in 0..<8 { input.floatChannelData![c][n] = Float(c + 1) / 10 + Float(n) / 100 } }
        for downmix in [true, false] {
            let converter = try #require(AVAudioConverter(from: inputFormat, to: outputFormat))
            converter.downmix = downmix
            #expect(converter.downmix == downmix)
            let output = AVAudioPCMBuffer(pcmFormat: outputFormat, frameCapacity: 8)!
            try converter.convert(to: output, from: input)
            #expect(output.frameLength == 8)
            let x = input.floatChannelData!, y = output.floatChannelData!
            let h: Float = 0.70710678
            for n in 0..<8 {
                let left = downmix ? x[0][n] + h * x[2][n] + h * x[4][n] : x[0][n]
                let right = downmix ? x[1][n] + h * x[2][n] + h * x[5][n] : x[1][n]
                #expect(abs(y[0][n] - left) < 1e-6 && abs(y[1][n] - right) < 1e-6, "downmix \(downmix), frame \(n)")
            }
        }
    }

    @Test func sampleRateConverterProperties() throws {
        let from = AVAudioFormat(standardFormatWithSampleRate: 48000, channels: 1)!
        let to = AVAudioFormat(standardFormatWithSampleRate: 22050, channels: 1)!
        let converter = try #require(AVAudioConverter(from: from, to: to))
        converter.sampleRateConverterQuality = AVAudioQuality.max.rawValue
        converter.sampleRateConverterAlgorithm = AVSampleRateConverterAlgorithm_Mastering
        #expect(converter.sampleRateConverterQuality == AVAudioQuality.max.rawValue)
        #expect(converter.sampleRateConverterAlgorithm == AVSampleRateConverterAlgorithm_Mastering)
        converter.reset()
        let input = Self.tone(format: from, frames: 48000, frequency: 300)
        let output = AVAudioPCMBuffer(pcmFormat: to, frameCapacity: 22050 + 64)!
        var fed = false
        var error: NSError?
        let status = converter.convert(to: output, error: &error) { _, outStatus in
            if fed {
                outStatus.pointee = .endOfStream
                return nil
            }
            fed = true
            outStatus.pointee = .haveData
            return input
        }
        #expect(error == nil)
        #expect(status == .endOfStream || status == .haveData)
        #expect(abs(Int(output.frameLength) - 22050) <= 2, "\(output.frameLength)")
    }
}
