import Foundation

/// How a volume control's scalar (Apple's 0...1 slider position) maps to decibels.
///
/// The scalar is the position a volume slider shows, as ALSA's own mixers (alsamixer's "mapped volume")
/// and PulseAudio define it: a control whose dB span is at most 24 dB moves linearly in dB; a wider one is
/// cubic in amplitude, scalar = 10^((dB - max) / 60) rescaled so that the bottom of the range is 0 (the
/// bottom counts as silence when the control mutes there). PulseAudio's volumes are this curve exactly:
/// its percentage is the scalar and its dB is 60 log10(scalar).
struct VolumeCurve: Equatable {
    /// The decibel range (minimum < maximum).
    var minimum: Double
    var maximum: Double
    /// Whether the bottom of the range is silence (a mute step, or PulseAudio's floor) rather than a level.
    var minimumIsSilence: Bool

    /// Spans up to this many dB are linear in dB (ALSA's rule).
    static let linearSpan = 24.0
    /// PulseAudio's floor for decibels (PA_DECIBEL_MININFTY): quieter counts as silence.
    static let pulseAudioFloor = -200.0
    /// PulseAudio's curve: 0 dB at 100 %, 60 log10 below, the floor at 0 %.
    static let pulseAudio = VolumeCurve(minimum: pulseAudioFloor, maximum: 0, minimumIsSilence: true)

    private var isLinear: Bool { maximum - minimum <= Self.linearSpan }

    /// What the scalar 0 stands for in the cubic case (0 when the bottom is silence).
    private var floorAmplitude: Double { minimumIsSilence ? 0 : pow(10, (minimum - maximum) / 60) }

    /// The scalar for a level in dB (clamped to the range).
    func scalar(decibels: Double) -> Double {
        let d = min(max(decibels, minimum), maximum)
        if isLinear { return (d - minimum) / (maximum - minimum) }
        if d <= minimum && minimumIsSilence { return 0 }
        let f = floorAmplitude
        return min(max((pow(10, (d - maximum) / 60) - f) / (1 - f), 0), 1)
    }

    /// The level in dB of a scalar (clamped to 0...1).
    func decibels(scalar: Double) -> Double {
        let s = min(max(scalar, 0), 1)
        if isLinear { return minimum + s * (maximum - minimum) }
        let f = floorAmplitude
        let amplitude = s * (1 - f) + f
        guard amplitude > 0 else { return minimum }
        return max(maximum + 60 * log10(amplitude), minimum)
    }
}
