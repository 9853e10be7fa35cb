import Foundation

/// A connection of the session to a remote host: add one to a session to connect, remove it to disconnect.
open class MIDINetworkConnection: NSObject, @unchecked Sendable {
    /// The remote host.
    public let host: MIDINetworkHost

    /// A connection to `host`.
    public init(host: MIDINetworkHost) {
        self.host = host
    }

    /// The connection as Apple's description shows it.
    open override var description: String { "<MIDINetworkConnection \(host)>" }
}
