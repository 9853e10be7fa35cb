/// AUMatrixReverb's fourteen parameters (kReverbParam_*), with Apple's ranges and defaults. MatrixReverbKernel
/// clamps each to its range when it takes them; its documentation says what each one drives.
public struct MatrixReverbParameters: Sendable, Equatable {
    /// Percent, 0...100, default 100: equal-power crossfade from dry to wet.
    public var dryWetMix = 100.0
    /// Percent, 0...100, default 50: equal-power crossfade from the small (early) to the large (late) part.
    public var smallLargeMix = 50.0
    /// Seconds, 0.005...0.020. Apple's documentation gives a default of 0.06, outside its own range; clamped,
    /// that is 0.020.
    public var smallSize = 0.020
    /// Seconds, 0.4...10, default 3.07: the late part's RT60 at low frequencies.
    public var largeSize = 3.07
    /// Seconds, 0.001...0.03, default 0.025: the delay before anything of the reverb is heard.
    public var preDelay = 0.025
    /// Seconds, 0.001...0.1, default 0.035: how much later than the small part the large part starts.
    public var largeDelay = 0.035
    /// 0...1, default 0.28: how long the small part rings for its size.
    public var smallDensity = 0.28
    /// 0...1, default 0.82: the large part's echo density (denser = shorter delay lines).
    public var largeDensity = 0.82
    /// 0...1, default 0.3: how far below the large part's longest delay its shortest reaches.
    public var largeDelayRange = 0.3
    /// 0.1...1, default 0.96: the small part's RT60 at Nyquist over its RT60 at 0 Hz.
    public var smallBrightness = 0.96
    /// 0.1...1, default 0.49: the large part's RT60 at Nyquist over its RT60 at 0 Hz.
    public var largeBrightness = 0.49
    /// 0...1, default 0.5: how far below the small part's longest delay its shortest reaches.
    public var smallDelayRange = 0.5
    /// Hertz, 0.001...2, default 1.0: the rate of the late part's modulation.
    public var modulationRate = 1.0
    /// 0...1, default 0.2: the depth of the late part's modulation.
    public var modulationDepth = 0.2

    /// Apple's defaults.
    public init() {}
}
