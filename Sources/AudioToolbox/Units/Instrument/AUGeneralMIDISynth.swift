import AudioDSP

/// The General MIDI synthesizers: DLSSynth (`'aumu' 'dls ' 'appl'`, macOS) and AUMIDISynth (`'aumu' 'msyn'
/// 'appl'`, iOS), multi-timbral on 16 channels with channel 10 playing the percussion bank, as the book's
/// chapter 11 uses DLSSynth. They play a General MIDI SoundFont or DLS bank: kMusicDeviceProperty_SoundBankURL's, else
/// the installed default (`SoundBankCache.defaultBankPath`: Debian's default-GM.sf2); with no bank at all,
/// AudioUnitInitialize answers kAudioUnitErr_InvalidFile. Parameters (global): tuning -1200...1200 cents,
/// volume -120...40 dB, reverb volume (kept, not rendered: the engine has no reverb).
final class AUGeneralMIDISynth: AUInstrumentUnit, @unchecked Sendable {
    static func description(_ subType: OSType) -> AudioComponentDescription {
        AudioComponentDescription(componentType: kAudioUnitType_MusicDevice, componentSubType: subType,
                                  componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
    }

    private var preload: UInt32 = 0

    override init(component: AudioComponentEntry) {
        super.init(component: component)
        defineParameter(kMusicDeviceParam_Tuning, scope: kAudioUnitScope_Global, element: 0,
                        .oca("Tuning", unit: .cents, min: -1200, max: 1200, default: 0))
        defineParameter(kMusicDeviceParam_Volume, scope: kAudioUnitScope_Global, element: 0,
                        .oca("Volume", unit: .decibels, min: -120, max: 40, default: 0))
        defineParameter(kMusicDeviceParam_ReverbVolume, scope: kAudioUnitScope_Global, element: 0,
                        .oca("Reverb Volume", unit: .decibels, min: -120, max: 40, default: 0))
    }

    override func builtInBank() -> SoundFont? { SoundBankCache.defaultBank() }

    override func initializeUnit() -> OSStatus {
        guard playingBank != nil else { return kAudioUnitErr_InvalidFile }
        return super.initializeUnit()
    }

    override var tuningCents: Float { parameterValue(kMusicDeviceParam_Tuning, kAudioUnitScope_Global, 0) }

    override func postProcess(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, frames: Int) {
        let gain = pow(10, parameterValue(kMusicDeviceParam_Volume, kAudioUnitScope_Global, 0) / 20)
        guard gain != 1 else { return }
        for i in 0..<frames { left[i] *= gain; right[i] *= gain }
    }

    override class var propertyRows: [AUProperty] {
        super.propertyRows + [
            .object(kMusicDeviceProperty_SoundBankURL, of: AUGeneralMIDISynth.self, place: AUProperty.globalScope, writable: .always,
                    get: { unit, _, _ in
                        guard let path = unit.bankPath ?? SoundBankCache.defaultBankPath else {
                            return .failure(OSStatusError(kAudioUnitErr_PropertyNotInUse))
                        }
                        return .success(NSURL(fileURLWithPath: path))
                    },
                    set: { unit, _, _, object in
                        guard let path = (object as? NSURL)?.path ?? (object as? URL)?.path else { return kAudioUnitErr_InvalidPropertyValue }
                        switch SoundBankCache.bank(at: path) {
                        case .failure(let e): return e.status
                        case .success(let bank):
                            unit.install(bank, path: path)
                            return noErr
                        }
                    }),
            .value(kAUMIDISynthProperty_EnablePreload, UInt32.self, of: AUGeneralMIDISynth.self, place: AUProperty.globalScope,
                   writable: .always,
                   get: { unit, _, _ in unit.preload },
                   // Every preset of a loaded bank is in memory already: preloading has nothing to do.
                   set: { unit, _, _, value in unit.preload = value; return noErr }),
        ]
    }
}
