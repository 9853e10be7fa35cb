#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One sounding sample: playback position, envelopes, LFOs, the resonant low-pass and the gains, after
/// FluidSynth's fluid_rvoice.c. Control values (envelopes, LFOs, pitch, filter coefficients, target amplitude)
/// are updated every `controlInterval` samples of the voice's own life, so the output does not depend on how the
/// caller slices its renders; the amplitude ramps linearly to each new target over the interval.
struct SamplerVoice {
    enum State { case free, playing, released, fading }

    static let controlInterval = 64

    var state = State.free
    var channel = 0
    var key = 0
    var velocity = 0
    /// Keys in modulators and in the pitch (generator keynum when set, else the MIDI key).
    var effectiveKey = 0
    var effectiveVelocity = 0
    /// The note-on that started the voice (for exclusive classes) and its age rank (for stealing).
    var noteID: UInt64 = 0
    /// A note-off arrived while the sustain pedal was down.
    var sustained = false
    var exclusiveClass = 0
    var modulatorCount = 0

    // Sample playback (indices into the SoundFont's sample data).
    var start = 0, end = 0, loopStart = 0, loopEnd = 0
    /// 0 no loop, 1 continuous loop, 3 loop until release.
    var loopMode = 0
    var position = 0.0
    /// sample rate / output rate.
    var rateRatio = 1.0
    /// The MIDI key at which the sample plays unshifted (overridingRootKey, else the sample's original pitch).
    var rootKey = 60
    /// The sample's root in absolute cents (root key × 100 − pitch correction).
    var rootCents = 6000.0
    /// The nominal pitch in absolute cents (key, scale tuning, coarse and fine tune, pitch-wheel modulation).
    var pitch = 6000.0
    var increment = 1.0

    // Real-time parameters (generator values plus modulators).
    var attenuation = 0.0
    var panLeft: Float = 0.707, panRight: Float = 0.707
    var filterFc = 13500.0
    var filterQ = 0.7
    /// 1/√Q: SoundFont lowers the pass band by half the resonance peak's height (FluidSynth's gain normalisation).
    var filterGain = 1.0
    var modLfoToPitch = 0.0, vibLfoToPitch = 0.0, modEnvToPitch = 0.0
    var modLfoToFc = 0.0, modEnvToFc = 0.0, modLfoToVolume = 0.0

    var volumeEnvelope = SamplerEnvelope()
    var modulationEnvelope = SamplerEnvelope()
    var modLFO = SamplerLFO()
    var vibLFO = SamplerLFO()

    // The low-pass (direct form II, FluidSynth's coefficient names) and the gain ramp.
    var b02: Float = 1, b1: Float = 0, a1: Float = 0, a2: Float = 0
    var hist1: Float = 0, hist2: Float = 0
    var lastFres = -1.0, lastQ = -1.0
    var amplitude: Float = 0
    var amplitudeIncrement: Float = 0
    var blockRemaining = 0

    var isLooping: Bool {
        @_noLocks @_noAllocation get {
            loopMode == 1 || (loopMode == 3 && !volumeEnvelope.isReleasing)
        }
    }

    /// Enters the release sections (note-off).
    @_noLocks @_noAllocation
    mutating func release() {
        switch state {
        case .playing, .released: break
        default: return
        }
        state = .released
        sustained = false
        // In the attack the volume envelope is linear amplitude; afterwards one unit is 96 dB. Convert so the
        // level does not jump (FluidSynth's fluid_rvoice_noteoff_LOCAL).
        let v = volumeEnvelope.value
        let converted = v > 0 ? 1 + (200 * 0.30102999566398120 * DynamicsMath.log2(v)) / 960 : 0
        volumeEnvelope.release(convertedValue: converted)
        modulationEnvelope.release(convertedValue: SamplerMath.convex(modulationEnvelope.value))
    }

    /// Fades the voice out over one control interval, then frees it (voice stealing, all sound off).
    @_noLocks @_noAllocation
    mutating func fadeOut() {
        switch state {
        case .playing, .released: break
        default: return
        }
        state = .fading
        blockRemaining = SamplerVoice.controlInterval
        amplitudeIncrement = -amplitude / Float(SamplerVoice.controlInterval)
    }

    /// Steps envelopes and LFOs over the next interval and sets its pitch, filter and amplitude ramp. Frees the
    /// voice when its volume envelope has finished (or a fade-out has ended).
    @_noLocks @_noAllocation
    mutating func controlUpdate(maximumFilterCents: Double, sinCos: UnsafePointer<Double>) {
        let n = SamplerVoice.controlInterval
        if case .fading = state { state = .free; return }
        volumeEnvelope.advance(n)
        modulationEnvelope.advance(n)
        modLFO.advance(n)
        vibLFO.advance(n)
        let section = volumeEnvelope.section
        if volumeEnvelope.isFalling && volumeEnvelope.value <= 0 {
            state = .free
            return
        }
        let modLfo = modLFO.value, vibLfo = vibLFO.value
        var modEnv = modulationEnvelope.value
        if case .attack = modulationEnvelope.section { modEnv = SamplerMath.convex(modEnv) }

        let target: Double
        switch section {
        case .delay:
            target = 0
        case .attack:
            target = SamplerMath.centibelsToAmplitude(attenuation) * SamplerMath.centibelsToAmplitude(-modLfo * modLfoToVolume) * volumeEnvelope.value
        default:
            target = SamplerMath.centibelsToAmplitude(attenuation + 960 * (1 - volumeEnvelope.value) - modLfo * modLfoToVolume)
        }
        amplitudeIncrement = (Float(target) - amplitude) / Float(n)

        let cents = pitch + modLfo * modLfoToPitch + vibLfo * vibLfoToPitch + modEnv * modEnvToPitch
        increment = DynamicsMath.exp2((cents - rootCents) / 1200) * rateRatio
        if !(increment > 0) { increment = 1e-6 }

        // Cutoff: FluidSynth clamps to 1500...13500 cents (its coefficient table) and to 5 Hz...0.45 × rate.
        var fres = filterFc + modLfo * modLfoToFc + modEnv * modEnvToFc
        fres = min(min(max(fres, 1500), 13500), maximumFilterCents)
        if abs(fres - lastFres) > 0.5 || filterQ != lastQ {
            lastFres = fres
            lastQ = filterQ
            // sin and cos of the cutoff's angular frequency, tabulated per cent from 1500 (FluidSynth's table).
            let row = min(max(Int(fres) - 1500, 0), 12000)
            let s = sinCos[2 * row], c = sinCos[2 * row + 1]
            let alpha = s / (2 * filterQ)
            let a0Inverse = 1 / (1 + alpha)
            a1 = Float(-2 * c * a0Inverse)
            a2 = Float((1 - alpha) * a0Inverse)
            b1 = Float((1 - c) * a0Inverse * filterGain)
            b02 = b1 * 0.5
        }
        blockRemaining = n
    }

    /// Adds `frames` samples of the voice to `left` and `right` (frames ≤ blockRemaining ≤ controlInterval), using
    /// `buffer` (controlInterval floats) as scratch. Frees the voice when a non-looping sample runs out. Three
    /// passes, as FluidSynth does: interpolate into the buffer, filter and scale it, then mix it in with the pan.
    @_noLocks @_noAllocation
    mutating func render(frames: Int, data: UnsafePointer<Float>, coefficients: UnsafePointer<Float>, buffer: UnsafeMutablePointer<Float>,
                         left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>) {
        let looping = isLooping && loopEnd - loopStart >= 2
        let loopLength = Double(loopEnd - loopStart)
        let loopEndD = Double(loopEnd), endD = Double(end)
        var pos = position
        let inc = increment
        // Safe range for the four-point neighbourhood without wrapping or clamping.
        let safeLow = start + 1
        let safeHigh = (looping ? loopEnd : end) - 3
        var count = 0
        while count < frames {
            let i = Int(pos)
            let row = Int((pos - Double(i)) * 256) &* 4
            let xm1: Float, x0: Float, x1: Float, x2: Float
            if i >= safeLow && i <= safeHigh {
                xm1 = data[i - 1]; x0 = data[i]; x1 = data[i + 1]; x2 = data[i + 2]
            } else {
                xm1 = fetch(i - 1, data, looping); x0 = fetch(i, data, looping)
                x1 = fetch(i + 1, data, looping); x2 = fetch(i + 2, data, looping)
            }
            // Catmull-Rom cubic with FluidSynth's coefficient table (256 fractional steps).
            buffer[count] = coefficients[row] * xm1 + coefficients[row + 1] * x0 + coefficients[row + 2] * x1 + coefficients[row + 3] * x2
            count += 1
            pos += inc
            if looping {
                if pos >= loopEndD {
                    pos -= loopLength
                    if pos >= loopEndD { pos = Double(loopStart) + (pos - Double(loopStart)).truncatingRemainder(dividingBy: loopLength) }
                }
            } else if pos >= endD {
                state = .free
                break
            }
        }
        position = pos

        var h1 = hist1, h2 = hist2
        let cb02 = b02, cb1 = b1, ca1 = a1, ca2 = a2
        var amp = amplitude
        let ampInc = amplitudeIncrement
        for k in 0 ..< count {
            let centre = buffer[k] - ca1 * h1 - ca2 * h2
            let y = cb02 * (centre + h2) + cb1 * h1
            h2 = h1
            h1 = centre
            amp += ampInc
            buffer[k] = y * amp
        }
        if abs(h1) < 1e-20 { h1 = 0 }
        if abs(h2) < 1e-20 { h2 = 0 }
        hist1 = h1
        hist2 = h2
        amplitude = amp

        let pl = panLeft, pr = panRight
        for k in 0 ..< count {
            left[k] += buffer[k] * pl
            right[k] += buffer[k] * pr
        }
    }

    /// A sample point with the loop wrapped and the sample's ends clamped.
    @_noLocks @_noAllocation
    func fetch(_ index: Int, _ data: UnsafePointer<Float>, _ looping: Bool) -> Float {
        var j = index
        if looping && j >= loopEnd { j = loopStart + (j - loopEnd) % (loopEnd - loopStart) }
        if j < start { j = start }
        if j >= end { return 0 }  // SoundFont pads every sample with zeros
        return data[j]
    }
}
