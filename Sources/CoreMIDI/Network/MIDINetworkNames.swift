/// The Bonjour service type of AppleMIDI sessions.
public let MIDINetworkBonjourServiceType: String = "_apple-midi._udp"
/// Posted (object: the session) when a session's contact list changes.
public let MIDINetworkNotificationContactsDidChange: String = "MIDINetworkNotificationContactsDidChange"
/// Posted (object: the session) when a session's connections, policy or enabled state change.
public let MIDINetworkNotificationSessionDidChange: String = "MIDINetworkNotificationSessionDidChange"
