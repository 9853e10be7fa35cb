/// Base of the effects whose DSP is one AudioDSP kernel object (delay, reverbs, dynamics, distortion, roger beep):
/// defines the subclass's global parameters (Nyquist-bound ranges follow the rate), has the subclass build its
/// kernel at initialize for the rate, channel count and MaximumFramesPerSlice, and hands each render's channel
/// pointers to `process`. Most subclasses are AUSingleKernelEffect's; AUPitch drives its processor itself. Meters are
/// read-only parameters the subclass stores after processing.
class AUKernelEffect: AUEffectBase, @unchecked Sendable {
    /// The unit's global parameters (subclasses).
    func effectParameters() -> [EffectParameter] { [] }
    /// Builds the kernel (subclasses); false if it cannot run this configuration.
    func makeKernel(sampleRate: Double, maximumFrames: Int, channels: Int) -> Bool { true }
    /// Frees the kernel (subclasses).
    func releaseKernel() {}
    /// Runs the kernel on one render's channels (input may equal output). Render thread: no allocation, no lock.
    func process(input: UnsafePointer<UnsafeMutablePointer<Float>>, output: UnsafePointer<UnsafeMutablePointer<Float>>,
                 channels: Int, frames: Int) {}

    private var inputPointers: UnsafeMutablePointer<UnsafeMutablePointer<Float>>?
    private var outputPointers: UnsafeMutablePointer<UnsafeMutablePointer<Float>>?
    private var channelCount = 0
    // The settable parameters and the values last handed to the kernel (`parametersChanged`).
    private var watchedIDs: UnsafeMutablePointer<AudioUnitParameterID>?
    private var lastValues: UnsafeMutablePointer<Float>?
    private var watchedCount = 0

    override init(component: AudioComponentEntry) {
        super.init(component: component)
    }

    /// Defines the parameters; subclasses call it at the end of their init.
    func defineEffectParameters() { defineGlobalParameters(effectParameters()) }

    override func streamFormatChanged(_ scope: AudioUnitScope, _ element: AudioUnitElement) {
        defineEffectParameters()
    }

    override func initializeUnit() -> OSStatus {
        let status = super.initializeUnit()
        guard status == noErr else { return status }
        releaseKernel()
        let watched = effectParameters().filter { !$0.flags.contains(.flag_MeterReadOnly) }.map(\.id)
        watchedCount = watched.count
        watchedIDs = renderMemory.take(copying: watched)
        lastValues = renderMemory.take(Float.self, count: watchedCount, repeating: .nan)
        channelCount = Int(outputs[0].format.mChannelsPerFrame)
        guard makeKernel(sampleRate: outputs[0].format.mSampleRate, maximumFrames: Int(maxFramesPerSlice), channels: channelCount) else {
            return kAudioUnitErr_FormatNotSupported
        }
        inputPointers = renderMemory.take(UnsafeMutablePointer<Float>.self, count: channelCount)
        outputPointers = renderMemory.take(UnsafeMutablePointer<Float>.self, count: channelCount)
        return noErr
    }

    /// The pointers go with the unit's render memory (AUBase frees it after this).
    override func cleanupUnit() {
        inputPointers = nil
        outputPointers = nil
        watchedIDs = nil
        lastValues = nil
        releaseKernel()
    }

    /// Whether a settable parameter changed since the last call (true on the first), remembering the values.
    /// Render thread: reads and compares, no allocation.
    func parametersChanged() -> Bool {
        guard let watchedIDs, let lastValues else { return true }
        var changed = false
        for k in 0..<watchedCount {
            let v = value(watchedIDs[k])
            if v != lastValues[k] {
                lastValues[k] = v
                changed = true
            }
        }
        return changed
    }

    override func applyEffect(input: UnsafeMutableAudioBufferListPointer, output: UnsafeMutableAudioBufferListPointer,
                              frames: Int, flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>) -> OSStatus {
        guard let inputPointers, let outputPointers else { return kAudioUnitErr_Uninitialized }
        let n = min(channelCount, input.count, output.count)
        for c in 0..<n {
            guard let src = input[c].mData?.assumingMemoryBound(to: Float.self),
                  let dst = output[c].mData?.assumingMemoryBound(to: Float.self) else { return kAudio_ParamError }
            inputPointers[c] = src
            outputPointers[c] = dst
        }
        process(input: inputPointers, output: outputPointers, channels: n, frames: frames)
        return noErr
    }

    /// The current value of global parameter `id`.
    @inline(__always)
    func value(_ id: AudioUnitParameterID) -> Float { parameterValue(id, kAudioUnitScope_Global, 0) }

    /// Stores global parameter `id`'s value: a read-only meter after a render (an atomic store, fine on the render
    /// thread), or the values a property such as a room type sets.
    @inline(__always)
    func storeValue(_ id: AudioUnitParameterID, _ v: Float) {
        if let (table, i) = parameterSlot(id, kAudioUnitScope_Global, 0) { table.setValue(at: i, v) }
    }
}
