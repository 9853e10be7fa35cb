// afplay: plays an audio file on the default output device, with Apple's /usr/bin/afplay options, on the
// public API only. By default, as Apple's afplay does, through an output audio queue (QueuePlayer). The
// graph path (`--graph`, and what -o, --eq, --reverb, --limit and rates outside 0.5...2 need):
// ExtAudioFile reads the file on a feeder thread into a CARingBuffer; the render callback of an AUGraph
// (callback -> [NewTimePitch when -r] -> [effects] -> DefaultOutput) fetches from it, so the device's thread
// never touches the file. `-o FILE` (ours) renders to a file instead, for machines without a sound device.
//   afplay [option...] audio_file
import AudioToolbox
import Foundation
import Synchronization
import ToolSupport

func fail(_ text: String) -> Never {
    warn("afplay: " + text)
    exit(1)
}

let usage = """
    Usage:
    afplay [option...] audio_file

    Options: (may appear before or after arguments)
      {-v | --volume} VOLUME
        set the volume for playback of the file (linear gain, 1 = as recorded)
      {-h | --help}
        print help
      {-t | --time} TIME
        play for TIME seconds
      {-r | --rate} RATE
        play at playback rate, pitch kept (0.03125 to 32)
      {-q | --rq} QUALITY
        set the quality used for rate-scaled playback (default is 0 - low quality, 1 - high quality)
      {-d | --debug}
        debug print output
      {-o | --output} FILE
        (ours) render into FILE instead of playing; needs no sound device. Its type comes from -f or the
        extension (.wav .aif .caf .m4a ...), its data format from --data or is 16-bit integer
      {-f | --file} FILE_TYPE
        (ours, with -o) the output file's type, a four-char code as afconvert's -f: WAVE, AIFF, caff, m4af
      --data DATA_FORMAT
        (ours, with -o) the output's data format as afconvert's -d: LEI24, F32, BEI16@48000, aac, alac, flac
        (-d is Apple's debug flag here)
      --eq BASS,MID,TREBLE
        (ours) equalize with AUNBandEQ: low shelf at 100 Hz, peak at 1 kHz, high shelf at 8 kHz, gains in dB
      --reverb ROOM
        (ours) add AUReverb2 with one of Apple's room types: smallroom mediumroom largeroom mediumhall largehall
        plate mediumchamber largechamber cathedral largeroom2 mediumhall2 mediumhall3 largehall2; mix 40% wet
      --limit
        (ours) end the chain with AUPeakLimiter, so no sample passes full scale
      --graph
        (ours) play through an AUGraph instead of an output audio queue (the default, as Apple's afplay);
        -o, --eq, --reverb, --limit and rates outside 0.5...2 take the graph path by themselves
    """

var path: String?
var volume: Float = 1
var seconds: Double?
var rate: Float?
var quality: UInt32 = 0
var debug = false
var outputPath: String?
var outputType: AudioFileTypeID?
var outputData: DataFormatSpec?
var eqGains: [Float]?
var reverbRoom: UInt32?
var limit = false
var graphPath = false
let rooms = ["smallroom", "mediumroom", "largeroom", "mediumhall", "largehall", "plate", "mediumchamber", "largechamber",
             "cathedral", "largeroom2", "mediumhall2", "mediumhall3", "largehall2"]

do {
    var args = CommandLine.arguments.dropFirst()[...]
    func value(_ option: String) -> String {
        guard let v = args.popFirst() else { fail("option \(option) needs a value (afplay -h for help)") }
        return v
    }
    func number(_ option: String, _ range: ClosedRange<Double>) -> Double {
        let text = value(option)
        guard let n = Double(text), range.contains(n) else { fail("invalid value \"\(text)\" for \(option): expected \(range.lowerBound)...\(range.upperBound)") }
        return n
    }
    while let arg = args.popFirst() {
        switch arg {
        case "-h", "--help": print(usage); exit(0)
        case "-v", "--volume": volume = Float(number(arg, 0...16))
        case "-t", "--time": seconds = number(arg, 0...1e7)
        case "-r", "--rate": rate = Float(number(arg, 1.0 / 32...32))
        case "-q", "--rq": quality = UInt32(number(arg, 0...1))
        case "-d", "--debug": debug = true
        case "-o", "--output": outputPath = value(arg)
        case "-f", "--file":
            let v = value(arg).trimmingCharacters(in: CharacterSet(charactersIn: "'"))
            guard let code = fourCharCode(v), writableTypes().contains(code) else {
                fail("invalid output file type \"\(v)\": use one of " + writableTypes().map(quoted).joined(separator: ", "))
            }
            outputType = code
        case "--data": outputData = parseDataFormat(value(arg), fail: fail)
        case "--eq":
            let text = value(arg)
            let gains = text.split(separator: ",").compactMap { Float($0) }
            guard gains.count == 3, gains.allSatisfy({ (-96...24).contains($0) }) else {
                fail("invalid value \"\(text)\" for --eq: expected BASS,MID,TREBLE in dB (-96...24)")
            }
            eqGains = gains
        case "--reverb":
            let name = value(arg).lowercased()
            guard let index = rooms.firstIndex(of: name) else { fail("unknown room \"\(name)\" for --reverb: one of \(rooms.joined(separator: " "))") }
            reverbRoom = UInt32(index)
        case "--limit": limit = true
        case "--graph": graphPath = true
        default:
            if arg.hasPrefix("-") && arg != "-" { fail("unknown option \(arg) (afplay -h for help)") }
            if path != nil { fail("give one audio file (got \"\(arg)\" too)") }
            path = arg
        }
    }
}
guard let path else { warn(usage); exit(1) }

// MARK: The queue path (the default)

let rateFitsTheQueue = rate.map { (0.5...2).contains($0) } ?? true
if !graphPath && outputPath == nil && eqGains == nil && reverbRoom == nil && !limit && rateFitsTheQueue {
    do throws(QueuePlayerError) {
        let player = try QueuePlayer(path: path)
        try player.play(volume: volume, rate: rate, highQuality: quality == 1, seconds: seconds, debug: debug)
    } catch {
        fail("\(error.what): \(describe(error.status))")
    }
    exit(0)
}
if debug { warn("afplay: playing through an AUGraph") }

func url(_ p: String) -> CFURL { CFURLCreateWithFileSystemPath(kCFAllocatorDefault, p as CFString, .cfurlposixPathStyle, false) }
func check(_ status: OSStatus, _ what: String) {
    if status != noErr { fail("\(what): \(describe(status))") }
}

// MARK: The file, read ahead into a ring buffer

var fileRef: ExtAudioFileRef?
check(ExtAudioFileOpenURL(url(path), &fileRef), "can't open \(path)")
let file = fileRef!
var fileFormat = AudioStreamBasicDescription()
var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
check(ExtAudioFileGetProperty(file, kExtAudioFileProperty_FileDataFormat, &size, &fileFormat), "can't read the format of \(path)")
var totalFrames: Int64 = 0
size = 8
check(ExtAudioFileGetProperty(file, kExtAudioFileProperty_FileLengthFrames, &size, &totalFrames), "can't read the length of \(path)")
let channels = fileFormat.mChannelsPerFrame
var clientFormat = OCAFormat.canonical(sampleRate: fileFormat.mSampleRate, channels: channels)
check(ExtAudioFileSetProperty(file, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &clientFormat),
      "can't read \(path) as Float32")
if debug {
    warn("afplay: \(path): \(describe(fileFormat).trimmingCharacters(in: .whitespaces)), \(totalFrames) frames, "
         + "\(String(format: "%.3f", Double(totalFrames) / fileFormat.mSampleRate)) s")
}

/// The reader: the feeder thread writes frames [written, ...) ahead of what the render callback consumed.
final class Player: @unchecked Sendable {
    let ring = CARingBuffer()
    let capacity: Int
    let written = Atomic<Int64>(0)
    let consumed = Atomic<Int64>(0)
    let total: Int64
    let volume: Float
    let channels: Int

    init(total: Int64, channels: Int, rate: Double, volume: Float) {
        self.total = total
        self.channels = channels
        self.volume = volume
        // Two seconds, rounded up to a power of two as Allocate does.
        var frames = 1
        while frames < Int(rate * 2) { frames <<= 1 }
        capacity = frames
        ring.Allocate(Int32(channels), 4, UInt32(capacity))
    }

    /// The reader's buffers and place in the file: used by the feeder thread when playing, by the render itself
    /// offline (never both).
    private static let chunk = 4096
    private lazy var readList = AudioBufferList.allocate(maximumBuffers: channels)
    private lazy var readMemory = UnsafeMutablePointer<Float>.allocate(capacity: Self.chunk * channels)
    private var position: Int64 = 0

    /// Reads the next chunk of the file into the ring at `position`; false at the end or on an error.
    private func readChunk(_ file: ExtAudioFileRef) -> Bool {
        for c in 0..<channels {
            readList[c] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(Self.chunk * 4), mData: UnsafeMutableRawPointer(readMemory + c * Self.chunk))
        }
        var frames = UInt32(Self.chunk)
        guard ExtAudioFileRead(file, &frames, readList.unsafeMutablePointer) == noErr, frames > 0 else { return false }
        _ = ring.Store(readList.unsafePointer, frames, position)
        position += Int64(frames)
        return true
    }

    /// Offline (-o): the render reads the file itself, on its own thread, as far as each slice needs (no feeder thread,
    /// no waiting: an offline render may do I/O, a device's may not).
    var offlineFile: ExtAudioFileRef?

    /// Reads the file into the ring up to frame `end` (the offline render's own reader).
    func fillOffline(_ file: ExtAudioFileRef, to end: Int64) {
        while position < min(end, total) {
            if !readChunk(file) { position = total; break }
        }
        written.store(position, ordering: .releasing)
    }

    /// Feeder thread: reads the file in slices while there is room, until the end.
    func feed(_ file: ExtAudioFileRef) {
        while position < total {
            if position - consumed.load(ordering: .acquiring) > Int64(capacity - Self.chunk) {
                Thread.sleep(forTimeInterval: 0.01)
                continue
            }
            if !readChunk(file) { break }
            written.store(position, ordering: .releasing)
        }
        written.store(max(position, total), ordering: .releasing)
    }

    static let render: AURenderCallback = { refCon, _, _, _, frames, ioData in
        let p = Unmanaged<Player>.fromOpaque(refCon).takeUnretainedValue()
        let start = p.consumed.load(ordering: .relaxed)
        if let file = p.offlineFile { p.fillOffline(file, to: start + Int64(frames)) }
        let list = UnsafeMutableAudioBufferListPointer(ioData!)
        _ = p.ring.Fetch(ioData!, frames, start)
        // Past the end (or not read yet: an underrun) is silence; the fetch zero-fills what it lacks.
        let valid = max(0, min(Int64(frames), p.total - start))
        for b in list {
            let samples = b.mData!.assumingMemoryBound(to: Float.self)
            for k in 0..<Int(frames) { samples[k] = k < valid ? samples[k] * p.volume : 0 }
        }
        p.consumed.store(start + Int64(frames), ordering: .releasing)
        return noErr
    }
}

/// The file handle, handed to the feeder thread (only it reads after this point).
struct UncheckedFile: @unchecked Sendable {
    let file: ExtAudioFileRef
    init(_ file: ExtAudioFileRef) { self.file = file }
}

let player = Player(total: totalFrames, channels: Int(channels), rate: fileFormat.mSampleRate, volume: volume)
if outputPath != nil {
    player.offlineFile = file
} else {
    let feedFile = UncheckedFile(file)
    let feeder = Thread { player.feed(feedFile.file) }
    feeder.start()
}

// MARK: The graph

let outputSubType = outputPath == nil ? kAudioUnitSubType_DefaultOutput : kAudioUnitSubType_GenericOutput
var graphRef: AUGraph?
check(NewAUGraph(&graphRef), "can't make a graph")
let graph = graphRef!
var outputDescription = AudioComponentDescription(componentType: kAudioUnitType_Output, componentSubType: outputSubType,
                                                  componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
var outputNode = AUNode()
check(AUGraphAddNode(graph, &outputDescription, &outputNode), "can't add the output unit")
/// The units between the render callback and the output, in signal order: [time-pitch] [EQ] [reverb] [limiter].
var chain: [(node: AUNode, subtype: OSType)] = []
@MainActor func addNode(_ type: OSType, _ subtype: OSType, _ what: String) {
    var d = AudioComponentDescription(componentType: type, componentSubType: subtype, componentManufacturer: kAudioUnitManufacturer_Apple,
                                      componentFlags: 0, componentFlagsMask: 0)
    guard AudioComponentFindNext(nil, &d) != nil else { fail("\(what), which this build lacks") }
    var node = AUNode()
    check(AUGraphAddNode(graph, &d, &node), "can't add \(what)")
    chain.append((node, subtype))
}
if rate != nil { addNode(kAudioUnitType_FormatConverter, kAudioUnitSubType_NewTimePitch, "-r needs the time-pitch unit (NewTimePitch)") }
if eqGains != nil { addNode(kAudioUnitType_Effect, kAudioUnitSubType_NBandEQ, "--eq needs AUNBandEQ") }
if reverbRoom != nil { addNode(kAudioUnitType_Effect, kAudioUnitSubType_Reverb2, "--reverb needs AUReverb2") }
if limit { addNode(kAudioUnitType_Effect, kAudioUnitSubType_PeakLimiter, "--limit needs AUPeakLimiter") }
for (i, link) in chain.enumerated() {
    let next = i + 1 < chain.count ? chain[i + 1].node : outputNode
    check(AUGraphConnectNodeInput(graph, link.node, 0, next, 0), "can't connect the chain")
}
let headNode = chain.first?.node ?? outputNode
check(AUGraphOpen(graph), "can't open the graph")
var headUnit: AudioUnit?
check(AUGraphNodeInfo(graph, headNode, nil, &headUnit), "can't reach the first unit")
var outputUnit: AudioUnit?
check(AUGraphNodeInfo(graph, outputNode, nil, &outputUnit), "can't reach the output unit")
let formatSize = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
check(AudioUnitSetProperty(headUnit!, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &clientFormat, formatSize),
      "the output can't take \(describe(clientFormat).trimmingCharacters(in: .whitespaces))")
var unitsBySubtype: [OSType: AudioUnit] = [:]
for link in chain {
    var unit: AudioUnit?
    check(AUGraphNodeInfo(graph, link.node, nil, &unit), "can't reach a unit of the chain")
    unitsBySubtype[link.subtype] = unit!
    check(AudioUnitSetProperty(unit!, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &clientFormat, formatSize), "chain format")
    check(AudioUnitSetProperty(unit!, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &clientFormat, formatSize), "chain format")
}
if let timePitch = unitsBySubtype[kAudioUnitSubType_NewTimePitch] {
    var q: UInt32 = quality == 1 ? UInt32(kRenderQuality_Max) : UInt32(kRenderQuality_Medium)
    _ = AudioUnitSetProperty(timePitch, kAudioUnitProperty_RenderQuality, kAudioUnitScope_Global, 0, &q, 4)
}
if let eq = unitsBySubtype[kAudioUnitSubType_NBandEQ] {
    var bands: UInt32 = 3
    check(AudioUnitSetProperty(eq, kAUNBandEQProperty_NumberOfBands, kAudioUnitScope_Global, 0, &bands, 4), "EQ bands")
}
if outputPath != nil {
    check(AudioUnitSetProperty(outputUnit!, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &clientFormat, formatSize), "output format")
    check(AudioUnitSetProperty(outputUnit!, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &clientFormat, formatSize), "output format")
}
var callback = AURenderCallbackStruct(inputProc: Player.render, inputProcRefCon: Unmanaged.passUnretained(player).toOpaque())
check(AUGraphSetNodeInputCallback(graph, headNode, 0, &callback), "can't set the render callback")
check(AUGraphInitialize(graph), "can't initialize the graph")
if let rate, let timePitch = unitsBySubtype[kAudioUnitSubType_NewTimePitch] {
    check(AudioUnitSetParameter(timePitch, kNewTimePitchParam_Rate, kAudioUnitScope_Global, 0, rate, 0), "can't set the rate")
}
if let eqGains, let eq = unitsBySubtype[kAudioUnitSubType_NBandEQ] {
    let types = [kAUNBandEQFilterType_LowShelf, kAUNBandEQFilterType_Parametric, kAUNBandEQFilterType_HighShelf]
    let frequencies: [Float] = [100, 1000, 8000]
    for b in 0..<3 {
        let n = UInt32(b)
        check(AudioUnitSetParameter(eq, kAUNBandEQParam_BypassBand + n, kAudioUnitScope_Global, 0, 0, 0), "EQ")
        check(AudioUnitSetParameter(eq, kAUNBandEQParam_FilterType + n, kAudioUnitScope_Global, 0, Float(types[b]), 0), "EQ")
        check(AudioUnitSetParameter(eq, kAUNBandEQParam_Frequency + n, kAudioUnitScope_Global, 0, frequencies[b], 0), "EQ")
        check(AudioUnitSetParameter(eq, kAUNBandEQParam_Gain + n, kAudioUnitScope_Global, 0, eqGains[b], 0), "EQ")
        check(AudioUnitSetParameter(eq, kAUNBandEQParam_Bandwidth + n, kAudioUnitScope_Global, 0, 1, 0), "EQ")
    }
}
if var reverbRoom, let reverb = unitsBySubtype[kAudioUnitSubType_Reverb2] {
    check(AudioUnitSetProperty(reverb, kAudioUnitProperty_ReverbRoomType, kAudioUnitScope_Global, 0, &reverbRoom, 4), "room type")
    check(AudioUnitSetParameter(reverb, kReverb2Param_DryWetMix, kAudioUnitScope_Global, 0, 40, 0), "reverb mix")
}

let playbackRate = Double(rate ?? 1)
let playFrames = Int64((Double(totalFrames) / playbackRate).rounded(.up))
let limitFrames = seconds.map { Int64($0 * fileFormat.mSampleRate) } ?? playFrames
let framesToPlay = min(playFrames, limitFrames)

if let outputPath {
    // MARK: Render offline into a file
    let ext = (outputPath as NSString).pathExtension
    guard let type = outputType ?? typesForExtension(ext).first(where: writableTypes().contains) else {
        fail("can't tell the file type of \(outputPath) from its extension (.wav, .aif, .caf, .m4a); give -f")
    }
    var fileDataFormat = pcmFormat(rate: fileFormat.mSampleRate, channels: channels,
                                   flags: kAudioFormatFlagIsSignedInteger | (type == kAudioFileAIFFType ? kAudioFormatFlagIsBigEndian : 0), bits: 16)
    if let spec = outputData {
        let rate = spec.sampleRate ?? fileFormat.mSampleRate
        if spec.sameAsSource {
            fileDataFormat = fileFormat
        } else if spec.formatID == kAudioFormatLinearPCM {
            guard spec.flags & kAudioFormatFlagIsNonInterleaved == 0 else { fail("--data \(spec.text): files hold interleaved data only") }
            fileDataFormat = pcmFormat(rate: rate, channels: channels, flags: spec.flags, bits: spec.bits)
        } else {
            // A codec's format: Audio Format Services fills in what the codec fixes (frames per packet, ...).
            var f = AudioStreamBasicDescription()
            f.mFormatID = spec.formatID
            f.mSampleRate = rate
            f.mChannelsPerFrame = channels
            f.mFormatFlags = spec.flags
            if let frames = spec.framesPerPacket { f.mFramesPerPacket = frames }
            var size = formatSize
            check(AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 0, nil, &size, &f), "can't complete data format \(quoted(spec.formatID))")
            fileDataFormat = f
        }
    } else if type == kAudioFileM4AType || type == kAudioFileMPEG4Type || type == kAudioFileAAC_ADTSType {
        // These containers hold no linear PCM: AAC, as afconvert writes them by default.
        var f = AudioStreamBasicDescription()
        f.mFormatID = kAudioFormatMPEG4AAC
        f.mSampleRate = fileFormat.mSampleRate
        f.mChannelsPerFrame = channels
        var size = formatSize
        check(AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 0, nil, &size, &f), "can't complete the AAC format")
        fileDataFormat = f
    }
    // Never over the input; an existing file is replaced only by a finished render.
    let outputFile: OutputFile
    do { outputFile = try OutputFile(target: outputPath, tool: "afplay", inputs: [path]) } catch { fail(error.message) }
    var outRef: ExtAudioFileRef?
    let created = ExtAudioFileCreateWithURL(outputFile.url, type, &fileDataFormat, nil, outputFile.createFlags, &outRef)
    if created != noErr {
        outputFile.discard()
        fail("can't create \(outputPath) (\(quoted(type)), \(describe(fileDataFormat).trimmingCharacters(in: .whitespaces))): \(describe(created))")
    }
    func abandon(_ text: String) -> Never {
        ExtAudioFileDispose(outRef!)
        outputFile.discard()
        fail(text)
    }
    Interruption.install()
    check(ExtAudioFileSetProperty(outRef!, kExtAudioFileProperty_ClientDataFormat, formatSize, &clientFormat), "can't write Float32")
    let slice = 1024
    let list = AudioBufferList.allocate(maximumBuffers: Int(channels))
    let memory = UnsafeMutablePointer<Float>.allocate(capacity: slice * Int(channels))
    var time = AudioTimeStamp()
    time.mFlags = .sampleTimeValid
    var done: Int64 = 0
    while done < framesToPlay && !Interruption.isSet {
        let n = Int(min(Int64(slice), framesToPlay - done))
        for c in 0..<Int(channels) {
            list[c] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(n * 4), mData: UnsafeMutableRawPointer(memory + c * slice))
        }
        var flags = AudioUnitRenderActionFlags()
        let rendered = AudioUnitRender(outputUnit!, &flags, &time, 0, UInt32(n), list.unsafeMutablePointer)
        if rendered != noErr { abandon("render: \(describe(rendered))") }
        let wrote = ExtAudioFileWrite(outRef!, UInt32(n), list.unsafePointer)
        if wrote != noErr { abandon("can't write \(outputPath): \(describe(wrote))") }
        time.mSampleTime += Double(n)
        done += Int64(n)
    }
    let finished = ExtAudioFileDispose(outRef!)
    if finished != noErr {
        let text = "can't finish \(outputPath): \(describe(finished))"
        outputFile.discard()
        fail(text)
    }
    if Interruption.isSet {
        if let kept = outputFile.keepPartial() { warn("afplay: interrupted; \(kept) holds the first \(done) frames") }
        exit(Interruption.exitStatus)
    }
    if let problem = outputFile.commit() { fail(problem) }
    if debug { warn("afplay: rendered \(done) frames to \(outputPath)") }
} else {
    // MARK: Play on the device
    check(AUGraphStart(graph), "can't start the output")
    let start = Date()
    // Until the file (scaled by the rate) has been consumed, or -t, then the device's latency.
    while true {
        let played = Double(player.consumed.load(ordering: .acquiring)) / playbackRate
        if Int64(played) >= framesToPlay { break }
        if let seconds, Date().timeIntervalSince(start) >= seconds { break }
        var running: DarwinBoolean = false
        AUGraphIsRunning(graph, &running)
        if !running.boolValue { fail("the output stopped (the device went away)") }
        Thread.sleep(forTimeInterval: 0.02)
    }
    if seconds == nil { Thread.sleep(forTimeInterval: 0.15) }
    check(AUGraphStop(graph), "can't stop the output")
    if debug { warn("afplay: played \(String(format: "%.3f", Date().timeIntervalSince(start))) s") }
}
DisposeAUGraph(graph)
ExtAudioFileDispose(file)
