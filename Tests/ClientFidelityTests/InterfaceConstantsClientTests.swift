// Names client code takes from Apple's headers, used the way it uses them: the info-dictionary keys on a real
// file, the registration notification, and the Swift types Apple's importer gives each kind of constant.
import AudioToolbox
import Foundation
import Testing

@Suite struct InterfaceConstantsClientTests {
    @Test func infoDictionaryKeysNameWhatAFileStores() throws {
        let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("keys-\(getpid()).caf")
        defer { try? FileManager.default.removeItem(at: url) }
        var format = AudioStreamBasicDescription(mSampleRate: 44100, mFormatID: kAudioFormatLinearPCM,
                                                 mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked,
                                                 mBytesPerPacket: 2, mFramesPerPacket: 1, mBytesPerFrame: 2,
                                                 mChannelsPerFrame: 1, mBitsPerChannel: 16, mReserved: 0)
        var file: AudioFileID?
        #expect(AudioFileCreateWithURL(url as CFURL, kAudioFileCAFType, &format, .eraseFile, &file) == noErr)
        var info = [kAFInfoDictionary_Title: "Keys", kAFInfoDictionary_Artist: "Core Audio", kAFInfoDictionary_Year: "2026"] as CFDictionary
        #expect(AudioFileSetProperty(file!, kAudioFilePropertyInfoDictionary, UInt32(MemoryLayout<CFDictionary>.size), &info) == noErr)
        #expect(AudioFileClose(file!) == noErr)

        #expect(AudioFileOpenURL(url as CFURL, .readPermission, kAudioFileCAFType, &file) == noErr)
        defer { AudioFileClose(file!) }
        var read: Unmanaged<CFDictionary>?
        var size = UInt32(MemoryLayout<Unmanaged<CFDictionary>?>.size)
        #expect(AudioFileGetProperty(file!, kAudioFilePropertyInfoDictionary, &size, &read) == noErr)
        let dictionary = try #require(read?.takeRetainedValue() as? [String: Any])
        #expect(dictionary[kAFInfoDictionary_Title] as? String == "Keys")
        #expect(dictionary[kAFInfoDictionary_Artist] as? String == "Core Audio")
        #expect(dictionary[kAFInfoDictionary_Year] as? String == "2026")
        #expect(dictionary[kAFInfoDictionary_ApproximateDurationInSeconds] != nil)
    }

    @Test func registeringAComponentPostsTheRegistrationsChangedNotification() {
        let name = Notification.Name(kAudioComponentRegistrationsChangedNotification as String)
        final class Count: @unchecked Sendable { var posted = 0 }
        let count = Count()
        let observer = NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { _ in count.posted += 1 }
        defer { NotificationCenter.default.removeObserver(observer) }
        var description = AudioComponentDescription(componentType: kAudioUnitType_Effect, componentSubType: 0x6e6f7466 /* notf */,
                                                    componentManufacturer: 0x54657374 /* Test */, componentFlags: 0, componentFlagsMask: 0)
        let factory: AudioComponentFactoryFunction = { _ in nil }
        let component = AudioComponentRegister(&description, "Test: notified" as CFString, 1, factory)
        // Other tests may register components at the same time: at least this registration was posted.
        #expect(count.posted >= 1)
        #expect(AudioComponentFindNext(nil, &description) == component)
    }

    @Test func constantsHaveTheSwiftTypesApplesImporterGives() {
        // String #defines import as String, anonymous enums without a type as Int, typed ones as their type.
        let keys: [String] = [kAFInfoDictionary_Album, kAFInfoDictionary_TrackNumber, kAudioSettings_TopLevelKey,
                              kAudioComponentConfigurationInfo_ValidationResult, kAudioUnitConfigurationInfo_HasCustomView]
        #expect(keys == ["album", "track number", "name", "ValidationResult", "HasCustomView"])
        let count: Int = kNumberOfResponseFrequencies
        let flag: Int = kAudioUnitParameterFlag_Global
        #expect(count == 1024 && flag == 1 && kSpeakerConfiguration_5_1 == 3 && kOfflinePreflight_Required == 2)
        let codecProperty: AudioCodecPropertyID = kAudioCodecPropertyNameCFString
        let unitProperty: AudioUnitPropertyID = kAUSamplerProperty_LoadPresetFromBank
        let parameter: AudioUnitParameterID = kMultibandFilter_HighGain
        #expect(codecProperty == 0x6c6e_616d && unitProperty == 4100 && parameter == 14)
        let result: AudioComponentValidationResult = .passed
        let mode: AUSpatialMixerPersonalizedHRTFMode = .auto
        let ducking: AUVoiceIOOtherAudioDuckingLevel = .max
        #expect(result.rawValue == 1 && mode.rawValue == 2 && ducking.rawValue == 30)
        let flags: AudioSettingsFlags = [.expertParameter, .userInterfaceParameter]
        #expect(flags.rawValue == 9)
        let tag: AudioChannelLayoutTag = kAudioChannelLayoutTag_Atmos_7_1_4
        let label: AudioChannelLabel = kAudioChannelLabel_LeftTopRear
        #expect(tag == (192 << 16 | 12) && label == 52 && kAudioChannelLabel_HOA_ACN_15 == (2 << 16 | 15))
    }
}
