// swift-tools-version:6.0
// libFuzzer targets for the parsers of hostile input, one per container plus AudioFileStream.
// Run: FuzzTesting/run.sh [seconds-per-target]
import PackageDescription

let fuzzer: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]
let package = Package(
    name: "OpenCoreAudioFuzzing",
    dependencies: [.package(name: "OpenCoreAudio", path: "..")],
    targets: [
        .target(name: "FuzzSupport", dependencies: [.product(name: "AudioToolbox", package: "OpenCoreAudio")]),
        .executableTarget(name: "FuzzWAVE", dependencies: ["FuzzSupport"], swiftSettings: fuzzer),
        .executableTarget(name: "FuzzAIFF", dependencies: ["FuzzSupport"], swiftSettings: fuzzer),
        .executableTarget(name: "FuzzCAF", dependencies: ["FuzzSupport"], swiftSettings: fuzzer),
        .executableTarget(name: "FuzzAudioFileStream", dependencies: ["FuzzSupport"], swiftSettings: fuzzer),
    ]
)
