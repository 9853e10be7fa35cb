// AVAudioEngine against AUGraph on the same work, in the same run (offline, 512-frame slices at 48 kHz, medians of
// 7 runs): (1) 32 players each looping a 1 s stereo buffer into the main mixer — AVAudioPlayerNode in the engine,
// AUScheduledSoundPlayer with a looping slice in the AUGraph; (2) a source through a chain of 16 bypassed
// AUNBandEQ units, the difference from no chain divided by 16 being the cost per node. Prints x real time and the
// ratio of the engine to the graph (above 1: the engine is faster).
import AVFoundation
import AudioToolbox
import Foundation

let rate = 48000.0
let slice: AVAudioFrameCount = 512
let format = AVAudioFormat(standardFormatWithSampleRate: rate, channels: 2)!
let slices = 2000

func check(_ status: OSStatus, _ what: String) { if status != noErr { fatalError("\(what): \(status)") } }

func median(_ xs: [Double]) -> Double { xs.sorted()[xs.count / 2] }

/// Nanoseconds per slice, median of 7 runs of `slices` slices.
func measure(_ render: () -> Void) -> Double {
    for _ in 0..<50 { render() }
    var results: [Double] = []
    for _ in 0..<7 {
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<slices { render() }
        results.append(Double(DispatchTime.now().uptimeNanoseconds - start) / Double(slices))
    }
    return median(results)
}

func realTime(_ ns: Double) -> Double { Double(slice) / rate * 1e9 / ns }

let loop: AVAudioPCMBuffer = {
    let b = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: AVAudioFrameCount(rate))!
    b.frameLength = b.frameCapacity
    for c in 0..<2 { for i in 0..<Int(rate) { b.floatChannelData![c][i] = Float(sin(Double(i) * 0.031 + Double(c))) * 0.01 } }
    return b
}()

// MARK: The engine

func engineRenderer(_ build: (AVAudioEngine) -> Void) -> () -> Void {
    let engine = AVAudioEngine()
    try! engine.enableManualRenderingMode(.offline, format: format, maximumFrameCount: slice)
    build(engine)
    try! engine.start()
    let out = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: slice)!
    return { _ = try! engine.renderOffline(slice, to: out); _ = engine }
}

func enginePlayers(_ n: Int) -> () -> Void {
    engineRenderer { engine in
        for _ in 0..<n {
            let player = AVAudioPlayerNode()
            engine.attach(player)
            engine.connect(player, to: engine.mainMixerNode, format: format)
            player.scheduleBuffer(loop, at: nil, options: .loops)
            player.play()
        }
    }
}

func engineChain(_ n: Int) -> () -> Void {
    engineRenderer { engine in
        let source = AVAudioSourceNode { _, _, frames, list in
            for b in UnsafeMutableAudioBufferListPointer(list) { b.mData!.assumingMemoryBound(to: Float.self).update(repeating: 0.01, count: Int(frames)) }
            return noErr
        }
        engine.attach(source)
        var previous: AVAudioNode = source
        for _ in 0..<n {
            let eq = AVAudioUnitEQ(numberOfBands: 1)
            eq.bypass = true
            engine.attach(eq)
            engine.connect(previous, to: eq, format: format)
            previous = eq
        }
        engine.connect(previous, to: engine.mainMixerNode, format: format)
    }
}

// MARK: The same with AUGraph

func graphRenderer(_ build: (AUGraph, AUNode) -> Void) -> () -> Void {
    var graph: AUGraph?
    check(NewAUGraph(&graph), "graph")
    var output = AUNode(), mixer = AUNode()
    var d = AudioComponentDescription(componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_GenericOutput,
                                      componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
    check(AUGraphAddNode(graph!, &d, &output), "output")
    d = AudioComponentDescription(componentType: kAudioUnitType_Mixer, componentSubType: kAudioUnitSubType_MultiChannelMixer,
                                  componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
    check(AUGraphAddNode(graph!, &d, &mixer), "mixer")
    check(AUGraphOpen(graph!), "open")
    var mixerUnit: AudioUnit?, outputUnit: AudioUnit?
    AUGraphNodeInfo(graph!, mixer, nil, &mixerUnit)
    AUGraphNodeInfo(graph!, output, nil, &outputUnit)
    var asbd = format.streamDescription.pointee
    var count: UInt32 = 64
    AudioUnitSetProperty(mixerUnit!, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, &count, 4)
    AudioUnitSetProperty(mixerUnit!, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &asbd, 40)
    for scope in [kAudioUnitScope_Input, kAudioUnitScope_Output] { AudioUnitSetProperty(outputUnit!, kAudioUnitProperty_StreamFormat, scope, 0, &asbd, 40) }
    check(AUGraphConnectNodeInput(graph!, mixer, 0, output, 0), "connect")
    build(graph!, mixer)
    check(AUGraphInitialize(graph!), "initialize")
    check(AUGraphStart(graph!), "start")
    let out = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: slice)!
    var stamp = AudioTimeStamp()
    stamp.mFlags = .sampleTimeValid
    return {
        out.frameLength = slice
        var flags = AudioUnitRenderActionFlags()
        check(AudioUnitRender(outputUnit!, &flags, &stamp, 0, slice, out.mutableAudioBufferList), "render")
        stamp.mSampleTime += Double(slice)
    }
}

func unit(_ graph: AUGraph, _ node: AUNode) -> AudioUnit {
    var u: AudioUnit?
    AUGraphNodeInfo(graph, node, nil, &u)
    return u!
}

/// Slices kept alive for the scheduled sound players (they hold pointers to them).
nonisolated(unsafe) var slicesInUse: [UnsafeMutablePointer<ScheduledAudioSlice>] = []

func graphPlayers(_ n: Int) -> () -> Void {
    graphRenderer { graph, mixer in
        for i in 0..<n {
            var d = AudioComponentDescription(componentType: kAudioUnitType_Generator, componentSubType: kAudioUnitSubType_ScheduledSoundPlayer,
                                              componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
            var node = AUNode()
            check(AUGraphAddNode(graph, &d, &node), "player")
            let player = unit(graph, node)
            var asbd = format.streamDescription.pointee
            AudioUnitSetProperty(player, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &asbd, 40)
            check(AUGraphConnectNodeInput(graph, node, 0, mixer, UInt32(i)), "connect player")
            check(AudioUnitInitialize(player), "init player")
            let s = UnsafeMutablePointer<ScheduledAudioSlice>.allocate(capacity: 1)
            var stamp = AudioTimeStamp()
            stamp.mFlags = .sampleTimeValid
            s.initialize(to: ScheduledAudioSlice(mTimeStamp: stamp, mCompletionProc: nil, mCompletionProcUserData: UnsafeMutableRawPointer(s),
                                                 mFlags: .scheduledAudioSliceFlag_Loop, mReserved: 0, mReserved2: nil,
                                                 mNumberFrames: loop.frameLength, mBufferList: loop.mutableAudioBufferList))
            slicesInUse.append(s)
            check(AudioUnitSetProperty(player, kAudioUnitProperty_ScheduleAudioSlice, kAudioUnitScope_Global, 0, s,
                                       UInt32(MemoryLayout<ScheduledAudioSlice>.size)), "schedule")
            var start = AudioTimeStamp()
            start.mFlags = .sampleTimeValid
            start.mSampleTime = -1
            check(AudioUnitSetProperty(player, kAudioUnitProperty_ScheduleStartTimeStamp, kAudioUnitScope_Global, 0, &start,
                                       UInt32(MemoryLayout<AudioTimeStamp>.size)), "start")
        }
    }
}

nonisolated(unsafe) let constantSource: AURenderCallback = { _, _, _, _, frames, list in
    for b in UnsafeMutableAudioBufferListPointer(list!) { b.mData!.assumingMemoryBound(to: Float.self).update(repeating: 0.01, count: Int(frames)) }
    return noErr
}

func graphChain(_ n: Int) -> () -> Void {
    graphRenderer { graph, mixer in
        var d = AudioComponentDescription(componentType: kAudioUnitType_FormatConverter, componentSubType: kAudioUnitSubType_AUConverter,
                                          componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        var source = AUNode()
        check(AUGraphAddNode(graph, &d, &source), "source")
        var asbd = format.streamDescription.pointee
        for scope in [kAudioUnitScope_Input, kAudioUnitScope_Output] {
            AudioUnitSetProperty(unit(graph, source), kAudioUnitProperty_StreamFormat, scope, 0, &asbd, 40)
        }
        var cb = AURenderCallbackStruct(inputProc: constantSource, inputProcRefCon: nil)
        check(AUGraphSetNodeInputCallback(graph, source, 0, &cb), "callback")
        var previous = source
        for _ in 0..<n {
            d = AudioComponentDescription(componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_NBandEQ,
                                          componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
            var eq = AUNode()
            check(AUGraphAddNode(graph, &d, &eq), "eq")
            let u = unit(graph, eq)
            var bands: UInt32 = 1, bypass: UInt32 = 1
            AudioUnitSetProperty(u, kAUNBandEQProperty_NumberOfBands, kAudioUnitScope_Global, 0, &bands, 4)
            AudioUnitSetProperty(u, kAudioUnitProperty_BypassEffect, kAudioUnitScope_Global, 0, &bypass, 4)
            for scope in [kAudioUnitScope_Input, kAudioUnitScope_Output] { AudioUnitSetProperty(u, kAudioUnitProperty_StreamFormat, scope, 0, &asbd, 40) }
            check(AUGraphConnectNodeInput(graph, previous, 0, eq, 0), "connect eq")
            previous = eq
        }
        check(AUGraphConnectNodeInput(graph, previous, 0, mixer, 0), "connect chain")
    }
}

let enginePlayersNs = measure(enginePlayers(32))
let graphPlayersNs = measure(graphPlayers(32))
print(String(format: "32 looping players into a mixer: engine %.0f ns/slice (%.0fx real time), AUGraph %.0f ns/slice (%.0fx); engine/graph speed %.2f",
             enginePlayersNs, realTime(enginePlayersNs), graphPlayersNs, realTime(graphPlayersNs), graphPlayersNs / enginePlayersNs))
let engine0 = measure(engineChain(0)), engine16 = measure(engineChain(16))
let graph0 = measure(graphChain(0)), graph16 = measure(graphChain(16))
let enginePerNode = (engine16 - engine0) / 16, graphPerNode = (graph16 - graph0) / 16
print(String(format: "per bypassed effect node: engine %.0f ns, AUGraph %.0f ns (chain of 16: engine %.0fx real time, AUGraph %.0fx); engine/graph speed %.2f",
             enginePerNode, graphPerNode, realTime(engine16), realTime(graph16), graphPerNode / enginePerNode))
