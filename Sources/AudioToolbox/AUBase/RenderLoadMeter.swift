import Synchronization

/// Measures how much of each slice's real-time budget a render used (for AUGraphGetCPULoad and
/// AUGraphGetMaxCPULoad): a short-term running average and the maximum since last read.
/// `record` is safe on the render thread. Whether a unit measures is its RenderWork `.meter` bit.
final class RenderLoadMeter: @unchecked Sendable {
    private let averageBits = Atomic<UInt64>(0)
    private let maxBits = Atomic<UInt64>(0)

    @inline(__always)
    func record(nanoseconds: UInt64, frames: UInt32, sampleRate: Double) {
        guard frames > 0, sampleRate > 0 else { return }
        let budget = Double(frames) / sampleRate * 1e9
        let load = Double(nanoseconds) / budget
        let average = Double(bitPattern: averageBits.load(ordering: .relaxed))
        // About 0.1 s of history at typical slice sizes.
        averageBits.store((average == 0 ? load : average * 0.9 + load * 0.1).bitPattern, ordering: .relaxed)
        if load > Double(bitPattern: maxBits.load(ordering: .relaxed)) {
            maxBits.store(load.bitPattern, ordering: .relaxed)
        }
    }

    var average: Double { Double(bitPattern: averageBits.load(ordering: .relaxed)) }

    /// The maximum since the last call, then reset.
    func takeMaximum() -> Double { Double(bitPattern: maxBits.exchange(0, ordering: .relaxed)) }
}
