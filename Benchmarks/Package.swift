// swift-tools-version:6.0
// Benchmarks for OpenCoreAudio, in their own package so the main build stays lean.
// Run: cd Benchmarks && swift run -c release RenderOverhead && swift run -c release GraphRender
import PackageDescription

let package = Package(
    name: "OpenCoreAudioBenchmarks",
    dependencies: [.package(name: "OpenCoreAudio", path: "..")],
    targets: [
        .executableTarget(
            name: "RenderOverhead",
            dependencies: [.product(name: "AudioToolbox", package: "OpenCoreAudio")]),
        .executableTarget(
            name: "GraphRender",
            dependencies: [.product(name: "AudioToolbox", package: "OpenCoreAudio")]),
    ]
)
