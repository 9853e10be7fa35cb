import Foundation

/// A delay line with feedback and a low-pass in the loop (AUDelay).
open class AVAudioUnitDelay: AVAudioUnitEffect, @unchecked Sendable {
    static let description = AudioComponentDescription(componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_Delay,
                                                       componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    /// A delay with AVAudioUnitDelay.h's defaults: 1 s, 50 % feedback, 15 kHz, 100 % wet (the AUDelay under
    /// it starts at 50 % wet, AudioUnitParameters.h, so the node sets its mix).
    public convenience init() {
        self.init(description: Self.description, unit: Self.instantiate(Self.description))
        wetDryMix = 100
    }

    /// Delay in seconds, 0...2.
    public var delayTime: TimeInterval {
        get { TimeInterval(parameter(kDelayParam_DelayTime)) }
        set { setParameter(kDelayParam_DelayTime, Float(newValue)) }
    }
    /// Feedback in percent, -100...100.
    public var feedback: Float {
        get { parameter(kDelayParam_Feedback) }
        set { setParameter(kDelayParam_Feedback, newValue) }
    }
    /// Low-pass cutoff in the feedback loop, 10 Hz...(sample rate / 2).
    public var lowPassCutoff: Float {
        get { parameter(kDelayParam_LopassCutoff) }
        set { setParameter(kDelayParam_LopassCutoff, newValue) }
    }
    /// Wet signal in percent, 0...100.
    public var wetDryMix: Float {
        get { parameter(kDelayParam_WetDryMix) }
        set { setParameter(kDelayParam_WetDryMix, newValue) }
    }
}
