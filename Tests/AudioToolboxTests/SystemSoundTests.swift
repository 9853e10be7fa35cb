import AudioToolbox
import DeviceTestSupport
import Foundation
import Testing

/// System Sound Services on the private PulseAudio server: a created sound is heard on the "out" sink and
/// its completion routine runs on the run loop it was registered with.
@Suite(.serialized, .audioServer) struct SystemSoundTests {
    final class Done: @unchecked Sendable { var calls = 0; var thread: UInt = 0; var id: SystemSoundID = 0 }

    static let completion: AudioServicesSystemSoundCompletionProc = { id, data in
        let done = Unmanaged<Done>.fromOpaque(data!).takeUnretainedValue()
        done.calls += 1
        done.thread = UInt(pthread_self())
        done.id = id
    }

    /// A 0.5 s 1 kHz mono WAV at 0.5.
    static func makeSound() throws -> URL {
        try TestSupport.writeWAV((0..<22050).map { Int16(16384 * sin(2 * Double.pi * 1000 * Double($0) / 44100)) },
                                 channels: 1, sampleRate: 44100, name: "oca-sound")
    }

    @Test func systemSoundPlaysAndCompletesOnItsRunLoop() throws {
        let url = try Self.makeSound()
        defer { try? FileManager.default.removeItem(at: url) }
        var id: SystemSoundID = 0
        try #require(AudioServicesCreateSystemSoundID(url as CFURL, &id) == noErr)
        #expect(id > kSystemSoundID_UserPreferredAlert)
        let done = Done()
        try #require(AudioServicesAddSystemSoundCompletion(id, CFRunLoopGetCurrent(), CFRunLoopMode.defaultMode.rawValue, Self.completion,
                                                           Unmanaged.passUnretained(done).toOpaque()) == noErr)
        var isUI: UInt32 = 0
        var size = UInt32(4)
        var spec = id
        #expect(AudioServicesGetProperty(kAudioServicesPropertyIsUISound, 4, &spec, &size, &isUI) == noErr && isUI == 1)
        #expect(AudioServicesGetProperty(kAudioServicesPropertyIsUISound, 2, &spec, &size, &isUI) == kAudioServicesBadSpecifierSizeError)
        #expect(AudioServicesGetProperty(0x6E6F7065, 4, &spec, &size, &isUI) == kAudioServicesUnsupportedPropertyError)

        let capture = try PulseTestServer.Capture()
        Thread.sleep(forTimeInterval: 0.2)
        AudioServicesPlaySystemSound(id)
        let deadline = Date().addingTimeInterval(5)
        while done.calls == 0 && Date() < deadline { CFRunLoopRunInMode(CFRunLoopMode.defaultMode, 0.05, false) }
        Thread.sleep(forTimeInterval: 0.2)
        let heard = capture.finish()[0]
        #expect(done.calls == 1)
        #expect(done.id == id)
        #expect(done.thread == UInt(pthread_self()))
        let start = try #require(ToneAnalysis.onset(heard, threshold: 0.05), "nothing heard")
        let end = try #require(heard.lastIndex { abs($0) > 0.05 })
        #expect(abs(end - start - 22050) < 500, "heard \(end - start) frames from \(start)")
        let amplitude = ToneAnalysis.fit(heard[(start + 2205)...].prefix(17640), frequency: 1000, rate: 44100).amplitude
        #expect(abs(amplitude - 0.5) < 0.01, "amplitude \(amplitude)")

        // The block form completes too; a removed routine is not called (even if its call was on its way);
        // a disposed ID is gone.
        AudioServicesRemoveSystemSoundCompletion(id)
        let blockDone = Done()
        AudioServicesPlaySystemSoundWithCompletion(id) { blockDone.calls += 1 }
        let until = Date().addingTimeInterval(5)
        while blockDone.calls == 0 && Date() < until { Thread.sleep(forTimeInterval: 0.02) }
        #expect(blockDone.calls == 1)
        #expect(AudioServicesDisposeSystemSoundID(id) == noErr)
        #expect(AudioServicesDisposeSystemSoundID(id) != noErr)
        CFRunLoopRunInMode(CFRunLoopMode.defaultMode, 0.1, false)
        #expect(done.calls == 1)
        withExtendedLifetime(done) {}
    }

    /// Sounds longer than 30 s are refused with Apple's code; a missing file with the file error.
    @Test func createRefusesWhatCannotBeASystemSound() throws {
        var id: SystemSoundID = 0
        let missing = URL(fileURLWithPath: "/nonexistent/oca-\(UUID().uuidString).wav")
        #expect(AudioServicesCreateSystemSoundID(missing as CFURL, &id) != noErr)
        let url = try TestSupport.writeWAV([Int16](repeating: 0, count: 8000 * 31), channels: 1, sampleRate: 8000, name: "oca-long")
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(AudioServicesCreateSystemSoundID(url as CFURL, &id) == kAudioServicesSystemSoundExceededMaximumDurationError)
    }
}
