/// Apple's `AUVoiceIOOtherAudioDuckingConfiguration`, the value of kAUVoiceIOProperty_OtherAudioDuckingConfiguration:
/// whether ducking of other audio follows voice activity, and how deep it goes. Declared in Swift because its
/// Boolean field is DarwinBoolean in Swift; the layout is the C struct's (a byte, padding, a UInt32).
public struct AUVoiceIOOtherAudioDuckingConfiguration {
    public var mEnableAdvancedDucking: DarwinBoolean
    public var mDuckingLevel: AUVoiceIOOtherAudioDuckingLevel

    /// The zero value, as the imported C type's.
    public init() {
        mEnableAdvancedDucking = false
        mDuckingLevel = .default
    }

    /// The memberwise initializer Swift gives the imported C struct.
    public init(mEnableAdvancedDucking: DarwinBoolean, mDuckingLevel: AUVoiceIOOtherAudioDuckingLevel) {
        self.mEnableAdvancedDucking = mEnableAdvancedDucking
        self.mDuckingLevel = mDuckingLevel
    }
}
