// Effects and generators, timed in one run (medians of 5):
// - every built-in effect on stereo 48 kHz noise in 512-frame slices (a render callback copying a precomputed
//   signal, as in MixerBench), as a multiple of real time;
// - AudioDSP's biquad kernel against a plain C transposed-direct-form-II loop (same coefficients, same data);
// - AUAudioFilePlayer (offline render mode) playing a 16-bit stereo WAV against ExtAudioFileRead of the same file
//   to the same Float32 non-interleaved format, both in 512-frame pieces.
import AudioDSP
import AudioToolbox
import CBiquad
import Foundation

let rate = 48000.0
let frames = 512

func check(_ status: OSStatus, _ what: String) { if status != noErr { fatalError("\(what): \(status)") } }
func median(_ xs: [Double]) -> Double { xs.sorted()[xs.count / 2] }

/// Seconds for `body`, median of 7.
func time(_ body: () -> Void) -> Double {
    var results: [Double] = []
    for _ in 0..<7 {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        results.append(Double(DispatchTime.now().uptimeNanoseconds - start) * 1e-9)
    }
    return median(results)
}

enum Noise {
    static let length = 1 << 16
    nonisolated(unsafe) static let signal: UnsafeMutablePointer<Float> = {
        let p = UnsafeMutablePointer<Float>.allocate(capacity: length + 4096)
        var seed: UInt32 = 1
        for i in 0..<(length + 4096) {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            p[i] = Float(Int32(bitPattern: seed)) / Float(Int32.max) * 0.25
        }
        return p
    }()
    static let callback: AURenderCallback = { _, _, timeStamp, _, n, ioData in
        let offset = Int(timeStamp.pointee.mSampleTime) & (length - 1)
        for (c, b) in UnsafeMutableAudioBufferListPointer(ioData!).enumerated() {
            b.mData!.assumingMemoryBound(to: Float.self).update(from: signal + offset + c * 7, count: Int(n))
        }
        return noErr
    }
}

func newUnit(_ type: OSType, _ subtype: OSType) -> AudioUnit {
    var d = AudioComponentDescription(componentType: type, componentSubType: subtype, componentManufacturer: kAudioUnitManufacturer_Apple,
                                      componentFlags: 0, componentFlagsMask: 0)
    guard let component = AudioComponentFindNext(nil, &d) else { fatalError("no unit \(subtype)") }
    var unit: AudioUnit?
    check(AudioComponentInstanceNew(component, &unit), "new")
    return unit!
}

let format = OCAFormat.canonical(sampleRate: rate, channels: 2)
let formatSize = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
let list = AudioBufferList.allocate(maximumBuffers: 2)
let memory = UnsafeMutablePointer<Float>.allocate(capacity: 2 * frames)

/// Renders `slices` slices from `unit`, returning seconds.
@MainActor func renderSlices(_ unit: AudioUnit, _ slices: Int) -> Double {
    var ts = AudioTimeStamp()
    ts.mFlags = .sampleTimeValid
    return time {
        for _ in 0..<slices {
            for c in 0..<2 {
                list[c] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(frames * 4), mData: UnsafeMutableRawPointer(memory + c * frames))
            }
            var flags = AudioUnitRenderActionFlags()
            check(AudioUnitRender(unit, &flags, &ts, 0, UInt32(frames), list.unsafeMutablePointer), "render")
            ts.mSampleTime += Double(frames)
        }
    }
}

print("Effects, stereo 48 kHz noise, 512-frame slices (10 s of audio per run, median of 5):")
struct EffectCase {
    var name: String
    var subtype: OSType
    var parameters: [(AudioUnitParameterID, Float)] = []
    var bands: UInt32? = nil
}
var nBandParameters: [(AudioUnitParameterID, Float)] = []
for b in 0..<8 {
    nBandParameters.append((kAUNBandEQParam_BypassBand + UInt32(b), 0))
    nBandParameters.append((kAUNBandEQParam_Gain + UInt32(b), 3))
}
var graphicParameters: [(AudioUnitParameterID, Float)] = [(kGraphicEQParam_NumberOfBands, 31)]
for b in 0..<31 { graphicParameters.append((AudioUnitParameterID(b), 2)) }
let effects: [EffectCase] = [
    EffectCase(name: "AULowpass", subtype: kAudioUnitSubType_LowPassFilter, parameters: [(kLowPassParam_CutoffFrequency, 2000)]),
    EffectCase(name: "AUHipass", subtype: kAudioUnitSubType_HighPassFilter, parameters: [(kHipassParam_CutoffFrequency, 200)]),
    EffectCase(name: "AUBandpass", subtype: kAudioUnitSubType_BandPassFilter),
    EffectCase(name: "AUHighShelfFilter", subtype: kAudioUnitSubType_HighShelfFilter, parameters: [(kHighShelfParam_Gain, 6)]),
    EffectCase(name: "AULowShelfFilter", subtype: kAudioUnitSubType_LowShelfFilter, parameters: [(kAULowShelfParam_Gain, 6)]),
    EffectCase(name: "AUParametricEQ", subtype: kAudioUnitSubType_ParametricEQ, parameters: [(kParametricEQParam_Gain, 6)]),
    EffectCase(name: "AUNBandEQ (8 bands)", subtype: kAudioUnitSubType_NBandEQ, parameters: nBandParameters, bands: 8),
    EffectCase(name: "AUGraphicEQ (31 bands)", subtype: kAudioUnitSubType_GraphicEQ, parameters: graphicParameters),
    EffectCase(name: "AUReverb2", subtype: kAudioUnitSubType_Reverb2),
    EffectCase(name: "AUMatrixReverb", subtype: kAudioUnitSubType_MatrixReverb),
    EffectCase(name: "AUDelay", subtype: kAudioUnitSubType_Delay),
    EffectCase(name: "AUPeakLimiter", subtype: kAudioUnitSubType_PeakLimiter),
    EffectCase(name: "AUDynamicsProcessor", subtype: kAudioUnitSubType_DynamicsProcessor),
    EffectCase(name: "AUMultibandCompressor", subtype: kAudioUnitSubType_MultiBandCompressor),
    EffectCase(name: "AUDistortion", subtype: kAudioUnitSubType_Distortion),
]
let slices = Int(10 * rate) / frames
for effect in effects {
    let (name, subtype, parameters, bands) = (effect.name, effect.subtype, effect.parameters, effect.bands)
    var d = AudioComponentDescription(componentType: kAudioUnitType_Effect, componentSubType: subtype,
                                      componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
    let label = name.padding(toLength: 24, withPad: " ", startingAt: 0)
    guard AudioComponentFindNext(nil, &d) != nil else { print("  \(label) not built yet"); continue }
    let unit = newUnit(kAudioUnitType_Effect, subtype)
    var f = format
    check(AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &f, formatSize), "format")
    check(AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &f, formatSize), "format")
    if var bands { check(AudioUnitSetProperty(unit, kAUNBandEQProperty_NumberOfBands, kAudioUnitScope_Global, 0, &bands, 4), "bands") }
    var cb = AURenderCallbackStruct(inputProc: Noise.callback, inputProcRefCon: nil)
    check(AudioUnitSetProperty(unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &cb,
                               UInt32(MemoryLayout<AURenderCallbackStruct>.size)), "callback")
    check(AudioUnitInitialize(unit), "initialize \(name)")
    for (id, v) in parameters { check(AudioUnitSetParameter(unit, id, kAudioUnitScope_Global, 0, v, 0), "parameter") }
    let seconds = renderSlices(unit, slices)
    print("  \(label)" + String(format: " %8.0fx real time", 10 / seconds))
    AudioComponentInstanceDispose(unit)
}

// MARK: Biquad kernel against C

let n = 1 << 20
let input = UnsafeMutablePointer<Float>.allocate(capacity: n)
for i in 0..<n { input[i] = Noise.signal[i & (Noise.length - 1)] }
let output = UnsafeMutablePointer<Float>.allocate(capacity: n)
let k = BiquadCoefficients.peaking(frequency: 1000, q: 1, gainDB: 6, sampleRate: rate)
var coefficients = [k.b0, k.b1, k.b2, k.a1, k.a2]
var state = BiquadState()
var cState = [0.0, 0.0]
let ours = time { for start in stride(from: 0, to: n, by: frames) { BiquadKernels.apply(input + start, output + start, count: frames, k, &state) } }
let peer = time {
    coefficients.withUnsafeBufferPointer { kp in cState.withUnsafeMutableBufferPointer { zp in
        for start in stride(from: 0, to: n, by: frames) { c_biquad(input + start, output + start, Int32(frames), kp.baseAddress!, zp.baseAddress!) }
    } }
}
let audioSeconds = Double(n) / rate
print("")
print("Biquad section, mono, 512-sample blocks (\(n) samples):")
print(String(format: "  AudioDSP BiquadKernels  %8.0fx real time (%.2f ns/sample)", audioSeconds / ours, ours / Double(n) * 1e9))
print(String(format: "  plain C loop            %8.0fx real time (%.2f ns/sample)", audioSeconds / peer, peer / Double(n) * 1e9))
print(String(format: "  ratio (ours / C)        %8.2f", peer / ours))
print(String(format: "summary: Biquad section vs a C loop | %.2fx | -", peer / ours))

// MARK: EQ cascade against C

// The iPod EQ's "Rock" curve: ten sections, none of them the identity.
let rock = GraphicEQDesign.sections(bandGains: [5, 4, 3, 1.5, -0.5, -1, 0.5, 2.5, 3.5, 4.5], sampleRate: rate)
var rockStates = [BiquadState](repeating: BiquadState(), count: rock.count)
var rockCoefficients = rock.flatMap { [$0.b0, $0.b1, $0.b2, $0.a1, $0.a2] }
var rockC = [Double](repeating: 0, count: 2 * rock.count)
let cascade = time {
    for start in stride(from: 0, to: n, by: frames) {
        BiquadKernels.applyCascade(input + start, output + start, count: frames, sections: rock, states: &rockStates, sectionCount: rock.count)
    }
}
let oneByOne = time {
    for start in stride(from: 0, to: n, by: frames) {
        var source = UnsafePointer(input + start)
        for b in rock.indices { BiquadKernels.apply(source, output + start, count: frames, rock[b], &rockStates[b]); source = UnsafePointer(output + start) }
    }
}
let cCascade = time {
    rockCoefficients.withUnsafeBufferPointer { kp in rockC.withUnsafeMutableBufferPointer { zp in
        for start in stride(from: 0, to: n, by: frames) {
            c_biquad_cascade(input + start, output + start, Int32(frames), kp.baseAddress!, zp.baseAddress!, Int32(rock.count))
        }
    } }
}
print("")
print("EQ cascade (the iPod EQ's Rock curve, 10 sections), mono, 512-sample blocks:")
print(String(format: "  AudioDSP applyCascade   %8.0fx real time (%.2f ns/sample)", audioSeconds / cascade, cascade / Double(n) * 1e9))
print(String(format: "  section after section   %8.0fx real time (%.2f ns/sample)", audioSeconds / oneByOne, oneByOne / Double(n) * 1e9))
print(String(format: "  C per-sample cascade    %8.0fx real time (%.2f ns/sample)", audioSeconds / cCascade, cCascade / Double(n) * 1e9))
print(String(format: "  ratio (ours / C)        %8.2f   (goal >= 1.0)", cCascade / cascade))
print(String(format: "summary: iPod EQ cascade (10 sections) vs C per-sample cascade | %.2fx | >= 1.0x", cCascade / cascade))

// MARK: File player against ExtAudioFile

let fileFrames = Int(rate * 60)
let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("oca-effects-bench-\(getpid()).wav")
do {
    var fileFormat = OCAFormat.linearPCM(sampleRate: rate, channels: 2, bitsPerChannel: 16, isFloat: false, interleaved: true)
    var ext: ExtAudioFileRef?
    check(ExtAudioFileCreateWithURL(url as CFURL, kAudioFileWAVEType, &fileFormat, nil, AudioFileFlags.eraseFile.rawValue, &ext), "create")
    var client = format
    check(ExtAudioFileSetProperty(ext!, kExtAudioFileProperty_ClientDataFormat, formatSize, &client), "client")
    var written = 0
    while written < fileFrames {
        for c in 0..<2 {
            list[c] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(frames * 4),
                                  mData: UnsafeMutableRawPointer(Noise.signal + ((written + c * 99) & (Noise.length - 1))))
        }
        check(ExtAudioFileWrite(ext!, UInt32(frames), list.unsafePointer), "write")
        written += frames
    }
    ExtAudioFileDispose(ext!)
}
defer { try? FileManager.default.removeItem(at: url) }

let extSeconds = time {
    var ext: ExtAudioFileRef?
    check(ExtAudioFileOpenURL(url as CFURL, &ext), "open")
    var client = format
    check(ExtAudioFileSetProperty(ext!, kExtAudioFileProperty_ClientDataFormat, formatSize, &client), "client")
    while true {
        for c in 0..<2 {
            list[c] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(frames * 4), mData: UnsafeMutableRawPointer(memory + c * frames))
        }
        var count = UInt32(frames)
        check(ExtAudioFileRead(ext!, &count, list.unsafeMutablePointer), "read")
        if count == 0 { break }
    }
    ExtAudioFileDispose(ext!)
}

let playerSeconds = time {
    var file: AudioFileID?
    check(AudioFileOpenURL(url as CFURL, .readPermission, 0, &file), "open")
    let player = newUnit(kAudioUnitType_Generator, kAudioUnitSubType_AudioFilePlayer)
    var f = format
    check(AudioUnitSetProperty(player, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &f, formatSize), "format")
    var one: UInt32 = 1
    check(AudioUnitSetProperty(player, kAudioUnitProperty_OfflineRender, kAudioUnitScope_Global, 0, &one, 4), "offline")
    check(AudioUnitInitialize(player), "initialize")
    var ids = [file!]
    check(AudioUnitSetProperty(player, kAudioUnitProperty_ScheduledFileIDs, kAudioUnitScope_Global, 0, &ids, 8), "ids")
    var ts = AudioTimeStamp()
    ts.mFlags = .sampleTimeValid
    var region = ScheduledAudioFileRegion(mTimeStamp: ts, mCompletionProc: nil, mCompletionProcUserData: nil, mAudioFile: file!,
                                          mLoopCount: 0, mStartFrame: 0, mFramesToPlay: UInt32(fileFrames))
    check(AudioUnitSetProperty(player, kAudioUnitProperty_ScheduledFileRegion, kAudioUnitScope_Global, 0, &region,
                               UInt32(MemoryLayout<ScheduledAudioFileRegion>.size)), "region")
    var prime: UInt32 = 0
    check(AudioUnitSetProperty(player, kAudioUnitProperty_ScheduledFilePrime, kAudioUnitScope_Global, 0, &prime, 4), "prime")
    var start = AudioTimeStamp()
    start.mFlags = .sampleTimeValid
    start.mSampleTime = -1
    check(AudioUnitSetProperty(player, kAudioUnitProperty_ScheduleStartTimeStamp, kAudioUnitScope_Global, 0, &start,
                               UInt32(MemoryLayout<AudioTimeStamp>.size)), "start")
    var rts = AudioTimeStamp()
    rts.mFlags = .sampleTimeValid
    for _ in 0..<(fileFrames / frames) {
        for c in 0..<2 {
            list[c] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(frames * 4), mData: UnsafeMutableRawPointer(memory + c * frames))
        }
        var flags = AudioUnitRenderActionFlags()
        check(AudioUnitRender(player, &flags, &rts, 0, UInt32(frames), list.unsafeMutablePointer), "render")
        rts.mSampleTime += Double(frames)
    }
    AudioComponentInstanceDispose(player)
    AudioFileClose(file!)
}
print("")
print("A 60 s 16-bit stereo 48 kHz WAV to Float32 non-interleaved, 512-frame pieces:")
print(String(format: "  AUAudioFilePlayer (offline)  %8.0fx real time", 60 / playerSeconds))
print(String(format: "  ExtAudioFileRead             %8.0fx real time", 60 / extSeconds))
print(String(format: "  ratio (player / ExtAudioFile) %7.2f", extSeconds / playerSeconds))
