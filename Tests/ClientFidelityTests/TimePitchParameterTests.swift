import AudioToolbox
import Testing

/// The time-pitch and varispeed parameter IDs carry Apple's names and values (AudioUnitParameters.h).
@Suite struct TimePitchParameterTests {
    @Test func parameterIDs() {
        #expect([kTimePitchParam_Rate, kTimePitchParam_Pitch, kTimePitchParam_EffectBlend] == [0, 1, 2])
        #expect([kNewTimePitchParam_Rate, kNewTimePitchParam_Pitch, kNewTimePitchParam_Smoothness, kNewTimePitchParam_Overlap,
                  kNewTimePitchParam_EnableSpectralCoherence, kNewTimePitchParam_EnablePeakLocking,
                  kNewTimePitchParam_EnableTransientPreservation] == [0, 1, 4, 4, 6, 6, 7])
        #expect([kVarispeedParam_PlaybackRate, kVarispeedParam_PlaybackCents] == [0, 1])
        #expect(kAudioUnitSubType_AUiPodTime == 0x6970_746D && kAudioUnitSubType_AUiPodTimeOther == 0x6970_746F)
        #expect(kAudioUnitSubType_NewTimePitch == 0x6E75_7470 && kAudioUnitSubType_Varispeed == 0x7661_7269)
    }
}
