import Foundation

/// How a source mixes into the mixers it feeds: volume, plus the stereo and 3D properties.
public protocol AVAudioMixing: AVAudioStereoMixing, AVAudio3DMixing {
    /// The mixing settings this source has on one input of one mixer (nil when it does not feed it).
    func destination(forMixer mixer: AVAudioNode, bus: AVAudioNodeBus) -> AVAudioMixingDestination?
    /// Gain, 0...1.
    var volume: Float { get set }
}

/// The stereo mixing property.
public protocol AVAudioStereoMixing: NSObjectProtocol {
    /// Pan, -1 (left) ... 1 (right).
    var pan: Float { get set }
}

/// How a 3D mixer renders a source.
public enum AVAudio3DMixingRenderingAlgorithm: Int, Sendable {
    case equalPowerPanning = 0
    case sphericalHead = 1
    case HRTF = 2
    case soundField = 3
    case stereoPassThrough = 5
    case HRTFHQ = 6
    case auto = 7
}

/// Whether a source is spatialized.
public enum AVAudio3DMixingSourceMode: Int, Sendable {
    case spatializeIfMono = 0
    case bypass = 1
    case pointSource = 2
    case ambienceBed = 3
}

/// How a point source inside the listener's head is rendered.
public enum AVAudio3DMixingPointSourceInHeadMode: Int, Sendable {
    case mono = 0
    case bypass = 1
}

/// The 3D mixing properties (used by AVAudioEnvironmentNode).
public protocol AVAudio3DMixing: NSObjectProtocol {
    var renderingAlgorithm: AVAudio3DMixingRenderingAlgorithm { get set }
    var sourceMode: AVAudio3DMixingSourceMode { get set }
    var pointSourceInHeadMode: AVAudio3DMixingPointSourceInHeadMode { get set }
    var rate: Float { get set }
    var reverbBlend: Float { get set }
    var obstruction: Float { get set }
    var occlusion: Float { get set }
    var position: AVAudio3DPoint { get set }
}
