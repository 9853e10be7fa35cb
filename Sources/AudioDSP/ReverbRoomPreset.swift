/// One of Apple's reverb room types (AUReverbRoomType, kAudioUnitProperty_ReverbRoomType) as values for the
/// feedback-delay-network engine that AUReverb2 and AUMatrixReverb share.
///
/// Apple publishes no numbers for its rooms; these are plausible ones. `decayTimeAt0Hz` and `decayTimeAtNyquist`
/// are the RT60 the engine is set to, so they are also what a measurement of its impulse response should find
/// (the low band at 0 Hz, the top band at Nyquist). The delay range is the spread of the network's lines: longer
/// lines for bigger spaces, very short ones for the dense plate.
///
/// | type | room            | RT60 0 Hz | RT60 Nyquist | delays (ms) | pre-delay (ms) |
/// |------|-----------------|-----------|--------------|-------------|----------------|
/// | 0    | SmallRoom       | 0.4       | 0.2          | 3-20        | 2              |
/// | 1    | MediumRoom      | 0.7       | 0.35         | 5-30        | 4              |
/// | 2    | LargeRoom       | 1.1       | 0.55         | 7-45        | 6              |
/// | 3    | MediumHall      | 1.6       | 0.8          | 10-60       | 10             |
/// | 4    | LargeHall       | 2.4       | 1.1          | 12-80       | 15             |
/// | 5    | Plate           | 1.8       | 1.5          | 2-20        | 1              |
/// | 6    | MediumChamber   | 1.0       | 0.6          | 5-35        | 5              |
/// | 7    | LargeChamber    | 1.5       | 0.9          | 7-50        | 8              |
/// | 8    | Cathedral       | 6.0       | 2.5          | 20-100      | 25             |
/// | 9    | LargeRoom2      | 1.3       | 0.7          | 8-50        | 7              |
/// | 10   | MediumHall2     | 1.8       | 0.9          | 10-65       | 10             |
/// | 11   | MediumHall3     | 2.0       | 1.2          | 11-70       | 12             |
/// | 12   | LargeHall2      | 3.0       | 1.4          | 14-90       | 18             |
public struct ReverbRoomPreset: Sendable {
    /// The AUReverbRoomType raw value (0...12).
    public let roomType: Int
    /// Apple's name for the room, without the kReverbRoomType_ prefix. (A StaticString keeps the type trivial:
    /// copying or dropping a preset never touches the runtime.)
    public let name: StaticString
    /// RT60 at 0 Hz, seconds: the expected low-frequency decay time.
    public let decayTimeAt0Hz: Double
    /// RT60 at Nyquist, seconds: the expected high-frequency decay time.
    public let decayTimeAtNyquist: Double
    /// The shortest delay line, seconds.
    public let minDelayTime: Double
    /// The longest delay line, seconds.
    public let maxDelayTime: Double
    /// Seconds before the first reflection (AUMatrixReverb's PreDelay; AUReverb2 has none).
    public let preDelay: Double

    /// How many room types there are (raw values 0..<roomTypeCount).
    public static var roomTypeCount: Int { 13 }

    /// The room for an AUReverbRoomType raw value, or nil outside 0...12. (A switch rather than a table: no
    /// lazily built global, so it is safe on the render thread.)
    public init?(roomType: Int) {
        let v: (StaticString, Double, Double, Double, Double, Double)
        switch roomType {
        case 0: v = ("SmallRoom", 0.4, 0.2, 0.003, 0.020, 0.002)
        case 1: v = ("MediumRoom", 0.7, 0.35, 0.005, 0.030, 0.004)
        case 2: v = ("LargeRoom", 1.1, 0.55, 0.007, 0.045, 0.006)
        case 3: v = ("MediumHall", 1.6, 0.8, 0.010, 0.060, 0.010)
        case 4: v = ("LargeHall", 2.4, 1.1, 0.012, 0.080, 0.015)
        case 5: v = ("Plate", 1.8, 1.5, 0.002, 0.020, 0.001)
        case 6: v = ("MediumChamber", 1.0, 0.6, 0.005, 0.035, 0.005)
        case 7: v = ("LargeChamber", 1.5, 0.9, 0.007, 0.050, 0.008)
        case 8: v = ("Cathedral", 6.0, 2.5, 0.020, 0.100, 0.025)
        case 9: v = ("LargeRoom2", 1.3, 0.7, 0.008, 0.050, 0.007)
        case 10: v = ("MediumHall2", 1.8, 0.9, 0.010, 0.065, 0.010)
        case 11: v = ("MediumHall3", 2.0, 1.2, 0.011, 0.070, 0.012)
        case 12: v = ("LargeHall2", 3.0, 1.4, 0.014, 0.090, 0.018)
        default: return nil
        }
        self.roomType = roomType
        (name, decayTimeAt0Hz, decayTimeAtNyquist, minDelayTime, maxDelayTime, preDelay) = v
    }

    /// `parameters` with the room's values in AUMatrixReverb's terms (the inverse of MatrixReverbKernel's
    /// mapping, each clamped to Apple's range): LargeSize = RT60 at 0 Hz, LargeBrightness = RT60 at Nyquist over
    /// RT60 at 0 Hz, LargeDensity and LargeDelayRange from the delay range, PreDelay, LargeDelay = the shortest
    /// delay, SmallSize = a third of the longest delay. Mix, densities of the small part, SmallBrightness,
    /// SmallDelayRange and modulation are left as they are.
    public func applied(to parameters: MatrixReverbParameters) -> MatrixReverbParameters {
        func clamp(_ v: Double, _ lo: Double, _ hi: Double) -> Double { Swift.min(Swift.max(v, lo), hi) }
        var p = parameters
        p.largeSize = clamp(decayTimeAt0Hz, 0.4, 10)
        p.largeBrightness = clamp(decayTimeAtNyquist / decayTimeAt0Hz, 0.1, 1)
        p.largeDensity = clamp((0.12 - maxDelayTime) / 0.1, 0, 1)
        p.largeDelayRange = clamp((1 - minDelayTime / maxDelayTime) / 0.9, 0, 1)
        p.preDelay = clamp(preDelay, 0.001, 0.03)
        p.largeDelay = clamp(minDelayTime, 0.001, 0.1)
        p.smallSize = clamp(maxDelayTime / 3, 0.005, 0.020)
        return p
    }
}
