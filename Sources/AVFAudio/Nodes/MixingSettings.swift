import Foundation

/// The AVAudioMixing values of one source (or of one of its destinations): what the engine applies to the
/// mixer inputs the source feeds.
final class MixingSettings: @unchecked Sendable {
    var volume: Float = 1
    var pan: Float = 0
    var renderingAlgorithm = AVAudio3DMixingRenderingAlgorithm.equalPowerPanning
    var sourceMode = AVAudio3DMixingSourceMode.spatializeIfMono
    var pointSourceInHeadMode = AVAudio3DMixingPointSourceInHeadMode.mono
    var rate: Float = 1
    var reverbBlend: Float = 0
    var obstruction: Float = 0
    var occlusion: Float = 0
    var position = AVAudio3DPoint()

    /// Copies every value from `other`.
    func take(_ other: MixingSettings) {
        volume = other.volume; pan = other.pan; renderingAlgorithm = other.renderingAlgorithm; sourceMode = other.sourceMode
        pointSourceInHeadMode = other.pointSourceInHeadMode; rate = other.rate; reverbBlend = other.reverbBlend
        obstruction = other.obstruction; occlusion = other.occlusion; position = other.position
    }
}

/// AVAudioMixing for the nodes that are sources (players, mixers, source nodes, the input node, generators):
/// setting a value applies it to every mixer input the node feeds.
extension AVAudioMixing where Self: AVAudioNode {
    /// Gain into the mixers this node feeds, 0...1.
    public var volume: Float {
        get { mixing.volume }
        set { mixing.volume = newValue; attachedEngine?.applyMixing(of: self) }
    }
    /// Pan into the mixers this node feeds, -1...1.
    public var pan: Float {
        get { mixing.pan }
        set { mixing.pan = newValue; attachedEngine?.applyMixing(of: self) }
    }
    /// The 3D rendering algorithm (environment node).
    public var renderingAlgorithm: AVAudio3DMixingRenderingAlgorithm {
        get { mixing.renderingAlgorithm }
        set { mixing.renderingAlgorithm = newValue; attachedEngine?.applyMixing(of: self) }
    }
    /// Whether the source is spatialized (environment node).
    public var sourceMode: AVAudio3DMixingSourceMode {
        get { mixing.sourceMode }
        set { mixing.sourceMode = newValue; attachedEngine?.applyMixing(of: self) }
    }
    /// In-head rendering of a point source (environment node).
    public var pointSourceInHeadMode: AVAudio3DMixingPointSourceInHeadMode {
        get { mixing.pointSourceInHeadMode }
        set { mixing.pointSourceInHeadMode = newValue; attachedEngine?.applyMixing(of: self) }
    }
    /// Playback rate through the environment node, 0.5...2.
    public var rate: Float {
        get { mixing.rate }
        set { mixing.rate = newValue; attachedEngine?.applyMixing(of: self) }
    }
    /// Reverb send, 0...1 (environment node).
    public var reverbBlend: Float {
        get { mixing.reverbBlend }
        set { mixing.reverbBlend = newValue; attachedEngine?.applyMixing(of: self) }
    }
    /// Obstruction in dB, -100...0 (environment node).
    public var obstruction: Float {
        get { mixing.obstruction }
        set { mixing.obstruction = newValue; attachedEngine?.applyMixing(of: self) }
    }
    /// Occlusion in dB, -100...0 (environment node).
    public var occlusion: Float {
        get { mixing.occlusion }
        set { mixing.occlusion = newValue; attachedEngine?.applyMixing(of: self) }
    }
    /// Position in meters (environment node).
    public var position: AVAudio3DPoint {
        get { mixing.position }
        set { mixing.position = newValue; attachedEngine?.applyMixing(of: self) }
    }

    /// The settings this node has on one input of one mixer; nil when it does not feed that input.
    public func destination(forMixer mixer: AVAudioNode, bus: AVAudioNodeBus) -> AVAudioMixingDestination? {
        attachedEngine?.mixingDestination(source: self, mixer: mixer, bus: bus)
    }
}
