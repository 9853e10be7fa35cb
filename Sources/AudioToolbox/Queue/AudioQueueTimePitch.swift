import AudioDSP
import Foundation

/// EnableTimePitch: AudioDSP's time-pitch processor between the queue's buffers and the device, with a
/// staging area for the input it has not consumed yet. Made at start, used only on the device thread.
final class AudioQueueTimePitch {
    let processor: TimePitchProcessor
    let algorithm: UInt32
    let bypass: Bool
    let stagingCapacity: Int
    private let staging: UnsafeMutablePointer<Float>
    /// The staging area as a buffer list (to pull into) and as the processor's input pointers.
    let stagingList: UnsafeMutableAudioBufferListPointer
    let inputs: UnsafeMutablePointer<UnsafePointer<Float>>
    let outputs: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    private let channels: Int

    init(sampleRate: Double, channels: Int, algorithm: UInt32, bypass: Bool, maximumFrames: Int) {
        self.channels = channels
        self.algorithm = algorithm
        self.bypass = bypass
        // Rate up to 2 and pitch up to ±2400 cents: the input a slice needs stays under 8 slices.
        stagingCapacity = 8 * maximumFrames
        let settings: TimeStretcherSettings = algorithm == kAudioQueueTimePitchAlgorithm_Spectral ? .music : .standard
        processor = TimePitchProcessor(sampleRate: sampleRate, channels: channels, maximumRate: 2, maximumPitch: 4, settings: settings)
        staging = .allocate(capacity: channels * stagingCapacity)
        staging.initialize(repeating: 0, count: channels * stagingCapacity)
        stagingList = AudioBufferList.allocate(maximumBuffers: channels)
        inputs = .allocate(capacity: channels)
        outputs = .allocate(capacity: channels)
        for c in 0..<channels {
            stagingList[c] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(stagingCapacity * 4),
                                         mData: UnsafeMutableRawPointer(staging + c * stagingCapacity))
            inputs[c] = UnsafePointer(staging + c * stagingCapacity)
            outputs[c] = staging + c * stagingCapacity
        }
    }

    deinit {
        staging.deallocate()
        free(stagingList.unsafeMutablePointer)
        inputs.deallocate()
        outputs.deallocate()
    }

    /// Rate and pitch for the next slice, as the algorithm takes them: Varispeed changes both together
    /// (pitch follows rate, the Pitch parameter is ignored); Spectral and TimeDomain keep pitch unless
    /// Pitch moves it (Apple applies Pitch with Spectral only).
    func configure(rate: Float, cents: Float) {
        if bypass {
            processor.rate = 1
            processor.pitch = 1
        } else if algorithm == kAudioQueueTimePitchAlgorithm_Varispeed {
            processor.rate = Double(rate)
            processor.pitch = Double(rate)
        } else {
            processor.rate = Double(rate)
            processor.pitch = algorithm == kAudioQueueTimePitchAlgorithm_Spectral ? exp2(Double(cents) / 1200) : 1
        }
    }

    /// Moves the unconsumed staged frames to the front.
    func consume(_ consumed: Int, of staged: Int) {
        guard consumed > 0, consumed < staged else { return }
        for c in 0..<channels {
            let base = staging + c * stagingCapacity
            base.update(from: base + consumed, count: staged - consumed)
        }
    }
}
