import AVFoundation
import DeviceTestSupport
import Foundation
import Testing

/// AVAudioSession against the HAL on the private PulseAudio server: its ALSA devices "default" (the server's
/// default sink "out" and source "mic.monitor") and "pulse". The session is the process's one, so the suite runs
/// serialized and puts the category back.
@Suite(.serialized, .audioServer) struct AVAudioSessionDeviceTests {
    let session = AVAudioSession.sharedInstance()

    func address(_ selector: AudioObjectPropertySelector, _ scope: AudioObjectPropertyScope = kAudioObjectPropertyScopeGlobal) -> AudioObjectPropertyAddress {
        AudioObjectPropertyAddress(mSelector: selector, mScope: scope, mElement: kAudioObjectPropertyElementMain)
    }

    func defaultDevice(input: Bool) -> AudioObjectID {
        var a = address(input ? kAudioHardwarePropertyDefaultInputDevice : kAudioHardwarePropertyDefaultOutputDevice)
        var id = AudioObjectID(0)
        var size = UInt32(4)
        AudioObjectGetPropertyData(AudioObjectID(kAudioObjectSystemObject), &a, 0, nil, &size, &id)
        return id
    }

    func string(_ id: AudioObjectID, _ selector: AudioObjectPropertySelector) -> String? {
        var a = address(selector)
        var value: Unmanaged<CFString>?
        var size = UInt32(MemoryLayout<Unmanaged<CFString>?>.size)
        guard AudioObjectGetPropertyData(id, &a, 0, nil, &size, &value) == noErr, let value else { return nil }
        return value.takeRetainedValue() as String
    }

    func nominalRate(_ id: AudioObjectID) -> Double {
        var a = address(kAudioDevicePropertyNominalSampleRate)
        var rate = 0.0
        var size = UInt32(8)
        AudioObjectGetPropertyData(id, &a, 0, nil, &size, &rate)
        return rate
    }

    func device(uid: String) throws -> AudioObjectID {
        var a = address(kAudioHardwarePropertyTranslateUIDToDevice)
        var name = uid as CFString
        var id = AudioObjectID(0)
        var size = UInt32(4)
        _ = withUnsafeMutablePointer(to: &name) {
            AudioObjectGetPropertyData(AudioObjectID(kAudioObjectSystemObject), &a, UInt32(MemoryLayout<CFString>.size), $0, &size, &id)
        }
        try #require(id != 0, "no device \(uid)")
        return id
    }

    /// Collects routeChangeNotifications.
    final class RouteChanges: @unchecked Sendable {
        let lock = NSLock()
        var notes: [(reason: UInt, previous: AVAudioSessionRouteDescription?)] = []
        var token: NSObjectProtocol?

        init(_ session: AVAudioSession) {
            token = NotificationCenter.default.addObserver(forName: AVAudioSession.routeChangeNotification, object: session, queue: nil) { [weak self] note in
                let reason = (note.userInfo?[AVAudioSessionRouteChangeReasonKey] as? NSNumber)?.uintValue ?? 999
                let previous = note.userInfo?[AVAudioSessionRouteChangePreviousRouteKey] as? AVAudioSessionRouteDescription
                self?.lock.withLock { self?.notes.append((reason, previous)) }
            }
        }

        deinit { if let token { NotificationCenter.default.removeObserver(token) } }

        /// Waits up to 3 s for the `n`th notification.
        func wait(for n: Int) -> Bool {
            let deadline = Date().addingTimeInterval(3)
            while Date() < deadline {
                if lock.withLock({ notes.count }) >= n { return true }
                Thread.sleep(forTimeInterval: 0.01)
            }
            return false
        }

        var all: [(reason: UInt, previous: AVAudioSessionRouteDescription?)] { lock.withLock { notes } }
    }

    /// Category, mode and options round-trip with Apple's strings and bits; options a category does not take,
    /// and unknown categories, throw badParam (-50) and change nothing.
    @Test func categoryModeAndOptionsRoundTrip() throws {
        defer { try? session.setCategory(.soloAmbient, mode: .default, options: []) }
        try session.setCategory(.playAndRecord, mode: .voiceChat, options: [.defaultToSpeaker, .allowBluetooth])
        #expect(session.category == .playAndRecord && session.category.rawValue == "AVAudioSessionCategoryPlayAndRecord")
        #expect(session.mode == .voiceChat && session.mode.rawValue == "AVAudioSessionModeVoiceChat")
        #expect(session.categoryOptions == [.defaultToSpeaker, .allowBluetooth] && session.categoryOptions.rawValue == 0xC)
        try session.setCategory(.playback)
        #expect(session.category == .playback && session.mode == .voiceChat && session.categoryOptions == [])
        try session.setCategory(.playback, options: .mixWithOthers)
        #expect(session.categoryOptions == .mixWithOthers)
        try session.setMode(.spokenAudio)
        #expect(session.mode == .spokenAudio)
        for attempt: () throws -> Void in [{ try session.setCategory(.soloAmbient, options: .mixWithOthers) },
                                           { try session.setCategory(.playback, options: .defaultToSpeaker) },
                                           { try session.setCategory(AVAudioSession.Category(rawValue: "Nonsense")) },
                                           { try session.setMode(AVAudioSession.Mode("Nonsense")) }] {
            do {
                try attempt()
                Issue.record("accepted")
            } catch let error as NSError {
                #expect(error.domain == NSOSStatusErrorDomain && error.code == -50 && error.code == AVAudioSession.ErrorCode.badParam.rawValue)
            }
        }
        #expect(session.category == .playback && session.mode == .spokenAudio && session.categoryOptions == .mixWithOthers)
        // Apple's values.
        #expect(AVAudioSession.Category.ambient.rawValue == "AVAudioSessionCategoryAmbient"
                && AVAudioSession.Category.multiRoute.rawValue == "AVAudioSessionCategoryMultiRoute")
        #expect(AVAudioSession.Mode.measurement.rawValue == "AVAudioSessionModeMeasurement")
        #expect(AVAudioSession.CategoryOptions.interruptSpokenAudioAndMixWithOthers.rawValue == 0x11
                && AVAudioSession.CategoryOptions.overrideMutedMicrophoneInterruption.rawValue == 0x80)
        #expect(AVAudioSession.RouteChangeReason.routeConfigurationChange.rawValue == 8 && AVAudioSession.RouteChangeReason.wakeFromSleep.rawValue == 6)
        #expect(AVAudioSession.InterruptionType.began.rawValue == 1 && AVAudioSession.InterruptionType.ended.rawValue == 0)
        #expect(AVAudioSession.PortOverride.speaker.rawValue == 0x7370_6B72 && AVAudioSession.SetActiveOptions.notifyOthersOnDeactivation.rawValue == 1)
        #expect(AVAudioSession.RecordPermission.granted.rawValue == 0x6772_6E74 && AVAudioSession.ErrorCode.isBusy.rawValue == 0x2161_6374)
        #expect(AVAudioSession.routeChangeNotification.rawValue == "AVAudioSessionRouteChangeNotification")
        #expect(AVAudioSession.interruptionNotification.rawValue == "AVAudioSessionInterruptionNotification")
        #expect(AVAudioSession.mediaServicesWereResetNotification.rawValue == "AVAudioSessionMediaServicesWereResetNotification")
        #expect(AVAudioSessionRouteChangeReasonKey == "AVAudioSessionRouteChangeReasonKey" && AVAudioSessionInterruptionTypeKey == "AVAudioSessionInterruptionTypeKey")
        #expect(session.recordPermission == .granted)
        let granted = DispatchSemaphore(value: 0)
        session.requestRecordPermission { if $0 { granted.signal() } }
        #expect(granted.wait(timeout: .now() + 2) == .success)
    }

    /// The route is the HAL's default devices on the private server: output "default" (the server's default
    /// sink), named and sized as the HAL says (2 channels, left and right, a virtual port); the input is there only
    /// for recording categories, the output not for record; availableInputs lists "default" and "pulse"; the
    /// hardware values are the output device's.
    @Test func currentRouteIsTheServersDevices() throws {
        defer { try? session.setCategory(.soloAmbient, mode: .default, options: []) }
        try session.setCategory(.playAndRecord)
        let route = session.currentRoute
        let output = try #require(route.outputs.first)
        let input = try #require(route.inputs.first)
        #expect(route.outputs.count == 1 && route.inputs.count == 1)
        let outputDevice = defaultDevice(input: false)
        #expect(output.uid == string(outputDevice, kAudioDevicePropertyDeviceUID) && output.uid == "default")
        #expect(output.portName == string(outputDevice, kAudioObjectPropertyName) && !output.portName.isEmpty)
        #expect(output.portType == .virtual)
        #expect(output.channels?.map(\.channelLabel) == [kAudioChannelLabel_Left, kAudioChannelLabel_Right])
        #expect(output.channels?.map(\.channelNumber) == [1, 2] && output.channels?.first?.owningPortUID == "default")
        #expect(input.uid == string(defaultDevice(input: true), kAudioDevicePropertyDeviceUID))
        let inputs = try #require(session.availableInputs).map(\.uid)
        #expect(inputs.contains("default") && inputs.contains("pulse"), "\(inputs)")
        #expect(session.outputNumberOfChannels == 2 && session.inputNumberOfChannels == 2 && session.isInputAvailable)
        #expect(session.sampleRate == nominalRate(outputDevice) && session.sampleRate == 44100)
        #expect(session.ioBufferDuration > 0 && session.ioBufferDuration < 0.5 && session.outputLatency >= 0)
        try session.setCategory(.playback)
        #expect(session.currentRoute.inputs.isEmpty && session.currentRoute.outputs.count == 1)
        try session.setCategory(.record)
        #expect(session.currentRoute.outputs.isEmpty && session.currentRoute.inputs.count == 1)
    }

    /// setPreferredSampleRate(48000) and setPreferredIOBufferDuration(10 ms) reach the default output device when
    /// the session goes active (the HAL's nominal rate reads 48000, the buffer 480 frames), a player still sounds its
    /// 1 kHz tone at 0.5 through the server (which resamples to its 44.1 kHz sink), and deactivating puts back 44.1 kHz.
    @Test func preferredRateAndBufferApplyWhenActive() throws {
        let device = defaultDevice(input: false)
        try session.setCategory(.playback)
        defer {
            try? session.setActive(false)
            try? session.setCategory(.soloAmbient, mode: .default, options: [])
        }
        try session.setPreferredSampleRate(48000)
        try session.setPreferredIOBufferDuration(0.01)
        #expect(session.preferredSampleRate == 48000 && session.preferredIOBufferDuration == 0.01)
        #expect(session.sampleRate == 44100, "applied before setActive")
        try session.setActive(true)
        #expect(nominalRate(device) == 48000 && session.sampleRate == 48000)
        #expect(abs(session.ioBufferDuration - 0.01) < 1e-9, "ioBufferDuration \(session.ioBufferDuration)")

        let url = try AVFAudioTestSupport.writeTone(seconds: 0.6)
        defer { try? FileManager.default.removeItem(at: url) }
        let player = try AVAudioPlayer(contentsOf: url)
        let probe = DelegateProbe()
        player.delegate = probe
        let capture = try PulseTestServer.Capture()
        Thread.sleep(forTimeInterval: 0.2)
        #expect(player.play())
        #expect(probe.wait(4))
        let heard = capture.finish()[0]
        let (start, _) = try #require(AVFAudioTestSupport.extent(heard))
        let amplitude = ToneAnalysis.fit(heard[(start + 2205)...].prefix(13230), frequency: 1000, rate: 44100).amplitude
        #expect(abs(amplitude - 0.5) < 0.02, "amplitude \(amplitude) at 48 kHz")

        try session.setActive(false)
        #expect(nominalRate(device) == 44100 && session.sampleRate == 44100)
        #expect(throws: NSError.self) { try session.setPreferredSampleRate(-1) }
    }

    /// The active session's category and mode reach the sound server as the streams' media.role (what PulseAudio's
    /// and PipeWire's policies route and duck by): a player under .playback/.moviePlayback plays a "video" stream, and
    /// under .playAndRecord/.voiceChat a "phone" one (read back with pactl).
    @Test func categoryBecomesTheStreamsMediaRole() throws {
        defer {
            try? session.setActive(false)
            try? session.setCategory(.soloAmbient, mode: .default, options: [])
        }
        let url = try AVFAudioTestSupport.writeTone(seconds: 1.5)
        defer { try? FileManager.default.removeItem(at: url) }
        for (category, mode, role) in [(AVAudioSession.Category.playback, AVAudioSession.Mode.moviePlayback, "video"),
                                       (.playAndRecord, .voiceChat, "phone")] {
            try session.setCategory(category, mode: mode, options: [])
            try session.setActive(true)
            let player = try AVAudioPlayer(contentsOf: url)
            #expect(player.play())
            Thread.sleep(forTimeInterval: 0.6)
            let listing = try AVFAudioTestSupport.runTool("pactl", ["list", "sink-inputs"])
            player.stop()
            #expect(listing.contains("media.role = \"\(role)\""), "pactl shows no media.role \(role):\n\(listing.prefix(2000))")
        }
    }

    /// Changing the HAL's default output device posts routeChangeNotification (routeConfigurationChange, with the
    /// previous route); so does choosing another input with setPreferredInput, and changing the category
    /// (categoryChange).
    @Test func routeChangesArePosted() throws {
        try session.setCategory(.playAndRecord)
        defer { try? session.setCategory(.soloAmbient, mode: .default, options: []) }
        Thread.sleep(forTimeInterval: 0.2)  // the category change's own notification
        let changes = RouteChanges(session)
        let original = defaultDevice(input: false)
        let pulse = try device(uid: "pulse")
        var a = address(kAudioHardwarePropertyDefaultOutputDevice)
        var id = pulse
        #expect(AudioObjectSetPropertyData(AudioObjectID(kAudioObjectSystemObject), &a, 0, nil, 4, &id) == noErr)
        defer {
            var back = original
            AudioObjectSetPropertyData(AudioObjectID(kAudioObjectSystemObject), &a, 0, nil, 4, &back)
        }
        #expect(changes.wait(for: 1))
        #expect(session.currentRoute.outputs.first?.uid == "pulse")
        id = original
        #expect(AudioObjectSetPropertyData(AudioObjectID(kAudioObjectSystemObject), &a, 0, nil, 4, &id) == noErr)
        #expect(changes.wait(for: 2))
        var notes = changes.all
        #expect(notes.count == 2)
        #expect(notes.first?.reason == AVAudioSession.RouteChangeReason.routeConfigurationChange.rawValue)
        #expect(notes.first?.previous?.outputs.first?.uid == "default")
        #expect(notes.last?.previous?.outputs.first?.uid == "pulse")

        let inputs = try #require(session.availableInputs)
        let originalInput = try #require(session.currentRoute.inputs.first)
        let other = try #require(inputs.first { $0.uid == "pulse" })
        try session.setPreferredInput(other)
        defer { try? session.setPreferredInput(originalInput) }
        #expect(changes.wait(for: 3))
        #expect(session.currentRoute.inputs.first?.uid == "pulse" && session.preferredInput == other)
        try session.setPreferredInput(originalInput)
        #expect(changes.wait(for: 4))

        try session.setCategory(.playback)
        #expect(changes.wait(for: 5))
        notes = changes.all
        #expect(notes.last?.reason == AVAudioSession.RouteChangeReason.categoryChange.rawValue)
        #expect(notes.last?.previous?.inputs.first?.uid == originalInput.uid)
    }

    /// AVAudioApplication posts its input-mute changes while a recording session is active, each change once.
    @Test func inputMuteChangesArePostedInARecordingSession() throws {
        let app = AVAudioApplication.shared
        final class Log: @unchecked Sendable { let lock = NSLock(); var posted: [Bool] = [] }
        let log = Log(), lock = log.lock
        let observer = NotificationCenter.default.addObserver(forName: AVAudioApplication.inputMuteStateChangeNotification, object: nil, queue: nil) { note in
            lock.withLock { log.posted.append((note.userInfo?[AVAudioApplication.muteStateKey] as? NSNumber)?.boolValue ?? false) }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        let category = session.category
        try session.setCategory(.playAndRecord)
        try session.setActive(true)
        defer {
            try? app.setInputMuted(false)
            try? session.setActive(false)
            try? session.setCategory(category)
        }
        try app.setInputMuted(true)
        try app.setInputMuted(true)  // no change: nothing posted
        try app.setInputMuted(false)
        #expect(lock.withLock { log.posted } == [true, false])
    }
}
