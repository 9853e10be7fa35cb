import AudioDSP

/// AUMultiChannelMixer (`'aumx' 'mcmx' 'appl'`): any number of mono or stereo inputs (ElementCount on the
/// input scope, 8 by default) mixed to one stereo output. Per input: Volume (linear gain), Enable, Pan
/// (constant-power for mono inputs, balance for stereo ones: MixerKernels states both laws); output
/// Volume. Gain changes are de-zippered: a full-scale jump takes 10 ms. Disabled or unconnected inputs
/// are not pulled. Inputs are Float32 non-interleaved; their rate follows the output's.
final class MultiChannelMixer: AUBase, @unchecked Sendable {
    static let description = AudioComponentDescription(
        componentType: kAudioUnitType_Mixer, componentSubType: kAudioUnitSubType_MultiChannelMixer,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    /// Smoothed gains per input, left then right (render thread only; sized at initialize).
    private var gains: UnsafeMutablePointer<Float>?
    private var gainCount = 0
    private var outputGain: Float = 1
    private var step: Float = 1

    init(component: AudioComponentEntry) {
        super.init(component: component, inputs: 8, outputs: 1)
        defineParameter(kMultiChannelMixerParam_Volume, scope: kAudioUnitScope_Output, element: 0,
                        .oca("Volume", unit: .linearGain, min: 0, max: 1, default: 1, flags: [.flag_CanRamp]))
    }

    override func isElementCountWritable(_ scope: AudioUnitScope) -> Bool { scope == kAudioUnitScope_Input }

    override func definedNewElement(_ scope: AudioUnitScope, _ index: Int) {
        guard scope == kAudioUnitScope_Input else { return }
        let e = AudioUnitElement(index)
        defineParameter(kMultiChannelMixerParam_Volume, scope: scope, element: e,
                        .oca("Volume", unit: .linearGain, min: 0, max: 1, default: 1, flags: [.flag_CanRamp]))
        defineParameter(kMultiChannelMixerParam_Enable, scope: scope, element: e,
                        .oca("Enable", unit: .boolean, min: 0, max: 1, default: 1))
        defineParameter(kMultiChannelMixerParam_Pan, scope: scope, element: e,
                        .oca("Pan", unit: .pan, min: -1, max: 1, default: 0, flags: [.flag_CanRamp]))
    }

    override func initializeUnit() -> OSStatus {
        guard outputs[0].format.mChannelsPerFrame == 2 else { return kAudioUnitErr_FormatNotSupported }
        for input in inputs where input.format.mChannelsPerFrame > 2 { return kAudioUnitErr_FormatNotSupported }
        releaseGains()
        gainCount = 2 * inputs.count
        gains = .allocate(capacity: max(gainCount, 1))
        resetGains()
        step = Float(1 / max(0.010 * outputs[0].format.mSampleRate, 1))
        return noErr
    }

    /// Gains start where the parameters are, so the first slice is not faded in.
    private func resetGains() {
        guard let gains else { return }
        for i in 0..<inputs.count {
            let (l, r) = targetGains(i)
            gains[2 * i] = l
            gains[2 * i + 1] = r
        }
        outputGain = parameterValue(kMultiChannelMixerParam_Volume, kAudioUnitScope_Output, 0)
    }

    override func cleanupUnit() { releaseGains() }
    override func resetUnit(_ scope: AudioUnitScope, _ element: AudioUnitElement) { resetGains() }
    private func releaseGains() { gains?.deallocate(); gains = nil }
    deinit { releaseGains() }

    /// The (left, right) gains input `i`'s parameters ask for; zero when disabled.
    @inline(__always)
    private func targetGains(_ i: Int) -> (Float, Float) {
        let e = AudioUnitElement(i)
        guard parameterValue(kMultiChannelMixerParam_Enable, kAudioUnitScope_Input, e) != 0 else { return (0, 0) }
        let volume = parameterValue(kMultiChannelMixerParam_Volume, kAudioUnitScope_Input, e)
        let pan = parameterValue(kMultiChannelMixerParam_Pan, kAudioUnitScope_Input, e)
        let (l, r) = inputs[i].format.mChannelsPerFrame == 1 ? MixerKernels.monoPanGains(pan) : MixerKernels.stereoBalanceGains(pan)
        return (volume * l, volume * r)
    }

    override func renderBus(_ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, _ timeStamp: UnsafePointer<AudioTimeStamp>,
                            _ bus: UInt32, _ frames: UInt32, _ output: UnsafeMutablePointer<AudioBufferList>) -> OSStatus {
        guard let gains else { return kAudioUnitErr_Uninitialized }
        let out = UnsafeMutableAudioBufferListPointer(output)
        let n = Int(frames)
        let left = out[0].mData!.assumingMemoryBound(to: Float.self), right = out[1].mData!.assumingMemoryBound(to: Float.self)
        left.update(repeating: 0, count: n)
        right.update(repeating: 0, count: n)
        var silent = true
        for i in 0..<inputs.count {
            let input = inputs[i]
            let (targetL, targetR) = targetGains(i)
            // A disabled input at rest, or one with no source, is not pulled.
            if targetL == 0 && targetR == 0 && gains[2 * i] == 0 && gains[2 * i + 1] == 0 { continue }
            if input.source.value.kind == .none { continue }
            var inputFlags: AudioUnitRenderActionFlags = []
            let (status, abl) = input.pull(flags: &inputFlags, timeStamp: timeStamp, bus: UInt32(i), frames: frames)
            guard status == noErr else { return status }
            let list = UnsafeMutableAudioBufferListPointer(abl)
            guard let l = list[0].mData?.assumingMemoryBound(to: Float.self) else { continue }
            let r = list.count > 1 ? list[1].mData?.assumingMemoryBound(to: Float.self) ?? l : l
            gains[2 * i] = MixerKernels.accumulate(l, into: left, count: n, gain: gains[2 * i], target: targetL, step: step)
            gains[2 * i + 1] = MixerKernels.accumulate(r, into: right, count: n, gain: gains[2 * i + 1], target: targetR, step: step)
            if !inputFlags.contains(.unitRenderAction_OutputIsSilence) { silent = false }
        }
        let target = parameterValue(kMultiChannelMixerParam_Volume, kAudioUnitScope_Output, 0)
        _ = MixerKernels.scale(left, count: n, gain: outputGain, target: target, step: step)
        outputGain = MixerKernels.scale(right, count: n, gain: outputGain, target: target, step: step)
        if silent { flags.pointee.insert(.unitRenderAction_OutputIsSilence) } else { flags.pointee.remove(.unitRenderAction_OutputIsSilence) }
        return noErr
    }
}
