// Audio Queue offline rendering, written as Apple's AQOfflineRenderTest sample does it (queue on the
// current run loop, one buffer refilled from the callback, Stop(false) at the end of the file), against
// Apple's API only.
import AudioToolbox
import Foundation
import Testing

@Suite struct AudioQueueOfflineTests {
    static let rate = 44100.0

    static func int16(channels: UInt32) -> AudioStreamBasicDescription {
        AudioStreamBasicDescription(mSampleRate: rate, mFormatID: kAudioFormatLinearPCM,
                                    mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked,
                                    mBytesPerPacket: 2 * channels, mFramesPerPacket: 1, mBytesPerFrame: 2 * channels,
                                    mChannelsPerFrame: channels, mBitsPerChannel: 16, mReserved: 0)
    }

    static func float32(channels: UInt32) -> AudioStreamBasicDescription {
        AudioStreamBasicDescription(mSampleRate: rate, mFormatID: kAudioFormatLinearPCM,
                                    mFormatFlags: kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked,
                                    mBytesPerPacket: 4 * channels, mFramesPerPacket: 1, mBytesPerFrame: 4 * channels,
                                    mChannelsPerFrame: channels, mBitsPerChannel: 32, mReserved: 0)
    }

    /// A stereo 16-bit WAV of a 440 Hz tone on the left and 660 Hz on the right.
    static func makeWAV(frames: Int) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("oca-aq-\(UUID().uuidString).wav")
        var format = int16(channels: 2)
        var file: AudioFileID?
        try #require(AudioFileCreateWithURL(url as CFURL, kAudioFileWAVEType, &format, .eraseFile, &file) == noErr)
        var samples = [Int16](repeating: 0, count: 2 * frames)
        for n in 0..<frames {
            samples[2 * n] = Int16(12000 * sin(2 * Double.pi * 440 * Double(n) / rate))
            samples[2 * n + 1] = Int16(9000 * sin(2 * Double.pi * 660 * Double(n) / rate))
        }
        var bytes = UInt32(samples.count * 2)
        try #require(AudioFileWriteBytes(file!, false, 0, &bytes, &samples) == noErr)
        AudioFileClose(file!)
        return url
    }

    /// What ExtAudioFile decodes the file to, as interleaved Float32.
    static func extAudioFileDecode(_ url: URL) throws -> [Float] {
        var ext: ExtAudioFileRef?
        try #require(ExtAudioFileOpenURL(url as CFURL, &ext) == noErr)
        defer { ExtAudioFileDispose(ext!) }
        var client = float32(channels: 2)
        try #require(ExtAudioFileSetProperty(ext!, kExtAudioFileProperty_ClientDataFormat,
                                             UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &client) == noErr)
        var out: [Float] = []
        var chunk = [Float](repeating: 0, count: 2 * 4096)
        while true {
            var frames: UInt32 = 4096
            let status = chunk.withUnsafeMutableBytes { raw -> OSStatus in
                var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 2, mDataByteSize: UInt32(raw.count),
                                                                                   mData: raw.baseAddress))
                return ExtAudioFileRead(ext!, &frames, &list)
            }
            try #require(status == noErr)
            if frames == 0 { break }
            out += chunk[0..<(2 * Int(frames))]
        }
        return out
    }

    /// The sample's state: the file, where reading is, and whether the end was reached.
    final class Player {
        var file: AudioFileID?
        var packet: Int64 = 0
        var packetsToRead: UInt32 = 0
        var done = false
        var flushed = false
        var trimStart: UInt32 = 0
        var trimEnd: UInt32 = 0
        var callbackThreads = Set<String>()
    }

    static let callback: AudioQueueOutputCallback = { user, queue, buffer in
        let player = Unmanaged<Player>.fromOpaque(user!).takeUnretainedValue()
        player.callbackThreads.insert(Thread.current.description)
        if player.done { return }
        var bytes = buffer.pointee.mAudioDataBytesCapacity
        var packets = player.packetsToRead
        let status = AudioFileReadPacketData(player.file!, false, &bytes, nil, player.packet, &packets, buffer.pointee.mAudioData)
        precondition(status == noErr)
        if packets > 0 {
            buffer.pointee.mAudioDataByteSize = bytes
            AudioQueueEnqueueBufferWithParameters(queue, buffer, 0, nil, player.trimStart, player.trimEnd, 0, nil, nil, nil)
            player.packet += Int64(packets)
        } else {
            if !player.flushed {
                AudioQueueFlush(queue)
                player.flushed = true
            }
            AudioQueueStop(queue, false)
            player.done = true
        }
    }

    /// Renders `url` through an offline output queue into interleaved Float32, with the capture buffer
    /// half the size of the read buffer (as the sample does). Returns the samples and the queue's last
    /// meter reading with the samples of the render it describes.
    static func offlineRender(_ url: URL, trimStart: UInt32 = 0, trimEnd: UInt32 = 0, volume: Float? = nil, metering: Bool = false,
                              timePitch: (algorithm: UInt32, rate: Float, cents: Float)? = nil,
                              prepare: (AudioQueueRef) throws -> Void = { _ in })
        throws -> (samples: [Float], meters: [AudioQueueLevelMeterState], lastRender: [Float], threads: Set<String>) {
        let player = Player()
        player.trimStart = trimStart
        player.trimEnd = trimEnd
        try #require(AudioFileOpenURL(url as CFURL, .readPermission, 0, &player.file) == noErr)
        defer { AudioFileClose(player.file!) }
        var format = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        try #require(AudioFileGetProperty(player.file!, kAudioFilePropertyDataFormat, &size, &format) == noErr)

        var queue: AudioQueueRef?
        try #require(AudioQueueNewOutput(&format, callback, Unmanaged.passUnretained(player).toOpaque(), CFRunLoopGetCurrent(),
                                         CFRunLoopMode.commonModes.rawValue, 0, &queue) == noErr)
        defer { AudioQueueDispose(queue!, true) }
        let bufferBytes: UInt32 = 0x4000
        player.packetsToRead = bufferBytes / format.mBytesPerPacket
        var buffer: AudioQueueBufferRef?
        try #require(AudioQueueAllocateBuffer(queue!, bufferBytes, &buffer) == noErr)
        if let volume { try #require(AudioQueueSetParameter(queue!, kAudioQueueParam_Volume, volume) == noErr) }
        if metering {
            var on: UInt32 = 1
            try #require(AudioQueueSetProperty(queue!, kAudioQueueProperty_EnableLevelMetering, &on, 4) == noErr)
        }

        if let timePitch {
            var on: UInt32 = 1, algorithm = timePitch.algorithm
            try #require(AudioQueueSetProperty(queue!, kAudioQueueProperty_EnableTimePitch, &on, 4) == noErr)
            try #require(AudioQueueSetProperty(queue!, kAudioQueueProperty_TimePitchAlgorithm, &algorithm, 4) == noErr)
            try #require(AudioQueueSetParameter(queue!, kAudioQueueParam_PlayRate, timePitch.rate) == noErr)
            try #require(AudioQueueSetParameter(queue!, kAudioQueueParam_Pitch, timePitch.cents) == noErr)
        }
        try prepare(queue!)
        var capture = float32(channels: format.mChannelsPerFrame)
        try #require(AudioQueueSetOfflineRenderFormat(queue!, &capture, nil) == noErr)
        let captureBytes = bufferBytes / 2
        var captureBuffer: AudioQueueBufferRef?
        try #require(AudioQueueAllocateBuffer(queue!, captureBytes, &captureBuffer) == noErr)
        try #require(AudioQueueStart(queue!, nil) == noErr)

        var ts = AudioTimeStamp()
        ts.mFlags = .sampleTimeValid
        ts.mSampleTime = 0
        try #require(AudioQueueOfflineRender(queue!, &ts, captureBuffer!, 0) == noErr)
        callback(Unmanaged.passUnretained(player).toOpaque(), queue!, buffer!)

        var out: [Float] = []
        var last: [Float] = []
        var meters: [AudioQueueLevelMeterState] = []
        var renders = 0
        while true {
            let requested = captureBytes / capture.mBytesPerFrame
            try #require(AudioQueueOfflineRender(queue!, &ts, captureBuffer!, requested) == noErr)
            let got = Int(captureBuffer!.pointee.mAudioDataByteSize) / 4
            let samples = captureBuffer!.pointee.mAudioData.assumingMemoryBound(to: Float.self)
            last = Array(UnsafeBufferPointer(start: samples, count: got))
            out += last
            if metering && got > 0 {
                var states = [AudioQueueLevelMeterState](repeating: AudioQueueLevelMeterState(), count: Int(format.mChannelsPerFrame))
                var size = UInt32(states.count * MemoryLayout<AudioQueueLevelMeterState>.size)
                try #require(AudioQueueGetProperty(queue!, kAudioQueueProperty_CurrentLevelMeter, &states, &size) == noErr)
                meters = states
            }
            // Apple's sample stops once it has called Stop(false); the queue still holds what the time-pitch
            // processor has not given back, so this goes on until a short render says the queue played out.
            if player.flushed && got < Int(requested * capture.mChannelsPerFrame) { break }
            ts.mSampleTime += Double(got / Int(capture.mChannelsPerFrame))
            renders += 1
            try #require(renders < 100_000)
        }
        CFRunLoopRunInMode(CFRunLoopMode.defaultMode, 0.05, false)
        // Played out: IsRunning goes to 0 (on the queue's thread, shortly after).
        var running: UInt32 = 1
        for _ in 0..<100 where running != 0 {
            var size = UInt32(4)
            try #require(AudioQueueGetProperty(queue!, kAudioQueueProperty_IsRunning, &running, &size) == noErr)
            if running != 0 { Thread.sleep(forTimeInterval: 0.01) }
        }
        #expect(running == 0)
        return (out, meters, last, player.callbackThreads)
    }

    /// Decoded through the queue, linear PCM comes out sample-identical to ExtAudioFile's decode, every
    /// frame once; callbacks run inside OfflineRender, on the calling thread.
    @Test func offlineRenderMatchesExtAudioFile() throws {
        let frames = 44100 + 1234
        let url = try Self.makeWAV(frames: frames)
        defer { try? FileManager.default.removeItem(at: url) }
        let reference = try Self.extAudioFileDecode(url)
        let (rendered, _, _, threads) = try Self.offlineRender(url)
        #expect(reference.count == 2 * frames)
        #expect(rendered.count == reference.count)
        #expect(rendered == reference)
        #expect(threads == [Thread.current.description])
    }

    /// EnqueueBufferWithParameters' trims remove exactly the asked frames from each buffer.
    @Test func trimsRemoveExactlyTheAskedFrames() throws {
        let frames = 20000
        let url = try Self.makeWAV(frames: frames)
        defer { try? FileManager.default.removeItem(at: url) }
        let reference = try Self.extAudioFileDecode(url)
        let (rendered, _, _, _) = try Self.offlineRender(url, trimStart: 100, trimEnd: 50)
        // Buffers of 4096 frames (16 KiB of 16-bit stereo), the last one short.
        var expected: [Float] = []
        var start = 0
        while start < frames {
            let n = min(4096, frames - start)
            let keep = max(0, n - 150)
            if keep > 0 { expected += reference[(2 * (start + 100))..<(2 * (start + 100 + keep))] }
            start += n
        }
        #expect(rendered.count == expected.count)
        #expect(rendered == expected)
    }

    /// Volume 0.5 halves every sample; the meters are the peak and RMS of the last render's samples.
    @Test func volumeAndMeters() throws {
        let url = try Self.makeWAV(frames: 30000)
        defer { try? FileManager.default.removeItem(at: url) }
        let reference = try Self.extAudioFileDecode(url)
        let (rendered, meters, last, _) = try Self.offlineRender(url, volume: 0.5, metering: true)
        #expect(rendered.count == reference.count)
        let worst = zip(rendered, reference).map { abs($0 - 0.5 * $1) }.max() ?? 1
        #expect(worst == 0)
        try #require(meters.count == 2)
        for c in 0..<2 {
            let channel = stride(from: c, to: last.count, by: 2).map { last[$0] }
            let peak = channel.map { abs($0) }.max() ?? 0
            let rms = (channel.map { Double($0) * Double($0) }.reduce(0, +) / Double(channel.count)).squareRoot()
            #expect(abs(meters[c].mPeakPower - peak) < 1e-6)
            #expect(abs(Double(meters[c].mAveragePower) - rms) < 1e-6)
        }
    }

    /// Upward zero crossings per second over a span of one channel.
    static func frequency(_ x: ArraySlice<Float>) -> Double {
        var crossings = 0
        var previous = x.first ?? 0
        for v in x.dropFirst() {
            if previous < 0 && v >= 0 { crossings += 1 }
            previous = v
        }
        return Double(crossings) * rate / Double(x.count)
    }

    /// EnableTimePitch: PlayRate 2 with Spectral halves the duration and keeps the pitch; Varispeed halves
    /// the duration and doubles the pitch; Pitch +1200 cents with Spectral doubles the pitch at rate 1.
    /// Every frame enqueued goes through the processor before Stop(false) ends the queue.
    @Test func timePitchThroughTheQueue() throws {
        let frames = 2 * 44100
        let url = try Self.makeWAV(frames: frames)
        defer { try? FileManager.default.removeItem(at: url) }
        for (algorithm, rate, cents, expectedFrames, factor) in [(kAudioQueueTimePitchAlgorithm_Spectral, Float(2), Float(0), frames / 2, 1.0),
                                                                 (kAudioQueueTimePitchAlgorithm_Varispeed, 2, 0, frames / 2, 2.0),
                                                                 (kAudioQueueTimePitchAlgorithm_Spectral, 1, 1200, frames, 2.0)] {
            let (rendered, _, _, _) = try Self.offlineRender(url, timePitch: (algorithm, rate, cents))
            let left = stride(from: 0, to: rendered.count, by: 2).map { rendered[$0] }
            // Stop(false) plays the processor's tail too: the length is the file's over the rate, within the
            // processor's own slack (512 frames, as AudioDSP's TimePitchTests allow).
            #expect(abs(left.count - expectedFrames) <= 512, "\(algorithm) rate \(rate): \(left.count) frames, expected \(expectedFrames)")
            let middle = left[(left.count / 4)..<(3 * left.count / 4)]
            let f = Self.frequency(middle)
            #expect(abs(f - 440 * factor) < 440 * factor * 0.02, "\(algorithm) rate \(rate) cents \(cents): \(f) Hz")
        }
    }

    /// Bad input answers Apple's codes: a compressed format nobody decodes (an unknown ID), enqueuing an empty
    /// buffer or one twice, a buffer of another queue, a disposed queue.
    @Test func badInputAnswersAppleCodes() throws {
        var unknown = AudioStreamBasicDescription(mSampleRate: 44100, mFormatID: 0x7A7A_7A7A, mFormatFlags: 0, mBytesPerPacket: 0,
                                                  mFramesPerPacket: 1024, mBytesPerFrame: 0, mChannelsPerFrame: 2, mBitsPerChannel: 0, mReserved: 0)
        var queue: AudioQueueRef?
        #expect(AudioQueueNewOutput(&unknown, Self.callback, nil, nil, nil, 0, &queue) == kAudioFormatUnsupportedDataFormatError)
        #expect(queue == nil)
        var format = Self.int16(channels: 2)
        try #require(AudioQueueNewOutput(&format, Self.callback, nil, nil, nil, 0, &queue) == noErr)
        var other: AudioQueueRef?
        try #require(AudioQueueNewOutput(&format, Self.callback, nil, nil, nil, 0, &other) == noErr)
        var buffer: AudioQueueBufferRef?, foreign: AudioQueueBufferRef?
        try #require(AudioQueueAllocateBuffer(queue!, 4096, &buffer) == noErr)
        try #require(AudioQueueAllocateBuffer(other!, 4096, &foreign) == noErr)
        #expect(AudioQueueEnqueueBuffer(queue!, buffer!, 0, nil) == kAudioQueueErr_BufferEmpty)
        buffer!.pointee.mAudioDataByteSize = 4096
        #expect(AudioQueueEnqueueBuffer(queue!, buffer!, 0, nil) == noErr)
        #expect(AudioQueueEnqueueBuffer(queue!, buffer!, 0, nil) == kAudioQueueErr_BufferEnqueuedTwice)
        #expect(AudioQueueFreeBuffer(queue!, buffer!) == kAudioQueueErr_BufferInQueue)
        foreign!.pointee.mAudioDataByteSize = 16
        #expect(AudioQueueEnqueueBuffer(queue!, foreign!, 0, nil) == kAudioQueueErr_InvalidBuffer)
        #expect(AudioQueueSetParameter(queue!, 99, 1) == kAudioQueueErr_InvalidParameter)
        var value: UInt32 = 0
        var size = UInt32(4)
        #expect(AudioQueueGetProperty(queue!, 0x6E6F7065 /* 'nope' */, &value, &size) == kAudioQueueErr_InvalidProperty)
        var zero = AudioTimeStamp()
        #expect(AudioQueueOfflineRender(queue!, &zero, buffer!, 16) == kAudioQueueErr_InvalidOfflineMode)
        var description = AudioStreamBasicDescription()
        size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        #expect(AudioQueueGetProperty(queue!, kAudioQueueProperty_StreamDescription, &description, &size) == noErr)
        #expect(description.mBytesPerFrame == 4 && description.mChannelsPerFrame == 2)
        #expect(AudioQueueDispose(queue!, true) == noErr)
        #expect(AudioQueueDispose(other!, true) == noErr)
        #expect(AudioQueueEnqueueBuffer(queue!, buffer!, 0, nil) != noErr)
        #expect(AudioQueueStart(queue!, nil) != noErr)
    }
}
