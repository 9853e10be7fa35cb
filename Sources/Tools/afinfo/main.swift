// afinfo: prints what Audio File Services says about audio files, in the layout of Apple's
// /usr/bin/afinfo. Uses only the public AudioToolbox API (AudioFileOpenURL, AudioFileGetProperty,
// AudioFileGetPropertyInfo).
//   afinfo [-b | --brief] [-i | --info] [-x | --xml] [-r | --real] audio_file...
import AudioToolbox
import ToolSupport

func usage() -> String {
    """
    Usage:
    afinfo [option...] audio_file(s)

    Options: (may appear before or after arguments)
        {-h --help}
            print help
        {-b --brief}
            print a brief (one line) description of the audio file
        {-r --real}
            get the estimated duration after obtaining the real packet count
            (linear PCM files always have an exact packet count)
        {-i --info}
            print the file's info dictionary only
        {-x --xml}
            print the report as XML (one <audio_file> element per file)

    OpenCoreAudio extensions (not in Apple's afinfo):
        {--plot} out.png
            also write a picture of the (one) audio file: waveform, spectrogram (dBFS colour scale),
            time axis in seconds, frequency axis in kHz
        {--plot-size} WxH
            the picture's size in pixels (default 1200x800)
    """
}

// MARK: Main

var brief = false
var infoOnly = false
var xml = false
var paths: [String] = []
var onlyFiles = false
var plotPath: String?
var plotSize = PlotLayout.defaultSize
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    if !onlyFiles, argument == "--plot" || argument == "--plot-size" {
        guard let value = arguments.popFirst() else {
            warn("afinfo: \(argument) needs a value")
            exit(1)
        }
        if argument == "--plot" {
            plotPath = value
        } else if let size = PlotLayout.parseSize(value) {
            plotSize = size
        } else {
            warn("afinfo: --plot-size wants WIDTHxHEIGHT (for example 1200x800), not \(value)")
            exit(1)
        }
        continue
    }
    if onlyFiles || !argument.hasPrefix("-") || argument == "-" {
        paths.append(argument)
        continue
    }
    switch argument {
    case "--": onlyFiles = true
    case "-h", "--help":
        print(usage())
        exit(0)
    case "-b", "--brief": brief = true
    case "-i", "--info": infoOnly = true
    case "-x", "--xml": xml = true
    case "-r", "--real": break
    default:
        warn("afinfo: unknown option: \(argument)")
        warn(usage())
        exit(1)
    }
}
guard !paths.isEmpty else {
    warn(usage())
    exit(1)
}
if plotPath != nil && paths.count != 1 {
    warn("afinfo: --plot draws one audio file; \(paths.count) were given")
    exit(1)
}

var failures = 0
if xml { print(AudioFileXMLReport.header, terminator: "") }
for path in paths {
    let url = CFURLCreateWithFileSystemPath(kCFAllocatorDefault, path as CFString, .cfurlposixPathStyle, false)!
    var file: AudioFileID?
    let status = AudioFileOpenURL(url, .readPermission, 0, &file)
    guard status == noErr, let file else {
        warn("afinfo: Error opening file \(path): \(describe(status))")
        failures += 1
        continue
    }
    var report = AudioFileReport()
    if xml {
        AudioFileXMLReport.element(path, file, to: &report)
    } else if infoOnly {
        printInfoOnly(path, file, to: &report)
    } else if brief {
        printBrief(path, file, to: &report)
    } else {
        printFull(path, file, to: &report)
    }
    print(report.text, terminator: "")
    for w in report.warnings { warn(w) }
    AudioFileClose(file)
}
if xml { print(AudioFileXMLReport.footer, terminator: "") }
if let plotPath, failures == 0 {
    do {
        try AudioFilePlot.write(path: paths[0], to: plotPath, width: plotSize.width, height: plotSize.height)
    } catch {
        warn("afinfo: \(error)")
        failures += 1
    }
}
fflush(nil)
exit(failures == 0 ? 0 : 1)
