import AudioDSP

/// The mixers' meters, written once: four read-only dB parameters per metered element, or per channel of it (pre
/// average power, pre peak, post average power, post peak: a slice's RMS and peak before and after the element's
/// gain), with a floor of -120 dB, filled by the render thread while MeteringMode is on.
extension AUBase {
    /// The level a silent meter reads, in dB.
    static let meterFloor: Float = -120

    /// Defines the meters `ids` (pre average, pre peak, post average, post peak, with their names) on an element; with
    /// `channels`, one of each per channel (ID + channel, the name followed by the channel number), as the 3D mixer's.
    func defineMeterParameters(_ ids: [(AudioUnitParameterID, String)], _ scope: AudioUnitScope, _ element: AudioUnitElement,
                               channels: Int? = nil) {
        for (id, name) in ids {
            for channel in 0..<(channels ?? 1) {
                var info = AudioUnitParameterInfo.oca(channels == nil ? name : "\(name) \(channel)", unit: .decibels,
                                                      min: Self.meterFloor, max: 0, default: Self.meterFloor,
                                                      flags: [.flag_MeterReadOnly, .flag_DisplayLogarithmic])
                info.flags.remove(.flag_IsWritable)
                defineParameter(id + AudioUnitParameterID(channel), scope: scope, element: element, info)
            }
        }
    }

    /// Stores one slice's meters on an element (IDs `pre average`… as defined, plus `channel`): the RMS and peak, and
    /// the same times `gain` for "post", in dB. Four plain stores (an array here would allocate on the render thread).
    @inline(__always)
    func storeMeterParameters(preAverage: AudioUnitParameterID, prePeak: AudioUnitParameterID, postAverage: AudioUnitParameterID,
                              postPeak: AudioUnitParameterID, _ scope: AudioUnitScope, _ element: AudioUnitElement, channel: Int = 0,
                              rms: Float, peak: Float, gain: Float) {
        let g = abs(gain)
        func put(_ id: AudioUnitParameterID, _ level: Float) {
            if let (table, index) = parameterSlot(id + AudioUnitParameterID(channel), scope, element) {
                table.setValue(at: index, SignalMeasurement.meterDecibels(level, floor: Self.meterFloor))
            }
        }
        put(preAverage, rms)
        put(prePeak, peak)
        put(postAverage, rms * g)
        put(postPeak, peak * g)
    }
}
