// The one file that touches swift-corelibs' CoreFoundation. Its CFString and CFRunLoop types would clash
// with the Apple-named ones CoreAudioTypes declares (its CFString does not bridge String), so this
// internal target hands out opaque pointers and Swift values only; CoreAudioTypes wraps them in Apple's names.
import CoreFoundation
import Foundation

/// CoreFoundation run loops behind opaque pointers: the loop Foundation's `RunLoop` drives, so sources
/// added here fire whether the thread runs `CFRunLoopRunInMode` or `RunLoop.run(mode:before:)`.
public enum RunLoopBridge {
    /// The calling thread's run loop (created on first use, as CoreFoundation does).
    public static func current() -> OpaquePointer { OpaquePointer(Unmanaged.passUnretained(CFRunLoopGetCurrent()).toOpaque()) }

    /// The main thread's run loop.
    public static func main() -> OpaquePointer { OpaquePointer(Unmanaged.passUnretained(CFRunLoopGetMain()).toOpaque()) }

    static func loop(_ p: OpaquePointer) -> CFRunLoop { Unmanaged<CFRunLoop>.fromOpaque(UnsafeRawPointer(p)).takeUnretainedValue() }

    /// CoreFoundation's own string for a mode name (the two standard modes are its constants).
    static func mode(_ name: String) -> CFString {
        if name == "kCFRunLoopDefaultMode" { return kCFRunLoopDefaultMode }
        if name == "kCFRunLoopCommonModes" { return kCFRunLoopCommonModes }
        return name.withCString { CFStringCreateWithCString(nil, $0, CFStringBuiltInEncodings.UTF8.rawValue) }
    }

    /// Runs the calling thread's loop in `mode`; returns CoreFoundation's result code (1 finished,
    /// 2 stopped, 3 timed out, 4 handled a source).
    public static func run(mode: String, seconds: Double, returnAfterSourceHandled: Bool) -> Int32 {
        CFRunLoopRunInMode(self.mode(mode), seconds, returnAfterSourceHandled).rawValue
    }

    /// Runs the calling thread's loop in the default mode until it is stopped or has nothing to run.
    public static func run() { CFRunLoopRun() }

    /// Makes the innermost run of `loop` return.
    public static func stop(_ loop: OpaquePointer) { CFRunLoopStop(self.loop(loop)) }

    /// Wakes `loop` if it is waiting.
    public static func wakeUp(_ loop: OpaquePointer) { CFRunLoopWakeUp(self.loop(loop)) }

    /// Whether `loop` is asleep waiting for a source.
    public static func isWaiting(_ loop: OpaquePointer) -> Bool { CFRunLoopIsWaiting(self.loop(loop)) }

    /// The mode `loop` is running in, if it is running.
    public static func currentMode(_ loop: OpaquePointer) -> String? {
        guard let m = CFRunLoopCopyCurrentMode(self.loop(loop)) else { return nil }
        let length = CFStringGetLength(m)
        var buffer = [CChar](repeating: 0, count: Int(length) * 4 + 1)
        guard CFStringGetCString(m, &buffer, buffer.count, CFStringBuiltInEncodings.UTF8.rawValue) else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Runs `block` once, the next time `loop` runs in `mode` (CFRunLoopPerformBlock), and wakes the loop.
    public static func perform(_ loop: OpaquePointer, mode: String, _ block: @escaping () -> Void) {
        let l = self.loop(loop)
        CFRunLoopPerformBlock(l, self.mode(mode), block)
        CFRunLoopWakeUp(l)
    }
}

/// A version-0 run loop source: `signal()` from any thread makes the loop call `perform` on its own
/// thread, the next time it runs in one of the source's modes (and makes `CFRunLoopRunInMode` with
/// returnAfterSourceHandled return "handled source").
public final class RunLoopSignalSource: @unchecked Sendable {
    private let perform: () -> Void
    private var source: CFRunLoopSource!
    private let loop: CFRunLoop

    /// A source on `loop` in `mode` that calls `perform` there.
    public init(loop: OpaquePointer, mode: String, perform: @escaping () -> Void) {
        self.perform = perform
        self.loop = RunLoopBridge.loop(loop)
        var context = CFRunLoopSourceContext()
        context.info = Unmanaged.passUnretained(self).toOpaque()
        context.perform = { info in
            Unmanaged<RunLoopSignalSource>.fromOpaque(info!).takeUnretainedValue().perform()
        }
        source = CFRunLoopSourceCreate(nil, 0, &context)
        CFRunLoopAddSource(self.loop, source, RunLoopBridge.mode(mode))
    }

    /// Marks the source ready and wakes its loop (callable from any thread but the real-time one).
    public func signal() {
        CFRunLoopSourceSignal(source)
        CFRunLoopWakeUp(loop)
    }

    /// Removes the source from every mode; `perform` is not called afterwards.
    public func invalidate() { CFRunLoopSourceInvalidate(source) }

    deinit { CFRunLoopSourceInvalidate(source) }
}
