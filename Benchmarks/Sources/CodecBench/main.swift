// Codec throughput for every codec we have, against libavcodec (FFmpeg 5.1, Debian) doing the same work in the
// same process, alternately, on the same data; medians of 7. Printed as x real time, ours / peer, and a goal.
//
// What each side includes:
// - decode: ours is ExtAudioFile (AudioFile's container parser + our decoder + the converter to the client
//   format) from the file to interleaved PCM in memory; the peer is libavformat (demuxer) + libavcodec (decoder)
//   + a C loop to the same interleaved client format (CAVBench). Lossless, IMA4 and G.711 decode to Int32
//   (left-justified), lossy to Float32.
// - encode: ours is AudioConverterFillComplexBuffer from interleaved Int16 to packets in memory (no file); the
//   peer is avcodec_send_frame/receive_packet from the same Int16 moved into the encoder's sample format by a C
//   loop, packets in memory (no muxer).
// Also: FLAC, MP3 and ALAC against libsndfile (libFLAC, libmpg123, its ALAC), and the reference tools (flac,
// opusenc, opusdec) whole-process against our afconvert doing the same conversion, in CPU seconds.
import AudioToolbox
import CAVBench
import CSndfile
import Foundation


let channels = 2, seconds = 60, runs = 7
let dir = FileManager.default.temporaryDirectory.appendingPathComponent("oca-codec-bench-\(getpid())")
try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: dir) }
func file(_ name: String) -> URL { dir.appendingPathComponent(name) }

func median(_ xs: [Double]) -> Double { xs.sorted()[xs.count / 2] }
func timed(_ body: () -> Void) -> Double {
    let t0 = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9
}

/// The source as interleaved Int16: two tones and noise, generated deterministically at `rate`.
func makeSource(rate: Double) -> [Int16] {
    var state: UInt32 = 1
    return (0..<(Int(rate) * seconds * channels)).map { i in
        state = state &* 1_664_525 &+ 1_013_904_223
        let t = Double(i / 2) / rate
        let tone = 9000 * sin(2 * Double.pi * (i % 2 == 0 ? 440 : 554) * t) + 3000 * sin(2 * Double.pi * 1870 * t)
        return Int16(tone + Double(Int32(bitPattern: state) >> 20))
    }
}
let source44 = makeSource(rate: 44100), source48 = makeSource(rate: 48000)

func writeWAV(_ pcm: [Int16], rate: Int, to url: URL) {
    var info = SF_INFO(frames: 0, samplerate: Int32(rate), channels: Int32(channels), format: Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16),
                       sections: 0, seekable: 0)
    let f = sf_open(url.path, Int32(SFM_WRITE), &info)
    _ = pcm.withUnsafeBufferPointer { sf_writef_short(f, $0.baseAddress, sf_count_t(pcm.count / channels)) }
    sf_close(f)
}

func run(_ tool: String, _ args: [String]) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: tool)
    p.arguments = args
    p.standardOutput = FileHandle.nullDevice
    p.standardError = FileHandle.nullDevice
    // A tool that fails returns at once: timed, that would pass for a fast one (an afconvert left over from an
    // older build did exactly that with Opus), so any failure stops the benchmark.
    do { try p.run() } catch { fatalError("\(tool): \(error)") }
    p.waitUntilExit()
    guard p.terminationStatus == 0 else { fatalError("\(tool) \(args.joined(separator: " ")) exited with \(p.terminationStatus)") }
}

/// CPU seconds (user + system) a child process used.
func cpuTimed(_ tool: String, _ args: [String]) -> Double {
    func children() -> Double {
        var u = rusage()
        getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &u)
        return Double(u.ru_utime.tv_sec) + Double(u.ru_utime.tv_usec) / 1e6 + Double(u.ru_stime.tv_sec) + Double(u.ru_stime.tv_usec) / 1e6
    }
    let before = children()
    run(tool, args)
    return children() - before
}

// The inputs, made by the reference encoders (ffmpeg's for the formats it writes, flac, opusenc).
let wav = file("src.wav"), wav48 = file("src48.wav")
writeWAV(source44, rate: 44100, to: wav)
writeWAV(source48, rate: 48000, to: wav48)
let flacFile = file("flac5.flac"), alacFile = file("alac.m4a"), mp3File = file("lame192.mp3"), aacFile = file("aac128.m4a")
let opusFile = file("opus128.opus"), ima4File = file("ima4.caf"), ulawFile = file("ulaw.caf"), alawFile = file("alaw.caf")
let sndfileAlac = file("sndfile-alac.caf")
run("/usr/bin/flac", ["-s", "-f", "-5", "-o", flacFile.path, wav.path])
let ffmpeg = "/usr/bin/ffmpeg"
for (codec, extra, out) in [("alac", [], alacFile), ("libmp3lame", ["-b:a", "192k"], mp3File), ("aac", ["-b:a", "128k"], aacFile),
                            ("adpcm_ima_qt", [], ima4File), ("pcm_mulaw", [], ulawFile), ("pcm_alaw", [], alawFile)] {
    run(ffmpeg, ["-v", "error", "-y", "-i", wav.path, "-c:a", codec] + extra + [out.path])
}
run("/usr/bin/opusenc", ["--quiet", "--bitrate", "128", wav48.path, opusFile.path])
do {  // libsndfile's own ALAC CAF, for the libsndfile comparison (it does not read ffmpeg's).
    var info = SF_INFO(frames: 0, samplerate: 44100, channels: Int32(channels), format: Int32(SF_FORMAT_CAF | SF_FORMAT_ALAC_16),
                       sections: 0, seekable: 0)
    let f = sf_open(sndfileAlac.path, Int32(SFM_WRITE), &info)
    _ = source44.withUnsafeBufferPointer { sf_writef_short(f, $0.baseAddress, sf_count_t(source44.count / channels)) }
    sf_close(f)
}

// MARK: Decoding

/// The decoded output of both sides (room for 61 s at 48 kHz), 4-byte samples.
let outCapacity = 48000 * (seconds + 1)
nonisolated(unsafe) let output = UnsafeMutableRawPointer.allocate(byteCount: outCapacity * channels * 4, alignment: 16)

/// Decodes the whole file through ExtAudioFile to interleaved Int32 or Float32 in `output`; answers the frames.
func decodeOurs(_ url: URL, float: Bool) -> Int {
    var x: ExtAudioFileRef?
    guard ExtAudioFileOpenURL(url as CFURL, &x) == noErr, let x else { return -1 }
    defer { ExtAudioFileDispose(x) }
    var fileFormat = AudioStreamBasicDescription(), size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
    ExtAudioFileGetProperty(x, kExtAudioFileProperty_FileDataFormat, &size, &fileFormat)
    var client = AudioStreamBasicDescription(mSampleRate: fileFormat.mSampleRate, mFormatID: kAudioFormatLinearPCM,
                                             mFormatFlags: (float ? kAudioFormatFlagIsFloat : kAudioFormatFlagIsSignedInteger) | kAudioFormatFlagIsPacked,
                                             mBytesPerPacket: 8, mFramesPerPacket: 1, mBytesPerFrame: 8,
                                             mChannelsPerFrame: 2, mBitsPerChannel: 32, mReserved: 0)
    guard ExtAudioFileSetProperty(x, kExtAudioFileProperty_ClientDataFormat, size, &client) == noErr else { return -2 }
    var total = 0
    while total < outCapacity {
        var n = UInt32(min(4096, outCapacity - total))
        var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 2, mDataByteSize: n * 8, mData: output + total * 8))
        guard ExtAudioFileRead(x, &n, &list) == noErr else { return -3 }
        if n == 0 { break }
        total += Int(n)
    }
    return total
}

func decodePeer(_ url: URL, float: Bool, decoder: String? = nil) -> Int {
    var ch: Int32 = 0
    let n = decoder.map { cav_decode_file(url.path, $0, float ? 1 : 0, output, Int64(outCapacity), &ch) }
        ?? cav_decode_file(url.path, nil, float ? 1 : 0, output, Int64(outCapacity), &ch)
    return Int(n)
}

func decodeSndfile(_ url: URL) -> Int {
    var info = SF_INFO()
    let f = sf_open(url.path, Int32(SFM_READ), &info)
    var total = 0
    while total < outCapacity {
        let got = sf_readf_int(f, output.assumingMemoryBound(to: Int32.self) + total * channels, sf_count_t(min(4096, outCapacity - total)))
        if got <= 0 { break }
        total += Int(got)
    }
    sf_close(f)
    return total
}

// MARK: Encoding

/// Ours: AudioConverter from interleaved Int16 to `format`, packets into memory. Answers the bytes produced.
final class EncodeInput {
    let pcm: UnsafeBufferPointer<Int16>
    var at = 0  // frames handed over
    init(_ pcm: UnsafeBufferPointer<Int16>) { self.pcm = pcm }
}
nonisolated(unsafe) let packetBuffer = UnsafeMutableRawPointer.allocate(byteCount: 1 << 22, alignment: 16)
nonisolated(unsafe) let packetDescriptions = UnsafeMutablePointer<AudioStreamPacketDescription>.allocate(capacity: 1 << 16)

func encodeOurs(_ id: AudioFormatID, rate: Double, flags: AudioFormatFlags = 0, bitRate: UInt32 = 0, quality: UInt32? = nil,
                pcm source: [Int16]) -> Int {
    var input = AudioStreamBasicDescription(mSampleRate: rate, mFormatID: kAudioFormatLinearPCM,
                                            mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked,
                                            mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4,
                                            mChannelsPerFrame: 2, mBitsPerChannel: 16, mReserved: 0)
    var out = AudioStreamBasicDescription()
    out.mSampleRate = rate
    out.mFormatID = id
    out.mFormatFlags = flags
    out.mChannelsPerFrame = 2
    var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
    guard AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 0, nil, &size, &out) == noErr else { return -1 }
    var converter: AudioConverterRef?
    guard AudioConverterNew(&input, &out, &converter) == noErr, let converter else { return -2 }
    defer { AudioConverterDispose(converter) }
    if bitRate > 0 {
        var b = bitRate
        AudioConverterSetProperty(converter, kAudioConverterEncodeBitRate, 4, &b)
    }
    if var q = quality { AudioConverterSetProperty(converter, kAudioConverterCodecQuality, 4, &q) }
    var maxPacket: UInt32 = 0
    size = 4
    AudioConverterGetProperty(converter, kAudioConverterPropertyMaximumOutputPacketSize, &size, &maxPacket)
    let packetsPerFill = UInt32(min(1 << 16, (1 << 22) / Int(max(maxPacket, 1))))
    return source.withUnsafeBufferPointer { pcm -> Int in
        let state = EncodeInput(pcm)
        var bytes = 0
        while true {
            var packets = packetsPerFill
            var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 2, mDataByteSize: 1 << 22, mData: packetBuffer))
            let status = AudioConverterFillComplexBuffer(converter, { _, ioPackets, ioData, _, user in
                let s = Unmanaged<EncodeInput>.fromOpaque(user!).takeUnretainedValue()
                let n = min(Int(ioPackets.pointee), s.pcm.count / 2 - s.at, 4096)
                ioPackets.pointee = UInt32(n)
                ioData.pointee.mBuffers.mData = UnsafeMutableRawPointer(mutating: s.pcm.baseAddress! + s.at * 2)
                ioData.pointee.mBuffers.mDataByteSize = UInt32(n * 4)
                ioData.pointee.mBuffers.mNumberChannels = 2
                s.at += n
                return noErr
            }, Unmanaged.passUnretained(state).toOpaque(), &packets, &list, packetDescriptions)
            if status != noErr { return -3 }
            if packets == 0 { break }
            bytes += Int(list.mBuffers.mDataByteSize)
        }
        return bytes
    }
}

func encodePeer(_ encoder: String, rate: Int, bitRate: Int = 0, level: Int = -1, options: String? = nil, pcm: [Int16]) -> Int {
    pcm.withUnsafeBufferPointer { p in
        Int(options.map { cav_encode(encoder, p.baseAddress, Int64(p.count / 2), 2, Int32(rate), Int32(bitRate), Int32(level), $0) }
            ?? cav_encode(encoder, p.baseAddress, Int64(p.count / 2), 2, Int32(rate), Int32(bitRate), Int32(level), nil))
    }
}

// MARK: Reporting

/// Times `ours` and `peer` alternately `runs` times; prints x real time for each (from `seconds` of audio),
/// the ratio ours / peer and a summary line. `check` runs once first: both must do the work.
/// `CodecBench FLAC` times only the lines whose name contains "FLAC" (for profiling one codec).
let only = CommandLine.arguments.dropFirst().first
func selected(_ name: String) -> Bool { only.map { name.contains($0) } ?? true }

func report(_ name: String, peerName: String = "libavcodec", goal: String = "-", ours: @escaping () -> Int, peer: @escaping () -> Int) {
    guard selected(name) else { return }
    let (a, b) = (ours(), peer())
    guard a > 0, b > 0 else {
        print("\(name): not timed (ours answered \(a), \(peerName) \(b))")
        print("summary: Codec \(name) vs \(peerName) | failed | \(goal)")
        return
    }
    var ta: [Double] = [], tb: [Double] = []
    for _ in 0..<runs {
        ta.append(timed { _ = ours() })
        tb.append(timed { _ = peer() })
    }
    let x = Double(seconds) / median(ta), y = Double(seconds) / median(tb)
    print(String(format: "%@: ours %.0fx real time, %@ %.0fx, ratio %.2f (ours %d, %@ %d %@)", name, x, peerName, y, x / y,
                 a, peerName, b, name.contains("encode") ? "bytes" : "frames"))
    print(String(format: "summary: Codec %@ vs %@ | %.2fx | %@", name, peerName, x / y, goal))
}

/// The same for whole processes, in CPU seconds: our afconvert against a reference tool.
func reportProcess(_ name: String, tool: String, ours: [String], peer: [String]) {
    guard selected(name) else { return }
    guard FileManager.default.isExecutableFile(atPath: tool) else { print("\(name): \(tool) not installed"); return }
    let afconvert = CommandLine.arguments[0].replacingOccurrences(of: "CodecBench", with: "afconvert")
    guard FileManager.default.isExecutableFile(atPath: afconvert) else {
        print("\(name): \(afconvert) not built (swift build -c release --product afconvert)")
        return
    }
    var ta: [Double] = [], tb: [Double] = []
    for _ in 0..<runs {
        ta.append(cpuTimed(afconvert, ours))
        tb.append(cpuTimed(tool, peer))
    }
    let x = Double(seconds) / median(ta), y = Double(seconds) / median(tb)
    let toolName = URL(fileURLWithPath: tool).lastPathComponent
    print(String(format: "%@ (whole process, CPU): afconvert %.0fx real time, %@ %.0fx, ratio %.2f", name, x, toolName, y, x / y))
    print(String(format: "summary: Codec %@ afconvert vs %@ (process CPU) | %.2fx | -", name, toolName, x / y))
}

let lossless = ">= 1.0"
report("FLAC decode (flac -5 file)", goal: lossless, ours: { decodeOurs(flacFile, float: false) }, peer: { decodePeer(flacFile, float: false) })
report("ALAC decode (ffmpeg's m4a)", goal: lossless, ours: { decodeOurs(alacFile, float: false) }, peer: { decodePeer(alacFile, float: false) })
report("MP3 decode (LAME 192 kbps; libavcodec mp3float)", ours: { decodeOurs(mp3File, float: true) }, peer: { decodePeer(mp3File, float: true) })
report("AAC-LC decode (ffmpeg 128 kbps m4a)", ours: { decodeOurs(aacFile, float: true) }, peer: { decodePeer(aacFile, float: true) })
report("Opus decode (opusenc 128 kbps; libavcodec native opus)", ours: { decodeOurs(opusFile, float: true) },
       peer: { decodePeer(opusFile, float: true) })
report("Opus decode (opusenc 128 kbps; libavcodec libopus)", ours: { decodeOurs(opusFile, float: true) },
       peer: { decodePeer(opusFile, float: true, decoder: "libopus") })
report("IMA4 decode (ffmpeg's CAF)", ours: { decodeOurs(ima4File, float: false) }, peer: { decodePeer(ima4File, float: false) })
report("mu-law decode (ffmpeg's CAF)", ours: { decodeOurs(ulawFile, float: false) }, peer: { decodePeer(ulawFile, float: false) })
report("A-law decode (ffmpeg's CAF)", ours: { decodeOurs(alawFile, float: false) }, peer: { decodePeer(alawFile, float: false) })

// Encoders at matched settings: FLAC level 5, ALAC default, AAC-LC 128 kbps, Opus 128 kbps constrained VBR at
// complexity 10 (ours: quality max), IMA4, G.711.
report("FLAC encode (level 5, in memory)", ours: { encodeOurs(kAudioFormatFLAC, rate: 44100, flags: kAppleLosslessFormatFlag_16BitSourceData, quality: 0x50, pcm: source44) },
       peer: { encodePeer("flac", rate: 44100, level: 5, pcm: source44) })
report("ALAC encode (in memory)", ours: { encodeOurs(kAudioFormatAppleLossless, rate: 44100, flags: kAppleLosslessFormatFlag_16BitSourceData, pcm: source44) },
       peer: { encodePeer("alac", rate: 44100, pcm: source44) })
report("AAC-LC encode (128 kbps, in memory)", ours: { encodeOurs(kAudioFormatMPEG4AAC, rate: 44100, bitRate: 128000, pcm: source44) },
       peer: { encodePeer("aac", rate: 44100, bitRate: 128000, pcm: source44) })
report("Opus encode (128 kbps, in memory; libavcodec libopus)", ours: { encodeOurs(kAudioFormatOpus, rate: 48000, bitRate: 128000, quality: 0x7F, pcm: source48) },
       peer: { encodePeer("libopus", rate: 48000, bitRate: 128000, level: 10, options: "vbr=constrained", pcm: source48) })
report("IMA4 encode (in memory)", ours: { encodeOurs(kAudioFormatAppleIMA4, rate: 44100, pcm: source44) },
       peer: { encodePeer("adpcm_ima_qt", rate: 44100, pcm: source44) })
report("mu-law encode (in memory)", ours: { encodeOurs(kAudioFormatULaw, rate: 44100, pcm: source44) },
       peer: { encodePeer("pcm_mulaw", rate: 44100, pcm: source44) })
report("A-law encode (in memory)", ours: { encodeOurs(kAudioFormatALaw, rate: 44100, pcm: source44) },
       peer: { encodePeer("pcm_alaw", rate: 44100, pcm: source44) })

// libsndfile (libFLAC, libmpg123, its ALAC) decoding the same files through its own glue, to Int32.
report("FLAC decode (flac -5 file)", peerName: "libsndfile", ours: { decodeOurs(flacFile, float: false) }, peer: { decodeSndfile(flacFile) })
report("MP3 decode (LAME 192 kbps)", peerName: "libsndfile", ours: { decodeOurs(mp3File, float: false) }, peer: { decodeSndfile(mp3File) })
report("ALAC decode (libsndfile's CAF)", peerName: "libsndfile", ours: { decodeOurs(sndfileAlac, float: false) }, peer: { decodeSndfile(sndfileAlac) })

// The reference tools against afconvert, whole process, the same conversion.
let outA = file("out-a"), outB = file("out-b")
reportProcess("FLAC decode to WAV", tool: "/usr/bin/flac", ours: ["-f", "WAVE", "-d", "LEI16", flacFile.path, outA.path + ".wav"],
              peer: ["-s", "-f", "-d", "-o", outB.path + ".wav", flacFile.path])
reportProcess("FLAC encode level 5", tool: "/usr/bin/flac", ours: ["-d", "flac", "-q", "\(0x50)", wav.path, outA.path + ".flac"],
              peer: ["-s", "-f", "-5", "-o", outB.path + ".flac", wav.path])
reportProcess("Opus decode to WAV", tool: "/usr/bin/opusdec", ours: ["-f", "WAVE", "-d", "LEI16", opusFile.path, outA.path + ".wav"],
              peer: ["--quiet", opusFile.path, outB.path + ".wav"])
reportProcess("Opus encode 128 kbps", tool: "/usr/bin/opusenc", ours: ["-d", "opus", "-b", "128000", wav48.path, outA.path + ".opus"],
              peer: ["--quiet", "--bitrate", "128", wav48.path, outB.path + ".opus"])
