// swift-tools-version:6.0
// libFuzzer targets for the parsers of hostile input: one per container (MP3 with its ID3 tags, native FLAC, MP4/M4A, ADTS AAC, Ogg, AMR), AudioFileStream, ExtAudioFile
// reading with a client format (converter and resampler), afinfo's report, the RTP-MIDI packet parser, the SoundFont and DLS parsers and Standard MIDI Files (MusicSequenceFileLoadData).
// Run: FuzzTesting/run.sh [seconds-per-target]
import PackageDescription

let fuzzer: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]
let exercises: [Target.Dependency] = [.product(name: "AudioToolbox", package: "OpenCoreAudio"),
                                      .product(name: "_FileExercises", package: "OpenCoreAudio")]
let package = Package(
    name: "OpenCoreAudioFuzzing",
    dependencies: [.package(name: "OpenCoreAudio", path: "..")],
    targets: [
        .executableTarget(name: "FuzzWAVE", dependencies: exercises, swiftSettings: fuzzer),
        .executableTarget(name: "FuzzAIFF", dependencies: exercises, swiftSettings: fuzzer),
        .executableTarget(name: "FuzzCAF", dependencies: exercises, swiftSettings: fuzzer),
        .executableTarget(name: "FuzzMP3", dependencies: exercises, swiftSettings: fuzzer),
        .executableTarget(name: "FuzzFLAC", dependencies: exercises, swiftSettings: fuzzer),
        .executableTarget(name: "FuzzMP4", dependencies: exercises, swiftSettings: fuzzer),
        .executableTarget(name: "FuzzADTS", dependencies: exercises, swiftSettings: fuzzer),
        // Ogg pages (Opus and FLAC in Ogg: page sync, checksums, packets across pages, the de-paged packet index).
        .executableTarget(name: "FuzzOgg", dependencies: exercises, swiftSettings: fuzzer),
        // Raw AMR (.amr magic, ToC-sized frames, NO_DATA) and 3GP's AMR sample entries; the AMR decoders behind them.
        .executableTarget(name: "FuzzAMR", dependencies: exercises, swiftSettings: fuzzer),
        .executableTarget(name: "FuzzAudioFileStream", dependencies: exercises, swiftSettings: fuzzer),
        .executableTarget(name: "FuzzExtAudioFile", dependencies: exercises, swiftSettings: fuzzer),
        .executableTarget(name: "FuzzAFInfo", dependencies: exercises, swiftSettings: fuzzer),
        // RTP-MIDI / AppleMIDI packets (network MIDI); seeds in Corpus/rtpmidi.
        // SoundFont 2 banks (the sampler's parser and engine); seeds in Corpus/soundfont.
        .executableTarget(name: "FuzzSoundFont", dependencies: [.product(name: "AudioDSP", package: "OpenCoreAudio")], swiftSettings: fuzzer),
        // DLS Level 1/2 banks (the same parser entry, form type 'DLS '); seeds in Corpus/dls.
        .executableTarget(name: "FuzzDLS", dependencies: [.product(name: "AudioDSP", package: "OpenCoreAudio")], swiftSettings: fuzzer),
        .executableTarget(name: "FuzzRTPMIDI", dependencies: [.product(name: "CoreMIDI", package: "OpenCoreAudio")], swiftSettings: fuzzer),
        .executableTarget(name: "FuzzMIDIBytes", dependencies: [.product(name: "CoreMIDI", package: "OpenCoreAudio")], swiftSettings: fuzzer),
        .executableTarget(name: "FuzzMIDIFile", dependencies: exercises, swiftSettings: fuzzer),
    ]
)
