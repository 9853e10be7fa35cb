import Foundation

/// Apple's sampler (AUSampler, `'aumu' 'samp'`) as a node: load a preset from a SoundFont or DLS bank, an
/// .aupreset, or audio files, then play it with the MIDI instrument methods. One stereo output.
open class AVAudioUnitSampler: AVAudioUnitMIDIInstrument, @unchecked Sendable {
    static let description = AudioComponentDescription(componentType: kAudioUnitType_MusicDevice, componentSubType: kAudioUnitSubType_Sampler,
                                                       componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    /// A sampler with its default instrument (a sine tone).
    public convenience init() {
        self.init(description: Self.description, unit: Self.instantiate(Self.description))
    }

    /// Loads preset `program` of bank (`bankMSB`, `bankLSB`) from a SoundFont (.sf2) or DLS bank; 0x79 is the
    /// General MIDI melodic bank, 0x78 the percussion bank. Reads the file: not for a real-time thread.
    public func loadSoundBankInstrument(at bankURL: URL, program: UInt8, bankMSB: UInt8, bankLSB: UInt8) throws {
        try load(bankURL, type: UInt8(kInstrumentType_SF2Preset), bankMSB: bankMSB, bankLSB: bankLSB, program: program)
    }

    /// Loads an .aupreset instrument, or makes a default instrument from one audio file.
    public func loadInstrument(at instrumentURL: URL) throws {
        let type: Int
        switch instrumentURL.pathExtension.lowercased() {
        case "aupreset": type = kInstrumentType_AUPreset
        case "exs": type = kInstrumentType_EXS24
        default: type = kInstrumentType_Audiofile
        }
        try load(instrumentURL, type: UInt8(type), bankMSB: 0, bankLSB: 0, program: 0)
    }

    /// Makes a default instrument with one zone per audio file (its root key and range from the file, else
    /// spread from middle C up).
    public func loadAudioFiles(at audioFiles: [URL]) throws {
        var array: CFArray? = audioFiles.map { $0 as NSURL } as NSArray
        try AVAudioError.check(AudioUnitSetProperty(unit, kAUSamplerProperty_LoadAudioFiles, kAudioUnitScope_Global, 0, &array,
                                                    UInt32(MemoryLayout<CFArray?>.size)))
    }

    private func load(_ url: URL, type: UInt8, bankMSB: UInt8, bankLSB: UInt8, program: UInt8) throws {
        let nsURL = url as NSURL
        var data = AUSamplerInstrumentData(fileURL: Unmanaged.passUnretained(nsURL), instrumentType: type,
                                           bankMSB: bankMSB, bankLSB: bankLSB, presetID: program)
        let status = withExtendedLifetime(nsURL) {
            AudioUnitSetProperty(unit, kAUSamplerProperty_LoadInstrument, kAudioUnitScope_Global, 0, &data,
                                 UInt32(MemoryLayout<AUSamplerInstrumentData>.size))
        }
        try AVAudioError.check(status)
    }

    /// Pan of every note, -100 (left) ... 100 (right); 0 by default.
    public var stereoPan: Float {
        get { parameter(kAUSamplerParam_Pan) * 100 }
        set { setParameter(kAUSamplerParam_Pan, min(max(newValue, -100), 100) / 100) }
    }

    /// Gain of every note in dB, -90 ... 12; 0 by default.
    public var overallGain: Float {
        get { parameter(kAUSamplerParam_Gain) }
        set { setParameter(kAUSamplerParam_Gain, min(max(newValue, -90), 12)) }
    }

    /// The old name of `overallGain`.
    @available(*, deprecated, renamed: "overallGain")
    public var masterGain: Float {
        get { overallGain }
        set { overallGain = newValue }
    }

    /// Tuning of every note in cents, -2400 ... 2400; 0 by default (the unit's coarse and fine tuning).
    public var globalTuning: Float {
        get { parameter(kAUSamplerParam_CoarseTuning) * 100 + parameter(kAUSamplerParam_FineTuning) }
        set {
            let cents = min(max(newValue, -2400), 2400)
            let coarse = (cents / 100).rounded(.towardZero)
            setParameter(kAUSamplerParam_CoarseTuning, coarse)
            setParameter(kAUSamplerParam_FineTuning, cents - coarse * 100)
        }
    }
}
