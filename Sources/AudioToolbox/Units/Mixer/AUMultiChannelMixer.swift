import AudioDSP
#if canImport(Glibc)
import Glibc
#endif

/// AUMultiChannelMixer (`'aumx' 'mcmx' 'appl'`): any number of mono or stereo inputs (ElementCount on the
/// input scope, 8 by default) mixed to one stereo output (or a mono one: inputs summed unpanned, a stereo input as
/// the mean of its sides). Per input: Volume (linear gain), Enable, Pan
/// (constant-power for mono inputs, balance for stereo ones: MixerKernels states both laws); output
/// Volume. Gain changes are de-zippered: a full-scale jump takes 10 ms. Disabled or unconnected inputs
/// are not pulled. Inputs are Float32 non-interleaved at the output's sample rate (a different input rate
/// fails AudioUnitInitialize with kAudioUnitErr_FormatNotSupported).
/// Metering (kAudioUnitProperty_MeteringMode per input or output element) fills the read-only
/// Pre/Post AveragePower and PeakHoldLevel parameters, in dB (floor -120), from each slice: average power
/// is the RMS over all channels, peak the largest magnitude; "pre" is before the element's volume, "post"
/// after it (for inputs, the input signal times its volume). There are no meter ballistics yet.
///
/// The same engine is AUStereoMixer (`'aumx' 'smxr' 'appl'`, macOS) with that unit's parameters: Volume (0,
/// input and output) and Pan (1, input, 0 = left to 1 = right, 0.5 centre); its inputs are always enabled.
final class AUMultiChannelMixer: AUBase, @unchecked Sendable {
    static let description = AudioComponentDescription(
        componentType: kAudioUnitType_Mixer, componentSubType: kAudioUnitSubType_MultiChannelMixer,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    /// Smoothed gains per input, left then right (render thread only; sized at initialize).
    private var gains: UnsafeMutablePointer<Float>?
    /// Per input, the pan the law was last evaluated for and its (left, right) gains: trigonometry only on change.
    private var panLaw: UnsafeMutablePointer<(pan: Float, left: Float, right: Float)>?
    private var gainCount = 0
    private var outputGain: Float = 1
    private var step: Float = 1
    /// One scratch slice every input renders into in turn (mono and stereo buffer lists over the same
    /// memory), so the working set stays in cache however many inputs there are.
    private var scratch: UnsafeMutablePointer<Float>?
    private var scratchLists: [UnsafeMutableAudioBufferListPointer] = []

    static let stereoMixerDescription = AudioComponentDescription(
        componentType: kAudioUnitType_Mixer, componentSubType: kAudioUnitSubType_StereoMixer,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    /// AUStereoMixer's parameter set instead of AUMultiChannelMixer's.
    private let stereoMixer: Bool
    /// A mono output (set at initialize): inputs are summed without panning, a stereo input as the mean of its sides.
    private var monoOutput = false

    init(component: AudioComponentEntry, stereoMixer: Bool = false) {
        self.stereoMixer = stereoMixer
        super.init(component: component, inputs: 8, outputs: 1)
        defineParameter(kMultiChannelMixerParam_Volume, scope: kAudioUnitScope_Output, element: 0,
                        .oca("Volume", unit: .linearGain, min: 0, max: 1, default: 1, flags: [.flag_CanRamp]))
        defineMeters(kAudioUnitScope_Output, 0)
    }

    static let meters: [(AudioUnitParameterID, String)] = [
        (kMultiChannelMixerParam_PreAveragePower, "Pre Average Power"), (kMultiChannelMixerParam_PrePeakHoldLevel, "Pre Peak Hold Level"),
        (kMultiChannelMixerParam_PostAveragePower, "Post Average Power"), (kMultiChannelMixerParam_PostPeakHoldLevel, "Post Peak Hold Level"),
    ]
    private func defineMeters(_ scope: AudioUnitScope, _ element: AudioUnitElement) {
        defineMeterParameters(Self.meters, scope, element)
    }

    /// Stores slice meters for an element: (pre RMS, pre peak) and the gain giving "post".
    @inline(__always)
    private func storeMeters(_ scope: AudioUnitScope, _ element: AudioUnitElement, rms: Float, peak: Float, gain: Float) {
        storeMeterParameters(preAverage: kMultiChannelMixerParam_PreAveragePower, prePeak: kMultiChannelMixerParam_PrePeakHoldLevel,
                             postAverage: kMultiChannelMixerParam_PostAveragePower, postPeak: kMultiChannelMixerParam_PostPeakHoldLevel,
                             scope, element, rms: rms, peak: peak, gain: gain)
    }

    /// (RMS over all channels, peak) of `channels` buffers of `n` frames.
    @inline(__always)
    private static func measure(_ list: UnsafeMutableAudioBufferListPointer, channels: Int, frames n: Int) -> (Float, Float) {
        var sum = 0.0, peak: Float = 0
        for c in 0..<channels {
            guard let p = list[c].mData?.assumingMemoryBound(to: Float.self) else { continue }
            let buffer = UnsafeBufferPointer(start: p, count: n)
            peak = max(peak, SignalMeasurement.peak(buffer))
            let r = SignalMeasurement.rms(buffer)
            sum += r * r
        }
        return (Float((sum / Double(max(channels, 1))).squareRoot()), peak)
    }

    override class var propertyRows: [AUProperty] { super.propertyRows + [meteringModeRow()] }

    override func isElementCountWritable(_ scope: AudioUnitScope) -> Bool { scope == kAudioUnitScope_Input }

    /// An input with no source may change format while the mixer renders (the render skips it, and a graph
    /// connects it only after the change), as Apple's mixer lets an engine wire new sources to a running mix.
    override func isStreamFormatWritable(_ scope: AudioUnitScope, _ element: AudioUnitElement) -> Bool {
        guard isInitialized else { return true }
        return scope == kAudioUnitScope_Input && Int(element) < inputs.count && inputs[Int(element)].source.value.kind == .none
    }

    override func isValidFormat(_ scope: AudioUnitScope, _ element: AudioUnitElement, _ f: AudioStreamBasicDescription) -> Bool {
        guard super.isValidFormat(scope, element, f) else { return false }
        // Initialized, a new input format must already be one the mix takes (initialize checks it otherwise).
        return !isInitialized || scope != kAudioUnitScope_Input || (f.mChannelsPerFrame <= 2 && f.mSampleRate == outputs[0].format.mSampleRate)
    }

    override func streamFormatChanged(_ scope: AudioUnitScope, _ element: AudioUnitElement) {
        // The pan law depends on the channel count: evaluate it again (the input is not being rendered).
        if scope == kAudioUnitScope_Input, let panLaw, Int(element) < inputs.count { panLaw[Int(element)].pan = .nan }
    }

    override func definedNewElement(_ scope: AudioUnitScope, _ index: Int) {
        guard scope == kAudioUnitScope_Input else { return }
        let e = AudioUnitElement(index)
        defineParameter(kMultiChannelMixerParam_Volume, scope: scope, element: e,
                        .oca("Volume", unit: .linearGain, min: 0, max: 1, default: 1, flags: [.flag_CanRamp]))
        if stereoMixer {
            defineParameter(kStereoMixerParam_Pan, scope: scope, element: e,
                            .oca("Pan", unit: .pan, min: 0, max: 1, default: 0.5, flags: [.flag_CanRamp]))
            defineMeters(scope, e)
            return
        }
        defineParameter(kMultiChannelMixerParam_Enable, scope: scope, element: e,
                        .oca("Enable", unit: .boolean, min: 0, max: 1, default: 1))
        defineParameter(kMultiChannelMixerParam_Pan, scope: scope, element: e,
                        .oca("Pan", unit: .pan, min: -1, max: 1, default: 0, flags: [.flag_CanRamp]))
        defineMeters(scope, e)
    }

    override func initializeUnit() -> OSStatus {
        guard outputs[0].format.mChannelsPerFrame == 2 || outputs[0].format.mChannelsPerFrame == 1 else { return kAudioUnitErr_FormatNotSupported }
        monoOutput = outputs[0].format.mChannelsPerFrame == 1
        // Inputs are mixed at the output's rate: no sample-rate conversion here (yet), so a mismatch is refused.
        // Inputs with no source are not rendered, and get a format checked against this when they are connected.
        for input in inputs where input.source.value.kind != .none
            && (input.format.mChannelsPerFrame > 2 || input.format.mSampleRate != outputs[0].format.mSampleRate) {
            return kAudioUnitErr_FormatNotSupported
        }
        gainCount = 2 * inputs.count
        gains = renderMemory.take(Float.self, count: gainCount, repeating: 0)
        panLaw = renderMemory.take((pan: Float, left: Float, right: Float).self, count: inputs.count, repeating: (.nan, 0, 0))
        resetGains()
        step = Float(1 / max(0.010 * outputs[0].format.mSampleRate, 1))
        let maxFrames = Int(maxFramesPerSlice)
        scratch = renderMemory.take(Float.self, count: 2 * maxFrames, repeating: 0)
        scratchLists = [renderMemory.takeBufferList(buffers: 1), renderMemory.takeBufferList(buffers: 2)]
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

    /// The pointers go with the unit's render memory (AUBase frees it after this).
    override func cleanupUnit() {
        gains = nil
        panLaw = nil
        scratch = nil
        scratchLists = []
    }
    override func resetUnit(_ scope: AudioUnitScope, _ element: AudioUnitElement) { resetGains() }

    /// The (left, right) gains input `i`'s parameters ask for; zero when disabled. Only while initialized.
    @inline(__always)
    private func targetGains(_ i: Int) -> (Float, Float) {
        let e = AudioUnitElement(i)
        guard stereoMixer || parameterValue(kMultiChannelMixerParam_Enable, kAudioUnitScope_Input, e) != 0 else { return (0, 0) }
        let volume = parameterValue(kMultiChannelMixerParam_Volume, kAudioUnitScope_Input, e)
        let pan = stereoMixer ? 2 * parameterValue(kStereoMixerParam_Pan, kAudioUnitScope_Input, e) - 1
            : parameterValue(kMultiChannelMixerParam_Pan, kAudioUnitScope_Input, e)
        if monoOutput { return inputs[i].format.mChannelsPerFrame == 1 ? (volume, 0) : (0.5 * volume, 0.5 * volume) }
        let panLaw = panLaw!  // allocated at initialize, before any caller runs
        if panLaw[i].pan != pan {
            let (l, r) = inputs[i].format.mChannelsPerFrame == 1 ? MixerKernels.monoPanGains(pan) : MixerKernels.stereoBalanceGains(pan)
            panLaw[i] = (pan, l, r)
        }
        return (volume * panLaw[i].left, volume * panLaw[i].right)
    }

    override func renderBus(_ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, _ timeStamp: UnsafePointer<AudioTimeStamp>,
                            _ bus: UInt32, _ frames: UInt32, _ output: UnsafeMutablePointer<AudioBufferList>) -> OSStatus {
        guard let gains, let scratch else { return kAudioUnitErr_Uninitialized }
        let out = UnsafeMutableAudioBufferListPointer(output)
        let n = Int(frames)
        let left = out[0].mData!.assumingMemoryBound(to: Float.self)
        let right = monoOutput ? left : out[1].mData!.assumingMemoryBound(to: Float.self)  // mono: both sides sum into one
        left.update(repeating: 0, count: n)
        if !monoOutput { right.update(repeating: 0, count: n) }
        var silent = true
        for i in 0..<inputs.count {
            let input = inputs[i]
            // An input with no source is not looked at (its format may be changing); a disabled input whose
            // fade-out is over is not pulled. An enabled input at volume 0 still is, so its source keeps time.
            if input.source.value.kind == .none { continue }
            let (targetL, targetR) = targetGains(i)
            let disabled = !stereoMixer && parameterValue(kMultiChannelMixerParam_Enable, kAudioUnitScope_Input, AudioUnitElement(i)) == 0
            if disabled && gains[2 * i] == 0 && gains[2 * i + 1] == 0 { continue }
            var inputFlags: AudioUnitRenderActionFlags = []
            let channels = Int(input.format.mChannelsPerFrame)
            let target = scratchLists[channels - 1]
            for c in 0..<channels {
                target[c] = AudioBuffer(mNumberChannels: 1, mDataByteSize: frames * 4, mData: UnsafeMutableRawPointer(scratch + c * Int(maxFramesPerSlice)))
            }
            let (status, abl) = input.pull(flags: &inputFlags, timeStamp: timeStamp, bus: UInt32(i), frames: frames, into: target.unsafeMutablePointer)
            guard status == noErr else { return status }
            let list = UnsafeMutableAudioBufferListPointer(abl)
            guard let l = list[0].mData?.assumingMemoryBound(to: Float.self) else { continue }
            let r = list.count > 1 ? list[1].mData?.assumingMemoryBound(to: Float.self) ?? l : l
            if input.meteringMode.load(ordering: .relaxed) {
                let (rms, peak) = Self.measure(list, channels: min(list.count, Int(input.format.mChannelsPerFrame)), frames: n)
                storeMeters(kAudioUnitScope_Input, AudioUnitElement(i), rms: rms, peak: peak,
                            gain: parameterValue(kMultiChannelMixerParam_Volume, kAudioUnitScope_Input, AudioUnitElement(i)))
            }
            gains[2 * i] = MixerKernels.accumulate(l, into: left, count: n, gain: gains[2 * i], target: targetL, step: step)
            if !(monoOutput && channels == 1) {
                gains[2 * i + 1] = MixerKernels.accumulate(r, into: right, count: n, gain: gains[2 * i + 1], target: targetR, step: step)
            }
            if !inputFlags.contains(.unitRenderAction_OutputIsSilence) { silent = false }
        }
        let target = parameterValue(kMultiChannelMixerParam_Volume, kAudioUnitScope_Output, 0)
        let metering = outputs[0].meteringMode.load(ordering: .relaxed)
        let (preRMS, prePeak) = metering ? Self.measure(out, channels: monoOutput ? 1 : 2, frames: n) : (0, 0)
        let scaled = MixerKernels.scale(left, count: n, gain: outputGain, target: target, step: step)
        outputGain = monoOutput ? scaled : MixerKernels.scale(right, count: n, gain: outputGain, target: target, step: step)
        if metering { storeMeters(kAudioUnitScope_Output, 0, rms: preRMS, peak: prePeak, gain: target) }
        if silent { flags.pointee.insert(.unitRenderAction_OutputIsSilence) } else { flags.pointee.remove(.unitRenderAction_OutputIsSilence) }
        return noErr
    }
}
