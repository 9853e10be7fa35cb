@testable import CoreMIDI
import Foundation
import Testing

/// The ALSA sequencer backend. This needs /dev/snd/seq (a kernel with snd-seq, as on desktop Linux); where it
/// is absent (containers, CI machines without sound devices) snd_seq_open fails with -2 and the test of the
/// backend proper is skipped, with that reason, while the absent case is checked instead. Serialized: the
/// backend is process-wide.
@Suite(.serialized) struct ALSASequencerTests {
    static let present = FileManager.default.fileExists(atPath: "/dev/snd/seq")

    /// Runs a program to completion and returns its output; fails the test if it is missing.
    private func run(_ tool: String, _ arguments: [String]) throws -> String {
        let path = try #require(PrivateJACKServer.which(tool), "\(tool) is missing (package alsa-utils, scripts/setup.sh)")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = arguments
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test(.enabled(if: !present, "the ALSA sequencer is present here: the absent case is not what this machine has"))
    func absentSequencerStaysOffQuietly() {
        #expect(MIDIGetNumberOfSources() >= 0)
        #expect(!ALSASequencerBackend.shared.isOpen)
        #expect(ALSASequencerBackend.shared.openError == -ENOENT, "snd_seq_open: \(ALSASequencerBackend.shared.openError)")
        var client = MIDIClientRef(), src = MIDIEndpointRef()
        #expect(MIDIClientCreateWithBlock("no seq" as CFString, &client, nil) == noErr)
        #expect(MIDISourceCreate(client, "s" as CFString, &src) == noErr)
        #expect(!ALSASequencerBackend.shared.publishes(src))
        MIDIClientDispose(client)
    }

    @Test(.enabled(if: present, "the ALSA sequencer is absent on this machine (no /dev/snd/seq: snd_seq_open fails with -2), so the backend cannot be exercised here"))
    func virtualEndpointsAreSequencerPortsAndMIDIFlowsThroughThem() async throws {
        var client = MIDIClientRef(), src = MIDIEndpointRef(), dst = MIDIEndpointRef()
        MIDIClientCreateWithBlock("seq test" as CFString, &client, nil)
        defer { MIDIClientDispose(client) }
        try #require(ALSASequencerBackend.shared.isOpen, "snd_seq_open failed: \(ALSASequencerBackend.shared.openError)")
        // Five digits: the names are 17 characters, longer than the 16 aconnect pads its names to.
        let tag = String(format: "%05d", Int.random(in: 0...99_999))
        MIDISourceCreate(client, "oca seq src \(tag)" as CFString, &src)
        let inbox = Inbox<[UInt8]>()
        MIDIDestinationCreateWithBlock(client, "oca seq dst \(tag)" as CFString, &dst) { list, _ in
            for p in list.unsafeSequence() { inbox.add(bytes(p)) }
        }
        // aconnect lists our ports: the source among the readable ones, the destination among the writable ones.
        #expect(try run("aconnect", ["-i"]).contains("oca seq src \(tag)"))
        #expect(try run("aconnect", ["-o"]).contains("oca seq dst \(tag)"))
        // Our source into our destination through the sequencer, connected from outside with aconnect.
        let me = ALSASequencerBackend.shared.clientID
        let listing = try run("aconnect", ["-l"])
        func portNumber(_ name: String) -> String? {
            listing.split(separator: "\n").first { $0.contains("'\(name)'") }?.split(separator: " ", omittingEmptySubsequences: true)
                .first.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " '")) }
        }
        let from = try #require(portNumber("oca seq src \(tag)")), to = try #require(portNumber("oca seq dst \(tag)"))
        _ = try run("aconnect", ["\(me):\(from)", "\(me):\(to)"])
        let builder = MIDIPacketList.Builder(byteSize: 256)
        builder.append(timestamp: 0, data: [0x90, 60, 100, 0xF0, 1, 2, 3, 0xF7, 0xB2, 7, 99])
        builder.withUnsafePointer { _ = MIDIReceived(src, $0) }
        let end = Date().addingTimeInterval(2)
        while inbox.all.flatMap({ $0 }).count < 11 && Date() < end { try await Task.sleep(nanoseconds: 1_000_000) }
        #expect(inbox.all.flatMap { $0 } == [0x90, 60, 100, 0xF0, 1, 2, 3, 0xF7, 0xB2, 7, 99])
    }
}
