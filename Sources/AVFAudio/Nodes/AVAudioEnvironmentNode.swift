import Foundation

/// A 3D environment (AUSpatialMixer): each source's AVAudio3DMixing position, rendering algorithm and rate place
/// it around a listener with a position and orientation; distance attenuation follows the node's parameters.
/// Coordinates are right-handed meters; the listener faces -z with +y up until oriented otherwise.
open class AVAudioEnvironmentNode: AVAudioNode, AVAudioMixing, @unchecked Sendable {
    static let description = AudioComponentDescription(componentType: kAudioUnitType_Mixer, componentSubType: kAudioUnitSubType_SpatialMixer,
                                                       componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    private var distanceParameters: AVAudioEnvironmentDistanceAttenuationParameters!
    private var reverb: AVAudioEnvironmentReverbParameters!
    /// The environment's reverb, which each source reaches by its `reverbBlend`.
    public var reverbParameters: AVAudioEnvironmentReverbParameters { reverb }

    /// An environment with the listener at the origin facing -z.
    public init() {
        super.init(unit: Self.instantiate(Self.description))
        var count = AVAudioMixerNode.inputCount
        AudioUnitSetProperty(unit, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, &count, 4)
        distanceParameters = AVAudioEnvironmentDistanceAttenuationParameters(environment: self)
        reverb = AVAudioEnvironmentReverbParameters(unit: unit)
    }

    /// The distance attenuation every source gets.
    public var distanceAttenuationParameters: AVAudioEnvironmentDistanceAttenuationParameters { distanceParameters }

    /// What the environment renders for (kept; the output is stereo either way).
    public var outputType = AVAudioEnvironmentOutputType.auto

    /// The mix's gain, 0...1.
    public var outputVolume: Float {
        get {
            var dB: AudioUnitParameterValue = 0
            AudioUnitGetParameter(unit, kSpatialMixerParam_Gain, kAudioUnitScope_Output, 0, &dB)
            return powf(10, dB / 20)
        }
        set { AudioUnitSetParameter(unit, kSpatialMixerParam_Gain, kAudioUnitScope_Output, 0, newValue > 0 ? max(20 * log10f(newValue), -120) : -120, 0) }
    }

    /// The lowest input bus with nothing connected.
    public var nextAvailableInputBus: AVAudioNodeBus { attachedEngine?.nextAvailableInputBus(of: self) ?? 0 }

    /// The listener's position.
    public var listenerPosition = AVAudio3DPoint() { didSet { applyToAllInputs() } }

    /// The listener's orientation as forward and up vectors.
    public var listenerVectorOrientation: AVAudio3DVectorOrientation {
        get { orientation }
        set {
            orientation = newValue
            applyToAllInputs()
        }
    }

    /// The listener's orientation as yaw (turning right is positive), pitch (looking up is positive) and roll
    /// (tilting right is positive), in degrees.
    public var listenerAngularOrientation: AVAudio3DAngularOrientation {
        get { Self.angles(of: orientation) }
        set {
            orientation = Self.vectors(of: newValue)
            applyToAllInputs()
        }
    }

    private var orientation = AVAudio3DVectorOrientation(forward: AVAudio3DVector(x: 0, y: 0, z: -1), up: AVAudio3DVector(x: 0, y: 1, z: 0))

    /// The rendering algorithms this environment implements.
    public var applicableRenderingAlgorithms: [NSNumber] {
        let hrtf: [AVAudio3DMixingRenderingAlgorithm] = hrtfAvailable ? [.HRTF, .HRTFHQ] : []
        return ([AVAudio3DMixingRenderingAlgorithm.equalPowerPanning, .sphericalHead] + hrtf + [.stereoPassThrough]).map { NSNumber(value: $0.rawValue) }
    }

    /// Whether the 3D mixer renders HRTF here (it refuses the algorithm when no SOFA data is installed): probed on
    /// input 0, whose setting is put back.
    private var hrtfAvailable: Bool {
        var current: UInt32 = 0
        var size: UInt32 = 4
        guard AudioUnitGetProperty(unit, kAudioUnitProperty_SpatializationAlgorithm, kAudioUnitScope_Input, 0, &current, &size) == noErr else {
            return false
        }
        var probe = AUSpatializationAlgorithm.spatializationAlgorithm_HRTF.rawValue
        let ok = AudioUnitSetProperty(unit, kAudioUnitProperty_SpatializationAlgorithm, kAudioUnitScope_Input, 0, &probe, 4) == noErr
        AudioUnitSetProperty(unit, kAudioUnitProperty_SpatializationAlgorithm, kAudioUnitScope_Input, 0, &current, 4)
        return ok
    }

    // MARK: Geometry

    private static func normalized(_ v: AVAudio3DVector) -> AVAudio3DVector {
        let n = (v.x * v.x + v.y * v.y + v.z * v.z).squareRoot()
        return n > 0 ? AVAudio3DVector(x: v.x / n, y: v.y / n, z: v.z / n) : v
    }

    private static func cross(_ a: AVAudio3DVector, _ b: AVAudio3DVector) -> AVAudio3DVector {
        AVAudio3DVector(x: a.y * b.z - a.z * b.y, y: a.z * b.x - a.x * b.z, z: a.x * b.y - a.y * b.x)
    }

    private static func dot(_ a: AVAudio3DVector, _ b: AVAudio3DVector) -> Float { a.x * b.x + a.y * b.y + a.z * b.z }

    /// Forward and up vectors of yaw, pitch and roll (degrees), applied in that order to forward -z, up +y.
    static func vectors(of a: AVAudio3DAngularOrientation) -> AVAudio3DVectorOrientation {
        let yaw = a.yaw * .pi / 180, pitch = a.pitch * .pi / 180, roll = a.roll * .pi / 180
        let forward = AVAudio3DVector(x: sinf(yaw) * cosf(pitch), y: sinf(pitch), z: -cosf(yaw) * cosf(pitch))
        // Up before roll: perpendicular to forward in the vertical plane through it.
        let up0 = AVAudio3DVector(x: -sinf(yaw) * sinf(pitch), y: cosf(pitch), z: cosf(yaw) * sinf(pitch))
        let right0 = cross(forward, up0)
        let up = AVAudio3DVector(x: up0.x * cosf(roll) - right0.x * sinf(roll), y: up0.y * cosf(roll) - right0.y * sinf(roll),
                                 z: up0.z * cosf(roll) - right0.z * sinf(roll))
        return AVAudio3DVectorOrientation(forward: forward, up: up)
    }

    /// Yaw, pitch and roll of forward and up vectors.
    static func angles(of o: AVAudio3DVectorOrientation) -> AVAudio3DAngularOrientation {
        let f = normalized(o.forward), u = normalized(o.up)
        let pitch = asinf(max(-1, min(1, f.y)))
        let yaw = atan2f(f.x, -f.z)
        let up0 = AVAudio3DVector(x: -sinf(yaw) * sinf(pitch), y: cosf(pitch), z: cosf(yaw) * sinf(pitch))
        let right0 = cross(f, up0)
        let roll = atan2f(-dot(u, right0), dot(u, up0))
        return AVAudio3DAngularOrientation(yaw: yaw * 180 / .pi, pitch: pitch * 180 / .pi, roll: roll * 180 / .pi)
    }

    /// Azimuth (degrees, 0 ahead, positive to the right), elevation (degrees, positive up) and distance (meters) of
    /// a point as the listener hears it.
    func place(_ p: AVAudio3DPoint) -> (azimuth: Float, elevation: Float, distance: Float) {
        let f = Self.normalized(orientation.forward), u = Self.normalized(orientation.up)
        let r = Self.normalized(Self.cross(f, u))
        let d = AVAudio3DVector(x: p.x - listenerPosition.x, y: p.y - listenerPosition.y, z: p.z - listenerPosition.z)
        let x = Self.dot(d, r), y = Self.dot(d, u), z = Self.dot(d, f)
        let distance = (x * x + y * y + z * z).squareRoot()
        guard distance > 0 else { return (0, 0, 0) }
        return (atan2f(x, z) * 180 / .pi, atan2f(y, (x * x + z * z).squareRoot()) * 180 / .pi, distance)
    }

    // MARK: Applying sources

    /// Places one input: its source's position, algorithm, rate and volume, with the environment's attenuation.
    func apply(_ s: MixingSettings, bus: AVAudioNodeBus) {
        let e = UInt32(bus)
        let (azimuth, elevation, distance) = place(s.position)
        AudioUnitSetParameter(unit, kSpatialMixerParam_Azimuth, kAudioUnitScope_Input, e, azimuth, 0)
        AudioUnitSetParameter(unit, kSpatialMixerParam_Elevation, kAudioUnitScope_Input, e, elevation, 0)
        AudioUnitSetParameter(unit, kSpatialMixerParam_Distance, kAudioUnitScope_Input, e, min(distance, 10_000), 0)
        AudioUnitSetParameter(unit, kSpatialMixerParam_Gain, kAudioUnitScope_Input, e, s.volume > 0 ? max(20 * log10f(s.volume), -120) : -120, 0)
        AudioUnitSetParameter(unit, kSpatialMixerParam_PlaybackRate, kAudioUnitScope_Input, e, min(max(s.rate, 0.5), 2), 0)
        AudioUnitSetParameter(unit, kSpatialMixerParam_ReverbBlend, kAudioUnitScope_Input, e, min(max(s.reverbBlend, 0), 1) * 100, 0)
        var algorithm: UInt32 = switch s.sourceMode == .bypass ? .stereoPassThrough : s.renderingAlgorithm {
        case .equalPowerPanning, .soundField: AUSpatializationAlgorithm.spatializationAlgorithm_EqualPowerPanning.rawValue
        case .stereoPassThrough: AUSpatializationAlgorithm.spatializationAlgorithm_StereoPassThrough.rawValue
        case .sphericalHead: AUSpatializationAlgorithm.spatializationAlgorithm_SphericalHead.rawValue
        case .HRTF, .HRTFHQ, .auto: AUSpatializationAlgorithm.spatializationAlgorithm_HRTF.rawValue
        }
        if AudioUnitSetProperty(unit, kAudioUnitProperty_SpatializationAlgorithm, kAudioUnitScope_Input, e, &algorithm, 4) != noErr {
            // No HRTF data installed: the spherical-head model is the nearest.
            algorithm = AUSpatializationAlgorithm.spatializationAlgorithm_SphericalHead.rawValue
            AudioUnitSetProperty(unit, kAudioUnitProperty_SpatializationAlgorithm, kAudioUnitScope_Input, e, &algorithm, 4)
        }
        let p = distanceParameters!
        // The environment's exponential law, (distance / reference)^-rolloff, is the 3D mixer's power curve.
        var curve: UInt32 = switch p.distanceAttenuationModel {
        case .exponential: AU3DMixerAttenuationCurve.k3DMixerAttenuationCurve_Power.rawValue
        case .inverse: AU3DMixerAttenuationCurve.k3DMixerAttenuationCurve_Inverse.rawValue
        case .linear: AU3DMixerAttenuationCurve.k3DMixerAttenuationCurve_Linear.rawValue
        }
        AudioUnitSetProperty(unit, kAudioUnitProperty_3DMixerAttenuationCurve, kAudioUnitScope_Input, e, &curve, 4)
        var params = MixerDistanceParams(mReferenceDistance: p.referenceDistance, mMaxDistance: max(p.maximumDistance, p.referenceDistance),
                                         mMaxAttenuation: 120)
        AudioUnitSetProperty(unit, kAudioUnitProperty_3DMixerDistanceParams, kAudioUnitScope_Input, e, &params,
                             UInt32(MemoryLayout<MixerDistanceParams>.size))
        var rolloff = Float64(p.rolloffFactor)
        AudioUnitSetProperty(unit, kAudioUnitProperty_3DMixerDistanceAtten, kAudioUnitScope_Input, e, &rolloff, 8)
    }

    /// Places every input again (the listener or the attenuation changed).
    func applyToAllInputs() {
        attachedEngine?.applyMixingToInputs(of: self)
    }
}
