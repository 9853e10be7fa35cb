// OpenAL mixing speed: our OpenAL (AL state on AUSpatialMixer) beside openal-soft (Debian's libopenal1, loaded with
// dlopen so that its C symbols never meet ours), on the same scene through each one's ALC_SOFT_loopback device:
// 32 and 256 looping mono sources (441 Hz tones) spread on a circle around the listener, moving a little every
// slice, rendered as stereo Float32 at 44.1 kHz in 1,024-frame slices for 10 s; equal-power panning and HRTF
// (ALC_HRTF_SOFT on both; ours convolves MIT KEMAR's responses, openal-soft its built-in set). Reported: CPU seconds
// (median of 3), x real time, and the ratio ours / openal-soft.
import Foundation
import OpenAL

let rate = 44100
let seconds = 10.0
let slice = 1024
let runs = 3

func cpuSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

func median(_ x: [Double]) -> Double { x.sorted()[x.count / 2] }

/// One OpenAL implementation's entry points: ours (the Swift module) or openal-soft's (dlsym).
struct ALAPI {
    var loopbackOpen: (UnsafePointer<ALCchar>?) -> OpaquePointer?
    var createContext: (OpaquePointer?, UnsafePointer<ALCint>?) -> OpaquePointer?
    var makeCurrent: (OpaquePointer?) -> ALCboolean
    var destroyContext: (OpaquePointer?) -> Void
    var closeDevice: (OpaquePointer?) -> ALCboolean
    var render: (OpaquePointer?, UnsafeMutableRawPointer?, ALCsizei) -> Void
    var genBuffers: (ALsizei, UnsafeMutablePointer<ALuint>?) -> Void
    var bufferData: (ALuint, ALenum, UnsafeRawPointer?, ALsizei, ALsizei) -> Void
    var genSources: (ALsizei, UnsafeMutablePointer<ALuint>?) -> Void
    var deleteSources: (ALsizei, UnsafePointer<ALuint>?) -> Void
    var deleteBuffers: (ALsizei, UnsafePointer<ALuint>?) -> Void
    var sourcei: (ALuint, ALenum, ALint) -> Void
    var source3f: (ALuint, ALenum, ALfloat, ALfloat, ALfloat) -> Void
    var sourcePlay: (ALuint) -> Void
    var getError: () -> ALenum

    static var ours: ALAPI { ALAPI(
        loopbackOpen: { alcLoopbackOpenDeviceSOFT($0) }, createContext: { alcCreateContext($0, $1) },
        makeCurrent: { alcMakeContextCurrent($0) }, destroyContext: { alcDestroyContext($0) }, closeDevice: { alcCloseDevice($0) },
        render: { alcRenderSamplesSOFT($0, $1, $2) }, genBuffers: { alGenBuffers($0, $1) },
        bufferData: { alBufferData($0, $1, $2, $3, $4) }, genSources: { alGenSources($0, $1) },
        deleteSources: { alDeleteSources($0, $1) }, deleteBuffers: { alDeleteBuffers($0, $1) },
        sourcei: { alSourcei($0, $1, $2) }, source3f: { alSource3f($0, $1, $2, $3, $4) }, sourcePlay: { alSourcePlay($0) },
        getError: { alGetError() }) }

    static func openALSoft() -> ALAPI? {
        guard let lib = dlopen("libopenal.so.1", RTLD_NOW | RTLD_LOCAL) else { return nil }
        func f<T>(_ name: String, _: T.Type) -> T { unsafeBitCast(dlsym(lib, name)!, to: T.self) }
        typealias GetProc = @convention(c) (OpaquePointer?, UnsafePointer<ALCchar>?) -> UnsafeMutableRawPointer?
        let getProc = f("alcGetProcAddress", GetProc.self)
        func ext<T>(_ name: String, _: T.Type) -> T { unsafeBitCast(getProc(nil, name)!, to: T.self) }
        let open = ext("alcLoopbackOpenDeviceSOFT", (@convention(c) (UnsafePointer<ALCchar>?) -> OpaquePointer?).self)
        let render = ext("alcRenderSamplesSOFT", (@convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, ALCsizei) -> Void).self)
        let create = f("alcCreateContext", (@convention(c) (OpaquePointer?, UnsafePointer<ALCint>?) -> OpaquePointer?).self)
        let current = f("alcMakeContextCurrent", (@convention(c) (OpaquePointer?) -> ALCboolean).self)
        let destroy = f("alcDestroyContext", (@convention(c) (OpaquePointer?) -> Void).self)
        let close = f("alcCloseDevice", (@convention(c) (OpaquePointer?) -> ALCboolean).self)
        let genBuffers = f("alGenBuffers", (@convention(c) (ALsizei, UnsafeMutablePointer<ALuint>?) -> Void).self)
        let bufferData = f("alBufferData", (@convention(c) (ALuint, ALenum, UnsafeRawPointer?, ALsizei, ALsizei) -> Void).self)
        let genSources = f("alGenSources", (@convention(c) (ALsizei, UnsafeMutablePointer<ALuint>?) -> Void).self)
        let deleteSources = f("alDeleteSources", (@convention(c) (ALsizei, UnsafePointer<ALuint>?) -> Void).self)
        let deleteBuffers = f("alDeleteBuffers", (@convention(c) (ALsizei, UnsafePointer<ALuint>?) -> Void).self)
        let sourcei = f("alSourcei", (@convention(c) (ALuint, ALenum, ALint) -> Void).self)
        let source3f = f("alSource3f", (@convention(c) (ALuint, ALenum, ALfloat, ALfloat, ALfloat) -> Void).self)
        let play = f("alSourcePlay", (@convention(c) (ALuint) -> Void).self)
        let error = f("alGetError", (@convention(c) () -> ALenum).self)
        return ALAPI(loopbackOpen: { open($0) }, createContext: { create($0, $1) }, makeCurrent: { current($0) },
                     destroyContext: { destroy($0) }, closeDevice: { close($0) }, render: { render($0, $1, $2) },
                     genBuffers: { genBuffers($0, $1) }, bufferData: { bufferData($0, $1, $2, $3, $4) },
                     genSources: { genSources($0, $1) }, deleteSources: { deleteSources($0, $1) },
                     deleteBuffers: { deleteBuffers($0, $1) }, sourcei: { sourcei($0, $1, $2) },
                     source3f: { source3f($0, $1, $2, $3, $4) }, sourcePlay: { play($0) }, getError: { error() })
    }
}

/// CPU seconds to render the scene once, or nil if the implementation refused it.
func run(_ al: ALAPI, sources count: Int, hrtf: Bool) -> Double? {
    guard let device = al.loopbackOpen(nil) else { return nil }
    let attributes: [ALCint] = [ALC_FREQUENCY, ALCint(rate), ALC_FORMAT_CHANNELS_SOFT, ALC_STEREO_SOFT, ALC_FORMAT_TYPE_SOFT, ALC_FLOAT_SOFT,
                                ALC_MONO_SOURCES, ALCint(count), ALC_STEREO_SOURCES, 1, ALC_HRTF_SOFT, hrtf ? ALC_TRUE : ALC_FALSE, 0]
    guard let context = al.createContext(device, attributes) else { _ = al.closeDevice(device); return nil }
    _ = al.makeCurrent(context)
    var buffer: ALuint = 0
    al.genBuffers(1, &buffer)
    let tone = (0..<rate).map { Float(0.1 * sin(2 * Double.pi * 441 * Double($0) / Double(rate))) }
    tone.withUnsafeBytes { al.bufferData(buffer, AL_FORMAT_MONO_FLOAT32, $0.baseAddress, ALsizei($0.count), ALsizei(rate)) }
    var sources = [ALuint](repeating: 0, count: count)
    al.genSources(ALsizei(count), &sources)
    for (i, s) in sources.enumerated() {
        al.sourcei(s, AL_BUFFER, ALint(bitPattern: buffer))
        al.sourcei(s, AL_LOOPING, AL_TRUE)
        let a = 2 * Double.pi * Double(i) / Double(count)
        al.source3f(s, AL_POSITION, Float(3 * sin(a)), 0, Float(-3 * cos(a)))
        al.sourcePlay(s)
    }
    guard al.getError() == AL_NO_ERROR else { return nil }
    let output = UnsafeMutablePointer<Float>.allocate(capacity: 2 * slice)
    defer { output.deallocate() }
    let slices = Int(seconds * Double(rate)) / slice
    let start = cpuSeconds()
    for n in 0..<slices {
        // Every slice a quarter of the sources move a little around the circle (as game code would).
        for i in stride(from: n % 4, to: count, by: 4) {
            let a = 2 * Double.pi * Double(i) / Double(count) + Double(n) * 0.01
            al.source3f(sources[i], AL_POSITION, Float(3 * sin(a)), 0, Float(-3 * cos(a)))
        }
        al.render(device, output, ALCsizei(slice))
    }
    let elapsed = cpuSeconds() - start
    al.deleteSources(ALsizei(count), sources)
    al.deleteBuffers(1, &buffer)
    _ = al.makeCurrent(nil)
    al.destroyContext(context)
    _ = al.closeDevice(device)
    return elapsed
}

guard let soft = ALAPI.openALSoft() else {
    print("OpenALBench: libopenal.so.1 (Debian's libopenal1, openal-soft) is missing")
    exit(1)
}
print("OpenAL mixing, stereo Float32 at 44.1 kHz, \(Int(seconds)) s in \(slice)-frame slices, sources moving; CPU seconds (median of \(runs))")
print("sources  rendering       ours s   x real time   openal-soft s   x real time   ours/openal-soft (speed)")
for count in [32, 256] {
    for hrtf in [false, true] {
        let ours = (0..<runs).compactMap { _ in run(.ours, sources: count, hrtf: hrtf) }
        let theirs = (0..<runs).compactMap { _ in run(soft, sources: count, hrtf: hrtf) }
        guard ours.count == runs, theirs.count == runs else {
            print(String(format: "%7d  %-14@  refused (ours %d, openal-soft %d runs)", count, hrtf ? "HRTF" : "equal-power", ours.count, theirs.count))
            continue
        }
        let o = median(ours), t = median(theirs)
        print(String(format: "%7d  %-14@  %7.3f  %11.1f   %13.3f  %11.1f   %.2f", count, (hrtf ? "HRTF" : "equal-power") as NSString,
                     o, seconds / o, t, seconds / t, t / o))
        print(String(format: "summary: OpenAL %d sources %@ vs openal-soft | %.2fx | -", count, (hrtf ? "HRTF" : "equal-power") as NSString, t / o))
    }
}
