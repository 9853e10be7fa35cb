import AudioToolbox
import DeviceTestSupport
import Foundation
import Testing

/// kAudioQueueProperty_ChannelAssignments on the private PulseAudio server: the HAL's PulseAudio devices are
/// stereo, so queue channels are routed to their two channels (swapped, or a mono queue on the right only),
/// heard on the "out" sink's monitor or recorded from the "mic" sink's; bad assignments answer Apple's codes.
@Suite(.serialized, .audioServer) struct AudioQueueChannelAssignmentTests {
    static let rate = 44100.0

    static func int16(channels: UInt32) -> AudioStreamBasicDescription {
        AudioStreamBasicDescription(mSampleRate: rate, mFormatID: kAudioFormatLinearPCM,
                                    mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked,
                                    mBytesPerPacket: 2 * channels, mFramesPerPacket: 1, mBytesPerFrame: 2 * channels,
                                    mChannelsPerFrame: channels, mBitsPerChannel: 16, mReserved: 0)
    }

    static let callback: AudioQueueOutputCallback = { _, _, _ in }

    /// The UID of the device a new output queue plays on (the default output).
    static func defaultUID(_ queue: AudioQueueRef) throws -> CFString {
        var uid: Unmanaged<CFString>?
        var size = UInt32(MemoryLayout<Unmanaged<CFString>?>.size)
        try #require(AudioQueueGetProperty(queue, kAudioQueueProperty_CurrentDevice, &uid, &size) == noErr)
        return try #require(uid).takeRetainedValue()
    }

    static func set(_ queue: AudioQueueRef, _ assignments: [AudioQueueChannelAssignment]) -> OSStatus {
        assignments.withUnsafeBytes { AudioQueueSetProperty(queue, kAudioQueueProperty_ChannelAssignments, $0.baseAddress!, UInt32($0.count)) }
    }

    /// Plays `seconds` of a tone per queue channel (frequency and amplitude each) with `assignments`, and
    /// returns what the sink's monitor heard on its two channels.
    static func play(_ tones: [(Double, Double)], assignments: (CFString) -> [AudioQueueChannelAssignment]) throws -> [[Float]] {
        var format = int16(channels: UInt32(tones.count))
        var queue: AudioQueueRef?
        try #require(AudioQueueNewOutput(&format, callback, nil, nil, nil, 0, &queue) == noErr)
        defer { AudioQueueDispose(queue!, true) }
        let uid = try defaultUID(queue!)
        try #require(set(queue!, assignments(uid)) == noErr)
        let frames = Int(2.5 * rate)
        var buffer: AudioQueueBufferRef?
        let bytes = UInt32(frames * tones.count * 2)
        try #require(AudioQueueAllocateBuffer(queue!, bytes, &buffer) == noErr)
        let samples = buffer!.pointee.mAudioData.assumingMemoryBound(to: Int16.self)
        for i in 0..<frames {
            for (c, (f, a)) in tones.enumerated() { samples[i * tones.count + c] = Int16(32767 * a * sin(2 * Double.pi * f * Double(i) / rate)) }
        }
        buffer!.pointee.mAudioDataByteSize = bytes
        try #require(AudioQueueEnqueueBuffer(queue!, buffer!, 0, nil) == noErr)
        let capture = try PulseTestServer.Capture()
        Thread.sleep(forTimeInterval: 0.2)
        try #require(AudioQueueStart(queue!, nil) == noErr)
        // The first device start in a process can take a second or more on a loaded machine.
        Thread.sleep(forTimeInterval: 3.5)
        AudioQueueStop(queue!, true)
        return capture.finish()
    }

    /// The amplitude of `frequency` over a second of `x` after the onset of sound on either channel.
    static func level(_ x: [Float], at start: Int, frequency: Double) -> Double {
        ToneAnalysis.fit(x[(start + 4410)...].prefix(44100), frequency: frequency, rate: rate).amplitude
    }

    /// A stereo queue assigned to device channels 2 and 1 plays swapped: its left tone (440 Hz at 0.3) on the
    /// right, its right tone (660 Hz at 0.2) on the left.
    @Test func stereoQueueSwapped() throws {
        let heard = try Self.play([(440, 0.3), (660, 0.2)]) { uid in
            [AudioQueueChannelAssignment(mDeviceUID: Unmanaged.passUnretained(uid), mChannelNumber: 2),
             AudioQueueChannelAssignment(mDeviceUID: Unmanaged.passUnretained(uid), mChannelNumber: 1)]
        }
        let start = try #require(ToneAnalysis.onset(heard[0], threshold: 0.05), "nothing heard")
        try #require(heard[0].count > start + 4410 + 44100)
        #expect(abs(Self.level(heard[1], at: start, frequency: 440) - 0.3) < 0.01)
        #expect(abs(Self.level(heard[0], at: start, frequency: 660) - 0.2) < 0.01)
        #expect(Self.level(heard[0], at: start, frequency: 440) < 0.005)
        #expect(Self.level(heard[1], at: start, frequency: 660) < 0.005)
    }

    /// A mono queue assigned to device channel 2 is heard on the right only (unassigned, it plays on both).
    @Test func monoQueueOnTheRight() throws {
        let heard = try Self.play([(500, 0.25)]) { uid in
            [AudioQueueChannelAssignment(mDeviceUID: Unmanaged.passUnretained(uid), mChannelNumber: 2)]
        }
        let start = try #require(ToneAnalysis.onset(heard[1], threshold: 0.05), "nothing heard")
        try #require(heard[1].count > start + 4410 + 44100)
        #expect(abs(Self.level(heard[1], at: start, frequency: 500) - 0.25) < 0.01)
        let left = heard[0][(start + 4410)...].prefix(44100).map { abs($0) }.max() ?? 1
        #expect(left < 1e-4, "left peak \(left)")
    }

    /// One element per queue channel (InvalidPropertySize), a UID the HAL knows (InvalidDevice), a channel the
    /// device has (InvalidPropertyValue), set while stopped (InvalidRunState); the property is write-only.
    @Test func badAssignmentsAnswerApplesCodes() throws {
        var format = Self.int16(channels: 2)
        var queue: AudioQueueRef?
        try #require(AudioQueueNewOutput(&format, Self.callback, nil, nil, nil, 0, &queue) == noErr)
        defer { AudioQueueDispose(queue!, true) }
        let uid = try Self.defaultUID(queue!)
        let bogus = "no-such-device-uid" as CFString
        func a(_ u: CFString, _ n: UInt32) -> AudioQueueChannelAssignment {
            AudioQueueChannelAssignment(mDeviceUID: Unmanaged.passUnretained(u), mChannelNumber: n)
        }
        #expect(Self.set(queue!, [a(uid, 1)]) == kAudioQueueErr_InvalidPropertySize)
        #expect(Self.set(queue!, [a(uid, 1), a(uid, 2), a(uid, 2)]) == kAudioQueueErr_InvalidPropertySize)
        #expect(Self.set(queue!, [a(bogus, 1), a(bogus, 2)]) == kAudioQueueErr_InvalidDevice)
        #expect(Self.set(queue!, [a(uid, 0), a(uid, 2)]) == kAudioQueueErr_InvalidPropertyValue)
        #expect(Self.set(queue!, [a(uid, 1), a(uid, 3)]) == kAudioQueueErr_InvalidPropertyValue)
        #expect(Self.set(queue!, [a(uid, 1), a(uid, 2)]) == noErr)
        var back = [UInt8](repeating: 0, count: 64)
        var size = UInt32(back.count)
        #expect(AudioQueueGetProperty(queue!, kAudioQueueProperty_ChannelAssignments, &back, &size) == kAudioQueueErr_InvalidProperty)

        // Set while stopped only.
        var buffer: AudioQueueBufferRef?
        try #require(AudioQueueAllocateBuffer(queue!, 44100 * 4, &buffer) == noErr)
        buffer!.pointee.mAudioDataByteSize = 44100 * 4
        try #require(AudioQueueEnqueueBuffer(queue!, buffer!, 0, nil) == noErr)
        try #require(AudioQueueStart(queue!, nil) == noErr)
        #expect(Self.set(queue!, [a(uid, 1), a(uid, 2)]) == kAudioQueueErr_InvalidRunState)
        AudioQueueStop(queue!, true)
    }

    /// Filled buffers of a mono Int16 input queue, as Float.
    final class Recording: @unchecked Sendable {
        let lock = NSLock()
        var samples: [Float] = []
    }

    static let recordCallback: AudioQueueInputCallback = { user, queue, buffer, _, _, _ in
        let r = Unmanaged<Recording>.fromOpaque(user!).takeUnretainedValue()
        let p = buffer.pointee.mAudioData.assumingMemoryBound(to: Int16.self)
        let n = Int(buffer.pointee.mAudioDataByteSize) / 2
        r.lock.lock()
        r.samples += (0..<n).map { Float(p[$0]) / 32768 }
        r.lock.unlock()
        AudioQueueEnqueueBuffer(queue, buffer, 0, nil)
    }

    /// A mono input queue assigned to the input device's channel 2 records that channel only: 660 Hz at 0.2 played
    /// on the right of the "mic" sink, none of the 440 Hz on its left.
    @Test func monoInputQueueRecordsTheRight() throws {
        var format = Self.int16(channels: 1)
        let recording = Recording()
        var queue: AudioQueueRef?
        try #require(AudioQueueNewInput(&format, Self.recordCallback, Unmanaged.passUnretained(recording).toOpaque(), nil, nil, 0, &queue) == noErr)
        defer { AudioQueueDispose(queue!, true) }
        let uid = try Self.defaultUID(queue!)
        try #require(Self.set(queue!, [AudioQueueChannelAssignment(mDeviceUID: Unmanaged.passUnretained(uid), mChannelNumber: 2)]) == noErr)
        for _ in 0..<3 {
            var buffer: AudioQueueBufferRef?
            try #require(AudioQueueAllocateBuffer(queue!, 8820, &buffer) == noErr)
            try #require(AudioQueueEnqueueBuffer(queue!, buffer!, 0, nil) == noErr)
        }
        try #require(AudioQueueStart(queue!, nil) == noErr)
        Thread.sleep(forTimeInterval: 0.3)
        let frames = Int(2 * Self.rate)
        var tone = [Float](repeating: 0, count: 2 * frames)
        for i in 0..<frames {
            tone[2 * i] = Float(0.3 * sin(2 * Double.pi * 440 * Double(i) / Self.rate))
            tone[2 * i + 1] = Float(0.2 * sin(2 * Double.pi * 660 * Double(i) / Self.rate))
        }
        let player = try PulseTestServer.startPlaying(tone)
        player.waitUntilExit()
        Thread.sleep(forTimeInterval: 0.2)
        AudioQueueStop(queue!, true)
        recording.lock.lock(); defer { recording.lock.unlock() }
        let heard = recording.samples
        let start = try #require(ToneAnalysis.onset(heard, threshold: 0.05), "nothing recorded")
        try #require(heard.count > start + 4410 + 44100, "recorded \(heard.count) frames, onset \(start)")
        #expect(abs(Self.level(heard, at: start, frequency: 660) - 0.2) < 0.01)
        #expect(Self.level(heard, at: start, frequency: 440) < 0.005)
        if abs(Self.level(heard, at: start, frequency: 660) - 0.2) >= 0.01 {
            let raw = FileManager.default.temporaryDirectory.appendingPathComponent("oca-mono-right-\(UUID().uuidString).f32")
            try? heard.withUnsafeBytes { Data($0) }.write(to: raw)
            Issue.record("onset \(start); peaks per 50 ms: \(ToneAnalysis.envelope(heard)); kept (Float32 mono) as \(ToneAnalysis.keep(raw))")
            try? FileManager.default.removeItem(at: raw)
        }
    }
}
