import OpenAL
import Testing

@Suite struct OpenALSmokeTests {
    @Test func compiles() {
        #expect(AL_TRUE == 1)
    }
}
