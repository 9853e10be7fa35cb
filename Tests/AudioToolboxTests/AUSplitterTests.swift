import AudioToolbox
import Foundation
import Testing

@Suite struct AUSplitterTests {
    static let splitter = AudioComponentDescription(componentType: kAudioUnitType_FormatConverter, componentSubType: kAudioUnitSubType_Splitter,
                                                    componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
    static let multiSplitter = AudioComponentDescription(componentType: kAudioUnitType_Mixer, componentSubType: kAudioUnitSubType_MultiSplitter,
                                                         componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
    static let stereo = MultiChannelMixerTests.stereo

    /// Counts pulls and plays frame n of channel c as n + 1000 c.
    final class Counter { var pulls = 0 }
    static let ramp: AURenderCallback = { refCon, _, timeStamp, _, frames, ioData in
        Unmanaged<Counter>.fromOpaque(refCon).takeUnretainedValue().pulls += 1
        for (c, b) in UnsafeMutableAudioBufferListPointer(ioData!).enumerated() {
            let p = b.mData!.assumingMemoryBound(to: Float.self)
            for n in 0..<Int(frames) { p[n] = Float(timeStamp.pointee.mSampleTime) + Float(n) + Float(1000 * c) }
        }
        return noErr
    }

    /// One 256-frame slice of output `bus` at sample time `time`, per channel.
    func render(_ unit: AudioUnit, bus: UInt32, time: Double) throws -> [[Double]] {
        try TestSupport.render(unit, format: Self.stereo, totalFrames: 256, slices: [256], bus: bus, startTime: time).channels
    }

    @Test func everyOutputGetsTheInputWhichIsPulledOncePerCycle() throws {
        let unit = try TestSupport.newUnit(Self.splitter)
        defer { AudioComponentInstanceDispose(unit) }
        let counter = Counter()
        TestSupport.setCallback(unit, 0, Self.ramp, Unmanaged.passUnretained(counter).toOpaque())
        #expect(TestSupport.getUInt32(unit, kAudioUnitProperty_ElementCount, kAudioUnitScope_Output, 0).1 == 2)
        #expect(TestSupport.setUInt32(unit, kAudioUnitProperty_ElementCount, kAudioUnitScope_Output, 0, 3) == kAudioUnitErr_PropertyNotWritable)
        #expect(AudioUnitInitialize(unit) == noErr)
        let a = try render(unit, bus: 0, time: 512), b = try render(unit, bus: 1, time: 512)
        #expect(a == b)
        #expect(a[0] == (0..<256).map { Double(512 + $0) } && a[1] == (0..<256).map { Double(1512 + $0) })
        #expect(counter.pulls == 1)
        let next = try render(unit, bus: 1, time: 768)
        #expect(counter.pulls == 2 && next[0][0] == 768)
        var bad = AudioTimeStamp()
        bad.mFlags = .sampleTimeValid
        let list = AudioBufferList.allocate(maximumBuffers: 2)
        defer { free(list.unsafeMutablePointer) }
        #expect(AudioUnitRender(unit, nil, &bad, 2, 256, list.unsafeMutablePointer) == kAudioUnitErr_InvalidElement)
    }

    @Test func multiSplitterHasAnyNumberOfOutputs() throws {
        let unit = try TestSupport.newUnit(Self.multiSplitter)
        defer { AudioComponentInstanceDispose(unit) }
        #expect(TestSupport.setUInt32(unit, kAudioUnitProperty_ElementCount, kAudioUnitScope_Output, 0, 4) == noErr)
        let counter = Counter()
        TestSupport.setCallback(unit, 0, Self.ramp, Unmanaged.passUnretained(counter).toOpaque())
        #expect(AudioUnitInitialize(unit) == noErr)
        let outs = try (0..<4).map { try render(unit, bus: UInt32($0), time: 0) }
        #expect(outs.allSatisfy { $0 == outs[0] } && outs[0][1][5] == 1005)
        #expect(counter.pulls == 1)
        #expect(AudioUnitUninitialize(unit) == noErr)
        // An output with another channel count than the input is refused.
        #expect(TestSupport.setFormat(unit, kAudioUnitScope_Output, 3, MultiChannelMixerTests.mono) == noErr)
        #expect(AudioUnitInitialize(unit) == kAudioUnitErr_FormatNotSupported)
    }

    /// Splitter outputs into both inputs of a multichannel mixer: the mix is exactly twice the source.
    @Test func splitterIntoMixerDoublesTheSignal() throws {
        var graph: AUGraph?
        NewAUGraph(&graph)
        let g = try #require(graph)
        defer { DisposeAUGraph(g) }
        var outDesc = TestSupport.genericOutput, mixDesc = MultiChannelMixerTests.mixer, splitDesc = Self.splitter
        var output = AUNode(), mixer = AUNode(), split = AUNode()
        AUGraphAddNode(g, &outDesc, &output)
        AUGraphAddNode(g, &mixDesc, &mixer)
        AUGraphAddNode(g, &splitDesc, &split)
        #expect(AUGraphOpen(g) == noErr)
        TestSupport.setUInt32(try #require(GraphSupport.unit(g, mixer)), kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, 2)
        let counter = Counter()
        var cb = AURenderCallbackStruct(inputProc: Self.ramp, inputProcRefCon: Unmanaged.passUnretained(counter).toOpaque())
        #expect(AUGraphSetNodeInputCallback(g, split, 0, &cb) == noErr)
        #expect(AUGraphConnectNodeInput(g, split, 0, mixer, 0) == noErr)
        #expect(AUGraphConnectNodeInput(g, split, 1, mixer, 1) == noErr)
        #expect(AUGraphConnectNodeInput(g, mixer, 0, output, 0) == noErr)
        #expect(AUGraphInitialize(g) == noErr)
        let out = try TestSupport.render(try #require(GraphSupport.unit(g, output)), format: Self.stereo, totalFrames: 2048, slices: [512])
        #expect(out.channels[0].enumerated().allSatisfy { $0.element == 2 * Double($0.offset) })
        #expect(out.channels[1].enumerated().allSatisfy { $0.element == 2 * (Double($0.offset) + 1000) })
        #expect(counter.pulls == 4)
    }
}
