import AudioToolbox
import CoreAudio
import Foundation
import Testing

/// What the route-change listener saw (a C function pointer cannot capture).
nonisolated(unsafe) private var routeChanges: [Int] = []

/// Audio Session Services' C API as "Learning Core Audio" chapter 10 calls it: initialize once, categories and
/// modes checked and stored, Apple's error codes, the route-change listener on a category change, and hardware
/// values that are the HAL's default devices (read here through AudioObjectGetPropertyData).
@Suite(.serialized) struct AudioSessionCAPITests {
    func get<T>(_ id: Int, _ type: T.Type, zero: T) -> (T, OSStatus) {
        var value = zero
        var size = UInt32(MemoryLayout<T>.size)
        let status = AudioSessionGetProperty(AudioSessionPropertyID(id), &size, &value)
        return (value, status)
    }

    func set<T>(_ id: Int, _ value: T) -> OSStatus {
        var v = value
        return AudioSessionSetProperty(AudioSessionPropertyID(id), UInt32(MemoryLayout<T>.size), &v)
    }

    /// The HAL's default device in one direction, or nil.
    func halDefault(input: Bool) -> AudioObjectID? {
        var address = AudioObjectPropertyAddress(
            mSelector: input ? kAudioHardwarePropertyDefaultInputDevice : kAudioHardwarePropertyDefaultOutputDevice,
            mScope: kAudioObjectPropertyScopeGlobal, mElement: kAudioObjectPropertyElementMain)
        var id = AudioObjectID(0)
        var size = UInt32(4)
        guard AudioObjectGetPropertyData(AudioObjectID(kAudioObjectSystemObject), &address, 0, nil, &size, &id) == noErr,
              id != kAudioObjectUnknown else { return nil }
        return id
    }

    @Test func chapterTenSessionCalls() throws {
        // Before AudioSessionInitialize every call answers '!ini'.
        #expect(get(kAudioSessionProperty_AudioCategory, UInt32.self, zero: 0).1 == OSStatus(kAudioSessionNotInitialized))
        #expect(AudioSessionInitialize(nil, nil, nil, nil) == noErr)
        #expect(AudioSessionInitialize(nil, nil, nil, nil) == OSStatus(kAudioSessionAlreadyInitialized))

        // The default category, then the book's.
        #expect(get(kAudioSessionProperty_AudioCategory, UInt32.self, zero: 0) == (UInt32(kAudioSessionCategory_SoloAmbientSound), noErr))
        var size: UInt32 = 0
        #expect(AudioSessionGetPropertySize(AudioSessionPropertyID(kAudioSessionProperty_AudioCategory), &size) == noErr && size == 4)
        let listener: AudioSessionPropertyListener = { _, id, size, data in
            guard id == AudioSessionPropertyID(kAudioSessionProperty_AudioRouteChange), size == UInt32(MemoryLayout<UnsafeRawPointer>.size),
                  let data else { return }
            let info = Unmanaged<NSDictionary>.fromOpaque(data).takeUnretainedValue()
            routeChanges.append((info[kAudioSession_AudioRouteChangeKey_Reason] as? NSNumber)?.intValue ?? -1)
        }
        #expect(AudioSessionAddPropertyListener(AudioSessionPropertyID(kAudioSessionProperty_AudioRouteChange), listener, nil) == noErr)
        #expect(set(kAudioSessionProperty_AudioCategory, UInt32(kAudioSessionCategory_PlayAndRecord)) == noErr)
        #expect(get(kAudioSessionProperty_AudioCategory, UInt32.self, zero: 0) == (UInt32(kAudioSessionCategory_PlayAndRecord), noErr))
        #expect(routeChanges == [kAudioSessionRouteChangeReason_CategoryChange])
        // The same category again is no change; after removal the listener hears nothing.
        #expect(set(kAudioSessionProperty_AudioCategory, UInt32(kAudioSessionCategory_PlayAndRecord)) == noErr)
        #expect(AudioSessionRemovePropertyListenerWithUserData(AudioSessionPropertyID(kAudioSessionProperty_AudioRouteChange), listener, nil) == noErr)
        #expect(set(kAudioSessionProperty_AudioCategory, UInt32(kAudioSessionCategory_MediaPlayback)) == noErr)
        #expect(routeChanges.count == 1)

        // Apple's error codes.
        #expect(set(kAudioSessionProperty_AudioCategory, UInt16(1)) == OSStatus(kAudioSessionBadPropertySizeError))
        #expect(set(kAudioSessionProperty_AudioCategory, UInt32(0x7878_7878)) == kAudio_ParamError)
        #expect(set(kAudioSessionProperty_CurrentHardwareSampleRate, Float64(48000)) == OSStatus(kAudioSessionUnsupportedPropertyError))
        #expect(get(kAudioSessionProperty_InputSources, UInt32.self, zero: 0).1 == OSStatus(kAudioSessionUnsupportedPropertyError))
        var small: UInt16 = 0
        var smallSize = UInt32(2)
        #expect(AudioSessionGetProperty(AudioSessionPropertyID(kAudioSessionProperty_AudioCategory), &smallSize, &small)
                == OSStatus(kAudioSessionBadPropertySizeError))

        // Mode, preferences and overrides read back as set.
        #expect(set(kAudioSessionProperty_Mode, UInt32(kAudioSessionMode_Measurement)) == noErr)
        #expect(get(kAudioSessionProperty_Mode, UInt32.self, zero: 0) == (UInt32(kAudioSessionMode_Measurement), noErr))
        #expect(set(kAudioSessionProperty_PreferredHardwareIOBufferDuration, Float32(0.005)) == noErr)
        #expect(get(kAudioSessionProperty_PreferredHardwareIOBufferDuration, Float32.self, zero: 0) == (0.005, noErr))
        #expect(set(kAudioSessionProperty_PreferredHardwareSampleRate, Float64(-1)) == kAudio_ParamError)
        #expect(set(kAudioSessionProperty_OverrideCategoryMixWithOthers, UInt32(1)) == noErr)
        #expect(get(kAudioSessionProperty_OverrideCategoryMixWithOthers, UInt32.self, zero: 0) == (1, noErr))

        // Hardware values are the HAL's default devices (none without a sound server: then 'nohw' for the rate).
        let output = halDefault(input: false), input = halDefault(input: true)
        #expect(get(kAudioSessionProperty_AudioInputAvailable, UInt32.self, zero: 9) == (input == nil ? 0 : 1, noErr))
        let (rate, rateStatus) = get(kAudioSessionProperty_CurrentHardwareSampleRate, Float64.self, zero: 0)
        if let output {
            var address = AudioObjectPropertyAddress(mSelector: kAudioDevicePropertyNominalSampleRate, mScope: kAudioObjectPropertyScopeGlobal,
                                                     mElement: kAudioObjectPropertyElementMain)
            var nominal = 0.0
            var size8 = UInt32(8)
            #expect(AudioObjectGetPropertyData(output, &address, 0, nil, &size8, &nominal) == noErr)
            #expect(rateStatus == noErr && rate == nominal)
        } else if input == nil {
            #expect(rateStatus == OSStatus(kAudioServicesNoHardwareError))
        }
        // Activation would apply the preferences to the default devices, which other suites in this process may be
        // using; deactivating a session that was never active changes nothing.
        #expect(AudioSessionSetActive(false) == noErr)
    }
}
