import Foundation

extension AVAudioSession {
    /// The kind of an input or output port (AVAudioSessionPort), with Apple's strings. On Linux a port is a HAL
    /// device: built-in ALSA cards are builtInSpeaker/builtInMic (HDMI, USB and Bluetooth ones as such), and
    /// sound-server devices (PulseAudio, PipeWire) are virtual.
    public struct Port: RawRepresentable, Hashable, Sendable {
        /// Apple's string for the port type.
        public let rawValue: String
        /// The port type with this string.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The port type with this string.
        public init(_ rawValue: String) { self.rawValue = rawValue }

        /// Line-level input.
        public static let lineIn = Port(rawValue: "LineIn")
        /// The built-in microphone.
        public static let builtInMic = Port(rawValue: "MicrophoneBuiltIn")
        /// A wired headset's microphone.
        public static let headsetMic = Port(rawValue: "MicrophoneWired")
        /// A Continuity microphone.
        public static let continuityMicrophone = Port(rawValue: "ContinuityMicrophone")
        /// Line-level output.
        public static let lineOut = Port(rawValue: "LineOut")
        /// Wired headphones.
        public static let headphones = Port(rawValue: "Headphones")
        /// A Bluetooth A2DP output.
        public static let bluetoothA2DP = Port(rawValue: "BluetoothA2DPOutput")
        /// The receiver held to the ear.
        public static let builtInReceiver = Port(rawValue: "Receiver")
        /// The built-in speaker.
        public static let builtInSpeaker = Port(rawValue: "Speaker")
        /// HDMI output.
        public static let HDMI = Port(rawValue: "HDMIOutput")
        /// AirPlay output.
        public static let airPlay = Port(rawValue: "AirPlay")
        /// A Bluetooth Low Energy output.
        public static let bluetoothLE = Port(rawValue: "BluetoothLE")
        /// A Bluetooth hands-free device (input and output).
        public static let bluetoothHFP = Port(rawValue: "BluetoothHFP")
        /// A USB audio device.
        public static let usbAudio = Port(rawValue: "USBAudio")
        /// A car's audio system.
        public static let carAudio = Port(rawValue: "CarAudio")
        /// A device without hardware of its own (here: a sound server such as PulseAudio or PipeWire).
        public static let virtual = Port(rawValue: "Virtual")
        /// A PCI device.
        public static let PCI = Port(rawValue: "PCI")
        /// A FireWire device.
        public static let fireWire = Port(rawValue: "FireWire")
        /// A DisplayPort output.
        public static let displayPort = Port(rawValue: "DisplayPort")
        /// An AVB device.
        public static let AVB = Port(rawValue: "AVB")
        /// A Thunderbolt device.
        public static let thunderbolt = Port(rawValue: "Thunderbolt")
    }
}
