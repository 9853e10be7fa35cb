// afrecord: records the default input device into an audio file, on the public API only: an AUHAL with
// input enabled (element 1) whose input callback renders bus 1 and Stores it in a CARingBuffer; the main
// thread drains the ring into ExtAudioFile (so the device's thread never touches the file) and prints a
// level meter. File type and data format take afconvert's -f/-d syntax.
//   afrecord [option...] output_file
import AudioToolbox
import Foundation
import Synchronization
import ToolSupport

func fail(_ text: String) -> Never {
    warn("afrecord: " + text)
    exit(1)
}

let usage = """
    Usage:
    afrecord [option...] output_file

    Options:
      { -f | --file } file_format
        the file type, a four-char code (WAVE, AIFF, AIFC, caff); default: from the file's extension
      { -d | --data } data_format[@sample_rate]
        the data format as afconvert's, e.g. LEI16, LEI24@48000, LEF32; default LEI16 (BEI16 for AIFF)
        at the device's rate
      { -c | --channels } N
        channels to record (default: the device's, at most 2)
      { -t | --time } SECONDS
        stop after SECONDS (default: until interrupted with Ctrl-C)
      { -q | --quiet }
        no level meter
      { -h | --help }
        print help
    """

var outputPath: String?
var fileType: AudioFileTypeID?
var dataFormat: DataFormatSpec?
var channelsOption: UInt32?
var seconds: Double?
var quiet = false

do {
    var args = CommandLine.arguments.dropFirst()[...]
    func value(_ option: String) -> String {
        guard let v = args.popFirst() else { fail("option \(option) needs a value (afrecord -h for help)") }
        return v
    }
    while let arg = args.popFirst() {
        switch arg {
        case "-h", "--help": print(usage); exit(0)
        case "-f", "--file":
            let v = value(arg).trimmingCharacters(in: CharacterSet(charactersIn: "'"))
            guard let code = fourCharCode(v), writableTypes().contains(code) else {
                fail("invalid file type \"\(v)\": use one of " + writableTypes().map(quoted).joined(separator: ", "))
            }
            fileType = code
        case "-d", "--data": dataFormat = parseDataFormat(value(arg), fail: fail)
        case "-c", "--channels":
            let v = value(arg)
            guard let n = UInt32(v), (1...2).contains(n) else { fail("invalid channel count \"\(v)\": 1 or 2") }
            channelsOption = n
        case "-t", "--time":
            let v = value(arg)
            guard let t = Double(v), t > 0 else { fail("invalid time \"\(v)\"") }
            seconds = t
        case "-q", "--quiet": quiet = true
        default:
            if arg.hasPrefix("-") { fail("unknown option \(arg) (afrecord -h for help)") }
            if outputPath != nil { fail("give one output file (got \"\(arg)\" too)") }
            outputPath = arg
        }
    }
}
guard let outputPath else { warn(usage); exit(1) }

func check(_ status: OSStatus, _ what: String) {
    if status != noErr { fail("\(what): \(describe(status))") }
}

// MARK: The input unit

var description = AudioComponentDescription(componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_HALOutput,
                                            componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
guard let component = AudioComponentFindNext(nil, &description) else { fail("no AUHAL unit") }
var unitRef: AudioUnit?
check(AudioComponentInstanceNew(component, &unitRef), "can't open the input unit")
let unit = unitRef!
var on: UInt32 = 1, off: UInt32 = 0
check(AudioUnitSetProperty(unit, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 1, &on, 4), "can't enable input")
check(AudioUnitSetProperty(unit, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Output, 0, &off, 4), "can't disable output")
var address = AudioObjectPropertyAddress(mSelector: kAudioHardwarePropertyDefaultInputDevice, mScope: kAudioObjectPropertyScopeGlobal,
                                         mElement: kAudioObjectPropertyElementMain)
var device = AudioDeviceID(0)
var size: UInt32 = 4
check(AudioObjectGetPropertyData(AudioObjectID(kAudioObjectSystemObject), &address, 0, nil, &size, &device), "no default input device")
guard device != 0 else { fail("no input device") }
check(AudioUnitSetProperty(unit, kAudioOutputUnitProperty_CurrentDevice, kAudioUnitScope_Global, 0, &device, 4), "can't use the input device")
var deviceFormat = AudioStreamBasicDescription()
size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
check(AudioUnitGetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 1, &deviceFormat, &size), "can't read the input format")
let channels = channelsOption ?? min(deviceFormat.mChannelsPerFrame, 2)
let rate = dataFormat?.sampleRate ?? deviceFormat.mSampleRate
var clientFormat = OCAFormat.canonical(sampleRate: rate, channels: channels)
let formatSize = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
check(AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 1, &clientFormat, formatSize),
      "the input can't deliver \(describe(clientFormat).trimmingCharacters(in: .whitespaces))")

/// The input callback's side: render bus 1 into its own memory and Store it at its sample time.
final class Recorder: @unchecked Sendable {
    let unit: AudioUnit
    let ring = CARingBuffer()
    let list: UnsafeMutableAudioBufferListPointer
    let memory: UnsafeMutablePointer<Float>
    let channels: Int
    let newest = Atomic<Int64>(0)
    let errors = Atomic<Int>(0)
    static let maxFrames = 4096

    init(unit: AudioUnit, channels: Int, rate: Double) {
        self.unit = unit
        self.channels = channels
        list = AudioBufferList.allocate(maximumBuffers: channels)
        memory = .allocate(capacity: Self.maxFrames * channels)
        ring.Allocate(Int32(channels), 4, UInt32(rate * 4))
    }

    static let input: AURenderCallback = { refCon, flags, timeStamp, _, frames, _ in
        let r = Unmanaged<Recorder>.fromOpaque(refCon).takeUnretainedValue()
        let n = min(Int(frames), Recorder.maxFrames)
        for c in 0..<r.channels {
            r.list[c] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(n * 4), mData: UnsafeMutableRawPointer(r.memory + c * Recorder.maxFrames))
        }
        let status = AudioUnitRender(r.unit, flags, timeStamp, 1, UInt32(n), r.list.unsafeMutablePointer)
        guard status == noErr else { r.errors.add(1, ordering: .relaxed); return status }
        let time = Int64(timeStamp.pointee.mSampleTime)
        _ = r.ring.Store(r.list.unsafePointer, UInt32(n), time)
        r.newest.store(time + Int64(n), ordering: .releasing)
        return noErr
    }
}

let recorder = Recorder(unit: unit, channels: Int(channels), rate: rate)
var callback = AURenderCallbackStruct(inputProc: Recorder.input, inputProcRefCon: Unmanaged.passUnretained(recorder).toOpaque())
check(AudioUnitSetProperty(unit, kAudioOutputUnitProperty_SetInputCallback, kAudioUnitScope_Global, 0, &callback,
                           UInt32(MemoryLayout<AURenderCallbackStruct>.size)), "can't set the input callback")
check(AudioUnitInitialize(unit), "can't initialize the input unit")

// MARK: The file

let type: AudioFileTypeID
if let fileType {
    type = fileType
} else {
    let ext = (outputPath as NSString).pathExtension
    guard let t = typesForExtension(ext).first(where: writableTypes().contains) else {
        fail("can't tell the file type of \(outputPath) from its extension; use -f")
    }
    type = t
}
let bigEndianDefault = type == kAudioFileAIFFType
var fileFormat: AudioStreamBasicDescription
if let dataFormat, dataFormat.formatID != kAudioFormatLinearPCM {
    // A compressed recording (`-d aac`, `-d alac`...): ExtAudioFile encodes what the writer thread hands it.
    let encodable = globalFormatIDs(kAudioFormatProperty_EncodeFormatIDs)
    guard encodable.contains(dataFormat.formatID) else {
        fail("data format \(quoted(dataFormat.formatID)) cannot be encoded: \(describe(kAudioConverterErr_FormatNotSupported)) "
             + "(encoders: \(encodable.filter { $0 != kAudioFormatLinearPCM }.map(quoted).joined(separator: " ")))")
    }
    guard !streamDescriptions(type, dataFormat.formatID).isEmpty else {
        fail("data format \(quoted(dataFormat.formatID)) is not valid for file type \(quoted(type)): "
             + "\(describe(kAudioFileUnsupportedDataFormatError)); see afconvert -hf")
    }
    fileFormat = AudioStreamBasicDescription()
    fileFormat.mSampleRate = rate
    fileFormat.mFormatID = dataFormat.formatID
    fileFormat.mChannelsPerFrame = channels
    fileFormat.mFormatFlags = dataFormat.flags
    if let frames = dataFormat.framesPerPacket { fileFormat.mFramesPerPacket = frames }
    var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
    let completed = AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 0, nil, &size, &fileFormat)
    if completed != noErr { fail("can't complete data format \(quoted(dataFormat.formatID)): \(describe(completed))") }
} else {
    let flags = dataFormat.map { $0.sameAsSource ? kAudioFormatFlagIsFloat : $0.flags } ?? (kAudioFormatFlagIsSignedInteger | (bigEndianDefault ? kAudioFormatFlagIsBigEndian : 0))
    let bits = dataFormat.map { $0.sameAsSource ? 32 : $0.bits } ?? 16
    guard flags & kAudioFormatFlagIsNonInterleaved == 0 else { fail("files hold interleaved data only") }
    guard streamDescriptions(type, kAudioFormatLinearPCM).contains(where: { entry($0, matches: flags, bits: bits) }) else {
        fail("data format \(pcmName(flags: flags, bits: bits)) is not valid for file type \(quoted(type)) (see afconvert -hf)")
    }
    fileFormat = pcmFormat(rate: rate, channels: channels, flags: flags, bits: bits)
}
// An existing file is replaced only by a finished recording (written beside it, then renamed over it).
let outputFile: OutputFile
do { outputFile = try OutputFile(target: outputPath, tool: "afrecord") } catch { fail(error.message) }
var fileRef: ExtAudioFileRef?
check(ExtAudioFileCreateWithURL(outputFile.url, type, &fileFormat, nil, outputFile.createFlags, &fileRef), "can't create \(outputPath)")
let file = fileRef!
check(ExtAudioFileSetProperty(file, kExtAudioFileProperty_ClientDataFormat, formatSize, &clientFormat), "can't write Float32 to \(outputPath)")

// MARK: Record

// Ctrl-C, SIGTERM (`timeout`), SIGHUP (a closed terminal): stop recording and finish the file.
Interruption.install()
var writeError: OSStatus = noErr

check(AudioOutputUnitStart(unit), "can't start recording")
let drainFrames = 4096
let drainList = AudioBufferList.allocate(maximumBuffers: Int(channels))
let drainMemory = UnsafeMutablePointer<Float>.allocate(capacity: drainFrames * Int(channels))
var position: Int64 = -1
var recorded: Int64 = 0
let limit = seconds.map { Int64($0 * rate) }
let tty = isatty(2) != 0
var peak: Float = 0, sumSquares = 0.0, meterFrames = 0
var lastMeter = Date()

@MainActor func drain(upTo end: Int64) {
    while position < end {
        var n = Int(min(Int64(drainFrames), end - position))
        if let limit { n = Int(min(Int64(n), limit - recorded)) }
        guard n > 0 else { return }
        for c in 0..<Int(channels) {
            drainList[c] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(n * 4), mData: UnsafeMutableRawPointer(drainMemory + c * drainFrames))
        }
        _ = recorder.ring.Fetch(drainList.unsafeMutablePointer, UInt32(n), position)
        writeError = ExtAudioFileWrite(file, UInt32(n), drainList.unsafePointer)
        if writeError != noErr { return }
        for c in 0..<Int(channels) {
            for k in 0..<n {
                let v = drainMemory[c * drainFrames + k]
                peak = max(peak, abs(v))
                sumSquares += Double(v * v)
            }
        }
        meterFrames += n * Int(channels)
        position += Int64(n)
        recorded += Int64(n)
    }
}

@MainActor func meter(final: Bool = false) {
    guard !quiet, meterFrames > 0 else { return }
    let rms = (sumSquares / Double(meterFrames)).squareRoot()
    let dB = rms > 0 ? 20 * log10(rms) : -120
    let peakDB = peak > 0 ? 20 * log10(Double(peak)) : -120
    let width = 30
    let filled = max(0, min(width, Int((dB + 60) / 60 * Double(width))))
    let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
    let text = String(format: "%7.2f s  [%@]  RMS %6.1f dB  peak %6.1f dB", Double(recorded) / rate, bar, dB, peakDB)
    FileHandle.standardError.write(Data(((tty ? "\r" : "") + text + (tty && !final ? "" : "\n")).utf8))
    peak = 0; sumSquares = 0; meterFrames = 0
}

while !Interruption.isSet && writeError == noErr {
    if let limit, recorded >= limit { break }
    let newest = recorder.newest.load(ordering: .acquiring)
    if newest > 0 {
        if position < 0 {
            var start: CARingBuffer.SampleTime = 0, end: CARingBuffer.SampleTime = 0
            _ = recorder.ring.GetTimeBounds(&start, &end)
            position = start
        }
        drain(upTo: newest)
    }
    var running: UInt32 = 0
    size = 4
    AudioUnitGetProperty(unit, kAudioOutputUnitProperty_IsRunning, kAudioUnitScope_Global, 0, &running, &size)
    if running == 0 { warn("afrecord: the input stopped (the device went away)"); break }
    if Date().timeIntervalSince(lastMeter) >= (tty ? 0.1 : 1) { meter(); lastMeter = Date() }
    Thread.sleep(forTimeInterval: 0.01)
}
AudioOutputUnitStop(unit)
if writeError == noErr { drain(upTo: recorder.newest.load(ordering: .acquiring)) }
meter(final: true)
// The file is finished whatever happened: what was recorded stays readable.
let writeText = writeError == noErr ? nil : "can't write \(outputPath) after \(recorded) frames: \(describe(writeError))"
let finished = ExtAudioFileDispose(file)
if let problem = outputFile.commit() { fail(problem) }
if let writeText { fail(writeText + " (the file holds what was recorded before)") }
check(finished, "can't finish \(outputPath)")
AudioUnitUninitialize(unit)
AudioComponentInstanceDispose(unit)
if recorder.errors.load(ordering: .relaxed) > 0 { fail("\(recorder.errors.load(ordering: .relaxed)) input slices could not be read") }
