import COCASupport

/// AUGenericOutput (`'auou' 'genr' 'appl'`): an output unit that renders
/// only when its host calls AudioUnitRender, for offline work. One input (element 0, fed by a
/// render callback or a connection) and one output; both sides accept any self-consistent linear
/// PCM format and must match at initialize (this unit does not convert; put an AUConverter before
/// it for that), and the input's audio passes through without a copy.
final class AUGenericOutput: AUOutputBase, @unchecked Sendable {
    static let description = AudioComponentDescription(
        componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_GenericOutput,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    init(component: AudioComponentEntry) {
        super.init(component: component, inputs: 1, outputs: 1)
        passesInput0Through = true
    }

    override func isValidFormat(_ scope: AudioUnitScope, _ element: AudioUnitElement, _ f: AudioStreamBasicDescription) -> Bool {
        AUFormatRules.isConsistentLinearPCM(f)
    }

    override func initializeUnit() -> OSStatus {
        let input = inputs[0].format, output = outputs[0].format
        guard input.isBitwiseEqual(to: output) else { return kAudioUnitErr_FormatNotSupported }
        return noErr
    }

    override func renderBus(_ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, _ timeStamp: UnsafePointer<AudioTimeStamp>,
                            _ bus: UInt32, _ frames: UInt32, _ output: UnsafeMutablePointer<AudioBufferList>) -> OSStatus {
        // Formats are equal, so the input renders straight into the output buffers.
        let (status, pulled) = pullInput(0, flags: flags, timeStamp: timeStamp, frames: frames, into: output)
        if status == noErr && pulled != output {
            // A connected source lent its own memory: copy it into ours (out of line: see AUBase+Render).
            copyBufferContentsOutOfLine(from: pulled, to: output)
        }
        return status
    }

    override class var propertyRows: [AUProperty] {
        super.propertyRows + [
            // AUGenericOutput has no hardware side.
            .absent(kAudioOutputUnitProperty_HasIO),
            .absent(kAudioOutputUnitProperty_EnableIO),
        ]
    }

    override func start() -> OSStatus {
        guard isInitialized else { return kAudioUnitErr_Uninitialized }
        setRunning(true)
        return noErr
    }

    override func stop() -> OSStatus {
        setRunning(false)
        return noErr
    }
}
