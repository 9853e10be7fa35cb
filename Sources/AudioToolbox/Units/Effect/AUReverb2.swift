import AudioDSP

/// AUReverb2 (`'aufx' 'rvb2' 'appl'`, what AVAudioUnitReverb runs): AudioDSP's Reverb2Kernel (a 16-line
/// feedback-delay network, Hadamard feedback, a shelf per loop giving the RT60 at 0 Hz and at Nyquist) with Apple's
/// parameters (dry/wet 0-100 % default 100, gain -20-20 dB, min/max delay 0.0001-1 s defaults 0.008/0.050, decay at
/// 0 Hz and at Nyquist 0.001-20 s defaults 1.0/0.5, randomize reflections 1-1000). kAudioUnitProperty_ReverbRoomType
/// sets the delay and decay parameters from one of Apple's room types (ReverbRoomPreset's values, ours).
final class AUReverb2: AUSingleKernelEffect<Reverb2Kernel>, @unchecked Sendable {
    static let description = AudioComponentDescription(
        componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_Reverb2,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    private var roomType: UInt32 = 0

    override init(component: AudioComponentEntry) {
        super.init(component: component)
        defineEffectParameters()
    }

    override func effectParameters() -> [EffectParameter] {
        [EffectParameter(id: kReverb2Param_DryWetMix, name: "Dry Wet Mix", unit: .equalPowerCrossfade, min: 0, max: 100, defaultValue: 100),
         EffectParameter(id: kReverb2Param_Gain, name: "Gain", unit: .decibels, min: -20, max: 20, defaultValue: 0),
         EffectParameter(id: kReverb2Param_MinDelayTime, name: "Min Delay Time", unit: .seconds, min: 0.0001, max: 1, defaultValue: 0.008),
         EffectParameter(id: kReverb2Param_MaxDelayTime, name: "Max Delay Time", unit: .seconds, min: 0.0001, max: 1, defaultValue: 0.050),
         EffectParameter(id: kReverb2Param_DecayTimeAt0Hz, name: "Decay Time At 0 Hz", unit: .seconds, min: 0.001, max: 20, defaultValue: 1.0),
         EffectParameter(id: kReverb2Param_DecayTimeAtNyquist, name: "Decay Time At Nyquist", unit: .seconds, min: 0.001, max: 20, defaultValue: 0.5),
         EffectParameter(id: kReverb2Param_RandomizeReflections, name: "Randomize Reflections", unit: .generic, min: 1, max: 1000, defaultValue: 1)]
    }

    override var tailTime: Double? {
        Double(max(value(kReverb2Param_DecayTimeAt0Hz), value(kReverb2Param_DecayTimeAtNyquist)) + value(kReverb2Param_MaxDelayTime))
    }

    override func newKernel(sampleRate: Double, maximumFrames: Int, channels: Int) -> Reverb2Kernel {
        Reverb2Kernel(sampleRate: sampleRate, maximumFrames: maximumFrames, channels: channels)
    }

    override func pushParameters(to kernel: Reverb2Kernel) {
        kernel.setDryWetMix(Double(value(kReverb2Param_DryWetMix)))
        kernel.setGain(Double(value(kReverb2Param_Gain)))
        kernel.setDelayTimes(minimum: Double(value(kReverb2Param_MinDelayTime)), maximum: Double(value(kReverb2Param_MaxDelayTime)),
                             randomizeReflections: Int(value(kReverb2Param_RandomizeReflections)))
        kernel.setDecayTimes(at0Hz: Double(value(kReverb2Param_DecayTimeAt0Hz)), atNyquist: Double(value(kReverb2Param_DecayTimeAtNyquist)))
    }

    /// The room types as factory presets, with the names Apple's AUReverb2 lists (AVAudioUnitReverb's presets load these).
    override var factoryPresets: [(number: Int32, name: String)]? {
        ["Small Room", "Medium Room", "Large Room", "Medium Hall", "Large Hall", "Plate", "Medium Chamber", "Large Chamber",
         "Cathedral", "Large Room 2", "Medium Hall 2", "Medium Hall 3", "Large Hall 2"].enumerated().map { (Int32($0.offset), $0.element) }
    }

    override func applyFactoryPreset(_ number: Int32) -> OSStatus {
        guard number >= 0, applyRoom(UInt32(number)) else { return kAudioUnitErr_InvalidPropertyValue }
        currentPreset = (number, factoryPresets![Int(number)].name)
        return noErr
    }

    /// Sets the delay and decay parameters from a room type; false for an unknown one.
    private func applyRoom(_ type: UInt32) -> Bool {
        guard let room = ReverbRoomPreset(roomType: Int(type)) else { return false }
        roomType = type
        storeValue(kReverb2Param_DecayTimeAt0Hz, Float(room.decayTimeAt0Hz))
        storeValue(kReverb2Param_DecayTimeAtNyquist, Float(room.decayTimeAtNyquist))
        storeValue(kReverb2Param_MinDelayTime, Float(room.minDelayTime))
        storeValue(kReverb2Param_MaxDelayTime, Float(room.maxDelayTime))
        return true
    }

    override class var propertyRows: [AUProperty] {
        super.propertyRows + [
            .value(kAudioUnitProperty_ReverbRoomType, UInt32.self, of: AUReverb2.self, place: AUProperty.global, writable: .always,
                   get: { unit, _, _ in unit.roomType },
                   set: { unit, _, _, type in unit.applyRoom(type) ? noErr : kAudioUnitErr_InvalidPropertyValue }),
        ]
    }
}
