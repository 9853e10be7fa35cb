import AVFoundation
import Foundation
import Testing

/// A gain unit as Apple's audio unit templates write one: busses made from AVAudioFormats.
final class AVFGainUnit: AUAudioUnit {
    static let description = AudioComponentDescription(componentType: kAudioUnitType_Effect, componentSubType: 0x6176_676e /* avgn */,
                                                       componentManufacturer: 0x4f63_6174 /* Ocat */, componentFlags: 0, componentFlagsMask: 0)
    static let registered: Bool = {
        AUAudioUnit.registerSubclass(AVFGainUnit.self, as: description, name: "OCA Tests: AVF Gain", version: 1)
        return true
    }()

    private var inputBusArray: AUAudioUnitBusArray!
    private var outputBusArray: AUAudioUnitBusArray!
    private let gain: AUParameter
    private let kernelGain = UnsafeMutablePointer<Float>.allocate(capacity: 1)

    override init(componentDescription: AudioComponentDescription, options: AudioComponentInstantiationOptions = []) throws {
        gain = AUParameterTree.createParameter(withIdentifier: "gain", name: "Gain", address: 0, min: 0, max: 1, unit: .linearGain,
                                               unitName: nil, flags: [.flag_IsReadable, .flag_IsWritable], valueStrings: nil,
                                               dependentParameters: nil)
        try super.init(componentDescription: componentDescription, options: options)
        let format = AVAudioFormat(standardFormatWithSampleRate: 44100, channels: 2)!
        inputBusArray = AUAudioUnitBusArray(audioUnit: self, busType: .input, busses: [try AUAudioUnitBus(format: format)])
        outputBusArray = AUAudioUnitBusArray(audioUnit: self, busType: .output, busses: [try AUAudioUnitBus(format: format)])
        let kernelGain = kernelGain
        kernelGain.pointee = 1
        let tree = AUParameterTree.createTree(withChildren: [gain])
        tree.implementorValueObserver = { _, value in kernelGain.pointee = value }
        tree.implementorValueProvider = { _ in kernelGain.pointee }
        parameterTree = tree
    }

    deinit { kernelGain.deallocate() }

    override var inputBusses: AUAudioUnitBusArray { inputBusArray }
    override var outputBusses: AUAudioUnitBusArray { outputBusArray }

    override var internalRenderBlock: AUInternalRenderBlock {
        let kernelGain = kernelGain
        return { flags, timestamp, frames, _, output, _, pullInput in
            guard let pullInput else { return kAudioUnitErr_NoConnection }
            let status = pullInput(flags, timestamp, frames, 0, output)
            guard status == noErr else { return status }
            let buffers = UnsafeMutableAudioBufferListPointer(output)
            for b in 0..<buffers.count {
                let samples = buffers[b].mData!.assumingMemoryBound(to: Float.self)
                for i in 0..<Int(frames) { samples[i] *= kernelGain.pointee }
            }
            return noErr
        }
    }
}

@Suite struct AUAudioUnitFormatTests {
    @Test func busTakesAndAnswersAnAVAudioFormat() throws {
        #expect(AVFGainUnit.registered)
        let stereo = AVAudioFormat(standardFormatWithSampleRate: 44100, channels: 2)!
        let bus = try AUAudioUnitBus(format: stereo)
        #expect(bus.format === stereo)
        let mono = AVAudioFormat(standardFormatWithSampleRate: 48000, channels: 1)!
        try bus.setFormat(mono)
        #expect(bus.format === mono)
        bus.maximumChannelCount = 2
        #expect(throws: (any Error).self) { try bus.setFormat(AVAudioFormat(standardFormatWithSampleRate: 48000, channels: 6)!) }
        #expect(bus.format.sampleRate == 48000 && bus.format.channelCount == 1)

        var made: AUAudioUnit?
        AUAudioUnit.instantiate(with: AVFGainUnit.description) { unit, _ in made = unit }
        let unit = try #require(made)
        #expect(unit.outputBusses[0].format.isStandard && unit.outputBusses[0].format.channelCount == 2)
        // A format set from elsewhere (the C API's StreamFormat sets the description) shows as a new AVAudioFormat.
        try unit.outputBusses[0].setStreamDescription(mono.streamDescription.pointee)
        #expect(unit.outputBusses[0].format !== mono && unit.outputBusses[0].format == mono)
    }

    /// The registered unit as an AVAudioUnitEffect in an offline engine: player → gain → main mixer.
    @Test func runsAsAnEngineEffect() throws {
        #expect(AVFGainUnit.registered)
        var node: AVAudioUnit?
        var failure: Error?
        AVAudioUnit.instantiate(with: AVFGainUnit.description) { node = $0; failure = $1 }
        #expect(failure == nil)
        let effect = try #require(node as? AVAudioUnitEffect)
        #expect(effect.name == "AVF Gain" && effect.manufacturerName == "OCA Tests")
        #expect(AudioUnitSetParameter(effect.audioUnit, 0, kAudioUnitScope_Global, 0, 0.5, 0) == noErr)

        let engine = try EngineOfflineTests.manualEngine()
        let player = AVAudioPlayerNode()
        engine.attach(player)
        engine.attach(effect)
        engine.connect(player, to: effect, format: EngineOfflineTests.format)
        engine.connect(effect, to: engine.mainMixerNode, format: EngineOfflineTests.format)
        try engine.start()
        let input = EngineOfflineTests.noise(frames: 4096, seed: 7)
        player.scheduleBuffer(input)
        player.play()
        let (left, right) = try EngineOfflineTests.render(engine, frames: 4096)
        let inLeft = UnsafeBufferPointer(start: input.floatChannelData![0], count: 4096)
        let inRight = UnsafeBufferPointer(start: input.floatChannelData![1], count: 4096)
        #expect(left == inLeft.map { $0 * 0.5 })
        #expect(right == inRight.map { $0 * 0.5 })

        // Bypass through the effect node reaches the unit's shouldBypassEffect.
        effect.bypass = true
        #expect(effect.bypass)
        engine.stop()
    }
}
