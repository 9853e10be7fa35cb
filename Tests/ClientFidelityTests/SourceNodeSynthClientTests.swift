// A little synthesizer on AVAudioSourceNode, as in Apple's "Building a Signal Generator" sample and the
// many oscillator tutorials: the render block fills the buffer list through
// UnsafeMutableAudioBufferListPointer with a phase accumulator; the node is connected to the main mixer
// in a mono Float32 format. Offline here.
import AVFoundation
import Foundation
import Testing

/// The app's synth.
final class Synth: @unchecked Sendable {
    enum Waveform { case sine, square, sawtooth }

    let engine = AVAudioEngine()
    private(set) var sourceNode: AVAudioSourceNode!
    let sampleRate: Double

    // Render-thread state.
    private var currentPhase: Float = 0
    var frequency: Float = 440
    var amplitude: Float = 0.5
    var waveform: Waveform = .sine
    private(set) var renderCalls = 0
    private(set) var lastSampleTime: Float64 = -1

    var volume: Float {
        get { engine.mainMixerNode.outputVolume }
        set { engine.mainMixerNode.outputVolume = newValue }
    }

    init(sampleRate: Double) throws {
        self.sampleRate = sampleRate
        let twoPi = 2 * Float.pi
        sourceNode = AVAudioSourceNode { [unowned self] _, timeStamp, frameCount, audioBufferList -> OSStatus in
            let ablPointer = UnsafeMutableAudioBufferListPointer(audioBufferList)
            let phaseIncrement = (twoPi / Float(self.sampleRate)) * self.frequency
            self.renderCalls += 1
            self.lastSampleTime = timeStamp.pointee.mSampleTime
            for frame in 0..<Int(frameCount) {
                let value: Float
                switch self.waveform {
                case .sine: value = sin(self.currentPhase) * self.amplitude
                case .square: value = (self.currentPhase < Float.pi ? 1 : -1) * self.amplitude
                case .sawtooth: value = (self.currentPhase / Float.pi - 1) * self.amplitude
                }
                self.currentPhase += phaseIncrement
                if self.currentPhase >= twoPi { self.currentPhase -= twoPi }
                if self.currentPhase < 0 { self.currentPhase += twoPi }
                for buffer in ablPointer {
                    let buf: UnsafeMutableBufferPointer<Float> = UnsafeMutableBufferPointer(buffer)
                    buf[frame] = value
                }
            }
            return noErr
        }
        let mainMixer = engine.mainMixerNode
        let output = engine.outputNode
        let outputFormat = output.inputFormat(forBus: 0)
        let inputFormat = AVAudioFormat(commonFormat: .pcmFormatFloat32, sampleRate: sampleRate, channels: 1, interleaved: false)!
        _ = outputFormat
        engine.attach(sourceNode)
        engine.connect(sourceNode, to: mainMixer, format: inputFormat)
        engine.connect(mainMixer, to: output, format: nil)
        mainMixer.outputVolume = 0.5
    }

    func startOffline(channels: AVAudioChannelCount = 2) throws {
        let format = AVAudioFormat(standardFormatWithSampleRate: sampleRate, channels: channels)!
        try engine.enableManualRenderingMode(.offline, format: format, maximumFrameCount: 512)
        try engine.start()
    }

    func render(frames: AVAudioFrameCount) throws -> AVAudioPCMBuffer {
        let out = AVAudioPCMBuffer(pcmFormat: engine.manualRenderingFormat, frameCapacity: frames)!
        let slice = AVAudioPCMBuffer(pcmFormat: engine.manualRenderingFormat, frameCapacity: 512)!
        while out.frameLength < frames {
            let n = min(512, frames - out.frameLength)
            let status = try engine.renderOffline(n, to: slice)
            guard status == .success else { break }
            for channel in 0..<Int(out.format.channelCount) {
                (out.floatChannelData![channel] + Int(out.frameLength)).update(from: slice.floatChannelData![channel], count: Int(slice.frameLength))
            }
            out.frameLength += slice.frameLength
        }
        return out
    }
}

@Suite struct SourceNodeSynthClientTests {
    /// Upward zero crossings per second: the tone's frequency.
    static func frequency(_ buffer: AVAudioPCMBuffer, channel: Int = 0) -> Double {
        let samples = buffer.floatChannelData![channel]
        var crossings = 0
        var first = -1
        var last = -1
        for n in 1..<Int(buffer.frameLength) where samples[n - 1] < 0 && samples[n] >= 0 {
            crossings += 1
            if first < 0 { first = n }
            last = n
        }
        guard crossings > 1 else { return 0 }
        return Double(crossings - 1) / (Double(last - first) / buffer.format.sampleRate)
    }

    static func peak(_ buffer: AVAudioPCMBuffer, channel: Int = 0) -> Float {
        var peak: Float = 0
        for n in 0..<Int(buffer.frameLength) { peak = max(peak, abs(buffer.floatChannelData![channel][n])) }
        return peak
    }

    @Test func sineComesOutOfBothChannelsAtItsFrequency() throws {
        let synth = try Synth(sampleRate: 48000)
        #expect(synth.volume == 0.5)
        synth.volume = 1
        try synth.startOffline()
        let buffer = try synth.render(frames: 48000)
        #expect(buffer.frameLength == 48000)
        #expect(buffer.format.channelCount == 2)
        #expect(abs(Self.frequency(buffer) - 440) < 1)
        #expect(abs(Self.frequency(buffer, channel: 1) - 440) < 1)
        // A mono source into the stereo main mixer comes out the same on both sides.
        for n in stride(from: 0, to: 48000, by: 997) {
            #expect(buffer.floatChannelData![0][n] == buffer.floatChannelData![1][n])
        }
        let peak = Self.peak(buffer)
        #expect(peak > 0.3 && peak <= 0.5001, "peak \(peak)")
        #expect(synth.renderCalls >= 48000 / 512)
        // The last slice (384 frames) started at sample 93 * 512.
        #expect(synth.lastSampleTime == 47616)
        #expect(synth.sourceNode.numberOfOutputs == 1 && synth.sourceNode.numberOfInputs == 0)
        #expect(synth.sourceNode.outputFormat(forBus: 0).channelCount == 1)
    }

    @Test func frequencyAndWaveformChangeWhileRunning() throws {
        let synth = try Synth(sampleRate: 44100)
        synth.volume = 1
        try synth.startOffline(channels: 2)
        synth.frequency = 220
        // Whole 512-frame slices: a change made between renders takes effect at the next frame.
        let low = try synth.render(frames: 44032)
        #expect(abs(Self.frequency(low) - 220) < 1)
        synth.frequency = 880
        let high = try synth.render(frames: 44032)
        #expect(abs(Self.frequency(high) - 880) < 1)
        synth.waveform = .square
        synth.amplitude = 0.25
        let square = try synth.render(frames: 44032)
        let peak = Self.peak(square)
        // Both sides get the same share of the mono source (0.25 at most).
        #expect(peak > 0.17 && peak <= 0.2501, "peak \(peak)")
        #expect(square.floatChannelData![0][1000] == square.floatChannelData![1][1000])
        synth.volume = 0
        let muted = try synth.render(frames: 4096)
        // The mixer may ramp the change over a few milliseconds; then it is silent.
        var tail: Float = 0
        for n in 2048..<4096 { tail = max(tail, abs(muted.floatChannelData![0][n])) }
        #expect(tail == 0)
    }

    @Test func engineStopAndRestartKeepsRenderingOffline() throws {
        let synth = try Synth(sampleRate: 44100)
        try synth.startOffline()
        _ = try synth.render(frames: 1024)
        #expect(synth.engine.manualRenderingSampleTime == 1024)
        synth.engine.pause()
        #expect(!synth.engine.isRunning)
        try synth.engine.start()
        #expect(synth.engine.isRunning)
        let more = try synth.render(frames: 1024)
        #expect(more.frameLength == 1024)
        #expect(Self.peak(more) > 0.1)
        synth.engine.stop()
        #expect(!synth.engine.isRunning)
        synth.engine.reset()
        synth.engine.disableManualRenderingMode()
        #expect(!synth.engine.isInManualRenderingMode)
    }
}
