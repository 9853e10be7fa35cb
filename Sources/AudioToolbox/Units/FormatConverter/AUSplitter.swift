/// AUSplitter (`'aufc' 'splt' 'appl'`: one input, two outputs) and AUMultiSplitter (`'aumx' 'mspl' 'appl'`:
/// one input, any number of outputs set by ElementCount on the output scope). Every output gets all channels
/// of the input, unchanged. The input is pulled once per render cycle: the first output rendered for a
/// timestamp pulls it, the others copy that slice (a new sample time or frame count pulls again).
/// Outputs must have the input's channel count and sample rate (else FormatNotSupported at initialize).
final class AUSplitter: AUBase, @unchecked Sendable {
    static let description = AudioComponentDescription(
        componentType: kAudioUnitType_FormatConverter, componentSubType: kAudioUnitSubType_Splitter,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
    static let multiDescription = AudioComponentDescription(
        componentType: kAudioUnitType_Mixer, componentSubType: kAudioUnitSubType_MultiSplitter,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    private let multi: Bool
    /// The slice last pulled (render thread only): its buffers, sample time and frame count.
    private var cached: UnsafeMutablePointer<AudioBufferList>?
    private var cachedTime = Double.nan
    private var cachedFrames: UInt32 = 0

    init(component: AudioComponentEntry, multi: Bool) {
        self.multi = multi
        super.init(component: component, inputs: 1, outputs: 2)
    }

    override func isElementCountWritable(_ scope: AudioUnitScope) -> Bool { multi && scope == kAudioUnitScope_Output }

    override func initializeUnit() -> OSStatus {
        let input = inputs[0].format
        for output in outputs where output.format.mChannelsPerFrame != input.mChannelsPerFrame || output.format.mSampleRate != input.mSampleRate {
            return kAudioUnitErr_FormatNotSupported
        }
        resetUnit(kAudioUnitScope_Global, 0)
        return noErr
    }

    override func resetUnit(_ scope: AudioUnitScope, _ element: AudioUnitElement) {
        cached = nil
        cachedTime = .nan
    }

    override func renderBus(_ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, _ timeStamp: UnsafePointer<AudioTimeStamp>,
                            _ bus: UInt32, _ frames: UInt32, _ output: UnsafeMutablePointer<AudioBufferList>) -> OSStatus {
        let time = timeStamp.pointee.mSampleTime
        if cached == nil || time != cachedTime || frames != cachedFrames {
            let (status, abl) = pullInput(0, flags: flags, timeStamp: timeStamp, frames: frames)
            guard status == noErr else { cached = nil; return status }
            cached = abl
            cachedTime = time
            cachedFrames = frames
        }
        copyBufferContents(from: cached!, to: output)
        return noErr
    }
}
