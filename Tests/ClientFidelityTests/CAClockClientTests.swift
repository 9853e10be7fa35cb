// CAClock as a client uses it: conversions on a stopped clock against hand-computed values. Apple's API only.
import AudioToolbox
import Testing

@Suite struct CAClockClientTests {
    @Test func conversionsFollowTempoMeterAndSMPTE() throws {
        var clockRef: CAClockRef?
        #expect(CAClockNew(0, &clockRef) == noErr)
        let clock = try #require(clockRef)
        defer { CAClockDispose(clock) }
        // Default 120 bpm: 1 s is 2 beats.
        var t = CAClockTime()
        t.format = .seconds
        t.time.seconds = 1
        var out = CAClockTime()
        #expect(CAClockTranslateTime(clock, &t, .beats, &out) == noErr)
        #expect(out.time.beats == 2)
        // A tempo map: 120 bpm for 4 beats (2 s), then 60 bpm: beat 6 is at 2 s + 2 s.
        var map = [CATempoMapEntry(beats: 0, tempoBPM: 120), CATempoMapEntry(beats: 4, tempoBPM: 60)]
        #expect(CAClockSetProperty(clock, .tempoMap, UInt32(MemoryLayout<CATempoMapEntry>.stride * 2), &map) == noErr)
        t.format = .beats
        t.time.beats = 6
        #expect(CAClockTranslateTime(clock, &t, .seconds, &out) == noErr)
        #expect(out.time.seconds == 4)
        // SMPTE 30 fps: 3661.5 s is 01:01:01:15.
        var format = SMPTETimeType.type30
        #expect(CAClockSetProperty(clock, .smpteFormat, 4, &format) == noErr)
        var smpte = SMPTETime()
        #expect(CAClockSecondsToSMPTETime(clock, 3661.5, 80, &smpte) == noErr)
        #expect(smpte.mHours == 1 && smpte.mMinutes == 1 && smpte.mSeconds == 1 && smpte.mFrames == 15 && smpte.mSubframes == 0)
        var seconds: CAClockSeconds = 0
        #expect(CAClockSMPTETimeToSeconds(clock, &smpte, &seconds) == noErr)
        #expect(seconds == 3661.5)
        // 4/4: beat 9.5 is bar 3, beat 2, half a beat (subbeat 240 of 480).
        var bbt = CABarBeatTime()
        #expect(CAClockBeatsToBarBeatTime(clock, 9.5, 480, &bbt) == noErr)
        #expect(bbt.bar == 3 && bbt.beat == 2 && bbt.subbeat == 240)
        var beats: CAClockBeats = 0
        #expect(CAClockBarBeatTimeToBeats(clock, &bbt, &beats) == noErr)
        #expect(beats == 9.5)
        // Stopped: the time set is the time read; play rate must be positive.
        t.format = .seconds
        t.time.seconds = 10
        #expect(CAClockSetCurrentTime(clock, &t) == noErr)
        #expect(CAClockGetCurrentTime(clock, .seconds, &out) == noErr && out.time.seconds == 10)
        #expect(CAClockSetPlayRate(clock, 0) == kCAClock_InvalidPlayRateError)
        #expect(CAClockStart(clock) == noErr)
        #expect(CAClockSetCurrentTime(clock, &t) == kCAClock_CannotSetTimeError)
        #expect(CAClockStop(clock) == noErr)
        #expect(CAClockGetCurrentTime(clock, .seconds, &out) == noErr && out.time.seconds >= 10 && out.time.seconds < 11)
        var size: UInt32 = 0
        #expect(CAClockGetPropertyInfo(clock, .sendMIDISPP, &size, nil) == kCAClock_UnknownPropertyError)
    }
}
