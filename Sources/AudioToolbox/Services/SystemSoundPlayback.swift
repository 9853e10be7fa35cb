import Foundation

/// One playing of a system sound: an output queue holding the whole sound in one buffer, stopped after
/// play-out; when IsRunning falls to 0 the queue goes and the completions are called.
final class SystemSoundPlayback: @unchecked Sendable {
    let id: SystemSoundID
    let sound: SystemSound?
    let block: (() -> Void)?
    private var queue: AudioQueueRef?

    init(id: SystemSoundID, sound: SystemSound?, block: (() -> Void)?) {
        self.id = id
        self.sound = sound
        self.block = block
    }

    /// Starts playing (held alive until done); a sound that cannot play completes at once.
    func start() {
        let me = Unmanaged.passRetained(self)
        guard let sound, !sound.samples.isEmpty, begin(sound, me.toOpaque()) else {
            me.release()
            complete()
            return
        }
    }

    private func begin(_ sound: SystemSound, _ me: UnsafeMutableRawPointer) -> Bool {
        var format = sound.format
        var made: AudioQueueRef?
        guard AudioQueueNewOutput(&format, { _, _, _ in }, nil, nil, nil, 0, &made) == noErr, let q = made else { return false }
        let bytes = sound.samples.count * 4
        var buffer: AudioQueueBufferRef?
        guard bytes <= Int(UInt32.max), AudioQueueAllocateBuffer(q, UInt32(bytes), &buffer) == noErr, let buffer else {
            AudioQueueDispose(q, true)
            return false
        }
        sound.samples.withUnsafeBytes { buffer.pointee.mAudioData.copyMemory(from: $0.baseAddress!, byteCount: bytes) }
        buffer.pointee.mAudioDataByteSize = UInt32(bytes)
        queue = q
        guard AudioQueueEnqueueBuffer(q, buffer, 0, nil) == noErr,
              AudioQueueAddPropertyListener(q, kAudioQueueProperty_IsRunning, Self.listener, me) == noErr,
              AudioQueueStart(q, nil) == noErr, AudioQueueStop(q, false) == noErr else {
            AudioQueueDispose(q, true)
            queue = nil
            return false
        }
        return true
    }

    /// IsRunning changed (on the queue's thread): at 0 the sound has played out.
    private static let listener: AudioQueuePropertyListenerProc = { user, queue, id in
        var running: UInt32 = 1
        var size = UInt32(4)
        guard AudioQueueGetProperty(queue, id, &running, &size) == noErr, running == 0 else { return }
        let playback = Unmanaged<SystemSoundPlayback>.fromOpaque(user!).takeRetainedValue()
        AudioQueueDispose(queue, true)
        playback.complete()
    }

    /// Calls the block (here) and the registered completion proc (on its run loop, the main one if none).
    private func complete() {
        block?()
        guard let registered = sound?.completion else { return }
        let id = self.id
        nonisolated(unsafe) let data = registered.clientData
        let loop = registered.loop ?? CFRunLoopGetMain()
        let proc = unsafeBitCast(registered.proc, to: UnsafeRawPointer.self)
        CFRunLoopPerformBlock(loop, registered.mode as CFString) {
            // Only if the routine is still registered when the loop gets to it: after
            // AudioServicesRemoveSystemSoundCompletion or Dispose its client data may be gone.
            guard let now = SystemSoundRegistry.withSound(id, { $0.completion }) ?? nil,
                  unsafeBitCast(now.proc, to: UnsafeRawPointer.self) == proc, now.clientData == data else { return }
            registered.proc(id, data)
        }
    }
}
