@testable import AudioToolbox
import Testing

/// Helpers shared by the graph tests.
enum GraphSupport {
    static func setGain(_ graph: AUGraph, _ node: AUNode, _ gain: Float) {
        var unit: AudioUnit?
        AUGraphNodeInfo(graph, node, nil, &unit)
        AudioUnitSetParameter(unit!, TestGainUnit.gainID, kAudioUnitScope_Global, 0, gain, 0)
    }

    static func unit(_ graph: AUGraph, _ node: AUNode) -> AudioUnit? {
        var unit: AudioUnit?
        AUGraphNodeInfo(graph, node, nil, &unit)
        return unit
    }

    /// Frame n of the stream is n (exact in Float32 below 2^24): any lost, repeated or torn slice shows.
    static let ramp: AURenderCallback = { _, _, timeStamp, _, frames, ioData in
        let start = timeStamp.pointee.mSampleTime
        for buffer in UnsafeMutableAudioBufferListPointer(ioData!) {
            let p = buffer.mData!.assumingMemoryBound(to: Float32.self)
            for n in 0..<Int(frames) { p[n] = Float32(start + Double(n)) }
        }
        return noErr
    }

    /// A constant taken from the refCon's Float32.
    static let constant: AURenderCallback = { refCon, _, _, _, frames, ioData in
        let value = refCon.load(as: Float32.self)
        for buffer in UnsafeMutableAudioBufferListPointer(ioData!) {
            let p = buffer.mData!.assumingMemoryBound(to: Float32.self)
            for n in 0..<Int(frames) { p[n] = value }
        }
        return noErr
    }

    static func registerTestUnits() {
        _ = TestGainUnit.registered
        _ = TestSummingUnit.registered
    }
}

@Suite struct AUGraphTests {
    init() { GraphSupport.registerTestUnits() }

    @Test func callbackThroughEffectsToGenericOutputRenders() throws {
        var graph: AUGraph?
        #expect(NewAUGraph(&graph) == noErr)
        let g = try #require(graph)
        defer { DisposeAUGraph(g) }
        var outDesc = TestSupport.genericOutput, gainDesc = TestGainUnit.description
        var output = AUNode(), first = AUNode(), second = AUNode()
        #expect(AUGraphAddNode(g, &outDesc, &output) == noErr)
        #expect(AUGraphAddNode(g, &gainDesc, &first) == noErr)
        #expect(AUGraphAddNode(g, &gainDesc, &second) == noErr)
        #expect([output, first, second] == [1, 2, 3])
        var unit: AudioUnit?
        #expect(AUGraphNodeInfo(g, first, nil, &unit) == noErr)
        #expect(unit == nil)  // not open yet
        #expect(AUGraphOpen(g) == noErr)
        #expect(AUGraphNodeInfo(g, first, nil, &unit) == noErr && unit != nil)
        var cb = AURenderCallbackStruct(inputProc: GraphSupport.ramp, inputProcRefCon: nil)
        #expect(AUGraphSetNodeInputCallback(g, first, 0, &cb) == noErr)
        #expect(AUGraphConnectNodeInput(g, first, 0, second, 0) == noErr)
        #expect(AUGraphConnectNodeInput(g, second, 0, output, 0) == noErr)
        GraphSupport.setGain(g, first, 0.5)
        GraphSupport.setGain(g, second, 4)
        #expect(AUGraphInitialize(g) == noErr)
        #expect(AUGraphStart(g) == noErr)
        var running: DarwinBoolean = false
        AUGraphIsRunning(g, &running)
        #expect(running.boolValue)
        let head = try #require(GraphSupport.unit(g, output))
        let out = try TestSupport.render(head, format: OCAFormat.canonical(sampleRate: 44100, channels: 2), totalFrames: 3000,
                                         slices: [512, 77])
        for c in 0..<2 {
            for n in 0..<3000 where out.channels[c][n] != Double(Float32(n) * 0.5 * 4) {
                Issue.record("channel \(c) frame \(n): \(out.channels[c][n])"); return
            }
        }
        #expect(AUGraphStop(g) == noErr)
    }

    @Test func formatsPropagateFromSourceToDestinationAtInitialize() throws {
        var graph: AUGraph?
        NewAUGraph(&graph)
        let g = graph!
        defer { DisposeAUGraph(g) }
        var outDesc = TestSupport.genericOutput, gainDesc = TestGainUnit.description
        var output = AUNode(), gain = AUNode()
        AUGraphAddNode(g, &outDesc, &output)
        AUGraphAddNode(g, &gainDesc, &gain)
        AUGraphOpen(g)
        let mono48k = OCAFormat.canonical(sampleRate: 48000, channels: 1)
        let gainUnit = GraphSupport.unit(g, gain)!, outUnit = GraphSupport.unit(g, output)!
        TestSupport.setFormat(gainUnit, kAudioUnitScope_Input, 0, mono48k)
        TestSupport.setFormat(gainUnit, kAudioUnitScope_Output, 0, mono48k)
        TestSupport.setFormat(outUnit, kAudioUnitScope_Output, 0, mono48k)
        AUGraphConnectNodeInput(g, gain, 0, output, 0)
        var cb = AURenderCallbackStruct(inputProc: GraphSupport.ramp, inputProcRefCon: nil)
        AUGraphSetNodeInputCallback(g, gain, 0, &cb)
        #expect(AUGraphInitialize(g) == noErr)
        #expect(OCAFormat.describe(TestSupport.format(outUnit, kAudioUnitScope_Input, 0)) == OCAFormat.describe(mono48k))
        // One way only: the source's input side is untouched by the destination.
        #expect(TestSupport.format(gainUnit, kAudioUnitScope_Input, 0).mSampleRate == 48000)
    }

    @Test func lifecycleMisuseReturnsApplesStatuses() throws {
        var graph: AUGraph?
        NewAUGraph(&graph)
        let g = graph!
        defer { DisposeAUGraph(g) }
        var outDesc = TestSupport.genericOutput, gainDesc = TestGainUnit.description
        var output = AUNode(), gain = AUNode(), secondOutput = AUNode()
        #expect(AUGraphInitialize(g) == kAUGraphErr_InvalidAudioUnit)  // not open
        #expect(AUGraphStart(g) == kAudioUnitErr_Uninitialized)
        AUGraphAddNode(g, &outDesc, &output)
        #expect(AUGraphAddNode(g, &outDesc, &secondOutput) == kAUGraphErr_OutputNodeErr)
        var missing = AudioComponentDescription(componentType: 0x7A7A7A7A, componentSubType: 1, componentManufacturer: 1,
                                                componentFlags: 0, componentFlagsMask: 0)
        var node = AUNode()
        #expect(AUGraphAddNode(g, &missing, &node) == kAUGraphErr_InvalidAudioUnit)
        AUGraphAddNode(g, &gainDesc, &gain)
        #expect(AUGraphNodeInfo(g, 99, nil, nil) == kAUGraphErr_NodeNotFound)
        #expect(AUGraphRemoveNode(g, 99) == kAUGraphErr_NodeNotFound)
        #expect(AUGraphConnectNodeInput(g, 99, 0, output, 0) == kAUGraphErr_NodeNotFound)
        #expect(AUGraphConnectNodeInput(g, gain, 0, gain, 0) == kAUGraphErr_InvalidConnection)
        #expect(AUGraphConnectNodeInput(g, gain, 0, output, 0) == noErr)
        #expect(AUGraphConnectNodeInput(g, output, 0, gain, 0) == kAUGraphErr_InvalidConnection)  // a loop
        #expect(AUGraphDisconnectNodeInput(g, gain, 0) == kAUGraphErr_InvalidConnection)  // nothing to disconnect
        var index = AUNode()
        #expect(AUGraphGetIndNode(g, 5, &index) == kAUGraphErr_NodeNotFound)
        #expect(AUGraphGetIndNode(g, 1, &index) == noErr && index == gain)
        var count: UInt32 = 0
        #expect(AUGraphGetNodeCount(g, &count) == noErr && count == 2)
        AUGraphOpen(g)
        var cb = AURenderCallbackStruct(inputProc: GraphSupport.ramp, inputProcRefCon: nil)
        AUGraphSetNodeInputCallback(g, gain, 0, &cb)
        #expect(AUGraphInitialize(g) == noErr)
        #expect(AUGraphStart(g) == noErr)
        #expect(AUGraphRemoveNode(g, output) == kAUGraphErr_OutputNodeErr)  // the head, while running
        #expect(AUGraphStop(g) == noErr)
        var flag: DarwinBoolean = true
        #expect(AUGraphIsNodeSubGraph(g, gain, &flag) == noErr && !flag.boolValue)
        var sub: AUGraph?
        #expect(AUGraphGetNodeInfoSubGraph(g, gain, &sub) == kAUGraphErr_InvalidAudioUnit)
        // A disposed or bogus graph is refused, not dereferenced.
        var other: AUGraph?
        NewAUGraph(&other)
        #expect(DisposeAUGraph(other!) == noErr)
        #expect(AUGraphOpen(other!) == kAudio_ParamError)
        #expect(DisposeAUGraph(other!) == kAudio_ParamError)
    }

    @Test func interactionsAreListed() throws {
        var graph: AUGraph?
        NewAUGraph(&graph)
        let g = graph!
        defer { DisposeAUGraph(g) }
        var outDesc = TestSupport.genericOutput, gainDesc = TestGainUnit.description
        var output = AUNode(), gain = AUNode()
        AUGraphAddNode(g, &outDesc, &output)
        AUGraphAddNode(g, &gainDesc, &gain)
        AUGraphConnectNodeInput(g, gain, 0, output, 0)
        var refCon: Float32 = 0.25
        withUnsafeMutablePointer(to: &refCon) { r in
            var cb = AURenderCallbackStruct(inputProc: GraphSupport.constant, inputProcRefCon: UnsafeMutableRawPointer(r))
            AUGraphSetNodeInputCallback(g, gain, 0, &cb)
            var n: UInt32 = 0
            #expect(AUGraphGetNumberOfInteractions(g, &n) == noErr && n == 2)
            var i = AUNodeInteraction()
            #expect(AUGraphGetInteractionInfo(g, 0, &i) == noErr)
            #expect(i.nodeInteractionType == kAUNodeInteraction_Connection)
            #expect(i.nodeInteraction.connection.sourceNode == gain && i.nodeInteraction.connection.destNode == output)
            #expect(AUGraphGetInteractionInfo(g, 1, &i) == noErr)
            #expect(i.nodeInteractionType == kAUNodeInteraction_InputCallback)
            #expect(i.nodeInteraction.inputCallback.destNode == gain)
            #expect(i.nodeInteraction.inputCallback.cback.inputProcRefCon == UnsafeMutableRawPointer(r))
            #expect(AUGraphGetInteractionInfo(g, 2, &i) == kAudio_ParamError)
            #expect(AUGraphCountNodeInteractions(g, gain, &n) == noErr && n == 2)
            #expect(AUGraphCountNodeInteractions(g, output, &n) == noErr && n == 1)
            var list = [AUNodeInteraction](repeating: AUNodeInteraction(), count: 4)
            n = 4
            #expect(AUGraphGetNodeInteractions(g, gain, &n, &list) == noErr && n == 2)
            n = 1
            #expect(AUGraphGetNodeInteractions(g, gain, &n, &list) == noErr && n == 1)
            #expect(AUGraphClearConnections(g) == noErr)
            #expect(AUGraphGetNumberOfInteractions(g, &n) == noErr && n == 0)
        }
    }

    @Test func editsToAnInitializedGraphWaitForUpdate() throws {
        var graph: AUGraph?
        NewAUGraph(&graph)
        let g = graph!
        defer { DisposeAUGraph(g) }
        var outDesc = TestSupport.genericOutput, gainDesc = TestGainUnit.description
        var output = AUNode(), gain = AUNode()
        AUGraphAddNode(g, &outDesc, &output)
        AUGraphAddNode(g, &gainDesc, &gain)
        AUGraphOpen(g)
        var cb = AURenderCallbackStruct(inputProc: GraphSupport.ramp, inputProcRefCon: nil)
        AUGraphSetNodeInputCallback(g, output, 0, &cb)
        #expect(AUGraphInitialize(g) == noErr)
        let head = GraphSupport.unit(g, output)!
        let format = OCAFormat.canonical(sampleRate: 44100, channels: 2)
        // Insert the gain (x3) between the callback and the output.
        AUGraphSetNodeInputCallback(g, gain, 0, &cb)
        AUGraphConnectNodeInput(g, gain, 0, output, 0)
        GraphSupport.setGain(g, gain, 3)
        #expect(caShowText(UnsafeMutableRawPointer(g)).contains("eventsToProcess=T"))
        var out = try TestSupport.render(head, format: format, totalFrames: 10, slices: [10])
        #expect(out.channels[0][9] == 9)  // not yet applied
        var updated: DarwinBoolean = false
        #expect(AUGraphUpdate(g, &updated) == noErr)
        #expect(updated.boolValue)  // not running: applied at once
        out = try TestSupport.render(head, format: format, totalFrames: 10, slices: [10])
        #expect(out.channels[0][9] == 27)
        #expect(caShowText(UnsafeMutableRawPointer(g)).contains("eventsToProcess=F"))
        // Removing the gain and reconnecting the callback directly.
        AUGraphRemoveNode(g, gain)
        AUGraphSetNodeInputCallback(g, output, 0, &cb)
        #expect(AUGraphUpdate(g, nil) == noErr)
        out = try TestSupport.render(head, format: format, totalFrames: 10, slices: [10])
        #expect(out.channels[0][9] == 9)
        var count: UInt32 = 0
        AUGraphGetNodeCount(g, &count)
        #expect(count == 1)
    }

    @Test func updateRejectsAFormatMismatchAndChangesNothing() throws {
        var graph: AUGraph?
        NewAUGraph(&graph)
        let g = graph!
        defer { DisposeAUGraph(g) }
        var outDesc = TestSupport.genericOutput, gainDesc = TestGainUnit.description
        var output = AUNode(), gain = AUNode()
        AUGraphAddNode(g, &outDesc, &output)
        AUGraphAddNode(g, &gainDesc, &gain)
        AUGraphOpen(g)
        var cb = AURenderCallbackStruct(inputProc: GraphSupport.ramp, inputProcRefCon: nil)
        AUGraphSetNodeInputCallback(g, output, 0, &cb)
        AUGraphInitialize(g)
        let gainUnit = GraphSupport.unit(g, gain)!
        TestSupport.setFormat(gainUnit, kAudioUnitScope_Output, 0, OCAFormat.canonical(sampleRate: 8000, channels: 2))
        TestSupport.setFormat(gainUnit, kAudioUnitScope_Input, 0, OCAFormat.canonical(sampleRate: 8000, channels: 2))
        AUGraphSetNodeInputCallback(g, gain, 0, &cb)
        AUGraphConnectNodeInput(g, gain, 0, output, 0)
        #expect(AUGraphUpdate(g, nil) == kAudioUnitErr_FormatNotSupported)
        #expect(caShowText(UnsafeMutableRawPointer(g)).contains("mLastUpdateError=-10868"))
        let out = try TestSupport.render(GraphSupport.unit(g, output)!, format: OCAFormat.canonical(sampleRate: 44100, channels: 2),
                                         totalFrames: 4, slices: [4])
        #expect(out.channels[0] == [0, 1, 2, 3])
    }

    @Test func subgraphEndingInGenericOutputFeedsItsParent() throws {
        var graph: AUGraph?
        NewAUGraph(&graph)
        let g = graph!
        defer { DisposeAUGraph(g) }
        var outDesc = TestSupport.genericOutput, gainDesc = TestGainUnit.description
        var output = AUNode(), gain = AUNode(), subNode = AUNode()
        AUGraphAddNode(g, &outDesc, &output)
        AUGraphAddNode(g, &gainDesc, &gain)
        #expect(AUGraphNewNodeSubGraph(g, &subNode) == noErr)
        var isSub: DarwinBoolean = false
        #expect(AUGraphIsNodeSubGraph(g, subNode, &isSub) == noErr && isSub.boolValue)
        var subgraph: AUGraph?
        #expect(AUGraphGetNodeInfoSubGraph(g, subNode, &subgraph) == noErr)
        let sub = try #require(subgraph)
        var subOutput = AUNode()
        #expect(AUGraphAddNode(sub, &outDesc, &subOutput) == noErr)
        var cb = AURenderCallbackStruct(inputProc: GraphSupport.ramp, inputProcRefCon: nil)
        #expect(AUGraphSetNodeInputCallback(sub, subOutput, 0, &cb) == noErr)
        #expect(AUGraphConnectNodeInput(g, subNode, 0, gain, 0) == noErr)
        #expect(AUGraphConnectNodeInput(g, gain, 0, output, 0) == noErr)
        #expect(AUGraphConnectNodeInput(g, gain, 0, subNode, 0) == kAUGraphErr_InvalidConnection)  // no inputs
        #expect(AUGraphOpen(g) == noErr)
        GraphSupport.setGain(g, gain, 2)
        #expect(AUGraphInitialize(g) == noErr)
        let out = try TestSupport.render(GraphSupport.unit(g, output)!, format: OCAFormat.canonical(sampleRate: 44100, channels: 2),
                                         totalFrames: 600, slices: [256])
        #expect(out.channels[1][599] == 1198)
        #expect(caShowText(UnsafeMutableRawPointer(g)).contains("SubGraph"))
    }

    @Test func renderNotifyAndCPULoad() throws {
        final class Counter { var pre = 0, post = 0 }
        let counter = Counter()
        let notify: AURenderCallback = { refCon, flags, _, _, _, _ in
            let c = Unmanaged<Counter>.fromOpaque(refCon).takeUnretainedValue()
            if flags.pointee.contains(.unitRenderAction_PreRender) { c.pre += 1 }
            if flags.pointee.contains(.unitRenderAction_PostRender) { c.post += 1 }
            return noErr
        }
        var graph: AUGraph?
        NewAUGraph(&graph)
        let g = graph!
        defer { DisposeAUGraph(g) }
        var outDesc = TestSupport.genericOutput
        var output = AUNode()
        AUGraphAddNode(g, &outDesc, &output)
        let refCon = Unmanaged.passUnretained(counter).toOpaque()
        #expect(AUGraphAddRenderNotify(g, notify, refCon) == noErr)  // before open: installed at open
        AUGraphOpen(g)
        var cb = AURenderCallbackStruct(inputProc: GraphSupport.ramp, inputProcRefCon: nil)
        AUGraphSetNodeInputCallback(g, output, 0, &cb)
        AUGraphInitialize(g)
        AUGraphStart(g)
        _ = try TestSupport.render(GraphSupport.unit(g, output)!, format: OCAFormat.canonical(sampleRate: 44100, channels: 2),
                                   totalFrames: 2048, slices: [512])
        #expect(counter.pre == 4 && counter.post == 4)
        var load: Float32 = -1, maxLoad: Float32 = -1
        #expect(AUGraphGetCPULoad(g, &load) == noErr)
        #expect(AUGraphGetMaxCPULoad(g, &maxLoad) == noErr)
        // Rendering 512 frames of a ramp takes far less than 11.6 ms, but more than nothing.
        #expect(load > 0 && load < 0.5 && maxLoad >= load)
        AUGraphGetMaxCPULoad(g, &maxLoad)
        #expect(maxLoad == 0)  // reset by the read
        #expect(AUGraphRemoveRenderNotify(g, notify, refCon) == noErr)
        _ = try TestSupport.render(GraphSupport.unit(g, output)!, format: OCAFormat.canonical(sampleRate: 44100, channels: 2),
                                   totalFrames: 512, slices: [512])
        #expect(counter.pre == 4)
    }
}
