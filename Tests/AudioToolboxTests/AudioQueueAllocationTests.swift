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

        /// A tap that pulls its source and halves it in place (pre- or post-effects), or a siphon that reads it.
        static let tap: AudioQueueProcessingTapCallback = { user, tap, frames, timeStamp, flags, outFrames, ioData in
            let list = UnsafeMutableAudioBufferListPointer(ioData)
            // The client data counts the calls and the frames looked at.
            let seen = user.assumingMemoryBound(to: Int.self)
            seen[0] += 1
            if flags.pointee.contains(.siphon) {
                seen[1] += Int(outFrames.pointee) * Int(list[0].mData == nil ? 0 : 1)
                return
            }
            var got: UInt32 = 0
            var sourceFlags = AudioQueueProcessingTapFlags()
            guard AudioQueueProcessingTapGetSourceAudio(tap, frames, timeStamp, &sourceFlags, &got, ioData) == noErr else { return }
            var time: Float64 = 0, count: UInt32 = 0
            _ = AudioQueueProcessingTapGetQueueTime(tap, &time, &count)
            for c in 0..<list.count {
                let p = list[c].mData!.assumingMemoryBound(to: Float.self)
                for i in 0..<Int(got) { p[i] *= 0.5 }
            }
            seen[1] += Int(got)
            outFrames.pointee = got
        }
    }

    @Test(.timeLimit(.minutes(1))) func outputQueueRenderAllocatesNothing() throws {
        try renderAllocatesNothing(tap: nil)
    }

    /// The same with a processing tap in the render: pulling its source before or after the effects, or siphoning.
    @Test(.timeLimit(.minutes(1)), arguments: [AudioQueueProcessingTapFlags.preEffects, .postEffects, [.postEffects, .siphon]])
    func outputQueueWithATapAllocatesNothing(flags: AudioQueueProcessingTapFlags) throws {
        try renderAllocatesNothing(tap: flags)
    }

    /// The same with ChannelAssignments (the queue's mono audio routed to the device's right channel).
    @Test(.timeLimit(.minutes(1))) func outputQueueWithChannelAssignmentsAllocatesNothing() throws {
        try renderAllocatesNothing(tap: nil, assigned: true)
    }

    func renderAllocatesNothing(tap flags: AudioQueueProcessingTapFlags?, assigned: Bool = false) throws {
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
        if assigned {
            var uid: Unmanaged<CFString>?
            var size = UInt32(MemoryLayout<Unmanaged<CFString>?>.size)
            try #require(AudioQueueGetProperty(queue!, kAudioQueueProperty_CurrentDevice, &uid, &size) == noErr)
            let name = try #require(uid).takeRetainedValue()
            var assignment = AudioQueueChannelAssignment(mDeviceUID: Unmanaged.passUnretained(name), mChannelNumber: 2)
            try #require(AudioQueueSetProperty(queue!, kAudioQueueProperty_ChannelAssignments, &assignment,
                                               UInt32(MemoryLayout<AudioQueueChannelAssignment>.stride)) == noErr)
        }
        let tapScratch = UnsafeMutablePointer<Int>.allocate(capacity: 2)
        tapScratch.initialize(repeating: 0, count: 2)
        defer { tapScratch.deallocate() }
        if let flags {
            var maxFrames: UInt32 = 0
            var processing = AudioStreamBasicDescription()
            var tap: AudioQueueProcessingTapRef?
            try #require(AudioQueueProcessingTapNew(queue!, Counter.tap, tapScratch, flags, &maxFrames, &processing, &tap) == noErr)
        }
        for _ in 0..<3 {
            var buffer: AudioQueueBufferRef?
            try #require(AudioQueueAllocateBuffer(queue!, 2 * 4410, &buffer) == noErr)
            Counter.callback(me, queue!, buffer!)
        }
        try #require(AudioQueueStart(queue!, nil) == noErr)
        let object = try #require(AudioQueueObject.handles.object(UnsafeMutableRawPointer(queue!), as: AudioQueueObject.self))
        let unit = try #require(object.ioUnit)
        #expect(AudioUnitAddRenderNotify(unit, Counter.notify, me) == noErr)
        // Until 120 renders (about three seconds), or ten: the first device start in a process takes a second or
        // more to begin rendering on a loaded machine.
        let deadline = Date().addingTimeInterval(10)
        while counter.renders < 120 && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        #expect(AudioQueueStop(queue!, true) == noErr)
        #expect(counter.renders > 100, "renders \(counter.renders)")
        #expect(counter.callbacks > 15, "callbacks \(counter.callbacks)")
        if flags != nil {
            // The tap ran in every render and saw the audio.
            #expect(tapScratch[0] >= counter.renders && tapScratch[1] > 44100, "tap calls \(tapScratch[0]), frames \(tapScratch[1])")
        }
        #expect(counter.allocations == 0, "\(counter.allocations) allocations in \(counter.renders) renders (tap \(String(describing: flags)))")
    }
}
