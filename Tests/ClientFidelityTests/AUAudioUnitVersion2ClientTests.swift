// A built-in (version 2) unit made the way app code makes it: `try AUAudioUnit(componentDescription:)` on the base
// class (on Apple the object is an AUAudioUnitV2Bridge). It must have the unit's busses, parameters and render.
// Apple's API only.
import AVFoundation
import Foundation
import Testing

struct AUAudioUnitVersion2ClientTests {
    static let delayDesc = AudioComponentDescription(componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_Delay,
                                                     componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    /// The delay's one input and one output bus in the default format (44.1 kHz stereo deinterleaved Float32), and
    /// its four parameters with the ranges and values a plain version 2 instance reports.
    @Test func delayHasTheUnitsBussesAndParameters() throws {
        let au = try AUAudioUnit(componentDescription: Self.delayDesc)
        #expect(au.inputBusses.count == 1)
        #expect(au.outputBusses.count == 1)
        for format in [au.inputBusses[0].format, au.outputBusses[0].format] {
            #expect(format.sampleRate == 44100)
            #expect(format.channelCount == 2)
            #expect(format.commonFormat == .pcmFormatFloat32)
            #expect(!format.isInterleaved)
        }

        var d = Self.delayDesc
        let component = try #require(AudioComponentFindNext(nil, &d))
        var instance: AudioUnit?
        #expect(AudioComponentInstanceNew(component, &instance) == noErr)
        let reference = try #require(instance)
        defer { AudioComponentInstanceDispose(reference) }

        let tree = try #require(au.parameterTree)
        let ids = [kDelayParam_WetDryMix, kDelayParam_DelayTime, kDelayParam_Feedback, kDelayParam_LopassCutoff]
        #expect(Set(tree.allParameters.map { $0.address }) == Set(ids.map { AUParameterAddress($0) }))
        // Apple's documented defaults: 50 % wet, 1 s, 50 % feedback, 15 kHz.
        let defaults: [AudioUnitParameterID: AUValue] = [kDelayParam_WetDryMix: 50, kDelayParam_DelayTime: 1,
                                                         kDelayParam_Feedback: 50, kDelayParam_LopassCutoff: 15000]
        for id in ids {
            let parameter = try #require(tree.parameter(withAddress: AUParameterAddress(id)))
            var value: AudioUnitParameterValue = 0
            #expect(AudioUnitGetParameter(reference, id, kAudioUnitScope_Global, 0, &value) == noErr)
            #expect(parameter.value == value)
            #expect(parameter.value == defaults[id])
            var info = AudioUnitParameterInfo()
            var size = UInt32(MemoryLayout<AudioUnitParameterInfo>.size)
            #expect(AudioUnitGetProperty(reference, kAudioUnitProperty_ParameterInfo, kAudioUnitScope_Global, id, &info, &size) == noErr)
            #expect(parameter.minValue == info.minValue)
            #expect(parameter.maxValue == info.maxValue)
        }
        #expect(!au.canPerformInput)
        #expect(!au.canPerformOutput)
    }

    /// A delay of 10 ms set through the parameter tree (all wet, no feedback, the loop's low-pass wide open): an
    /// impulse pulled in at frame 0 comes out at frame 441 (10 ms at 44.1 kHz), rendered in four slices of 256.
    @Test func delayRendersAnImpulseLateThroughTheRenderBlock() throws {
        let au = try AUAudioUnit(componentDescription: Self.delayDesc)
        let tree = try #require(au.parameterTree)
        let cutoff = try #require(tree.parameter(withAddress: AUParameterAddress(kDelayParam_LopassCutoff)))
        tree.parameter(withAddress: AUParameterAddress(kDelayParam_DelayTime))?.value = 0.01
        tree.parameter(withAddress: AUParameterAddress(kDelayParam_WetDryMix))?.value = 100
        tree.parameter(withAddress: AUParameterAddress(kDelayParam_Feedback))?.value = 0
        cutoff.value = cutoff.maxValue
        #expect(tree.parameter(withAddress: AUParameterAddress(kDelayParam_DelayTime))?.value == 0.01)

        au.maximumFramesToRender = 256
        #expect(au.maximumFramesToRender == 256)
        try au.allocateRenderResources()
        defer { au.deallocateRenderResources() }
        #expect(au.renderResourcesAllocated)

        let slice = 256
        let list = AudioBufferList.allocate(maximumBuffers: 2)
        let memory = UnsafeMutablePointer<Float>.allocate(capacity: 2 * slice)
        defer { free(list.unsafeMutablePointer); memory.deallocate() }
        var fed = 0
        let pull: AURenderPullInputBlock = { _, _, frames, _, input in
            for buffer in UnsafeMutableAudioBufferListPointer(input) {
                guard let data = buffer.mData?.assumingMemoryBound(to: Float.self) else { return kAudioUnitErr_InvalidParameter }
                for i in 0..<Int(frames) { data[i] = fed == 0 && i == 0 ? 1 : 0 }
            }
            fed += Int(frames)
            return noErr
        }
        var left: [Float] = [], right: [Float] = []
        let render = au.renderBlock
        for n in 0..<4 {
            for c in 0..<2 {
                list[c] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(slice * 4), mData: UnsafeMutableRawPointer(memory + c * slice))
            }
            var flags = AudioUnitRenderActionFlags()
            var time = AudioTimeStamp()
            time.mSampleTime = Double(n * slice)
            time.mFlags = .sampleTimeValid
            #expect(render(&flags, &time, AUAudioFrameCount(slice), 0, list.unsafeMutablePointer, pull) == noErr)
            left += UnsafeBufferPointer(start: list[0].mData!.assumingMemoryBound(to: Float.self), count: slice)
            right += UnsafeBufferPointer(start: list[1].mData!.assumingMemoryBound(to: Float.self), count: slice)
        }
        #expect(fed == 4 * slice)
        for channel in [left, right] {
            let peak = try #require(channel.indices.max { abs(channel[$0]) < abs(channel[$1]) })
            #expect(peak == 441)
            #expect(abs(channel[441] - 1) < 0.05, "echo \(channel[441])")
            let rest = channel.enumerated().filter { $0.offset != 441 }.map { abs($0.element) }.max() ?? 0
            #expect(rest < 0.05, "elsewhere up to \(rest)")
        }
    }

    /// An effect node's `auAudioUnit` shows a format set on the node's `audioUnit` through the C API (as an engine
    /// connection or a host sets it), on the bus it was set on only.
    @Test func busFormatsFollowTheCAPI() throws {
        let effect = AVAudioUnitEffect(audioComponentDescription: Self.delayDesc)
        let au = effect.auAudioUnit
        #expect(au.inputBusses[0].format.sampleRate == 44100 && au.outputBusses[0].format.sampleRate == 44100)
        var mono = AudioStreamBasicDescription(mSampleRate: 48000, mFormatID: kAudioFormatLinearPCM,
                                               mFormatFlags: kAudioFormatFlagsNativeFloatPacked | kAudioFormatFlagIsNonInterleaved,
                                               mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4, mChannelsPerFrame: 1,
                                               mBitsPerChannel: 32, mReserved: 0)
        let size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        #expect(AudioUnitSetProperty(effect.audioUnit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &mono, size) == noErr)
        #expect(au.outputBusses[0].format.sampleRate == 48000 && au.outputBusses[0].format.channelCount == 1)
        #expect(au.inputBusses[0].format.sampleRate == 44100 && au.inputBusses[0].format.channelCount == 2)
    }
}
