import AVFoundation
import Foundation
import Testing

/// AVAudioApplication: one shared instance, recording permitted, and the input mute with its handler; with no
/// recording session active the change is not posted (AVAudioSessionDeviceTests checks it is while one is).
@Suite(.serialized) struct AVAudioApplicationTests {
    @Test func permissionAndMute() throws {
        let app = AVAudioApplication.shared
        #expect(app === AVAudioApplication.shared)
        #expect(app.recordPermission == .granted)
        #expect(AVAudioApplication.recordPermission.granted.rawValue == 0x67726E74)  // 'grnt'
        let answered = DispatchSemaphore(value: 0)
        AVAudioApplication.requestRecordPermission { granted in
            #expect(granted)
            answered.signal()
        }
        #expect(answered.wait(timeout: .now() + 2) == .success)

        final class Log: @unchecked Sendable { let lock = NSLock(); var posted: [Bool] = [], handled: [Bool] = [] }
        let log = Log(), lock = log.lock
        let observer = NotificationCenter.default.addObserver(forName: AVAudioApplication.inputMuteStateChangeNotification, object: nil, queue: nil) { note in
            lock.withLock { log.posted.append((note.userInfo?[AVAudioApplication.muteStateKey] as? NSNumber)?.boolValue ?? false) }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        try app.setInputMuteStateChangeHandler { muted in lock.withLock { log.handled.append(muted) }; return true }
        defer { try? app.setInputMuteStateChangeHandler(nil) }
        // No active recording session: stored, handler called, nothing posted.
        try app.setInputMuted(true)
        #expect(app.isInputMuted)
        try app.setInputMuted(false)
        #expect(!app.isInputMuted)
        #expect(lock.withLock { log.posted.isEmpty && log.handled == [true, false] })
    }
}
