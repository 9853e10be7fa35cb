// Client code of the macOS 10.4 era, still compiled today: AudioConverterFillBuffer with a byte-count input
// callback, graphs queried by connection (AUGraphGetConnectionInfo and friends) and built with the Component
// Manager's description, and a host that gives its units musical-time callbacks.
import AudioToolbox
import Foundation
import Testing

/// The input side of a FillBuffer client: interleaved Int16 handed out in fixed-size chunks.
private final class ChunkedInput {
    var samples: [Int16]
    let chunkBytes: Int
    var offset = 0
    var calls = 0
    var chunk: [Int16] = []

    init(samples: [Int16], chunkBytes: Int) {
        self.samples = samples
        self.chunkBytes = chunkBytes
    }
}

private let chunkedInputProc: AudioConverterInputDataProc = { _, ioDataSize, outData, userData in
    let input = Unmanaged<ChunkedInput>.fromOpaque(userData!).takeUnretainedValue()
    input.calls += 1
    let count = min(input.chunkBytes / 2, input.samples.count - input.offset)
    input.chunk = Array(input.samples[input.offset..<input.offset + count])
    input.offset += count
    ioDataSize.pointee = UInt32(count * 2)
    input.chunk.withUnsafeMutableBytes { outData.pointee = $0.baseAddress! }
    return noErr
}

private func pcm(float: Bool, channels: UInt32, rate: Double = 44100) -> AudioStreamBasicDescription {
    let bytes: UInt32 = float ? 4 : 2
    return AudioStreamBasicDescription(mSampleRate: rate, mFormatID: kAudioFormatLinearPCM,
                                       mFormatFlags: float ? kAudioFormatFlagsNativeFloatPacked
                                                           : kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked,
                                       mBytesPerPacket: bytes * channels, mFramesPerPacket: 1, mBytesPerFrame: bytes * channels,
                                       mChannelsPerFrame: channels, mBitsPerChannel: bytes * 8, mReserved: 0)
}

/// Converts `samples` (interleaved stereo Int16) to interleaved stereo Float32 with FillBuffer calls of
/// `outputBytes` each; returns the floats and how many calls ended at 0 bytes.
private func fillBufferConvert(_ samples: [Int16], inputChunkBytes: Int, outputBytes: Int) -> [Float] {
    var input = pcm(float: false, channels: 2), output = pcm(float: true, channels: 2)
    var converter: AudioConverterRef?
    #expect(AudioConverterNew(&input, &output, &converter) == noErr)
    defer { AudioConverterDispose(converter!) }
    let source = ChunkedInput(samples: samples, chunkBytes: inputChunkBytes)
    var result: [Float] = []
    var buffer = [Float](repeating: .nan, count: outputBytes / 4)
    while true {
        var size = UInt32(outputBytes)
        let status = buffer.withUnsafeMutableBytes {
            AudioConverterFillBuffer(converter!, chunkedInputProc, Unmanaged.passUnretained(source).toOpaque(), &size, $0.baseAddress!)
        }
        #expect(status == noErr)
        if size == 0 { break }
        #expect(size % 8 == 0)
        result += buffer[0..<Int(size) / 4]
    }
    return result
}

@Suite struct LegacyCallsClientTests {
    @Test func fillBufferConvertsInt16ToFloatExactlyWhateverTheChunking() {
        // A ramp over the whole Int16 range, left and right differing, 3,001 frames.
        let frames = 3001
        var samples: [Int16] = []
        for i in 0..<frames {
            samples.append(Int16(truncatingIfNeeded: i * 21 - 32768))
            samples.append(Int16(truncatingIfNeeded: 32767 - i * 13))
        }
        let expected = samples.map { Float($0) / 32768 }
        let oneGo = fillBufferConvert(samples, inputChunkBytes: 1 << 20, outputBytes: frames * 8 + 800)
        #expect(oneGo == expected)
        // Small and odd sizes: input chunks of 100 bytes (25 frames), output buffers of 7 frames plus 3 stray bytes.
        let chunked = fillBufferConvert(samples, inputChunkBytes: 100, outputBytes: 7 * 8 + 3)
        #expect(chunked == expected)
    }

    @Test func fillBufferReturnsTheCallbacksErrorWithWhatItProduced() {
        var input = pcm(float: false, channels: 1), output = pcm(float: true, channels: 1)
        var converter: AudioConverterRef?
        #expect(AudioConverterNew(&input, &output, &converter) == noErr)
        defer { AudioConverterDispose(converter!) }
        let failing: AudioConverterInputDataProc = { _, ioDataSize, _, _ in
            ioDataSize.pointee = 0
            return -1234
        }
        var out = [Float](repeating: 0, count: 64)
        var size = UInt32(out.count * 4)
        let status = out.withUnsafeMutableBytes { AudioConverterFillBuffer(converter!, failing, nil, &size, $0.baseAddress!) }
        #expect(status == -1234)
        #expect(size == 0)
    }

    @Test func legacyGraphQueriesListConnectionsButNotCallbacks() throws {
        var graph: AUGraph?
        #expect(NewAUGraph(&graph) == noErr)
        defer { DisposeAUGraph(graph!) }
        var mixerDescription = ComponentDescription(componentType: kAudioUnitType_Mixer, componentSubType: kAudioUnitSubType_MultiChannelMixer,
                                                    componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0,
                                                    componentFlagsMask: 0)
        var outputDescription = ComponentDescription(componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_GenericOutput,
                                                     componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0,
                                                     componentFlagsMask: 0)
        var mixer = AUNode(), output = AUNode(), noClassData: UInt8 = 0
        #expect(AUGraphNewNode(graph!, &mixerDescription, 0, &noClassData, &mixer) == noErr)
        #expect(AUGraphNewNode(graph!, &outputDescription, 0, &noClassData, &output) == noErr)
        #expect(AUGraphConnectNodeInput(graph!, mixer, 0, output, 0) == noErr)
        var callback = AURenderCallbackStruct(inputProc: { _, _, _, _, _, _ in noErr }, inputProcRefCon: nil)
        #expect(AUGraphSetNodeInputCallback(graph!, mixer, 1, &callback) == noErr)

        var interactions: UInt32 = 0, connections: UInt32 = 0
        #expect(AUGraphGetNumberOfInteractions(graph!, &interactions) == noErr)
        #expect(AUGraphGetNumberOfConnections(graph!, &connections) == noErr)
        #expect(interactions == 2)
        #expect(connections == 1)

        var source = AUNode(-1), sourceBus: UInt32 = 9, dest = AUNode(-1), destBus: UInt32 = 9
        #expect(AUGraphGetConnectionInfo(graph!, 0, &source, &sourceBus, &dest, &destBus) == noErr)
        #expect(source == mixer && sourceBus == 0 && dest == output && destBus == 0)
        #expect(AUGraphGetConnectionInfo(graph!, 1, &source, &sourceBus, &dest, &destBus) != noErr)

        var mixerCount: UInt32 = 0, outputCount: UInt32 = 0
        #expect(AUGraphCountNodeConnections(graph!, mixer, &mixerCount) == noErr)
        #expect(AUGraphCountNodeConnections(graph!, output, &outputCount) == noErr)
        #expect(mixerCount == 1 && outputCount == 1)
        var list = [AudioUnitNodeConnection](repeating: AudioUnitNodeConnection(), count: 4)
        var n = UInt32(list.count)
        #expect(AUGraphGetNodeConnections(graph!, output, &list, &n) == noErr)
        #expect(n == 1)
        #expect(list[0].sourceNode == mixer && list[0].destNode == output && list[0].destInputNumber == 0)

        // Node info: the description back, no class data, and a unit once the graph is open.
        var described = ComponentDescription(), classSize: UInt32 = 99, classData = UnsafeMutableRawPointer(bitPattern: 0x40)
        var unit: AudioUnit?
        #expect(AUGraphGetNodeInfo(graph!, mixer, &described, &classSize, &classData, &unit) == noErr)
        #expect(described.componentSubType == kAudioUnitSubType_MultiChannelMixer && described.componentType == kAudioUnitType_Mixer)
        #expect(classSize == 0 && classData == nil && unit == nil)
        #expect(AUGraphOpen(graph!) == noErr)
        #expect(AUGraphGetNodeInfo(graph!, mixer, &described, &classSize, nil, &unit) == noErr)
        let opened = try #require(unit)
        var elementCount: UInt32 = 0, size = UInt32(4)
        #expect(AudioUnitGetProperty(opened, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, &elementCount, &size) == noErr)
        #expect(elementCount >= 2)
    }

    @Test func aUnitKeepsTheHostCallbacksItIsGiven() throws {
        var description = AudioComponentDescription(componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_Delay,
                                                    componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0,
                                                    componentFlagsMask: 0)
        let component = try #require(AudioComponentFindNext(nil, &description))
        var unit: AudioUnit?
        #expect(AudioComponentInstanceNew(component, &unit) == noErr)
        defer { AudioComponentInstanceDispose(unit!) }
        let tempo = UnsafeMutablePointer<Double>.allocate(capacity: 1)
        defer { tempo.deallocate() }
        tempo.pointee = 96
        var info = HostCallbackInfo(hostUserData: tempo, beatAndTempoProc: { userData, beat, outTempo in
            beat?.pointee = 4
            outTempo?.pointee = userData!.load(as: Double.self)
            return noErr
        }, musicalTimeLocationProc: nil, transportStateProc: { _, isPlaying, changed, sampleInTimeLine, isCycling, _, _ in
            // Apple's Boolean pointers are DarwinBoolean: a host writes Bool literals through them.
            isPlaying?.pointee = true
            changed?.pointee = false
            isCycling?.pointee = false
            sampleInTimeLine?.pointee = 44100
            return noErr
        }, transportStateProc2: nil)
        #expect(AudioUnitSetProperty(unit!, kAudioUnitProperty_HostCallbacks, kAudioUnitScope_Global, 0, &info,
                                     UInt32(MemoryLayout<HostCallbackInfo>.size)) == noErr)
        var back = HostCallbackInfo()
        var size = UInt32(MemoryLayout<HostCallbackInfo>.size)
        #expect(AudioUnitGetProperty(unit!, kAudioUnitProperty_HostCallbacks, kAudioUnitScope_Global, 0, &back, &size) == noErr)
        #expect(size == UInt32(MemoryLayout<HostCallbackInfo>.size))
        #expect(back.hostUserData == info.hostUserData)
        #expect(back.musicalTimeLocationProc == nil && back.transportStateProc2 == nil)
        // The unit's copy of the callback is the host's: calling it reaches the host's tempo.
        var beat = 0.0, currentTempo = 0.0
        #expect(back.beatAndTempoProc?(back.hostUserData, &beat, &currentTempo) == noErr)
        #expect(beat == 4 && currentTempo == 96)
        var playing: DarwinBoolean = false, changed: DarwinBoolean = true, cycling: DarwinBoolean = true
        var sample = 0.0, cycleStart = 0.0, cycleEnd = 0.0
        #expect(back.transportStateProc?(back.hostUserData, &playing, &changed, &sample, &cycling, &cycleStart, &cycleEnd) == noErr)
        #expect(playing.boolValue && !changed.boolValue && !cycling.boolValue && sample == 44100)
    }

    @Test func propertyStructsHaveTheCLayouts() {
        // Sizes of the C structs on 64-bit macOS, which a unit checks a property's data size against.
        #expect(MemoryLayout<AudioUnitMeterClipping>.stride == 8)
        #expect(MemoryLayout<AUVoiceIOOtherAudioDuckingConfiguration>.stride == 8)
        #expect(MemoryLayout<HostCallbackInfo>.stride == 40)
        #expect(MemoryLayout<AudioUnitFrequencyResponseBin>.stride == 16)
        #expect(MemoryLayout<AudioOutputUnitStartAtTimeParams>.stride == 72)
        #expect(MemoryLayout<AUDependentParameter>.stride == 8)
        #expect(MemoryLayout<AUNumVersion>.stride == 4)
        #expect(MemoryLayout<AudioUnitMIDIControlMapping>.stride == 12)
        #expect(MemoryLayout<AUSamplerBankPresetData>.stride == 16)
        #expect(MemoryLayout<AudioOutputUnitMIDICallbacks>.stride == 24)
        #expect(MemoryLayout<AudioUnitExternalBuffer>.stride == 16)
        var clip = AudioUnitMeterClipping(peakValueSinceLastCall: 1.5, sawInfinity: true, sawNotANumber: false)
        withUnsafeBytes(of: &clip) { bytes in
            #expect(bytes.load(as: Float32.self) == 1.5)
            #expect(bytes[4] == 1 && bytes[5] == 0)
        }
        let ducking = AUVoiceIOOtherAudioDuckingConfiguration(mEnableAdvancedDucking: true, mDuckingLevel: .max)
        #expect(ducking.mEnableAdvancedDucking.boolValue && ducking.mDuckingLevel.rawValue == 30)
        let version = AUNumVersion(nonRelRev: 4, stage: 3, minorAndBugRev: 2, majorRev: 1)
        #expect(withUnsafeBytes(of: version) { $0.load(as: UInt32.self) } == 0x0102_0304)
        let session: AudioSessionID = 7
        let integer: AVAudioInteger = -1
        let unsigned: AVAudioUInteger = 1
        #expect(session == 7 && integer == -1 && unsigned == 1 && MemoryLayout<AVAudioInteger>.size == 8)
    }
}
