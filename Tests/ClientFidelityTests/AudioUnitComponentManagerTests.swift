// A host listing the audio units it can offer, as macOS hosts do with AVAudioUnitComponentManager: by description,
// by a test block (stopping early), by a predicate, then instantiating one it found.
import AVFoundation
import AudioToolbox
import Foundation
import Testing

@Suite struct AudioUnitComponentManagerTests {
    @Test func findsDescribesAndInstantiatesUnits() async throws {
        let manager = AVAudioUnitComponentManager.shared()
        let delayDescription = AudioComponentDescription(componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_Delay,
                                                         componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0,
                                                         componentFlagsMask: 0)
        let delays = manager.components(matching: delayDescription)
        try #require(delays.count == 1)
        let delay = delays[0]
        var cfName: Unmanaged<CFString>?
        #expect(AudioComponentCopyName(delay.audioComponent, &cfName) == noErr)
        let full = cfName!.takeRetainedValue() as String
        #expect(full == "\(delay.manufacturerName): \(delay.name)")
        #expect(delay.manufacturerName == AVAudioUnitManufacturerNameApple)
        #expect(delay.typeName == AVAudioUnitTypeEffect && delay.localizedTypeName == AVAudioUnitTypeEffect)
        #expect(delay.audioComponentDescription.componentSubType == kAudioUnitSubType_Delay)
        #expect(!delay.hasMIDIInput && !delay.hasMIDIOutput)
        var version: UInt32 = 0
        #expect(AudioComponentGetVersion(delay.audioComponent, &version) == noErr && delay.version == Int(version))
        #expect(delay.supportsNumberInputChannels(2, outputChannels: 2))

        // Every effect, through a test block; every instrument, through a predicate.
        let effects = manager.components(passingTest: { component, _ in component.typeName == AVAudioUnitTypeEffect })
        #expect(effects.count >= 10 && effects.contains { $0.audioComponentDescription.componentSubType == kAudioUnitSubType_Reverb2 })
        let instruments = manager.components(matching: NSPredicate { object, _ in (object as? AVAudioUnitComponent)?.hasMIDIInput ?? false })
        #expect(instruments.contains { $0.typeName == AVAudioUnitTypeMusicDevice })
        // A wildcard description lists every unit; the block stops the search when it says so.
        let all = manager.components(matching: AudioComponentDescription())
        #expect(all.count > effects.count + instruments.count)
        var seen = 0
        let firstThree = manager.components(passingTest: { _, stop in
            seen += 1
            if seen == 3 { stop.pointee = true }
            return true
        })
        #expect(seen == 3 && firstThree.count == 3)

        // What was found is what the engine instantiates.
        let unit = try await AVAudioUnit.instantiate(with: delay.audioComponentDescription, options: [])
        #expect(unit.name == delay.name)
        #expect(unit is AVAudioUnitEffect)
    }
}
