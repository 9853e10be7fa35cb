// AVAudioSession configuration as iOS apps write it: category/mode/options, preferred rate and buffer
// duration, activation, and the interruption / route-change observers with their userInfo parsing. The
// checks need no sound device: activation is allowed to fail, and the observers are driven with posted
// notifications. AVAudioSession does not exist on macOS, so the file is for the other platforms.
#if !os(macOS)
import AVFoundation
import Foundation
import Testing

/// The app's audio-session controller.
final class AudioSessionController: @unchecked Sendable {
    enum Event: Equatable {
        case interruptionBegan
        case interruptionEnded(shouldResume: Bool)
        case headphonesUnplugged
        case newDevice
        case categoryChanged
        case other(UInt)
    }

    private let lock = NSLock()
    private var _events: [Event] = []
    private var observers: [NSObjectProtocol] = []
    var events: [Event] { lock.lock(); defer { lock.unlock() }; return _events }

    func configure() throws {
        let session = AVAudioSession.sharedInstance()
        try session.setCategory(.playback, mode: .default, options: [.mixWithOthers])
        try session.setPreferredSampleRate(48000)
        try session.setPreferredIOBufferDuration(0.005)
    }

    func activate() throws {
        try AVAudioSession.sharedInstance().setActive(true)
    }

    func deactivate() throws {
        try AVAudioSession.sharedInstance().setActive(false, options: .notifyOthersOnDeactivation)
    }

    func startObserving() {
        let center = NotificationCenter.default
        let session = AVAudioSession.sharedInstance()
        observers.append(center.addObserver(forName: AVAudioSession.interruptionNotification, object: session, queue: nil) { [weak self] notification in
            self?.handleInterruption(notification)
        })
        observers.append(center.addObserver(forName: AVAudioSession.routeChangeNotification, object: session, queue: nil) { [weak self] notification in
            self?.handleRouteChange(notification)
        })
    }

    func stopObserving() {
        for observer in observers { NotificationCenter.default.removeObserver(observer) }
        observers.removeAll()
    }

    private func record(_ event: Event) {
        lock.lock()
        _events.append(event)
        lock.unlock()
    }

    func handleInterruption(_ notification: Notification) {
        guard let userInfo = notification.userInfo,
              let typeValue = userInfo[AVAudioSessionInterruptionTypeKey] as? UInt,
              let type = AVAudioSession.InterruptionType(rawValue: typeValue) else {
            return
        }
        switch type {
        case .began:
            record(.interruptionBegan)
        case .ended:
            guard let optionsValue = userInfo[AVAudioSessionInterruptionOptionKey] as? UInt else {
                record(.interruptionEnded(shouldResume: false))
                return
            }
            let options = AVAudioSession.InterruptionOptions(rawValue: optionsValue)
            record(.interruptionEnded(shouldResume: options.contains(.shouldResume)))
        @unknown default:
            break
        }
    }

    func handleRouteChange(_ notification: Notification) {
        guard let userInfo = notification.userInfo,
              let reasonValue = userInfo[AVAudioSessionRouteChangeReasonKey] as? UInt,
              let reason = AVAudioSession.RouteChangeReason(rawValue: reasonValue) else {
            return
        }
        switch reason {
        case .newDeviceAvailable:
            record(.newDevice)
        case .oldDeviceUnavailable:
            if let previousRoute = userInfo[AVAudioSessionRouteChangePreviousRouteKey] as? AVAudioSessionRouteDescription {
                for output in previousRoute.outputs where output.portType == .headphones {
                    record(.headphonesUnplugged)
                    return
                }
            }
            record(.other(reasonValue))
        case .categoryChange:
            record(.categoryChanged)
        default:
            record(.other(reasonValue))
        }
    }

    static func hasHeadphones(in routeDescription: AVAudioSessionRouteDescription) -> Bool {
        !routeDescription.outputs.filter { $0.portType == .headphones }.isEmpty
    }
}

@Suite(.serialized) struct AudioSessionClientTests {
    @Test func configureThePlaybackSession() throws {
        let controller = AudioSessionController()
        try controller.configure()
        let session = AVAudioSession.sharedInstance()
        #expect(session.category == .playback)
        #expect(session.mode == .default)
        #expect(session.categoryOptions.contains(.mixWithOthers))
        #expect(session.preferredSampleRate == 48000)
        #expect(abs(session.preferredIOBufferDuration - 0.005) < 1e-9)
        #expect(AVAudioSession.Category.playback.rawValue == "AVAudioSessionCategoryPlayback")
        #expect(AVAudioSession.Mode.default.rawValue == "AVAudioSessionModeDefault")
        // Activation needs the audio hardware; without it, it throws and the app carries on.
        do {
            try controller.activate()
            _ = session.sampleRate
            _ = session.outputNumberOfChannels
            _ = session.ioBufferDuration
            try controller.deactivate()
        } catch {
            _ = error  // no audio hardware here
        }
        _ = session.outputVolume
        _ = session.isOtherAudioPlaying
        _ = session.secondaryAudioShouldBeSilencedHint
        _ = AudioSessionController.hasHeadphones(in: session.currentRoute)
    }

    @Test func recordingCategoriesAndTheirOptions() throws {
        let session = AVAudioSession.sharedInstance()
        try session.setCategory(.playAndRecord, mode: .voiceChat, options: [.defaultToSpeaker, .allowBluetooth])
        #expect(session.category == .playAndRecord)
        #expect(session.mode == .voiceChat)
        #expect(session.categoryOptions.contains(.defaultToSpeaker))
        try session.setCategory(.record, mode: .measurement)
        #expect(session.category == .record && session.mode == .measurement)
        try session.setCategory(.ambient)
        #expect(session.category == .ambient)
        // .defaultToSpeaker is for playAndRecord only.
        #expect(throws: (any Error).self) {
            try session.setCategory(.playback, mode: .default, options: [.defaultToSpeaker])
        }
        try session.setCategory(.playback, mode: .moviePlayback, policy: .longFormAudio, options: [])
        #expect(session.routeSharingPolicy == .longFormAudio)
        try session.setCategory(.soloAmbient, mode: .default, options: [])
        #expect(session.category == .soloAmbient)
        #expect(!session.availableCategories.isEmpty)
        #expect(session.availableModes.contains(.spokenAudio))
    }

    @Test func interruptionAndRouteChangeHandlers() throws {
        let controller = AudioSessionController()
        controller.startObserving()
        defer { controller.stopObserving() }
        let session = AVAudioSession.sharedInstance()
        let center = NotificationCenter.default
        center.post(name: AVAudioSession.interruptionNotification, object: session,
                    userInfo: [AVAudioSessionInterruptionTypeKey: AVAudioSession.InterruptionType.began.rawValue])
        center.post(name: AVAudioSession.interruptionNotification, object: session,
                    userInfo: [AVAudioSessionInterruptionTypeKey: AVAudioSession.InterruptionType.ended.rawValue,
                               AVAudioSessionInterruptionOptionKey: AVAudioSession.InterruptionOptions.shouldResume.rawValue])
        center.post(name: AVAudioSession.routeChangeNotification, object: session,
                    userInfo: [AVAudioSessionRouteChangeReasonKey: AVAudioSession.RouteChangeReason.newDeviceAvailable.rawValue])
        center.post(name: AVAudioSession.routeChangeNotification, object: session,
                    userInfo: [AVAudioSessionRouteChangeReasonKey: AVAudioSession.RouteChangeReason.oldDeviceUnavailable.rawValue,
                               AVAudioSessionRouteChangePreviousRouteKey: session.currentRoute])
        // The session is the process's one: a category another suite sets meanwhile posts its own route change.
        let events = controller.events.filter { $0 != .categoryChanged }
        #expect(Array(events.prefix(3)) == [.interruptionBegan, .interruptionEnded(shouldResume: true), .newDevice])
        #expect(events.count >= 4)
        #expect(AVAudioSession.InterruptionType.began.rawValue == 1 && AVAudioSession.InterruptionType.ended.rawValue == 0)
        #expect(AVAudioSession.RouteChangeReason.oldDeviceUnavailable.rawValue == 2)
        #expect(AVAudioSession.InterruptionOptions.shouldResume.rawValue == 1)
        #expect(AVAudioSession.interruptionNotification.rawValue == "AVAudioSessionInterruptionNotification")
        #expect(AVAudioSession.PortOverride.speaker.rawValue == 0x7370_6b72)
        #expect(AVAudioSession.Port.headphones.rawValue == "Headphones")
    }
}
#endif
