import Foundation

/// A source's mixing settings on one mixer input, which may differ from its others (fan-out to several mixers).
open class AVAudioMixingDestination: NSObject, AVAudioMixing, @unchecked Sendable {
    /// The mixer input these settings apply to.
    public let connectionPoint: AVAudioConnectionPoint
    let settings = MixingSettings()
    private weak var engine: AVAudioEngine?

    init(connectionPoint: AVAudioConnectionPoint, engine: AVAudioEngine, from source: MixingSettings) {
        self.connectionPoint = connectionPoint
        self.engine = engine
        settings.take(source)
        super.init()
    }

    private func apply() {
        guard let mixer = connectionPoint.node else { return }
        engine?.applyMixing(settings, toMixer: mixer, bus: connectionPoint.bus)
    }

    /// Gain on this input, 0...1.
    public var volume: Float { get { settings.volume } set { settings.volume = newValue; apply() } }
    /// Pan on this input, -1...1.
    public var pan: Float { get { settings.pan } set { settings.pan = newValue; apply() } }
    /// The 3D rendering algorithm.
    public var renderingAlgorithm: AVAudio3DMixingRenderingAlgorithm {
        get { settings.renderingAlgorithm } set { settings.renderingAlgorithm = newValue; apply() }
    }
    /// Whether the source is spatialized.
    public var sourceMode: AVAudio3DMixingSourceMode { get { settings.sourceMode } set { settings.sourceMode = newValue; apply() } }
    /// In-head rendering of a point source.
    public var pointSourceInHeadMode: AVAudio3DMixingPointSourceInHeadMode {
        get { settings.pointSourceInHeadMode } set { settings.pointSourceInHeadMode = newValue; apply() }
    }
    /// Playback rate, 0.5...2.
    public var rate: Float { get { settings.rate } set { settings.rate = newValue; apply() } }
    /// Reverb send, 0...1.
    public var reverbBlend: Float { get { settings.reverbBlend } set { settings.reverbBlend = newValue; apply() } }
    /// Obstruction in dB.
    public var obstruction: Float { get { settings.obstruction } set { settings.obstruction = newValue; apply() } }
    /// Occlusion in dB.
    public var occlusion: Float { get { settings.occlusion } set { settings.occlusion = newValue; apply() } }
    /// Position in meters.
    public var position: AVAudio3DPoint { get { settings.position } set { settings.position = newValue; apply() } }

    /// A destination has no destinations of its own.
    public func destination(forMixer mixer: AVAudioNode, bus: AVAudioNodeBus) -> AVAudioMixingDestination? { nil }
}
