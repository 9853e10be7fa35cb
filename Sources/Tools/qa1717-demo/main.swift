// qa1717-demo: Technical Q&A QA1717's graph rendered offline to a WAV file. A render callback gives a spoken-pitch
// test tone (a 220 Hz harmonic tone pulsing like syllables, 16-bit interleaved stereo at 22050 Hz) to an
// AUConverter, then an AUMultiChannelMixer, then AUiPodTime at the rate given, then GenericOutput (in place of
// RemoteIO), pulled with AudioUnitRender and written with ExtAudioFile. With --input the callback reads an audio file
// instead (through ExtAudioFile, in the same client format), all of it.
//   qa1717-demo [--input FILE] [--dot graph.dot|graph.png] [rate] [input-seconds] [out.wav]      (defaults: 1.5, 4, qa1717.wav)
// --dot (an OpenCoreAudio extension) also writes the graph as Graphviz DOT (OCAGraphDOT), or as a PNG drawn by
// Graphviz's `dot` command when the name ends in .png.
import AudioToolbox

let clientRate = 22050.0, outputRate = 44100.0

/// The file --input names, read in the client format (nil: the tone).
nonisolated(unsafe) var inputFile: ExtAudioFileRef?

/// Frame n of the client's audio: the input file's, silence after its end; or harmonics 1...4 of 220 Hz,
/// amplitude-modulated at 4 Hz.
let toneCallback: AURenderCallback = { _, _, timeStamp, _, frames, ioData in
    if let inputFile {
        // An offline render: reading the file here is allowed (a device's render thread would use a ring instead).
        let list = UnsafeMutableAudioBufferListPointer(ioData!)
        var n = frames
        if ExtAudioFileRead(inputFile, &n, ioData!) != noErr { n = 0 }
        let p = list[0].mData!.assumingMemoryBound(to: Int16.self)
        (p + 2 * Int(n)).update(repeating: 0, count: 2 * Int(frames - n))
        list[0].mDataByteSize = frames * 4
        return noErr
    }
    let p = UnsafeMutableAudioBufferListPointer(ioData!)[0].mData!.assumingMemoryBound(to: Int16.self)
    for i in 0..<Int(frames) {
        let t = (timeStamp.pointee.mSampleTime + Double(i)) / clientRate
        var s = 0.0
        for h in 1...4 { s += sin(2 * Double.pi * 220 * Double(h) * t) / Double(h) }
        let x = Int16((0.25 * s * (0.6 + 0.4 * sin(2 * Double.pi * 4 * t)) * 32767).rounded())
        p[2 * i] = x
        p[2 * i + 1] = x
    }
    return noErr
}

func check(_ status: OSStatus, _ what: String) {
    guard status == noErr else {
        FileHandle.standardError.write("qa1717-demo: \(what) failed: \(status)\n".data(using: .utf8)!)
        exit(1)
    }
}

func description(_ type: OSType, _ subType: OSType) -> AudioComponentDescription {
    AudioComponentDescription(componentType: type, componentSubType: subType, componentManufacturer: kAudioUnitManufacturer_Apple,
                              componentFlags: 0, componentFlagsMask: 0)
}

/// Writes DOT text to `path`, or, for a .png name, the picture Graphviz's `dot` (found on PATH) draws of it.
func writeGraphPicture(_ dot: String, to path: String) {
    guard path.lowercased().hasSuffix(".png") else {
        do { try dot.write(toFile: path, atomically: true, encoding: .utf8) } catch { check(-1, "writing \(path)") }
        return
    }
    let searchPath = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    guard let tool = searchPath.split(separator: ":").map({ "\($0)/dot" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
        FileHandle.standardError.write("qa1717-demo: a .png needs Graphviz's dot command (package graphviz); name a .dot file instead\n".data(using: .utf8)!)
        exit(1)
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = ["-Tpng", "-o", path]
    let input = Pipe()
    process.standardInput = input
    do { try process.run() } catch { check(-1, "running \(tool)") }
    input.fileHandleForWriting.write(dot.data(using: .utf8)!)
    try? input.fileHandleForWriting.close()
    process.waitUntilExit()
    check(process.terminationStatus == 0 ? noErr : -1, "dot -Tpng")
}

func setFormat(_ unit: AudioUnit, _ scope: AudioUnitScope, _ format: AudioStreamBasicDescription, _ what: String) {
    var f = format
    check(AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, scope, 0, &f, UInt32(MemoryLayout<AudioStreamBasicDescription>.size)), what)
}

var args = Array(CommandLine.arguments.dropFirst())
var inputSeconds = 4.0
var dotPath: String?
if let i = args.firstIndex(of: "--dot") {
    guard i + 1 < args.count else {
        FileHandle.standardError.write("qa1717-demo: --dot needs a file name (graph.dot or graph.png)\n".data(using: .utf8)!)
        exit(1)
    }
    dotPath = args[i + 1]
    args.removeSubrange(i...(i + 1))
}
if let i = args.firstIndex(of: "--input"), i + 1 < args.count {
    var file: ExtAudioFileRef?
    check(ExtAudioFileOpenURL(URL(fileURLWithPath: args[i + 1]) as CFURL, &file), "ExtAudioFileOpenURL \(args[i + 1])")
    var fileFormat = AudioStreamBasicDescription(), frames: Int64 = 0
    var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
    check(ExtAudioFileGetProperty(file!, kExtAudioFileProperty_FileDataFormat, &size, &fileFormat), "file format")
    size = 8
    check(ExtAudioFileGetProperty(file!, kExtAudioFileProperty_FileLengthFrames, &size, &frames), "file length")
    var client = OCAFormat.linearPCM(sampleRate: clientRate, channels: 2, bitsPerChannel: 16, isFloat: false, interleaved: true)
    check(ExtAudioFileSetProperty(file!, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &client),
          "client format")
    inputFile = file
    inputSeconds = Double(frames) / fileFormat.mSampleRate
    args.removeSubrange(i...(i + 1))
}
let rate = args.count > 0 ? Float(args[0]) ?? 1.5 : 1.5
if args.count > 1, inputFile == nil { inputSeconds = Double(args[1]) ?? 4 }
let path = args.count > 2 ? args[2] : "qa1717.wav"

// Listing 1: the graph.
var graph: AUGraph?
check(NewAUGraph(&graph), "NewAUGraph")
var outputDesc = description(kAudioUnitType_Output, kAudioUnitSubType_GenericOutput)
var iPodTimeDesc = description(kAudioUnitType_FormatConverter, kAudioUnitSubType_AUiPodTime)
var mixerDesc = description(kAudioUnitType_Mixer, kAudioUnitSubType_MultiChannelMixer)
var converterDesc = description(kAudioUnitType_FormatConverter, kAudioUnitSubType_AUConverter)
var outputNode = AUNode(), iPodTimeNode = AUNode(), mixerNode = AUNode(), converterNode = AUNode()
check(AUGraphAddNode(graph!, &outputDesc, &outputNode), "AUGraphAddNode output")
check(AUGraphAddNode(graph!, &iPodTimeDesc, &iPodTimeNode), "AUGraphAddNode iPodTime")
check(AUGraphAddNode(graph!, &mixerDesc, &mixerNode), "AUGraphAddNode mixer")
check(AUGraphAddNode(graph!, &converterDesc, &converterNode), "AUGraphAddNode converter")
check(AUGraphConnectNodeInput(graph!, converterNode, 0, mixerNode, 0), "connect converter -> mixer")
check(AUGraphConnectNodeInput(graph!, mixerNode, 0, iPodTimeNode, 0), "connect mixer -> iPodTime")
check(AUGraphConnectNodeInput(graph!, iPodTimeNode, 0, outputNode, 0), "connect iPodTime -> output")
check(AUGraphOpen(graph!), "AUGraphOpen")
var converter: AudioUnit?, mixer: AudioUnit?, iPodTime: AudioUnit?, output: AudioUnit?
AUGraphNodeInfo(graph!, converterNode, nil, &converter)
AUGraphNodeInfo(graph!, mixerNode, nil, &mixer)
AUGraphNodeInfo(graph!, iPodTimeNode, nil, &iPodTime)
AUGraphNodeInfo(graph!, outputNode, nil, &output)
var buses: UInt32 = 1
check(AudioUnitSetProperty(mixer!, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, &buses, 4), "set bus count")
var callback = AURenderCallbackStruct(inputProc: toneCallback, inputProcRefCon: nil)
check(AUGraphSetNodeInputCallback(graph!, converterNode, 0, &callback), "AUGraphSetNodeInputCallback")
let clientFormat = OCAFormat.linearPCM(sampleRate: clientRate, channels: 2, bitsPerChannel: 16, isFloat: false, interleaved: true)
let outputFormat = OCAFormat.canonical(sampleRate: outputRate, channels: 2)
setFormat(converter!, kAudioUnitScope_Input, clientFormat, "converter input format")
setFormat(converter!, kAudioUnitScope_Output, outputFormat, "converter output format")
setFormat(mixer!, kAudioUnitScope_Output, outputFormat, "mixer output format")
setFormat(iPodTime!, kAudioUnitScope_Output, outputFormat, "iPodTime output format")
check(AUGraphInitialize(graph!), "AUGraphInitialize")
CAShow(UnsafeMutableRawPointer(graph!))
if let dotPath { writeGraphPicture(OCAGraphDOT(graph!), to: dotPath) }

// Listing 2: the rate (rounded by the unit).
check(AudioUnitSetParameter(iPodTime!, kTimePitchParam_Rate, kAudioUnitScope_Global, 0, rate, 0), "set rate")
var played: Float = 0
AudioUnitGetParameter(iPodTime!, kTimePitchParam_Rate, kAudioUnitScope_Global, 0, &played)

// The file: 16-bit WAVE at 44100 Hz, written from the canonical format.
var fileFormat = OCAFormat.linearPCM(sampleRate: outputRate, channels: 2, bitsPerChannel: 16, isFloat: false, interleaved: true)
var file: ExtAudioFileRef?
check(ExtAudioFileCreateWithURL(URL(fileURLWithPath: path) as CFURL, kAudioFileWAVEType, &fileFormat, nil,
                                AudioFileFlags.eraseFile.rawValue, &file), "ExtAudioFileCreateWithURL")
var clientFileFormat = outputFormat
check(ExtAudioFileSetProperty(file!, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size),
                              &clientFileFormat), "set client format")

let slice: UInt32 = 512
let total = Int((inputSeconds * outputRate / Double(played)).rounded())
let abl = AudioBufferList.allocate(maximumBuffers: 2)
var timeStamp = AudioTimeStamp()
timeStamp.mFlags = .sampleTimeValid
var done = 0
while done < total {
    let frames = UInt32(min(Int(slice), total - done))
    for b in 0..<2 { abl[b] = AudioBuffer(mNumberChannels: 1, mDataByteSize: frames * 4, mData: nil) }
    var flags = AudioUnitRenderActionFlags()
    check(AudioUnitRender(output!, &flags, &timeStamp, 0, frames, abl.unsafeMutablePointer), "AudioUnitRender")
    check(ExtAudioFileWrite(file!, frames, abl.unsafeMutablePointer), "ExtAudioFileWrite")
    timeStamp.mSampleTime += Double(frames)
    done += Int(frames)
}
check(ExtAudioFileDispose(file!), "ExtAudioFileDispose")
if let inputFile { ExtAudioFileDispose(inputFile) }
free(abl.unsafeMutablePointer)
DisposeAUGraph(graph!)
print(String(format: "rate %.5g (asked %.5g): %.3f s of input played in %.3f s, written to %@", played, rate, inputSeconds,
             Double(total) / outputRate, path))
