/// Who may connect to a network session (Apple's values).
public enum MIDINetworkConnectionPolicy: UInt, Sendable {
    /// No one: invitations are refused.
    case noOne = 0
    /// Only hosts in the session's contact list.
    case hostsInContactList = 1
    /// Any host.
    case anyone = 2
}
