import Foundation
import Synchronization

/// Work the render thread hands off: completion handlers, tap buffers, file reading. The render side only
/// flags work in lock-free structures; a client's `service()` does the rest here, where blocking and
/// allocating are fine.
protocol ServiceClient: AnyObject {
    /// Does whatever work is waiting. Called every few milliseconds on the service thread.
    func service()
}

/// The module's one service thread: polls its clients every 2 ms while any is registered. Polling keeps the
/// render thread free of the system calls a wake-up would need.
final class ServiceThread: @unchecked Sendable {
    static let shared = ServiceThread()

    private struct Entry { weak var client: (any ServiceClient)? }
    private var clients: [ObjectIdentifier: Entry] = [:]
    private let clientsLock = NSLock()
    private let running = Mutex(false)
    private let interval: useconds_t = 2000

    /// Starts serving `client` (held weakly) until it is removed or freed.
    func add(_ client: any ServiceClient) {
        clientsLock.withLock { clients[ObjectIdentifier(client)] = Entry(client: client) }
        let start = running.withLock { running -> Bool in
            defer { running = true }
            return !running
        }
        if start {
            let thread = Thread { [self] in loop() }
            thread.name = "AVFAudio service"
            thread.start()
        }
    }

    /// Stops serving `client`.
    func remove(_ client: any ServiceClient) {
        _ = clientsLock.withLock { clients.removeValue(forKey: ObjectIdentifier(client)) }
    }

    /// Runs every client's pending work now, on the calling thread (for callers that must see it done).
    func drain() {
        let work = snapshot()
        serviceLock.lock()
        for client in work { client.service() }
        serviceLock.unlock()
    }

    private func snapshot() -> [any ServiceClient] {
        clientsLock.withLock {
            clients = clients.filter { $0.value.client != nil }
            return clients.values.compactMap(\.client)
        }
    }

    private let serviceLock = NSLock()

    private func loop() {
        while true {
            let work = snapshot()
            if work.isEmpty {
                let stop = running.withLock { running -> Bool in
                    if clientsLock.withLock({ clients.isEmpty }) { running = false; return true }
                    return false
                }
                if stop { return }
            }
            serviceLock.lock()
            for client in work { client.service() }
            serviceLock.unlock()
            usleep(interval)
        }
    }

    /// Runs `body` while no client is being serviced (so a client can be torn down safely).
    func exclusive<T>(_ body: () -> T) -> T {
        serviceLock.lock()
        defer { serviceLock.unlock() }
        return body()
    }
}
