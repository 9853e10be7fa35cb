import AudioToolbox
import Foundation
import Testing

/// Shared helpers for the effect unit tests: feed a known signal through a unit offline and read what comes out.
enum EffectTestSupport {
    /// A signal per channel, read by the render callback at the render's sample time (zero past its end).
    final class Source {
        let channels: [[Float]]
        init(_ channels: [[Float]]) { self.channels = channels }
    }

    static let sourceCallback: AURenderCallback = { refCon, _, timeStamp, _, frames, ioData in
        let source = Unmanaged<Source>.fromOpaque(refCon).takeUnretainedValue()
        let start = Int(timeStamp.pointee.mSampleTime)
        for (c, buffer) in UnsafeMutableAudioBufferListPointer(ioData!).enumerated() {
            let p = buffer.mData!.assumingMemoryBound(to: Float32.self)
            let signal = source.channels[min(c, source.channels.count - 1)]
            for n in 0..<Int(frames) {
                let i = start + n
                p[n] = i >= 0 && i < signal.count ? signal[i] : 0
            }
        }
        return noErr
    }

    static func newEffect(_ subtype: OSType, channels: UInt32 = 2, rate: Double = 44100) throws -> AudioUnit {
        let unit = try TestSupport.newUnit(AudioComponentDescription(
            componentType: kAudioUnitType_Effect, componentSubType: subtype,
            componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0))
        let format = OCAFormat.canonical(sampleRate: rate, channels: channels)
        #expect(TestSupport.setFormat(unit, kAudioUnitScope_Input, 0, format) == noErr)
        #expect(TestSupport.setFormat(unit, kAudioUnitScope_Output, 0, format) == noErr)
        return unit
    }

    /// Runs `signal` (one array per channel, or one for all) through the initialized `unit`; returns `frames` frames.
    static func process(_ unit: AudioUnit, _ signal: [[Float]], frames: Int, slices: [Int] = [512]) throws -> [[Double]] {
        let source = Source(signal)
        let format = TestSupport.format(unit, kAudioUnitScope_Output, 0)
        try withExtendedLifetime(source) {
            TestSupport.setCallback(unit, 0, sourceCallback, Unmanaged.passUnretained(source).toOpaque())
        }
        let out = try withExtendedLifetime(source) {
            try TestSupport.render(unit, format: format, totalFrames: frames, slices: slices)
        }
        return out.channels
    }

    static func setParameter(_ unit: AudioUnit, _ id: AudioUnitParameterID, _ value: Float) {
        #expect(AudioUnitSetParameter(unit, id, kAudioUnitScope_Global, 0, value, 0) == noErr)
    }

    /// |DFT| of `x` at `frequency`, in dB (for an impulse response: the filter's magnitude response).
    static func magnitudeDB(_ x: [Double], at frequency: Double, rate: Double) -> Double {
        var re = 0.0, im = 0.0
        let w = 2 * Double.pi * frequency / rate
        for (n, v) in x.enumerated() {
            re += v * cos(w * Double(n))
            im -= v * sin(w * Double(n))
        }
        return 10 * log10(re * re + im * im)
    }

    /// 30 log-spaced frequencies from 20 Hz to 20 kHz.
    static let logFrequencies: [Double] = (0..<30).map { 20 * pow(1000, Double($0) / 29) }

    static func rms(_ x: ArraySlice<Double>) -> Double { (x.reduce(0) { $0 + $1 * $1 } / Double(max(x.count, 1))).squareRoot() }

    static func sine(_ f: Double, amplitude: Double = 0.5, frames: Int, rate: Double = 44100) -> [Float] {
        (0..<frames).map { Float(amplitude * sin(2 * Double.pi * f * Double($0) / rate)) }
    }
}

extension EffectTestSupport {
    /// RT60 of an impulse response from its energy decay curve between -5 and -25 dB (T20 × 3), after an optional
    /// 2nd-order low-pass at `lowPass` Hz applied twice (so the low band's decay is measured).
    static func rt60(_ ir: [Double], rate: Double, lowPass: Double? = nil) -> Double {
        var x = ir
        if let f = lowPass {
            let w = 2 * Double.pi * f / rate, al = sin(w) / (2 * 0.7071), c = cos(w), a0 = 1 + al
            let (b0, b1, b2, a1, a2) = ((1 - c) / 2 / a0, (1 - c) / a0, (1 - c) / 2 / a0, -2 * c / a0, (1 - al) / a0)
            for _ in 0..<2 {
                var (x1, x2, y1, y2) = (0.0, 0.0, 0.0, 0.0)
                for i in x.indices {
                    let y = b0 * x[i] + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
                    (x2, x1, y2, y1) = (x1, x[i], y1, y)
                    x[i] = y
                }
            }
        }
        var edc = [Double](repeating: 0, count: x.count)
        var acc = 0.0
        for i in stride(from: x.count - 1, through: 0, by: -1) { acc += x[i] * x[i]; edc[i] = acc }
        func time(_ dB: Double) -> Double { Double(edc.firstIndex { $0 < edc[0] * pow(10, dB / 10) } ?? x.count) / rate }
        return 3 * (time(-25) - time(-5))
    }
}
