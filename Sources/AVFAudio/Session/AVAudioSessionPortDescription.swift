import Foundation

/// An input or output port of a route: on Linux, a HAL device (an ALSA PCM such as "default", "pulse" or
/// "hw:0,0"), named and identified as the HAL names it.
open class AVAudioSessionPortDescription: NSObject, @unchecked Sendable {
    /// The kind of port.
    public let portType: AVAudioSession.Port
    /// The device's name (kAudioObjectPropertyName).
    public let portName: String
    /// The device's UID (kAudioDevicePropertyDeviceUID).
    public let uid: String
    /// The port's channels in this direction; nil when it has none.
    public let channels: [AVAudioSessionChannelDescription]?
    /// Whether the hardware does voice-call processing itself (never, here).
    public let hasHardwareVoiceCallProcessing: Bool
    /// Whether spatial audio is on for the port (never, here).
    public let isSpatialAudioEnabled: Bool
    /// The HAL device behind the port.
    let deviceID: AudioObjectID

    init(portType: AVAudioSession.Port, portName: String, uid: String, channels: [AVAudioSessionChannelDescription]?, deviceID: AudioObjectID) {
        self.portType = portType
        self.portName = portName
        self.uid = uid
        self.channels = channels
        self.deviceID = deviceID
        hasHardwareVoiceCallProcessing = false
        isSpatialAudioEnabled = false
        super.init()
    }

    /// Equal when the UIDs and types are.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? AVAudioSessionPortDescription else { return false }
        return uid == other.uid && portType == other.portType
    }

    open override var hash: Int { uid.hashValue }

    open override var description: String { "<AVAudioSessionPortDescription: type = \(portType.rawValue); name = \(portName); UID = \(uid)>" }
}
