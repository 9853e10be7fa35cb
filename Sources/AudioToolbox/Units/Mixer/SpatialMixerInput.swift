import AudioDSP
import Synchronization

/// One 3D mixer input's settings made through properties. Set on the main thread, read by the render thread
/// once per slice: each field is its own atomic (a torn triple of distance values is harmless for a slice).
final class SpatialMixerInputSettings: Sendable {
    static let supportedFlags: UInt32 = AU3DMixerRenderingFlags([.k3DMixerRenderingFlags_InterAuralDelay,
                                                                  .k3DMixerRenderingFlags_DistanceAttenuation,
                                                                  .k3DMixerRenderingFlags_LinearDistanceAttenuation]).rawValue
    let algorithm = Atomic<UInt32>(AUSpatializationAlgorithm.spatializationAlgorithm_EqualPowerPanning.rawValue)
    let renderingFlags = Atomic<UInt32>(AU3DMixerRenderingFlags([.k3DMixerRenderingFlags_InterAuralDelay,
                                                                 .k3DMixerRenderingFlags_DistanceAttenuation]).rawValue)
    let curve = Atomic<UInt32>(AUSpatialMixerAttenuationCurve.spatialMixerAttenuationCurve_Power.rawValue)
    let sourceMode = Atomic<UInt32>(AUSpatialMixerSourceMode.spatialMixerSourceMode_SpatializeIfMono.rawValue)
    /// kAudioUnitProperty_3DMixerDistanceAtten: the rolloff factor scaling the curve's slope.
    let rolloff = Atomic<UInt64>(1.0.bitPattern)
    let referenceDistance = Atomic<UInt32>(Float(1).bitPattern)
    let maxDistance = Atomic<UInt32>(Float(10_000).bitPattern)
    let maxAttenuation = Atomic<UInt32>(Float(120).bitPattern)

    var distanceParams: MixerDistanceParams {
        MixerDistanceParams(mReferenceDistance: Float(bitPattern: referenceDistance.load(ordering: .relaxed)),
                            mMaxDistance: Float(bitPattern: maxDistance.load(ordering: .relaxed)),
                            mMaxAttenuation: Float(bitPattern: maxAttenuation.load(ordering: .relaxed)))
    }

    func setDistanceParams(_ p: MixerDistanceParams) {
        referenceDistance.store(p.mReferenceDistance.bitPattern, ordering: .relaxed)
        maxDistance.store(p.mMaxDistance.bitPattern, ordering: .relaxed)
        maxAttenuation.store(p.mMaxAttenuation.bitPattern, ordering: .relaxed)
    }

    /// The gain distance gives, or 1 when distance attenuation is off.
    func distanceGain(_ distance: Float) -> Float {
        let flags = AU3DMixerRenderingFlags(rawValue: renderingFlags.load(ordering: .relaxed))
        guard flags.contains(.k3DMixerRenderingFlags_DistanceAttenuation) else { return 1 }
        let curve = flags.contains(.k3DMixerRenderingFlags_LinearDistanceAttenuation)
            ? SpatialKernels.AttenuationCurve.linear
            : SpatialKernels.AttenuationCurve(rawValue: self.curve.load(ordering: .relaxed)) ?? .power
        let p = distanceParams
        return SpatialKernels.distanceGain(distance, curve: curve, reference: p.mReferenceDistance, maximum: p.mMaxDistance,
                                           maxAttenuationDB: p.mMaxAttenuation,
                                           rolloff: Double(bitPattern: rolloff.load(ordering: .relaxed)))
    }
}

/// One 3D mixer input's render state (render thread only). Its buffers are the unit's render memory, sized at
/// initialize; the state only points at them (AUBase frees them when the unit uninitializes).
struct SpatialMixerInputState {
    /// Source samples per channel (`sourceCapacity` each): the variable-rate reader's window.
    var source: UnsafeMutablePointer<Float>
    /// The mono signal's delay line for the spherical head: `historyLength` old samples, then the slice.
    var history: UnsafeMutablePointer<Float>
    /// How many samples `source` and `history` hold.
    let sourceSamples: Int, historySamples: Int
    /// Read position in `source` and how many samples it holds.
    var position = 1.0
    var held = 3
    /// The sample time of the next frame to pull from the input.
    var sampleTime = 0.0
    /// De-zippered gains reaching the left and right outputs.
    var gainLeft: Float = 0, gainRight: Float = 0
    /// De-zippered gain into the reverb send.
    var sendGain: Float = 0
    var started = false
    /// Spherical head: current ear delays (frames) and head-shadow filter states.
    var delayLeft = 0.0, delayRight = 0.0
    var head = SpatialKernels.SphericalHead(azimuth: 0, elevation: 0, sampleRate: 44100)
    var shadowLeft: (Float, Float) = (0, 0), shadowRight: (Float, Float) = (0, 0)

    /// A fresh state whose buffers (`2 * sourceCapacity` and `historyLength + maxFrames` samples) come from `memory`,
    /// zeroed. Allocates: for initializeUnit only.
    init(sourceCapacity: Int, historyLength: Int, maxFrames: Int, memory: AURenderMemory) {
        sourceSamples = 2 * sourceCapacity
        historySamples = historyLength + maxFrames
        source = memory.take(Float.self, count: sourceSamples, repeating: 0)
        history = memory.take(Float.self, count: historySamples, repeating: 0)
    }

    private init(reusing state: SpatialMixerInputState) {
        source = state.source
        history = state.history
        sourceSamples = state.sourceSamples
        historySamples = state.historySamples
    }

    /// Back to a fresh state on the same buffers, zeroed (a reset: nothing is allocated).
    mutating func reset() {
        source.update(repeating: 0, count: sourceSamples)
        history.update(repeating: 0, count: historySamples)
        self = SpatialMixerInputState(reusing: self)
    }
}
