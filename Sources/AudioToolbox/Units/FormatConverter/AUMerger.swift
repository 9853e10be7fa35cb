import AudioDSP

/// AUMerger (`'aufc' 'merg' 'appl'`): two inputs merged into one output, the counterpart of AUSplitter (split
/// a signal, process the branches, merge them back). The header says only "merges the two inputs to the
/// single output"; here the output is the sample-by-sample sum of the inputs, which must have the output's
/// channel count and sample rate (else FormatNotSupported at initialize). An unconnected input adds nothing.
final class AUMerger: AUBase, @unchecked Sendable {
    static let description = AudioComponentDescription(
        componentType: kAudioUnitType_FormatConverter, componentSubType: kAudioUnitSubType_Merger,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    init(component: AudioComponentEntry) {
        super.init(component: component, inputs: 2, outputs: 1)
    }

    override func initializeUnit() -> OSStatus {
        let output = outputs[0].format
        for input in inputs where input.format.mChannelsPerFrame != output.mChannelsPerFrame || input.format.mSampleRate != output.mSampleRate {
            return kAudioUnitErr_FormatNotSupported
        }
        return noErr
    }

    override func renderBus(_ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, _ timeStamp: UnsafePointer<AudioTimeStamp>,
                            _ bus: UInt32, _ frames: UInt32, _ output: UnsafeMutablePointer<AudioBufferList>) -> OSStatus {
        let out = UnsafeMutableAudioBufferListPointer(output)
        let n = Int(frames)
        for c in 0..<out.count { out[c].mData?.assumingMemoryBound(to: Float.self).update(repeating: 0, count: n) }
        var silent = true
        for i in 0..<inputs.count where inputs[i].source.value.kind != .none {
            var inputFlags: AudioUnitRenderActionFlags = []
            let (status, abl) = pullInput(i, flags: &inputFlags, timeStamp: timeStamp, frames: frames)
            guard status == noErr else { return status }
            let list = UnsafeMutableAudioBufferListPointer(abl)
            for c in 0..<min(out.count, list.count) {
                guard let source = list[c].mData?.assumingMemoryBound(to: Float.self),
                      let destination = out[c].mData?.assumingMemoryBound(to: Float.self) else { continue }
                _ = MixerKernels.accumulate(source, into: destination, count: n, gain: 1, target: 1, step: 1)
            }
            if !inputFlags.contains(.unitRenderAction_OutputIsSilence) { silent = false }
        }
        if silent { flags.pointee.insert(.unitRenderAction_OutputIsSilence) } else { flags.pointee.remove(.unitRenderAction_OutputIsSilence) }
        return noErr
    }
}
