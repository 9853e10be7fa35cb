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
