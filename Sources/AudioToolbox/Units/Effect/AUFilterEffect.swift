import AudioDSP

/// Base of the biquad effect units (the filters, the shelves, the parametric, N-band and graphic EQs): a
/// subclass lists its global parameters and turns their values into a cascade of sections; this class
/// defines the parameters (ranges that end at Nyquist follow the sample rate), keeps one filter state per
/// channel and section, and moves parameters to new values smoothly: while any differs from its target
/// it is stepped every 32 frames toward it (10 ms time constant; frequencies and Q in the log domain) and
/// the cascade redesigned, so a change never clicks. Any channel count, in equals out.
class AUFilterEffect: AUEffectBase, @unchecked Sendable {
    /// The ringing of its biquads, reported so hosts keep rendering after the input stops, as Apple's filters
    /// report a tail: a pole pair at 10 Hz with Q 0.7 falls 60 dB in about 0.16 s (sharp resonances ring longer).
    override var tailTime: Double? { 0.25 }

    typealias Glide = EffectParameter.Glide
    typealias Parameter = EffectParameter

    /// The unit's parameters at `sampleRate` (subclasses).
    func filterParameters() -> [Parameter] { [] }
    /// How many sections the cascade has at most (subclasses).
    var maxSections: Int { 1 }
    /// Fills `maxSections` sections from the parameter values (in `filterParameters()` order); unused ones
    /// are `.identity`. Render thread: no allocation.
    func design(_ values: UnsafePointer<Double>, sampleRate: Double, into sections: UnsafeMutablePointer<BiquadCoefficients>) {}
    /// A linear gain after the cascade (NBandEQ's global gain).
    func outputGain(_ values: UnsafePointer<Double>) -> Double { 1 }

    private(set) var parameterList: [Parameter] = []
    private var ids: UnsafeMutablePointer<AudioUnitParameterID>?
    private var glides: UnsafeMutablePointer<Glide>?
    private var current: UnsafeMutablePointer<Double>?
    private var target: UnsafeMutablePointer<Double>?
    private(set) var sections: UnsafeMutablePointer<BiquadCoefficients>?
    private var states: UnsafeMutablePointer<BiquadState>?
    private var count = 0, channels = 0, sectionCount = 0
    private var designed = false
    private var gain = 1.0
    private var rate = 44100.0

    override init(component: AudioComponentEntry) {
        super.init(component: component)
    }

    /// Defines (or redefines) the parameters for the output rate. Subclasses call it at the end of their init and
    /// when their parameter set changes.
    func defineFilterParameters() {
        parameterList = filterParameters()
        defineGlobalParameters(parameterList)
    }

    override func streamFormatChanged(_ scope: AudioUnitScope, _ element: AudioUnitElement) {
        defineFilterParameters()
    }

    override func initializeUnit() -> OSStatus {
        let status = super.initializeUnit()
        guard status == noErr else { return status }
        rate = outputs[0].format.mSampleRate
        channels = Int(outputs[0].format.mChannelsPerFrame)
        count = parameterList.count
        sectionCount = maxSections
        ids = renderMemory.take(copying: parameterList.map(\.id))
        glides = renderMemory.take(copying: parameterList.map(\.glide))
        current = renderMemory.take(Double.self, count: count, repeating: 0)
        target = renderMemory.take(Double.self, count: count, repeating: 0)
        sections = renderMemory.take(BiquadCoefficients.self, count: sectionCount, repeating: .identity)
        states = renderMemory.take(BiquadState.self, count: channels * sectionCount, repeating: BiquadState())
        resetUnit(kAudioUnitScope_Global, 0)
        return noErr
    }

    /// kAudioUnitProperty_FrequencyResponse: the host fills each bin's mFrequency (a negative one ends the list) and
    /// the unit answers the cascade's linear magnitude there, for the parameters' target values (a glide in progress
    /// is drawn at its end), output gain included. Answered initialized or not, at the output's sample rate.
    override class var propertyRows: [AUProperty] {
        super.propertyRows + [
            AUProperty(kAudioUnitProperty_FrequencyResponse, place: AUProperty.global, writable: .never,
                       size: { _, _, _ in
                           UInt32(Int(kNumberOfResponseFrequencies) * MemoryLayout<AudioUnitFrequencyResponseBin>.stride)
                       },
                       read: { unit, _, _, out in
                           let bins = out.assumingMemoryBound(to: AudioUnitFrequencyResponseBin.self)
                           unsafeDowncast(unit, to: AUFilterEffect.self).frequencyResponse(
                               UnsafeMutableBufferPointer(start: bins, count: Int(kNumberOfResponseFrequencies)))
                           return noErr
                       },
                       write: nil),
        ]
    }

    private func frequencyResponse(_ bins: UnsafeMutableBufferPointer<AudioUnitFrequencyResponseBin>) {
        let values = parameterList.map { Double(parameterValue($0.id, kAudioUnitScope_Global, 0)) }
        var cascade = [BiquadCoefficients](repeating: .identity, count: max(maxSections, 1))
        let sampleRate = outputs[0].format.mSampleRate
        values.withUnsafeBufferPointer { v in
            cascade.withUnsafeMutableBufferPointer { design(v.baseAddress!, sampleRate: sampleRate, into: $0.baseAddress!) }
        }
        let gain = values.withUnsafeBufferPointer { outputGain($0.baseAddress!) }
        cascade.withUnsafeBufferPointer { sections in
            for i in bins.indices {
                guard bins[i].mFrequency >= 0 else { break }
                bins[i].mMagnitude = gain * BiquadCoefficients.cascadeMagnitude(sections, at: bins[i].mFrequency,
                                                                                sampleRate: sampleRate)
            }
        }
    }

    /// The pointers go with the unit's render memory (AUBase frees it after this).
    override func cleanupUnit() {
        ids = nil; glides = nil; current = nil; target = nil; sections = nil; states = nil
    }

    override func resetUnit(_ scope: AudioUnitScope, _ element: AudioUnitElement) {
        states?.initialize(repeating: BiquadState(), count: max(channels * sectionCount, 1))
        designed = false
    }

    override func applyEffect(input: UnsafeMutableAudioBufferListPointer, output: UnsafeMutableAudioBufferListPointer,
                              frames: Int, flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>) -> OSStatus {
        guard let ids, let glides, let current, let target, let sections, let states else { return kAudioUnitErr_Uninitialized }
        var settled = designed
        for k in 0..<count {
            target[k] = Double(parameterValue(ids[k], kAudioUnitScope_Global, 0))
            if !designed { current[k] = target[k] }
            if current[k] != target[k] { settled = false }
        }
        let block = settled ? frames : 32
        let step = 1 - exp(-Double(block) / (0.010 * rate))
        var done = 0
        while done < frames {
            let n = min(block, frames - done)
            if !settled || !designed {
                for k in 0..<count where current[k] != target[k] {
                    switch glides[k] {
                    case .immediate: current[k] = target[k]
                    case .linear:
                        current[k] += (target[k] - current[k]) * step
                        if abs(target[k] - current[k]) < 1e-4 { current[k] = target[k] }
                    case .logarithmic where current[k] > 0 && target[k] > 0:
                        current[k] *= pow(target[k] / current[k], step)
                        if abs(log(target[k] / current[k])) < 1e-5 { current[k] = target[k] }
                    case .logarithmic: current[k] = target[k]
                    }
                }
                design(current, sampleRate: rate, into: sections)
                gain = outputGain(current)
                designed = true
            }
            for c in 0..<min(channels, input.count, output.count) {
                guard let src = input[c].mData?.assumingMemoryBound(to: Float.self),
                      let dst = output[c].mData?.assumingMemoryBound(to: Float.self) else { return kAudio_ParamError }
                var source = UnsafePointer(src + done)
                let out = dst + done
                var filtered = false
                for s in 0..<sectionCount {
                    let state = states + c * sectionCount + s
                    if sections[s] == .identity { state.pointee = BiquadState(); continue }
                    BiquadKernels.apply(source, out, count: n, sections[s], &state.pointee)
                    source = UnsafePointer(out)
                    filtered = true
                }
                if !filtered && UnsafePointer(out) != source { out.update(from: source, count: n) }
                if gain != 1 {
                    let g = Float(gain)
                    for i in 0..<n { out[i] *= g }
                }
            }
            done += n
        }
        return noErr
    }
}
