@testable import AudioToolbox

/// A unit with a settable number of inputs that sums them (stands in for the mixer of listing 1-4
/// until the real mixers land).
final class TestSummingUnit: AUBase, @unchecked Sendable {
    static let description = AudioComponentDescription(
        componentType: kAudioUnitType_Mixer, componentSubType: 0x73756D73 /* 'sums' */,
        componentManufacturer: 0x4F434174 /* 'OCAt' */, componentFlags: 0, componentFlagsMask: 0)
    static let registered: Void = {
        AudioComponentRegistry.shared.register(AudioComponentEntry(
            description: description, name: "OCA Tests: Sum", version: 1, maker: .builtIn { TestSummingUnit(component: $0) }))
    }()

    init(component: AudioComponentEntry) { super.init(component: component, inputs: 1, outputs: 1) }

    override func isElementCountWritable(_ scope: AudioUnitScope) -> Bool { scope == kAudioUnitScope_Input }

    override func renderBus(_ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, _ timeStamp: UnsafePointer<AudioTimeStamp>,
                            _ bus: UInt32, _ frames: UInt32, _ output: UnsafeMutablePointer<AudioBufferList>) -> OSStatus {
        let out = UnsafeMutableAudioBufferListPointer(output)
        for b in 0..<out.count { memset(out[b].mData, 0, Int(out[b].mDataByteSize)) }
        for i in 0..<inputs.count {
            let (status, pulled) = inputs[i].pull(flags: flags, timeStamp: timeStamp, bus: UInt32(i), frames: frames)
            guard status == noErr else { return status }
            let inp = UnsafeMutableAudioBufferListPointer(pulled)
            for b in 0..<out.count {
                let s = inp[b].mData!.assumingMemoryBound(to: Float32.self)
                let d = out[b].mData!.assumingMemoryBound(to: Float32.self)
                for n in 0..<Int(frames) { d[n] += s[n] }
            }
        }
        return noErr
    }
}
