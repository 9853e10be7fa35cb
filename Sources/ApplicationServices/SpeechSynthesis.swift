// The Speech Synthesis Manager (ApplicationServices/SpeechSynthesis.h) with Apple's Swift signatures, speaking through
// AUSpeechSynthesis: a unit's own channel (kAudioUnitProperty_SpeechChannel) plays wherever the unit's graph plays; a
// channel from NewSpeechChannel owns a speech unit feeding the default output.
//
// Threading: every call may come from any thread; a channel's text is synthesized on a thread of its own.
@_exported import AudioToolbox
@_exported import CApplicationServices
import Foundation

/// The units behind a NewSpeechChannel channel (its speech unit and the default output it plays through).
private final class StandaloneChannel: @unchecked Sendable {
    let speech: AudioUnit
    let output: AudioUnit
    init(speech: AudioUnit, output: AudioUnit) { self.speech = speech; self.output = output }
}
nonisolated(unsafe) private var standalone: [UnsafeMutableRawPointer: StandaloneChannel] = [:]
private let standaloneLock = NSLock()

private func channelObject(_ chan: SpeechChannel) -> SpeechChannelObject? {
    SpeechChannelObject.channel(UnsafeMutableRawPointer(chan))
}

/// The voices espeak-ng offers (0 without its data).
public func CountVoices(_ numVoices: UnsafeMutablePointer<Int16>) -> OSErr {
    numVoices.pointee = Int16(clamping: SpeechChannelObject.engine?.voices().count ?? 0)
    return 0
}

/// The voice at a 1-based `index` (the VoiceSpec's id is its place in the list).
public func GetIndVoice(_ index: Int16, _ voice: UnsafeMutablePointer<VoiceSpec>) -> OSErr {
    guard let count = SpeechChannelObject.engine?.voices().count else { return OSErr(noSynthFound) }
    guard index >= 1, Int(index) <= count else { return OSErr(voiceNotFound) }
    voice.pointee = VoiceSpec(creator: 0x6573_706B, id: UInt32(index - 1))  // 'espk'
    return 0
}

/// A new channel speaking on the default output, with `voice` (nil: the default voice).
public func NewSpeechChannel(_ voice: UnsafeMutablePointer<VoiceSpec>?, _ chan: UnsafeMutablePointer<SpeechChannel?>) -> OSErr {
    chan.pointee = nil
    guard SpeechChannelObject.engine != nil else { return OSErr(noSynthFound) }
    var speechDescription = AudioComponentDescription(componentType: kAudioUnitType_Generator, componentSubType: kAudioUnitSubType_SpeechSynthesis,
                                                      componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
    var outputDescription = AudioComponentDescription(componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_DefaultOutput,
                                                      componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
    var speech: AudioUnit?, output: AudioUnit?
    guard let sc = AudioComponentFindNext(nil, &speechDescription), let oc = AudioComponentFindNext(nil, &outputDescription),
          AudioComponentInstanceNew(sc, &speech) == noErr, let speech else { return OSErr(synthOpenFailed) }
    guard AudioComponentInstanceNew(oc, &output) == noErr, let output else {
        AudioComponentInstanceDispose(speech)
        return OSErr(synthOpenFailed)
    }
    if let voice {
        var spec = voice.pointee
        guard AudioUnitSetProperty(speech, kAudioUnitProperty_Voice, kAudioUnitScope_Global, 0, &spec, 8) == noErr else {
            AudioComponentInstanceDispose(speech); AudioComponentInstanceDispose(output)
            return OSErr(voiceNotFound)
        }
    }
    var connection = AudioUnitConnection(sourceAudioUnit: speech, sourceOutputNumber: 0, destInputNumber: 0)
    var handle: UnsafeMutableRawPointer?
    var size = UInt32(MemoryLayout<UnsafeMutableRawPointer?>.size)
    guard AudioUnitSetProperty(output, kAudioUnitProperty_MakeConnection, kAudioUnitScope_Input, 0, &connection,
                               UInt32(MemoryLayout<AudioUnitConnection>.size)) == noErr,
          AudioUnitInitialize(speech) == noErr, AudioUnitInitialize(output) == noErr, AudioOutputUnitStart(output) == noErr,
          AudioUnitGetProperty(speech, kAudioUnitProperty_SpeechChannel, kAudioUnitScope_Global, 0, &handle, &size) == noErr,
          let handle else {
        AudioComponentInstanceDispose(output); AudioComponentInstanceDispose(speech)
        return OSErr(synthOpenFailed)
    }
    standaloneLock.lock()
    standalone[handle] = StandaloneChannel(speech: speech, output: output)
    standaloneLock.unlock()
    chan.pointee = handle.assumingMemoryBound(to: SpeechChannelRecord.self)
    return 0
}

/// Stops and frees a channel from NewSpeechChannel (a speech unit's own channel goes with its unit).
public func DisposeSpeechChannel(_ chan: SpeechChannel) -> OSErr {
    standaloneLock.lock()
    let units = standalone.removeValue(forKey: UnsafeMutableRawPointer(chan))
    standaloneLock.unlock()
    guard let units else { return channelObject(chan) == nil ? OSErr(kAudio_ParamError) : 0 }
    channelObject(chan)?.stop()
    AudioOutputUnitStop(units.output)
    AudioComponentInstanceDispose(units.output)
    AudioComponentInstanceDispose(units.speech)
    return 0
}

/// Speaks `aString` on the channel, interrupting what it was saying. `options` are not interpreted.
public func SpeakCFString(_ chan: SpeechChannel, _ aString: CFString, _ options: CFDictionary?) -> OSErr {
    guard let channel = channelObject(chan) else { return OSErr(kAudio_ParamError) }
    return OSErr(truncatingIfNeeded: channel.speak(aString as String))
}

/// Stops speaking at once.
public func StopSpeech(_ chan: SpeechChannel) -> OSErr {
    guard let channel = channelObject(chan) else { return OSErr(kAudio_ParamError) }
    channel.stop()
    return 0
}

/// Stops at once (`whereToStop` kImmediate, 0) or, for the other places, at once too (words are not tracked yet).
public func StopSpeechAt(_ chan: SpeechChannel, _ whereToStop: Int32) -> OSErr { StopSpeech(chan) }

/// The number of channels speaking in this process.
public func SpeechBusy() -> Int16 {
    Int16(clamping: SpeechChannelObject.busyCount)
}

/// As SpeechBusy: this process is the only one here.
public func SpeechBusySystemWide() -> Int16 { SpeechBusy() }

/// Words per minute, as 16.16 fixed point.
public func SetSpeechRate(_ chan: SpeechChannel, _ rate: Fixed) -> OSErr {
    guard let channel = channelObject(chan) else { return OSErr(kAudio_ParamError) }
    channel.rate = Double(rate) / 65536
    return 0
}

/// Words per minute, as 16.16 fixed point.
public func GetSpeechRate(_ chan: SpeechChannel, _ rate: UnsafeMutablePointer<Fixed>) -> OSErr {
    guard let channel = channelObject(chan) else { return OSErr(kAudio_ParamError) }
    rate.pointee = Fixed(channel.rate * 65536)
    return 0
}

/// The pitch base on Apple's scale (semitones, 69 = 440 Hz), as 16.16 fixed point.
public func SetSpeechPitch(_ chan: SpeechChannel, _ pitch: Fixed) -> OSErr {
    guard let channel = channelObject(chan) else { return OSErr(kAudio_ParamError) }
    channel.pitchBase = Double(pitch) / 65536
    return 0
}

/// The pitch base, as 16.16 fixed point.
public func GetSpeechPitch(_ chan: SpeechChannel, _ pitch: UnsafeMutablePointer<Fixed>) -> OSErr {
    guard let channel = channelObject(chan) else { return OSErr(kAudio_ParamError) }
    pitch.pointee = Fixed(channel.pitchBase * 65536)
    return 0
}
