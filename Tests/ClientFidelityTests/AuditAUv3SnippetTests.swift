// Audit snippets, fourth round: an AUv3 effect written as Apple's Xcode template writes one (busses, a parameter
// tree with implementor callbacks, an internal render block pulling its input), registered with registerSubclass
// and hosted by AVAudioEngine offline; the v2 C API's parameter list and property listeners. Apple's API only.
import AVFoundation
import Foundation
import Testing

/// The template's gain effect.
final class AuditGainAudioUnit: AUAudioUnit, @unchecked Sendable {
    private var _inputBusses: AUAudioUnitBusArray!
    private var _outputBusses: AUAudioUnitBusArray!
    private let gainValue = Shared<AUValue>(1)

    static let componentDescription = AudioComponentDescription(componentType: kAudioUnitType_Effect,
                                                                componentSubType: 0x6761_696e /* 'gain' */,
                                                                componentManufacturer: 0x4164_7420 /* 'Adt ' */,
                                                                componentFlags: 0, componentFlagsMask: 0)

    override init(componentDescription: AudioComponentDescription, options: AudioComponentInstantiationOptions = []) throws {
        try super.init(componentDescription: componentDescription, options: options)
        let format = AVAudioFormat(standardFormatWithSampleRate: 44100, channels: 2)!
        let inputBus = try AUAudioUnitBus(format: format)
        let outputBus = try AUAudioUnitBus(format: format)
        _inputBusses = AUAudioUnitBusArray(audioUnit: self, busType: .input, busses: [inputBus])
        _outputBusses = AUAudioUnitBusArray(audioUnit: self, busType: .output, busses: [outputBus])

        let gain = AUParameterTree.createParameter(withIdentifier: "gain", name: "Gain", address: 0, min: 0, max: 1,
                                                   unit: .linearGain, unitName: nil,
                                                   flags: [.flag_IsReadable, .flag_IsWritable, .flag_CanRamp],
                                                   valueStrings: nil, dependentParameters: nil)
        let tree = AUParameterTree.createTree(withChildren: [gain])
        tree.implementorValueObserver = { [gainValue] parameter, value in
            if parameter.address == 0 { gainValue.value = value }
        }
        tree.implementorValueProvider = { [gainValue] parameter in
            parameter.address == 0 ? gainValue.value : 0
        }
        tree.implementorStringFromValueCallback = { parameter, value in
            String(format: "%.2f", value?.pointee ?? parameter.value)
        }
        parameterTree = tree
        gain.value = 1
    }

    override var inputBusses: AUAudioUnitBusArray { _inputBusses }
    override var outputBusses: AUAudioUnitBusArray { _outputBusses }

    override func allocateRenderResources() throws {
        try super.allocateRenderResources()
    }

    override var internalRenderBlock: AUInternalRenderBlock {
        let gainValue = self.gainValue
        return { actionFlags, timestamp, frameCount, outputBusNumber, outputData, realtimeEventListHead, pullInputBlock in
            guard let pullInputBlock else { return kAudioUnitErr_NoConnection }
            var pullFlags = AudioUnitRenderActionFlags()
            let status = pullInputBlock(&pullFlags, timestamp, frameCount, 0, outputData)
            guard status == noErr else { return status }
            let gain = gainValue.value
            for buffer in UnsafeMutableAudioBufferListPointer(outputData) {
                let samples = buffer.mData!.assumingMemoryBound(to: Float.self)
                for i in 0..<Int(frameCount) { samples[i] *= gain }
            }
            return noErr
        }
    }
}

@Suite struct AuditAUv3SnippetTests {
    static let registered: Void = {
        AUAudioUnit.registerSubclass(AuditGainAudioUnit.self, as: AuditGainAudioUnit.componentDescription,
                                     name: "Audit: Gain", version: 0x0001_0000)
    }()

    @Test func templateEffectInAnEngine() async throws {
        _ = Self.registered
        let avUnit = try await AVAudioUnit.instantiate(with: AuditGainAudioUnit.componentDescription, options: [])
        #expect(avUnit.name == "Gain")
        #expect(avUnit.manufacturerName == "Audit")
        #expect(avUnit.auAudioUnit is AuditGainAudioUnit)
        let gain = try #require(avUnit.auAudioUnit.parameterTree?.parameter(withAddress: 0))
        #expect(gain.identifier == "gain")
        #expect(gain.keyPath == "gain")
        gain.value = 0.25
        #expect(gain.value == 0.25)
        #expect(gain.string(fromValue: nil) == "0.25")

        let engine = AVAudioEngine()
        let source = AVAudioSourceNode { _, _, frameCount, audioBufferList -> OSStatus in
            for buffer in UnsafeMutableAudioBufferListPointer(audioBufferList) {
                let samples = buffer.mData!.assumingMemoryBound(to: Float.self)
                for i in 0..<Int(frameCount) { samples[i] = 0.8 }
            }
            return noErr
        }
        engine.attach(source)
        engine.attach(avUnit)
        let format = AVAudioFormat(standardFormatWithSampleRate: 44100, channels: 2)!
        engine.connect(source, to: avUnit, format: format)
        engine.connect(avUnit, to: engine.mainMixerNode, format: format)
        try engine.enableManualRenderingMode(.offline, format: format, maximumFrameCount: 512)
        try engine.start()
        let out = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 512)!
        #expect(try engine.renderOffline(512, to: out) == .success)
        #expect(abs(out.floatChannelData![1][100] - 0.2) < 1e-6, "\(out.floatChannelData![1][100])")
        engine.stop()
    }

    /// The C API on the same unit: its parameter list, a parameter through AudioUnitGetParameter, a property listener.
    @Test func templateEffectThroughTheCAPI() throws {
        _ = Self.registered
        var description = AuditGainAudioUnit.componentDescription
        let component = try #require(AudioComponentFindNext(nil, &description))
        var name: Unmanaged<CFString>?
        #expect(AudioComponentCopyName(component, &name) == noErr)
        #expect(name?.takeRetainedValue() as String? == "Audit: Gain")
        var unit: AudioUnit?
        try #require(AudioComponentInstanceNew(component, &unit) == noErr)
        defer { AudioComponentInstanceDispose(unit!) }
        var size: UInt32 = 0
        var writable: DarwinBoolean = false
        #expect(AudioUnitGetPropertyInfo(unit!, kAudioUnitProperty_ParameterList, kAudioUnitScope_Global, 0, &size, &writable) == noErr)
        #expect(size == UInt32(MemoryLayout<AudioUnitParameterID>.size))
        var ids = [AudioUnitParameterID](repeating: 99, count: 1)
        #expect(AudioUnitGetProperty(unit!, kAudioUnitProperty_ParameterList, kAudioUnitScope_Global, 0, &ids, &size) == noErr)
        #expect(ids == [0])
        #expect(AudioUnitSetParameter(unit!, 0, kAudioUnitScope_Global, 0, 0.5, 0) == noErr)
        var value: AudioUnitParameterValue = 0
        #expect(AudioUnitGetParameter(unit!, 0, kAudioUnitScope_Global, 0, &value) == noErr)
        #expect(value == 0.5)

        let changes = Shared(0)
        let listener: AudioUnitPropertyListenerProc = { refCon, unit, propertyID, scope, element in
            Unmanaged<Shared<Int>>.fromOpaque(refCon).takeUnretainedValue().mutate { $0 += 1 }
        }
        let refCon = Unmanaged.passUnretained(changes).toOpaque()
        #expect(AudioUnitAddPropertyListener(unit!, kAudioUnitProperty_StreamFormat, listener, refCon) == noErr)
        var format = AudioStreamBasicDescription(mSampleRate: 48000, mFormatID: kAudioFormatLinearPCM,
                                                 mFormatFlags: kAudioFormatFlagsNativeFloatPacked | kAudioFormatFlagIsNonInterleaved,
                                                 mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4,
                                                 mChannelsPerFrame: 2, mBitsPerChannel: 32, mReserved: 0)
        #expect(AudioUnitSetProperty(unit!, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &format,
                                     UInt32(MemoryLayout<AudioStreamBasicDescription>.size)) == noErr)
        #expect(changes.value >= 1)
        #expect(AudioUnitRemovePropertyListenerWithUserData(unit!, kAudioUnitProperty_StreamFormat, listener, refCon) == noErr)
    }
}
