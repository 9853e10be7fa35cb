// afconvert: converts audio files between file types and linear PCM data formats (sample rate,
// channel count, sample type, endianness), with Apple's /usr/bin/afconvert syntax. Uses only the
// public AudioToolbox API: ExtAudioFile for reading, converting and writing, AudioConverter
// properties for the sample-rate converter, and AudioFileGetGlobalInfo for the file types.
//   afconvert [option...] input_file [output_file]
//   afconvert input_file -o output_file [option...]
import AudioToolbox
import ToolSupport

// MARK: Output helpers

func fail(_ text: String) -> Never {
    warn("afconvert: " + text)
    exit(1)
}

/// `afconvert -hf`: each writable file type, its extensions and its data formats, in the layout
/// "Learning Core Audio" shows.
func printFormats() {
    for type in writableTypes() {
        let exts = extensions(type).map { "." + $0 }.joined(separator: ", ")
        print("\(quoted(type)) = \(typeName(type))" + (exts.isEmpty ? "" : " (\(exts))"))
        var items: [String] = []
        for id in formatIDs(type) {
            if id == kAudioFormatLinearPCM {
                items += streamDescriptions(type, id).map { pcmName(flags: $0.mFormatFlags, bits: $0.mBitsPerChannel) }
            } else {
                items.append(quoted(id))
            }
        }
        var lines: [String] = []
        var line = ""
        for item in items {
            line += (line.isEmpty ? "" : " ") + item
            if line.count >= 40 {
                lines.append(line)
                line = ""
            }
        }
        if !line.isEmpty { lines.append(line) }
        for (i, l) in lines.enumerated() { print((i == 0 ? "    data_formats: " : String(repeating: " ", count: 16)) + l) }
    }
}

// MARK: Arguments

let usage = """
    Usage:
    afconvert [option...] input_file [output_file]
        Options may appear before or after the direct arguments. If output_file
        is not specified, a name is generated from input_file and the output
        file type, and the file is written into the same directory as input_file.
    afconvert input_file [-o output_file [option...]]...
        Output file options apply to the previous output_file; other options may
        appear anywhere before the first -o. Each -o writes one more output.

    Options:
        { -f | --file } file_format
            the output file type, a four-char code: 'WAVE', 'AIFF', 'AIFC', 'caff'
            (see -hf). Without -f it follows the output file's extension
            (.wav .aif .aiff .aifc .caf), or the input file's type.
        { -d | --data } data_format[@sample_rate][/format_flags][#frames_per_packet]
            [-][BE|LE]{F|[U]I}{8|16|24|32|64}          (linear PCM)
                e.g.   BEI16   F32@44100   LEI24@48000   UI8
            Without BE or LE the format is native-endian (little-endian here).
            A leading '-' means deinterleaved, which no file type holds.
            format_flags: hex digits, e.g. 'C' (replaces the flags of the format)
            A format of "0" keeps the source file's data format (a compressed
            source's packets are copied exactly).
            Without -d the source's data format is kept if the file type holds it,
            else the file type's format of the same kind and depth, else its
            16-bit integer format.
        { -c | --channels } number_of_channels
            add/remove channels without regard to order (see --mix)
        { -l | --channellayout } layout_tag
            a constant from CoreAudioTypes.h (the kAudioChannelLayoutTag_ prefix may be
            omitted: MPEG_5_1_A, Stereo) or a number; once: the output file's layout,
            twice: the input's, then the output's. Without -c the layout sets the count.
        --mix
            enable channel downmixing: channels are mixed by their layouts (ITU-R BS.775:
            5.1 to stereo is L + 0.707 C + 0.707 Ls; LFE is left out) instead of routed
        { -r | --src-quality } src_quality
            sample rate converter quality: 0-127 (the converter's default: 96)
        { --src-complexity } src_complexity
            sample rate converter complexity: line, norm, bats
        { -b | --bitrate } total_bit_rate_bps
            the encoder's bit rate, e.g. 128000 (AAC, Opus)
        { -s | --strategy } strategy
            the encoder's bit rate control: 0 CBR, 1 ABR, 2 VBR constrained, 3 VBR
            (with 3, -q sets the quality the encoder keeps instead of a bit rate)
        { -q | --quality } codec_quality
            codec quality 0-127 (the encoder's; FLAC: compression level 0-8 over the range;
            linear PCM has no codec)
        --soundcheck-generate
            analyze the input's loudness (ITU-R BS.1770 / EBU R 128) and add Sound Check
            data to the output file (CAF: its info chunk; MPEG-4: iTunNORM and loudness items)
        --soundcheck-read
            read Sound Check data from the input file and set it on the output file
        --read-track track_index
            for input files with several audio tracks (MPEG-4), the index (0...n-1) of the track to convert
        { -o } output_file
            the output file (instead of the second direct argument)
        { -v | --verbose }
            print the formats and the progress of the conversion
        { -h | --help }
            print this help
        { -hf | --help-formats }
            print the writable file types and their data formats
    """

var inputPath: String?
var outputPath: String?
var fileTypeOption: AudioFileTypeID?
var dataFormat: DataFormatSpec?
var channelsOption: UInt32?
/// -l given once: the output's layout; twice: the input's, then the output's.
var layoutOptions: [AudioChannelLayoutTag] = []
var mixChannels = false
var srcQuality: UInt32?
var srcComplexity: UInt32?
var verbose = false
var codecQuality: UInt32?
var bitRate: UInt32?
var strategy: UInt32?
var soundCheckGenerate = false
var soundCheckRead = false
var readTrack: UInt32?

// Apple's second form, `afconvert input_file [-o output_file [option...]]...`: with several -o, each output (with the
// options that follow its -o, and every option before the first) is converted by a run of this tool of its own.
do {
    let all = Array(CommandLine.arguments.dropFirst())
    let starts = all.indices.filter { all[$0] == "-o" && ($0 == 0 || all[$0 - 1] != "--") }
    if starts.count > 1 {
        let common = Array(all[..<starts[0]])
        var status: Int32 = 0
        for (n, start) in starts.enumerated() {
            let end = n + 1 < starts.count ? starts[n + 1] : all.count
            let run = Process()
            run.executableURL = URL(fileURLWithPath: "/proc/self/exe")
            run.arguments = common + all[start..<end]
            do { try run.run() } catch { fail("can't run afconvert for \(all[min(start + 1, all.count - 1)]): \(error)") }
            run.waitUntilExit()
            if run.terminationStatus != 0 && status == 0 { status = run.terminationStatus }
        }
        exit(status)
    }
}

do {
    var args = CommandLine.arguments.dropFirst()[...]
    var onlyFiles = false
    func value(_ option: String) -> String {
        guard let v = args.popFirst() else { fail("option \(option) needs a value (afconvert -h for help)") }
        return v
    }
    func number(_ option: String, _ text: String, _ range: ClosedRange<UInt32>) -> UInt32 {
        guard let n = UInt32(text), range.contains(n) else {
            fail("invalid value \"\(text)\" for \(option): expected \(range.lowerBound)-\(range.upperBound)")
        }
        return n
    }
    if args.isEmpty {
        warn(usage)
        exit(1)
    }
    while let arg = args.popFirst() {
        if onlyFiles || !arg.hasPrefix("-") || arg == "-" {
            if inputPath == nil { inputPath = arg } else if outputPath == nil { outputPath = arg } else {
                fail("too many file arguments (\"\(arg)\"): give one input file and one output file")
            }
            continue
        }
        switch arg {
        case "--": onlyFiles = true
        case "-h", "--help":
            print(usage)
            exit(0)
        case "-hf", "--help-formats":
            printFormats()
            exit(0)
        case "-f", "--file":
            let v = value(arg).trimmingCharacters(in: CharacterSet(charactersIn: "'"))
            guard let code = fourCharCode(v) else { fail("invalid file type \"\(v)\": expected a four-char code such as WAVE or caff") }
            guard writableTypes().contains(code) else {
                fail("file type \(quoted(code)) is not writable; use one of " + writableTypes().map(quoted).joined(separator: ", ") + " (see -hf)")
            }
            fileTypeOption = code
        case "-d", "--data":
            dataFormat = parseDataFormat(value(arg), fail: fail)
        case "-c", "--channels":
            channelsOption = number(arg, value(arg), 1...1024)
        case "-l", "--channellayout":
            let v = value(arg)
            guard let tag = channelLayoutTag(named: v), tag & 0xFFFF > 0 || tag == kAudioChannelLayoutTag_UseChannelBitmap else {
                fail("invalid channel layout \"\(v)\": expected a layout tag name such as MPEG_5_1_A or Stereo")
            }
            guard layoutOptions.count < 2 else { fail("-l given more than twice") }
            layoutOptions.append(tag)
        case "--mix":
            mixChannels = true
        case "-r", "--src-quality":
            srcQuality = number(arg, value(arg), 0...127)
        case "--src-complexity":
            let v = value(arg)
            switch v {
            case "line": srcComplexity = kAudioConverterSampleRateConverterComplexity_Linear
            case "norm": srcComplexity = kAudioConverterSampleRateConverterComplexity_Normal
            case "bats": srcComplexity = kAudioConverterSampleRateConverterComplexity_Mastering
            default: fail("invalid sample rate converter complexity \"\(v)\": expected line, norm or bats")
            }
        case "-q", "--quality":
            codecQuality = number(arg, value(arg), 0...127)
        case "-b", "--bitrate":
            bitRate = number(arg, value(arg), 1...UInt32.max)
        case "-s", "--strategy":
            strategy = number(arg, value(arg), 0...3)
        case "--soundcheck-generate":
            soundCheckGenerate = true
        case "--soundcheck-read":
            soundCheckRead = true
        case "--read-track":
            readTrack = number(arg, value(arg), 0...UInt32.max - 1)
        case "-o":
            let v = value(arg)
            if outputPath != nil { fail("more than one output file (\"\(v)\"): give each its own -o") }
            outputPath = v
        case "-v", "--verbose":
            verbose = true
        default:
            fail("unknown option \(arg) (afconvert -h for help)")
        }
    }
}

guard let inputPath else { fail("no input file (afconvert -h for help)") }

// MARK: Input

func url(_ path: String) -> CFURL { CFURLCreateWithFileSystemPath(kCFAllocatorDefault, path as CFString, .cfurlposixPathStyle, false) }

func extProperty<T>(_ file: ExtAudioFileRef, _ id: ExtAudioFilePropertyID, _ initial: T) -> T? {
    var value = initial
    var size = UInt32(MemoryLayout<T>.size)
    let status = withUnsafeMutableBytes(of: &value) { ExtAudioFileGetProperty(file, id, &size, $0.baseAddress!) }
    return status == noErr ? value : nil
}

var inputRef: ExtAudioFileRef?
var status: OSStatus
if let readTrack {
    // --read-track: the track is chosen on the AudioFile before ExtAudioFile reads its format.
    var file: AudioFileID?
    status = AudioFileOpenURL(url(inputPath), .readPermission, 0, &file)
    guard status == noErr, let file else { fail("can't open input file \(inputPath): \(describe(status))") }
    var tracks: UInt32 = 1, size = UInt32(4)
    AudioFileGetProperty(file, kAudioFilePropertyAudioTrackCount, &size, &tracks)
    var track = readTrack
    status = track < tracks ? AudioFileSetProperty(file, kAudioFilePropertyUseAudioTrack, 4, &track) : kAudio_ParamError
    guard status == noErr else { fail("can't read track \(readTrack) of \(inputPath) (it has \(tracks)): \(describe(status))") }
    status = ExtAudioFileWrapAudioFileID(file, false, &inputRef)
} else {
    status = ExtAudioFileOpenURL(url(inputPath), &inputRef)
}
guard status == noErr, let input = inputRef else { fail("can't open input file \(inputPath): \(describe(status))") }
guard let inputFormat = extProperty(input, kExtAudioFileProperty_FileDataFormat, AudioStreamBasicDescription()) else {
    fail("can't read the data format of \(inputPath)")
}
let inputFrames = extProperty(input, kExtAudioFileProperty_FileLengthFrames, Int64(0)) ?? 0
var inputType: AudioFileTypeID = 0
if let audioFile = extProperty(input, kExtAudioFileProperty_AudioFile, AudioFileID?.none), let audioFile {
    var size = UInt32(MemoryLayout<AudioFileTypeID>.size)
    AudioFileGetProperty(audioFile, kAudioFilePropertyFileFormat, &size, &inputType)
}

// MARK: Output file and format

let outputType: AudioFileTypeID
if let fileTypeOption {
    outputType = fileTypeOption
} else if let outputPath {
    let ext = (outputPath as NSString).pathExtension
    guard !ext.isEmpty, let type = typesForExtension(ext).first(where: writableTypes().contains) else {
        fail("can't tell the file type of \(outputPath) from its extension; use -f (one of "
             + writableTypes().map(quoted).joined(separator: ", ") + ")")
    }
    outputType = type
} else {
    guard writableTypes().contains(inputType) else { fail("no output file type: use -f") }
    outputType = inputType
}

let output: String
if let outputPath {
    output = outputPath
} else {
    guard let ext = extensions(outputType).first else { fail("no output file name: give one") }
    output = ((inputPath as NSString).deletingPathExtension as NSString).appendingPathExtension(ext) ?? inputPath + "." + ext
}
// An existing output is replaced only when the conversion succeeds; the input, through any name, never.
let outputFile: OutputFile
do { outputFile = try OutputFile(target: output, tool: "afconvert", inputs: [inputPath]) } catch { fail(error.message) }

/// The layouts -l names: the output's is the last, the input's the first of two.
let outputLayoutTag = layoutOptions.last
let inputLayoutTag = layoutOptions.count == 2 ? layoutOptions[0] : nil
let outputChannels = channelsOption ?? outputLayoutTag.map { $0 & 0xFFFF } ?? inputFormat.mChannelsPerFrame
if let outputLayoutTag, outputLayoutTag & 0xFFFF != outputChannels {
    fail("channel layout \(String(format: "0x%08X", outputLayoutTag)) has \(outputLayoutTag & 0xFFFF) channels, not \(outputChannels)")
}
if let inputLayoutTag, inputLayoutTag & 0xFFFF != inputFormat.mChannelsPerFrame {
    fail("channel layout \(String(format: "0x%08X", inputLayoutTag)) has \(inputLayoutTag & 0xFFFF) channels; the input has \(inputFormat.mChannelsPerFrame)")
}
let typeEntries = streamDescriptions(outputType, kAudioFormatLinearPCM)
let typeFormatNames = typeEntries.map { pcmName(flags: $0.mFormatFlags, bits: $0.mBitsPerChannel) }.joined(separator: " ")

// A type that holds no linear PCM (m4af, adts, flac) gets its first encodable format, as Apple's afconvert
// writes AAC into an .m4a given no -d.
if dataFormat == nil, typeEntries.isEmpty,
   let id = formatIDs(outputType).first(where: globalFormatIDs(kAudioFormatProperty_EncodeFormatIDs).contains) {
    let code = String(decoding: withUnsafeBytes(of: id.bigEndian) { Array($0) }, as: UTF8.self).trimmingCharacters(in: .whitespaces)
    dataFormat = parseDataFormat(code, fail: fail)
}

// -d 0 from a compressed source: its packets copied as they are (AMR into 3GP, AAC from ADTS into M4A, ...),
// unless an option asks for the audio itself (Sound Check, channels, the encoder's settings).
if let dataFormat, dataFormat.sameAsSource, inputFormat.mFormatID != kAudioFormatLinearPCM, !soundCheckGenerate, !soundCheckRead,
   !mixChannels, channelsOption == nil, layoutOptions.isEmpty, bitRate == nil, codecQuality == nil, strategy == nil {
    guard !streamDescriptions(outputType, inputFormat.mFormatID).isEmpty else {
        fail("data format \(quoted(inputFormat.mFormatID)) is not valid for file type \(quoted(outputType)): "
             + "\(describe(kAudioFileUnsupportedDataFormatError)); see -hf")
    }
    guard let source = extProperty(input, kExtAudioFileProperty_AudioFile, AudioFileID?.none), let source else {
        fail("can't read the packets of \(inputPath)")
    }
    if let problem = copyPackets(from: source, format: inputFormat, to: outputFile.url, type: outputType, flags: outputFile.createFlags) {
        ExtAudioFileDispose(input)
        outputFile.discard()
        fail(problem)
    }
    ExtAudioFileDispose(input)
    if let problem = outputFile.commit() { fail(problem) }
    exit(0)
}

var outputFlags: AudioFormatFlags = 0
var outputBits: UInt32 = 0
var outputRate = inputFormat.mSampleRate
/// A compressed output format (`-d ima4`), completed by Audio Format Services.
var compressedOutput: AudioStreamBasicDescription?
if let dataFormat, dataFormat.formatID != kAudioFormatLinearPCM {
    if let rate = dataFormat.sampleRate { outputRate = rate }
    let encodable = globalFormatIDs(kAudioFormatProperty_EncodeFormatIDs)
    guard encodable.contains(dataFormat.formatID) else {
        fail("data format \(quoted(dataFormat.formatID)) cannot be encoded: \(describe(kAudioConverterErr_FormatNotSupported)) "
             + "(encoders: \(encodable.filter { $0 != kAudioFormatLinearPCM }.map(quoted).joined(separator: " ")))")
    }
    guard !streamDescriptions(outputType, dataFormat.formatID).isEmpty else {
        fail("data format \(quoted(dataFormat.formatID)) is not valid for file type \(quoted(outputType)): "
             + "\(describe(kAudioFileUnsupportedDataFormatError)); see -hf")
    }
    var f = AudioStreamBasicDescription()
    f.mSampleRate = outputRate
    f.mFormatID = dataFormat.formatID
    f.mChannelsPerFrame = outputChannels
    f.mFormatFlags = dataFormat.flags
    if let frames = dataFormat.framesPerPacket { f.mFramesPerPacket = frames }
    // A lossless encoder keeps the source's depth when -d names none, as Apple's afconvert does (ALAC or FLAC from a
    // 24-bit WAVE is "from 24-bit source"); FormatInfo alone would make it 16-bit and drop the low bits.
    if dataFormat.flags == 0, [kAudioFormatFLAC, kAudioFormatAppleLossless].contains(f.mFormatID) {
        if [kAudioFormatFLAC, kAudioFormatAppleLossless].contains(inputFormat.mFormatID) {
            f.mFormatFlags = inputFormat.mFormatFlags
        } else if inputFormat.mFormatID == kAudioFormatLinearPCM, inputFormat.mFormatFlags & kAudioFormatFlagIsFloat == 0 {
            switch inputFormat.mBitsPerChannel {
            case ...16: f.mFormatFlags = kAppleLosslessFormatFlag_16BitSourceData
            case 17...20: f.mFormatFlags = kAppleLosslessFormatFlag_20BitSourceData
            case 21...24: f.mFormatFlags = kAppleLosslessFormatFlag_24BitSourceData
            default: f.mFormatFlags = kAppleLosslessFormatFlag_32BitSourceData
            }
        }
    }
    var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
    let completed = AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 0, nil, &size, &f)
    if completed != noErr {
        // A format of one rate and channel count (AMR): say which, since the source's do not fit.
        var bare = AudioStreamBasicDescription()
        bare.mFormatID = dataFormat.formatID
        size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        let fixed = AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 0, nil, &size, &bare) == noErr && bare.mSampleRate > 0 && bare.mChannelsPerFrame > 0
        let hint: String
        if fixed && (bare.mSampleRate != outputRate || bare.mChannelsPerFrame != outputChannels) {
            // The suggestion names the format's code alone: the rate and channel count the user gave are the ones to change.
            let code = quoted(dataFormat.formatID).trimmingCharacters(in: CharacterSet(charactersIn: "' "))
            hint = String(format: " (it takes %.0f Hz, %u channel%@: -d %@@%.0f -c %u)", bare.mSampleRate, bare.mChannelsPerFrame,
                          bare.mChannelsPerFrame == 1 ? "" : "s", code, bare.mSampleRate, bare.mChannelsPerFrame)
        } else if let frames = dataFormat.framesPerPacket {
            hint = " (the codec does not take #\(frames) frames per packet)"
        } else {
            hint = ""
        }
        fail("can't complete data format \(quoted(dataFormat.formatID)) at \(String(format: "%.0f", outputRate)) Hz, \(outputChannels) "
             + "channel\(outputChannels == 1 ? "" : "s"): \(describe(completed))" + hint)
    }
    compressedOutput = f
} else if let dataFormat {
    if dataFormat.sameAsSource {
        outputFlags = inputFormat.mFormatFlags & (kAudioFormatFlagIsFloat | kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsBigEndian)
        outputBits = inputFormat.mBitsPerChannel
    } else {
        outputFlags = dataFormat.flags
        outputBits = dataFormat.bits
    }
    if let rate = dataFormat.sampleRate { outputRate = rate }
    if outputFlags & kAudioFormatFlagIsNonInterleaved != 0 {
        fail("data format \(dataFormat.text) is deinterleaved; files hold interleaved data only")
    }
    guard typeEntries.contains(where: { entry($0, matches: outputFlags, bits: outputBits) }) else {
        fail("data format \(pcmName(flags: outputFlags, bits: outputBits)) is not valid for file type \(quoted(outputType)) "
             + "(it holds \(typeFormatNames)); see -hf")
    }
} else {
    // Keep the source's layout if the type holds it, else the same kind and depth in the type's
    // endianness (or signedness, for 8 bits), else the type's 16-bit integer format.
    let sourceFlags = inputFormat.mFormatFlags & (kAudioFormatFlagIsFloat | kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsBigEndian)
    let bits = inputFormat.mBitsPerChannel
    let chosen = typeEntries.first { entry($0, matches: sourceFlags, bits: bits) }
        ?? typeEntries.first { entry($0, matches: sourceFlags, bits: bits, ignoringEndianness: true) }
        ?? typeEntries.first {  // 8-bit: signed for unsigned (AIFF, CAF) or unsigned for signed (WAVE)
            bits == 8 && sourceFlags & kAudioFormatFlagIsFloat == 0 && $0.mBitsPerChannel == 8 && $0.mFormatFlags & kAudioFormatFlagIsFloat == 0
        }
        ?? typeEntries.first { $0.mBitsPerChannel == 16 && $0.mFormatFlags & kAudioFormatFlagIsFloat == 0 }
    guard let chosen else { fail("file type \(quoted(outputType)) holds no linear PCM format") }
    outputFlags = chosen.mFormatFlags & (kAudioFormatFlagIsFloat | kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsBigEndian)
    outputBits = chosen.mBitsPerChannel
}
// What the files exchange: the output's PCM, or for a compressed output the samples the encoder takes
// (Float32, exact for every integer source up to 24 bits; 32-bit integers stay integers).
// --mix exchanges Float32 too, so that the input side always has a converter to mix in.
let exchangesFloat = compressedOutput != nil || mixChannels
var outputFormat = !exchangesFloat ? pcmFormat(rate: outputRate, channels: outputChannels, flags: outputFlags, bits: outputBits)
    : inputFormat.mFormatID == kAudioFormatLinearPCM && inputFormat.mFormatFlags & kAudioFormatFlagIsFloat == 0 && inputFormat.mBitsPerChannel == 32
        ? pcmFormat(rate: outputRate, channels: outputChannels, flags: kAudioFormatFlagIsSignedInteger, bits: 32)
        : pcmFormat(rate: outputRate, channels: outputChannels, flags: kAudioFormatFlagIsFloat, bits: 32)
var outputFileFormat = compressedOutput ?? pcmFormat(rate: outputRate, channels: outputChannels, flags: outputFlags, bits: outputBits)

// MARK: Convert

/// Closes the input and exits with status 1 (nothing has been written yet).
func giveUp(_ text: String) -> Never {
    ExtAudioFileDispose(input)
    fail(text)
}

// Read the input in the output file's format: ExtAudioFile converts sample type, channels and rate.
status = ExtAudioFileSetProperty(input, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &outputFormat)
if status != noErr {
    giveUp("can't convert from \(describe(inputFormat)) to \(describe(outputFormat)): \(describe(status))")
}

/// A layout of just a tag, as AudioChannelLayout bytes.
func layoutBytes(_ tag: AudioChannelLayoutTag) -> [UInt8] {
    var layout = AudioChannelLayout()
    layout.mChannelLayoutTag = tag
    return withUnsafeBytes(of: &layout) { Array($0.prefix(12)) }
}

/// The input file's own channel layout, if it has one.
func fileLayout(_ file: ExtAudioFileRef) -> [UInt8]? {
    var size: UInt32 = 0
    guard ExtAudioFileGetPropertyInfo(file, kExtAudioFileProperty_FileChannelLayout, &size, nil) == noErr, size >= 12 else { return nil }
    var layout = [UInt8](repeating: 0, count: Int(size))
    guard layout.withUnsafeMutableBytes({ ExtAudioFileGetProperty(file, kExtAudioFileProperty_FileChannelLayout, &size, $0.baseAddress!) }) == noErr else {
        return nil
    }
    return Array(layout.prefix(Int(size)))
}

/// The plain layout Core Audio gives a channel count (mono, stereo, else the first named tag with that count).
func defaultLayoutTag(_ channels: UInt32) -> AudioChannelLayoutTag {
    switch channels {
    case 1: return kAudioChannelLayoutTag_Mono
    case 2: return kAudioChannelLayoutTag_Stereo
    case 6: return kAudioChannelLayoutTag_MPEG_5_1_A
    case 8: return kAudioChannelLayoutTag_MPEG_7_1_C
    default: return kAudioChannelLayoutTag_DiscreteInOrder | channels
    }
}

let inputLayout = inputLayoutTag.map(layoutBytes) ?? fileLayout(input) ?? layoutBytes(defaultLayoutTag(inputFormat.mChannelsPerFrame))
let outputLayout = layoutBytes(outputLayoutTag ?? defaultLayoutTag(outputChannels))

// --mix: the converter mixes by the two layouts (AudioConverter's PerformDownmix, with the standard matrix).
if mixChannels {
    var matrixSize: UInt32 = 0
    let known = inputLayout.withUnsafeBytes { a in outputLayout.withUnsafeBytes { b -> Bool in
        let pointers = [UnsafeRawPointer(a.baseAddress!), UnsafeRawPointer(b.baseAddress!)]
        return pointers.withUnsafeBytes {
            AudioFormatGetPropertyInfo(kAudioFormatProperty_MatrixMixMap, UInt32($0.count), $0.baseAddress, &matrixSize)
        } == noErr
    } }
    if !known { giveUp("no standard mix between these channel layouts (give them with -l)") }
    guard let converter = extProperty(input, kExtAudioFileProperty_AudioConverter, AudioConverterRef?.none), let converter else {
        giveUp("no converter to mix channels (the input and output formats are the same)")
    }
    var status = inputLayout.withUnsafeBytes { AudioConverterSetProperty(converter, kAudioConverterInputChannelLayout, UInt32($0.count), $0.baseAddress!) }
    if status == noErr {
        status = outputLayout.withUnsafeBytes { AudioConverterSetProperty(converter, kAudioConverterOutputChannelLayout, UInt32($0.count), $0.baseAddress!) }
    }
    var on: UInt32 = 1
    if status == noErr { status = AudioConverterSetProperty(converter, kAudioConverterPropertyPerformDownmix, 4, &on) }
    if status != noErr { giveUp("can't mix the channels: \(describe(status))") }
    var config: CFPropertyList? = nil
    withUnsafeBytes(of: &config) { _ = ExtAudioFileSetProperty(input, kExtAudioFileProperty_ConverterConfig, UInt32($0.count), $0.baseAddress!) }
}

let resampling = outputFormat.mSampleRate != inputFormat.mSampleRate
if resampling && (srcQuality != nil || srcComplexity != nil) {
    guard let converter = extProperty(input, kExtAudioFileProperty_AudioConverter, AudioConverterRef?.none), let converter else {
        giveUp("no sample rate converter to configure")
    }
    if var complexity = srcComplexity {
        status = AudioConverterSetProperty(converter, kAudioConverterSampleRateConverterComplexity, 4, &complexity)
        if status != noErr { giveUp("can't set the sample rate converter complexity \(quoted(complexity)): \(describe(status))") }
    }
    if var quality = srcQuality {
        status = AudioConverterSetProperty(converter, kAudioConverterSampleRateConverterQuality, 4, &quality)
        if status != noErr { giveUp("can't set the sample rate converter quality \(quality): \(describe(status))") }
    }
    // As on Apple's platforms: a NULL configuration makes ExtAudioFile take up the converter's new settings.
    var config: CFPropertyList? = nil
    withUnsafeBytes(of: &config) {
        _ = ExtAudioFileSetProperty(input, kExtAudioFileProperty_ConverterConfig, UInt32($0.count), $0.baseAddress!)
    }
}

// In the client (output) format now: frames at the output rate.
let expectedFrames = extProperty(input, kExtAudioFileProperty_FileLengthFrames, Int64(0)) ?? 0
// WAVE and AIFF sizes are 32-bit: refuse before the work rather than fail at 4 GiB.
let expectedBytes = Double(expectedFrames) * Double(outputFormat.mBytesPerFrame)
if [kAudioFileWAVEType, kAudioFileAIFFType, kAudioFileAIFCType].contains(outputType), expectedBytes + 4096 > Double(UInt32.max) {
    fail(String(format: "the output would hold %.2f GiB of audio, more than a %@ file can (4 GiB); use ", expectedBytes / 1_073_741_824,
                quoted(outputType)) + (outputType == kAudioFileWAVEType ? "-f RF64 (WAVE with 64-bit sizes) or -f caff" : "-f caff"))
}

var outputRef: ExtAudioFileRef?
status = ExtAudioFileCreateWithURL(outputFile.url, outputType, &outputFileFormat, nil, outputFile.createFlags, &outputRef)
guard status == noErr, let outputRefValue = outputRef else {
    ExtAudioFileDispose(input)
    fail("can't create output file \(output) (\(quoted(outputType)), "
         + "\(describe(outputFileFormat).trimmingCharacters(in: .whitespaces))): \(describe(status))")
}
let outputAudio = outputRefValue
if exchangesFloat {
    // The encoder (or the file's PCM writer, after a mix) takes the samples in the exchange format.
    status = ExtAudioFileSetProperty(outputAudio, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &outputFormat)
    if status != noErr {
        ExtAudioFileDispose(outputAudio)
        ExtAudioFileDispose(input)
        outputFile.discard()
        fail("can't encode \(describe(outputFormat)) as \(describe(outputFileFormat)): \(describe(status))")
    }
}

// -s, -b and -q go to the encoder ExtAudioFile made for the client format (before any audio reaches it).
if bitRate != nil || codecQuality != nil || strategy != nil {
    guard compressedOutput != nil, let converter = extProperty(outputAudio, kExtAudioFileProperty_AudioConverter, AudioConverterRef?.none),
          let converter else {
        ExtAudioFileDispose(outputAudio)
        ExtAudioFileDispose(input)
        outputFile.discard()
        fail("-s, -b and -q set an encoder's bit rate and quality; \(describe(outputFileFormat).trimmingCharacters(in: .whitespaces)) has no encoder")
    }
    // The strategy first: a codec may reconfigure itself for the mode, then take the rate or quality.
    for (id, value, option) in [(kAudioCodecPropertyBitRateControlMode, strategy, "-s"), (kAudioConverterEncodeBitRate, bitRate, "-b"),
                                (kAudioConverterCodecQuality, codecQuality, "-q")] {
        guard var v = value else { continue }
        let set = AudioConverterSetProperty(converter, id, 4, &v)
        if set != noErr {
            ExtAudioFileDispose(outputAudio)
            ExtAudioFileDispose(input)
            outputFile.discard()
            fail("the encoder does not take \(option) \(v): \(describe(set))")
        }
    }
    _ = ExtAudioFileSetProperty(outputAudio, kExtAudioFileProperty_ConverterConfig, UInt32(MemoryLayout<UnsafeRawPointer?>.size), [UnsafeRawPointer?.none])
}

/// Disposes both files, removes what this run wrote (never a file that was there before) and exits with status 1.
@MainActor func abandon(_ text: String) -> Never {
    ExtAudioFileDispose(outputAudio)
    ExtAudioFileDispose(input)
    outputFile.discard()
    fail(text)
}

// The output's layout: -l's, else the input file's when the channels stay the same.
if let layout = outputLayoutTag.map(layoutBytes) ?? (outputChannels == inputFormat.mChannelsPerFrame ? fileLayout(input) : nil) {
    let set = layout.withUnsafeBytes { ExtAudioFileSetProperty(outputAudio, kExtAudioFileProperty_FileChannelLayout, UInt32($0.count), $0.baseAddress!) }
    if set != noErr && (verbose || outputLayoutTag != nil) { warn("(the channel layout could not be written: \(describe(set)))") }
}

// Sound Check: measured on the input (its every frame, as the listener hears the source) or read from it, and set
// on the output file's info dictionary, which CAF and MPEG-4 keep.
if soundCheckGenerate || soundCheckRead {
    var entries: [String: String] = [:]
    if soundCheckGenerate {
        do {
            let m = try SoundCheck.measure(url(inputPath))
            entries = SoundCheck.info(m)
            if verbose {
                print(String(format: "Loudness: %.2f LUFS integrated, %.2f LU range, true peak %@, Sound Check gain %.2f dB", m.integrated, m.range,
                             entries[SoundCheck.truePeakKey] ?? "", SoundCheck.referenceLoudness - m.integrated))
            }
        } catch {
            abandon("can't analyze the loudness of \(inputPath): \(describe(OSStatus((error as NSError).code)))")
        }
    } else if let source = extProperty(input, kExtAudioFileProperty_AudioFile, AudioFileID?.none), let source {
        var dictionary: Unmanaged<CFDictionary>?
        var size = UInt32(MemoryLayout<Unmanaged<CFDictionary>?>.size)
        if AudioFileGetProperty(source, kAudioFilePropertyInfoDictionary, &size, &dictionary) == noErr, let dictionary {
            let d = dictionary.takeRetainedValue() as NSDictionary
            for key in SoundCheck.keys { if let v = d[key] { entries[key] = "\(v)" } }
        }
        if entries.isEmpty { warn("afconvert: \(inputPath) has no Sound Check data to read") }
    }
    if !entries.isEmpty, let target = extProperty(outputAudio, kExtAudioFileProperty_AudioFile, AudioFileID?.none), let target {
        var dictionary = entries as NSDictionary
        let set = withUnsafeMutablePointer(to: &dictionary) { AudioFileSetProperty(target, kAudioFilePropertyInfoDictionary, UInt32(MemoryLayout<NSDictionary>.size), $0) }
        if set != noErr { warn("afconvert: (a \(quoted(outputType)) file cannot hold Sound Check data: \(describe(set)))") }
    }
}

if verbose {
    print("Input file: \(inputPath), \(inputFrames) frames")
    print("Formats:")
    print("  Input file     \(describe(inputFormat))")
    print("  Output file    \(describe(outputFileFormat))")
    if resampling {
        var quality: UInt32 = 0, complexity: UInt32 = 0
        if let converter = extProperty(input, kExtAudioFileProperty_AudioConverter, AudioConverterRef?.none), let converter {
            var size: UInt32 = 4
            AudioConverterGetProperty(converter, kAudioConverterSampleRateConverterQuality, &size, &quality)
            size = 4
            AudioConverterGetProperty(converter, kAudioConverterSampleRateConverterComplexity, &size, &complexity)
        }
        print(String(format: "Sample rate conversion: %.0f Hz -> %.0f Hz, quality %u, complexity ",
                     inputFormat.mSampleRate, outputFormat.mSampleRate, quality) + quoted(complexity))
    }
}

let chunkFrames = 8192
let bytesPerFrame = Int(outputFormat.mBytesPerFrame)
let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunkFrames * bytesPerFrame, alignment: 16)
defer { buffer.deallocate() }
// Progress on stderr for files of 5 seconds or more.
let showProgress = verbose && Double(expectedFrames) >= 5 * outputFormat.mSampleRate
let onTerminal = isatty(2) != 0
var lastPercent = -1
var written: Int64 = 0
// Ctrl-C, SIGTERM, SIGHUP: stop between chunks and finish the file (its header then covers every frame written).
Interruption.install()
while !Interruption.isSet {
    var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: outputFormat.mChannelsPerFrame,
                                                                         mDataByteSize: UInt32(chunkFrames * bytesPerFrame), mData: buffer))
    var frames = UInt32(chunkFrames)
    status = ExtAudioFileRead(input, &frames, &list)
    if status != noErr { abandon("error reading \(inputPath) after \(written) frames: \(describe(status))") }
    if frames == 0 { break }
    status = ExtAudioFileWrite(outputAudio, frames, &list)
    if status != noErr { abandon("error writing \(output) after \(written) frames: \(describe(status))") }
    written += Int64(frames)
    if showProgress && expectedFrames > 0 {
        let percent = Int(min(100, written * 100 / expectedFrames))
        if onTerminal ? percent != lastPercent : percent / 10 != lastPercent / 10 {
            FileHandle.standardError.write(Data((onTerminal ? "\rafconvert: \(percent)%" : "afconvert: \(percent / 10 * 10)%\n").utf8))
            lastPercent = percent
        }
    }
}
if showProgress && onTerminal { FileHandle.standardError.write(Data("\n".utf8)) }

status = ExtAudioFileDispose(outputAudio)
ExtAudioFileDispose(input)
if status != noErr {
    let text = "error finishing \(output): \(describe(status))"
    outputFile.discard()
    fail(text)
}
if Interruption.isSet {
    if let kept = outputFile.keepPartial() {
        warn("afconvert: interrupted; \(kept) holds the first \(written) frames")
    } else {
        warn("afconvert: interrupted; \(output) is left as it was")
    }
    exit(Interruption.exitStatus)
}
if let problem = outputFile.commit() { fail(problem) }
if verbose { print("Output file: \(output), \(written) frames") }
fflush(nil)
exit(0)
