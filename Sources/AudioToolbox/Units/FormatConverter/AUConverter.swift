import AudioDSP
import Synchronization

/// AUConverter (`'aufc' 'conv' 'appl'`): converts between any two linear PCM formats, including
/// sample rate, with an AudioConverter inside. It pulls its input through the usual input element
/// (render callback or connection), as much as the output needs (the input side may run at another
/// rate, so the number of input frames per render varies). RenderQuality and
/// kAudioUnitProperty_SampleRateConverterComplexity choose the resampler.
final class AUConverter: AUBase, @unchecked Sendable {
    static let description = AudioComponentDescription(
        componentType: kAudioUnitType_FormatConverter, componentSubType: kAudioUnitSubType_AUConverter,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    private var converter: PCMConverter?
    private var complexity = kAudioConverterSampleRateConverterComplexity_Normal
    /// Render-time state handed to the input proc.
    private var renderFlags: UnsafeMutablePointer<AudioUnitRenderActionFlags>?
    private var inputTime = AudioTimeStamp()
    private var pullStatus: OSStatus = noErr

    init(component: AudioComponentEntry) {
        super.init(component: component, inputs: 1, outputs: 1)
    }

    override func isValidFormat(_ scope: AudioUnitScope, _ element: AudioUnitElement, _ f: AudioStreamBasicDescription) -> Bool {
        PCMFormat(f) != nil
    }

    override var latency: Double {
        Double(converter?.latencyFrames ?? 0) / inputs[0].format.mSampleRate
    }

    override func initializeUnit() -> OSStatus {
        guard let input = PCMFormat(inputs[0].format), let output = PCMFormat(outputs[0].format),
              PCMConverter.checkRates(input, output) == noErr else {
            return kAudioUnitErr_FormatNotSupported
        }
        let c = PCMConverter(input: input, output: output)
        c.quality = renderQuality
        c.complexity = complexity
        c.rebuildResampler()
        converter = c
        inputTime = AudioTimeStamp()
        inputTime.mFlags = .sampleTimeValid
        return noErr
    }

    override func cleanupUnit() { converter = nil }

    override func resetUnit(_ scope: AudioUnitScope, _ element: AudioUnitElement) {
        converter?.reset()
        inputTime.mSampleTime = 0
    }

    /// The converter's input proc: pulls the requested frames (at most one slice) from upstream.
    private static let pullInput: AudioConverterComplexInputDataProc = { _, ioPackets, ioData, _, userData in
        let unit = Unmanaged<AUConverter>.fromOpaque(userData!).takeUnretainedValue()
        let frames = min(ioPackets.pointee, unit.maxFramesPerSlice)
        let (status, pulled) = unit.pullInput(0, flags: unit.renderFlags!, timeStamp: &unit.inputTime, frames: frames)
        guard status == noErr else {
            unit.pullStatus = status
            ioPackets.pointee = 0
            return status
        }
        let src = UnsafeMutableAudioBufferListPointer(pulled), dst = UnsafeMutableAudioBufferListPointer(ioData)
        for b in 0..<min(src.count, dst.count) { dst[b] = src[b] }
        unit.inputTime.mSampleTime += Double(frames)
        ioPackets.pointee = frames
        return noErr
    }

    override func renderBus(_ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, _ timeStamp: UnsafePointer<AudioTimeStamp>,
                            _ bus: UInt32, _ frames: UInt32, _ output: UnsafeMutablePointer<AudioBufferList>) -> OSStatus {
        guard let converter else { return kAudioUnitErr_Uninitialized }
        if converter.isIdentity {
            // Nothing to convert: the input renders straight into the output, with the output's own time stamp (an
            // AVAudioEngine player or source node on this unit keeps the engine's timeline).
            let (status, pulled) = pullInput(0, flags: flags, timeStamp: timeStamp, frames: frames, into: output)
            guard status == noErr else { return status }
            if pulled != output { copyBufferContents(from: pulled, to: output) }
            inputTime.mSampleTime += Double(frames)
            return noErr
        }
        renderFlags = flags
        pullStatus = noErr
        let list = UnsafeMutableAudioBufferListPointer(output)
        let result = converter.fill(list, capacity: Int(frames), proc: Self.pullInput,
                                    userData: Unmanaged.passUnretained(self).toOpaque())
        switch result {
        case .produced(let n) where n == Int(frames):
            return noErr
        case .produced(let n):
            // An upstream that stops (end of input) leaves the rest of the slice silent.
            for b in 0..<list.count {
                if let p = list[b].mData { memset(p + n * converter.output.bytesPerFrame, 0, (Int(frames) - n) * converter.output.bytesPerFrame) }
            }
            return noErr
        case .failed(_, let status):
            return pullStatus != noErr ? pullStatus : status
        }
    }

    override class var propertyRows: [AUProperty] {
        super.propertyRows + [
            .value(kAudioUnitProperty_SampleRateConverterComplexity, UInt32.self, of: AUConverter.self, place: AUProperty.globalScope,
                   writable: .always, exactSize: true,
                   get: { unit, _, _ in unit.complexity },
                   set: { unit, _, _, value in
                       guard [kAudioConverterSampleRateConverterComplexity_Linear, kAudioConverterSampleRateConverterComplexity_Normal,
                              kAudioConverterSampleRateConverterComplexity_Mastering].contains(value) else { return kAudioUnitErr_InvalidPropertyValue }
                       guard !unit.isInitialized else { return kAudioUnitErr_Initialized }
                       unit.complexity = value
                       return noErr
                   }),
        ]
    }
}
