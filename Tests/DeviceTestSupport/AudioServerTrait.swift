import Testing

/// Device tests share one sound server, and some stop or reroute it: `.audioServer` on a suite runs its
/// tests one at a time across all suites (Swift Testing runs suites in parallel), each with the server
/// started and routed to the null sinks.
public struct AudioServerTrait: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        guard testCase != nil else { return try await function() }
        await AudioServerGate.shared.acquire()
        // A desktop's own defaults come back after the test (the test routes them to the null sinks).
        let saved = PulseTestServer.defaults()
        let ready = PulseTestServer.prepare()
        #expect(ready, "the PulseAudio test server must run (scripts/pulse-server.sh)")
        do { try await function() } catch {
            if let saved { PulseTestServer.restore(saved) }
            await AudioServerGate.shared.release()
            throw error
        }
        if let saved { PulseTestServer.restore(saved) }
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
