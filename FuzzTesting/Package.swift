// swift-tools-version:6.0
// libFuzzer targets for the parsers of hostile input. Run: FuzzTesting/run.sh [seconds-per-target]
import PackageDescription

let package = Package(
    name: "OpenCoreAudioFuzzing",
    dependencies: [.package(name: "OpenCoreAudio", path: "..")],
    targets: [
        .executableTarget(
            name: "FuzzAudioFile",
            dependencies: [.product(name: "AudioToolbox", package: "OpenCoreAudio")],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]),
    ]
)
