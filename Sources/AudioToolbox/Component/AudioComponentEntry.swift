import Synchronization

/// One registered audio component: what `AudioComponent` handles point at. Entries live for the
/// life of the process (handles stay valid), as Apple's do.
final class AudioComponentEntry: @unchecked Sendable {
    /// How instances are made: a built-in Swift unit, or a v2 plug-in factory registered by a client.
    enum Maker {
        case builtIn((AudioComponentEntry) -> AudioUnitObject)
        case plugIn(AudioComponentFactoryFunction)
        /// A codec ('adec'/'aenc'): found and described like any component; its instances are driven by
        /// the AudioCodec calls, and AudioConverterNewSpecific takes its class description.
        case codec
        /// An audio file component ('afil', subtype the file type): its instances are driven by the
        /// AudioFileComponent calls.
        case audioFile
    }

    let description: AudioComponentDescription
    let name: String
    let version: UInt32
    let maker: Maker

    init(description: AudioComponentDescription, name: String, version: UInt32, maker: Maker) {
        self.description = description
        self.name = name
        self.version = version
        self.maker = maker
    }

    /// The opaque handle (the entry's address; entries are never freed).
    var handle: AudioComponent {
        OpaquePointer(Unmanaged.passUnretained(self).toOpaque())
    }

    /// Apple's matching rule: zero type, subtype or manufacturer fields are wildcards; flags are
    /// compared under the caller's mask.
    func matches(_ d: AudioComponentDescription) -> Bool {
        let own = description
        if d.componentType != 0 && d.componentType != own.componentType { return false }
        if d.componentSubType != 0 && d.componentSubType != own.componentSubType { return false }
        if d.componentManufacturer != 0 && d.componentManufacturer != own.componentManufacturer { return false }
        return own.componentFlags & d.componentFlagsMask == d.componentFlags & d.componentFlagsMask
    }
}
