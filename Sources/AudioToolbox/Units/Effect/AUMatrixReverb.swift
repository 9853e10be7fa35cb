import AudioDSP

/// AUMatrixReverb (`'aufx' 'mrev' 'appl'`, macOS; the book's chapter 7 reverb): Apple's fourteen parameters on
/// AudioDSP's FDNReverbKernel. What the engine models: DryWetMix (0-100, default 100), LargeSize as the RT60 at
/// low frequencies (0.4-10 s), LargeBrightness as the ratio of the RT60 at Nyquist to it, SmallSize and LargeDelay
/// (with LargeDelayRange) as the spread of the network's delays, PreDelay. The small-room/large-room split
/// (SmallLargeMix, the densities, SmallBrightness, SmallDelayRange) and modulation are stored and reported but not
/// modelled separately. kAudioUnitProperty_ReverbRoomType sets the modelled parameters from a room (ReverbRoom).
final class AUMatrixReverb: AUKernelEffect, @unchecked Sendable {
    static let description = AudioComponentDescription(
        componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_MatrixReverb,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    private var kernel: FDNReverbKernel?
    private var roomType = UInt32(AUReverbRoomType.reverbRoomType_MediumHall.rawValue)

    override init(component: AudioComponentEntry) {
        super.init(component: component)
        defineEffectParameters()
        apply(ReverbRoom.all[Int(roomType)])
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

    /// The modelled parameters for a room.
    private func apply(_ room: ReverbRoom) {
        store(kReverbParam_LargeSize, max(0.4, room.decayLow))
        store(kReverbParam_LargeBrightness, min(1, max(0.1, room.decayHigh / room.decayLow)))
        store(kReverbParam_SmallSize, min(0.020, max(0.005, room.minDelay)))
        store(kReverbParam_LargeDelayRange, 0.3)
        store(kReverbParam_LargeDelay, min(0.1, max(0.001, room.maxDelay / 1.6)))
        store(kReverbParam_PreDelay, min(0.03, max(0.001, room.preDelay)))
    }

    private func store(_ id: AudioUnitParameterID, _ v: Double) {
        if let (table, i) = parameterSlot(id, kAudioUnitScope_Global, 0) { table.setValue(at: i, Float(v)) }
    }

    /// The RT60 at low frequencies the current parameters give (LargeSize).
    var lowDecay: Double { Double(value(kReverbParam_LargeSize)) }

    override var tailTime: Double? { lowDecay + 0.2 }

    override func makeKernel(sampleRate: Double, maximumFrames: Int, channels: Int) -> Bool {
        kernel = FDNReverbKernel(sampleRate: sampleRate, maximumFrames: maximumFrames)
        push()
        kernel?.settle()
        return true
    }

    override func releaseKernel() { kernel = nil }
    override func resetUnit(_ scope: AudioUnitScope, _ element: AudioUnitElement) { kernel?.reset() }

    private func push() {
        guard let kernel else { return }
        let size = Double(value(kReverbParam_LargeSize))
        kernel.setDryWetMix(Double(value(kReverbParam_DryWetMix)))
        kernel.setDecay(at0Hz: size, atNyquist: size * Double(value(kReverbParam_LargeBrightness)))
        let largest = Double(value(kReverbParam_LargeDelay)) * (1 + 2 * Double(value(kReverbParam_LargeDelayRange)))
        kernel.setDelays(min: Double(value(kReverbParam_SmallSize)), max: max(largest, Double(value(kReverbParam_SmallSize)) + 0.001), seed: 1)
        kernel.setPreDelay(Double(value(kReverbParam_PreDelay)))
    }

    override func process(input: UnsafePointer<UnsafeMutablePointer<Float>>, output: UnsafePointer<UnsafeMutablePointer<Float>>,
                          channels: Int, frames: Int) {
        push()
        kernel?.process(input: input, output: output, channels: channels, frames: frames)
    }

    override class var propertyRows: [AUProperty] {
        super.propertyRows + [
            .value(kAudioUnitProperty_ReverbRoomType, UInt32.self, of: AUMatrixReverb.self, place: AUProperty.global, writable: .always,
                   get: { unit, _, _ in unit.roomType },
                   set: { unit, _, _, type in
                       guard Int(type) < ReverbRoom.all.count else { return kAudioUnitErr_InvalidPropertyValue }
                       unit.roomType = type
                       unit.apply(ReverbRoom.all[Int(type)])
                       return noErr
                   }),
        ]
    }
}
