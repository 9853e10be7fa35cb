/// DLS articulation (Level 1 'art1' and Level 2 'art2' connection blocks) translated into the SoundFont 2
/// generators and modulators the engine plays, starting from DLS's default connections.
///
/// Units: a block's scale is a 32-bit fixed-point value, 65536 per unit of the destination's own unit: time cents
/// (EG and LFO times; 0x80000000 means 0 seconds), absolute cents (LFO frequencies, filter cutoff), relative cents
/// (pitch), centibels of gain (negative is quieter), and 0.1 % (sustain levels, pan, sends). SoundFont uses the
/// same units, except that its sustain levels and gain are attenuations.
///
/// Where DLS's defaults differ from SoundFont's they are written as generators: the LFO runs at 5 Hz after 10 ms
/// (SoundFont: 8.176 Hz, no delay), and since DLS Level 1 has one LFO, the vibrato LFO SoundFont's default
/// modulation-wheel modulator drives gets the same rate and delay unless a Level 2 vibrato LFO is given. DLS's
/// default velocity-to-gain connection (-96 dB, concave) is SoundFont's default velocity-to-attenuation modulator
/// (960 cB, negative concave), so it needs nothing; a bank's own KeyOnVelocity-to-gain connection replaces it.
/// Connections the engine has no counterpart for (shutdown time, the multichannel outputs, RPN sources) are ignored.
struct DLSArticulation {
    /// One connection block.
    struct Connection {
        var source: Int, control: Int, destination: Int, transform: Int
        /// The raw 32-bit scale.
        var scale: Double
    }

    // Sources and destinations (DLS Level 2.2, table of connection sources and destinations).
    static let sourceNone = 0, sourceLFO = 1, sourceVelocity = 2, sourceKey = 3, sourceEG2 = 5
    static let sourceChannelPressure = 8, sourceVibrato = 9, sourceCC1 = 0x81
    static let gain = 1, pitch = 3, pan = 4, chorus = 0x80, reverb = 0x81
    static let lfoFrequency = 0x104, lfoDelay = 0x105, vibratoFrequency = 0x114, vibratoDelay = 0x115
    static let filterCutoff = 0x500, filterQ = 0x501
    /// 0x80000000: "0 seconds" for a time, "filter off" for the cutoff (0x7FFFFFFF in Level 2 files).
    static let zeroTime = Double(Int32.min)

    /// Generator values indexed by `SoundFontGenerator` numbers.
    var generators: [Float]
    /// The modulators beyond SoundFont's defaults.
    var modulators: [SoundFontModulator] = []
    private var mask: UInt64 = 0

    /// DLS's defaults, then `connections` in order (a later block for the same connection replaces an earlier one).
    init(_ connections: [Connection]) {
        generators = (0 ..< SoundFontGenerator.count).map { SoundFontGenerator.defaultValue($0) }
        let fiveHz = SamplerMath.hzToCents(5), tenMilliseconds = 1200 * DynamicsMath.log2(0.01)
        set(SoundFontGenerator.freqModLFO, fiveHz)
        set(SoundFontGenerator.delayModLFO, tenMilliseconds)
        var vibratoGiven = false
        for c in connections {
            let v = c.scale / 65536
            if c.source == DLSArticulation.sourceNone && c.control == DLSArticulation.sourceNone {
                vibratoGiven = vibratoGiven || c.destination == DLSArticulation.vibratoFrequency || c.destination == DLSArticulation.vibratoDelay
                level(c.destination, v, raw: c.scale)
            } else {
                modulation(c, v)
            }
        }
        if !vibratoGiven {
            set(SoundFontGenerator.freqVibLFO, Double(generators[SoundFontGenerator.freqModLFO]))
            set(SoundFontGenerator.delayVibLFO, Double(generators[SoundFontGenerator.delayModLFO]))
        }
    }

    /// Whether generator `id` differs from SoundFont's default (it is written into the zone).
    func isSet(_ id: Int) -> Bool { mask & (UInt64(1) << UInt64(id)) != 0 }

    mutating func set(_ id: Int, _ value: Double) {
        generators[id] = Float(min(max(value, -32768), 32767))
        mask |= UInt64(1) << UInt64(id)
    }

    /// Adds centibels of attenuation (the region's 'wsmp' gain, negated), never below 0 cB overall.
    mutating func attenuate(by centibels: Double) {
        set(SoundFontGenerator.initialAttenuation, max(Double(generators[SoundFontGenerator.initialAttenuation]) + centibels, 0))
    }

    /// A time in time cents; DLS's "0 seconds" is SoundFont's most negative value (no time).
    private static func timecents(_ v: Double, raw: Double) -> Double { raw == zeroTime ? -32768 : v }

    /// A connection with no source: a parameter's value.
    private mutating func level(_ destination: Int, _ v: Double, raw: Double) {
        typealias G = SoundFontGenerator
        let time = DLSArticulation.timecents(v, raw: raw)
        switch destination {
        case DLSArticulation.gain: set(G.initialAttenuation, max(-v, 0))
        case DLSArticulation.pitch: set(G.fineTune, v)
        case DLSArticulation.pan: set(G.pan, min(max(v, -500), 500))
        case DLSArticulation.chorus: set(G.chorusEffectsSend, min(max(v, 0), 1000))
        case DLSArticulation.reverb: set(G.reverbEffectsSend, min(max(v, 0), 1000))
        case DLSArticulation.lfoFrequency: set(G.freqModLFO, v)
        case DLSArticulation.lfoDelay: set(G.delayModLFO, time)
        case DLSArticulation.vibratoFrequency: set(G.freqVibLFO, v)
        case DLSArticulation.vibratoDelay: set(G.delayVibLFO, time)
        case 0x206: set(G.attackVolEnv, time)
        case 0x207: set(G.decayVolEnv, time)
        case 0x209: set(G.releaseVolEnv, time)
        // DLS's EG1 is linear in dB over 96 dB like the engine's (FluidSynth's) volume envelope, whose sustain
        // generator reads 0.1 % of that range: a level of p (0.1 %) is 1000 - p.
        case 0x20A: set(G.sustainVolEnv, 1000 - min(max(v, 0), 1000))
        case 0x20B: set(G.delayVolEnv, time)
        case 0x20C: set(G.holdVolEnv, time)
        case 0x30A: set(G.attackModEnv, time)
        case 0x30B: set(G.decayModEnv, time)
        case 0x30D: set(G.releaseModEnv, time)
        case 0x30E: set(G.sustainModEnv, 1000 - min(max(v, 0), 1000))
        case 0x30F: set(G.delayModEnv, time)
        case 0x310: set(G.holdModEnv, time)
        case DLSArticulation.filterCutoff:
            // 0x7FFFFFFF (Level 2's default) and 0x80000000 switch the filter off: SoundFont's open 13500 cents.
            if raw >= Double(Int32.max) || raw == DLSArticulation.zeroTime { set(G.initialFilterFc, 13500) }
            else { set(G.initialFilterFc, min(max(v, 1500), 13500)) }
        case DLSArticulation.filterQ: set(G.initialFilterQ, min(max(v, 0), 960))
        default: break
        }
    }

    /// A connection with a source (and maybe a control): a modulation depth, or a modulator.
    private mutating func modulation(_ c: Connection, _ v: Double) {
        typealias G = SoundFontGenerator
        typealias A = DLSArticulation
        switch (c.source, c.control, c.destination) {
        case (A.sourceLFO, A.sourceNone, A.pitch): set(G.modLfoToPitch, v)
        case (A.sourceLFO, A.sourceNone, A.gain): set(G.modLfoToVolume, v)
        case (A.sourceLFO, A.sourceNone, A.filterCutoff): set(G.modLfoToFilterFc, v)
        case (A.sourceVibrato, A.sourceNone, A.pitch): set(G.vibLfoToPitch, v)
        case (A.sourceEG2, A.sourceNone, A.pitch): set(G.modEnvToPitch, v)
        case (A.sourceEG2, A.sourceNone, A.filterCutoff): set(G.modEnvToFilterFc, v)
        case (A.sourceKey, A.sourceNone, A.pitch):
            // The key number source is key/128: 12800 cents is SoundFont's scale tuning of 100 cents per key.
            set(G.scaleTuning, v / 128)
        case (A.sourceKey, A.sourceNone, 0x207): keyScaled(v, time: G.decayVolEnv, perKey: G.keynumToVolEnvDecay)
        case (A.sourceKey, A.sourceNone, 0x20C): keyScaled(v, time: G.holdVolEnv, perKey: G.keynumToVolEnvHold)
        case (A.sourceKey, A.sourceNone, 0x30B): keyScaled(v, time: G.decayModEnv, perKey: G.keynumToModEnvDecay)
        case (A.sourceKey, A.sourceNone, 0x310): keyScaled(v, time: G.holdModEnv, perKey: G.keynumToModEnvHold)
        case (A.sourceVelocity, A.sourceNone, A.gain):
            // Velocity to gain as an attenuation modulator: concave is SoundFont's negative concave curve (DLS's
            // default -96 dB is SoundFont's default 960 cB), any other transform the negative linear one.
            let concave = c.transform & 0x0F == 1 || (c.transform >> 10) & 0x0F == 1
            addModulator(source: concave ? 0x0502 : 0x0102, destination: G.initialAttenuation, amount: -v)
        case (A.sourceVelocity, A.sourceNone, 0x206): addModulator(source: 0x0002, destination: G.attackVolEnv, amount: v)
        case (A.sourceVelocity, A.sourceNone, 0x30A): addModulator(source: 0x0002, destination: G.attackModEnv, amount: v)
        case (A.sourceLFO, A.sourceCC1, A.pitch): addModulator(source: 0x0081, destination: G.modLfoToPitch, amount: v)
        case (A.sourceLFO, A.sourceCC1, A.gain): addModulator(source: 0x0081, destination: G.modLfoToVolume, amount: v)
        case (A.sourceVibrato, A.sourceCC1, A.pitch): addModulator(source: 0x0081, destination: G.vibLfoToPitch, amount: v)
        case (A.sourceLFO, A.sourceChannelPressure, A.pitch): addModulator(source: 0x000D, destination: G.modLfoToPitch, amount: v)
        case (A.sourceVibrato, A.sourceChannelPressure, A.pitch): addModulator(source: 0x000D, destination: G.vibLfoToPitch, amount: v)
        default: break
        }
    }

    /// DLS adds scale·key/128 time cents; SoundFont adds perKey·(60 - key): the same line with perKey = -scale/128
    /// and the value at key 60 moved into the time itself.
    private mutating func keyScaled(_ v: Double, time: Int, perKey: Int) {
        set(perKey, -v / 128)
        set(time, Double(generators[time]) + v * 60 / 128)
    }

    /// Adds a modulator, replacing an identical one given before (a later block for the same connection wins).
    private mutating func addModulator(source: UInt16, destination: Int, amount: Double) {
        let m = SoundFontModulator(source: source, destination: UInt16(destination), amount: min(max(amount, -1e6), 1e6),
                                   amountSource: 0, transform: 0)
        if let k = modulators.firstIndex(where: { $0.isIdentical(to: m) }) { modulators[k] = m } else { modulators.append(m) }
    }
}
