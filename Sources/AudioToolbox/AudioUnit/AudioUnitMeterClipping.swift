/// Apple's `AudioUnitMeterClipping`, the value of kAudioUnitProperty_MeterClipping: the peak seen on a channel since
/// the last get and whether an infinite or NaN sample went by. Declared in Swift because its Boolean fields are
/// DarwinBoolean in Swift; the trailing padding gives it the C struct's size (8 bytes).
public struct AudioUnitMeterClipping {
    public var peakValueSinceLastCall: Float32
    public var sawInfinity: DarwinBoolean
    public var sawNotANumber: DarwinBoolean
    private var _padding: UInt16 = 0

    /// The zero value, as the imported C type's.
    public init() {
        peakValueSinceLastCall = 0
        sawInfinity = false
        sawNotANumber = false
    }

    /// The memberwise initializer Swift gives the imported C struct.
    public init(peakValueSinceLastCall: Float32, sawInfinity: DarwinBoolean, sawNotANumber: DarwinBoolean) {
        self.peakValueSinceLastCall = peakValueSinceLastCall
        self.sawInfinity = sawInfinity
        self.sawNotANumber = sawNotANumber
    }
}
