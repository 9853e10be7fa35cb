import AudioToolbox
import Testing

@Suite struct AudioComponentTests {
    @Test func findsGenericOutputByExactDescription() throws {
        var d = TestSupport.genericOutput
        let component = try #require(AudioComponentFindNext(nil, &d))
        var found = AudioComponentDescription()
        #expect(AudioComponentGetDescription(component, &found) == noErr)
        #expect(found.componentType == kAudioUnitType_Output)
        #expect(found.componentSubType == 0x67656E72)  // 'genr'
        #expect(found.componentManufacturer == 0x6170706C)  // 'appl'
        var name: Unmanaged<CFString>?
        #expect(AudioComponentCopyName(component, &name) == noErr)
        #expect(name?.takeRetainedValue() as String? == "Apple: AUGenericOutput")
        var version: UInt32 = 0
        #expect(AudioComponentGetVersion(component, &version) == noErr)
        #expect(version == 0x0001_0000)
    }

    @Test func wildcardSubtypeFindsEveryOutputUnitInStableOrder() throws {
        var d = AudioComponentDescription(componentType: kAudioUnitType_Output, componentSubType: 0,
                                          componentManufacturer: 0, componentFlags: 0, componentFlagsMask: 0)
        var seen: [AudioComponent] = []
        var c = AudioComponentFindNext(nil, &d)
        while let current = c {
            seen.append(current)
            c = AudioComponentFindNext(current, &d)
        }
        #expect(!seen.isEmpty)
        #expect(UInt32(seen.count) == AudioComponentCount(&d))
        // The same search gives the same order.
        var again: [AudioComponent] = []
        c = AudioComponentFindNext(nil, &d)
        while let current = c { again.append(current); c = AudioComponentFindNext(current, &d) }
        #expect(again == seen)
        for component in seen {
            var found = AudioComponentDescription()
            AudioComponentGetDescription(component, &found)
            #expect(found.componentType == kAudioUnitType_Output)
        }
    }

    @Test func nonMatchingDescriptionsFindNothing() {
        var d = AudioComponentDescription(componentType: 0x7A7A7A7A, componentSubType: 0, componentManufacturer: 0,
                                          componentFlags: 0, componentFlagsMask: 0)
        #expect(AudioComponentFindNext(nil, &d) == nil)
        #expect(AudioComponentCount(&d) == 0)
        // Flags are compared under the mask: AUGenericOutput is not flagged Unsearchable.
        var masked = TestSupport.genericOutput
        masked.componentFlags = AudioComponentFlags.unsearchable.rawValue
        masked.componentFlagsMask = AudioComponentFlags.unsearchable.rawValue
        #expect(AudioComponentFindNext(nil, &masked) == nil)
        masked.componentFlags = 0
        #expect(AudioComponentFindNext(nil, &masked) != nil)
    }

    @Test func instanceLifecycle() throws {
        let unit = try TestSupport.newUnit()
        var d = TestSupport.genericOutput
        #expect(AudioComponentInstanceGetComponent(unit) == AudioComponentFindNext(nil, &d))
        #expect(AudioComponentInstanceCanDo(unit, Int16(kAudioOutputUnitStartSelect)))
        #expect(AudioComponentInstanceDispose(unit) == noErr)
        // A disposed handle is refused, not dereferenced.
        #expect(AudioComponentInstanceDispose(unit) == badComponentInstance)
        #expect(AudioUnitInitialize(unit) == badComponentInstance)
    }
}
