// swift-tools-version:6.0
// The ThreadSanitizer run (scripts/tsan-test.sh) in its own package: the concurrent suites (live graph and engine
// edits while rendering, CARingBuffer's writer and reader, the Audio Queue's offline render) and the helpers they
// use, linked to the libraries they test. Building only these under -sanitize=thread, rather than every test target
// and tool of the main package, is what keeps CI's sanitizer step short. The sources are symlinks to the main
// package's own test files, which also run there in the ordinary test run.
import PackageDescription

let package = Package(
    name: "OpenCoreAudioSanitizers",
    dependencies: [.package(name: "OpenCoreAudio", path: "..")],
    targets: [
        .target(name: "AllocationCounter", path: "AllocationCounter"),
        .testTarget(
            name: "ConcurrencyTests",
            dependencies: [.product(name: "AudioToolbox", package: "OpenCoreAudio"),
                           .product(name: "AVFoundation", package: "OpenCoreAudio"), "AllocationCounter"],
            path: "ConcurrencyTests"),
    ]
)
