#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv4 address and UDP port (host byte order), as peers are known to a session.
struct RTPMIDIAddress: Hashable {
    var ip: UInt32
    var port: UInt16

    /// The dotted-quad text of the address.
    var host: String { "\(ip >> 24).\(ip >> 16 & 0xFF).\(ip >> 8 & 0xFF).\(ip & 0xFF)" }

    /// The same host at another port (a peer's data port is its control port + 1).
    func with(port: UInt16) -> RTPMIDIAddress { RTPMIDIAddress(ip: ip, port: port) }

    /// Resolves a host name or dotted quad to its first IPv4 address (nil if it has none).
    static func resolve(_ host: String, port: UInt16) -> RTPMIDIAddress? {
        var hints = addrinfo()
        hints.ai_family = AF_INET
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &result) == 0, let first = result else { return nil }
        defer { freeaddrinfo(result) }
        guard let sa = first.pointee.ai_addr, first.pointee.ai_family == AF_INET else { return nil }
        let ip = sa.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt32(bigEndian: $0.pointee.sin_addr.s_addr) }
        return RTPMIDIAddress(ip: ip, port: port)
    }

    /// The address as a sockaddr_in.
    var sockaddr: sockaddr_in {
        var sa = sockaddr_in()
        sa.sin_family = sa_family_t(AF_INET)
        sa.sin_port = port.bigEndian
        sa.sin_addr.s_addr = ip.bigEndian
        return sa
    }
}
