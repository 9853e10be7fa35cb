import Foundation

/// The last levels read from an audio queue's meter (kAudioQueueProperty_CurrentLevelMeterDB), as AVAudioPlayer and
/// AVAudioRecorder answer them: decibels from -160 (silence, or no reading) to 0 (full scale).
struct QueueLevelMeters {
    private var states: [AudioQueueLevelMeterState] = []

    /// Reads the queue's current levels for `channels` channels.
    mutating func update(_ queue: AudioQueueRef, channels: Int) {
        var read = [AudioQueueLevelMeterState](repeating: AudioQueueLevelMeterState(mAveragePower: -160, mPeakPower: -160), count: channels)
        var size = UInt32(MemoryLayout<AudioQueueLevelMeterState>.stride * channels)
        if AudioQueueGetProperty(queue, kAudioQueueProperty_CurrentLevelMeterDB, &read, &size) == noErr {
            states = Array(read.prefix(Int(size) / MemoryLayout<AudioQueueLevelMeterState>.stride))
        }
    }

    /// Forgets the last reading.
    mutating func clear() { states = [] }

    /// The peak level of a channel.
    func peak(_ channel: Int) -> Float { states.indices.contains(channel) ? Self.clamp(states[channel].mPeakPower) : -160 }

    /// The RMS level of a channel.
    func average(_ channel: Int) -> Float { states.indices.contains(channel) ? Self.clamp(states[channel].mAveragePower) : -160 }

    private static func clamp(_ v: Float) -> Float { v.isFinite ? min(max(v, -160), 0) : -160 }
}
