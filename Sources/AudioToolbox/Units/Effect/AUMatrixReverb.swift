import AudioDSP

/// AUMatrixReverb (`'aufx' 'mrev' 'appl'`, macOS; the book's chapter 7 reverb): Apple's fourteen parameters on
/// AudioDSP's MatrixReverbKernel: a small (early) network sized by SmallSize, SmallDensity, SmallDelayRange and
/// SmallBrightness, a large (late) one whose RT60 is LargeSize at 0 Hz and LargeSize x LargeBrightness at Nyquist,
/// spread by LargeDensity and LargeDelayRange and pre-delayed by PreDelay + LargeDelay, modulation rotating its
/// output taps, SmallLargeMix and DryWetMix as equal-power crossfades. kAudioUnitProperty_ReverbRoomType sets the
/// large part and the sizes from a room (ReverbRoomPreset's values, ours: Apple does not publish its own).
final class AUMatrixReverb: AUSingleKernelEffect<MatrixReverbKernel>, @unchecked Sendable {
    static let description = AudioComponentDescription(
        componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_MatrixReverb,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    private var roomType = UInt32(AUReverbRoomType.reverbRoomType_MediumHall.rawValue)

    override init(component: AudioComponentEntry) {
        super.init(component: component)
        defineEffectParameters()
        apply(ReverbRoomPreset(roomType: Int(roomType))!)
    }

    override func effectParameters() -> [EffectParameter] {
        [EffectParameter(id: kReverbParam_DryWetMix, name: "dry/wet mix", unit: .equalPowerCrossfade, min: 0, max: 100, defaultValue: 100),
         EffectParameter(id: kReverbParam_SmallLargeMix, name: "small/large mix", unit: .equalPowerCrossfade, min: 0, max: 100, defaultValue: 50),
         EffectParameter(id: kReverbParam_SmallSize, name: "small size", unit: .seconds, min: 0.005, max: 0.020, defaultValue: 0.020),
         EffectParameter(id: kReverbParam_LargeSize, name: "large size", unit: .seconds, min: 0.4, max: 10, defaultValue: 3.07),
         EffectParameter(id: kReverbParam_PreDelay, name: "pre-delay", unit: .seconds, min: 0.001, max: 0.03, defaultValue: 0.025),
         EffectParameter(id: kReverbParam_LargeDelay, name: "large delay", unit: .seconds, min: 0.001, max: 0.1, defaultValue: 0.035),
         EffectParameter(id: kReverbParam_SmallDensity, name: "small density", unit: .generic, min: 0, max: 1, defaultValue: 0.28),
         EffectParameter(id: kReverbParam_LargeDensity, name: "large density", unit: .generic, min: 0, max: 1, defaultValue: 0.82),
         EffectParameter(id: kReverbParam_LargeDelayRange, name: "large delay range", unit: .generic, min: 0, max: 1, defaultValue: 0.3),
         EffectParameter(id: kReverbParam_SmallBrightness, name: "small brightness", unit: .generic, min: 0.1, max: 1, defaultValue: 0.96),
         EffectParameter(id: kReverbParam_LargeBrightness, name: "large brightness", unit: .generic, min: 0.1, max: 1, defaultValue: 0.49),
         EffectParameter(id: kReverbParam_SmallDelayRange, name: "small delay range", unit: .generic, min: 0, max: 1, defaultValue: 0.5),
         EffectParameter(id: kReverbParam_ModulationRate, name: "modulation rate", unit: .hertz, min: 0.001, max: 2, defaultValue: 1),
         EffectParameter(id: kReverbParam_ModulationDepth, name: "modulation depth", unit: .generic, min: 0, max: 1, defaultValue: 0.2)]
    }

    /// The parameters a room sets.
    private func apply(_ room: ReverbRoomPreset) {
        let p = room.applied(to: parameters())
        storeValue(kReverbParam_LargeSize, Float(p.largeSize))
        storeValue(kReverbParam_LargeBrightness, Float(p.largeBrightness))
        storeValue(kReverbParam_LargeDensity, Float(p.largeDensity))
        storeValue(kReverbParam_LargeDelayRange, Float(p.largeDelayRange))
        storeValue(kReverbParam_PreDelay, Float(p.preDelay))
        storeValue(kReverbParam_LargeDelay, Float(p.largeDelay))
        storeValue(kReverbParam_SmallSize, Float(p.smallSize))
    }

    /// The current parameter values as the kernel takes them.
    private func parameters() -> MatrixReverbParameters {
        var p = MatrixReverbParameters()
        p.dryWetMix = Double(value(kReverbParam_DryWetMix))
        p.smallLargeMix = Double(value(kReverbParam_SmallLargeMix))
        p.smallSize = Double(value(kReverbParam_SmallSize))
        p.largeSize = Double(value(kReverbParam_LargeSize))
        p.preDelay = Double(value(kReverbParam_PreDelay))
        p.largeDelay = Double(value(kReverbParam_LargeDelay))
        p.smallDensity = Double(value(kReverbParam_SmallDensity))
        p.largeDensity = Double(value(kReverbParam_LargeDensity))
        p.largeDelayRange = Double(value(kReverbParam_LargeDelayRange))
        p.smallBrightness = Double(value(kReverbParam_SmallBrightness))
        p.largeBrightness = Double(value(kReverbParam_LargeBrightness))
        p.smallDelayRange = Double(value(kReverbParam_SmallDelayRange))
        p.modulationRate = Double(value(kReverbParam_ModulationRate))
        p.modulationDepth = Double(value(kReverbParam_ModulationDepth))
        return p
    }


    /// The RT60 at low frequencies the current parameters give (LargeSize).
    var lowDecay: Double { Double(value(kReverbParam_LargeSize)) }

    override var tailTime: Double? { kernel?.tailTime ?? lowDecay + 0.2 }

    override func newKernel(sampleRate: Double, maximumFrames: Int, channels: Int) -> MatrixReverbKernel {
        MatrixReverbKernel(sampleRate: sampleRate, maximumFrames: maximumFrames, channels: channels)
    }

    override func pushParameters(to kernel: MatrixReverbKernel) {
        kernel.setParameters(parameters())
    }

    override class var propertyRows: [AUProperty] {
        super.propertyRows + [
            .value(kAudioUnitProperty_ReverbRoomType, UInt32.self, of: AUMatrixReverb.self, place: AUProperty.global, writable: .always,
                   get: { unit, _, _ in unit.roomType },
                   set: { unit, _, _, type in
                       guard let room = ReverbRoomPreset(roomType: Int(type)) else { return kAudioUnitErr_InvalidPropertyValue }
                       unit.roomType = type
                       unit.apply(room)
                       return noErr
                   }),
        ]
    }
}
