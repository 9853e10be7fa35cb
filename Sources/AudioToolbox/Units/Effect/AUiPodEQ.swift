import AudioDSP
import Synchronization

/// The iPod EQ (`'aufx' 'ipeq' 'appl'`): mono or stereo, no parameters, 22 factory presets chosen through
/// kAudioUnitProperty_PresentPreset (Flat, number 7, by default). Each preset is a set of ten octave-band
/// gains (the table below is ours, documented here; Apple does not publish its curves) realised by
/// GraphicEQDesign's peaking sections. Changing the preset while playing crossfades from the old curve to
/// the new one over 10 ms, so there is no click.
final class AUiPodEQ: AUEffectBase, @unchecked Sendable {
    /// The ringing of its biquads, reported so hosts keep rendering after the input stops, as Apple's filters
    /// report a tail: a pole pair at 10 Hz with Q 0.7 falls 60 dB in about 0.16 s (sharp resonances ring longer).
    override var tailTime: Double? { 0.25 }

    static let description = AudioComponentDescription(
        componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_AUiPodEQ,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    /// Apple's preset names, in Apple's order, with our band gains in dB at 32, 64, 125, 250, 500 Hz and
    /// 1, 2, 4, 8, 16 kHz.
    static let presets: [(name: String, gains: [Double])] = [
        ("Acoustic", [4, 4, 3, 1, 1.5, 1, 2, 3, 2.5, 1.5]),
        ("Bass Booster", [5.5, 4.5, 3.5, 2.5, 1.5, 0, 0, 0, 0, 0]),
        ("Bass Reducer", [-5.5, -4.5, -3.5, -2.5, -1.5, 0, 0, 0, 0, 0]),
        ("Classical", [4.5, 3.5, 3, 2.5, -1.5, -1.5, 0, 2, 3, 3.5]),
        ("Dance", [3.5, 6.5, 5, 0, 2, 3.5, 5, 4.5, 3.5, 0]),
        ("Deep", [5, 3.5, 1.5, 1, 3, 2.5, 1.5, -2, -3.5, -4.5]),
        ("Electronic", [4, 3.5, 1, 0, -2, 2, 1, 1.5, 4, 4.5]),
        ("Flat", [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
        ("Hip-Hop", [5, 4, 1.5, 3, -1, -1, 1.5, -0.5, 2, 3]),
        ("Jazz", [4, 3, 1.5, 2, -1.5, -1.5, 0, 1.5, 3, 3.5]),
        ("Latin", [4.5, 3, 0, 0, -1.5, -1.5, -1.5, 0, 3, 4.5]),
        ("Loudness", [6, 4, 0, 0, -2, 0, -1, -5, 5, 1]),
        ("Lounge", [-3, -1.5, -0.5, 1.5, 4, 2.5, 0, -1.5, 2, 1]),
        ("Piano", [3, 2, 0, 2.5, 3, 1.5, 3.5, 4.5, 3, 3.5]),
        ("Pop", [-1.5, -1, 0, 2, 4, 4, 2, 0, -1, -1.5]),
        ("R&B", [2.5, 7, 5.5, 1.5, -2.5, -1.5, 2.5, 3, 3, 4]),
        ("Rock", [5, 4, 3, 1.5, -0.5, -1, 0.5, 2.5, 3.5, 4.5]),
        ("Small Speakers", [5.5, 4, 3.5, 2.5, 1, 0, -1, -2, -3, -4]),
        ("Spoken Word", [-3.5, -0.5, 0, 0.5, 3.5, 4.5, 5, 4.5, 2.5, 0]),
        ("Treble Booster", [0, 0, 0, 0, 0, 1.5, 2.5, 3.5, 4.5, 5.5]),
        ("Treble Reducer", [0, 0, 0, 0, 0, -1.5, -2.5, -3.5, -4.5, -5.5]),
        ("Vocal Booster", [-1.5, -3, -3, 1.5, 3.5, 3.5, 3, 1.5, 0, -1.5]),
    ]
    static let flat: Int32 = 7
    static let bands = GraphicEQDesign.bandFrequencies.count

    /// The preset asked for (any thread) and the one the render thread is playing.
    private let requested = Atomic<Int32>(AUiPodEQ.flat)
    private var active: Int32 = AUiPodEQ.flat
    /// Sections for every preset at the current rate: presets × bands (computed at initialize).
    private var sections: UnsafeMutablePointer<BiquadCoefficients>?
    /// Filter states per channel × band, for the current curve and the one fading out.
    private var states: UnsafeMutablePointer<BiquadState>?
    private var fadingStates: UnsafeMutablePointer<BiquadState>?
    private var fadingPreset: Int32 = -1
    private var fadePosition = 0, fadeLength = 441
    private var scratch: UnsafeMutablePointer<Float>?
    private var channels = 0

    override init(component: AudioComponentEntry) {
        super.init(component: component)
        currentPreset = (Self.flat, Self.presets[Int(Self.flat)].name)
    }

    override var supportedNumChannels: [AUChannelInfo] {
        [AUChannelInfo(inChannels: 1, outChannels: 1), AUChannelInfo(inChannels: 2, outChannels: 2)]
    }

    override var factoryPresets: [(number: Int32, name: String)]? {
        Self.presets.enumerated().map { (Int32($0.offset), $0.element.name) }
    }

    override func applyFactoryPreset(_ number: Int32) -> OSStatus {
        guard number >= 0, Int(number) < Self.presets.count else { return kAudioUnitErr_InvalidPropertyValue }
        requested.store(number, ordering: .releasing)
        currentPreset = (number, Self.presets[Int(number)].name)
        return noErr
    }

    override func initializeUnit() -> OSStatus {
        let status = super.initializeUnit()
        guard status == noErr else { return status }
        let rate = outputs[0].format.mSampleRate
        channels = Int(outputs[0].format.mChannelsPerFrame)
        sections = renderMemory.take(copying: Self.presets.flatMap { GraphicEQDesign.sections(bandGains: $0.gains, sampleRate: rate).prefix(Self.bands) })
        states = renderMemory.take(BiquadState.self, count: channels * Self.bands, repeating: BiquadState())
        fadingStates = renderMemory.take(BiquadState.self, count: channels * Self.bands, repeating: BiquadState())
        scratch = renderMemory.take(Float.self, count: Int(maxFramesPerSlice), repeating: 0)
        fadeLength = max(1, Int(0.010 * rate))
        resetUnit(kAudioUnitScope_Global, 0)
        return noErr
    }

    override func resetUnit(_ scope: AudioUnitScope, _ element: AudioUnitElement) {
        states?.initialize(repeating: BiquadState(), count: channels * Self.bands)
        fadingStates?.initialize(repeating: BiquadState(), count: channels * Self.bands)
        active = requested.load(ordering: .acquiring)
        fadingPreset = -1
    }

    /// The pointers go with the unit's render memory (AUBase frees it after this).
    override func cleanupUnit() {
        sections = nil; states = nil; fadingStates = nil; scratch = nil
    }

    /// Runs one channel through a preset's sections.
    @inline(__always)
    private func filter(_ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Float>, _ n: Int, preset: Int32,
                        _ state: UnsafeMutablePointer<BiquadState>) {
        BiquadKernels.applyCascade(input, output, count: n, sections: sections! + Int(preset) * Self.bands, states: state,
                                   sectionCount: Self.bands)
    }

    override func applyEffect(input: UnsafeMutableAudioBufferListPointer, output: UnsafeMutableAudioBufferListPointer,
                          frames: Int, flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>) -> OSStatus {
        guard let states, let fadingStates, let scratch, sections != nil else { return kAudioUnitErr_Uninitialized }
        let wanted = requested.load(ordering: .acquiring)
        if wanted != active {
            // Fade out the curve playing now (keeping its filter memory) while the new one fades in from
            // the same memory, so neither starts from silence.
            fadingPreset = active
            fadingStates.update(from: states, count: channels * Self.bands)
            active = wanted
            fadePosition = 0
        }
        let start = fadePosition
        for c in 0..<min(channels, input.count, output.count) {
            guard let src = input[c].mData?.assumingMemoryBound(to: Float.self),
                  let dst = output[c].mData?.assumingMemoryBound(to: Float.self) else { return kAudio_ParamError }
            let fading = fadingPreset >= 0
            if fading { filter(src, scratch, frames, preset: fadingPreset, fadingStates + c * Self.bands) }
            filter(src, dst, frames, preset: active, states + c * Self.bands)
            if fading {
                var position = start
                for i in 0..<frames {
                    let w = position >= fadeLength ? 1 : Float(position) / Float(fadeLength)
                    dst[i] = w * dst[i] + (1 - w) * scratch[i]
                    position += 1
                }
            }
        }
        if fadingPreset >= 0 {
            fadePosition = start + frames
            if fadePosition >= fadeLength { fadingPreset = -1 }
        }
        return noErr
    }
}
