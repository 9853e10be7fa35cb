import AudioDSP

/// AUPitch (`'aufx' 'tmpt' 'appl'`, macOS): shifts pitch by kTimePitchParam_Pitch cents (-2400...2400) without
/// changing duration, blended with the dry signal by kTimePitchParam_EffectBlend (0...100 %, default 100; the
/// range is ours, Apple's header gives none). AudioDSP's TimePitchProcessor at rate 1 does the shifting; since it
/// produces output in its own rhythm, the unit runs it a fixed pre-roll behind (reported as Latency) and takes
/// exactly as many frames out as it puts in, so it is an ordinary in-place effect. The dry signal is delayed by the
/// same amount, so the blend is aligned.
final class AUPitch: AUKernelEffect, @unchecked Sendable {
    static let description = AudioComponentDescription(
        componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_Pitch,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    private var processor: TimePitchProcessor?
    private var channelCount = 0
    private var preroll = 0
    // Per channel: a FIFO of wet output and a delay line of dry input, each `capacity` long (power of two).
    private var wet: UnsafeMutablePointer<Float>?
    private var dry: UnsafeMutablePointer<Float>?
    private var capacity = 0
    private var wetRead = 0, wetWrite = 0, dryIndex = 0
    private var feedIn: UnsafeMutablePointer<UnsafePointer<Float>>?
    private var feedOut: UnsafeMutablePointer<UnsafeMutablePointer<Float>>?
    private var scratch: UnsafeMutablePointer<Float>?
    private var scratchFrames = 0
    private var blend: Float = 1

    override init(component: AudioComponentEntry) {
        super.init(component: component)
        defineEffectParameters()
    }

    override func effectParameters() -> [EffectParameter] {
        [EffectParameter(id: kTimePitchParam_Pitch, name: "pitch", unit: .cents, min: -2400, max: 2400, defaultValue: 0),
         EffectParameter(id: kTimePitchParam_EffectBlend, name: "effect blend", unit: .percent, min: 0, max: 100, defaultValue: 100)]
    }

    override var latency: Double { Double(preroll) / outputs[0].format.mSampleRate }
    override var tailTime: Double? { latency }

    override func makeKernel(sampleRate: Double, maximumFrames: Int, channels: Int) -> Bool {
        let p = TimePitchProcessor(sampleRate: sampleRate, channels: channels, maximumRate: 1, maximumPitch: 4)
        processor = p
        channelCount = channels
        // Enough look-ahead for any pitch plus a slice of jitter in what one call produces.
        p.pitch = 4
        preroll = p.latencyInputFrames + maximumFrames + Int(0.05 * sampleRate)
        p.pitch = 1
        var c = 1
        while c < 2 * preroll + 4 * maximumFrames { c <<= 1 }
        capacity = c
        wet = renderMemory.take(Float.self, count: channels * c, repeating: 0)
        dry = renderMemory.take(Float.self, count: channels * c, repeating: 0)
        scratchFrames = 2 * maximumFrames + 4096
        scratch = renderMemory.take(Float.self, count: channels * scratchFrames, repeating: 0)
        feedIn = renderMemory.take(UnsafePointer<Float>.self, count: channels)
        feedOut = renderMemory.take(UnsafeMutablePointer<Float>.self, count: channels)
        clear()
        return true
    }

    private func clear() {
        guard let wet, let dry else { return }
        wet.update(repeating: 0, count: channelCount * capacity)
        dry.update(repeating: 0, count: channelCount * capacity)
        wetRead = 0
        wetWrite = preroll  // the pre-roll: silence the FIFO starts with
        dryIndex = 0
        processor?.reset()
        blend = value(kTimePitchParam_EffectBlend) / 100
    }

    /// The buffers go with the unit's render memory (AUBase frees it after cleanup).
    override func releaseKernel() {
        processor = nil
        wet = nil; dry = nil; scratch = nil; feedIn = nil; feedOut = nil
    }

    override func resetUnit(_ scope: AudioUnitScope, _ element: AudioUnitElement) { clear() }

    override func process(input: UnsafePointer<UnsafeMutablePointer<Float>>, output: UnsafePointer<UnsafeMutablePointer<Float>>,
                          channels: Int, frames: Int) {
        guard let processor, let wet, let dry, let scratch, let feedIn, let feedOut else { return }
        let mask = capacity - 1
        processor.pitch = Double(pow(2, value(kTimePitchParam_Pitch) / 1200))
        // Feed the whole slice; what it produces goes onto the wet FIFO.
        var fed = 0
        while fed < frames {
            for c in 0..<channels {
                feedIn[c] = UnsafePointer(input[c] + fed)
                feedOut[c] = scratch + c * scratchFrames
            }
            let (used, made) = processor.process(input: UnsafePointer(feedIn), inputFrames: frames - fed, endOfInput: false,
                                                 output: UnsafePointer(feedOut), outputCapacity: scratchFrames)
            for c in 0..<channels {
                let ring = wet + c * capacity, src = scratch + c * scratchFrames
                for i in 0..<made { ring[(wetWrite + i) & mask] = src[i] }
            }
            wetWrite += made
            fed += used
            if used == 0 && made == 0 { break }
        }
        let target = value(kTimePitchParam_EffectBlend) / 100
        for i in 0..<frames {
            blend += (target - blend) * 0.002
            let available = wetWrite - wetRead > 0
            for c in 0..<channels {
                let line = dry + c * capacity
                let x = input[c][i]
                let delayed = line[(dryIndex - preroll) & mask]
                line[dryIndex & mask] = x
                let w = available ? wet[c * capacity + (wetRead & mask)] : 0
                output[c][i] = blend * w + (1 - blend) * delayed
            }
            if available { wetRead += 1 }
            dryIndex += 1
        }
    }
}
