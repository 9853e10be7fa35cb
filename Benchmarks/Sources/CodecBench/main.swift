// Codec throughput: a 60-second stereo 16-bit signal (two tones and noise) decoded and encoded through
// ExtAudioFile (interleaved Int32 client) against libsndfile doing the same work on the same files in the
// same run (libsndfile decodes FLAC with libFLAC and MP3 with libmpg123, encodes FLAC with libFLAC, and
// has its own ALAC codec, from Apple's reference).
// Prints x real time for each and the ratio to libsndfile; median of 5 runs.
import AudioToolbox
import CSndfile
import Foundation

nonisolated(unsafe) let rate = 44100.0, channels = 2, seconds = 60
nonisolated(unsafe) let frames = Int(rate) * seconds
nonisolated(unsafe) let dir = FileManager.default.temporaryDirectory
nonisolated(unsafe) let wav = dir.appendingPathComponent("oca-codec-bench.wav")
nonisolated(unsafe) let flac = dir.appendingPathComponent("oca-codec-bench.flac")
nonisolated(unsafe) let mp3 = dir.appendingPathComponent("oca-codec-bench.mp3")
nonisolated(unsafe) let ourFlac = dir.appendingPathComponent("oca-codec-bench-ours.flac")
nonisolated(unsafe) let theirFlac = dir.appendingPathComponent("oca-codec-bench-sndfile.flac")
nonisolated(unsafe) let alac = dir.appendingPathComponent("oca-codec-bench-alac.caf")
nonisolated(unsafe) let ourAlac = dir.appendingPathComponent("oca-codec-bench-ours-alac.caf")
nonisolated(unsafe) let theirAlac = dir.appendingPathComponent("oca-codec-bench-sndfile-alac.caf")
defer { for u in [wav, flac, mp3, ourFlac, theirFlac, alac, ourAlac, theirAlac] { try? FileManager.default.removeItem(at: u) } }

func median(_ xs: [Double]) -> Double { xs.sorted()[xs.count / 2] }
func timed(_ body: () -> Void) -> Double {
    let t0 = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9
}

/// The source as interleaved Int32 (16-bit values at full scale), generated deterministically.
nonisolated(unsafe) let source: [Int32] = {
    var state: UInt32 = 1
    return (0..<(frames * channels)).map { i in
        state = state &* 1_664_525 &+ 1_013_904_223
        let t = Double(i / 2) / rate
        let tone = 9000 * sin(2 * Double.pi * (i % 2 == 0 ? 440 : 554) * t) + 3000 * sin(2 * Double.pi * 1870 * t)
        let noise = Double(Int32(bitPattern: state) >> 20)
        return Int32(tone + noise) << 16
    }
}()

func run(_ tool: String, _ args: [String]) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: tool)
    p.arguments = args
    try? p.run()
    p.waitUntilExit()
}

// The inputs: a WAV, the reference encoders' FLAC (flac -5) and MP3 (LAME 192 kbps through ffmpeg).
do {
    var info = SF_INFO(frames: 0, samplerate: Int32(rate), channels: Int32(channels), format: Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16),
                       sections: 0, seekable: 0)
    let f = sf_open(wav.path, Int32(SFM_WRITE), &info)
    _ = source.withUnsafeBufferPointer { sf_writef_int(f, $0.baseAddress, sf_count_t(frames)) }
    sf_close(f)
    run("/usr/bin/flac", ["-s", "-f", "-5", "-o", flac.path, wav.path])
    run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-i", wav.path, "-c:a", "libmp3lame", "-b:a", "192k", mp3.path])
    run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-i", wav.path, "-c:a", "alac", alac.path])
}

nonisolated(unsafe) var client = AudioStreamBasicDescription(mSampleRate: rate, mFormatID: kAudioFormatLinearPCM,
                                                             mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked,
                                                             mBytesPerPacket: 8, mFramesPerPacket: 1, mBytesPerFrame: 8,
                                                             mChannelsPerFrame: 2, mBitsPerChannel: 32, mReserved: 0)
nonisolated(unsafe) var buffer = [Int32](repeating: 0, count: 4096 * channels)

func decodeOurs(_ url: URL) -> Int {
    var x: ExtAudioFileRef?
    ExtAudioFileOpenURL(url as CFURL, &x)
    ExtAudioFileSetProperty(x!, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &client)
    var total = 0
    while true {
        var n: UInt32 = 4096
        let got = buffer.withUnsafeMutableBytes { raw -> UInt32 in
            var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 2, mDataByteSize: UInt32(raw.count), mData: raw.baseAddress))
            ExtAudioFileRead(x!, &n, &list)
            return n
        }
        if got == 0 { break }
        total += Int(got)
    }
    ExtAudioFileDispose(x!)
    return total
}

func decodeSndfile(_ url: URL) -> Int {
    var info = SF_INFO()
    let f = sf_open(url.path, Int32(SFM_READ), &info)
    var total = 0
    while true {
        let got = buffer.withUnsafeMutableBufferPointer { sf_readf_int(f, $0.baseAddress, 4096) }
        if got <= 0 { break }
        total += Int(got)
    }
    sf_close(f)
    return total
}

func encodeOurs(_ id: AudioFormatID = kAudioFormatFLAC, to url: URL = ourFlac, type: AudioFileTypeID = kAudioFileFLACType) {
    var format = AudioStreamBasicDescription()
    format.mSampleRate = rate
    format.mFormatID = id
    format.mChannelsPerFrame = 2
    format.mFormatFlags = kAppleLosslessFormatFlag_16BitSourceData
    var x: ExtAudioFileRef?
    ExtAudioFileCreateWithURL(url as CFURL, type, &format, nil, AudioFileFlags.eraseFile.rawValue, &x)
    ExtAudioFileSetProperty(x!, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &client)
    var copy = source
    copy.withUnsafeMutableBytes { raw in
        var done = 0
        while done < frames {
            let n = min(4096, frames - done)
            var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 2, mDataByteSize: UInt32(n * 8), mData: raw.baseAddress! + done * 8))
            ExtAudioFileWrite(x!, UInt32(n), &list)
            done += n
        }
    }
    ExtAudioFileDispose(x!)
}

func encodeSndfile(_ format: Int32 = Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_16), to url: URL = theirFlac) {
    var info = SF_INFO(frames: 0, samplerate: Int32(rate), channels: Int32(channels), format: format, sections: 0, seekable: 0)
    let f = sf_open(url.path, Int32(SFM_WRITE), &info)
    var level = 0.5  // libFLAC level 5, as ours
    sf_command(f, Int32(SFC_SET_COMPRESSION_LEVEL), &level, Int32(MemoryLayout<Double>.size))
    var done = 0
    source.withUnsafeBufferPointer { p in
        while done < frames {
            let n = min(4096, frames - done)
            sf_writef_int(f, p.baseAddress! + done * channels, sf_count_t(n))
            done += n
        }
    }
    sf_close(f)
}

func report(_ name: String, ours: () -> Void, theirs: () -> Void) {
    var a: [Double] = [], b: [Double] = []
    for _ in 0..<5 { a.append(timed(ours)); b.append(timed(theirs)) }
    let x = Double(seconds) / median(a), y = Double(seconds) / median(b)
    print(String(format: "%@: ours %.0fx real time, libsndfile %.0fx, ratio %.2f", name, x, y, x / y))
    print(String(format: "summary: Codec %@ vs libsndfile | %.2fx | -", name, x / y))
}

report("FLAC decode (flac -5 file)", ours: { _ = decodeOurs(flac) }, theirs: { _ = decodeSndfile(flac) })
report("FLAC encode (level 5)", ours: { encodeOurs() }, theirs: { encodeSndfile() })
let ourSize = (try? FileManager.default.attributesOfItem(atPath: ourFlac.path)[.size] as? Int) ?? 0
let theirSize = (try? FileManager.default.attributesOfItem(atPath: theirFlac.path)[.size] as? Int) ?? 0
print("FLAC size: ours \(ourSize) bytes, libsndfile (libFLAC) \(theirSize) bytes")
report("MP3 decode (192 kbps)", ours: { _ = decodeOurs(mp3) }, theirs: { _ = decodeSndfile(mp3) })
report("ALAC encode (CAF)", ours: { encodeOurs(kAudioFormatAppleLossless, to: ourAlac, type: kAudioFileCAFType) },
       theirs: { encodeSndfile(Int32(SF_FORMAT_CAF | SF_FORMAT_ALAC_16), to: theirAlac) })
// Decoded from libsndfile's own ALAC CAF (it does not read ffmpeg's), both sides checked for the whole length.
let decodedOurs = decodeOurs(theirAlac), decodedTheirs = decodeSndfile(theirAlac)
if decodedOurs == decodedTheirs && decodedTheirs > 0 {
    report("ALAC decode (libsndfile's CAF)", ours: { _ = decodeOurs(theirAlac) }, theirs: { _ = decodeSndfile(theirAlac) })
} else {
    print("ALAC decode: lengths differ (ours \(decodedOurs), libsndfile \(decodedTheirs)); not timed")
}
