import AudioDSP

/// AUSampleDelay (`'aufx' 'sdly' 'appl'`, macOS): delays its input by a whole number of frames, set by
/// `kSampleDelayParam_DelayFrames` (0 to one second of frames, schedulable per frame). With delay 0 it
/// passes audio through unchanged.
final class AUSampleDelay: AUEffectBase, @unchecked Sendable {
    static let description = AudioComponentDescription(
        componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_SampleDelay,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    private var rings: [UnsafeMutablePointer<Float>] = []
    private var ringStorage: UnsafeMutablePointer<UnsafeMutablePointer<Float>>?
    private var writeIndices: UnsafeMutablePointer<Int>?
    private var channelCount = 0
    private var mask = 0

    override init(component: AudioComponentEntry) {
        super.init(component: component)
        defineDelayParameter(sampleRate: AUBase.defaultFormat.mSampleRate)
    }

    private func defineDelayParameter(sampleRate: Double) {
        let current = parameterSlot(kSampleDelayParam_DelayFrames, kAudioUnitScope_Global, 0).map { $0.0.value(at: $0.1) } ?? 0
        defineParameter(kSampleDelayParam_DelayFrames, scope: kAudioUnitScope_Global, element: 0,
                        .oca("Delay Frames", unit: .sampleFrames, min: 0, max: Float(sampleRate), default: 0, flags: [.flag_CanRamp]))
        if let (table, i) = parameterSlot(kSampleDelayParam_DelayFrames, kAudioUnitScope_Global, 0) {
            table.setValue(at: i, min(current, Float(sampleRate)))
        }
    }

    override func streamFormatChanged(_ scope: AudioUnitScope, _ element: AudioUnitElement) {
        defineDelayParameter(sampleRate: outputs[0].format.mSampleRate)
    }

    override var tailTime: Double? {
        Double(parameterValue(kSampleDelayParam_DelayFrames, kAudioUnitScope_Global, 0)) / outputs[0].format.mSampleRate
    }

    override func initializeUnit() -> OSStatus {
        let status = super.initializeUnit()
        guard status == noErr else { return status }
        channelCount = Int(outputs[0].format.mChannelsPerFrame)
        var capacity = 1
        while capacity < Int(outputs[0].format.mSampleRate) + 1 { capacity <<= 1 }
        mask = capacity - 1
        rings = (0..<channelCount).map { _ in renderMemory.take(Float.self, count: capacity, repeating: 0) }
        ringStorage = renderMemory.take(copying: rings)
        writeIndices = renderMemory.take(Int.self, count: channelCount, repeating: 0)
        return noErr
    }

    /// The pointers go with the unit's render memory (AUBase frees it after this).
    override func cleanupUnit() {
        rings = []
        ringStorage = nil
        writeIndices = nil
    }

    override func resetUnit(_ scope: AudioUnitScope, _ element: AudioUnitElement) {
        guard let ringStorage, let writeIndices else { return }
        for c in 0..<channelCount {
            ringStorage[c].update(repeating: 0, count: mask + 1)
            writeIndices[c] = 0
        }
    }

    override func applyEffect(input: UnsafeMutableAudioBufferListPointer, output: UnsafeMutableAudioBufferListPointer,
                          frames: Int, flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>) -> OSStatus {
        guard let ringStorage, let writeIndices else { return kAudioUnitErr_Uninitialized }
        let curve = parameterCurve(kSampleDelayParam_DelayFrames, kAudioUnitScope_Global, 0)
        let delay = parameterValue(kSampleDelayParam_DelayFrames, kAudioUnitScope_Global, 0)
        for c in 0..<min(channelCount, output.count, input.count) {
            guard let src = input[c].mData, let dst = output[c].mData else { return kAudio_ParamError }
            SampleDelayKernel.apply(input: src.assumingMemoryBound(to: Float.self), output: dst.assumingMemoryBound(to: Float.self),
                                      count: frames, ring: ringStorage[c], mask: mask, writeIndex: &writeIndices[c],
                                      delays: curve, constantDelay: delay)
        }
        return noErr
    }
}
