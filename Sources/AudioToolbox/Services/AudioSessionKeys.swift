import Foundation

// Audio Session Services' CFString constants (extern symbols at Apple, whose text is not published): the route
// names take AVAudioSession.Port's raw values, which iOS 7 carried over from them; the dictionary keys' text is ours.

/// A line input.
nonisolated(unsafe) public let kAudioSessionInputRoute_LineIn: CFString = "LineIn" as CFString
/// The built-in microphone.
nonisolated(unsafe) public let kAudioSessionInputRoute_BuiltInMic: CFString = "MicrophoneBuiltIn" as CFString
/// A wired headset's microphone.
nonisolated(unsafe) public let kAudioSessionInputRoute_HeadsetMic: CFString = "MicrophoneWired" as CFString
/// A Bluetooth hands-free input.
nonisolated(unsafe) public let kAudioSessionInputRoute_BluetoothHFP: CFString = "BluetoothHFP" as CFString
/// A USB audio input.
nonisolated(unsafe) public let kAudioSessionInputRoute_USBAudio: CFString = "USBAudio" as CFString
/// A line output.
nonisolated(unsafe) public let kAudioSessionOutputRoute_LineOut: CFString = "LineOut" as CFString
/// Headphones.
nonisolated(unsafe) public let kAudioSessionOutputRoute_Headphones: CFString = "Headphones" as CFString
/// A Bluetooth hands-free output.
nonisolated(unsafe) public let kAudioSessionOutputRoute_BluetoothHFP: CFString = "BluetoothHFP" as CFString
/// A Bluetooth A2DP output.
nonisolated(unsafe) public let kAudioSessionOutputRoute_BluetoothA2DP: CFString = "BluetoothA2DPOutput" as CFString
/// The built-in receiver.
nonisolated(unsafe) public let kAudioSessionOutputRoute_BuiltInReceiver: CFString = "Receiver" as CFString
/// The built-in speaker.
nonisolated(unsafe) public let kAudioSessionOutputRoute_BuiltInSpeaker: CFString = "Speaker" as CFString
/// A USB audio output.
nonisolated(unsafe) public let kAudioSessionOutputRoute_USBAudio: CFString = "USBAudio" as CFString
/// An HDMI output.
nonisolated(unsafe) public let kAudioSessionOutputRoute_HDMI: CFString = "HDMIOutput" as CFString
/// An AirPlay output.
nonisolated(unsafe) public let kAudioSessionOutputRoute_AirPlay: CFString = "AirPlay" as CFString
/// kAudioSessionProperty_AudioRouteDescription's key for the inputs.
nonisolated(unsafe) public let kAudioSession_AudioRouteKey_Inputs: CFString = "RouteDetailedDescription_Inputs" as CFString
/// kAudioSessionProperty_AudioRouteDescription's key for the outputs.
nonisolated(unsafe) public let kAudioSession_AudioRouteKey_Outputs: CFString = "RouteDetailedDescription_Outputs" as CFString
/// A route entry's key for its type (one of the route names above).
nonisolated(unsafe) public let kAudioSession_AudioRouteKey_Type: CFString = "RouteDetailedDescription_PortType" as CFString
/// The route-change dictionary's key for the route before.
nonisolated(unsafe) public let kAudioSession_AudioRouteChangeKey_PreviousRouteDescription: CFString = "OutputDeviceDidChange_PreviousRouteDescription" as CFString
/// The route-change dictionary's key for the route now.
nonisolated(unsafe) public let kAudioSession_AudioRouteChangeKey_CurrentRouteDescription: CFString = "OutputDeviceDidChange_CurrentRouteDescription" as CFString
/// The route-change dictionary's key for the reason (as the macro kAudioSession_AudioRouteChangeKey_Reason).
nonisolated(unsafe) public let kAudioSession_RouteChangeKey_Reason: CFString = "OutputDeviceDidChange_Reason" as CFString
/// An input source's ID key.
nonisolated(unsafe) public let kAudioSession_InputSourceKey_ID: CFString = "InputSourceKey_ID" as CFString
/// An input source's description key.
nonisolated(unsafe) public let kAudioSession_InputSourceKey_Description: CFString = "InputSourceKey_Description" as CFString
/// An output destination's ID key.
nonisolated(unsafe) public let kAudioSession_OutputDestinationKey_ID: CFString = "OutputDestinationKey_ID" as CFString
/// An output destination's description key.
nonisolated(unsafe) public let kAudioSession_OutputDestinationKey_Description: CFString = "OutputDestinationKey_Description" as CFString
