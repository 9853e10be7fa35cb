import AudioDSP
import Synchronization

/// The 3D mixer's filter on its reverb return: one band as AUNBandEQ takes it (type, frequency, bandwidth in octaves,
/// gain, bypass), written off the render thread field by field and published by bumping `version`; the render
/// thread designs the section when the version changes (a torn read between two settings lasts one slice).
final class ReverbReturnFilter: Sendable {
    let version = Atomic<UInt32>(0)
    private let type = Atomic<Int>(kAUNBandEQFilterType_Parametric)
    private let frequency = Atomic<UInt32>(Float(1000).bitPattern)
    private let bandwidth = Atomic<UInt32>(Float(0.5).bitPattern)
    private let gain = Atomic<UInt32>(Float(0).bitPattern)
    private let bypass = Atomic<Bool>(true)

    func set(type: Int, frequency: Float, bandwidth: Float, gain: Float, bypass: Bool) {
        self.type.store(type, ordering: .relaxed)
        self.frequency.store(frequency.bitPattern, ordering: .relaxed)
        self.bandwidth.store(bandwidth.bitPattern, ordering: .relaxed)
        self.gain.store(gain.bitPattern, ordering: .relaxed)
        self.bypass.store(bypass, ordering: .relaxed)
        version.add(1, ordering: .releasing)
    }

    /// The section for the settings (identity when bypassed); allocation-free, for the render thread.
    func section(sampleRate: Double) -> BiquadCoefficients {
        guard !bypass.load(ordering: .relaxed) else { return .identity }
        let f = min(max(Double(Float(bitPattern: frequency.load(ordering: .relaxed))), 10), sampleRate * 0.49)
        let octaves = min(max(Double(Float(bitPattern: bandwidth.load(ordering: .relaxed))), 0.05), 5)
        return AUNBandEQ.section(type: type.load(ordering: .relaxed), frequency: f, gain: Double(Float(bitPattern: gain.load(ordering: .relaxed))),
                                 octaves: octaves, sampleRate: sampleRate)
    }
}

/// Not Apple API: sets the filter on a 3D mixer's reverb return (AVAudioEnvironmentReverbParameters.filterParameters,
/// whose band is an AUNBandEQ band). kAudio_ParamError for a unit that is not a 3D mixer.
@discardableResult
package func AUSpatialMixerSetReverbFilter(_ unit: AudioUnit, type: Int, frequency: Float, bandwidth: Float, gain: Float,
                                           bypass: Bool) -> OSStatus {
    guard let mixer = AudioUnitObject.live(unit) as? AUSpatialMixer else { return kAudio_ParamError }
    mixer.reverbFilter.set(type: type, frequency: frequency, bandwidth: bandwidth, gain: gain, bypass: bypass)
    return noErr
}
