import CoreAudio
import DeviceTestSupport
import Foundation
import Testing

/// What an IOProc saw: its first and latest cycle's times.
final class CycleLog: @unchecked Sendable {
    private let lock = NSLock()
    private var firstNow: AudioTimeStamp?, firstInput: AudioTimeStamp?, firstOutput: AudioTimeStamp?
    private(set) var calls = 0
    func record(_ now: AudioTimeStamp, _ input: AudioTimeStamp, _ output: AudioTimeStamp) {
        lock.withLock {
            if firstNow == nil { firstNow = now; firstInput = input; firstOutput = output }
            calls += 1
        }
    }
    var first: (now: AudioTimeStamp, input: AudioTimeStamp, output: AudioTimeStamp)? {
        lock.withLock { firstNow.map { ($0, firstInput!, firstOutput!) } }
    }
    var count: Int { lock.withLock { calls } }
}

private let logProc: AudioDeviceIOProc = { _, now, _, inputTime, output, outputTime, data in
    Unmanaged<CycleLog>.fromOpaque(data!).takeUnretainedValue().record(now.pointee, inputTime.pointee, outputTime.pointee)
    for buffer in UnsafeMutableAudioBufferListPointer(output) { memset(buffer.mData, 0, Int(buffer.mDataByteSize)) }
    return noErr
}

extension HALTests {
    func waitUntil(_ timeout: Double = 5, _ condition: () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while Date() < deadline { if condition() { return true }; Thread.sleep(forTimeInterval: 0.01) }
        return condition()
    }

    /// The clock functions answer kAudioHardwareNotRunningError on a stopped device.
    @Test func timeFunctionsNeedARunningDevice() throws {
        let device = defaultOutput()
        try #require(device != 0)
        var t = AudioTimeStamp()
        t.mSampleTime = 1000
        t.mFlags = .sampleTimeValid
        var out = AudioTimeStamp()
        out.mFlags = [.sampleTimeValid, .hostTimeValid]
        #expect(AudioDeviceTranslateTime(device, &t, &out) == kAudioHardwareNotRunningError)
        #expect(AudioDeviceGetNearestStartTime(device, &t, 0) == kAudioHardwareNotRunningError)
        #expect(AudioDeviceGetCurrentTime(device, &out) == kAudioHardwareNotRunningError)
        #expect(AudioDeviceTranslateTime(9999, &t, &out) == kAudioHardwareBadDeviceError)
    }

    /// TranslateTime on a running device agrees with GetCurrentTime and with the IO cycles' own timestamps.
    /// Tolerances: 0.5 ms between translations of one instant (the anchor the two reads use may differ by a
    /// cycle, whose timing jitters); 3 ms between a cycle's recorded host time and the clock's extrapolation
    /// to it a second later (scheduling of the IO thread against PulseAudio's timer-driven sink).
    @Test func translateTimeFollowsTheRunningClock() throws {
        let device = defaultOutput()
        try #require(device != 0)
        let log = CycleLog()
        var proc: AudioDeviceIOProcID?
        #expect(AudioDeviceCreateIOProcID(device, logProc, Unmanaged.passUnretained(log).toOpaque(), &proc) == noErr)
        #expect(AudioDeviceStart(device, proc) == noErr)
        defer { _ = AudioDeviceStop(device, proc); _ = AudioDeviceDestroyIOProcID(device, proc!) }
        Thread.sleep(forTimeInterval: 1.5)
        let first = try #require(log.first)
        var now = AudioTimeStamp()
        #expect(AudioDeviceGetCurrentTime(device, &now) == noErr)
        #expect(now.mFlags.contains([.sampleTimeValid, .hostTimeValid, .rateScalarValid]))
        #expect(abs(now.mRateScalar - 1) < 0.01, "rate scalar \(now.mRateScalar)")
        // Host -> sample at GetCurrentTime's instant.
        var host = AudioTimeStamp()
        host.mHostTime = now.mHostTime
        host.mFlags = .hostTimeValid
        var out = AudioTimeStamp()
        out.mFlags = [.sampleTimeValid, .rateScalarValid]
        #expect(AudioDeviceTranslateTime(device, &host, &out) == noErr)
        #expect(out.mFlags == [.sampleTimeValid, .rateScalarValid])
        #expect(abs(out.mSampleTime - now.mSampleTime) < 0.0005 * 44100, "\(out.mSampleTime) vs \(now.mSampleTime)")
        // Sample -> host for the first cycle (a second and a half ago): its recorded host time.
        var sample = AudioTimeStamp()
        sample.mSampleTime = first.now.mSampleTime
        sample.mFlags = .sampleTimeValid
        out = AudioTimeStamp()
        out.mFlags = .hostTimeValid
        #expect(AudioDeviceTranslateTime(device, &sample, &out) == noErr && out.mFlags == .hostTimeValid)
        let error = Double(Int64(bitPattern: out.mHostTime &- first.now.mHostTime)) / 1e6
        // The pulse plug-in's cycle timestamps jitter by a few ms (the first cycle's most: 7.6 ms was seen with the
        // volume tests alone); a wrong offset or rate would be off by a period (11.6 ms at 512 frames) or more.
        #expect(abs(error) < 10, "first cycle host time off by \(error) ms")
        // Nothing to translate from.
        var empty = AudioTimeStamp()
        #expect(AudioDeviceTranslateTime(device, &empty, &out) == kAudioHardwareIllegalOperationError)
    }

    /// StartAtTime starts a proc at the cycle the returned time names: its first callback's output time is
    /// that time exactly, at or after the requested one and less than a cycle later; with
    /// kAudioDeviceStartTimeIsInputFlag the same holds for the first callback's input time.
    @Test func startAtTimeStartsTheProcAtTheReturnedTime() throws {
        let device = defaultOutput()
        try #require(device != 0)
        let running = CycleLog(), late = CycleLog(), lateInput = CycleLog()
        var a: AudioDeviceIOProcID?, b: AudioDeviceIOProcID?, c: AudioDeviceIOProcID?
        #expect(AudioDeviceCreateIOProcID(device, logProc, Unmanaged.passUnretained(running).toOpaque(), &a) == noErr)
        #expect(AudioDeviceCreateIOProcID(device, logProc, Unmanaged.passUnretained(late).toOpaque(), &b) == noErr)
        #expect(AudioDeviceCreateIOProcID(device, logProc, Unmanaged.passUnretained(lateInput).toOpaque(), &c) == noErr)
        defer {
            for p in [a, b, c] { _ = AudioDeviceStop(device, p); _ = AudioDeviceDestroyIOProcID(device, p!) }
        }
        #expect(AudioDeviceStart(device, a) == noErr)
        #expect(waitUntil { running.count > 5 })
        var now = AudioTimeStamp()
        #expect(AudioDeviceGetCurrentTime(device, &now) == noErr)
        let period = Double(get(device, kAudioDevicePropertyBufferFrameSize, UInt32(0)).1)
        // Output time, half a second ahead.
        var requested = AudioTimeStamp()
        requested.mSampleTime = (now.mSampleTime + 22050).rounded() + 7
        requested.mFlags = .sampleTimeValid
        let asked = requested.mSampleTime
        var nearest = requested
        #expect(AudioDeviceGetNearestStartTime(device, &nearest, 0) == noErr)
        #expect(nearest.mSampleTime >= asked && nearest.mSampleTime - asked < period, "\(nearest.mSampleTime) for \(asked)")
        #expect(AudioDeviceStartAtTime(device, b, &requested, 0) == noErr)
        #expect(requested.mSampleTime >= asked && requested.mSampleTime - asked < period)
        #expect(requested.mFlags.contains([.sampleTimeValid, .hostTimeValid]))
        // Input time, by host time: a second ahead.
        var byHost = AudioTimeStamp()
        byHost.mHostTime = now.mHostTime + 1_000_000_000
        byHost.mFlags = .hostTimeValid
        #expect(AudioDeviceStartAtTime(device, c, &byHost, kAudioDeviceStartTimeIsInputFlag | kAudioDeviceStartTimeDontConsultHALFlag) == noErr)
        #expect(waitUntil { late.count > 0 && lateInput.count > 0 })
        let first = try #require(late.first), firstInput = try #require(lateInput.first)
        #expect(first.output.mSampleTime == requested.mSampleTime, "first output \(first.output.mSampleTime), promised \(requested.mSampleTime)")
        #expect(firstInput.input.mSampleTime == byHost.mSampleTime, "first input \(firstInput.input.mSampleTime), promised \(byHost.mSampleTime)")
        // The host time promised for the input start was at or after the one asked for, within a cycle (+3 ms).
        let slack = Double(Int64(bitPattern: byHost.mHostTime &- (now.mHostTime + 1_000_000_000))) / 1e9
        #expect(slack > -0.003 && slack < period / 44100 + 0.003, "slack \(slack) s")
        // A started proc is left as it is.
        var again = requested
        #expect(AudioDeviceStartAtTime(device, b, &again, 0) == noErr)
    }

    /// On a stopped device StartAtTime starts it; the proc starts at the returned time on the new clock.
    @Test func startAtTimeStartsAStoppedDevice() throws {
        let device = defaultOutput()
        try #require(device != 0)
        let log = CycleLog()
        var proc: AudioDeviceIOProcID?
        #expect(AudioDeviceCreateIOProcID(device, logProc, Unmanaged.passUnretained(log).toOpaque(), &proc) == noErr)
        defer { _ = AudioDeviceStop(device, proc); _ = AudioDeviceDestroyIOProcID(device, proc!) }
        var requested = AudioTimeStamp()
        requested.mSampleTime = 10000
        requested.mFlags = .sampleTimeValid
        #expect(AudioDeviceStartAtTime(device, proc, &requested, 0) == noErr)
        #expect(get(device, kAudioDevicePropertyDeviceIsRunning, UInt32(0)).1 == 1)
        #expect(waitUntil { log.count > 0 })
        #expect(log.first?.output.mSampleTime == requested.mSampleTime && requested.mSampleTime >= 10000)
    }
}
