import Synchronization

/// AUSpeechSynthesis (`'augn' 'ttsp' 'appl'`): a generator that speaks what its speech channel is given. A client
/// gets the channel with kAudioUnitProperty_SpeechChannel (3331) and speaks through the Speech Synthesis Manager's
/// calls (`import ApplicationServices`: SpeakCFString, StopSpeech, ...), as the book's chapter 7 does; the speech
/// (espeak-ng, on the channel's own thread) comes out of the unit's output in its format, mono speech on every
/// channel. kAudioUnitProperty_Voice (3330) takes a VoiceSpec (its id is the index into the voice list). With
/// kAudioUnitProperty_OfflineRender set, a render waits for the synthesis instead of playing silence.
final class AUSpeechSynthesis: AUBase, @unchecked Sendable {
    static let subtype: OSType = 0x7474_7370  // 'ttsp' (kAudioUnitSubType_SpeechSynthesis, in ApplicationServices)
    static let speechChannelProperty: AudioUnitPropertyID = 3331
    static let voiceProperty: AudioUnitPropertyID = 3330
    static let description = AudioComponentDescription(
        componentType: kAudioUnitType_Generator, componentSubType: AUSpeechSynthesis.subtype,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    private var channel: SpeechChannelObject
    private let offline = Atomic<Bool>(false)
    private var voiceSpec: (creator: OSType, id: OSType) = (0x6573_706B, 0)  // 'espk', voice 0 = the default

    init(component: AudioComponentEntry) {
        channel = SpeechChannelObject(outputRate: AUBase.defaultFormat.mSampleRate)
        super.init(component: component, inputs: 0, outputs: 1)
    }

    deinit { channel.invalidate() }

    override func streamFormatChanged(_ scope: AudioUnitScope, _ element: AudioUnitElement) {
        // The channel resamples to the output rate: a new rate is a new channel (same handle lifetime rules).
        let rate = outputs[0].format.mSampleRate
        let old = channel
        channel = SpeechChannelObject(outputRate: rate)
        channel.rate = old.rate
        channel.pitchBase = old.pitchBase
        channel.volume = old.volume
        channel.voice = old.voice
        old.invalidate()
    }

    override func renderBus(_ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, _ timeStamp: UnsafePointer<AudioTimeStamp>,
                            _ bus: UInt32, _ frames: UInt32, _ output: UnsafeMutablePointer<AudioBufferList>) -> OSStatus {
        let spoke = channel.render(into: UnsafeMutableAudioBufferListPointer(output), frames: Int(frames),
                                   wait: offline.load(ordering: .relaxed))
        if !spoke { flags.pointee.insert(.unitRenderAction_OutputIsSilence) }
        return noErr
    }

    override func resetUnit(_ scope: AudioUnitScope, _ element: AudioUnitElement) { channel.stop() }

    override class var propertyRows: [AUProperty] {
        super.propertyRows + [
            .value(AUSpeechSynthesis.speechChannelProperty, UnsafeMutableRawPointer?.self, of: AUSpeechSynthesis.self,
                   place: AUProperty.global, get: { unit, _, _ in unit.channel.handle }),
            AUProperty(AUSpeechSynthesis.voiceProperty, place: AUProperty.global, writable: .always, size: { _, _, _ in 8 }, setSize: 8,
                       read: { unit, _, _, out in
                           let u = unsafeDowncast(unit, to: AUSpeechSynthesis.self)
                           out.storeBytes(of: u.voiceSpec.creator, as: OSType.self)
                           out.storeBytes(of: u.voiceSpec.id, toByteOffset: 4, as: OSType.self)
                           return noErr
                       },
                       write: { unit, _, _, data in
                           let u = unsafeDowncast(unit, to: AUSpeechSynthesis.self)
                           let id = data.loadUnaligned(fromByteOffset: 4, as: OSType.self)
                           guard let voices = SpeechChannelObject.engine?.voices(), Int(id) < max(voices.count, 1) else {
                               return kAudioUnitErr_InvalidPropertyValue
                           }
                           u.voiceSpec = (data.loadUnaligned(as: OSType.self), id)
                           u.channel.voice = id == 0 ? nil : voices[Int(id)].identifier
                           return noErr
                       }),
            .flag(kAudioUnitProperty_OfflineRender, of: AUSpeechSynthesis.self, place: AUProperty.globalScope,
                  get: { unit, _, _ in unit.offline.load(ordering: .relaxed) },
                  set: { unit, _, _, on in unit.offline.store(on, ordering: .relaxed); return noErr }),
        ]
    }
}
