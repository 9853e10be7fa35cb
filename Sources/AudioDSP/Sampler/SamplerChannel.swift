/// One MIDI channel's state in the sampler engine (its controller values live in the engine's flat table).
struct SamplerChannel {
    var program = 0
    var bankMSB = 0
    var bankLSB = 0
    /// Whether the bank was chosen by a bank select (else the channel's default: 0, or 128 on channel 10).
    var bankSelected = false
    var isPercussion = false
    /// The SoundFont preset playing, or -1.
    var presetIndex = -1
    /// 14-bit pitch wheel, 8192 centre.
    var pitchBend = 8192
    var channelPressure = 0
    /// Pitch wheel sensitivity in semitones (RPN 0: data entry MSB semitones, LSB cents).
    var pitchBendRange = 2.0
    /// The selected registered parameter (MSB << 7 | LSB); 0x3FFF is none, and an NRPN selection deselects it.
    var registeredParameter = 0x3FFF
    var sustain = false
}
