// Round-trip latency through the I/O units on the PulseAudio server: RemoteIO in duplex plays a click every
// half second and hears it back on its input, which for this run is the output sink's monitor (the
// speaker heard by the microphone, with no acoustic path). For each device buffer size it reports the
// click's round trip in frames and milliseconds and whether the run was stable (no xrun, every click back
// at the same latency), then the smallest stable size. Needs scripts/pulse-server.sh (run.sh starts it).
import AudioToolbox
import Foundation
import Synchronization

func check(_ status: OSStatus, _ what: String) { if status != noErr { fatalError("\(what): \(status)") } }

@discardableResult
func shell(_ args: [String]) -> Int32 {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = args
    p.standardOutput = FileHandle.nullDevice
    p.standardError = FileHandle.nullDevice
    try? p.run()
    p.waitUntilExit()
    return p.terminationStatus
}

/// The round trip as the application sees it: from writing a click into an output buffer to reading it from
/// an input buffer, by the host clock at each callback (a sample k of an n-frame buffer is placed k/rate after
/// the output callback, and was captured (n-1-k)/rate before the input callback).
final class Clicker: @unchecked Sendable {
    var unit: AudioUnit?
    let interval = 22050.0
    var emitted: [Double] = []
    var arrivals: [Double] = []
    var armed = true
    let list = AudioBufferList.allocate(maximumBuffers: 1)
    let memory = UnsafeMutablePointer<Float>.allocate(capacity: 8192)
    init() { emitted.reserveCapacity(64); arrivals.reserveCapacity(64) }

    static let input: AURenderCallback = { refCon, flags, timeStamp, _, frames, _ in
        let c = Unmanaged<Clicker>.fromOpaque(refCon).takeUnretainedValue()
        c.list[0] = AudioBuffer(mNumberChannels: 1, mDataByteSize: frames * 4, mData: UnsafeMutableRawPointer(c.memory))
        guard AudioUnitRender(c.unit!, flags, timeStamp, 1, frames, c.list.unsafeMutablePointer) == noErr else { return noErr }
        let host = Double(AudioGetCurrentHostTime())
        for k in 0..<Int(frames) {
            let v = abs(c.memory[k])
            let when = host - Double(Int(frames) - 1 - k) / 44100 * 1e9
            if c.armed && v > 0.3 { c.arrivals.append(when); c.armed = false }
            if !c.armed && when - (c.arrivals.last ?? 0) > 0.2e9 { c.armed = true }
        }
        return noErr
    }

    static let render: AURenderCallback = { refCon, _, timeStamp, _, frames, ioData in
        let c = Unmanaged<Clicker>.fromOpaque(refCon).takeUnretainedValue()
        let t = timeStamp.pointee.mSampleTime, host = Double(AudioGetCurrentHostTime())
        let out = UnsafeMutableAudioBufferListPointer(ioData!)[0].mData!.assumingMemoryBound(to: Float.self)
        for k in 0..<Int(frames) {
            let s = t + Double(k)
            let click = s >= c.interval && s.truncatingRemainder(dividingBy: c.interval) == 0
            out[k] = click ? 0.9 : 0
            if click { c.emitted.append(host + Double(k) / 44100 * 1e9) }
        }
        return noErr
    }
}

let overloads = Atomic<Int>(0)

func measure(bufferFrames: UInt32) -> (latency: [Double], xruns: Int)? {
    var address = AudioObjectPropertyAddress(mSelector: kAudioHardwarePropertyDefaultOutputDevice, mScope: kAudioObjectPropertyScopeGlobal,
                                             mElement: kAudioObjectPropertyElementMain)
    var device = AudioDeviceID(0)
    var size: UInt32 = 4
    check(AudioObjectGetPropertyData(AudioObjectID(kAudioObjectSystemObject), &address, 0, nil, &size, &device), "default device")
    var frames = bufferFrames
    address.mSelector = kAudioDevicePropertyBufferFrameSize
    guard AudioObjectSetPropertyData(device, &address, 0, nil, 4, &frames) == noErr else { return nil }
    var overload = AudioObjectPropertyAddress(mSelector: kAudioDeviceProcessorOverload, mScope: kAudioObjectPropertyScopeGlobal,
                                              mElement: kAudioObjectPropertyElementMain)
    let listener: AudioObjectPropertyListenerBlock = { _, _ in overloads.add(1, ordering: .relaxed) }
    AudioObjectAddPropertyListenerBlock(device, &overload, nil, listener)
    defer { AudioObjectRemovePropertyListenerBlock(device, &overload, nil, listener) }
    overloads.store(0, ordering: .relaxed)

    var desc = AudioComponentDescription(componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_RemoteIO,
                                         componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
    var unit: AudioUnit?
    check(AudioComponentInstanceNew(AudioComponentFindNext(nil, &desc)!, &unit), "RemoteIO")
    defer { AudioComponentInstanceDispose(unit!) }
    var one: UInt32 = 1
    check(AudioUnitSetProperty(unit!, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 1, &one, 4), "EnableIO")
    var mono = OCAFormat.canonical(sampleRate: 44100, channels: 1)
    let fsize = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
    check(AudioUnitSetProperty(unit!, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &mono, fsize), "format")
    check(AudioUnitSetProperty(unit!, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 1, &mono, fsize), "format")
    let clicker = Clicker()
    clicker.unit = unit
    var cb = AURenderCallbackStruct(inputProc: Clicker.render, inputProcRefCon: Unmanaged.passUnretained(clicker).toOpaque())
    check(AudioUnitSetProperty(unit!, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &cb,
                               UInt32(MemoryLayout<AURenderCallbackStruct>.size)), "callback")
    var inputCallback = AURenderCallbackStruct(inputProc: Clicker.input, inputProcRefCon: Unmanaged.passUnretained(clicker).toOpaque())
    check(AudioUnitSetProperty(unit!, kAudioOutputUnitProperty_SetInputCallback, kAudioUnitScope_Global, 0, &inputCallback,
                               UInt32(MemoryLayout<AURenderCallbackStruct>.size)), "input callback")
    check(AudioUnitInitialize(unit!), "initialize")
    check(AudioOutputUnitStart(unit!), "start")
    Thread.sleep(forTimeInterval: 0.5)
    overloads.store(0, ordering: .relaxed)   // count xruns once running, not while starting
    Thread.sleep(forTimeInterval: 4)
    let xruns = overloads.load(ordering: .relaxed)
    check(AudioOutputUnitStop(unit!), "stop")
    Thread.sleep(forTimeInterval: 0.2)
    // Pair each arrival with the latest click emitted before it.
    let latencies = clicker.arrivals.compactMap { a in clicker.emitted.last(where: { $0 <= a }).map { (a - $0) / 1e9 * 44100 } }
    return (latencies, xruns)
}

guard shell(["pactl", "info"]) == 0 else { print("RoundTripLatency: no PulseAudio server (run scripts/pulse-server.sh)"); exit(1) }
shell(["pactl", "set-default-source", "out.monitor"])
defer { shell(["pactl", "set-default-source", "mic.monitor"]) }

print("Round trip through RemoteIO (duplex) on PulseAudio via ALSA, output monitor as input, 44.1 kHz")
print("buffer  clicks  round trip (frames)  ms      xruns  stable")
var smallest: (UInt32, Double)?
for frames: UInt32 in [64, 128, 256, 512, 1024] {
    guard let (latencies, xruns) = measure(bufferFrames: frames) else { print(String(format: "%6d  (refused by the device)", frames)); continue }
    let median = latencies.sorted()[safe: latencies.count / 2] ?? .nan
    let spread = (latencies.max() ?? 0) - (latencies.min() ?? 0)
    // Stable: no xrun while running, every click heard, and the same latency each time (within a period).
    let stable = latencies.count >= 8 && xruns == 0 && spread <= Double(frames)
    print(String(format: "%6d  %6d  %19.0f  %6.1f  %5d  %@", frames, latencies.count, median, median / 44.1, xruns, stable ? "yes" : "no"))
    if stable && smallest == nil { smallest = (frames, median) }
}
if let (frames, latency) = smallest {
    print(String(format: "smallest stable buffer: %d frames, round trip %.0f frames = %.1f ms", frames, latency, latency / 44.1))
} else {
    print("no buffer size was stable")
}

extension Array {
    subscript(safe i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}
