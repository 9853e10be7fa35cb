/// One global parameter of a built-in effect, as the effect bases define it: Apple's ID, name, unit, range
/// and default, and how the unit moves to a new value.
struct EffectParameter {
    /// How a parameter moves to a new value.
    enum Glide { case logarithmic, linear, immediate }

    var id: AudioUnitParameterID
    var name: String
    var unit: AudioUnitParameterUnit
    var min: Float
    /// The maximum; nil means the Nyquist frequency at the unit's rate.
    var max: Float?
    var defaultValue: Float
    var glide: Glide = .immediate
    var flags: AudioUnitParameterOptions = []
}

extension AUBase {
    /// Defines (or redefines) global parameters for the output rate, keeping current values and clamping them to
    /// the new ranges.
    func defineGlobalParameters(_ list: [EffectParameter]) {
        let nyquist = Float(outputs[0].format.mSampleRate / 2)
        for p in list {
            let old = parameterSlot(p.id, kAudioUnitScope_Global, 0).map { $0.0.value(at: $0.1) }
            let upper = p.max ?? nyquist
            defineParameter(p.id, scope: kAudioUnitScope_Global, element: 0,
                            .oca(p.name, unit: p.unit, min: p.min, max: upper, default: Swift.min(p.defaultValue, upper),
                                 flags: p.flags))
            if let old, let (table, i) = parameterSlot(p.id, kAudioUnitScope_Global, 0) {
                table.setValue(at: i, Swift.max(p.min, Swift.min(old, upper)))
            }
        }
    }
}
