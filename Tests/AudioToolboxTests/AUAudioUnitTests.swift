import AllocationCounter
import AudioToolbox
import COCASupport
import Foundation
import Testing

/// Non-interleaved Float32, the format AUAudioUnit subclasses usually render in.
private func floatFormat(channels: UInt32, rate: Double = 44100) -> AudioStreamBasicDescription {
    AudioStreamBasicDescription(mSampleRate: rate, mFormatID: kAudioFormatLinearPCM,
                                mFormatFlags: kAudioFormatFlagsNativeFloatPacked | kAudioFormatFlagIsNonInterleaved,
                                mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4, mChannelsPerFrame: channels,
                                mBitsPerChannel: 32, mReserved: 0)
}

/// A gain effect written as on Apple's platforms (the bus made from a stream description: AVAudioFormat is AVFAudio's,
/// see Tests/AVFAudioTests/AUAudioUnitFormatTests for the AVAudioFormat form). Scheduled parameter events are applied at
/// the start of the cycle.
final class V3GainUnit: AUAudioUnit {
    static let description = AudioComponentDescription(componentType: kAudioUnitType_Effect, componentSubType: 0x7467_616e /* tgan */,
                                                       componentManufacturer: 0x4f63_6174 /* Ocat */, componentFlags: 0, componentFlagsMask: 0)
    private var inputBusArray: AUAudioUnitBusArray!
    private var outputBusArray: AUAudioUnitBusArray!
    let gain: AUParameter
    /// The DSP's copy of the gain, written by the implementor observer (the render block reads only this).
    private let kernelGain = UnsafeMutablePointer<Float>.allocate(capacity: 1)
    private(set) var allocateCount = 0

    override init(componentDescription: AudioComponentDescription, options: AudioComponentInstantiationOptions = []) throws {
        gain = AUParameterTree.createParameter(withIdentifier: "gain", name: "Gain", address: 0, min: 0, max: 1, unit: .linearGain,
                                               unitName: nil, flags: [.flag_IsReadable, .flag_IsWritable], valueStrings: nil,
                                               dependentParameters: nil)
        try super.init(componentDescription: componentDescription, options: options)
        let format = floatFormat(channels: 2)
        inputBusArray = AUAudioUnitBusArray(audioUnit: self, busType: .input, busses: [try AUAudioUnitBus(streamDescription: format)])
        outputBusArray = AUAudioUnitBusArray(audioUnit: self, busType: .output, busses: [try AUAudioUnitBus(streamDescription: format)])
        let tree = AUParameterTree.createTree(withChildren: [gain])
        let kernelGain = kernelGain
        tree.implementorValueObserver = { _, value in kernelGain.pointee = value }
        tree.implementorValueProvider = { _ in kernelGain.pointee }
        parameterTree = tree
        gain.value = 1
    }

    deinit { kernelGain.deallocate() }

    override var inputBusses: AUAudioUnitBusArray { inputBusArray }
    override var outputBusses: AUAudioUnitBusArray { outputBusArray }
    override var latency: TimeInterval { 0.001 }

    override func allocateRenderResources() throws {
        try super.allocateRenderResources()
        allocateCount += 1
    }

    override var internalRenderBlock: AUInternalRenderBlock {
        let kernelGain = kernelGain
        return { flags, timestamp, frames, _, output, events, pullInput in
            guard let pullInput else { return kAudioUnitErr_NoConnection }
            let status = pullInput(flags, timestamp, frames, 0, output)
            guard status == noErr else { return status }
            var event = events
            while let e = event {
                if e.pointee.head.eventType == .parameter && e.pointee.parameter.parameterAddress == 0 {
                    kernelGain.pointee = e.pointee.parameter.value
                }
                event = UnsafePointer(e.pointee.head.next)
            }
            let g = kernelGain.pointee
            let buffers = UnsafeMutableAudioBufferListPointer(output)
            for b in 0..<buffers.count {
                let samples = buffers[b].mData!.assumingMemoryBound(to: Float.self)
                for i in 0..<Int(frames) { samples[i] *= g }
            }
            return noErr
        }
    }
}

/// Swaps the left and right channels.
final class V3SwapUnit: AUAudioUnit {
    static let description = AudioComponentDescription(componentType: kAudioUnitType_Effect, componentSubType: 0x7473_7770 /* tswp */,
                                                       componentManufacturer: 0x4f63_6174, componentFlags: 0, componentFlagsMask: 0)
    private var inputBusArray: AUAudioUnitBusArray!
    private var outputBusArray: AUAudioUnitBusArray!

    override init(componentDescription: AudioComponentDescription, options: AudioComponentInstantiationOptions = []) throws {
        try super.init(componentDescription: componentDescription, options: options)
        let format = floatFormat(channels: 2)
        let input = try AUAudioUnitBus(streamDescription: format)
        input.supportedChannelCounts = [2]
        let output = try AUAudioUnitBus(streamDescription: format)
        output.supportedChannelCounts = [2]
        inputBusArray = AUAudioUnitBusArray(audioUnit: self, busType: .input, busses: [input])
        outputBusArray = AUAudioUnitBusArray(audioUnit: self, busType: .output, busses: [output])
    }

    override var inputBusses: AUAudioUnitBusArray { inputBusArray }
    override var outputBusses: AUAudioUnitBusArray { outputBusArray }
    override var channelCapabilities: [NSNumber]? { [2, 2] }

    override var internalRenderBlock: AUInternalRenderBlock {
        { flags, timestamp, frames, _, output, _, pullInput in
            guard let pullInput else { return kAudioUnitErr_NoConnection }
            let status = pullInput(flags, timestamp, frames, 0, output)
            guard status == noErr else { return status }
            let buffers = UnsafeMutableAudioBufferListPointer(output)
            let l = buffers[0].mData!.assumingMemoryBound(to: Float.self), r = buffers[1].mData!.assumingMemoryBound(to: Float.self)
            for i in 0..<Int(frames) { (l[i], r[i]) = (r[i], l[i]) }
            return noErr
        }
    }
}

/// Registers the test units once per process.
enum TestAUv3Units {
    static let registered: Bool = {
        AUAudioUnit.registerSubclass(V3GainUnit.self, as: V3GainUnit.description, name: "OCA Tests: Gain", version: 0x10203)
        AUAudioUnit.registerSubclass(V3SwapUnit.self, as: V3SwapUnit.description, name: "OCA Tests: Stereo Swap", version: 1)
        return true
    }()
}

@Suite struct AUAudioUnitTests {
    /// The input signal: left i/1000, right -i/500 (from the sample time, so every slice continues it).
    static let source: AURenderCallback = { _, _, timeStamp, _, frames, ioData in
        let abl = UnsafeMutableAudioBufferListPointer(ioData!)
        let start = Int(timeStamp.pointee.mSampleTime)
        let l = abl[0].mData!.assumingMemoryBound(to: Float.self), r = abl[1].mData!.assumingMemoryBound(to: Float.self)
        for i in 0..<Int(frames) {
            l[i] = Float((start + i) % 1000) / 1000
            r[i] = -Float((start + i) % 500) / 500
        }
        return noErr
    }

    init() { #expect(TestAUv3Units.registered) }

    func newUnit(_ description: AudioComponentDescription) throws -> AudioUnit {
        var d = description
        let component = try #require(AudioComponentFindNext(nil, &d))
        var unit: AudioUnit?
        try #require(AudioComponentInstanceNew(component, &unit) == noErr)
        return try #require(unit)
    }

    func setSource(_ unit: AudioUnit) {
        var callback = AURenderCallbackStruct(inputProc: Self.source, inputProcRefCon: nil)
        AudioUnitSetProperty(unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &callback,
                             UInt32(MemoryLayout<AURenderCallbackStruct>.size))
    }

    /// Renders one slice of `frames` frames at `sampleTime` into fresh (or, with `nullBuffers`, null) buffers.
    func render(_ unit: AudioUnit, frames: UInt32, sampleTime: Double = 0, nullBuffers: Bool = false) throws -> (status: OSStatus, left: [Float], right: [Float]) {
        let abl = AudioBufferList.allocate(maximumBuffers: 2)
        defer { free(abl.unsafeMutablePointer) }
        var left = [Float](repeating: .nan, count: Int(frames)), right = left
        return try left.withUnsafeMutableBufferPointer { l in
            try right.withUnsafeMutableBufferPointer { r in
                abl[0] = AudioBuffer(mNumberChannels: 1, mDataByteSize: frames * 4, mData: nullBuffers ? nil : UnsafeMutableRawPointer(l.baseAddress))
                abl[1] = AudioBuffer(mNumberChannels: 1, mDataByteSize: frames * 4, mData: nullBuffers ? nil : UnsafeMutableRawPointer(r.baseAddress))
                var ts = AudioTimeStamp()
                ts.mSampleTime = sampleTime
                ts.mFlags = .sampleTimeValid
                var flags = AudioUnitRenderActionFlags()
                let status = AudioUnitRender(unit, &flags, &ts, 0, frames, abl.unsafeMutablePointer)
                let outL = try #require(abl[0].mData).assumingMemoryBound(to: Float.self)
                let outR = try #require(abl[1].mData).assumingMemoryBound(to: Float.self)
                return (status, (0..<Int(frames)).map { outL[$0] }, (0..<Int(frames)).map { outR[$0] })
            }
        }
    }

    func expectedInput(frames: Int, start: Int = 0) -> (left: [Float], right: [Float]) {
        ((0..<frames).map { Float((start + $0) % 1000) / 1000 }, (0..<frames).map { -Float((start + $0) % 500) / 500 })
    }

    @Test func registeredSubclassIsAComponent() throws {
        var d = V3GainUnit.description
        let component = try #require(AudioComponentFindNext(nil, &d))
        var name: Unmanaged<CFString>?
        #expect(AudioComponentCopyName(component, &name) == noErr)
        #expect(name?.takeRetainedValue() as String? == "OCA Tests: Gain")
        var version: UInt32 = 0
        AudioComponentGetVersion(component, &version)
        #expect(version == 0x10203)
        var wildcard = AudioComponentDescription(componentType: kAudioUnitType_Effect, componentSubType: 0, componentManufacturer: 0x4f63_6174,
                                                 componentFlags: 0, componentFlagsMask: 0)
        #expect(AudioComponentCount(&wildcard) >= 2)  // other tests register more

        var unit: AUAudioUnit?
        var failure: Error?
        AUAudioUnit.instantiate(with: V3GainUnit.description) { unit = $0; failure = $1 }
        #expect(failure == nil)
        let gain = try #require(unit as? V3GainUnit)
        #expect(gain.componentName == "OCA Tests: Gain")
        #expect(gain.manufacturerName == "OCA Tests")
        #expect(gain.audioUnitName == "Gain")
        #expect(gain.componentVersion == 0x10203)
        #expect(gain.component == component)
        #expect(gain.inputBusses.count == 1 && gain.outputBusses.count == 1)
        #expect(gain.outputBusses[0].busType == .output && gain.outputBusses[0].ownerAudioUnit === gain)

        // A description nothing matches, and a v2 unit (AUAudioUnitV2Bridge is not implemented).
        var missing: Error?
        AUAudioUnit.instantiate(with: AudioComponentDescription(componentType: 0x6e6f_6e65, componentSubType: 1, componentManufacturer: 1,
                                                                componentFlags: 0, componentFlagsMask: 0)) { _, e in missing = e }
        #expect(missing != nil)
    }

    /// (1) Through the C API with a render callback as input: output = input × gain, exactly, in caller buffers and
    /// in the unit's own (null buffers).
    @Test func rendersThroughTheV2API() throws {
        let unit = try newUnit(V3GainUnit.description)
        defer { AudioComponentInstanceDispose(unit) }
        setSource(unit)
        #expect(AudioUnitSetParameter(unit, 0, kAudioUnitScope_Global, 0, 0.5, 0) == noErr)
        #expect(AudioUnitInitialize(unit) == noErr)
        defer { AudioUnitUninitialize(unit) }
        for (slice, nullBuffers) in [(0, false), (1, true), (2, false)] {
            let out = try render(unit, frames: 512, sampleTime: Double(slice * 512), nullBuffers: nullBuffers)
            #expect(out.status == noErr)
            let input = expectedInput(frames: 512, start: slice * 512)
            #expect(out.left == input.left.map { $0 * 0.5 })
            #expect(out.right == input.right.map { $0 * 0.5 })
        }
        // More frames than MaximumFramesPerSlice (the unit's maximumFramesToRender, 512 by default).
        #expect(try render(unit, frames: 513).status == kAudioUnitErr_TooManyFramesToProcess)
    }

    /// Properties of the C API answered by the AUAudioUnit: stream formats (both ways), maximum frames, latency,
    /// initialize and uninitialize.
    @Test func v2PropertiesMapToTheUnit() throws {
        let unit = try newUnit(V3GainUnit.description)
        defer { AudioComponentInstanceDispose(unit) }
        var format = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        #expect(AudioUnitGetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, &size) == noErr)
        #expect(format.mChannelsPerFrame == 2 && format.mSampleRate == 44100)

        // Instances made through the C API are reachable only through it; find the object through the v2 state.
        var frames: UInt32 = 0
        size = 4
        #expect(AudioUnitGetProperty(unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &frames, &size) == noErr)
        #expect(frames == 512)
        frames = 4096
        #expect(AudioUnitSetProperty(unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &frames, 4) == noErr)

        var mono = floatFormat(channels: 1, rate: 48000)
        #expect(AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &mono, UInt32(MemoryLayout.size(ofValue: mono))) == noErr)
        #expect(AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &mono, UInt32(MemoryLayout.size(ofValue: mono))) == noErr)
        var latency: Float64 = 0
        size = 8
        #expect(AudioUnitGetProperty(unit, kAudioUnitProperty_Latency, kAudioUnitScope_Global, 0, &latency, &size) == noErr)
        #expect(latency == 0.001)

        #expect(AudioUnitInitialize(unit) == noErr)
        // Formats may not change while initialized.
        var stereo = floatFormat(channels: 2)
        #expect(AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &stereo, UInt32(MemoryLayout.size(ofValue: stereo))) != noErr)
        let abl = AudioBufferList.allocate(maximumBuffers: 1)
        defer { free(abl.unsafeMutablePointer) }
        var samples = [Float](repeating: 0, count: 4096)
        var callback = AURenderCallbackStruct(inputProc: { _, _, _, _, frames, ioData in
            let b = UnsafeMutableAudioBufferListPointer(ioData!)[0].mData!.assumingMemoryBound(to: Float.self)
            for i in 0..<Int(frames) { b[i] = 0.25 }
            return noErr
        }, inputProcRefCon: nil)
        AudioUnitSetProperty(unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &callback, UInt32(MemoryLayout<AURenderCallbackStruct>.size))
        AudioUnitSetParameter(unit, 0, kAudioUnitScope_Global, 0, 0.5, 0)
        samples.withUnsafeMutableBytes { raw in abl[0] = AudioBuffer(mNumberChannels: 1, mDataByteSize: 4096 * 4, mData: raw.baseAddress) }
        var ts = AudioTimeStamp()
        ts.mFlags = .sampleTimeValid
        var flags = AudioUnitRenderActionFlags()
        #expect(AudioUnitRender(unit, &flags, &ts, 0, 4096, abl.unsafeMutablePointer) == noErr)
        #expect(samples.allSatisfy { $0 == 0.125 })
        #expect(AudioUnitUninitialize(unit) == noErr)
        #expect(AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &stereo, UInt32(MemoryLayout.size(ofValue: stereo))) == noErr)
    }

    /// The v3 side: bus formats set on the unit reach the C API (and its listeners), and formats set through the C
    /// API reach the busses.
    @Test func busFormatsAndStreamFormatAgree() throws {
        var made: AUAudioUnit?
        AUAudioUnit.instantiate(with: V3GainUnit.description) { unit, _ in made = unit }
        let gain = try #require(made as? V3GainUnit)
        try gain.inputBusses[0].setStreamDescription(floatFormat(channels: 1, rate: 96000))
        #expect(gain.inputBusses[0].streamDescription.mSampleRate == 96000)
        gain.maximumFramesToRender = 256
        try gain.allocateRenderResources()
        #expect(gain.renderResourcesAllocated)
        #expect(throws: (any Error).self) { try gain.inputBusses[0].setStreamDescription(floatFormat(channels: 2)) }
        gain.maximumFramesToRender = 1024  // ignored while allocated
        #expect(gain.maximumFramesToRender == 256)
        gain.deallocateRenderResources()
        #expect(!gain.renderResourcesAllocated)

        // The swap unit takes two channels only.
        var swapMade: AUAudioUnit?
        AUAudioUnit.instantiate(with: V3SwapUnit.description) { unit, _ in swapMade = unit }
        let swap = try #require(swapMade)
        #expect(throws: (any Error).self) { try swap.inputBusses[0].setStreamDescription(floatFormat(channels: 1)) }
        let v2Swap = try newUnit(V3SwapUnit.description)
        defer { AudioComponentInstanceDispose(v2Swap) }
        var mono = floatFormat(channels: 1)
        #expect(AudioUnitSetProperty(v2Swap, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &mono,
                                     UInt32(MemoryLayout.size(ofValue: mono))) == kAudioUnitErr_FormatNotSupported)
        var channels = [AUChannelInfo](repeating: AUChannelInfo(), count: 1)
        var size = UInt32(MemoryLayout<AUChannelInfo>.size)
        #expect(AudioUnitGetProperty(v2Swap, kAudioUnitProperty_SupportedNumChannels, kAudioUnitScope_Global, 0, &channels, &size) == noErr)
        #expect(channels[0].inChannels == 2 && channels[0].outChannels == 2)
    }

    /// The v3 host path: renderBlock with the host's own pull-input block, render observers, scheduled parameters.
    @Test func renderBlockPullsInputAndDeliversEvents() throws {
        var made: AUAudioUnit?
        AUAudioUnit.instantiate(with: V3GainUnit.description) { unit, _ in made = unit }
        let gain = try #require(made as? V3GainUnit)
        let renderBlock = gain.renderBlock
        let schedule = gain.scheduleParameterBlock
        try gain.allocateRenderResources()
        defer { gain.deallocateRenderResources() }
        nonisolated(unsafe) var observed: [AudioUnitRenderActionFlags] = []
        let token = gain.token(byAddingRenderObserver: { flags, _, _, _ in observed.append(flags) })
        let pull: AURenderPullInputBlock = { _, _, frames, _, data in
            for b in UnsafeMutableAudioBufferListPointer(data) {
                let p = b.mData!.assumingMemoryBound(to: Float.self)
                for i in 0..<Int(frames) { p[i] = 0.5 }
            }
            return noErr
        }
        let abl = AudioBufferList.allocate(maximumBuffers: 2)
        defer { free(abl.unsafeMutablePointer) }
        func renderOnce(at time: Double) -> [Float] {
            abl[0] = AudioBuffer(mNumberChannels: 1, mDataByteSize: 0, mData: nil)
            abl[1] = AudioBuffer(mNumberChannels: 1, mDataByteSize: 0, mData: nil)
            var ts = AudioTimeStamp()
            ts.mSampleTime = time
            ts.mFlags = .sampleTimeValid
            var flags = AudioUnitRenderActionFlags()
            #expect(renderBlock(&flags, &ts, 64, 0, abl.unsafeMutablePointer, pull) == noErr)
            let p = abl[1].mData!.assumingMemoryBound(to: Float.self)
            return (0..<64).map { p[$0] }
        }
        #expect(renderOnce(at: 0).allSatisfy { $0 == 0.5 })
        schedule(AUEventSampleTimeImmediate, 0, 0, 0.25)
        schedule(200, 0, 0, 0.75)  // a later cycle's
        #expect(renderOnce(at: 64).allSatisfy { $0 == 0.125 })
        #expect(renderOnce(at: 128).allSatisfy { $0 == 0.125 })
        #expect(renderOnce(at: 192).allSatisfy { $0 == 0.375 })
        #expect(observed.count == 8 && observed[0].contains(.unitRenderAction_PreRender) && observed[1].contains(.unitRenderAction_PostRender))
        gain.removeRenderObserver(token)
        _ = renderOnce(at: 256)
        #expect(observed.count == 8)
    }

    /// (2) In an AUGraph: a render callback source → gain → stereo swap → AUGenericOutput, pulled offline.
    @Test func rendersInAGraph() throws {
        var graph: AUGraph?
        #expect(NewAUGraph(&graph) == noErr)
        let g = try #require(graph)
        defer { DisposeAUGraph(g) }
        var gainNode = AUNode(), swapNode = AUNode(), outputNode = AUNode()
        var gd = V3GainUnit.description, sd = V3SwapUnit.description
        var od = AudioComponentDescription(componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_GenericOutput,
                                           componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        #expect(AUGraphAddNode(g, &gd, &gainNode) == noErr)
        #expect(AUGraphAddNode(g, &sd, &swapNode) == noErr)
        #expect(AUGraphAddNode(g, &od, &outputNode) == noErr)
        #expect(AUGraphOpen(g) == noErr)
        var callback = AURenderCallbackStruct(inputProc: Self.source, inputProcRefCon: nil)
        #expect(AUGraphSetNodeInputCallback(g, gainNode, 0, &callback) == noErr)
        #expect(AUGraphConnectNodeInput(g, gainNode, 0, swapNode, 0) == noErr)
        #expect(AUGraphConnectNodeInput(g, swapNode, 0, outputNode, 0) == noErr)
        var gainUnit: AudioUnit?, outputUnit: AudioUnit?
        AUGraphNodeInfo(g, gainNode, nil, &gainUnit)
        AUGraphNodeInfo(g, outputNode, nil, &outputUnit)
        AudioUnitSetParameter(try #require(gainUnit), 0, kAudioUnitScope_Global, 0, 0.25, 0)
        #expect(AUGraphInitialize(g) == noErr)
        for slice in 0..<3 {
            let out = try render(try #require(outputUnit), frames: 512, sampleTime: Double(slice * 512))
            #expect(out.status == noErr)
            let input = expectedInput(frames: 512, start: slice * 512)
            #expect(out.left == input.right.map { $0 * 0.25 })
            #expect(out.right == input.left.map { $0 * 0.25 })
        }
        #expect(AUGraphUninitialize(g) == noErr)
    }

    /// (3) The AUParameter and AudioUnitGet/SetParameter agree; observers fire (not the originator's), the implementor
    /// hears every change, fullState round-trips through ClassInfo.
    @Test func parametersAgreeAndObserversFire() throws {
        let unit = try newUnit(V3GainUnit.description)
        defer { AudioComponentInstanceDispose(unit) }
        var stateRef: CFPropertyList?
        var size = UInt32(MemoryLayout<CFPropertyList?>.size)
        #expect(AudioUnitGetProperty(unit, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &stateRef, &size) == noErr)
        let state = try #require(stateRef as? NSDictionary)
        #expect((state[kAUPresetSubtypeKey] as? NSNumber)?.uint32Value == V3GainUnit.description.componentSubType)

        // The object behind the handle: instantiate another for the v3 side, and check the v2 side on its own handle.
        var value: AudioUnitParameterValue = -1
        #expect(AudioUnitGetParameter(unit, 0, kAudioUnitScope_Global, 0, &value) == noErr)
        #expect(value == 1)
        #expect(AudioUnitSetParameter(unit, 0, kAudioUnitScope_Global, 0, 0.3, 0) == noErr)
        #expect(AudioUnitGetParameter(unit, 0, kAudioUnitScope_Global, 0, &value) == noErr)
        #expect(value == 0.3)
        #expect(AudioUnitGetParameter(unit, 1, kAudioUnitScope_Global, 0, &value) == kAudioUnitErr_InvalidParameter)
        #expect(AudioUnitSetParameter(unit, 0, kAudioUnitScope_Input, 0, 0.3, 0) == kAudioUnitErr_InvalidParameter)

        // Restore the saved state (gain 1) through ClassInfo.
        var saved: CFPropertyList? = state
        #expect(AudioUnitSetProperty(unit, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &saved, size) == noErr)
        #expect(AudioUnitGetParameter(unit, 0, kAudioUnitScope_Global, 0, &value) == noErr)
        #expect(value == 1)

        var made: AUAudioUnit?
        AUAudioUnit.instantiate(with: V3GainUnit.description) { unit, _ in made = unit }
        let gain = try #require(made as? V3GainUnit)
        let tree = try #require(gain.parameterTree)
        #expect(tree.parameter(withAddress: 0) === gain.gain)
        #expect(tree.allParameters.count == 1 && gain.gain.keyPath == "gain")
        nonisolated(unsafe) var treeHeard: [(AUParameterAddress, AUValue)] = []
        nonisolated(unsafe) var paramHeard: [AUValue] = []
        let treeToken = tree.token(byAddingParameterObserver: { treeHeard.append(($0, $1)) })
        let paramToken = gain.gain.token(byAddingParameterObserver: { _, v in paramHeard.append(v) })
        gain.gain.value = 0.7
        #expect(treeHeard.count == 1 && treeHeard.first?.0 == 0 && treeHeard.first?.1 == 0.7)
        #expect(paramHeard == [0.7])
        gain.gain.setValue(0.6, originator: paramToken)
        #expect(paramHeard == [0.7] && treeHeard.count == 2)
        // The implementor's provider answers the value (its kernel copy).
        #expect(gain.gain.value == 0.6)
        tree.removeParameterObserver(treeToken)
        gain.gain.value = 0.2
        #expect(treeHeard.count == 2 && paramHeard == [0.7, 0.2])
        gain.gain.removeParameterObserver(paramToken)
        #expect(gain.gain.string(fromValue: nil) == "0.20")

        // fullState holds the value and puts it back.
        let full = try #require(gain.fullState)
        gain.gain.value = 0.9
        gain.fullState = full
        #expect(gain.gain.value == 0.2)
    }

    /// The parameter a host sets through AudioUnitSetParameter is the tree's AUParameter (observers hear it).
    @Test func setParameterReachesTheTreeObservers() throws {
        // Make the unit through the v3 API first and register a second component for it, so the test can hold both
        // faces: the C instance's unit is created by the registry, so observe through a tree-level observer set by
        // the unit's own initializer instead.
        final class ObservedGain: AUAudioUnit, @unchecked Sendable {
            nonisolated(unsafe) static var heard: [AUValue] = []
            private var busses: (AUAudioUnitBusArray, AUAudioUnitBusArray)!
            override init(componentDescription: AudioComponentDescription, options: AudioComponentInstantiationOptions = []) throws {
                try super.init(componentDescription: componentDescription, options: options)
                let format = floatFormat(channels: 2)
                busses = (AUAudioUnitBusArray(audioUnit: self, busType: .input, busses: [try AUAudioUnitBus(streamDescription: format)]),
                          AUAudioUnitBusArray(audioUnit: self, busType: .output, busses: [try AUAudioUnitBus(streamDescription: format)]))
                let level = AUParameterTree.createParameter(withIdentifier: "level", name: "Level", address: 7, min: -96, max: 6,
                                                            unit: .decibels, unitName: nil, flags: [.flag_IsReadable, .flag_IsWritable],
                                                            valueStrings: nil, dependentParameters: nil)
                let mode = AUParameterTree.createParameter(withIdentifier: "mode", name: "Mode", address: 9, min: 0, max: 2, unit: .indexed,
                                                           unitName: nil, flags: [.flag_IsReadable, .flag_IsWritable],
                                                           valueStrings: ["Soft", "Medium", "Hard"], dependentParameters: nil)
                let tree = AUParameterTree.createTree(withChildren: [AUParameterTree.createGroup(withIdentifier: "out", name: "Output",
                                                                                                 children: [level, mode])])
                tree.implementorValueObserver = { _, value in ObservedGain.heard.append(value) }
                parameterTree = tree
            }
            override var inputBusses: AUAudioUnitBusArray { busses.0 }
            override var outputBusses: AUAudioUnitBusArray { busses.1 }
        }
        let description = AudioComponentDescription(componentType: kAudioUnitType_Effect, componentSubType: 0x7470_6172 /* tpar */,
                                                    componentManufacturer: 0x4f63_6174, componentFlags: 0, componentFlagsMask: 0)
        AUAudioUnit.registerSubclass(ObservedGain.self, as: description, name: "OCA Tests: Parameters", version: 1)
        let unit = try newUnit(description)
        defer { AudioComponentInstanceDispose(unit) }
        #expect(AudioUnitSetParameter(unit, 7, kAudioUnitScope_Global, 0, -6, 0) == noErr)
        #expect(ObservedGain.heard == [-6])

        // (5) ParameterList and ParameterInfo through the C API.
        var size: UInt32 = 0
        var writable: DarwinBoolean = false
        #expect(AudioUnitGetPropertyInfo(unit, kAudioUnitProperty_ParameterList, kAudioUnitScope_Global, 0, &size, &writable) == noErr)
        #expect(size == 8)
        var ids = [AudioUnitParameterID](repeating: 0, count: 2)
        #expect(AudioUnitGetProperty(unit, kAudioUnitProperty_ParameterList, kAudioUnitScope_Global, 0, &ids, &size) == noErr)
        #expect(ids == [7, 9])
        #expect(AudioUnitGetPropertyInfo(unit, kAudioUnitProperty_ParameterList, kAudioUnitScope_Input, 0, &size, &writable) == noErr)
        #expect(size == 0)
        var info = AudioUnitParameterInfo()
        size = UInt32(MemoryLayout<AudioUnitParameterInfo>.size)
        #expect(AudioUnitGetProperty(unit, kAudioUnitProperty_ParameterInfo, kAudioUnitScope_Global, 7, &info, &size) == noErr)
        #expect(info.cfNameString?.takeRetainedValue() as String? == "Level")
        #expect(info.unit == .decibels && info.minValue == -96 && info.maxValue == 6 && info.defaultValue == -6)
        #expect(info.flags.contains(.flag_IsReadable) && info.flags.contains(.flag_IsWritable) && info.flags.contains(.flag_HasCFNameString))
        let name = withUnsafeBytes(of: info.name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
        #expect(name == "Level")
        #expect(AudioUnitGetProperty(unit, kAudioUnitProperty_ParameterInfo, kAudioUnitScope_Global, 9, &info, &size) == noErr)
        #expect(info.unit == .indexed && info.flags.contains(.flag_ValuesHaveStrings))
        info.cfNameString?.release()
        #expect(AudioUnitGetProperty(unit, kAudioUnitProperty_ParameterInfo, kAudioUnitScope_Global, 8, &info, &size) == kAudioUnitErr_InvalidParameter)

        var made: AUAudioUnit?
        AUAudioUnit.instantiate(with: description) { unit, _ in made = unit }
        let tree = try #require(made?.parameterTree)
        let mode = try #require(tree.parameter(withAddress: 9))
        #expect(mode.keyPath == "out.mode")
        var two: AUValue = 2
        #expect(mode.string(fromValue: &two) == "Hard")
        #expect(mode.value(from: "Medium") == 1)
    }

    /// (4) AudioUnitRender of an AUAudioUnit subclass allocates nothing (caller buffers and the unit's own), also
    /// with AudioUnitSetParameter and scheduled parameters on the render thread.
    @Test(arguments: [false, true]) func renderAllocatesNothing(nullBuffers: Bool) throws {
        let unit = try newUnit(V3GainUnit.description)
        defer { AudioComponentInstanceDispose(unit) }
        setSource(unit)
        #expect(AudioUnitInitialize(unit) == noErr)
        defer { AudioUnitUninitialize(unit) }
        let frames: UInt32 = 256
        let abl = AudioBufferList.allocate(maximumBuffers: 2)
        defer { free(abl.unsafeMutablePointer) }
        let memory = UnsafeMutablePointer<Float>.allocate(capacity: Int(frames) * 2)
        defer { memory.deallocate() }
        var ts = AudioTimeStamp()
        ts.mFlags = .sampleTimeValid
        var flags = AudioUnitRenderActionFlags()
        var failures = 0
        var event = AudioUnitParameterEvent()
        event.scope = kAudioUnitScope_Global
        event.parameter = 0
        event.eventType = .parameterEvent_Immediate
        event.eventValues.immediate.value = 0.5
        func renderOne() {
            for b in 0..<2 {
                abl[b] = AudioBuffer(mNumberChannels: 1, mDataByteSize: frames * 4,
                                     mData: nullBuffers ? nil : UnsafeMutableRawPointer(memory + b * Int(frames)))
            }
            if AudioUnitSetParameter(unit, 0, kAudioUnitScope_Global, 0, 0.8, 0) != noErr { failures += 1 }
            if AudioUnitScheduleParameters(unit, &event, 1) != noErr { failures += 1 }
            if AudioUnitRender(unit, &flags, &ts, 0, frames, abl.unsafeMutablePointer) != noErr { failures += 1 }
            ts.mSampleTime += Double(frames)
        }
        renderOne()
        oca_alloc_counting_start()
        oca_realtime_enter()
        for _ in 0..<200 { renderOne() }
        oca_realtime_exit()
        let count = oca_alloc_counting_stop()
        #expect(failures == 0)
        #expect(count == 0)
        // The scheduled 0.5 won over the 0.8 set before the render.
        let last = Int(ts.mSampleTime) - Int(frames)
        #expect(abl[0].mData!.assumingMemoryBound(to: Float.self)[10] == Float((last + 10) % 1000) / 1000 * 0.5)
    }
}
