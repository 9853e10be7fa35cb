#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A SoundFont 2 synthesizer: 16 MIDI channels playing a `SoundFont`'s presets through a fixed pool of voices,
/// with SoundFont 2.04's synthesis model (sample playback with cubic interpolation and loops, DAHDSR volume and
/// modulation envelopes, two LFOs, resonant low-pass, default and bank modulators) and FluidSynth's conventions
/// where the specification leaves room (attenuation ×0.4, the concave curve, the pan law, filter Q, envelopes),
/// so that it sounds like the `fluidsynth` reference. Reverb and chorus sends are not rendered.
///
/// Threading: the API is single-threaded (the caller serialises calls). `handle(status:data1:data2:)` and
/// `render(frameCount:left:right:)` allocate nothing and take no lock, so they may run on a real-time thread;
/// `load(_:)` and `init` allocate and must not. (The voice DSP carries the compiler's `@_noLocks @_noAllocation`
/// check; the engine's event and render paths, which read the SoundFont's tables, are checked by a test that
/// counts allocations while they run.) An event takes effect at the next rendered frame: a caller that
/// splits its render at an event's offset gets sample-accurate timing.
public final class SamplerEngine {
    /// Bank select MSB that Apple's AUSampler reads as "percussion" (SoundFont bank 128).
    public static let percussionBankMSB = 0x78
    /// Bank select MSB that Apple's AUSampler reads as "melodic"; the LSB then names the SoundFont bank.
    public static let melodicBankMSB = 0x79

    /// The output sample rate, Hz.
    public let sampleRate: Double
    /// How many voices may sound at once; a note beyond that steals one (released voices first, then the oldest).
    public let maximumVoices: Int
    /// The bank playing, if any.
    public private(set) var soundFont: SoundFont?
    /// A gain applied to the mix (1 renders voices at the SoundFont's own level, like `fluidsynth -g 1`).
    public var masterGain: Float = 1
    /// A tuning offset of every voice in cents (AUSampler's coarse and fine tuning, the GM synths' tuning); a change
    /// retunes the sounding voices at once. Safe on the render thread.
    public var tuningCents: Float = 0 {
        didSet {
            guard tuningCents != oldValue else { return }
            for c in 0 ..< 16 { updateVoices(channel: c) }
        }
    }

    static let fadeSpares = 16
    private let poolSize: Int
    private let voices: UnsafeMutablePointer<SamplerVoice>
    private let voiceGenerators: UnsafeMutablePointer<Float>
    private let voiceModulators: UnsafeMutablePointer<SoundFontModulator>
    private let scratch: UnsafeMutablePointer<Float>
    private let channels: UnsafeMutablePointer<SamplerChannel>
    /// Controller values, 16 × 128.
    private let controllers: UnsafeMutablePointer<UInt8>
    /// Polyphonic key pressure, 16 × 128.
    private let keyPressure: UnsafeMutablePointer<UInt8>
    private var nextNoteID: UInt64 = 1
    private let maximumFilterCents: Double
    /// sin and cos of 2π·f/rate for the cutoffs 1500...13500 cents, one row per cent.
    private let filterSinCos: UnsafeMutablePointer<Double>
    /// One control interval of one voice's samples, between the voice's passes.
    private let voiceBuffer: UnsafeMutablePointer<Float>
    /// Catmull-Rom coefficients for 256 fractional positions, four per row (FluidSynth's interp_coeff table).
    private let interpolation: UnsafeMutablePointer<Float>

    /// An engine rendering at `sampleRate` with room for `maximumVoices` voices (at least 1).
    public init(sampleRate: Double, maximumVoices: Int = 64) {
        self.sampleRate = sampleRate > 0 ? sampleRate : 44100
        self.maximumVoices = max(1, maximumVoices)
        poolSize = self.maximumVoices + SamplerEngine.fadeSpares
        voices = .allocate(capacity: poolSize)
        voices.initialize(repeating: SamplerVoice(), count: poolSize)
        voiceGenerators = .allocate(capacity: poolSize * SoundFontGenerator.count)
        voiceGenerators.initialize(repeating: 0, count: poolSize * SoundFontGenerator.count)
        voiceModulators = .allocate(capacity: poolSize * SoundFont.maximumVoiceModulators)
        voiceModulators.initialize(repeating: SoundFontModulator(source: 0, destination: 0, amount: 0, amountSource: 0, transform: 0),
                                   count: poolSize * SoundFont.maximumVoiceModulators)
        scratch = .allocate(capacity: SoundFontGenerator.count)
        scratch.initialize(repeating: 0, count: SoundFontGenerator.count)
        channels = .allocate(capacity: 16)
        channels.initialize(repeating: SamplerChannel(), count: 16)
        controllers = .allocate(capacity: 16 * 128)
        controllers.initialize(repeating: 0, count: 16 * 128)
        keyPressure = .allocate(capacity: 16 * 128)
        keyPressure.initialize(repeating: 0, count: 16 * 128)
        maximumFilterCents = SamplerMath.hzToCents(0.45 * self.sampleRate)
        filterSinCos = .allocate(capacity: 2 * 12001)
        voiceBuffer = .allocate(capacity: SamplerVoice.controlInterval)
        voiceBuffer.initialize(repeating: 0, count: SamplerVoice.controlInterval)
        interpolation = .allocate(capacity: 4 * 256)
        for row in 0 ..< 256 {
            let x = Double(row) / 256
            interpolation[4 * row] = Float(x * (-0.5 + x * (1 - 0.5 * x)))
            interpolation[4 * row + 1] = Float(1 + x * x * (1.5 * x - 2.5))
            interpolation[4 * row + 2] = Float(x * (0.5 + x * (2 - 1.5 * x)))
            interpolation[4 * row + 3] = Float(0.5 * x * x * (x - 1))
        }
        for row in 0 ... 12000 {
            let omega = 2 * Double.pi * SamplerMath.centsToHz(Double(1500 + row)) / self.sampleRate
            filterSinCos[2 * row] = sin(omega)
            filterSinCos[2 * row + 1] = cos(omega)
        }
        for c in 0 ..< 16 { resetChannel(c) }
    }

    deinit {
        voices.deallocate()
        voiceGenerators.deallocate()
        voiceModulators.deallocate()
        scratch.deallocate()
        channels.deallocate()
        controllers.deallocate()
        keyPressure.deallocate()
        filterSinCos.deallocate()
        voiceBuffer.deallocate()
        interpolation.deallocate()
    }

    /// Plays `soundFont` from now on (nil: silence). Stops every voice and resolves each channel's program again.
    /// Not for the render thread.
    public func load(_ soundFont: SoundFont?) {
        for v in 0 ..< poolSize { voices[v].state = .free }
        self.soundFont = soundFont
        for c in 0 ..< 16 { resolvePreset(c) }
    }

    /// The SoundFont bank a bank select names, as Apple's AUSampler reads it: MSB 0x78 is the percussion bank
    /// (128), MSB 0x79 the melodic bank numbered by the LSB; any other MSB is the bank itself (GS style, the
    /// LSB ignored, as `fluidsynth` does by default).
    public static func soundFontBank(bankMSB: Int, bankLSB: Int) -> Int {
        switch bankMSB {
        case percussionBankMSB: return 128
        case melodicBankMSB: return bankLSB
        default: return bankMSB
        }
    }

    /// Selects the preset of SoundFont bank `soundFontBank(bankMSB:bankLSB:)` and `program` on `channel` (0...15).
    /// Returns false, leaving the channel as it was, when the bank has no such preset.
    @discardableResult
    public func selectPreset(channel: Int, bankMSB: Int, bankLSB: Int, program: Int) -> Bool {
        guard (0 ..< 16).contains(channel), let font = soundFont,
              let index = font.presetIndex(bank: SamplerEngine.soundFontBank(bankMSB: bankMSB, bankLSB: bankLSB), program: program)
        else { return false }
        channels[channel].bankMSB = bankMSB
        channels[channel].bankLSB = bankLSB
        channels[channel].bankSelected = true
        channels[channel].program = program
        channels[channel].presetIndex = index
        return true
    }

    /// The index in `soundFont.presets` of the preset `channel` plays, or nil.
    public func presetIndex(channel: Int) -> Int? {
        guard (0 ..< 16).contains(channel), channels[channel].presetIndex >= 0 else { return nil }
        return channels[channel].presetIndex
    }

    /// How many voices are sounding (including released ones still decaying).
    public var activeVoiceCount: Int {
        var n = 0
        for v in 0 ..< poolSize where voices[v].state == .playing || voices[v].state == .released { n += 1 }
        return n
    }

    /// Stops every voice at once (a short fade) and resets every channel's controllers and program.
    public func reset() {
        for v in 0 ..< poolSize { voices[v].fadeOut() }
        for c in 0 ..< 16 { resetChannel(c) }
    }

    /// Applies one MIDI channel message: note on/off, polyphonic and channel pressure, control change (bank
    /// select 0/32, modulation 1, data entry 6/38, volume 7, pan 10, expression 11, sustain 64, RPN 100/101 with
    /// RPN 0 pitch-bend range, NRPN 98/99 deselecting it, 120 all sound off, 121 reset controllers, 123 all notes
    /// off; other controllers feed modulators), program change and pitch bend. Other statuses are ignored.
    public func handle(status: UInt8, data1: UInt8, data2: UInt8) {
        let c = Int(status & 0x0F)
        let d1 = Int(data1 & 0x7F), d2 = Int(data2 & 0x7F)
        switch status & 0xF0 {
        case 0x80: noteOff(c, d1)
        case 0x90: if d2 == 0 { noteOff(c, d1) } else { noteOn(c, d1, d2) }
        case 0xA0:
            keyPressure[c * 128 + d1] = UInt8(d2)
            updateVoices(channel: c)
        case 0xB0: controlChange(c, d1, d2)
        case 0xC0:
            channels[c].program = d1
            resolvePreset(c)
        case 0xD0:
            channels[c].channelPressure = d1
            updateVoices(channel: c)
        case 0xE0:
            channels[c].pitchBend = d1 | d2 << 7
            updateVoices(channel: c)
        default: break
        }
    }

    /// Writes `frameCount` frames of the mix to `left` and `right` (overwriting them).
    public func render(frameCount: Int, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>) {
        guard frameCount > 0 else { return }
        left.update(repeating: 0, count: frameCount)
        right.update(repeating: 0, count: frameCount)
        guard let font = soundFont, let data = font.sampleData.baseAddress else { return }
        for v in 0 ..< poolSize where voices[v].state != .free {
            var done = 0
            while done < frameCount && voices[v].state != .free {
                if voices[v].blockRemaining == 0 {
                    voices[v].controlUpdate(maximumFilterCents: maximumFilterCents, sinCos: filterSinCos)
                    if voices[v].state == .free { break }
                }
                let n = min(voices[v].blockRemaining, frameCount - done)
                voices[v].render(frames: n, data: data, coefficients: interpolation, buffer: voiceBuffer, left: left + done, right: right + done)
                voices[v].blockRemaining -= n
                done += n
            }
        }
        if masterGain != 1 {
            let g = masterGain
            for k in 0 ..< frameCount { left[k] *= g; right[k] *= g }
        }
    }

    // MARK: - Channels

    private func resetChannel(_ c: Int) {
        channels[c] = SamplerChannel()
        channels[c].isPercussion = c == 9
        let cc = controllers + c * 128
        cc.update(repeating: 0, count: 128)
        cc[7] = 100
        cc[8] = 64
        cc[10] = 64
        cc[11] = 127
        for k in 70 ... 79 { cc[k] = 64 }
        cc[98] = 127; cc[99] = 127; cc[100] = 127; cc[101] = 127
        (keyPressure + c * 128).update(repeating: 0, count: 128)
        resolvePreset(c)
    }

    /// Finds the channel's preset: its bank (percussion bank 128 on channel 10 unless a melodic bank was selected)
    /// and program, falling back as FluidSynth does (percussion: program 0 of bank 128; melodic: bank 0).
    private func resolvePreset(_ c: Int) {
        guard let font = soundFont else { channels[c].presetIndex = -1; return }
        let ch = channels[c]
        var bank: Int
        if ch.bankSelected { bank = SamplerEngine.soundFontBank(bankMSB: ch.bankMSB, bankLSB: ch.bankLSB) } else { bank = 0 }
        if ch.isPercussion && !(ch.bankSelected && ch.bankMSB == SamplerEngine.melodicBankMSB) { bank = 128 }
        var found = font.findPreset(bank: bank, program: ch.program)
        if found < 0 { found = font.findPreset(bank: bank == 128 ? 128 : 0, program: bank == 128 ? 0 : ch.program) }
        channels[c].presetIndex = found
    }

    private func controlChange(_ c: Int, _ number: Int, _ value: Int) {
        let cc = controllers + c * 128
        switch number {
        case 0:
            channels[c].bankMSB = value
            channels[c].bankSelected = true
        case 32:
            channels[c].bankLSB = value
            channels[c].bankSelected = true
        case 6, 38:
            cc[number] = UInt8(value)
            if channels[c].registeredParameter == 0 {
                // RPN 0, pitch bend sensitivity: MSB semitones, LSB cents.
                channels[c].pitchBendRange = Double(cc[6]) + Double(cc[38]) / 100
                updateVoices(channel: c)
            }
        case 64:
            cc[64] = UInt8(value)
            let on = value >= 64
            if channels[c].sustain && !on {
                for v in 0 ..< poolSize where voices[v].channel == c && voices[v].sustained && voices[v].state == .playing {
                    voices[v].release()
                }
            }
            channels[c].sustain = on
            updateVoices(channel: c)
        case 98, 99:
            cc[number] = UInt8(value)
            channels[c].registeredParameter = 0x3FFF
        case 100, 101:
            cc[number] = UInt8(value)
            channels[c].registeredParameter = Int(cc[101]) << 7 | Int(cc[100])
        case 120:
            for v in 0 ..< poolSize where voices[v].channel == c { voices[v].fadeOut() }
        case 121:
            resetControllers(c)
        case 123:
            for v in 0 ..< poolSize where voices[v].channel == c && voices[v].state == .playing { releaseOrSustain(v, c) }
        default:
            if number < 120 {
                cc[number] = UInt8(value)
                updateVoices(channel: c)
            }
        }
    }

    /// Reset All Controllers (MIDI RP-015): modulation, pedals, pressures, pitch bend and the RPN selection return
    /// to their defaults; volume, pan, bank and the effect depths stay.
    private func resetControllers(_ c: Int) {
        let cc = controllers + c * 128
        for k in 0 ..< 120 {
            switch k {
            case 0, 7, 8, 10, 32, 70 ... 79, 91 ... 95: continue
            case 11: cc[k] = 127
            case 98 ... 101: cc[k] = 127
            default: cc[k] = 0
            }
        }
        (keyPressure + c * 128).update(repeating: 0, count: 128)
        channels[c].pitchBend = 8192
        channels[c].channelPressure = 0
        channels[c].registeredParameter = 0x3FFF
        if channels[c].sustain {
            channels[c].sustain = false
            for v in 0 ..< poolSize where voices[v].channel == c && voices[v].sustained && voices[v].state == .playing { voices[v].release() }
        }
        updateVoices(channel: c)
    }

    // MARK: - Notes

    private func releaseOrSustain(_ v: Int, _ c: Int) {
        if channels[c].sustain { voices[v].sustained = true } else { voices[v].release() }
    }

    private func noteOff(_ c: Int, _ key: Int) {
        for v in 0 ..< poolSize where voices[v].state == .playing && voices[v].channel == c && voices[v].key == key {
            releaseOrSustain(v, c)
        }
    }

    private func noteOn(_ c: Int, _ key: Int, _ velocity: Int) {
        guard let font = soundFont else { return }
        let preset = channels[c].presetIndex
        guard preset >= 0 else { return }
        // A key struck again releases its previous voices (FluidSynth does the same).
        for v in 0 ..< poolSize where voices[v].channel == c && voices[v].key == key && (voices[v].state == .playing) {
            voices[v].release()
        }
        let id = nextNoteID
        nextNoteID &+= 1
        // The preset's zones that answer to key and velocity, each with its instrument's zones that do (an explicit
        // loop: a closure here would allocate its context in debug builds).
        let set = font.presetZoneSets[preset]
        for p in set.first ..< set.first + set.count where font.presetZones[p].contains(key: key, velocity: velocity) {
            let inst = font.instrumentZoneSets[font.presetZones[p].link]
            for i in inst.first ..< inst.first + inst.count where font.instrumentZones[i].contains(key: key, velocity: velocity) {
                startVoice(font: font, preset: preset, presetZone: p, instrumentZone: i, channel: c, key: key, velocity: velocity, noteID: id)
            }
        }
    }

    /// A free slot, stealing when `maximumVoices` are sounding: the quietest released voice, else the oldest.
    private func allocateVoice() -> Int {
        var sounding = 0, free = -1
        var victim = -1, victimReleased = false, victimAmplitude: Float = 0, victimAge: UInt64 = .max
        for v in 0 ..< poolSize {
            let voice = voices[v]
            switch voice.state {
            case .free: if free < 0 { free = v }
            case .fading: break
            case .playing, .released:
                sounding += 1
                let released = voice.state == .released
                let better: Bool
                if victim < 0 { better = true }
                else if released != victimReleased { better = released }
                else if released { better = voice.amplitude < victimAmplitude }
                else { better = voice.noteID < victimAge }
                if better { victim = v; victimReleased = released; victimAmplitude = voice.amplitude; victimAge = voice.noteID }
            }
        }
        if sounding < maximumVoices && free >= 0 { return free }
        guard victim >= 0 else { return free }
        voices[victim].fadeOut()
        if free >= 0 { return free }
        voices[victim].state = .free
        return victim
    }

    private func startVoice(font: SoundFont, preset: Int, presetZone p: Int, instrumentZone i: Int,
                            channel c: Int, key: Int, velocity: Int, noteID: UInt64) {
        let slot = allocateVoice()
        guard slot >= 0 else { return }
        let gens = voiceGenerators + slot * SoundFontGenerator.count
        font.merge(preset: preset, presetZone: p, instrumentZone: i, generators: gens)
        let mods = voiceModulators + slot * SoundFont.maximumVoiceModulators
        let modCount = font.mergeModulators(preset: preset, presetZone: p, instrumentZone: i, into: mods)
        let sample = font.samples[font.instrumentZones[i].link]

        var voice = SamplerVoice()
        voice.channel = c
        voice.key = key
        voice.velocity = velocity
        voice.noteID = noteID
        voice.modulatorCount = modCount
        let keynum = Int(gens[SoundFontGenerator.keynum])
        voice.effectiveKey = keynum >= 0 && keynum <= 127 ? keynum : key
        let forcedVelocity = Int(gens[SoundFontGenerator.velocity])
        voice.effectiveVelocity = forcedVelocity > 0 && forcedVelocity <= 127 ? forcedVelocity : velocity
        computeModulators(voice, gens: gens, mods: mods)
        let g = GeneratorReader(base: gens, modulated: scratch)

        // Sample points with the offsets, kept inside the sample (FluidSynth's sample sanity check).
        voice.start = min(max(sample.start + SamplerEngine.offset(g, 0, 4), sample.start), max(sample.end - 1, sample.start))
        voice.end = min(max(sample.end + SamplerEngine.offset(g, 1, 12), voice.start + 1), sample.end)
        voice.loopStart = min(max(sample.loopStart + SamplerEngine.offset(g, 2, 45), voice.start), voice.end)
        voice.loopEnd = min(max(sample.loopEnd + SamplerEngine.offset(g, 3, 50), voice.start), voice.end)
        var mode = Int(gens[SoundFontGenerator.sampleModes]) & 3
        if mode == 2 || !sample.hasValidLoop || voice.loopEnd - voice.loopStart < 2 { mode = 0 }
        voice.loopMode = mode
        voice.position = Double(voice.start)
        voice.rateRatio = Double(sample.sampleRate) / sampleRate
        let overridingRoot = Int(gens[SoundFontGenerator.overridingRootKey])
        let rootKey = overridingRoot >= 0 && overridingRoot <= 127 ? overridingRoot : sample.originalPitch
        voice.rootKey = rootKey
        voice.rootCents = Double(rootKey * 100 - sample.pitchCorrection)
        voice.exclusiveClass = Int(gens[SoundFontGenerator.exclusiveClass])

        // Envelopes: times in timecents, hold and decay scaled by key (key 60 is the origin), sustain in cB (volume)
        // or 0.1 % (modulation), as FluidSynth's fluid_voice_update_param reads them.
        let rate = sampleRate
        let keySteps = 60 - Double(voice.effectiveKey)
        voice.volumeEnvelope.start(
            delay: SamplerEngine.samples(SamplerMath.delaySeconds(g[33]), rate),
            attack: 1 + SamplerEngine.samples(SamplerMath.attackSeconds(g[34]), rate),
            hold: SamplerEngine.holdOrDecay(g[35] + g[39] * keySteps, decay: false, rate),
            decay: SamplerEngine.holdOrDecay(g[36] + g[40] * keySteps, decay: true, rate),
            sustain: 1 - 0.001 * g[37],
            release: 1 + SamplerEngine.samples(SamplerMath.attackSeconds(max(g[38], -7200)), rate))
        voice.modulationEnvelope.start(
            delay: SamplerEngine.samples(SamplerMath.delaySeconds(g[25]), rate),
            attack: 1 + SamplerEngine.samples(SamplerMath.attackSeconds(g[26]), rate),
            hold: SamplerEngine.holdOrDecay(g[27] + g[31] * keySteps, decay: false, rate),
            decay: SamplerEngine.holdOrDecay(g[28] + g[32] * keySteps, decay: true, rate),
            sustain: 1 - 0.001 * g[29],
            release: 1 + SamplerEngine.samples(SamplerMath.attackSeconds(g[30]), rate))
        voice.modLFO.start(delay: SamplerEngine.samples(SamplerMath.delaySeconds(g[21]), rate),
                           increment: 4 * SamplerMath.centsToHz(min(max(g[22], -16000), 4500)) / rate)
        voice.vibLFO.start(delay: SamplerEngine.samples(SamplerMath.delaySeconds(g[23]), rate),
                           increment: 4 * SamplerMath.centsToHz(min(max(g[24], -16000), 4500)) / rate)
        voice.state = .playing
        applyRealtime(&voice, gens: gens)
        voices[slot] = voice

        // Exclusive class: the new note cuts the other notes of its class on the channel (FluidSynth gives them a
        // fast release of -200 timecents).
        if voice.exclusiveClass != 0 {
            for v in 0 ..< poolSize where v != slot && voices[v].channel == c && voices[v].exclusiveClass == voice.exclusiveClass
                && voices[v].noteID != noteID && (voices[v].state == .playing || voices[v].state == .released) {
                voices[v].volumeEnvelope.releaseRate = 1 / (1 + Double(SamplerEngine.samples(SamplerMath.timecentsToSeconds(-200), rate)))
                voices[v].modulationEnvelope.releaseRate = voices[v].volumeEnvelope.releaseRate
                voices[v].release()
            }
        }
    }

    /// A sample-point offset from its fine and coarse (×32768) generators, bounded.
    private static func offset(_ g: GeneratorReader, _ fine: Int, _ coarse: Int) -> Int {
        Int(min(max(g[fine], -1e9), 1e9)) + 32768 * Int(min(max(g[coarse], -30000), 30000))
    }

    /// Seconds to whole samples (bounded).
    private static func samples(_ seconds: Double, _ rate: Double) -> Int { Int(min(max(seconds * rate, 0), 1e9)) }

    /// A hold or decay time from its timecents already scaled by key: hold's most negative value is none; clamped to
    /// -12000...5000 (hold) or 8000 (decay).
    private static func holdOrDecay(_ timecents: Double, decay: Bool, _ rate: Double) -> Int {
        if !decay && timecents <= -32768 { return 0 }
        return samples(SamplerMath.timecentsToSeconds(min(max(timecents, -12000), decay ? 8000 : 5000)), rate)
    }

    // MARK: - Modulators

    /// Recomputes the modulators and real-time parameters of the channel's voices after a controller changed.
    private func updateVoices(channel c: Int) {
        for v in 0 ..< poolSize where voices[v].channel == c && (voices[v].state == .playing || voices[v].state == .released) {
            let gens = voiceGenerators + v * SoundFontGenerator.count
            computeModulators(voices[v], gens: gens, mods: voiceModulators + v * SoundFont.maximumVoiceModulators)
            applyRealtime(&voices[v], gens: gens)
        }
    }

    /// Sums every modulator's output into `scratch`, by destination generator.
    private func computeModulators(_ voice: SamplerVoice, gens: UnsafeMutablePointer<Float>, mods: UnsafeMutablePointer<SoundFontModulator>) {
        scratch.update(repeating: 0, count: SoundFontGenerator.count)
        for k in 0 ..< voice.modulatorCount {
            let m = mods[k]
            var value = m.amount * sourceValue(m.source, voice) * sourceValue(m.amountSource, voice)
            if m.transform == 2 { value = abs(value) }
            scratch[Int(m.destination)] += Float(value)
        }
    }

    /// A modulator source mapped as FluidSynth's fluid_mod_transform_source_value does (ranges of 128, 16384 for
    /// the pitch wheel; the top value maps to 127/128, not 1).
    private func sourceValue(_ source: UInt16, _ voice: SamplerVoice) -> Double {
        let index = Int(source & 0x7F)
        let c = voice.channel
        var raw: Double, range = 128.0
        if source & 0x80 != 0 {
            raw = Double(controllers[c * 128 + index])
        } else {
            switch index {
            case 0: return 1
            case 2: raw = Double(voice.effectiveVelocity)
            case 3: raw = Double(voice.effectiveKey)
            case 10: raw = Double(keyPressure[c * 128 + voice.key])
            case 13: raw = Double(channels[c].channelPressure)
            case 14: raw = Double(channels[c].pitchBend); range = 16384
            case 16: raw = channels[c].pitchBendRange
            default: return 0
            }
        }
        let norm = raw / range
        let top = (range - 1) / range
        let negative = source & 0x100 != 0, bipolar = source & 0x200 != 0
        let curve = Int(source >> 10)
        var x = negative ? 1 - 1 / range - norm : norm
        if !bipolar {
            switch curve {
            case 1: x = min(SamplerMath.concave(x * 128 / 127), top)
            case 2: x = min(SamplerMath.convex(x * 128 / 127), top)
            case 3: x = x >= 0.5 ? 1 : 0
            default: break
            }
            return x
        }
        x = x == top ? x : -1 + 2 * x
        switch curve {
        case 1: x = x >= 0 ? min(SamplerMath.concave(x * 128 / 127), top) : -SamplerMath.concave(-x * 128 / 127)
        case 2: x = x >= 0 ? min(SamplerMath.convex(x * 128 / 127), top) : -SamplerMath.convex(-x * 128 / 127)
        case 3: x = x >= 0 ? 1 : -1
        default: break
        }
        return x
    }

    /// Sets the parameters that follow controllers (attenuation, pan, pitch, filter, modulation depths) from the
    /// generators plus the modulator sums in `scratch`.
    private func applyRealtime(_ voice: inout SamplerVoice, gens: UnsafeMutablePointer<Float>) {
        let g = GeneratorReader(base: gens, modulated: scratch)
        voice.attenuation = min(max(g[48], 0), 1440)
        let pan = g[17]
        voice.panLeft = Float(SamplerMath.panGain(pan, left: true))
        voice.panRight = Float(SamplerMath.panGain(pan, left: false))
        // Scale tuning is not real-time: its generator value alone (the root key keeps its pitch).
        let scale = Double(gens[SoundFontGenerator.scaleTuning])
        let rootKey = Double(voice.rootKey)
        voice.pitch = scale * (Double(voice.effectiveKey) - rootKey) + rootKey * 100 + 100 * g[51] + g[52] + Double(tuningCents)
        voice.filterFc = min(max(g[8], 1500), 13500)
        voice.filterQ = SamplerMath.filterQ(min(max(g[9], 0), 960))
        voice.filterGain = 1 / voice.filterQ.squareRoot()
        voice.modLfoToPitch = min(max(g[5], -12000), 12000)
        voice.vibLfoToPitch = min(max(g[6], -12000), 12000)
        voice.modEnvToPitch = min(max(g[7], -12000), 12000)
        voice.modLfoToFc = min(max(g[10], -12000), 12000)
        voice.modEnvToFc = min(max(g[11], -12000), 12000)
        voice.modLfoToVolume = min(max(g[13], -960), 960)
    }
}
