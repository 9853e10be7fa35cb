// AudioComponentValidate, AudioComponentValidateWithResults and AudioComponentCopyConfigurationInfo, called as a
// host on Apple's platforms calls them before offering a unit to its user.
import AudioToolbox
import Foundation
import Testing

@Suite struct ComponentValidationClientTests {
    static func component(_ type: OSType, _ subType: OSType) throws -> AudioComponent {
        var description = AudioComponentDescription(componentType: type, componentSubType: subType,
                                                    componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        return try #require(AudioComponentFindNext(nil, &description))
    }

    @Test func aBuiltInEffectPassesValidationAndTheResultIsCached() throws {
        let delay = try Self.component(kAudioUnitType_Effect, kAudioUnitSubType_Delay)
        var result = AudioComponentValidationResult.unknown
        #expect(AudioComponentValidate(delay, nil, &result) == noErr)
        #expect(result == .passed)

        final class Box: @unchecked Sendable { var result = AudioComponentValidationResult.unknown; var details: [String: Any] = [:] }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        #expect(AudioComponentValidateWithResults(delay, nil) { result, details in
            box.result = result
            box.details = details as? [String: Any] ?? [:]
            done.signal()
        } == noErr)
        #expect(done.wait(timeout: .now() + 120) == .success)
        #expect(box.result == .passed)
        #expect(box.details["WasCached"] as? Bool == true)
        let tests = try #require(box.details["Tests"] as? [[String: Any]])
        let names = tests.compactMap { $0["Name"] as? String }
        #expect(names.contains("TESTING OPEN TIMES:") && names.contains("RENDER TESTS:"))
        #expect(tests.allSatisfy { ($0["Result"] as? NSNumber)?.uint32Value == AudioComponentValidationResult.passed.rawValue })
        let output = try #require(box.details["Output"] as? [String])
        #expect(output.contains("AU VALIDATION SUCCEEDED."))

        var info: Unmanaged<CFDictionary>?
        #expect(AudioComponentCopyConfigurationInfo(delay, &info) == noErr)
        let dictionary = try #require(info?.takeRetainedValue() as? [String: Any])
        #expect((dictionary[kAudioComponentConfigurationInfo_ValidationResult] as? NSNumber)?.uint32Value == AudioComponentValidationResult.passed.rawValue)
    }

    @Test func configurationInfoDescribesTheBusesAndChannels() throws {
        let mixer = try Self.component(kAudioUnitType_Mixer, kAudioUnitSubType_MultiChannelMixer)
        var info: Unmanaged<CFDictionary>?
        #expect(AudioComponentCopyConfigurationInfo(mixer, &info) == noErr)
        let dictionary = try #require(info?.takeRetainedValue() as? [String: Any])
        #expect(dictionary[kAudioUnitConfigurationInfo_HasCustomView] as? Bool == false)
        // Apple's multichannel mixer starts with one input bus and one stereo output, and its input bus count is writable.
        let inputs = try #require(dictionary[kAudioUnitConfigurationInfo_InitialInputs] as? [Int])
        #expect(inputs.count >= 1)
        #expect(dictionary[kAudioUnitConfigurationInfo_InitialOutputs] as? [Int] == [2])
        #expect(dictionary[kAudioUnitConfigurationInfo_BusCountWritable] as? [Bool] == [false, true, false])

        let delay = try Self.component(kAudioUnitType_Effect, kAudioUnitSubType_Delay)
        #expect(AudioComponentCopyConfigurationInfo(delay, &info) == noErr)
        let effect = try #require(info?.takeRetainedValue() as? [String: Any])
        let configurations = try #require(effect[kAudioUnitConfigurationInfo_ChannelConfigurations] as? [[Int]])
        #expect(!configurations.isEmpty && configurations.allSatisfy { $0.count == 2 })
        #expect(effect[kAudioUnitConfigurationInfo_InitialInputs] as? [Int] == [2])
        #expect(effect[kAudioUnitConfigurationInfo_InitialOutputs] as? [Int] == [2])
    }

    @Test func onlyAudioUnitsCanBeValidated() throws {
        var description = AudioComponentDescription(componentType: kAudioDecoderComponentType, componentSubType: kAudioFormatAppleLossless,
                                                    componentManufacturer: 0, componentFlags: 0, componentFlagsMask: 0)
        let decoder = try #require(AudioComponentFindNext(nil, &description))
        var result = AudioComponentValidationResult.unknown
        #expect(AudioComponentValidate(decoder, nil, &result) == kAudioComponentErr_UnsupportedType)
        var info: Unmanaged<CFDictionary>?
        #expect(AudioComponentCopyConfigurationInfo(decoder, &info) == kAudioComponentErr_UnsupportedType)
    }
}
