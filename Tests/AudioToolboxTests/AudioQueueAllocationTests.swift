import AllocationCounter
@testable import AudioToolbox
import DeviceTestSupport
import Foundation
import Testing

/// An output queue's device side allocates nothing: a render notification on the queue's I/O unit counts
/// the heap allocations the IO thread makes in every render (the queue's render callback converting the
/// enqueued Int16 buffers, volume and metering included) while the client refills buffers from its
/// callback on the queue's thread.
@Suite(.serialized, .audioServer) struct AudioQueueAllocationTests {
    final class Counter: @unchecked Sendable {
        var renders = 0
        var allocations: UInt64 = 0
        var callbacks = 0

        static let notify: AURenderCallback = { refCon, flags, _, bus, _, _ in
            let c = Unmanaged<Counter>.fromOpaque(refCon).takeUnretainedValue()
            guard bus == 0 else { return noErr }
            if flags.pointee.contains(.unitRenderAction_PreRender) {
                if c.renders > 8 { oca_alloc_counting_start() }
            } else if flags.pointee.contains(.unitRenderAction_PostRender) {
                if c.renders > 8 { c.allocations += oca_alloc_counting_stop() }
                c.renders += 1
            }
            return noErr
        }

        /// Refills the buffer with a tone and enqueues it again.
        static let callback: AudioQueueOutputCallback = { user, queue, buffer in
            let c = Unmanaged<Counter>.fromOpaque(user!).takeUnretainedValue()
            let samples = buffer.pointee.mAudioData.assumingMemoryBound(to: Int16.self)
            let count = Int(buffer.pointee.mAudioDataBytesCapacity) / 2
            for i in 0..<count { samples[i] = Int16(6000 * sin(Double(c.callbacks * count + i) * 0.05)) }
            buffer.pointee.mAudioDataByteSize = buffer.pointee.mAudioDataBytesCapacity
            c.callbacks += 1
            AudioQueueEnqueueBuffer(queue, buffer, 0, nil)
        }
    }

    @Test(.timeLimit(.minutes(1))) func outputQueueRenderAllocatesNothing() throws {
        var format = AudioStreamBasicDescription(mSampleRate: 44100, mFormatID: kAudioFormatLinearPCM,
                                                 mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked,
                                                 mBytesPerPacket: 2, mFramesPerPacket: 1, mBytesPerFrame: 2,
                                                 mChannelsPerFrame: 1, mBitsPerChannel: 16, mReserved: 0)
        let counter = Counter()
        let me = Unmanaged.passUnretained(counter).toOpaque()
        var queue: AudioQueueRef?
        try #require(AudioQueueNewOutput(&format, Counter.callback, me, nil, nil, 0, &queue) == noErr)
        defer { AudioQueueDispose(queue!, true) }
        var on: UInt32 = 1
        try #require(AudioQueueSetProperty(queue!, kAudioQueueProperty_EnableLevelMetering, &on, 4) == noErr)
        try #require(AudioQueueSetParameter(queue!, kAudioQueueParam_Volume, 0.7) == noErr)
        for _ in 0..<3 {
            var buffer: AudioQueueBufferRef?
            try #require(AudioQueueAllocateBuffer(queue!, 2 * 4410, &buffer) == noErr)
            Counter.callback(me, queue!, buffer!)
        }
        try #require(AudioQueueStart(queue!, nil) == noErr)
        let object = try #require(AudioQueueObject.handles.object(UnsafeMutableRawPointer(queue!), as: AudioQueueObject.self))
        let unit = try #require(object.ioUnit)
        #expect(AudioUnitAddRenderNotify(unit, Counter.notify, me) == noErr)
        // Three seconds: the first device start in a process takes up to a second to begin rendering.
        Thread.sleep(forTimeInterval: 3)
        #expect(AudioQueueStop(queue!, true) == noErr)
        #expect(counter.renders > 100, "renders \(counter.renders)")
        #expect(counter.callbacks > 15, "callbacks \(counter.callbacks)")
        #expect(counter.allocations == 0, "\(counter.allocations) allocations in \(counter.renders) renders")
    }
}
