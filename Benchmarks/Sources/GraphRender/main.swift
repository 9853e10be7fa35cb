// AUGraph benchmarks: the render cost of graphs of 1, 8, 64 and 512 nodes (a render callback, a chain
// of AUSampleDelay units at delay 0, AUGenericOutput at the head), against the callback alone in the
// same run; and how many slices pass between AUGraphUpdate and the change being heard, with a
// render thread pulling the running graph.
import AudioToolbox
import Foundation
import Synchronization

enum Kernels {
    static let fill: AURenderCallback = { refCon, _, _, _, frames, ioData in
        let value = refCon.load(as: Float32.self)
        for buffer in UnsafeMutableAudioBufferListPointer(ioData!) {
            let p = buffer.mData!.assumingMemoryBound(to: Float32.self)
            for n in 0..<Int(frames) { p[n] = value }
        }
        return noErr
    }
}

func check(_ status: OSStatus, _ what: String) {
    if status != noErr { fatalError("\(what): \(status)") }
}

nonisolated(unsafe) let sampleRate = 48000.0
nonisolated(unsafe) let frames: UInt32 = 512
nonisolated(unsafe) let zero = UnsafeMutablePointer<Float32>.allocate(capacity: 1); zero.pointee = 0
nonisolated(unsafe) let one = UnsafeMutablePointer<Float32>.allocate(capacity: 1); one.pointee = 1

/// A running graph: callback -> (nodes - 1) sample delays -> AUGenericOutput.
func makeGraph(nodes: Int) -> (AUGraph, AudioUnit, first: AUNode) {
    var graph: AUGraph?
    check(NewAUGraph(&graph), "new")
    let g = graph!
    var outDesc = AudioComponentDescription(componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_GenericOutput,
                                            componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
    var delayDesc = AudioComponentDescription(componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_SampleDelay,
                                              componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
    var output = AUNode()
    check(AUGraphAddNode(g, &outDesc, &output), "add output")
    var chain = [output]
    for _ in 1..<nodes {
        var n = AUNode()
        check(AUGraphAddNode(g, &delayDesc, &n), "add delay")
        chain.append(n)
    }
    check(AUGraphOpen(g), "open")
    var format = OCAFormat.canonical(sampleRate: sampleRate, channels: 2)
    for node in chain {
        var unit: AudioUnit?
        AUGraphNodeInfo(g, node, nil, &unit)
        var maxFrames = frames
        check(AudioUnitSetProperty(unit!, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &maxFrames, 4), "frames")
        for scope in [kAudioUnitScope_Input, kAudioUnitScope_Output] {
            check(AudioUnitSetProperty(unit!, kAudioUnitProperty_StreamFormat, scope, 0, &format,
                                       UInt32(MemoryLayout<AudioStreamBasicDescription>.size)), "format")
        }
    }
    for i in 1..<chain.count { check(AUGraphConnectNodeInput(g, chain[i], 0, chain[i - 1], 0), "connect") }
    var cb = AURenderCallbackStruct(inputProc: Kernels.fill, inputProcRefCon: UnsafeMutableRawPointer(zero))
    check(AUGraphSetNodeInputCallback(g, chain.last!, 0, &cb), "callback")
    check(AUGraphInitialize(g), "initialize")
    check(AUGraphStart(g), "start")
    var head: AudioUnit?
    AUGraphNodeInfo(g, output, nil, &head)
    return (g, head!, chain.last!)
}

final class Renderer: @unchecked Sendable {
    let head: AudioUnit
    let abl = AudioBufferList.allocate(maximumBuffers: 2)
    let memory = UnsafeMutablePointer<Float32>.allocate(capacity: 2 * Int(frames))
    var ts = AudioTimeStamp()
    let slice = Atomic<Int>(0)
    let stop = Atomic<Bool>(false)
    /// Slice index at which the output first read 1.
    let heardAt = Atomic<Int>(-1)

    init(head: AudioUnit) {
        self.head = head
        ts.mFlags = .sampleTimeValid
    }

    @inline(__always) func renderOne() {
        for c in 0..<2 {
            abl[c] = AudioBuffer(mNumberChannels: 1, mDataByteSize: frames * 4, mData: memory + c * Int(frames))
        }
        var flags = AudioUnitRenderActionFlags()
        _ = AudioUnitRender(head, &flags, &ts, 0, frames, abl.unsafeMutablePointer)
        ts.mSampleTime += Double(frames)
        let s = slice.load(ordering: .relaxed)
        if memory[0] == 1 && heardAt.load(ordering: .relaxed) < 0 { heardAt.store(s, ordering: .releasing) }
        slice.store(s + 1, ordering: .releasing)
    }
}

func median(_ xs: [Double]) -> Double { xs.sorted()[xs.count / 2] }

print("AUGraph render cost, \(frames)-frame slices, 2 ch Float32, \(Int(sampleRate)) Hz; median of 7 runs")
print("nodes  ns/slice  ns/frame  ns/node/slice  x real time")
// Baseline: the callback alone.
do {
    let r = Renderer(head: OpaquePointer(bitPattern: 1)!)
    var runs: [Double] = []
    for _ in 0..<7 {
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<20_000 {
            for c in 0..<2 { r.abl[c] = AudioBuffer(mNumberChannels: 1, mDataByteSize: frames * 4, mData: r.memory + c * Int(frames)) }
            var flags = AudioUnitRenderActionFlags()
            _ = Kernels.fill(UnsafeMutableRawPointer(zero), &flags, &r.ts, 0, frames, r.abl.unsafeMutablePointer)
        }
        runs.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 20_000)
    }
    let ns = median(runs)
    print(String(format: "%5@  %8.0f  %8.2f  %13@  %11.0f", "cb", ns, ns / Double(frames), "-", Double(frames) / sampleRate * 1e9 / ns))
}
for nodes in [1, 8, 64, 512] {
    let (g, head, _) = makeGraph(nodes: nodes)
    let r = Renderer(head: head)
    let slices = max(200, 400_000 / nodes)
    var runs: [Double] = []
    for _ in 0..<7 {
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<slices { r.renderOne() }
        runs.append(Double(DispatchTime.now().uptimeNanoseconds - start) / Double(slices))
    }
    let ns = median(runs)
    print(String(format: "%5d  %8.0f  %8.2f  %13.1f  %11.0f", nodes, ns, ns / Double(frames), ns / Double(nodes),
                 Double(frames) / sampleRate * 1e9 / ns))
    DisposeAUGraph(g)
}

// Update latency: a render thread pulls the running graph as fast as it can; the editing thread
// swaps the source callback (value 0 -> 1) and calls AUGraphUpdate without waiting. Latency is the
// number of slices from the update call to the first slice that plays the new callback.
print("\nAUGraphUpdate latency (8-node graph, render thread free-running), 50 updates")
do {
    var latencies: [Double] = []
    var waits: [Double] = []
    for _ in 0..<50 {
        let (g, head, first) = makeGraph(nodes: 8)
        let r = Renderer(head: head)
        let thread = Thread { while !r.stop.load(ordering: .acquiring) { r.renderOne() } }
        thread.start()
        while r.slice.load(ordering: .acquiring) < 10 { usleep(10) }
        var cb = AURenderCallbackStruct(inputProc: Kernels.fill, inputProcRefCon: UnsafeMutableRawPointer(one))
        check(AUGraphSetNodeInputCallback(g, first, 0, &cb), "callback")
        let before = r.slice.load(ordering: .acquiring)
        let t0 = DispatchTime.now().uptimeNanoseconds
        var updated: DarwinBoolean = false
        check(AUGraphUpdate(g, &updated), "update")
        while r.heardAt.load(ordering: .acquiring) < 0 { }
        waits.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1000)
        latencies.append(Double(r.heardAt.load(ordering: .acquiring) - before))
        r.stop.store(true, ordering: .releasing)
        while !thread.isFinished { usleep(10) }
        AUGraphUpdate(g, nil)
        DisposeAUGraph(g)
    }
    print(String(format: "slices from update to audible: median %.0f, max %.0f (the plan is adopted at the next slice start)",
                 median(latencies), latencies.max()!))
    print(String(format: "wall time from update to audible: median %.1f us", median(waits)))
}
