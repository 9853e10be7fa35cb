// swift-tools-version:6.0
// Benchmarks for OpenCoreAudio, in their own package so the main build stays lean.
// Run all: Benchmarks/run.sh (installs the peers' Debian packages, then runs every benchmark)
import PackageDescription

let package = Package(
    name: "OpenCoreAudioBenchmarks",
    dependencies: [.package(name: "OpenCoreAudio", path: "..")],
    targets: [
        // The peer for render dispatch: the same chain of pass-through units in C (function pointers, same checks).
        .target(name: "CRenderChain", cSettings: [.unsafeFlags(["-O3"])]),
        .executableTarget(
            name: "RenderOverhead",
            dependencies: [.product(name: "AudioToolbox", package: "OpenCoreAudio"), "CRenderChain"]),
        // Peers measured in the same run (Debian: libsoxr-dev, libsamplerate0-dev; run.sh installs them).
        .systemLibrary(name: "CSoxr", pkgConfig: "soxr", providers: [.apt(["libsoxr-dev"])]),
        .systemLibrary(name: "CSampleRate", pkgConfig: "samplerate", providers: [.apt(["libsamplerate0-dev"])]),
        .systemLibrary(name: "CSndfile", pkgConfig: "sndfile", providers: [.apt(["libsndfile1-dev"])]),
        .executableTarget(
            name: "FileIOBench",
            dependencies: [.product(name: "AudioToolbox", package: "OpenCoreAudio"), "CSndfile"]),
        .executableTarget(
            name: "ResamplerBench",
            dependencies: [.product(name: "AudioDSP", package: "OpenCoreAudio"), "CSoxr", "CSampleRate"]),
        .executableTarget(
            name: "MixerBench",
            dependencies: [.product(name: "AudioToolbox", package: "OpenCoreAudio")]),
        // Time stretching speed against SoundTouch (Debian: libsoundtouch-dev; its C API, libSoundTouchDll).
        .systemLibrary(name: "CSoundTouch", providers: [.apt(["libsoundtouch-dev"])]),
        .executableTarget(
            name: "TimeStretchBench",
            dependencies: [.product(name: "AudioDSP", package: "OpenCoreAudio"), "CSoundTouch"]),
        // The time stretcher on raw Float32 from stdin to stdout, for scripts/timepitch-quality.sh.
        .executableTarget(
            name: "timestretch",
            dependencies: [.product(name: "AudioDSP", package: "OpenCoreAudio")]),
        // Round-trip latency through RemoteIO on the PulseAudio server, per device buffer size.
        .executableTarget(
            name: "RoundTripLatency",
            dependencies: [.product(name: "AudioToolbox", package: "OpenCoreAudio")]),
        // Audio Queue offline render against ExtAudioFile reading the same file (PCM, and AAC through AudioToolboxAAC).
        .executableTarget(
            name: "AudioQueueBench",
            dependencies: [.product(name: "AudioToolbox", package: "OpenCoreAudio"), .product(name: "AudioToolboxAAC", package: "OpenCoreAudio")]),
        // The libavcodec peer for CodecBench: whole-file decoding (libavformat + libavcodec) to PCM in memory and
        // in-memory encoding (Debian: libavformat-dev, libavcodec-dev; run.sh installs them).
        .target(name: "CAVBench", cSettings: [.unsafeFlags(["-O2"])],
                linkerSettings: [.linkedLibrary("avformat"), .linkedLibrary("avcodec"), .linkedLibrary("avutil")]),
        // Codec decode/encode for every codec we have against libavcodec (and libsndfile, and the reference tools
        // flac/opusenc/opusdec against afconvert whole-process) on the same files, in the same run.
        .executableTarget(
            name: "CodecBench",
            dependencies: [.product(name: "AudioToolbox", package: "OpenCoreAudio"), .product(name: "AudioToolboxAAC", package: "OpenCoreAudio"), "CSndfile", "CAVBench"]),
        // Effects and generators: each effect in x real time, the biquad kernel against a plain C loop, the file
        // player against ExtAudioFile reading the same file.
        .target(name: "CBiquad", cSettings: [.unsafeFlags(["-O3"])]),
        .executableTarget(
            name: "EffectsBench",
            dependencies: [.product(name: "AudioToolbox", package: "OpenCoreAudio"), .product(name: "AudioDSP", package: "OpenCoreAudio"), "CBiquad"]),
        // AVAudioEngine against the same graph built with AUGraph: 32 looping players into a mixer, and the cost per
        // node of a chain of bypassed effects.
        .executableTarget(
            name: "EngineBench",
            dependencies: [.product(name: "AVFoundation", package: "OpenCoreAudio"), .product(name: "AudioToolbox", package: "OpenCoreAudio")]),
        // The SoundFont sampler against the fluidsynth command on the same notes (Debian: fluidsynth, timgm6mb-soundfont).
        .executableTarget(
            name: "SamplerBench",
            dependencies: [.product(name: "AudioDSP", package: "OpenCoreAudio")]),
        // openal-soft is loaded with dlopen at run time (Debian's libopenal1), never linked.
        .executableTarget(
            name: "OpenALBench",
            dependencies: [.product(name: "OpenAL", package: "OpenCoreAudio")]),
        .executableTarget(
            name: "GraphRender",
            dependencies: [.product(name: "AudioToolbox", package: "OpenCoreAudio")]),
    ]
)
