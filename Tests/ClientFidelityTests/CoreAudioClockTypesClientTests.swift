// CoreAudioClock.h's types as a client names them: the enums import as Swift enums with Apple's raw values
// (four-character codes), CAClockTime's union holds one time in the format its tag names. Apple's API only.
import AudioToolbox
import Testing

@Suite struct CoreAudioClockTypesClientTests {
    private func fourCC(_ s: String) -> UInt32 { s.utf8.reduce(0) { $0 << 8 | UInt32($1) } }

    @Test func enumsCarryApplesFourCharacterCodes() {
        #expect(CAClockTimebase.hostTime.rawValue == fourCC("host"))
        #expect(CAClockTimebase.audioOutputUnit.rawValue == fourCC("auou"))
        #expect(CAClockSyncMode.mtcTransport.rawValue == fourCC("mmtc"))
        #expect(CAClockMessage.wrongSMPTEFormat.rawValue == fourCC("?smp"))
        #expect(CAClockTimeFormat.beats.rawValue == fourCC("beat"))
        #expect(CAClockPropertyID.tempoMap.rawValue == fourCC("tmpo"))
        #expect(kCAClock_CannotSetTimeError == -66805 && kCAClock_UnknownPropertyError == -66816)
    }

    @Test func clockTimeHoldsOneFormatsValue() {
        var t = CAClockTime()
        t.format = .beats
        t.time.beats = 2.5
        #expect(t.time.beats == 2.5 && t.reserved == 0)
        // The union is as large as its largest member, SMPTETime.
        #expect(MemoryLayout<CAClockTime>.size == 8 + MemoryLayout<SMPTETime>.size)
        let tempo = CATempoMapEntry(beats: 0, tempoBPM: 120)
        let meter = CAMeterTrackEntry(beats: 0, meterNumer: 3, meterDenom: 4)
        #expect(tempo.tempoBPM == 120 && meter.meterNumer == 3 && MemoryLayout<CAMeterTrackEntry>.stride == 16)
    }
}
