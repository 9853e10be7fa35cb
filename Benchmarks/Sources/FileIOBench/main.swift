// Audio file throughput: writing and reading a 10-minute stereo 16-bit WAV (about 106 MB) with
// Audio File Services and ExtAudioFile, against libsndfile in the same run. Prints MB/s (of WAV audio
// data) and the ratio to libsndfile; median of 7 runs. Files go to the temporary directory. Reading as Float32 is
// also set beside dr_wav (the drwav-read program run.sh builds, named by DRWAV_READ), which times the same reads of
// the same file in its own process.
import AudioToolbox
import CSndfile
import Foundation

nonisolated(unsafe) let rate = 44100.0, channels = 2, seconds = 600
nonisolated(unsafe) let frames = Int(rate) * seconds
nonisolated(unsafe) let chunk = 32768
let megabytes = Double(frames * channels * 2) / 1_000_000
nonisolated(unsafe) let samples: [Int16] = (0..<chunk * channels).map { Int16(truncatingIfNeeded: $0 &* 7919) }
nonisolated(unsafe) let dir = FileManager.default.temporaryDirectory

func median(_ xs: [Double]) -> Double { xs.sorted()[xs.count / 2] }
func timed(_ body: () -> Void) -> Double {
    let t0 = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9
}

nonisolated(unsafe) let ours = dir.appendingPathComponent("oca-bench.wav")
nonisolated(unsafe) let theirs = dir.appendingPathComponent("sndfile-bench.wav")
defer { try? FileManager.default.removeItem(at: ours); try? FileManager.default.removeItem(at: theirs) }
nonisolated(unsafe) var format = AudioStreamBasicDescription(mSampleRate: rate, mFormatID: kAudioFormatLinearPCM,
                                         mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked, mBytesPerPacket: 4,
                                         mFramesPerPacket: 1, mBytesPerFrame: 4, mChannelsPerFrame: 2, mBitsPerChannel: 16, mReserved: 0)

func writeOurs() {
    var file: AudioFileID?
    AudioFileCreateWithURL(ours as CFURL, kAudioFileWAVEType, &format, .eraseFile, &file)
    var done = 0
    while done < frames {
        var n = UInt32(min(chunk, frames - done))
        AudioFileWritePackets(file!, false, n * 4, nil, Int64(done), &n, samples)
        done += Int(n)
    }
    AudioFileClose(file!)
}

func readOurs() -> Int {
    var file: AudioFileID?
    AudioFileOpenURL(ours as CFURL, .readPermission, 0, &file)
    var buffer = [Int16](repeating: 0, count: chunk * channels)
    var total = 0, packet: Int64 = 0
    while true {
        var bytes = UInt32(chunk * 4), n = UInt32(chunk)
        AudioFileReadPacketData(file!, false, &bytes, nil, packet, &n, &buffer)
        if n == 0 { break }
        packet += Int64(n)
        total += Int(n)
    }
    AudioFileClose(file!)
    return total
}

func readOursAsFloat() -> Int {
    var x: ExtAudioFileRef?
    ExtAudioFileOpenURL(ours as CFURL, &x)
    var client = AudioStreamBasicDescription(mSampleRate: rate, mFormatID: kAudioFormatLinearPCM,
                                             mFormatFlags: kAudioFormatFlagsNativeFloatPacked, mBytesPerPacket: 8, mFramesPerPacket: 1,
                                             mBytesPerFrame: 8, mChannelsPerFrame: 2, mBitsPerChannel: 32, mReserved: 0)
    ExtAudioFileSetProperty(x!, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &client)
    var buffer = [Float32](repeating: 0, count: chunk * channels)
    var total = 0
    while true {
        var n = UInt32(chunk)
        buffer.withUnsafeMutableBytes { raw in
            var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 2, mDataByteSize: UInt32(raw.count), mData: raw.baseAddress))
            ExtAudioFileRead(x!, &n, &list)
        }
        if n == 0 { break }
        total += Int(n)
    }
    ExtAudioFileDispose(x!)
    return total
}

func writeSndfile() {
    var info = SF_INFO(frames: 0, samplerate: Int32(rate), channels: Int32(channels), format: Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16),
                       sections: 0, seekable: 0)
    let f = sf_open(theirs.path, Int32(SFM_WRITE), &info)
    var done = 0
    while done < frames {
        let n = min(chunk, frames - done)
        _ = samples.withUnsafeBufferPointer { sf_writef_short(f, $0.baseAddress, sf_count_t(n)) }
        done += n
    }
    sf_close(f)
}

func readSndfile(float: Bool) -> Int {
    var info = SF_INFO()
    let f = sf_open(theirs.path, Int32(SFM_READ), &info)
    var shorts = [Int16](repeating: 0, count: chunk * channels), floats = [Float](repeating: 0, count: chunk * channels)
    var total = 0
    while true {
        let n = float ? floats.withUnsafeMutableBufferPointer { sf_readf_float(f, $0.baseAddress, sf_count_t(chunk)) }
                      : shorts.withUnsafeMutableBufferPointer { sf_readf_short(f, $0.baseAddress, sf_count_t(chunk)) }
        if n <= 0 { break }
        total += Int(n)
    }
    sf_close(f)
    return total
}

print("10-minute stereo 16-bit WAV (\(String(format: "%.1f", megabytes)) MB of audio), \(chunk)-frame chunks; median of 7 runs")
print("operation                                         ours MB/s   libsndfile MB/s   ratio")
func row(_ name: String, _ a: () -> Void, _ b: () -> Void, goal: String = "-") {
    let ta = median((0..<7).map { _ in timed(a) }), tb = median((0..<7).map { _ in timed(b) })
    let pad = name + String(repeating: " ", count: max(0, 48 - name.count))
    print(pad + String(format: "  %9.0f   %15.0f   %5.2fx", megabytes / ta, megabytes / tb, tb / ta))
    // One line for run.sh's summary table: what, ours against the peer (above 1: ours is faster), the goal.
    print(String(format: "summary: FileIO %@ vs libsndfile | %.2fx | %@", name, tb / ta, goal))
}
row("write Int16", writeOurs, writeSndfile)
row("read Int16 (AudioFile / sf_read_short)", { precondition(readOurs() == frames) }, { precondition(readSndfile(float: false) == frames) })
row("read as Float32 (ExtAudioFile / sf_read_float)", { precondition(readOursAsFloat() == frames) }, { precondition(readSndfile(float: true) == frames) },
    goal: ">= 1.0x")

// dr_wav: the same file, chunk and run count; its program reports its own median.
if let drwav = ProcessInfo.processInfo.environment["DRWAV_READ"] {
    let process = Process()
    let pipe = Pipe()
    process.executableURL = URL(fileURLWithPath: drwav)
    process.arguments = [ours.path, String(chunk), "7"]
    process.standardOutput = pipe
    try! process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let fields = output.split(separator: " ").map { String($0).trimmingCharacters(in: .whitespacesAndNewlines) }
    guard process.terminationStatus == 0, fields.count == 2, Int(fields[0]) == frames, let theirs = Double(fields[1]) else {
        fatalError("drwav-read failed: \(output)")
    }
    let ta = median((0..<7).map { _ in timed { precondition(readOursAsFloat() == frames) } })
    print("read as Float32 (ExtAudioFile / ma_dr_wav_read_pcm_frames_f32)" + String(format: "  %9.0f   %9.0f (dr_wav)   %5.2fx", megabytes / ta, megabytes / theirs, theirs / ta))
    print(String(format: "summary: FileIO read as Float32 (ExtAudioFile / dr_wav f32) vs dr_wav | %.2fx | -", theirs / ta))
} else {
    print("dr_wav: not compared (DRWAV_READ names no drwav-read program; Benchmarks/run.sh builds one)")
}
