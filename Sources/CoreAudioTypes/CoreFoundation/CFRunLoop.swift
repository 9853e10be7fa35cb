// CoreFoundation's run loop under Apple's Swift names, over swift-corelibs' CFRunLoop (the loop
// Foundation's RunLoop drives), so Audio Queue callbacks delivered to a run loop arrive while that
// thread runs CFRunLoopRunInMode, CFRunLoopRun or RunLoop.run(mode:before:).
internal import OCARunLoop
import Foundation

/// A thread's run loop (Apple's `CFRunLoop`). One object per thread: `CFRunLoopGetCurrent()` returns
/// the same instance each time on a thread.
public final class CFRunLoop: Hashable, @unchecked Sendable {
    /// The CoreFoundation loop (an opaque CFRunLoopRef), for the AudioToolbox code that attaches sources to it.
    public let _loop: OpaquePointer

    private init(_ loop: OpaquePointer) { _loop = loop }

    nonisolated(unsafe) private static var instances: [OpaquePointer: CFRunLoop] = [:]
    private static let instancesLock = NSLock()

    static func wrapping(_ loop: OpaquePointer) -> CFRunLoop {
        instancesLock.lock()
        defer { instancesLock.unlock() }
        if let existing = instances[loop] { return existing }
        let made = CFRunLoop(loop)
        instances[loop] = made
        return made
    }

    /// Identity, as CFEqual on run loops.
    public static func == (a: CFRunLoop, b: CFRunLoop) -> Bool { a._loop == b._loop }
    /// Hashes the identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(_loop) }
}

/// A run loop mode name (Apple's `CFRunLoopMode`, a typed CFString).
public struct CFRunLoopMode: Hashable, Equatable, RawRepresentable, @unchecked Sendable {
    /// The mode's name.
    public var rawValue: CFString
    /// A mode with this name.
    public init(_ rawValue: CFString) { self.rawValue = rawValue }
    /// A mode with this name.
    public init(rawValue: CFString) { self.rawValue = rawValue }

    /// The default mode (`kCFRunLoopDefaultMode`).
    public static let defaultMode = CFRunLoopMode("kCFRunLoopDefaultMode" as CFString)
    /// The set of common modes (`kCFRunLoopCommonModes`): a source added here runs in the default mode.
    public static let commonModes = CFRunLoopMode("kCFRunLoopCommonModes" as CFString)
}

/// The default run loop mode.
public let kCFRunLoopDefaultMode: CFRunLoopMode! = CFRunLoopMode.defaultMode
/// The common modes pseudo-mode.
public let kCFRunLoopCommonModes: CFRunLoopMode! = CFRunLoopMode.commonModes

/// Why `CFRunLoopRunInMode` returned.
@frozen public enum CFRunLoopRunResult: Int32, Sendable {
    /// The mode had no sources or timers.
    case finished = 1
    /// `CFRunLoopStop` was called.
    case stopped = 2
    /// The time ran out.
    case timedOut = 3
    /// A source was handled and returnAfterSourceHandled was true.
    case handledSource = 4
}

/// The calling thread's run loop.
@discardableResult
public func CFRunLoopGetCurrent() -> CFRunLoop! { CFRunLoop.wrapping(RunLoopBridge.current()) }

/// The main thread's run loop.
@discardableResult
public func CFRunLoopGetMain() -> CFRunLoop! { CFRunLoop.wrapping(RunLoopBridge.main()) }

/// Runs the calling thread's run loop in the default mode until it is stopped or has no sources.
public func CFRunLoopRun() { RunLoopBridge.run() }

/// Runs the calling thread's run loop in `mode` for up to `seconds`, or until a source has been
/// handled when `returnAfterSourceHandled` is true.
@discardableResult
public func CFRunLoopRunInMode(_ mode: CFRunLoopMode!, _ seconds: CFTimeInterval, _ returnAfterSourceHandled: Bool) -> CFRunLoopRunResult {
    let name = (mode ?? .defaultMode).rawValue as String
    return CFRunLoopRunResult(rawValue: RunLoopBridge.run(mode: name, seconds: seconds, returnAfterSourceHandled: returnAfterSourceHandled)) ?? .finished
}

/// Makes the innermost `CFRunLoopRun`/`CFRunLoopRunInMode` of `rl` return.
public func CFRunLoopStop(_ rl: CFRunLoop!) { RunLoopBridge.stop(rl._loop) }

/// Wakes `rl` if it is waiting for a source or timer.
public func CFRunLoopWakeUp(_ rl: CFRunLoop!) { RunLoopBridge.wakeUp(rl._loop) }

/// Whether `rl` is asleep, waiting for a source or timer.
@discardableResult
public func CFRunLoopIsWaiting(_ rl: CFRunLoop!) -> Bool { RunLoopBridge.isWaiting(rl._loop) }

/// The mode `rl` is running in, or nil when it is not running.
@discardableResult
public func CFRunLoopCopyCurrentMode(_ rl: CFRunLoop!) -> CFRunLoopMode! {
    RunLoopBridge.currentMode(rl._loop).map { CFRunLoopMode($0 as CFString) }
}

/// Runs `block` once on `rl`'s thread the next time it runs in `mode` (a mode name or an array of them).
public func CFRunLoopPerformBlock(_ rl: CFRunLoop!, _ mode: CFTypeRef!, _ block: (() -> Void)!) {
    guard let rl, let block else { return }
    let names: [String]
    if let one = mode as? CFString { names = [one as String] }
    else if let many = mode as? CFArray { names = many.compactMap { ($0 as? CFString).map { $0 as String } } }
    else if let many = mode as? [String] { names = many }
    else { names = ["kCFRunLoopCommonModes"] }
    // CoreFoundation runs a block once, whichever of its modes comes first; one mode is the common case.
    RunLoopBridge.perform(rl._loop, mode: names.first ?? "kCFRunLoopCommonModes", block)
}
