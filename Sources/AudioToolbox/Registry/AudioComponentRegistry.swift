import Synchronization

/// The process-wide component registry: built-in units first (in a fixed order), then components
/// registered with `AudioComponentRegister` in registration order. It sits above the units (it lists
/// the built-in ones); live instances are tracked below it, in `AudioUnitInstances`. Never used on the
/// render thread.
final class AudioComponentRegistry: Sendable {
    static let shared = AudioComponentRegistry()

    private struct State {
        var entries: [AudioComponentEntry] = []
    }
    private let state: LockedState<State>

    private init() {
        var initial = State()
        initial.entries = BuiltInUnits.entries() + Self.codecEntries() + Self.fileTypeEntries()
        state = LockedState(initial)
    }

    /// A decoder and/or encoder component per codec, as Apple lists its own ('adec'/'aenc', subtype the
    /// format ID, manufacturer 'appl').
    static func codecEntries() -> [AudioComponentEntry] {
        var entries: [AudioComponentEntry] = []
        for id in CodecRegistry.decodeFormatIDs where id != kAudioFormatLinearPCM {
            guard let codec = CodecRegistry.entry(id) else { continue }
            entries.append(AudioComponentEntry(description: AudioComponentDescription(componentType: kAudioDecoderComponentType, componentSubType: id,
                                                                                      componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0),
                                               name: "Apple: \(codec.name) Decoder", version: 0x10000, maker: .codec))
        }
        for id in CodecRegistry.encodeFormatIDs where id != kAudioFormatLinearPCM {
            guard let codec = CodecRegistry.entry(id) else { continue }
            entries.append(AudioComponentEntry(description: AudioComponentDescription(componentType: kAudioEncoderComponentType, componentSubType: id,
                                                                                      componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0),
                                               name: "Apple: \(codec.name) Encoder", version: 0x10000, maker: .codec))
        }
        return entries
    }

    /// The component type of audio file components, 'afil' (Apple's public headers name no constant for it).
    static let audioFileComponentType: OSType = 0x6166_696C

    /// An audio file component per readable file type ('afil', subtype the file type, manufacturer 'appl').
    static func fileTypeEntries() -> [AudioComponentEntry] {
        AudioFileTypeInfo.all.map { info in
            AudioComponentEntry(description: AudioComponentDescription(componentType: Self.audioFileComponentType, componentSubType: info.type,
                                                                       componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0),
                                name: "Apple: \(info.name)", version: 0x10000, maker: .audioFile)
        }
    }

    func findNext(after component: AudioComponent?, matching d: AudioComponentDescription) -> AudioComponentEntry? {
        state.withLock { s in
            var start = 0
            if let component {
                guard let index = s.entries.firstIndex(where: { $0.handle == component }) else { return nil }
                start = index + 1
            }
            return s.entries[start...].first { $0.matches(d) }
        }
    }

    func count(matching d: AudioComponentDescription) -> Int {
        state.withLock { s in s.entries.count { $0.matches(d) } }
    }

    func entry(for component: AudioComponent) -> AudioComponentEntry? {
        state.withLock { s in s.entries.first { $0.handle == component } }
    }

    /// Adds an entry. Like Apple's, a description equal to an existing one is still registered; the
    /// newer one is found after the older in search order.
    func register(_ entry: AudioComponentEntry) {
        state.withLock { s in s.entries.append(entry) }
    }
}
