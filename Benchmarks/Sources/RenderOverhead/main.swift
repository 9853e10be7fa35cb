// Per-slice overhead of AudioUnitRender through chains of 1, 8 and 64 pass-through units
// (AUGenericOutput units connected head to tail, a render callback at the far end), against the same
// callback called directly and against the same chain in C (CRenderChain: a function pointer per unit and the same
// checks), in the same run. Prints nanoseconds per slice and per frame (median of
// several runs), the overhead per unit, and throughput as a multiple of real time.
import AudioToolbox
import CRenderChain
import Foundation

let sampleRate = 48000.0
let channels: UInt32 = 2

enum Kernels {
    static let fill: AURenderCallback = { _, _, timeStamp, _, frames, ioData in
    let start = Float32(timeStamp.pointee.mSampleTime)
    for buffer in UnsafeMutableAudioBufferListPointer(ioData!) {
        let p = buffer.mData!.assumingMemoryBound(to: Float32.self)
        for n in 0..<Int(frames) { p[n] = start + Float32(n) }
    }
    return noErr
    }
}
let fill = Kernels.fill
/// The same fill for the C chain (its callback type spells the pointers untyped).
let cFill: c_render_callback = { _, _, timeStamp, _, frames, ioData in
    let start = Float32(timeStamp!.assumingMemoryBound(to: AudioTimeStamp.self).pointee.mSampleTime)
    for buffer in UnsafeMutableAudioBufferListPointer(ioData!.assumingMemoryBound(to: AudioBufferList.self)) {
        let p = buffer.mData!.assumingMemoryBound(to: Float32.self)
        for n in 0..<Int(frames) { p[n] = start + Float32(n) }
    }
    return 0
}

func check(_ status: OSStatus, _ what: String) {
    if status != noErr { fatalError("\(what): \(status)") }
}

func makeChain(_ length: Int, maxFrames: UInt32) -> [AudioUnit] {
    var desc = AudioComponentDescription(componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_GenericOutput,
                                         componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
    let component = AudioComponentFindNext(nil, &desc)!
    var format = OCAFormat.canonical(sampleRate: sampleRate, channels: channels)
    let size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
    var units: [AudioUnit] = []
    for i in 0..<length {
        var unit: AudioUnit?
        check(AudioComponentInstanceNew(component, &unit), "new")
        var frames = maxFrames
        check(AudioUnitSetProperty(unit!, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &frames, 4), "max frames")
        check(AudioUnitSetProperty(unit!, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &format, size), "format")
        if i == 0 {
            check(AudioUnitSetProperty(unit!, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, size), "format")
            var cb = AURenderCallbackStruct(inputProc: Kernels.fill, inputProcRefCon: nil)
            check(AudioUnitSetProperty(unit!, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &cb,
                                       UInt32(MemoryLayout<AURenderCallbackStruct>.size)), "callback")
        } else {
            var c = AudioUnitConnection(sourceAudioUnit: units[i - 1], sourceOutputNumber: 0, destInputNumber: 0)
            check(AudioUnitSetProperty(unit!, kAudioUnitProperty_MakeConnection, kAudioUnitScope_Input, 0, &c,
                                       UInt32(MemoryLayout<AudioUnitConnection>.size)), "connect")
        }
        check(AudioUnitInitialize(unit!), "initialize")
        units.append(unit!)
    }
    return units
}

func median(_ xs: [Double]) -> Double { xs.sorted()[xs.count / 2] }

/// Nanoseconds per slice of `body`, median over `runs` runs of `slices` slices.
func measure(runs: Int = 7, slices: Int, _ body: (Int) -> Void) -> Double {
    var results: [Double] = []
    for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        for s in 0..<slices { body(s) }
        let end = DispatchTime.now().uptimeNanoseconds
        results.append(Double(end - start) / Double(slices))
    }
    return median(results)
}

let abl = AudioBufferList.allocate(maximumBuffers: Int(channels))
let memory = UnsafeMutablePointer<Float32>.allocate(capacity: 4096 * Int(channels))
var ts = AudioTimeStamp()
ts.mFlags = .sampleTimeValid

print("AudioUnitRender overhead, \(channels) ch Float32 non-interleaved, \(Int(sampleRate)) Hz; medians of 9 rounds that alternate the baseline, C and ours")
print("slice  chain  ns/slice  ns/frame  overhead ns/slice/unit  x real time")
for frames: UInt32 in [64, 512] {
    func point() {
        for c in 0..<Int(channels) {
            abl[c] = AudioBuffer(mNumberChannels: 1, mDataByteSize: frames * 4, mData: memory + c * 4096)
        }
    }
    let slices = 200_000 / Int(frames) * 8
    /// The callback called directly, no audio unit in between: the baseline each overhead is measured from.
    func direct(_ n: Int) -> Double {
        measure(runs: 1, slices: n) { _ in
            point()
            var flags = AudioUnitRenderActionFlags()
            _ = fill(memory, &flags, &ts, 0, frames, abl.unsafeMutablePointer)
            ts.mSampleTime += Double(frames)
        }
    }
    let directAlone = median((0..<7).map { _ in direct(slices) })
    print(String(format: "%5u  %5@  %8.0f  %8.2f  %22@  %11.0f", frames, "none", directAlone, directAlone / Double(frames), "-",
                 Double(frames) / sampleRate * 1e9 / directAlone))
    for length in [1, 8, 64] {
        let cHead = c_chain_new(Int32(length), 4096, channels, cFill, nil)
        let chain = makeChain(length, maxFrames: 4096)
        let head = chain.last!
        let n = max(slices / length, 1000)
        // Rounds alternate the baseline, the C chain and ours, so that load from other processes falls on all
        // three alike; the ratio is the median of the rounds' ratios.
        var cTimes: [Double] = [], ourTimes: [Double] = [], ratios: [Double] = [], cOverheads: [Double] = [], ourOverheads: [Double] = []
        for _ in 0..<9 {
            let base = direct(n)
            let c = measure(runs: 1, slices: n) { _ in
                point()
                var flags: UInt32 = 0
                _ = c_unit_render(cHead, &flags, &ts, 0, frames, abl.unsafeMutablePointer)
                ts.mSampleTime += Double(frames)
            }
            let ours = measure(runs: 1, slices: n) { _ in
                point()
                var flags = AudioUnitRenderActionFlags()
                _ = AudioUnitRender(head, &flags, &ts, 0, frames, abl.unsafeMutablePointer)
                ts.mSampleTime += Double(frames)
            }
            let cOver = max((c - base) / Double(length), 0.1), ourOver = max((ours - base) / Double(length), 0.1)
            cTimes.append(c); ourTimes.append(ours); cOverheads.append(cOver); ourOverheads.append(ourOver)
            ratios.append(ourOver / cOver)
        }
        c_chain_free(cHead)
        let cPerSlice = median(cTimes), perSlice = median(ourTimes), ratio = median(ratios)
        print(String(format: "%5u  %3dC  %8.0f  %8.2f  %22.1f  %11.0f", frames, length, cPerSlice, cPerSlice / Double(frames),
                     median(cOverheads), Double(frames) / sampleRate * 1e9 / cPerSlice))
        if length == 64 {
            print(String(format: "summary: Render dispatch per unit, 64-unit chain, %u frames, vs the C chain | %.1fx | <= 2x", frames, ratio))
        }
        print(String(format: "%5u  %5d  %8.0f  %8.2f  %22.1f  %11.0f   %.1fx the C chain per unit (goal <= 2)", frames, length, perSlice,
                     perSlice / Double(frames), median(ourOverheads), Double(frames) / sampleRate * 1e9 / perSlice, ratio))
        chain.reversed().forEach { AudioComponentInstanceDispose($0) }
    }
}
