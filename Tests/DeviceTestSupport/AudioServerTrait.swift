import Testing

/// Device tests share one private sound server, and some stop or reroute it: `.audioServer` on a suite runs
/// its tests one at a time across all suites (Swift Testing runs suites in parallel), each with the server
/// started and routed to its null sinks.
public struct AudioServerTrait: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        guard testCase != nil else { return try await function() }
        await AudioServerGate.shared.acquire()
        // The private test server (a user's own server is never touched), routed to its null sinks.
        let ready = PulseTestServer.prepare()
        #expect(ready, "the private PulseAudio test server must start (scripts/pulse-server.sh)")
        do { try await function() } catch {
            await AudioServerGate.shared.release()
            throw error
        }
        await AudioServerGate.shared.release()
    }
}

extension Trait where Self == AudioServerTrait {
    public static var audioServer: Self { Self() }
}

/// A first-come, first-served async lock.
actor AudioServerGate {
    static let shared = AudioServerGate()
    private var held = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func acquire() async {
        if !held { held = true; return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func release() {
        if waiters.isEmpty { held = false } else { waiters.removeFirst().resume() }
    }
}
