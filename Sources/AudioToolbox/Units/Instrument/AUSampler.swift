import AudioDSP

/// AUSampler (`'aumu' 'samp' 'appl'`): one instrument on every MIDI channel. Before anything is loaded it plays
/// Apple's default, a sine ("Sine 440 built-in"). kAUSamplerProperty_LoadInstrument loads a preset of a SoundFont
/// or DLS bank (kInstrumentType_SF2Preset and kInstrumentType_DLSPreset are one value: the file's RIFF form type
/// decides), an .aupreset, or one audio file;
/// kAUSamplerProperty_LoadAudioFiles makes an instrument of several files; an .aupreset's dictionary set as
/// ClassInfo loads its zones (the book's chapter 12). Program changes select presets of the loaded bank, as on
/// Apple's. Parameters (global): gain -90...12 dB, coarse tuning -24...24 semitones, fine tuning -99...99 cents,
/// pan -1...1.
final class AUSampler: AUInstrumentUnit, @unchecked Sendable {
    static let description = AudioComponentDescription(
        componentType: kAudioUnitType_MusicDevice, componentSubType: kAudioUnitSubType_Sampler,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    /// The preset the unit plays in its bank, as LoadInstrument named it.
    private var selection = (msb: UInt8(kAUSampler_DefaultMelodicBankMSB), lsb: UInt8(0), program: UInt8(0))
    /// The sine instrument, built once per process.
    private static let sine: SoundFont? = try? SoundFont(bytes: SamplerInstrumentBuilder.defaultSine().bytes())

    override init(component: AudioComponentEntry) {
        super.init(component: component)
        defineParameter(kAUSamplerParam_Gain, scope: kAudioUnitScope_Global, element: 0,
                        .oca("Gain", unit: .decibels, min: -90, max: 12, default: 0))
        defineParameter(kAUSamplerParam_CoarseTuning, scope: kAudioUnitScope_Global, element: 0,
                        .oca("Coarse Tuning", unit: .relativeSemiTones, min: -24, max: 24, default: 0))
        defineParameter(kAUSamplerParam_FineTuning, scope: kAudioUnitScope_Global, element: 0,
                        .oca("Fine Tuning", unit: .cents, min: -99, max: 99, default: 0))
        defineParameter(kAUSamplerParam_Pan, scope: kAudioUnitScope_Global, element: 0,
                        .oca("Pan", unit: .pan, min: -1, max: 1, default: 0))
    }

    override func builtInBank() -> SoundFont? { Self.sine }

    override func selectPresets(_ engine: SamplerEngine) {
        let (msb, lsb, program) = font == nil ? (UInt8(kAUSampler_DefaultMelodicBankMSB), UInt8(0), UInt8(0)) : selection
        for channel in 0..<16 {
            _ = engine.selectPreset(channel: channel, bankMSB: Int(msb), bankLSB: Int(lsb), program: Int(program))
        }
    }

    override var tuningCents: Float {
        parameterValue(kAUSamplerParam_CoarseTuning, kAudioUnitScope_Global, 0) * 100
            + parameterValue(kAUSamplerParam_FineTuning, kAudioUnitScope_Global, 0)
    }

    override func postProcess(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, frames: Int) {
        let gain = pow(10, parameterValue(kAUSamplerParam_Gain, kAudioUnitScope_Global, 0) / 20)
        let pan = min(max(parameterValue(kAUSamplerParam_Pan, kAudioUnitScope_Global, 0), -1), 1)
        // Balance: turning right attenuates the left side only, and the other way round.
        let l = gain * min(1, 1 - pan), r = gain * min(1, 1 + pan)
        guard l != 1 || r != 1 else { return }
        for i in 0..<frames { left[i] *= l; right[i] *= r }
    }

    // MARK: Loading

    /// kAUSamplerProperty_LoadInstrument.
    private func loadInstrument(_ data: AUSamplerInstrumentData) -> OSStatus {
        let url = data.fileURL.takeUnretainedValue()
        guard let path = url.path else { return kAudioUnitErr_InvalidFile }
        switch Int(data.instrumentType) {
        case kInstrumentType_SF2Preset:
            switch SoundBankCache.bank(at: path) {
            case .failure(let e): return e.status
            case .success(let bank):
                let sfBank = SamplerEngine.soundFontBank(bankMSB: Int(data.bankMSB), bankLSB: Int(data.bankLSB))
                guard bank.presetIndex(bank: sfBank, program: Int(data.presetID)) != nil else { return kAudioUnitErr_InvalidPropertyValue }
                selection = (data.bankMSB, data.bankLSB, data.presetID)
                install(bank, path: path)
                return noErr
            }
        case kInstrumentType_AUPreset:
            guard let plist = NSDictionary(contentsOfFile: path) else { return kAudioUnitErr_InvalidFile }
            return applyClassInfo(plist, presetDirectory: (path as NSString).deletingLastPathComponent)
        case kInstrumentType_Audiofile:
            return loadAudioFiles([path])
        default:
            // EXS24 instruments: no reader.
            return kAudioUnitErr_InvalidFile
        }
    }

    /// kAUSamplerProperty_LoadAudioFiles (and a single file from LoadInstrument): one zone per file. One file
    /// covers the whole keyboard with its root at middle C; several take consecutive keys from middle C up,
    /// each played at its own pitch.
    private func loadAudioFiles(_ paths: [String]) -> OSStatus {
        guard !paths.isEmpty, paths.count <= 128 else { return kAudioUnitErr_InvalidPropertyValue }
        var builder = SamplerInstrumentBuilder(name: "Default Instrument")
        for (i, path) in paths.enumerated() {
            switch SamplerAudioFile.read(path) {
            case .failure(let e): return e.status
            case .success(let sample):
                builder.samples.append(sample)
                let key = UInt8(min(60 + i, 127))
                builder.zones.append(paths.count == 1 ? .init(sample: 0, rootKey: 60) : .init(sample: i, keys: key...key, rootKey: key))
            }
        }
        return installBuilt(builder)
    }

    private func installBuilt(_ builder: SamplerInstrumentBuilder) -> OSStatus {
        do {
            let bank = try SoundFont(bytes: builder.bytes())
            selection = (UInt8(kAUSampler_DefaultMelodicBankMSB), 0, 0)
            install(bank, path: nil)
            return noErr
        } catch {
            return kAudioUnitErr_InvalidFile
        }
    }

    /// A ClassInfo dictionary: the parameters as every unit reads them, then the instrument if it has one.
    private func applyClassInfo(_ d: NSDictionary, presetDirectory: String?) -> OSStatus {
        let status = restoreState(d)
        guard status == noErr else { return status }
        guard let parsed = AUSamplerPreset.parse(d, presetDirectory: presetDirectory) else { return noErr }
        switch parsed {
        case .failure(let e): return e.status
        case .success(let preset):
            if let gain = preset.gain { _ = setParameter(kAUSamplerParam_Gain, kAudioUnitScope_Global, 0, min(max(gain, -90), 12), 0) }
            if let pan = preset.pan { _ = setParameter(kAUSamplerParam_Pan, kAudioUnitScope_Global, 0, min(max(pan, -1), 1), 0) }
            if let coarse = preset.coarseTune {
                _ = setParameter(kAUSamplerParam_CoarseTuning, kAudioUnitScope_Global, 0, min(max(coarse, -24), 24), 0)
            }
            if let fine = preset.fineTune { _ = setParameter(kAUSamplerParam_FineTuning, kAudioUnitScope_Global, 0, min(max(fine, -99), 99), 0) }
            return installBuilt(preset.builder)
        }
    }

    // MARK: Properties

    override class var propertyRows: [AUProperty] {
        super.propertyRows + [
            AUProperty(kAUSamplerProperty_LoadInstrument, place: AUProperty.globalScope, writable: .always,
                       size: { _, _, _ in UInt32(MemoryLayout<AUSamplerInstrumentData>.size) },
                       setSize: UInt32(MemoryLayout<AUSamplerInstrumentData>.size),
                       read: { _, _, _, _ in kAudioUnitErr_InvalidPropertyValue },
                       write: { unit, _, _, data in
                           unsafeDowncast(unit, to: AUSampler.self).loadInstrument(data.loadUnaligned(as: AUSamplerInstrumentData.self))
                       }),
            .object(kAUSamplerProperty_LoadAudioFiles, of: AUSampler.self, place: AUProperty.globalScope, writable: .always,
                    get: { _, _, _ in .failure(OSStatusError(kAudioUnitErr_InvalidPropertyValue)) },
                    set: { unit, _, _, object in
                        guard let array = object as? NSArray else { return kAudioUnitErr_InvalidPropertyValue }
                        var paths: [String] = []
                        for item in array {
                            if let url = item as? NSURL, let path = url.path { paths.append(path) }
                            else if let url = item as? URL { paths.append(url.path) }
                            else { return kAudioUnitErr_InvalidPropertyValue }
                        }
                        return unit.loadAudioFiles(paths)
                    }),
            .object(kAudioUnitProperty_ClassInfo, of: AUSampler.self, place: AUProperty.global, writable: .always, notify: .bySetter,
                    get: { unit, _, _ in .success(unit.saveState()) },
                    set: { unit, _, _, object in
                        guard let d = object as? NSDictionary else { return kAudioUnitErr_InvalidPropertyValue }
                        return unit.applyClassInfo(d, presetDirectory: nil)
                    }),
        ]
    }
}
