// Time stretching speed: AudioDSP's TimeStretcher against SoundTouch (libSoundTouchDll, in process), in one
// run, on stereo 44.1 kHz speech (espeak-ng, upsampled; a synthetic vowel-like signal if espeak-ng is
// missing) at tempo 1.5x and 2x. Speed is input audio time per second of processing (x real time), the
// median of 5 runs, and the ratio ours / SoundTouch.
import AudioDSP
import CSoundTouch
import Foundation

let sampleRate = 44100.0
let runs = 5

/// Mono speech at 22050 Hz from espeak-ng, or nil.
func espeak() -> [Float]? {
    let path = NSTemporaryDirectory() + "timestretchbench-\(getpid()).wav"
    defer { try? FileManager.default.removeItem(atPath: path) }
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/espeak-ng")
    p.arguments = ["-w", path, "-s", "160",
                   "Audio books and recorded lectures are often played faster than they were spoken. "
                   + "The quick brown fox jumps over the lazy dog, and she sells sea shells by the sea shore."]
    guard (try? p.run()) != nil else { return nil }
    p.waitUntilExit()
    guard p.terminationStatus == 0, let d = FileManager.default.contents(atPath: path), d.count > 44 else { return nil }
    // Find the data chunk of the RIFF file (16-bit mono).
    var offset = 12
    while offset + 8 <= d.count {
        let id = String(decoding: d[offset..<(offset + 4)], as: UTF8.self)
        let size = Int(d[offset + 4]) | Int(d[offset + 5]) << 8 | Int(d[offset + 6]) << 16 | Int(d[offset + 7]) << 24
        if id == "data" {
            let n = min(size, d.count - offset - 8) / 2
            return (0..<n).map { i in
                let lo = UInt16(d[offset + 8 + 2 * i]), hi = UInt16(d[offset + 9 + 2 * i])
                return Float(Int16(bitPattern: lo | hi << 8)) / 32768
            }
        }
        offset += 8 + size + (size & 1)
    }
    return nil
}

/// Stereo 44.1 kHz test speech, about 30 s: espeak-ng upsampled (right channel a little delayed and quieter).
func speech() -> (left: [Float], right: [Float], source: String) {
    var mono: [Float]
    var source = "espeak-ng"
    if let s = espeak() {
        let src = SampleRateConverter(inputRate: 22050, outputRate: sampleRate, channels: 1, quality: .high, algorithm: .sinc)
        mono = [Float](repeating: 0, count: src.maximumOutputFrames(forInputFrames: s.count))
        s.withUnsafeBufferPointer { inBuf in
            mono.withUnsafeMutableBufferPointer { outBuf in
                var i = inBuf.baseAddress!, o = outBuf.baseAddress!
                _ = src.process(input: &i, inputFrames: s.count, endOfInput: true, output: &o, outputCapacity: outBuf.count)
            }
        }
    } else {
        source = "synthetic vowels (espeak-ng missing)"
        mono = (0..<Int(4 * sampleRate)).map { n in
            let t = Double(n) / sampleRate, f0 = 120 + 30 * sin(2 * Double.pi * 0.7 * t)
            var s = 0.0
            for h in 1...20 { s += sin(2 * Double.pi * f0 * Double(h) * t) / Double(h) * (h % 3 == 0 ? 1 : 0.5) }
            return Float(0.1 * s * (0.6 + 0.4 * sin(2 * Double.pi * 3 * t)))
        }
    }
    var left = [Float](), right = [Float]()
    while left.count < Int(30 * sampleRate) {
        left += mono
        right += [Float](repeating: 0, count: 37) + mono.dropLast(37).map { 0.8 * $0 }
    }
    return (left, right, source)
}

func median(_ x: [Double]) -> Double { x.sorted()[x.count / 2] }

/// Seconds to stretch the whole signal with ours, in blocks of 4096 input frames.
func timeOurs(_ left: [Float], _ right: [Float], tempo: Double) -> (seconds: Double, frames: Int) {
    let s = TimeStretcher(sampleRate: sampleRate, channels: 2, minimumRate: 1, maximumRate: tempo)
    s.rate = tempo
    let block = 4096
    let out0 = UnsafeMutablePointer<Float>.allocate(capacity: block), out1 = UnsafeMutablePointer<Float>.allocate(capacity: block)
    defer { out0.deallocate(); out1.deallocate() }
    var outs: [UnsafeMutablePointer<Float>] = [out0, out1]
    var produced = 0
    let start = DispatchTime.now().uptimeNanoseconds
    left.withUnsafeBufferPointer { l in
        right.withUnsafeBufferPointer { r in
            var consumed = 0
            var ins: [UnsafePointer<Float>] = [l.baseAddress!, r.baseAddress!]
            while !s.isFinished {
                let n = min(block, l.count - consumed)
                ins[0] = l.baseAddress! + consumed
                ins[1] = r.baseAddress! + consumed
                let result = s.process(input: ins, inputFrames: n, endOfInput: consumed + n == l.count, output: &outs, outputCapacity: block)
                consumed += result.inputConsumed
                produced += result.outputProduced
            }
        }
    }
    return (Double(DispatchTime.now().uptimeNanoseconds - start) * 1e-9, produced)
}

/// Seconds to stretch the whole signal with SoundTouch (interleaving included, as its API needs it).
func timeSoundTouch(_ left: [Float], _ right: [Float], tempo: Double) -> (seconds: Double, frames: Int) {
    let st = soundtouch_createInstance()
    defer { soundtouch_destroyInstance(st) }
    soundtouch_setChannels(st, 2)
    soundtouch_setSampleRate(st, UInt32(sampleRate))
    soundtouch_setTempo(st, Float(tempo))
    let block = 4096
    var interleaved = [Float](repeating: 0, count: 2 * block)
    var out = [Float](repeating: 0, count: 2 * block)
    var produced = 0
    let start = DispatchTime.now().uptimeNanoseconds
    var consumed = 0
    while consumed < left.count {
        let n = min(block, left.count - consumed)
        for i in 0..<n { interleaved[2 * i] = left[consumed + i]; interleaved[2 * i + 1] = right[consumed + i] }
        soundtouch_putSamples(st, interleaved, UInt32(n))
        consumed += n
        while true {
            let got = Int(soundtouch_receiveSamples(st, &out, UInt32(block)))
            if got == 0 { break }
            produced += got
        }
    }
    soundtouch_flush(st)
    while true {
        let got = Int(soundtouch_receiveSamples(st, &out, UInt32(block)))
        if got == 0 { break }
        produced += got
    }
    return (Double(DispatchTime.now().uptimeNanoseconds - start) * 1e-9, produced)
}

let (left, right, source) = speech()
let duration = Double(left.count) / sampleRate
print("TimeStretchBench: \(String(format: "%.1f", duration)) s of stereo 44.1 kHz speech (\(source)); x real time = input time / processing time, median of \(runs)")
print("tempo   ours (x RT)   SoundTouch (x RT)   ours / SoundTouch   output frames ours / SoundTouch / expected")
for tempo in [1.5, 2.0] {
    var ours = [Double](), theirs = [Double]()
    var framesOurs = 0, framesTheirs = 0
    for _ in 0..<runs {
        let a = timeOurs(left, right, tempo: tempo)
        let b = timeSoundTouch(left, right, tempo: tempo)
        ours.append(a.seconds)
        theirs.append(b.seconds)
        framesOurs = a.frames
        framesTheirs = b.frames
    }
    let xo = duration / median(ours), xs = duration / median(theirs)
    print(String(format: "%4.1fx  %10.0f   %16.0f   %17.2f   %d / %d / %d", tempo, xo, xs, xo / xs,
                 framesOurs, framesTheirs, TimeStretcher.outputFrames(forInput: left.count, rate: tempo)))
    print(String(format: "summary: Time stretch at %.1fx vs SoundTouch | %.2fx | -", tempo, xo / xs))
}
