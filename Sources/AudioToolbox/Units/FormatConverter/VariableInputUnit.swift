/// What AUiPodTime, AUNewTimePitch and AUVarispeed share: one input and one output in the canonical format
/// (Float32, non-interleaved) with the same channel count and sample rate (else kAudioUnitErr_FormatNotSupported
/// at initialize), and a render that pulls as many input frames as the output needs.
///
/// Each render asks the processor how many more input frames it needs for the rest of the slice, pulls them
/// in chunks of at most MaximumFramesPerSlice into a staging buffer (input sample times start at 0 at
/// initialize and reset, and advance by the frames pulled), and feeds them to the processor until the slice
/// is full. Input the processor did not take (the need is an upper bound) stays staged for the next render.
/// Everything the render touches is allocated at initialize: it allocates nothing and takes no lock.
///
/// Parameters accept any finite value (as AUBase: noErr) and store the value the unit uses, clamped to the
/// range (AUiPodTime: rounded to one of its rates); scheduled values are clamped when read. Subclasses read
/// their parameters once per slice in `prepareSlice`.
class VariableInputUnit: AUBase, @unchecked Sendable {
    private var staging: UnsafeMutablePointer<Float>?
    private var stagingCapacity = 0
    private var stagedStart = 0
    private var stagedCount = 0
    private(set) var channelCount = 0
    private var pullList: UnsafeMutableAudioBufferListPointer?
    private var inputPointers: UnsafeMutablePointer<UnsafePointer<Float>>?
    private var outputPointers: UnsafeMutablePointer<UnsafeMutablePointer<Float>>?
    private var inputTime = AudioTimeStamp()

    init(component: AudioComponentEntry) {
        super.init(component: component, inputs: 1, outputs: 1)
    }

    deinit { releaseProcessor() }

    // MARK: Subclass hooks

    /// The channel counts the unit takes (AUiPodTime: 1 or 2).
    var channelRange: ClosedRange<UInt32> { 1...2 }
    /// Builds the processor for the format (at initialize; may allocate).
    func makeProcessor(sampleRate: Double, channels: Int) {}
    func releaseProcessor() {}
    /// Back to the initial state (real-time safe).
    func resetProcessor() {}
    /// Reads the parameters and hands them to the processor; once per render, before any other call.
    func prepareSlice() {}
    /// Input frames still needed before `outputFrames` more output frames can be produced (an upper bound).
    func inputFramesNeeded(forOutputFrames outputFrames: Int) -> Int { 0 }
    func process(input: UnsafePointer<UnsafePointer<Float>>, inputFrames: Int,
                 output: UnsafePointer<UnsafeMutablePointer<Float>>, outputCapacity: Int) -> (inputConsumed: Int, outputProduced: Int) {
        (0, 0)
    }

    /// Stores `value` clamped to the parameter's range (the value read back is the value used).
    func storeClamped(_ id: AudioUnitParameterID, _ value: AudioUnitParameterValue, min: Float, max: Float) {
        guard let (table, i) = parameterSlot(id, kAudioUnitScope_Global, 0) else { return }
        table.setValue(at: i, Swift.min(Swift.max(value, min), max))
    }

    // MARK: AUBase

    override func isValidFormat(_ scope: AudioUnitScope, _ element: AudioUnitElement, _ f: AudioStreamBasicDescription) -> Bool {
        AUFormatRules.isCommonFloat32(f) && channelRange.contains(f.mChannelsPerFrame)
    }

    override func initializeUnit() -> OSStatus {
        let input = inputs[0].format, output = outputs[0].format
        guard input.mChannelsPerFrame == output.mChannelsPerFrame, input.mSampleRate == output.mSampleRate,
              channelRange.contains(output.mChannelsPerFrame), output.mSampleRate > 0 else {
            return kAudioUnitErr_FormatNotSupported
        }
        releaseProcessor()
        channelCount = Int(output.mChannelsPerFrame)
        stagingCapacity = Int(maxFramesPerSlice)
        let staging = renderMemory.take(Float.self, count: channelCount * stagingCapacity, repeating: 0)
        self.staging = staging
        pullList = renderMemory.takeBufferList(buffers: channelCount)
        inputPointers = renderMemory.take(UnsafePointer<Float>.self, count: channelCount)
        outputPointers = renderMemory.take(UnsafeMutablePointer<Float>.self, count: channelCount)
        for c in 0..<channelCount {
            inputPointers![c] = UnsafePointer(staging + c * stagingCapacity)
            outputPointers![c] = staging + c * stagingCapacity
        }
        makeProcessor(sampleRate: output.mSampleRate, channels: channelCount)
        resetUnit(kAudioUnitScope_Global, 0)
        return noErr
    }

    /// The pointers go with the unit's render memory (AUBase frees it after this).
    override func cleanupUnit() {
        staging = nil
        pullList = nil
        inputPointers = nil
        outputPointers = nil
        releaseProcessor()
    }

    override func resetUnit(_ scope: AudioUnitScope, _ element: AudioUnitElement) {
        stagedStart = 0
        stagedCount = 0
        inputTime = AudioTimeStamp()
        inputTime.mFlags = .sampleTimeValid
        if staging != nil { resetProcessor() }
    }

    override func renderBus(_ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, _ timeStamp: UnsafePointer<AudioTimeStamp>,
                            _ bus: UInt32, _ frames: UInt32, _ output: UnsafeMutablePointer<AudioBufferList>) -> OSStatus {
        guard let staging, let pullList, let inputPointers, let outputPointers else { return kAudioUnitErr_Uninitialized }
        let out = UnsafeMutableAudioBufferListPointer(output)
        guard out.count == channelCount else { return kAudio_ParamError }
        prepareSlice()
        let total = Int(frames)
        var written = 0
        var idle = 0
        while written < total {
            if stagedCount == 0 {
                // Pull what the rest of the slice needs, at most one slice at a time (at least one frame, so
                // a processor that only needs to be fed past its look-ahead makes progress).
                let chunk = min(max(inputFramesNeeded(forOutputFrames: total - written), 1), stagingCapacity)
                for c in 0..<channelCount {
                    pullList[c] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(chunk * 4),
                                              mData: UnsafeMutableRawPointer(staging + c * stagingCapacity))
                }
                var pullFlags: AudioUnitRenderActionFlags = []
                let (status, abl) = pullInput(0, flags: &pullFlags, timeStamp: &inputTime, frames: UInt32(chunk),
                                                   into: pullList.unsafeMutablePointer)
                guard status == noErr else { return status }
                let pulled = UnsafeMutableAudioBufferListPointer(abl)
                for c in 0..<channelCount {
                    let destination = staging + c * stagingCapacity
                    // A unit source may hand back its own buffers (zero copy); take the samples from there.
                    if let p = pulled[Swift.min(c, pulled.count - 1)].mData, p != UnsafeMutableRawPointer(destination) {
                        destination.update(from: p.assumingMemoryBound(to: Float.self), count: chunk)
                    }
                }
                inputTime.mSampleTime += Double(chunk)
                stagedStart = 0
                stagedCount = chunk
            }
            for c in 0..<channelCount {
                inputPointers[c] = UnsafePointer(staging + c * stagingCapacity + stagedStart)
                outputPointers[c] = out[c].mData!.assumingMemoryBound(to: Float.self) + written
            }
            let r = process(input: UnsafePointer(inputPointers), inputFrames: stagedCount,
                            output: UnsafePointer(outputPointers), outputCapacity: total - written)
            stagedStart += r.inputConsumed
            stagedCount -= r.inputConsumed
            written += r.outputProduced
            // Never spin: a processor that takes nothing and gives nothing twice in a row ends the slice.
            if r.inputConsumed == 0 && r.outputProduced == 0 {
                idle += 1
                if idle > 1 { break }
            } else {
                idle = 0
            }
        }
        if written < total {
            for c in 0..<channelCount { (out[c].mData!.assumingMemoryBound(to: Float.self) + written).update(repeating: 0, count: total - written) }
        }
        flags.pointee.remove(.unitRenderAction_OutputIsSilence)
        return noErr
    }
}
