// midiplay (ours): plays a Standard MIDI File through a MusicPlayer and a General MIDI synthesizer (DLSSynth on a
// SoundFont bank) to the default output, or renders it to an audio file. Uses only the public API: MusicSequence,
// MusicPlayer, AUGraph, the MusicDevice units, ExtAudioFile.
//   midiplay [-b bank.sf2] [-o out.wav] [-r rate] [-t seconds] file.mid
import AudioToolbox
import Foundation
import ToolSupport

func usage() -> String {
    """
    Usage:
    midiplay [option...] midi_file

    Options:
        {-b --bank} FILE      SoundFont bank (default: Debian's default-GM.sf2)
        {-o --output} FILE    render to an audio file (WAVE, AIFF or CAF by extension; 16-bit, 44.1 kHz stereo)
        {-r --rate} RATE      play rate (1 is the file's tempo)
        {-t --time} SECONDS   play at most this long
        {-h --help}           print help
    """
}

func fail(_ message: String) -> Never {
    warn("midiplay: \(message)")
    exit(1)
}

func check(_ status: OSStatus, _ what: String) {
    if status != noErr { fail("\(what) failed: \(describe(status))") }
}

var bank: String?
var output: String?
var rate = 1.0
var limit: Double?
var input: String?
var args = Array(CommandLine.arguments.dropFirst())
while !args.isEmpty {
    let a = args.removeFirst()
    func value() -> String {
        guard !args.isEmpty else { fail("\(a) needs a value") }
        return args.removeFirst()
    }
    switch a {
    case "-h", "--help": print(usage()); exit(0)
    case "-b", "--bank": bank = value()
    case "-o", "--output": output = value()
    case "-r", "--rate":
        guard let r = Double(value()), r > 0 else { fail("the rate must be a number above 0") }
        rate = r
    case "-t", "--time":
        guard let t = Double(value()), t > 0 else { fail("the time must be a number of seconds above 0") }
        limit = t
    default:
        if a.hasPrefix("-") { warn(usage()); fail("unknown option: \(a)") }
        input = a
    }
}
guard let input else { warn(usage()); exit(1) }

// The sequence.
var sequence: MusicSequence?
check(NewMusicSequence(&sequence), "NewMusicSequence")
check(MusicSequenceFileLoad(sequence!, URL(fileURLWithPath: input) as CFURL, .anyType, []), "reading \(input)")
var length: MusicTimeStamp = 0
var trackCount: UInt32 = 0
MusicSequenceGetTrackCount(sequence!, &trackCount)
for i in 0..<trackCount {
    var track: MusicTrack?
    MusicSequenceGetIndTrack(sequence!, i, &track)
    var trackLength: MusicTimeStamp = 0
    var size = UInt32(MemoryLayout<MusicTimeStamp>.size)
    MusicTrackGetProperty(track!, kSequenceTrackProperty_TrackLength, &trackLength, &size)
    length = max(length, trackLength)
}
var seconds: Float64 = 0
MusicSequenceGetSecondsForBeats(sequence!, length, &seconds)
seconds = seconds / rate + 2  // the last notes' release
if let limit { seconds = min(seconds, limit) }

// The graph: a General MIDI synthesizer into the default output, or into a generic output pulled here.
var graph: AUGraph?
check(NewAUGraph(&graph), "NewAUGraph")
var synthDescription = AudioComponentDescription(componentType: kAudioUnitType_MusicDevice, componentSubType: kAudioUnitSubType_DLSSynth,
                                                 componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
var outputDescription = AudioComponentDescription(componentType: kAudioUnitType_Output,
                                                  componentSubType: output == nil ? kAudioUnitSubType_DefaultOutput : kAudioUnitSubType_GenericOutput,
                                                  componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
var synthNode = AUNode(), outputNode = AUNode()
check(AUGraphAddNode(graph!, &synthDescription, &synthNode), "adding the synthesizer")
check(AUGraphAddNode(graph!, &outputDescription, &outputNode), "adding the output")
check(AUGraphOpen(graph!), "AUGraphOpen")
check(AUGraphConnectNodeInput(graph!, synthNode, 0, outputNode, 0), "connecting")
var synth: AudioUnit?, outputUnit: AudioUnit?
AUGraphNodeInfo(graph!, synthNode, nil, &synth)
AUGraphNodeInfo(graph!, outputNode, nil, &outputUnit)
if let bank {
    var url: Unmanaged<CFURL>? = Unmanaged.passRetained(URL(fileURLWithPath: bank) as CFURL)
    check(AudioUnitSetProperty(synth!, kMusicDeviceProperty_SoundBankURL, kAudioUnitScope_Global, 0, &url,
                               UInt32(MemoryLayout<CFURL?>.size)), "loading \(bank)")
    url?.release()
}
let format = OCAFormat.canonical(sampleRate: 44100, channels: 2)
if output != nil {
    var f = format
    AudioUnitSetProperty(synth!, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &f, UInt32(MemoryLayout<AudioStreamBasicDescription>.size))
    AudioUnitSetProperty(outputUnit!, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &f, UInt32(MemoryLayout<AudioStreamBasicDescription>.size))
    AudioUnitSetProperty(outputUnit!, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &f, UInt32(MemoryLayout<AudioStreamBasicDescription>.size))
}
check(AUGraphInitialize(graph!), "AUGraphInitialize (is a General MIDI bank installed? try -b)")
check(MusicSequenceSetAUGraph(sequence!, graph!), "MusicSequenceSetAUGraph")

var player: MusicPlayer?
check(NewMusicPlayer(&player), "NewMusicPlayer")
check(MusicPlayerSetSequence(player!, sequence!), "MusicPlayerSetSequence")
check(MusicPlayerSetPlayRateScalar(player!, rate), "MusicPlayerSetPlayRateScalar")
check(MusicPlayerPreroll(player!), "MusicPlayerPreroll")

if let output {
    // Offline: pull the generic output, whose pre-render notification the player schedules from.
    let out: OutputFile
    do { out = try OutputFile(target: output, tool: "midiplay", inputs: [input]) } catch { fail(error.message) }
    let ext = (output as NSString).pathExtension.lowercased()
    let fileType: AudioFileTypeID = ext == "aif" || ext == "aiff" ? kAudioFileAIFFType : ext == "caf" ? kAudioFileCAFType : kAudioFileWAVEType
    let bigEndian = fileType == kAudioFileAIFFType
    var fileFormat = AudioStreamBasicDescription(mSampleRate: 44100, mFormatID: kAudioFormatLinearPCM,
                                                 mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked
                                                     | (bigEndian ? kAudioFormatFlagIsBigEndian : 0),
                                                 mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4, mChannelsPerFrame: 2,
                                                 mBitsPerChannel: 16, mReserved: 0)
    var file: ExtAudioFileRef?
    check(ExtAudioFileCreateWithURL(URL(fileURLWithPath: out.writePath) as CFURL, fileType, &fileFormat, nil,
                                    AudioFileFlags.eraseFile.rawValue, &file), "creating \(output)")
    var client = format
    check(ExtAudioFileSetProperty(file!, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &client),
          "the file's client format")
    check(AudioOutputUnitStart(outputUnit!), "starting the output")
    check(MusicPlayerStart(player!), "MusicPlayerStart")
    let slice = 512
    let left = UnsafeMutablePointer<Float>.allocate(capacity: slice), right = UnsafeMutablePointer<Float>.allocate(capacity: slice)
    let list = AudioBufferList.allocate(maximumBuffers: 2)
    var time = AudioTimeStamp()
    time.mFlags = .sampleTimeValid
    var done = 0
    let total = Int(seconds * 44100)
    while done < total {
        let frames = min(slice, total - done)
        list[0] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(frames * 4), mData: left)
        list[1] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(frames * 4), mData: right)
        var flags = AudioUnitRenderActionFlags()
        check(AudioUnitRender(outputUnit!, &flags, &time, 0, UInt32(frames), list.unsafeMutablePointer), "rendering")
        check(ExtAudioFileWrite(file!, UInt32(frames), list.unsafeMutablePointer), "writing \(output)")
        time.mSampleTime += Double(frames)
        done += frames
    }
    MusicPlayerStop(player!)
    check(ExtAudioFileDispose(file!), "closing \(output)")
    if let message = out.commit() { fail(message) }
    print(String(format: "%@: %.2f s rendered to %@", input, seconds, output))
} else {
    check(AUGraphStart(graph!), "AUGraphStart")
    check(MusicPlayerStart(player!), "MusicPlayerStart")
    Thread.sleep(forTimeInterval: seconds)
    MusicPlayerStop(player!)
    AUGraphStop(graph!)
}
DisposeMusicPlayer(player!)
DisposeAUGraph(graph!)
DisposeMusicSequence(sequence!)
