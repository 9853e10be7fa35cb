// swift-tools-version:6.0
// OpenCoreAudio: Apple's Core Audio API for Linux. Modules carry Apple's names so that client code
// written for Apple's platforms (`import AudioToolbox`) builds here unchanged.
import PackageDescription

// On Apple's platforms the real frameworks carry these module names: there the package builds only
// its tools and tests against Apple's AudioToolbox (the tests double as a parity suite, except those
// that reach into our engine with @testable).
#if os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
let isApplePlatform = true
#else
let isApplePlatform = false
#endif

let package = Package(
    name: "OpenCoreAudio",
    products: isApplePlatform ? [] : [
        .library(name: "CoreAudioTypes", targets: ["CoreAudioTypes"]),
        .library(name: "CoreAudio", targets: ["CoreAudio"]),
        .library(name: "AudioToolbox", targets: ["AudioToolbox"]),
        .library(name: "AudioUnit", targets: ["AudioUnit"]),
        .library(name: "AVFAudio", targets: ["AVFAudio"]),
        .library(name: "AVFoundation", targets: ["AVFoundation"]),
        .library(name: "ApplicationServices", targets: ["ApplicationServices"]),
        .library(name: "AudioToolboxAAC", targets: ["AudioToolboxAAC"]),
        .library(name: "AudioDSP", targets: ["AudioDSP"]),
        .library(name: "OpenAL", targets: ["OpenAL"]),
        .library(name: "CoreMIDI", targets: ["CoreMIDI"]),
        .executable(name: "sine-demo", targets: ["sine-demo"]),
        .executable(name: "afinfo", targets: ["afinfo"]),
        .executable(name: "afconvert", targets: ["afconvert"]),
        .executable(name: "afplay", targets: ["afplay"]),
        .executable(name: "afrecord", targets: ["afrecord"]),
        .executable(name: "auval", targets: ["auval"]),
        .executable(name: "midiplay", targets: ["midiplay"]),
        .executable(name: "qa1717-demo", targets: ["qa1717-demo"]),
        // Not API: what the fuzz targets in FuzzTesting/ and the corpus replay tests run on hostile bytes.
        .library(name: "_FileExercises", targets: ["FileExercises"]),
    ],
    targets: [
        // Apple-identical C declarations (structs, callback types, CF_ENUM/CF_OPTIONS constants).
        .target(name: "CCoreAudioTypes"),
        .target(name: "CAudioToolbox", dependencies: ["CCoreAudioTypes"]),
        .target(name: "CCoreAudio", dependencies: ["CCoreAudioTypes"]),
        // libasound: the HAL's device backend (reaches PulseAudio and PipeWire through their ALSA plugins).
        .systemLibrary(name: "CALSA", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]),
        // speexdsp: VoiceProcessingIO's echo canceller and automatic gain control.
        .systemLibrary(name: "CSpeexDSP", pkgConfig: "speexdsp", providers: [.apt(["libspeexdsp-dev"])]),
        // libmpg123: the MP3 decoder (Apple's AudioConverter decodes MP3 and cannot encode it; neither can we).
        .systemLibrary(name: "CMPG123", pkgConfig: "libmpg123", providers: [.apt(["libmpg123-dev"])]),
        // libopus: the Opus codec, both ways.
        .systemLibrary(name: "COpus", pkgConfig: "opus", providers: [.apt(["libopus-dev"])]),
        // opencore-amr: the AMR narrowband and wideband decoders (Apple's converter has no AMR encoder; neither do we).
        .systemLibrary(name: "CAMR", pkgConfig: "opencore-amrnb", providers: [.apt(["libopencore-amrnb-dev", "libopencore-amrwb-dev"])]),
        // libespeak-ng: the speech synthesizer behind AUSpeechSynthesis and the Speech Synthesis Manager calls.
        // libjack (jackd2): CoreMIDI's JACK MIDI backend, with the real-time half of the bridge in its shim header.
        .systemLibrary(name: "CJack", pkgConfig: "jack", providers: [.apt(["libjack-jackd2-dev"])]),
        .systemLibrary(name: "CEspeakNG", pkgConfig: "espeak-ng", providers: [.apt(["libespeak-ng-dev"])]),
        .systemLibrary(name: "CMySofa", pkgConfig: "libmysofa", providers: [.apt(["libmysofa-dev"])]),
        // libavcodec (FFmpeg): AAC, in the AudioToolboxAAC product only, so the core links no FFmpeg. Its headers
        // (libavcodec-dev) and a loader: the libraries are opened with dlopen when the first AAC codec is made, not linked,
        // so a tool's start-up does not load their ~100 dependencies.
        .target(name: "CAVCodec", linkerSettings: [.linkedLibrary("dl")]),
        // Real-time helpers: raw atomics, clock, RealtimeSanitizer markers.
        .target(name: "COCASupport"),

        // swift-corelibs' CoreFoundation run loop behind opaque pointers (its CF names would clash with ours).
        .target(name: "OCARunLoop"),
        .target(name: "CoreAudioTypes", dependencies: ["CCoreAudioTypes", "OCARunLoop"]),
        // The one property model (rows, tables, listener lists) shared by the HAL and AudioToolbox's objects: not API.
        .target(name: "OCAProperty", dependencies: ["CoreAudioTypes"]),
        // espeak-ng as a Swift engine (one process-wide instance, serialised): not API, AudioToolbox's unit uses it.
        .target(name: "OCASpeech", dependencies: ["CEspeakNG"]),
        // The sample arithmetic is optimised in debug builds too: its loops (HRTF convolution in SIMD lanes, the
        // sampler, resampler and time-stretch kernels) are what every test spends its time in, and unoptimised SIMD
        // code runs about ten times slower than scalar code.
        .target(name: "AudioDSP", dependencies: ["CDSPKernels"], swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        // The resampler's dot products in AVX2 + FMA, chosen at run time (the build targets baseline x86-64).
        .target(name: "CDSPKernels", cSettings: [.unsafeFlags(["-O2"], .when(configuration: .debug))]),
        // The HAL (AudioObject*, AudioDevice*) on ALSA.
        .target(name: "CoreAudio", dependencies: ["CoreAudioTypes", "CCoreAudio", "CALSA", "COCASupport", "OCAProperty"]),
        .target(
            name: "AudioToolbox",
            dependencies: ["CoreAudioTypes", "CoreAudio", "CoreMIDI", "CAudioToolbox", "AudioDSP", "COCASupport", "CSpeexDSP", "CMPG123", "COpus", "CAMR",
                           "OCARunLoop", "OCASpeech", "CMySofa", "OCAProperty"],
            // CAudioToolbox's module map names its Clang module AudioToolbox, with a submodule per header
            // (AudioToolbox.AudioFile, ...): this Swift module is its overlay, as Apple's is. The flag makes
            // the package usable only as a root or local (path) dependency, which is how it is used.
            swiftSettings: [.unsafeFlags(["-import-underlying-module"])]
        ),
        .target(name: "AudioUnit", dependencies: ["AudioToolbox"]),
        // OpenAL 1.1's C declarations (al.h, alc.h) as a Clang module named OpenAL; the Swift target OpenAL is its
        // overlay (as AudioToolbox is CAudioToolbox's) and implements the API on AUSpatialMixer.
        .target(name: "COpenAL"),
        // Core MIDI's C declarations (MIDIServices.h, MIDIMessages.h) as a Clang module named CoreMIDI; the Swift
        // target CoreMIDI is its overlay and implements the API in process (virtual endpoints; JACK MIDI and ALSA
        // sequencer ports as devices when a server or sequencer is there).
        .target(name: "CCoreMIDI", dependencies: ["CCoreAudioTypes"]),
        .target(name: "CoreMIDI", dependencies: ["CoreAudio", "CoreAudioTypes", "CCoreMIDI", "CJack", "CALSA"],
                swiftSettings: [.unsafeFlags(["-import-underlying-module"])]),
        .target(name: "OpenAL", dependencies: ["AudioToolbox", "COpenAL"],
                swiftSettings: [.unsafeFlags(["-import-underlying-module"])]),
        // AAC (decode LC/HE/HE v2, encode LC) through libavcodec; registers itself when linked (a constructor in the
        // C target calls in before main).
        .target(name: "CAudioToolboxAACRegistration"),
        .target(name: "AudioToolboxAAC", dependencies: ["AudioToolbox", "CAVCodec", "CAudioToolboxAACRegistration"]),
        // The Speech Synthesis Manager's C API (NewSpeechChannel, SpeakCFString, ...) as Apple's ApplicationServices
        // module carries it, with the speech unit's constants; speaks through AUSpeechSynthesis.
        .target(name: "CApplicationServices", dependencies: ["CCoreAudioTypes"]),
        .target(name: "ApplicationServices", dependencies: ["AudioToolbox", "CApplicationServices"]),
        // AVAudioEngine and its nodes, AVAudioFile, AVAudioPCMBuffer, AVAudioConverter: Apple's classes on the units and
        // services above (public API only, as Apple's AVFAudio sits on AudioToolbox).
        .target(name: "AVFAudio", dependencies: ["AudioToolbox", "CoreAudio", "CoreAudioTypes", "OCASpeech"]),
        // The umbrella most client code imports: re-exports AVFAudio, AudioToolbox, CoreAudio and Foundation.
        .target(name: "AVFoundation", dependencies: ["AVFAudio", "AudioToolbox", "CoreAudio", "CoreAudioTypes", "CoreMIDI"]),

        .executableTarget(name: "sine-demo", dependencies: ["AudioToolbox", "AudioDSP"], path: "Sources/Tools/sine-demo"),
        // What the tools share (format and error text in Apple's style); not a product.
        .target(name: "ToolSupport", dependencies: ["AudioToolbox", "AudioDSP"], path: "Sources/Tools/ToolSupport"),
        .executableTarget(name: "afinfo", dependencies: ["AudioToolbox", "AudioToolboxAAC", "ToolSupport"], path: "Sources/Tools/afinfo"),
        .executableTarget(name: "afconvert", dependencies: ["AudioToolbox", "AudioToolboxAAC", "ToolSupport"], path: "Sources/Tools/afconvert"),
        .executableTarget(name: "afplay", dependencies: ["AudioToolbox", "AudioToolboxAAC", "ToolSupport"], path: "Sources/Tools/afplay"),
        .executableTarget(name: "afrecord", dependencies: ["AudioToolbox", "AudioToolboxAAC", "ToolSupport"], path: "Sources/Tools/afrecord"),
        // Technical Q&A QA1717's AUiPodTime graph, rendered offline to a WAV file.
        .executableTarget(name: "midiplay", dependencies: ["AudioToolbox", "ToolSupport"], path: "Sources/Tools/midiplay"),
        .executableTarget(name: "auval", dependencies: ["AudioToolbox", "AudioToolboxAAC", "ToolSupport"], path: "Sources/Tools/auval"),
        .executableTarget(name: "qa1717-demo", dependencies: ["AudioToolbox", "AudioToolboxAAC"], path: "Sources/Tools/qa1717-demo"),

        // Test-only: counts heap allocations made by one thread (overrides malloc in the test binary).
        .target(name: "AllocationCounter", path: "Tests/AllocationCounter"),
        // Test-only: what several test targets share (a seeded generator, whole-file ExtAudioFile reading and writing).
        .target(name: "SharedTestSupport", dependencies: ["AudioToolbox"], path: "Tests/SharedTestSupport"),
        .testTarget(name: "CoreAudioTypesTests", dependencies: ["CoreAudioTypes"]),
        .testTarget(name: "AudioDSPTests", dependencies: ["AudioDSP", "AllocationCounter", "SharedTestSupport"]),
        // Test-only: the PulseAudio server the device tests play to and record from.
        .target(name: "DeviceTestSupport", path: "Tests/DeviceTestSupport"),
        .testTarget(name: "CoreAudioTests", dependencies: ["CoreAudio", "DeviceTestSupport", "OCAProperty"]),
        // The native codecs' bitstream cores (FLAC, ALAC) against the reference tools.
        .testTarget(name: "CodecTests", dependencies: ["AudioToolbox", "SharedTestSupport"]),
        .testTarget(name: "AudioToolboxTests", dependencies: ["AudioToolbox", "AudioUnit", "ApplicationServices", "AudioToolboxAAC", "AllocationCounter", "COCASupport",
                                                           "DeviceTestSupport", "CMySofa", "SharedTestSupport"]),
        // Apple-style client code only (no @testable, no helpers of ours): the Apple-parity set (see the end).
        .testTarget(name: "ClientFidelityTests", dependencies: ["AVFoundation", "AudioToolbox", "CoreAudio"]),
        // Test-only: the fuzz targets' exercises (FuzzTesting/ uses them through the _FileExercises product).
        .target(name: "FileExercises", dependencies: ["AudioToolbox", "ToolSupport"], path: "Tests/FileExercises"),
        // The speech engine against the espeak-ng tool; speech-say runs it in a fresh process.
        .executableTarget(name: "speech-say", dependencies: ["OCASpeech"], path: "Tests/SpeechSay"),
        .testTarget(name: "SpeechEngineTests", dependencies: ["OCASpeech", "speech-say"]),
        .testTarget(name: "AVFAudioTests", dependencies: ["AVFoundation", "AudioToolboxAAC", "DeviceTestSupport", "AllocationCounter", "COCASupport"]),
        .testTarget(name: "CoreMIDITests", dependencies: ["CoreMIDI"]),
        .testTarget(name: "OpenALTests", dependencies: ["OpenAL", "AudioToolbox", "DeviceTestSupport", "AllocationCounter"]),
        .testTarget(name: "ToolsTests", dependencies: ["AudioToolbox", "AudioToolboxAAC", "DeviceTestSupport", "FileExercises", "ToolSupport", "SharedTestSupport"]),
    ]
)

// Apple-parity mode (`OCA_APPLE_PARITY=1`, run by scripts/apple-parity.sh). Tests/ClientFidelityTests holds
// the tests written against Apple's API alone (no @testable, no helper of ours): they build with
// APPLE_PARITY defined. On a Mac the package is then that one target with no dependency, so its
// `import AudioToolbox` is Apple's framework; elsewhere it builds and runs against our modules.
if Context.environment["OCA_APPLE_PARITY"] != nil {
    let parity = Target.testTarget(name: "ClientFidelityTests", dependencies: isApplePlatform ? [] : ["AVFoundation", "AudioToolbox", "CoreAudio"],
                                   swiftSettings: [.define("APPLE_PARITY")])
    if isApplePlatform {
        package.products = []
        package.targets = [parity]
    } else {
        package.targets.removeAll { $0.name == "ClientFidelityTests" }
        package.targets.append(parity)
    }
}
