@testable import AudioToolbox

/// A gain effect built on the engine's AUEffectBase, registered as a component: out = in × gain,
/// with gain read per frame from the scheduled-parameter automation curve.
final class TestGainUnit: AUEffectBase, @unchecked Sendable {
    static let gainID: AudioUnitParameterID = 0
    static let description = AudioComponentDescription(
        componentType: kAudioUnitType_Effect, componentSubType: 0x6761696E /* 'gain' */,
        componentManufacturer: 0x4F434174 /* 'OCAt' */, componentFlags: 0, componentFlagsMask: 0)
    static let registered: Void = {
        AudioComponentRegistry.shared.register(AudioComponentEntry(
            description: description, name: "OCA Tests: Gain", version: 1, maker: .builtIn { TestGainUnit(component: $0) }))
    }()

    override init(component: AudioComponentEntry) {
        super.init(component: component)
        defineParameter(Self.gainID, scope: kAudioUnitScope_Global, element: 0,
                        .oca("Gain", unit: .linearGain, min: 0, max: 4, default: 1, flags: [.flag_CanRamp]))
    }

    override func applyEffect(input: UnsafeMutableAudioBufferListPointer, output: UnsafeMutableAudioBufferListPointer,
                          frames: Int, flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>) -> OSStatus {
        let curve = parameterCurve(Self.gainID, kAudioUnitScope_Global, 0)
        let constant = parameterValue(Self.gainID, kAudioUnitScope_Global, 0)
        for b in 0..<output.count {
            let src = input[b].mData!.assumingMemoryBound(to: Float32.self)
            let dst = output[b].mData!.assumingMemoryBound(to: Float32.self)
            if let curve {
                for n in 0..<frames { dst[n] = src[n] * curve[n] }
            } else {
                for n in 0..<frames { dst[n] = src[n] * constant }
            }
        }
        return noErr
    }
}
