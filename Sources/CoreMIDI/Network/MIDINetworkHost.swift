import Foundation

/// A network address a session can connect to: an IP address or host name with the control (UDP) port, or a
/// Bonjour service by name and domain. Resolving a Bonjour service needs mDNS, which this implementation does
/// not do: such hosts can be contacts but not connected to.
open class MIDINetworkHost: NSObject, @unchecked Sendable {
    /// The user's tag for the host.
    public let name: String
    /// The IP address or host name ("" for a Bonjour host).
    public let address: String
    /// The session's control port (its data port is the next one).
    public let port: Int
    /// The Bonjour service name, for a host given that way.
    public let netServiceName: String?
    /// The Bonjour service domain, for a host given that way.
    public let netServiceDomain: String?

    /// A host at an address (IP or name) and control port.
    public init(name: String, address: String, port: Int) {
        self.name = name
        self.address = address
        self.port = port
        netServiceName = nil
        netServiceDomain = nil
    }

    /// A host known by its Bonjour service name and domain.
    public init(name: String, netServiceName: String, netServiceDomain: String) {
        self.name = name
        address = ""
        port = 0
        self.netServiceName = netServiceName
        self.netServiceDomain = netServiceDomain
    }

    /// Whether both stand for the same session: the same address and port, or the same Bonjour service.
    open func hasSameAddress(as other: MIDINetworkHost) -> Bool {
        if let service = netServiceName {
            return service == other.netServiceName && netServiceDomain == other.netServiceDomain
        }
        guard other.netServiceName == nil, port == other.port else { return false }
        if address == other.address { return true }
        // "localhost" and "127.0.0.1" are the same host: compare what they resolve to.
        guard let a = RTPMIDIAddress.resolve(address, port: 0), let b = RTPMIDIAddress.resolve(other.address, port: 0) else { return false }
        return a == b
    }

    /// The host's address and control port, resolved (nil for a Bonjour host or an unknown name).
    var resolved: RTPMIDIAddress? {
        guard netServiceName == nil, (1...65_534).contains(port) else { return nil }
        return RTPMIDIAddress.resolve(address, port: UInt16(port))
    }

    /// The host as Apple's description shows it.
    open override var description: String {
        "<MIDINetworkHost \(name): \(netServiceName.map { "\($0).\(netServiceDomain ?? "")" } ?? "\(address):\(port)")>"
    }
}
