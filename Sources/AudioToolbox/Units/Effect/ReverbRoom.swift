/// Apple's reverb room types (kAudioUnitProperty_ReverbRoomType) as our FDN's settings: RT60 at low frequencies and
/// at Nyquist, the spread of the network's delays and a pre-delay. Apple does not publish its rooms; these values
/// are ours, chosen to sound like their names (a small room about 0.4 s, a cathedral 6 s).
struct ReverbRoom {
    var decayLow: Double
    var decayHigh: Double
    var minDelay: Double
    var maxDelay: Double
    var preDelay: Double

    /// The thirteen rooms, indexed by AUReverbRoomType's raw value.
    static let all: [ReverbRoom] = [
        ReverbRoom(decayLow: 0.4, decayHigh: 0.25, minDelay: 0.004, maxDelay: 0.020, preDelay: 0.002),   // SmallRoom
        ReverbRoom(decayLow: 0.7, decayHigh: 0.4, minDelay: 0.006, maxDelay: 0.030, preDelay: 0.004),    // MediumRoom
        ReverbRoom(decayLow: 1.1, decayHigh: 0.6, minDelay: 0.008, maxDelay: 0.045, preDelay: 0.006),    // LargeRoom
        ReverbRoom(decayLow: 1.6, decayHigh: 0.9, minDelay: 0.010, maxDelay: 0.060, preDelay: 0.010),    // MediumHall
        ReverbRoom(decayLow: 2.5, decayHigh: 1.3, minDelay: 0.012, maxDelay: 0.080, preDelay: 0.015),    // LargeHall
        ReverbRoom(decayLow: 1.8, decayHigh: 1.6, minDelay: 0.002, maxDelay: 0.015, preDelay: 0.0),      // Plate
        ReverbRoom(decayLow: 1.2, decayHigh: 0.8, minDelay: 0.006, maxDelay: 0.035, preDelay: 0.005),    // MediumChamber
        ReverbRoom(decayLow: 1.8, decayHigh: 1.1, minDelay: 0.008, maxDelay: 0.050, preDelay: 0.008),    // LargeChamber
        ReverbRoom(decayLow: 6.0, decayHigh: 3.0, minDelay: 0.015, maxDelay: 0.100, preDelay: 0.025),    // Cathedral
        ReverbRoom(decayLow: 1.3, decayHigh: 0.8, minDelay: 0.008, maxDelay: 0.050, preDelay: 0.006),    // LargeRoom2
        ReverbRoom(decayLow: 1.8, decayHigh: 1.0, minDelay: 0.010, maxDelay: 0.065, preDelay: 0.010),    // MediumHall2
        ReverbRoom(decayLow: 2.0, decayHigh: 1.2, minDelay: 0.010, maxDelay: 0.070, preDelay: 0.012),    // MediumHall3
        ReverbRoom(decayLow: 3.0, decayHigh: 1.6, minDelay: 0.012, maxDelay: 0.090, preDelay: 0.018),    // LargeHall2
    ]
}
