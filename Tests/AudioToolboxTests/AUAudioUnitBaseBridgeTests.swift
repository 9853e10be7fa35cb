import AudioToolbox
import Foundation
import Testing

/// `AUAudioUnit(componentDescription:)` on the base class with a version 2 unit's description stands for that unit
/// (Apple returns an AUAudioUnitV2Bridge there); subclasses, registered or not, and the bridge itself are unchanged.
@Suite struct AUAudioUnitBaseBridgeTests {
    static let delay = AudioComponentDescription(componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_Delay,
                                                 componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
    static let generic = AudioComponentDescription(componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_GenericOutput,
                                                   componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    init() { #expect(TestAUv3Units.registered) }

    /// Renders `frames` frames of an impulse (1 at frame 0 of the first call) through `au`'s render block.
    static func renderImpulse(_ au: AUAudioUnit, frames: Int) -> (status: AUAudioUnitStatus, left: [Float]) {
        let list = AudioBufferList.allocate(maximumBuffers: 2)
        defer { free(list.unsafeMutablePointer) }
        for c in 0..<2 { list[c] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(frames * 4), mData: nil) }
        var flags = AudioUnitRenderActionFlags()
        var time = AudioTimeStamp()
        time.mFlags = .sampleTimeValid
        let status = au.renderBlock(&flags, &time, AUAudioFrameCount(frames), 0, list.unsafeMutablePointer) { _, _, count, _, input in
            for b in UnsafeMutableAudioBufferListPointer(input) {
                let p = b.mData!.assumingMemoryBound(to: Float.self)
                for i in 0..<Int(count) { p[i] = i == 0 ? 1 : 0 }
            }
            return noErr
        }
        guard status == noErr, let data = list[0].mData else { return (status, []) }
        return (status, Array(UnsafeBufferPointer(start: data.assumingMemoryBound(to: Float.self), count: frames)))
    }

    /// Not an I/O unit: no input, no output, nothing running; starting and choosing a device throw
    /// kAudioUnitErr_InvalidProperty in NSOSStatusErrorDomain.
    @Test func anEffectIsNoIOUnit() throws {
        let au = try AUAudioUnit(componentDescription: Self.delay)
        #expect(!au.canPerformInput && !au.canPerformOutput)
        #expect(!au.isInputEnabled && !au.isOutputEnabled)
        au.isInputEnabled = true
        #expect(!au.isInputEnabled)
        #expect(!au.isRunning)
        #expect(au.deviceID == 0)
        let attempts: [() throws -> Void] = [{ try au.startHardware() }, { try au.setDeviceID(1) }]
        for attempt in attempts {
            do {
                try attempt()
                Issue.record("no error")
            } catch let error as NSError {
                #expect(error.domain == NSOSStatusErrorDomain)
                #expect(error.code == Int(kAudioUnitErr_InvalidProperty))
            }
        }
        au.stopHardware()  // harmless
        // AUGenericOutput is an output unit without hardware (no kAudioOutputUnitProperty_HasIO).
        let generic = try AUAudioUnit(componentDescription: Self.generic)
        #expect(!generic.canPerformInput && !generic.canPerformOutput)
        #expect(generic.inputBusses.count == 1 && generic.outputBusses.count == 1)
    }

    /// The forwarded members reach the version 2 unit: maximumFramesToRender is MaximumFramesPerSlice (one frame
    /// more is refused), the tail time is the delay's (its 1 s default), render observers see the render, the
    /// default 50 % mix passes the impulse at the dry gain cos(π/4), and bypass passes it untouched.
    @Test func forwardedMembersReachTheUnit() throws {
        let au = try AUAudioUnit(componentDescription: Self.delay)
        au.maximumFramesToRender = 300
        #expect(au.maximumFramesToRender == 300)
        #expect(au.tailTime == 1)
        #expect(au.latency == 0)
        #expect(au.parameterTree?.allParameters.count == 4)
        #expect(au.fullState?[kAUPresetSubtypeKey] as? NSNumber == NSNumber(value: Int32(bitPattern: kAudioUnitSubType_Delay)))
        try au.allocateRenderResources()
        #expect(au.renderResourcesAllocated)
        var observed: [AudioUnitRenderActionFlags] = []
        let token = au.token { flags, _, _, _ in observed.append(flags) }
        let plain = Self.renderImpulse(au, frames: 300)
        #expect(plain.status == noErr)
        // Default mix 50 %: the dry impulse at cos(π/4); the 1 s echo is beyond these 300 frames.
        #expect(abs(plain.left[0] - Float(cos(Double.pi / 4))) < 1e-4)
        #expect(plain.left.dropFirst().allSatisfy { $0 == 0 })
        #expect(observed.count == 2 && observed[0].contains(.unitRenderAction_PreRender) && observed[1].contains(.unitRenderAction_PostRender))
        au.removeRenderObserver(token)
        #expect(Self.renderImpulse(au, frames: 301).status == kAudioUnitErr_TooManyFramesToProcess)
        au.deallocateRenderResources()
        #expect(!au.renderResourcesAllocated)

        au.shouldBypassEffect = true
        #expect(au.shouldBypassEffect)
        try au.allocateRenderResources()
        let bypassed = Self.renderImpulse(au, frames: 300)
        #expect(bypassed.status == noErr)
        #expect(bypassed.left[0] == 1 && bypassed.left.dropFirst().allSatisfy { $0 == 0 })
        #expect(observed.count == 2)  // removed
        au.deallocateRenderResources()
    }

    /// Subclasses are untouched: a registered one made through the base class's description stays empty (the base
    /// class has no busses), a subclass made directly with a version 2 unit's description keeps its own busses and
    /// tree, and the bridge made directly is a bridge as before.
    @Test func subclassesAreUnaffected() throws {
        let registered = try AUAudioUnit(componentDescription: V3GainUnit.description)
        #expect(registered.inputBusses.count == 0 && registered.outputBusses.count == 0)
        #expect(registered.parameterTree == nil)
        let own = try V3GainUnit(componentDescription: Self.delay)
        #expect(own.inputBusses.count == 1)
        #expect(own.parameterTree?.allParameters.map(\.identifier) == ["gain"])
        #expect(own.tailTime == 0)
        let bridge = try AUAudioUnitV2Bridge(componentDescription: Self.delay)
        #expect(bridge.outputBusses.count == 1)
        #expect(bridge.parameterTree?.allParameters.count == 4)
    }
}
