import Synchronization

/// Base of effect units (after AudioUnitSDK's AUEffectBase): one input and one output in the
/// canonical Float32 non-interleaved format with equal channel counts, input pulled each render,
/// `kAudioUnitProperty_BypassEffect` and `kAudioUnitProperty_InPlaceProcessing`. Subclasses
/// implement `process`, reading parameters through `parameterValue`/`parameterCurve`.
class AUEffectBase: AUBase, @unchecked Sendable {
    private let bypass = Atomic<Bool>(false)
    var inPlaceProcessing = true

    init(component: AudioComponentEntry) {
        super.init(component: component, inputs: 1, outputs: 1)
    }

    override func initializeUnit() -> OSStatus {
        let channelsIn = inputs[0].format.mChannelsPerFrame, channelsOut = outputs[0].format.mChannelsPerFrame
        let configs = supportedNumChannels
        if configs.isEmpty {
            return channelsIn == channelsOut && channelsOut > 0 ? noErr : kAudioUnitErr_FormatNotSupported
        }
        let matches = configs.contains { c in
            let i = Int(c.inChannels), o = Int(c.outChannels)
            if (i == -1 && o == -2) || (i == -2 && o == -1) { return true }
            if i == -1 && o == -1 { return channelsIn == channelsOut }
            if i < 0 && o < 0 { return false }
            return (i == -1 || i == Int(channelsIn)) && (o == -1 || o == Int(channelsOut))
        }
        return matches ? noErr : kAudioUnitErr_FormatNotSupported
    }

    /// Processes `frames` frames from `input` to `output` (which may be the same buffers).
    /// Render thread: no allocation, no locks.
    func applyEffect(input: UnsafeMutableAudioBufferListPointer, output: UnsafeMutableAudioBufferListPointer,
                 frames: Int, flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>) -> OSStatus {
        noErr
    }

    override func renderBus(_ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, _ timeStamp: UnsafePointer<AudioTimeStamp>,
                            _ bus: UInt32, _ frames: UInt32, _ output: UnsafeMutablePointer<AudioBufferList>) -> OSStatus {
        let (status, input) = pullInput(0, flags: flags, timeStamp: timeStamp, frames: frames)
        guard status == noErr else { return status }
        if bypass.load(ordering: .relaxed) {
            copyBufferContents(from: input, to: output)
            return noErr
        }
        return applyEffect(input: UnsafeMutableAudioBufferListPointer(input), output: UnsafeMutableAudioBufferListPointer(output),
                       frames: Int(frames), flags: flags)
    }

    /// AudioUnitProcess: the same checks as a render (unless DoNotCheckRenderArgs), no notifications,
    /// scheduled parameters applied, `ioData` processed in place.
    override func processInPlace(_ flagsPointer: UnsafeMutablePointer<AudioUnitRenderActionFlags>?, _ timeStamp: UnsafePointer<AudioTimeStamp>,
                          _ frames: UInt32, _ ioData: UnsafeMutablePointer<AudioBufferList>) -> OSStatus {
        var localFlags: AudioUnitRenderActionFlags = []
        let checks = !(flagsPointer?.pointee.contains(.unitRenderAction_DoNotCheckRenderArgs) ?? false)
        if checks {
            guard isInitialized else { return kAudioUnitErr_Uninitialized }
            guard frames <= maxFramesPerSlice else { return kAudioUnitErr_TooManyFramesToProcess }
            let abl = UnsafeMutableAudioBufferListPointer(ioData)
            guard abl.count == inputs[0].bufferCount else { return kAudio_ParamError }
            let needed = frames * inputs[0].format.mBytesPerFrame
            for i in 0..<abl.count where abl[i].mData == nil || abl[i].mDataByteSize < needed { return kAudio_ParamError }
        }
        applyScheduledParameters(frames: frames)
        let list = UnsafeMutableAudioBufferListPointer(ioData)
        if bypass.load(ordering: .relaxed) { return noErr }
        if let flagsPointer { return applyEffect(input: list, output: list, frames: Int(frames), flags: flagsPointer) }
        return applyEffect(input: list, output: list, frames: Int(frames), flags: &localFlags)
    }

    override func canDo(_ selector: Int16) -> Bool {
        let s = Int(selector)
        return (s > 0 && s <= kAudioUnitComplexRenderSelect) || s == kAudioUnitProcessSelect
    }

    override class var propertyRows: [AUProperty] {
        // Apple's effect base answers InvalidProperty (not InvalidScope) off the global scope.
        let globalOnly: AUProperty.Place = { _, scope, _ in scope == kAudioUnitScope_Global ? noErr : kAudioUnitErr_InvalidProperty }
        return super.propertyRows + [
            .flag(kAudioUnitProperty_BypassEffect, of: AUEffectBase.self, place: globalOnly,
                  get: { unit, _, _ in unit.bypass.load(ordering: .relaxed) },
                  set: { unit, _, _, on in
                      let was = unit.bypass.exchange(on, ordering: .relaxed)
                      if was && !on && unit.isInitialized { unit.resetUnit(kAudioUnitScope_Global, 0) }
                      return noErr
                  }),
            .flag(kAudioUnitProperty_InPlaceProcessing, of: AUEffectBase.self, place: globalOnly,
                  get: { unit, _, _ in unit.inPlaceProcessing },
                  set: { unit, _, _, on in unit.inPlaceProcessing = on; return noErr }),
        ]
    }
}
