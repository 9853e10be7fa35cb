import AudioToolbox
import Foundation
import Synchronization
import Testing

/// AUScheduledSoundPlayer: slices at sample times relative to the start time, rendered offline.
@Suite struct ScheduledSoundPlayerTests {
    static let description = AudioComponentDescription(
        componentType: kAudioUnitType_Generator, componentSubType: kAudioUnitSubType_ScheduledSoundPlayer,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
    static let format = OCAFormat.canonical(sampleRate: 44100, channels: 2)

    /// A client-owned slice: its struct, buffer list and samples (channel c, frame i = base + c * 0.5 + i * 1e-4).
    final class Slice {
        let pointer = UnsafeMutablePointer<ScheduledAudioSlice>.allocate(capacity: 1)
        let list = AudioBufferList.allocate(maximumBuffers: 2)
        let samples: [UnsafeMutablePointer<Float>]
        let frames: Int

        init(frames: Int, base: Float, at time: Double?, flags: AUScheduledAudioSliceFlags = [],
             completion: ScheduledAudioSliceCompletionProc? = nil, userData: UnsafeMutableRawPointer? = nil) {
            self.frames = frames
            samples = (0..<2).map { c in
                let p = UnsafeMutablePointer<Float>.allocate(capacity: max(frames, 1))
                for i in 0..<frames { p[i] = base + Float(c) * 0.5 + Float(i) * 1e-4 }
                return p
            }
            for c in 0..<2 {
                list[c] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(frames * 4), mData: UnsafeMutableRawPointer(samples[c]))
            }
            var ts = AudioTimeStamp()
            if let time { ts.mFlags = .sampleTimeValid; ts.mSampleTime = time }
            pointer.initialize(to: ScheduledAudioSlice(
                mTimeStamp: ts, mCompletionProc: completion, mCompletionProcUserData: userData ?? UnsafeMutableRawPointer(pointer),
                mFlags: flags, mReserved: 0, mReserved2: nil, mNumberFrames: UInt32(frames), mBufferList: list.unsafeMutablePointer))
        }

        func value(_ c: Int, _ i: Int) -> Double { Double(samples[c][i]) }
        var flags: AUScheduledAudioSliceFlags { pointer.pointee.mFlags }

        deinit {
            samples.forEach { $0.deallocate() }
            free(list.unsafeMutablePointer)
            pointer.deallocate()
        }
    }

    func makePlayer() throws -> AudioUnit {
        let unit = try TestSupport.newUnit(Self.description)
        #expect(TestSupport.setFormat(unit, kAudioUnitScope_Output, 0, Self.format) == noErr)
        #expect(AudioUnitInitialize(unit) == noErr)
        return unit
    }

    func schedule(_ unit: AudioUnit, _ slice: Slice) -> OSStatus {
        AudioUnitSetProperty(unit, kAudioUnitProperty_ScheduleAudioSlice, kAudioUnitScope_Global, 0, slice.pointer,
                             UInt32(MemoryLayout<ScheduledAudioSlice>.size))
    }

    func start(_ unit: AudioUnit, at sampleTime: Double = -1) {
        var ts = AudioTimeStamp()
        ts.mFlags = .sampleTimeValid
        ts.mSampleTime = sampleTime
        #expect(AudioUnitSetProperty(unit, kAudioUnitProperty_ScheduleStartTimeStamp, kAudioUnitScope_Global, 0, &ts,
                                     UInt32(MemoryLayout<AudioTimeStamp>.size)) == noErr)
    }

    func playTime(_ unit: AudioUnit) -> Double {
        var ts = AudioTimeStamp()
        var size = UInt32(MemoryLayout<AudioTimeStamp>.size)
        #expect(AudioUnitGetProperty(unit, kAudioUnitProperty_CurrentPlayTime, kAudioUnitScope_Global, 0, &ts, &size) == noErr)
        return ts.mSampleTime
    }

    /// Waits (up to 2 s) for the worker thread to deliver completions.
    func waitFor(_ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(2)
        while !condition() && Date() < deadline { usleep(2000) }
    }

    @Test func slicesPlayAtTheirTimesRelativeToTheStart() throws {
        let unit = try makePlayer()
        defer { AudioComponentInstanceDispose(unit) }
        let a = Slice(frames: 300, base: 1, at: 0)
        let b = Slice(frames: 200, base: 2, at: 1000)
        let c = Slice(frames: 100, base: 3, at: nil)  // right after b
        for s in [a, b, c] { #expect(schedule(unit, s) == noErr) }
        #expect(playTime(unit) == -1)
        // Nothing plays before a start time is set.
        let before = try TestSupport.render(unit, format: Self.format, totalFrames: 512, slices: [512], startTime: 5000)
        #expect(before.channels.allSatisfy { $0.allSatisfy { $0 == 0 } })
        start(unit, at: 6000)  // render sample time 6000 is player time 0
        let out = try TestSupport.render(unit, format: Self.format, totalFrames: 1800, slices: [128, 77, 512], startTime: 5900)
        for ch in 0..<2 {
            for i in 0..<1800 {
                let t = i - 100
                let expected: Double
                if t >= 0 && t < 300 { expected = a.value(ch, t) }
                else if t >= 1000 && t < 1200 { expected = b.value(ch, t - 1000) }
                else if t >= 1200 && t < 1300 { expected = c.value(ch, t - 1200) }
                else { expected = 0 }
                if out.channels[ch][i] != expected { Issue.record("channel \(ch) frame \(i): \(out.channels[ch][i]) != \(expected)"); return }
            }
        }
        #expect(playTime(unit) == 1700)
        waitFor { c.flags.contains(.scheduledAudioSliceFlag_Complete) }
        for s in [a, b, c] {
            #expect(s.flags.contains(.scheduledAudioSliceFlag_Complete))
            #expect(s.flags.contains(.scheduledAudioSliceFlag_BeganToRender))
            #expect(!s.flags.contains(.scheduledAudioSliceFlag_BeganToRenderLate))
        }
    }

    /// Completion procs run once per slice, off the render thread.
    @Test func completionProcsRunOnTheWorkerThread() throws {
        final class Log: @unchecked Sendable {
            let lock = NSLock()
            var threads: [Thread] = []
            var slices: [UnsafeMutablePointer<ScheduledAudioSlice>] = []
        }
        let log = Log()
        let unit = try makePlayer()
        defer { AudioComponentInstanceDispose(unit) }
        let proc: ScheduledAudioSliceCompletionProc = { user, slice in
            let log = Unmanaged<Log>.fromOpaque(user!).takeUnretainedValue()
            log.lock.lock(); log.threads.append(Thread.current); log.slices.append(slice); log.lock.unlock()
        }
        let user = Unmanaged.passUnretained(log).toOpaque()
        let slices = (0..<5).map { Slice(frames: 100, base: Float($0), at: Double($0 * 100), completion: proc, userData: user) }
        for s in slices { #expect(schedule(unit, s) == noErr) }
        start(unit)
        _ = try TestSupport.render(unit, format: Self.format, totalFrames: 600, slices: [256])
        waitFor { log.lock.lock(); defer { log.lock.unlock() }; return log.slices.count == 5 }
        log.lock.lock(); defer { log.lock.unlock() }
        #expect(log.slices == slices.map(\.pointer))
        #expect(log.threads.allSatisfy { $0 != Thread.current })
    }

    @Test func aLateSliceSkipsWhatItMissed() throws {
        let unit = try makePlayer()
        defer { AudioComponentInstanceDispose(unit) }
        start(unit)
        _ = try TestSupport.render(unit, format: Self.format, totalFrames: 1000, slices: [500])
        let late = Slice(frames: 400, base: 5, at: 800)  // 200 frames late
        let gone = Slice(frames: 100, base: 6, at: 100)  // wholly in the past
        #expect(schedule(unit, gone) == noErr)
        #expect(schedule(unit, late) == noErr)
        let out = try TestSupport.render(unit, format: Self.format, totalFrames: 300, slices: [300], startTime: 1000)
        for i in 0..<200 { #expect(out.channels[0][i] == late.value(0, 200 + i)) }
        #expect(out.channels[0][200...].allSatisfy { $0 == 0 })
        waitFor { late.flags.contains(.scheduledAudioSliceFlag_Complete) }
        #expect(late.flags.contains([.scheduledAudioSliceFlag_BeganToRenderLate, .scheduledAudioSliceFlag_BeganToRender]))
        #expect(gone.flags.contains([.scheduledAudioSliceFlag_Complete, .scheduledAudioSliceFlag_BeganToRenderLate]))
        #expect(!gone.flags.contains(.scheduledAudioSliceFlag_BeganToRender))
    }

    @Test func aLoopRepeatsUntilInterrupted() throws {
        let unit = try makePlayer()
        defer { AudioComponentInstanceDispose(unit) }
        let loop = Slice(frames: 70, base: 1, at: 0, flags: .scheduledAudioSliceFlag_Loop)
        #expect(schedule(unit, loop) == noErr)
        start(unit)
        let out = try TestSupport.render(unit, format: Self.format, totalFrames: 1000, slices: [128])
        for i in 0..<1000 { #expect(out.channels[1][i] == loop.value(1, i % 70)) }
        // An Interrupt slice due at 1050 ends the loop there.
        let next = Slice(frames: 50, base: 2, at: 1050, flags: .scheduledAudioSliceFlag_Interrupt)
        #expect(schedule(unit, next) == noErr)
        let out2 = try TestSupport.render(unit, format: Self.format, totalFrames: 200, slices: [64], startTime: 1000)
        for i in 0..<50 { #expect(out2.channels[0][i] == loop.value(0, (1000 + i) % 70)) }
        for i in 50..<100 { #expect(out2.channels[0][i] == next.value(0, i - 50)) }
        #expect(out2.channels[0][100...].allSatisfy { $0 == 0 })
        waitFor { loop.flags.contains(.scheduledAudioSliceFlag_Complete) }
        #expect(loop.flags.contains(.scheduledAudioSliceFlag_Complete))
    }

    @Test func interruptAtLoopWaitsForTheLoopPoint() throws {
        let unit = try makePlayer()
        defer { AudioComponentInstanceDispose(unit) }
        let loop = Slice(frames: 100, base: 1, at: 0, flags: .scheduledAudioSliceFlag_Loop)
        #expect(schedule(unit, loop) == noErr)
        start(unit)
        _ = try TestSupport.render(unit, format: Self.format, totalFrames: 250, slices: [250])
        let next = Slice(frames: 60, base: 2, at: nil, flags: .scheduledAudioSliceFlag_InterruptAtLoop)
        #expect(schedule(unit, next) == noErr)
        let out = try TestSupport.render(unit, format: Self.format, totalFrames: 200, slices: [200], startTime: 250)
        for i in 0..<50 { #expect(out.channels[0][i] == loop.value(0, 50 + i)) }  // finishes the third pass
        for i in 50..<110 { #expect(out.channels[0][i] == next.value(0, i - 50)) }
        #expect(out.channels[0][110...].allSatisfy { $0 == 0 })
    }

    @Test func resetCompletesEverySliceAndWaitsForANewStart() throws {
        let unit = try makePlayer()
        defer { AudioComponentInstanceDispose(unit) }
        let slices = (0..<3).map { Slice(frames: 100, base: 1, at: Double($0) * 10_000) }
        for s in slices { #expect(schedule(unit, s) == noErr) }
        start(unit)
        _ = try TestSupport.render(unit, format: Self.format, totalFrames: 512, slices: [512])
        #expect(AudioUnitReset(unit, kAudioUnitScope_Global, 0) == noErr)
        #expect(slices.allSatisfy { $0.flags.contains(.scheduledAudioSliceFlag_Complete) })
        #expect(playTime(unit) == -1)
        let again = Slice(frames: 10, base: 4, at: 0)
        #expect(schedule(unit, again) == noErr)
        let silent = try TestSupport.render(unit, format: Self.format, totalFrames: 64, slices: [64], startTime: 512)
        #expect(silent.channels[0].allSatisfy { $0 == 0 })
        start(unit)
        let out = try TestSupport.render(unit, format: Self.format, totalFrames: 64, slices: [64], startTime: 576)
        #expect(out.channels[0][0] == again.value(0, 0))
    }
}
