// AUMultiChannelMixer throughput: 8, 64 and 256 stereo inputs (each a render callback copying a
// precomputed signal) mixed to stereo in 512-frame slices, against a plain loop in the same run that
// calls the same callbacks into scratch buffers and sums them (no gains): the memory-bandwidth bound.
// Prints ns per slice (median of 7 runs), throughput as a multiple of real time and the ratio to the loop.
import AudioToolbox
import Foundation

let sampleRate = 48000.0
let frames: UInt32 = 512

func check(_ status: OSStatus, _ what: String) { if status != noErr { fatalError("\(what): \(status)") } }

/// A precomputed sine the callbacks copy from, at an offset per input.
enum Source {
static let signalLength = 1 << 16
nonisolated(unsafe) static let signal: UnsafeMutablePointer<Float32> = {
    let p = UnsafeMutablePointer<Float32>.allocate(capacity: signalLength + Int(frames))
    for n in 0..<(signalLength + Int(frames)) { p[n] = Float32(sin(Double(n) * 0.0573)) * 0.01 }
    return p
}()

static let copySignal: AURenderCallback = { refCon, _, timeStamp, _, frames, ioData in
    let offset = (Int(bitPattern: refCon) &* 977 &+ Int(timeStamp.pointee.mSampleTime)) & (signalLength - 1)
    for buffer in UnsafeMutableAudioBufferListPointer(ioData!) {
        buffer.mData!.assumingMemoryBound(to: Float32.self).update(from: signal + offset, count: Int(frames))
    }
    return noErr
}
}


func median(_ xs: [Double]) -> Double { xs.sorted()[xs.count / 2] }

func measure(slices: Int, _ body: (Int) -> Void) -> Double {
    var results: [Double] = []
    for _ in 0..<7 {
        let start = DispatchTime.now().uptimeNanoseconds
        for s in 0..<slices { body(s) }
        results.append(Double(DispatchTime.now().uptimeNanoseconds - start) / Double(slices))
    }
    return median(results)
}

func makeMixer(inputs: Int) -> AudioUnit {
    var desc = AudioComponentDescription(componentType: kAudioUnitType_Mixer, componentSubType: kAudioUnitSubType_MultiChannelMixer,
                                         componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
    var unit: AudioUnit?
    check(AudioComponentInstanceNew(AudioComponentFindNext(nil, &desc)!, &unit), "new")
    var count = UInt32(inputs), maxFrames = frames
    check(AudioUnitSetProperty(unit!, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, &count, 4), "element count")
    check(AudioUnitSetProperty(unit!, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &maxFrames, 4), "max frames")
    var format = OCAFormat.canonical(sampleRate: sampleRate, channels: 2)
    let size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
    check(AudioUnitSetProperty(unit!, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &format, size), "format")
    for i in 0..<inputs {
        check(AudioUnitSetProperty(unit!, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, UInt32(i), &format, size), "format")
        var cb = AURenderCallbackStruct(inputProc: Source.copySignal, inputProcRefCon: UnsafeMutableRawPointer(bitPattern: i + 1))
        check(AudioUnitSetProperty(unit!, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, UInt32(i), &cb,
                                   UInt32(MemoryLayout<AURenderCallbackStruct>.size)), "callback")
        check(AudioUnitSetParameter(unit!, kMultiChannelMixerParam_Pan, kAudioUnitScope_Input, UInt32(i), Float(i % 5) * 0.4 - 0.8, 0), "pan")
    }
    check(AudioUnitInitialize(unit!), "initialize")
    return unit!
}

let out = AudioBufferList.allocate(maximumBuffers: 2)
let outMemory = UnsafeMutablePointer<Float32>.allocate(capacity: 2 * Int(frames))
let scratch = AudioBufferList.allocate(maximumBuffers: 2)
let scratchMemory = UnsafeMutablePointer<Float32>.allocate(capacity: 2 * Int(frames))
func point(_ list: UnsafeMutableAudioBufferListPointer, _ memory: UnsafeMutablePointer<Float32>) {
    for c in 0..<2 { list[c] = AudioBuffer(mNumberChannels: 1, mDataByteSize: frames * 4, mData: memory + c * Int(frames)) }
}

print("AUMultiChannelMixer, stereo inputs -> stereo, \(frames)-frame slices at \(Int(sampleRate)) Hz; median of 7 runs")
print("inputs  mixer ns/slice  x real time  loop ns/slice  loop x real time  mixer/loop speed")
let sliceSeconds = Double(frames) / sampleRate
for inputs in [8, 64, 256] {
    let unit = makeMixer(inputs: inputs)
    let slices = max(200, 200_000 / inputs)
    var ts = AudioTimeStamp()
    ts.mFlags = .sampleTimeValid
    let mixerNs = measure(slices: slices) { s in
        point(out, outMemory)
        ts.mSampleTime = Double(s) * Double(frames)
        var flags = AudioUnitRenderActionFlags()
        check(AudioUnitRender(unit, &flags, &ts, 0, frames, out.unsafeMutablePointer), "render")
    }
    AudioComponentInstanceDispose(unit)
    let loopNs = measure(slices: slices) { s in
        point(out, outMemory)
        outMemory.update(repeating: 0, count: 2 * Int(frames))
        ts.mSampleTime = Double(s) * Double(frames)
        var flags = AudioUnitRenderActionFlags()
        for i in 0..<inputs {
            point(scratch, scratchMemory)
            _ = Source.copySignal(UnsafeMutableRawPointer(bitPattern: i + 1)!, &flags, &ts, UInt32(i), frames, scratch.unsafeMutablePointer)
            for n in 0..<2 * Int(frames) { outMemory[n] += scratchMemory[n] }
        }
    }
    let rt = { (ns: Double) in sliceSeconds * 1e9 / ns }
    print(String(format: "%6d  %14.0f  %11.1f  %13.0f  %16.1f  %16.2f", inputs, mixerNs, rt(mixerNs), loopNs, rt(loopNs), loopNs / mixerNs))
}

// The 3D mixer: mono sources placed around the listener, per algorithm, at playback rate 1 and 1.37
// (the Hermite reader then pulls 1.37x the frames). No peer library here; the multichannel mixer's
// plain summing loop above is the bound to compare with.
func makeSpatialMixer(inputs: Int, algorithm: AUSpatializationAlgorithm, rate: Float) -> AudioUnit {
    var desc = AudioComponentDescription(componentType: kAudioUnitType_Mixer, componentSubType: kAudioUnitSubType_SpatialMixer,
                                         componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
    var unit: AudioUnit?
    check(AudioComponentInstanceNew(AudioComponentFindNext(nil, &desc)!, &unit), "new")
    var count = UInt32(inputs), maxFrames = frames
    check(AudioUnitSetProperty(unit!, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, &count, 4), "element count")
    check(AudioUnitSetProperty(unit!, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &maxFrames, 4), "max frames")
    var rateHz = sampleRate
    check(AudioUnitSetProperty(unit!, kAudioUnitProperty_SampleRate, kAudioUnitScope_Output, 0, &rateHz, 8), "rate")
    for i in 0..<inputs {
        check(AudioUnitSetProperty(unit!, kAudioUnitProperty_SampleRate, kAudioUnitScope_Input, UInt32(i), &rateHz, 8), "rate")
        var cb = AURenderCallbackStruct(inputProc: Source.copySignal, inputProcRefCon: UnsafeMutableRawPointer(bitPattern: i + 1))
        check(AudioUnitSetProperty(unit!, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, UInt32(i), &cb,
                                   UInt32(MemoryLayout<AURenderCallbackStruct>.size)), "callback")
        var a = algorithm.rawValue
        check(AudioUnitSetProperty(unit!, kAudioUnitProperty_SpatializationAlgorithm, kAudioUnitScope_Input, UInt32(i), &a, 4), "algorithm")
        check(AudioUnitSetParameter(unit!, kSpatialMixerParam_Azimuth, kAudioUnitScope_Input, UInt32(i), Float(i * 37 % 360) - 180, 0), "azimuth")
        check(AudioUnitSetParameter(unit!, kSpatialMixerParam_Distance, kAudioUnitScope_Input, UInt32(i), Float(i % 7) + 1, 0), "distance")
        check(AudioUnitSetParameter(unit!, kSpatialMixerParam_PlaybackRate, kAudioUnitScope_Input, UInt32(i), rate, 0), "rate")
    }
    check(AudioUnitInitialize(unit!), "initialize")
    return unit!
}

print("\nAUSpatialMixer, mono inputs -> stereo, \(frames)-frame slices at \(Int(sampleRate)) Hz; median of 7 runs")
print("inputs  algorithm        rate  ns/slice  x real time  ns per input-slice")
for inputs in [8, 64] {
    for (algorithm, name) in [(AUSpatializationAlgorithm.spatializationAlgorithm_EqualPowerPanning, "equal power"),
                              (.spatializationAlgorithm_SphericalHead, "spherical head")] {
        for rate: Float in [1, 1.37] {
            let unit = makeSpatialMixer(inputs: inputs, algorithm: algorithm, rate: rate)
            var ts = AudioTimeStamp()
            ts.mFlags = .sampleTimeValid
            let ns = measure(slices: max(200, 100_000 / inputs)) { s in
                point(out, outMemory)
                ts.mSampleTime = Double(s) * Double(frames)
                var flags = AudioUnitRenderActionFlags()
                check(AudioUnitRender(unit, &flags, &ts, 0, frames, out.unsafeMutablePointer), "render")
            }
            AudioComponentInstanceDispose(unit)
            let label = name.padding(toLength: 15, withPad: " ", startingAt: 0)
            print(String(format: "%6d  ", inputs) + label + String(format: "  %4.2f  %8.0f  %11.1f  %18.0f", rate, ns, sliceSeconds * 1e9 / ns, ns / Double(inputs)))
        }
    }
}
