#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A non-blocking IPv4 UDP socket bound to one port. Sends may come from any thread; receives come from the
/// session's network thread only.
final class RTPMIDISocket: @unchecked Sendable {
    let fd: Int32
    let port: UInt16

    /// Binds to `address` (a dotted quad; "0.0.0.0" for every interface) and `port` (0: any free port);
    /// nil if that fails.
    init?(address: String, port: UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        guard var sa = RTPMIDIAddress.resolve(address, port: port)?.sockaddr else { close(fd); return nil }
        let bound = withUnsafePointer(to: &sa) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { close(fd); return nil }
        var local = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        self.fd = fd
        self.port = UInt16(bigEndian: local.sin_port)
    }

    deinit { close(fd) }

    /// Sends one datagram (best effort: UDP, a full buffer drops it as the network would).
    func send(_ bytes: [UInt8], to address: RTPMIDIAddress) {
        var sa = address.sockaddr
        _ = bytes.withUnsafeBytes { buffer in
            withUnsafePointer(to: &sa) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL), $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
    }

    /// The next waiting datagram and its sender, or nil when none waits.
    func receive(into buffer: UnsafeMutableRawBufferPointer) -> ([UInt8], RTPMIDIAddress)? {
        var sa = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let n = withUnsafeMutablePointer(to: &sa) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(fd, buffer.baseAddress, buffer.count, 0, $0, &length) }
        }
        guard n >= 0 else { return nil }
        let from = RTPMIDIAddress(ip: UInt32(bigEndian: sa.sin_addr.s_addr), port: UInt16(bigEndian: sa.sin_port))
        return (Array(UnsafeRawBufferPointer(rebasing: buffer[0..<n])), from)
    }

    /// A control socket on `port` and its data socket on `port + 1` (port 0: the first free pair found).
    static func pair(address: String, port: UInt16) -> (control: RTPMIDISocket, data: RTPMIDISocket)? {
        for attempt in 0..<32 {
            let wanted = port == 0 ? 0 : port &+ UInt16(2 * attempt)
            guard let control = RTPMIDISocket(address: address, port: wanted), control.port < .max else { continue }
            if let data = RTPMIDISocket(address: address, port: control.port + 1) { return (control, data) }
        }
        return nil
    }
}
