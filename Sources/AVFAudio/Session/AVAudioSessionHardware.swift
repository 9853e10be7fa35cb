import AudioToolbox
import CoreAudio
import Foundation

/// The HAL as AVAudioSession sees it: AudioToolbox's SessionHardware (shared with the C audio session API), plus
/// devices as AVFAudio's ports.
typealias AVAudioSessionHardware = SessionHardware

extension SessionHardware {
    /// A device as a port in one direction; nil when it has no channels there.
    static func port(_ id: AudioObjectID, input: Bool) -> AVAudioSessionPortDescription? {
        let count = channels(id, input: input)
        guard count > 0 else { return nil }
        let name = string(id, kAudioObjectPropertyName) ?? ""
        let uid = string(id, kAudioDevicePropertyDeviceUID) ?? ""
        let channels = (1...count).map { n in
            AVAudioSessionChannelDescription(channelName: "\(name) \(n)", owningPortUID: uid, channelNumber: n,
                                             channelLabel: count == 2 ? (n == 1 ? kAudioChannelLabel_Left : kAudioChannelLabel_Right)
                                                                      : count == 1 ? kAudioChannelLabel_Mono : kAudioChannelLabel_Discrete)
        }
        return AVAudioSessionPortDescription(portType: portType(id, name: name, input: input), portName: name, uid: uid, channels: channels,
                                             deviceID: id)
    }

    /// The port type a device's transport and name suggest: built-in cards are the speaker and microphone,
    /// sound servers and other software devices are virtual.
    static func portType(_ id: AudioObjectID, name: String, input: Bool) -> AVAudioSession.Port {
        let n = name.lowercased()
        if n.contains("hdmi") { return input ? .lineIn : .HDMI }
        if n.contains("displayport") { return .displayPort }
        if n.contains("usb") { return .usbAudio }
        if n.contains("bluetooth") || n.contains("bluez") { return input ? .bluetoothHFP : .bluetoothA2DP }
        if n.contains("headset") { return input ? .headsetMic : .headphones }
        if n.contains("headphone") { return input ? .headsetMic : .headphones }
        switch uint32(id, kAudioDevicePropertyTransportType) {
        case kAudioDeviceTransportTypeBuiltIn: return input ? .builtInMic : .builtInSpeaker
        case kAudioDeviceTransportTypeUSB: return .usbAudio
        case kAudioDeviceTransportTypeHDMI: return .HDMI
        case kAudioDeviceTransportTypePCI: return .PCI
        case kAudioDeviceTransportTypeBluetooth: return input ? .bluetoothHFP : .bluetoothA2DP
        default: return .virtual
        }
    }
}
