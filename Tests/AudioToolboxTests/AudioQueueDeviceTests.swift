import AudioToolbox
import AudioToolboxAAC
import DeviceTestSupport
import Foundation
import Testing
import SharedTestSupport

/// Audio Queues on the private PulseAudio server: what an output queue plays is heard on the "out"
/// sink's monitor; what is played into the "mic" sink is what an input queue records.
@Suite(.serialized, .audioServer) struct AudioQueueDeviceTests {
    static let rate = 44100.0
    static func threadID() -> UInt { UInt(pthread_self()) }

    static func int16(channels: UInt32) -> AudioStreamBasicDescription {
        OCAFormat.linearPCM(sampleRate: rate, channels: channels, bitsPerChannel: 16, isFloat: false, interleaved: true)
    }

    /// A stereo 16-bit WAV holding a 1 kHz tone at 0.5 on both channels.
    static func makeToneFile(seconds: Double) throws -> URL {
        let samples = (0..<Int(seconds * rate)).flatMap { n -> [Int16] in
            let v = Int16(16384 * sin(2 * Double.pi * 1000 * Double(n) / rate))
            return [v, v]
        }
        return try TestSupport.writeWAV(samples, channels: 2, sampleRate: rate, name: "oca-aq-tone")
    }

    // MARK: The book's chapter 5 player

    /// The player's state, as the book's MyPlayer.
    final class MyPlayer: @unchecked Sendable {
        var playbackFile: AudioFileID?
        var packetPosition: Int64 = 0
        var numPacketsToRead: UInt32 = 0
        var isDone = false
        var framesEnqueued = 0
        var blockSeconds = 0.0
        var callbackThreads = Set<UInt>()
        var callbacks = 0
    }

    static let outputCallback: AudioQueueOutputCallback = { user, queue, buffer in
        let player = Unmanaged<MyPlayer>.fromOpaque(user!).takeUnretainedValue()
        player.callbackThreads.insert(AudioQueueDeviceTests.threadID())
        player.callbacks += 1
        if player.isDone { return }
        if player.blockSeconds > 0 { Thread.sleep(forTimeInterval: player.blockSeconds) }
        var numBytes = buffer.pointee.mAudioDataBytesCapacity
        var nPackets = player.numPacketsToRead
        let status = AudioFileReadPacketData(player.playbackFile!, false, &numBytes, nil, player.packetPosition, &nPackets,
                                             buffer.pointee.mAudioData)
        precondition(status == noErr)
        if nPackets > 0 {
            buffer.pointee.mAudioDataByteSize = numBytes
            AudioQueueEnqueueBuffer(queue, buffer, 0, nil)
            player.packetPosition += Int64(nPackets)
            player.framesEnqueued += Int(nPackets)
        } else {
            AudioQueueStop(queue, false)
            player.isDone = true
        }
    }

    /// Plays a file the way the book's chapter 5 does: three half-second buffers primed by calling the
    /// callback by hand, CFRunLoopRunInMode(default, 0.25) until done, then two more seconds.
    /// `pause`: once the queue's time has passed that many seconds, AudioQueuePause for `pauseSeconds` (the queue's time read just
    /// before and at the end of the pause goes into `pausedTimes`), then AudioQueueStart again.
    func playLikeTheBook(_ url: URL, volume: Float? = nil, onRunLoop: Bool = false, blockSeconds: Double = 0,
                         tap: AudioQueueProcessingTapFlags? = nil, pause: (after: Double, seconds: Double)? = nil,
                         pausedTimes: UnsafeMutablePointer<(Double, Double)>? = nil)
        throws -> (heard: [Float], player: MyPlayer, times: [Double]) {
        let player = MyPlayer()
        player.blockSeconds = blockSeconds
        try #require(AudioFileOpenURL(url as CFURL, .readPermission, 0, &player.playbackFile) == noErr)
        defer { AudioFileClose(player.playbackFile!) }
        var dataFormat = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        try #require(AudioFileGetProperty(player.playbackFile!, kAudioFilePropertyDataFormat, &size, &dataFormat) == noErr)
        var queue: AudioQueueRef?
        let me = Unmanaged.passUnretained(player).toOpaque()
        try #require(AudioQueueNewOutput(&dataFormat, Self.outputCallback, me, onRunLoop ? CFRunLoopGetCurrent() : nil,
                                         onRunLoop ? CFRunLoopMode.commonModes.rawValue : nil, 0, &queue) == noErr)
        let bufferByteSize = UInt32(0.5 * dataFormat.mSampleRate) * dataFormat.mBytesPerPacket
        player.numPacketsToRead = bufferByteSize / dataFormat.mBytesPerPacket
        if let volume { try #require(AudioQueueSetParameter(queue!, kAudioQueueParam_Volume, volume) == noErr) }
        if let tap {
            var maxFrames: UInt32 = 0
            var processing = AudioStreamBasicDescription()
            var made: AudioQueueProcessingTapRef?
            try #require(AudioQueueProcessingTapNew(queue!, Self.halvingOutputTap, nil, tap, &maxFrames, &processing, &made) == noErr)
        }
        var buffers = [AudioQueueBufferRef?](repeating: nil, count: 3)
        let saved = player.blockSeconds
        player.blockSeconds = 0
        for i in 0..<3 {
            try #require(AudioQueueAllocateBuffer(queue!, bufferByteSize, &buffers[i]) == noErr)
            Self.outputCallback(me, queue!, buffers[i]!)
            if player.isDone { break }
        }
        player.blockSeconds = saved
        player.callbackThreads.removeAll()
        let capture = try PulseTestServer.Capture()
        Thread.sleep(forTimeInterval: 0.2)
        try #require(AudioQueueStart(queue!, nil) == noErr)
        var pending = pause
        var times: [Double] = []
        repeat {
            CFRunLoopRunInMode(CFRunLoopMode.defaultMode, pending == nil ? 0.25 : 0.05, false)
            var t = AudioTimeStamp()
            if AudioQueueGetCurrentTime(queue!, nil, &t, nil) == noErr { times.append(t.mSampleTime) }
            if let p = pending, t.mSampleTime >= p.after * dataFormat.mSampleRate {
                pending = nil
                var before = AudioTimeStamp(), after = AudioTimeStamp()
                #expect(AudioQueuePause(queue!) == noErr)
                AudioQueueGetCurrentTime(queue!, nil, &before, nil)
                CFRunLoopRunInMode(CFRunLoopMode.defaultMode, p.seconds, false)
                AudioQueueGetCurrentTime(queue!, nil, &after, nil)
                pausedTimes?.pointee = (before.mSampleTime, after.mSampleTime)
                #expect(AudioQueueStart(queue!, nil) == noErr)
            }
        } while !player.isDone
        CFRunLoopRunInMode(CFRunLoopMode.defaultMode, 2, false)
        player.isDone = true
        #expect(AudioQueueStop(queue!, true) == noErr)
        #expect(AudioQueueDispose(queue!, true) == noErr)
        return (capture.finish()[0], player, times)
    }

    /// The tone in a capture: amplitude over `length` frames after the onset, and the longest dropout.
    func analyse(_ heard: [Float], length: Int) throws -> (amplitude: Double, gap: Int, heardFrames: Int) {
        let start = try #require(ToneAnalysis.onset(heard, threshold: 0.02), "nothing heard")
        let end = try #require(heard.lastIndex { abs($0) > 0.02 })
        let body = heard[(start + 2205)...].prefix(length)
        #expect(body.count == length, "heard \(body.count) of \(length) frames")
        return (ToneAnalysis.fit(body, frequency: 1000, rate: 44100).amplitude, ToneAnalysis.longestGap(body), end - start + 1)
    }

    /// The chapter 5 player plays a 3 s WAV: the sink hears the 1 kHz tone at 0.5 without a gap, every
    /// frame of the file was enqueued, the callbacks ran on the queue's own thread (not the main loop's),
    /// and the queue's time advanced with the device.
    @Test func bookPlayerPlaysAFile() throws {
        let url = try Self.makeToneFile(seconds: 3)
        defer { try? FileManager.default.removeItem(at: url) }
        let (heard, player, times) = try playLikeTheBook(url)
        #expect(player.framesEnqueued == 3 * 44100)
        #expect(!player.callbackThreads.contains(Self.threadID()))
        let (amplitude, gap, heardFrames) = try analyse(heard, length: 2 * 44100)
        #expect(abs(amplitude - 0.5) < 0.01, "amplitude \(amplitude)")
        #expect(gap < 8, "gap \(gap)")
        #expect(abs(heardFrames - 3 * 44100) < 2205, "heard \(heardFrames) frames")
        #expect(times.count >= 8 && zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }, "\(times)")
        #expect((times.last ?? 0) > 2 * 44100)
    }

    /// Pause and Start: the chapter 5 player paused for half a second after one second of a 3 s file. The sink hears
    /// one silence about as long as the pause (not more than 60 ms longer), the tone on both sides of it at 0.5 with no
    /// other gap, and all the file's frames (within 20 ms: what the device held when it paused); the queue's time
    /// stands still while paused.
    @Test func pauseAndStartResumeWithoutLosingTheFile() throws {
        let url = try Self.makeToneFile(seconds: 3)
        defer { try? FileManager.default.removeItem(at: url) }
        var paused = (0.0, 0.0)
        let (heard, player, _) = try playLikeTheBook(url, pause: (after: 1, seconds: 0.5), pausedTimes: &paused)
        #expect(player.framesEnqueued == 3 * 44100)
        let start = try #require(ToneAnalysis.onset(heard, threshold: 0.02), "nothing heard")
        let end = try #require(heard.lastIndex { abs($0) > 0.02 })
        let body = Array(heard[start...end])
        // The silence: the longest run of quiet samples (a 1 kHz tone at 0.5 is never quiet for more than a few).
        var longest = 0, run = 0, longestEnd = 0
        for (i, x) in body.enumerated() {
            run = abs(x) < 0.02 ? run + 1 : 0
            if run > longest { longest = run; longestEnd = i }
        }
        let pauseFrames = 0.5 * 44100
        print("pause: silence of \(longest) frames (paused 22050), tone heard \(body.count - longest) of \(3 * 44100) frames; queue time \(paused.0) -> \(paused.1) while paused")
        #expect(Double(longest) > pauseFrames - 2205 && Double(longest) < pauseFrames + 2646, "silence \(longest) frames")
        #expect(abs(body.count - longest - 3 * 44100) < 882, "tone frames \(body.count - longest)")
        let before = Array(body[2205..<(longestEnd - longest - 64)]), after = Array(body[(longestEnd + 64)..<(body.count - 2205)])
        for part in [before, after] {
            #expect(abs(ToneAnalysis.fit(part[...], frequency: 1000, rate: 44100).amplitude - 0.5) < 0.01)
            #expect(ToneAnalysis.longestGap(part[...]) < 8)
        }
        #expect(paused.1 - paused.0 < 0.05 * 44100, "the queue's time moved \(paused.1 - paused.0) frames while paused")
    }

    /// A tap that pulls its source and halves it: propagates EndOfStream so that Stop(false) ends.
    static let halvingOutputTap: AudioQueueProcessingTapCallback = { _, tap, frames, timeStamp, flags, outFrames, ioData in
        var got: UInt32 = 0
        var sourceFlags = AudioQueueProcessingTapFlags()
        guard AudioQueueProcessingTapGetSourceAudio(tap, frames, timeStamp, &sourceFlags, &got, ioData) == noErr else { return }
        for b in UnsafeMutableAudioBufferListPointer(ioData) {
            let p = b.mData!.assumingMemoryBound(to: Float.self)
            for i in 0..<Int(got) { p[i] *= 0.5 }
        }
        if sourceFlags.contains(.endOfStream) { flags.pointee.insert(.endOfStream) }
        outFrames.pointee = got
    }

    /// A processing tap on the device path, before or after the effects, that halves what it pulls: the sink
    /// hears half the amplitude, without a gap.
    @Test(arguments: [AudioQueueProcessingTapFlags.preEffects, .postEffects])
    func tapHalvesWhatTheSinkHears(flags: AudioQueueProcessingTapFlags) throws {
        let url = try Self.makeToneFile(seconds: 1.5)
        defer { try? FileManager.default.removeItem(at: url) }
        let (heard, player, _) = try playLikeTheBook(url, tap: flags)
        #expect(player.framesEnqueued == Int(1.5 * 44100))
        let (amplitude, gap, _) = try analyse(heard, length: 44100)
        #expect(abs(amplitude - 0.25) < 0.005, "amplitude \(amplitude)")
        #expect(gap < 8)
    }

    /// A running queue keeps its tap (AudioQueueProcessingTapDispose answers kAudioQueueErr_InvalidRunState, as Apple's
    /// documentation asks for a stopped queue); disposing the queue while the device plays through the tap takes the
    /// tap with it, safely.
    @Test func disposingARunningQueueWithATap() throws {
        var format = Self.int16(channels: 2)
        var queue: AudioQueueRef?
        let ignore: AudioQueueOutputCallback = { _, _, _ in }
        try #require(AudioQueueNewOutput(&format, ignore, nil, nil, nil, 0, &queue) == noErr)
        var maxFrames: UInt32 = 0
        var processing = AudioStreamBasicDescription()
        var tap: AudioQueueProcessingTapRef?
        try #require(AudioQueueProcessingTapNew(queue!, Self.halvingOutputTap, nil, .preEffects, &maxFrames, &processing, &tap) == noErr)
        var buffer: AudioQueueBufferRef?
        let bytes = UInt32(Self.rate) * 4
        try #require(AudioQueueAllocateBuffer(queue!, bytes, &buffer) == noErr)
        buffer!.pointee.mAudioDataByteSize = bytes
        try #require(AudioQueueEnqueueBuffer(queue!, buffer!, 0, nil) == noErr)
        try #require(AudioQueueStart(queue!, nil) == noErr)
        Thread.sleep(forTimeInterval: 0.3)
        #expect(AudioQueueProcessingTapDispose(tap!) == kAudioQueueErr_InvalidRunState)
        #expect(AudioQueueDispose(queue!, true) == noErr)
        #expect(AudioQueueProcessingTapDispose(tap!) == kAudioQueueErr_InvalidTapContext)
    }

    /// Volume 0.5 halves the amplitude heard.
    @Test func volumeHalvesTheAmplitude() throws {
        let url = try Self.makeToneFile(seconds: 1.5)
        defer { try? FileManager.default.removeItem(at: url) }
        let (heard, _, _) = try playLikeTheBook(url, volume: 0.5)
        let (amplitude, gap, _) = try analyse(heard, length: 44100)
        #expect(abs(amplitude - 0.25) < 0.005, "amplitude \(amplitude)")
        #expect(gap < 8)
    }

    /// Callbacks for a queue on a run loop arrive on that loop's thread, and only while it runs; a client
    /// that blocks 200 ms in every callback causes no dropout with three half-second buffers.
    @Test func runLoopCallbacksAndASlowClient() throws {
        let url = try Self.makeToneFile(seconds: 2.5)
        defer { try? FileManager.default.removeItem(at: url) }
        let (heard, player, _) = try playLikeTheBook(url, onRunLoop: true, blockSeconds: 0.2)
        #expect(player.callbackThreads == [Self.threadID()])
        let (amplitude, gap, _) = try analyse(heard, length: 2 * 44100)
        #expect(abs(amplitude - 0.5) < 0.01, "amplitude \(amplitude)")
        #expect(gap < 8, "gap \(gap)")
    }

    /// A queue on this thread's run loop delivers nothing while the loop is not run.
    @Test func runLoopCallbacksWaitForTheLoop() throws {
        var format = Self.int16(channels: 2)
        let player = MyPlayer()
        player.isDone = true  // the callback only counts
        var queue: AudioQueueRef?
        try #require(AudioQueueNewOutput(&format, Self.outputCallback, Unmanaged.passUnretained(player).toOpaque(), CFRunLoopGetCurrent(),
                                         CFRunLoopMode.defaultMode.rawValue, 0, &queue) == noErr)
        defer { AudioQueueDispose(queue!, true) }
        var buffer: AudioQueueBufferRef?
        try #require(AudioQueueAllocateBuffer(queue!, 4410 * 4, &buffer) == noErr)
        buffer!.pointee.mAudioDataByteSize = 4410 * 4
        try #require(AudioQueueEnqueueBuffer(queue!, buffer!, 0, nil) == noErr)
        try #require(AudioQueueStart(queue!, nil) == noErr)
        Thread.sleep(forTimeInterval: 0.5)
        #expect(player.callbacks == 0)
        let result = CFRunLoopRunInMode(CFRunLoopMode.defaultMode, 1, true)
        #expect(result == .handledSource)
        #expect(player.callbacks == 1)
        #expect(player.callbackThreads == [Self.threadID()])
        AudioQueueStop(queue!, true)
    }

    // MARK: Stop(false) and IsRunning

    final class RunningWatch: @unchecked Sendable {
        let lock = NSLock()
        var changes: [(value: UInt32, at: Date, callbacksBefore: Int)] = []
        var callbacks = 0
    }

    static let countingCallback: AudioQueueOutputCallback = { user, _, _ in
        let watch = Unmanaged<RunningWatch>.fromOpaque(user!).takeUnretainedValue()
        watch.lock.lock(); watch.callbacks += 1; watch.lock.unlock()
    }

    static let runningListener: AudioQueuePropertyListenerProc = { user, queue, id in
        let watch = Unmanaged<RunningWatch>.fromOpaque(user!).takeUnretainedValue()
        var value: UInt32 = 0
        var size = UInt32(4)
        AudioQueueGetProperty(queue, id, &value, &size)
        watch.lock.lock(); watch.changes.append((value, Date(), watch.callbacks)); watch.lock.unlock()
    }

    /// Stop(false) plays every enqueued buffer, then IsRunning changes to 0 (after the last callback).
    @Test func stopAfterPlayOutFiresIsRunning() throws {
        var format = Self.int16(channels: 2)
        let watch = RunningWatch()
        let me = Unmanaged.passUnretained(watch).toOpaque()
        var queue: AudioQueueRef?
        try #require(AudioQueueNewOutput(&format, Self.countingCallback, me, nil, nil, 0, &queue) == noErr)
        defer { AudioQueueDispose(queue!, true) }
        try #require(AudioQueueAddPropertyListener(queue!, kAudioQueueProperty_IsRunning, Self.runningListener, me) == noErr)
        for _ in 0..<3 {
            var buffer: AudioQueueBufferRef?
            let bytes = UInt32(0.3 * Self.rate) * 4
            try #require(AudioQueueAllocateBuffer(queue!, bytes, &buffer) == noErr)
            let samples = buffer!.pointee.mAudioData.assumingMemoryBound(to: Int16.self)
            for i in 0..<Int(bytes / 2) { samples[i] = Int16(8000 * sin(2 * Double.pi * 500 * Double(i / 2) / Self.rate)) }
            buffer!.pointee.mAudioDataByteSize = bytes
            try #require(AudioQueueEnqueueBuffer(queue!, buffer!, 0, nil) == noErr)
        }
        try #require(AudioQueueStart(queue!, nil) == noErr)
        let stopped = Date()
        try #require(AudioQueueStop(queue!, false) == noErr)
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            watch.lock.lock(); let n = watch.changes.count; watch.lock.unlock()
            if n >= 2 { break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        watch.lock.lock(); defer { watch.lock.unlock() }
        try #require(watch.changes.count == 2, "IsRunning changes: \(watch.changes.map(\.value))")
        #expect(watch.changes[0].value == 1)
        #expect(watch.changes[1].value == 0)
        #expect(watch.changes[1].callbacksBefore == 3)
        let playOut = watch.changes[1].at.timeIntervalSince(stopped)
        #expect(playOut > 0.8 && playOut < 2.5, "play-out took \(playOut) s")
        var running: UInt32 = 9
        var size = UInt32(4)
        #expect(AudioQueueGetProperty(queue!, kAudioQueueProperty_IsRunning, &running, &size) == noErr && running == 0)
    }

    // MARK: Recording (the book's chapter 4, in linear PCM and in AAC)

    final class MyRecorder: @unchecked Sendable {
        var recordFile: AudioFileID?
        var recordPacket: Int64 = 0
        var running = false
        var startTimes: [(time: Double, frames: Int)] = []
    }

    static let inputCallback: AudioQueueInputCallback = { user, queue, buffer, startTime, numPackets, packetDescs in
        let recorder = Unmanaged<MyRecorder>.fromOpaque(user!).takeUnretainedValue()
        var packets = numPackets
        if packets == 0 { packets = buffer.pointee.mAudioDataByteSize / 4 }
        if packets > 0 {
            let status = AudioFileWritePackets(recorder.recordFile!, false, buffer.pointee.mAudioDataByteSize, packetDescs,
                                               recorder.recordPacket, &packets, buffer.pointee.mAudioData)
            precondition(status == noErr)
            recorder.startTimes.append((startTime.pointee.mSampleTime, Int(packets)))
            recorder.recordPacket += Int64(packets)
        }
        if recorder.running { AudioQueueEnqueueBuffer(queue, buffer, 0, nil) }
    }

    /// An input queue records what is played into the "mic" sink into a CAF file: the file holds the
    /// 660 Hz tone at 0.4 without a gap, and each buffer's start time follows the one before.
    @Test func inputQueueRecordsTheDefaultInput() throws {
        try recordTone(tap: false)
    }

    /// An input queue's processing tap: it pulls the captured audio and halves it, so the recording holds the tone at
    /// 0.2, still without a gap; the tap is told StartOfStream first and gets the capture's sample times.
    @Test func inputQueueTapProcessesTheRecording() throws {
        try recordTone(tap: true)
    }

    /// Counts of what the input tap saw: calls, StartOfStream flags, and the sample times not following on.
    nonisolated(unsafe) static var inputTapStats = (calls: 0, starts: 0, jumps: 0, next: -1.0)

    static let halvingInputTap: AudioQueueProcessingTapCallback = { _, tap, frames, timeStamp, flags, outFrames, ioData in
        var got: UInt32 = 0
        var sourceFlags = AudioQueueProcessingTapFlags()
        guard AudioQueueProcessingTapGetSourceAudio(tap, frames, timeStamp, &sourceFlags, &got, ioData) == noErr else { return }
        inputTapStats.calls += 1
        if sourceFlags.contains(.startOfStream) { inputTapStats.starts += 1 }
        if inputTapStats.next >= 0 && timeStamp.pointee.mSampleTime != inputTapStats.next { inputTapStats.jumps += 1 }
        inputTapStats.next = timeStamp.pointee.mSampleTime + Double(got)
        let list = UnsafeMutableAudioBufferListPointer(ioData)
        for c in 0..<list.count {
            let p = list[c].mData!.assumingMemoryBound(to: Float.self)
            for i in 0..<Int(got) { p[i] *= 0.5 }
        }
        outFrames.pointee = got
    }

    func recordTone(tap: Bool) throws {
        var recordFormat = Self.int16(channels: 2)
        let recorder = MyRecorder()
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("oca-aq-rec-\(UUID().uuidString).caf")
        defer { try? FileManager.default.removeItem(at: url) }
        var queue: AudioQueueRef?
        let me = Unmanaged.passUnretained(recorder).toOpaque()
        try #require(AudioQueueNewInput(&recordFormat, Self.inputCallback, me, nil, nil, 0, &queue) == noErr)
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        try #require(AudioQueueGetProperty(queue!, kAudioConverterCurrentOutputStreamDescription, &recordFormat, &size) == noErr)
        try #require(AudioFileCreateWithURL(url as CFURL, kAudioFileCAFType, &recordFormat, .eraseFile, &recorder.recordFile) == noErr)
        var cookieSize: UInt32 = 0
        #expect(AudioQueueGetPropertySize(queue!, kAudioConverterCompressionMagicCookie, &cookieSize) == noErr && cookieSize == 0)
        let bufferByteSize = UInt32(0.5 * Self.rate) * 4
        for _ in 0..<3 {
            var buffer: AudioQueueBufferRef?
            try #require(AudioQueueAllocateBuffer(queue!, bufferByteSize, &buffer) == noErr)
            try #require(AudioQueueEnqueueBuffer(queue!, buffer!, 0, nil) == noErr)
        }
        if tap {
            Self.inputTapStats = (0, 0, 0, -1)
            var maxFrames: UInt32 = 0
            var processing = AudioStreamBasicDescription()
            var made: AudioQueueProcessingTapRef?
            try #require(AudioQueueProcessingTapNew(queue!, Self.halvingInputTap, nil, .preEffects, &maxFrames, &processing, &made) == noErr)
        }
        recorder.running = true
        try #require(AudioQueueStart(queue!, nil) == noErr)
        Thread.sleep(forTimeInterval: 0.3)
        let player = try PulseTestServer.startPlaying(PulseTestServer.stereoSine(660, seconds: 1.5, amplitude: 0.4))
        player.waitUntilExit()
        Thread.sleep(forTimeInterval: 0.3)
        recorder.running = false
        #expect(AudioQueueStop(queue!, true) == noErr)
        Thread.sleep(forTimeInterval: 0.1)  // the callbacks for the returned buffers
        #expect(AudioQueueDispose(queue!, true) == noErr)
        AudioFileClose(recorder.recordFile!)

        #expect(recorder.startTimes.count >= 4)
        for (a, b) in zip(recorder.startTimes, recorder.startTimes.dropFirst()) {
            #expect(b.time == a.time + Double(a.frames), "buffer at \(b.time) after \(a.time) + \(a.frames)")
        }
        var file: AudioFileID?
        try #require(AudioFileOpenURL(url as CFURL, .readPermission, 0, &file) == noErr)
        defer { AudioFileClose(file!) }
        var bytes: UInt32 = UInt32(recorder.recordPacket) * 4
        var samples = [Int16](repeating: 0, count: Int(recorder.recordPacket) * 2)
        try #require(AudioFileReadBytes(file!, false, 0, &bytes, &samples) == noErr)
        let left = stride(from: 0, to: samples.count, by: 2).map { Float(samples[$0]) / 32768 }
        let start = try #require(ToneAnalysis.onset(left, threshold: 0.03), "nothing recorded")
        let body = left[(start + 2205)...].prefix(44100)
        #expect(body.count == 44100)
        let amplitude = ToneAnalysis.fit(body, frequency: 660, rate: 44100).amplitude
        let expected = tap ? 0.2 : 0.4
        #expect(abs(amplitude - expected) < 0.01, "amplitude \(amplitude), expected \(expected)")
        #expect(ToneAnalysis.longestGap(body, threshold: 1e-3) < 8)
        if tap {
            #expect(Self.inputTapStats.calls > 50 && Self.inputTapStats.starts == 1 && Self.inputTapStats.jumps == 0,
                    "\(Self.inputTapStats)")
        }
    }

    /// The book's chapter 4 recorder as written, in AAC: the format filled in by the queue, the encoder's cookie copied
    /// into the CAF before and after recording, the buffer size from MaximumOutputPacketSize, packets written with
    /// their descriptions. Read back through ExtAudioFile, the file holds the 660 Hz tone at 0.4 (AAC: within 0.03).
    @Test func chapter4RecordsAAC() throws {
        var recordFormat = AudioStreamBasicDescription()
        recordFormat.mFormatID = kAudioFormatMPEG4AAC
        recordFormat.mChannelsPerFrame = 2
        recordFormat.mSampleRate = Self.rate
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        #expect(AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 0, nil, &size, &recordFormat) == noErr)
        let recorder = MyRecorder()
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("oca-aq-aac-\(UUID().uuidString).caf")
        defer { try? FileManager.default.removeItem(at: url) }
        var queue: AudioQueueRef?
        let me = Unmanaged.passUnretained(recorder).toOpaque()
        try #require(AudioQueueNewInput(&recordFormat, Self.inputCallback, me, nil, nil, 0, &queue) == noErr)
        size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        try #require(AudioQueueGetProperty(queue!, kAudioConverterCurrentOutputStreamDescription, &recordFormat, &size) == noErr)
        #expect(recordFormat.mFormatID == kAudioFormatMPEG4AAC && recordFormat.mFramesPerPacket == 1024)
        try #require(AudioFileCreateWithURL(url as CFURL, kAudioFileCAFType, &recordFormat, .eraseFile, &recorder.recordFile) == noErr)
        // MyCopyEncoderCookieToFile.
        func copyCookie() {
            var cookieSize: UInt32 = 0
            guard AudioQueueGetPropertySize(queue!, kAudioConverterCompressionMagicCookie, &cookieSize) == noErr, cookieSize > 0 else { return }
            var cookie = [UInt8](repeating: 0, count: Int(cookieSize))
            #expect(AudioQueueGetProperty(queue!, kAudioConverterCompressionMagicCookie, &cookie, &cookieSize) == noErr)
            #expect(AudioFileSetProperty(recorder.recordFile!, kAudioFilePropertyMagicCookieData, cookieSize, cookie) == noErr)
        }
        copyCookie()
        // MyComputeRecordBufferSize for half a second.
        var maxPacketSize: UInt32 = 0
        size = 4
        #expect(AudioQueueGetProperty(queue!, kAudioQueueProperty_MaximumOutputPacketSize, &maxPacketSize, &size) == noErr)
        let packets = UInt32((0.5 * recordFormat.mSampleRate / Double(recordFormat.mFramesPerPacket)).rounded(.up))
        let bufferByteSize = packets * maxPacketSize
        for _ in 0..<3 {
            var buffer: AudioQueueBufferRef?
            try #require(AudioQueueAllocateBuffer(queue!, bufferByteSize, &buffer) == noErr)
            try #require(AudioQueueEnqueueBuffer(queue!, buffer!, 0, nil) == noErr)
        }
        recorder.running = true
        try #require(AudioQueueStart(queue!, nil) == noErr)
        Thread.sleep(forTimeInterval: 0.3)
        let player = try PulseTestServer.startPlaying(PulseTestServer.stereoSine(660, seconds: 1.5, amplitude: 0.4))
        player.waitUntilExit()
        Thread.sleep(forTimeInterval: 0.3)
        recorder.running = false
        #expect(AudioQueueStop(queue!, true) == noErr)
        copyCookie()
        #expect(AudioQueueDispose(queue!, true) == noErr)
        AudioFileClose(recorder.recordFile!)

        #expect(recorder.recordPacket > 40, "\(recorder.recordPacket) packets")
        let client = OCAFormat.linearPCM(sampleRate: Self.rate, channels: 2, bitsPerChannel: 32, isFloat: true, interleaved: true)
        let all: [Float] = try ExtFileIO.read(url, client: client, chunk: 4096).samples
        let left = stride(from: 0, to: all.count, by: 2).map { all[$0] }
        let start = try #require(ToneAnalysis.onset(left, threshold: 0.03), "nothing recorded")
        let body = left[(start + 2205)...].prefix(44100)
        #expect(body.count == 44100)
        let amplitude = ToneAnalysis.fit(body, frequency: 660, rate: 44100).amplitude
        #expect(abs(amplitude - 0.4) < 0.03, "amplitude \(amplitude)")
        if abs(amplitude - 0.4) >= 0.03 { Issue.record("peaks per 50 ms: \(ToneAnalysis.envelope(left)); kept as \(ToneAnalysis.keep(url))") }
    }
}
