import Testing
import OCASpeech

@Suite("Apple → espeak-ng parameter mapping")
struct SpeechParameterMappingTests {
    @Test func rateIsWordsPerMinuteClamped() {
        #expect(SpeechParameterMapping.espeakRate(wordsPerMinute: 175) == 175)
        #expect(SpeechParameterMapping.espeakRate(wordsPerMinute: 180.4) == 180)
        #expect(SpeechParameterMapping.espeakRate(wordsPerMinute: 20) == 80)
        #expect(SpeechParameterMapping.espeakRate(wordsPerMinute: 900) == 450)
        #expect(SpeechParameterMapping.espeakRate(wordsPerMinute: .nan) == 175)
    }

    @Test func pitchIsLogarithmicAroundTheDefaultVoice() {
        #expect(SpeechParameterMapping.espeakPitch(hertz: 98) == 50)
        #expect(SpeechParameterMapping.espeakPitch(hertz: 196) == 100)
        #expect(SpeechParameterMapping.espeakPitch(hertz: 49) == 0)
        #expect(SpeechParameterMapping.espeakPitch(hertz: 110) == 61)
        #expect(SpeechParameterMapping.espeakPitch(hertz: 130) == 77)
        #expect(SpeechParameterMapping.espeakPitch(hertz: 1000) == 100)
        #expect(SpeechParameterMapping.espeakPitch(hertz: 0) == 50)
        #expect(SpeechParameterMapping.espeakPitch(hertz: -5) == 50)
    }

    @Test func semitonePitchConvertsToHertz() {
        #expect(abs(SpeechParameterMapping.hertz(fromSemitonePitch: 69) - 440) < 1e-9)
        #expect(abs(SpeechParameterMapping.hertz(fromSemitonePitch: 60) - 261.6256) < 1e-3)
        #expect(abs(SpeechParameterMapping.hertz(fromSemitonePitch: 43) - 97.9989) < 1e-3)
    }

    @Test func volumeMapsFullToEspeakNormal() {
        #expect(SpeechParameterMapping.espeakVolume(1) == 100)
        #expect(SpeechParameterMapping.espeakVolume(0.5) == 50)
        #expect(SpeechParameterMapping.espeakVolume(0) == 0)
        #expect(SpeechParameterMapping.espeakVolume(-1) == 0)
        #expect(SpeechParameterMapping.espeakVolume(2) == 200)
        #expect(SpeechParameterMapping.espeakVolume(5) == 200)
    }
}
