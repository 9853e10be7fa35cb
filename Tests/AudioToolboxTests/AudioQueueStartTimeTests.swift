import AudioToolbox
import Foundation
import Testing

/// AudioQueueStart with a start time: an output queue plays silence until the sample time on its timeline, then
/// its audio from the exact frame (checked offline, where it is exact).
@Suite struct AudioQueueStartTimeTests {
    static let rate = 44100.0

    @Test func startsAtTheSampleTime() throws {
        var format = AudioStreamBasicDescription(mSampleRate: Self.rate, mFormatID: kAudioFormatLinearPCM,
                                                 mFormatFlags: kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked,
                                                 mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4, mChannelsPerFrame: 1,
                                                 mBitsPerChannel: 32, mReserved: 0)
        var queue: AudioQueueRef?
        try #require(AudioQueueNewOutput(&format, { _, _, _ in }, nil, nil, nil, 0, &queue) == noErr)
        defer { AudioQueueDispose(queue!, true) }
        var buffer: AudioQueueBufferRef?
        try #require(AudioQueueAllocateBuffer(queue!, 4 * 2000, &buffer) == noErr)
        let samples = buffer!.pointee.mAudioData.assumingMemoryBound(to: Float.self)
        for i in 0..<2000 { samples[i] = Float(i + 1) / 4000 }
        buffer!.pointee.mAudioDataByteSize = 4 * 2000
        try #require(AudioQueueEnqueueBuffer(queue!, buffer!, 0, nil) == noErr)
        var capture = format
        try #require(AudioQueueSetOfflineRenderFormat(queue!, &capture, nil) == noErr)
        var captureBuffer: AudioQueueBufferRef?
        try #require(AudioQueueAllocateBuffer(queue!, 4 * 512, &captureBuffer) == noErr)
        var start = AudioTimeStamp()
        start.mSampleTime = 1000
        start.mFlags = .sampleTimeValid
        try #require(AudioQueueStart(queue!, &start) == noErr)
        var ts = AudioTimeStamp()
        ts.mFlags = .sampleTimeValid
        try #require(AudioQueueOfflineRender(queue!, &ts, captureBuffer!, 0) == noErr)
        var out: [Float] = []
        while out.count < 4000 {
            try #require(AudioQueueOfflineRender(queue!, &ts, captureBuffer!, 512) == noErr)
            let got = Int(captureBuffer!.pointee.mAudioDataByteSize) / 4
            out += UnsafeBufferPointer(start: captureBuffer!.pointee.mAudioData.assumingMemoryBound(to: Float.self), count: got)
            ts.mSampleTime += Double(got)
            if got == 0 { break }
        }
        #expect(out.count >= 3000)
        #expect(out[0..<1000].allSatisfy { $0 == 0 }, "silence before the start time")
        let expected: [Float] = (0..<2000).map { i in Float(i + 1) / 4000 }
        #expect(Array(out[1000..<3000]) == expected, "the buffer from frame 1000 exactly")
        var now = AudioTimeStamp()
        #expect(AudioQueueGetCurrentTime(queue!, nil, &now, nil) == noErr)
        #expect(now.mSampleTime >= 3000)
    }
}

extension AudioQueueStartTimeTests {
    @Test func enqueuedBufferStartsAtItsTime() throws {
        var format = AudioStreamBasicDescription(mSampleRate: Self.rate, mFormatID: kAudioFormatLinearPCM,
                                                 mFormatFlags: kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked,
                                                 mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4, mChannelsPerFrame: 1,
                                                 mBitsPerChannel: 32, mReserved: 0)
        var queue: AudioQueueRef?
        try #require(AudioQueueNewOutput(&format, { _, _, _ in }, nil, nil, nil, 0, &queue) == noErr)
        defer { AudioQueueDispose(queue!, true) }
        var first: AudioQueueBufferRef?, second: AudioQueueBufferRef?
        try #require(AudioQueueAllocateBuffer(queue!, 4 * 500, &first) == noErr)
        try #require(AudioQueueAllocateBuffer(queue!, 4 * 500, &second) == noErr)
        for (b, v) in [(first!, Float(0.25)), (second!, Float(-0.5))] {
            let p = b.pointee.mAudioData.assumingMemoryBound(to: Float.self)
            for i in 0..<500 { p[i] = v }
            b.pointee.mAudioDataByteSize = 4 * 500
        }
        try #require(AudioQueueEnqueueBuffer(queue!, first!, 0, nil) == noErr)
        var when = AudioTimeStamp()
        when.mSampleTime = 1200
        when.mFlags = .sampleTimeValid
        var actual = AudioTimeStamp()
        try #require(AudioQueueEnqueueBufferWithParameters(queue!, second!, 0, nil, 0, 0, 0, nil, &when, &actual) == noErr)
        #expect(actual.mSampleTime == 1200)
        var capture = format
        try #require(AudioQueueSetOfflineRenderFormat(queue!, &capture, nil) == noErr)
        var captureBuffer: AudioQueueBufferRef?
        try #require(AudioQueueAllocateBuffer(queue!, 4 * 256, &captureBuffer) == noErr)
        try #require(AudioQueueStart(queue!, nil) == noErr)
        var ts = AudioTimeStamp()
        ts.mFlags = .sampleTimeValid
        try #require(AudioQueueOfflineRender(queue!, &ts, captureBuffer!, 0) == noErr)
        var out: [Float] = []
        for _ in 0..<8 {
            try #require(AudioQueueOfflineRender(queue!, &ts, captureBuffer!, 256) == noErr)
            let got = Int(captureBuffer!.pointee.mAudioDataByteSize) / 4
            out += UnsafeBufferPointer(start: captureBuffer!.pointee.mAudioData.assumingMemoryBound(to: Float.self), count: got)
            ts.mSampleTime += Double(got)
        }
        #expect(out.count == 2048)
        #expect(out[0..<500].allSatisfy { $0 == 0.25 }, "the first buffer at once")
        #expect(out[500..<1200].allSatisfy { $0 == 0 }, "silence up to the second's start time")
        #expect(out[1200..<1700].allSatisfy { $0 == -0.5 }, "the second from frame 1200")
    }
}
