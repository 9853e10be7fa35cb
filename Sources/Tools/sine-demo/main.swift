// sine-demo: renders a sine through a render callback and the GenericOutput unit into memory, the
// way an offline Core Audio host does, and prints what it rendered (peak, RMS, frequency).
//   sine-demo [frequency-Hz] [seconds] [amplitude]
import AudioDSP
import AudioToolbox

final class SineGenerator {
    let frequency: Double
    let amplitude: Double
    let sampleRate: Double
    init(frequency: Double, amplitude: Double, sampleRate: Double) {
        self.frequency = frequency
        self.amplitude = amplitude
        self.sampleRate = sampleRate
    }
}

/// The render callback: the sample time stamped on each slice keeps the phase continuous.
let sineCallback: AURenderCallback = { refCon, _, timeStamp, _, frames, ioData in
    let sine = Unmanaged<SineGenerator>.fromOpaque(refCon).takeUnretainedValue()
    let buffers = UnsafeMutableAudioBufferListPointer(ioData!)
    let start = timeStamp.pointee.mSampleTime
    for buffer in buffers {
        let samples = UnsafeMutableBufferPointer<Float32>(buffer)
        for i in 0..<Int(frames) {
            let t = (start + Double(i)) / sine.sampleRate
            samples[i] = Float32(sine.amplitude * sin(2 * Double.pi * sine.frequency * t))
        }
    }
    return noErr
}

func check(_ status: OSStatus, _ what: String) {
    guard status == noErr else {
        FileHandle.standardError.write("sine-demo: \(what) failed: \(status)\n".data(using: .utf8)!)
        exit(1)
    }
}

let args = CommandLine.arguments
let frequency = args.count > 1 ? Double(args[1]) ?? 440 : 440
let seconds = args.count > 2 ? Double(args[2]) ?? 1 : 1
let amplitude = args.count > 3 ? Double(args[3]) ?? 0.5 : 0.5
let sampleRate = 44100.0
let sliceFrames: UInt32 = 512

var description = AudioComponentDescription(
    componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_GenericOutput,
    componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
guard let component = AudioComponentFindNext(nil, &description) else { fatalError("GenericOutput not found") }
var unitOrNil: AudioUnit?
check(AudioComponentInstanceNew(component, &unitOrNil), "AudioComponentInstanceNew")
let unit = unitOrNil!

var format = OCAFormat.canonical(sampleRate: sampleRate, channels: 1)
let formatSize = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
check(AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, formatSize), "set input format")
check(AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &format, formatSize), "set output format")

let sine = SineGenerator(frequency: frequency, amplitude: amplitude, sampleRate: sampleRate)
var callback = AURenderCallbackStruct(inputProc: sineCallback, inputProcRefCon: Unmanaged.passUnretained(sine).toOpaque())
check(AudioUnitSetProperty(unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &callback,
                           UInt32(MemoryLayout<AURenderCallbackStruct>.size)), "set render callback")
check(AudioUnitInitialize(unit), "AudioUnitInitialize")
check(AudioOutputUnitStart(unit), "AudioOutputUnitStart")

let totalFrames = Int(seconds * sampleRate)
var rendered = [Float32](repeating: 0, count: totalFrames)
var timeStamp = AudioTimeStamp()
timeStamp.mFlags = .sampleTimeValid
let abl = AudioBufferList.allocate(maximumBuffers: 1)
defer { free(abl.unsafeMutablePointer) }
var position = 0
rendered.withUnsafeMutableBufferPointer { out in
    while position < totalFrames {
        let frames = UInt32(min(Int(sliceFrames), totalFrames - position))
        abl[0] = AudioBuffer(mNumberChannels: 1, mDataByteSize: frames * 4, mData: out.baseAddress! + position)
        var flags = AudioUnitRenderActionFlags()
        check(AudioUnitRender(unit, &flags, &timeStamp, 0, frames, abl.unsafeMutablePointer), "AudioUnitRender")
        timeStamp.mSampleTime += Double(frames)
        position += Int(frames)
    }
}
AudioOutputUnitStop(unit)
AudioComponentInstanceDispose(unit)

rendered.withUnsafeBufferPointer { samples in
    let peak = SignalMeasurement.peak(samples)
    let rms = SignalMeasurement.rms(samples)
    let measured = SignalMeasurement.zeroCrossingFrequency(samples, sampleRate: sampleRate) ?? 0
    print("Rendered \(totalFrames) frames (\(String(format: "%.2f", seconds)) s) through GenericOutput in \(sliceFrames)-frame slices")
    print("Format:    \(OCAFormat.describe(format))")
    print(String(format: "Peak:      %.6f (%.2f dBFS)", peak, 20 * log10(Double(peak))))
    print(String(format: "RMS:       %.6f (expected %.6f for a sine of amplitude %.3f)", rms, amplitude / 2.0.squareRoot(), amplitude))
    print(String(format: "Frequency: %.3f Hz (requested %.3f Hz)", measured, frequency))
}
