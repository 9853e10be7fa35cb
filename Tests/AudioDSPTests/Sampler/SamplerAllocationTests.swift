import AllocationCounter
import AudioDSP
import Testing

/// The engine's real-time paths allocate nothing: rendering with 64 voices sounding (the pool full, so new notes
/// steal), and the MIDI messages the render thread may deliver between slices (notes, controllers, pitch bend,
/// pressure, program and bank changes, sustain, all notes off). The counter sees the calling thread only.
@Suite struct SamplerAllocationTests {
    typealias S = SamplerTestSupport

    @Test func renderAndEventsAllocateNothing() throws {
        try Self.check(try S.engine(voices: 64))
    }

    /// The same on a DLS bank (DLSBankTests' three instruments: articulation-made generators and modulators).
    @Test func renderAndEventsAllocateNothingOnADLSBank() throws {
        let engine = SamplerEngine(sampleRate: S.rate, maximumVoices: 64)
        engine.load(try SoundFont(bytes: DLSBankTests.bank().bytes()))
        // Its kit has one key and most programs fall back to program 0, so fewer notes sound at the end.
        try Self.check(engine, soundingAtEnd: 16)
    }

    static func check(_ engine: SamplerEngine, soundingAtEnd: Int = 32) throws {
        #expect(oca_alloc_counter_is_active() == 1)
        let left = UnsafeMutablePointer<Float>.allocate(capacity: 512), right = UnsafeMutablePointer<Float>.allocate(capacity: 512)
        defer { left.deallocate(); right.deallocate() }
        // Warm up: every code path once (lazy globals such as the default modulators initialise on first use).
        func events(_ k: Int) {
            let c = UInt8(k % 16)
            engine.handle(status: 0x90 | c, data1: UInt8(30 + k % 60), data2: UInt8(20 + k % 100))
            engine.handle(status: 0xB0 | c, data1: 1, data2: UInt8(k % 128))
            engine.handle(status: 0xB0 | c, data1: 7, data2: UInt8(90 + k % 30))
            engine.handle(status: 0xB0 | c, data1: 10, data2: UInt8(k % 128))
            engine.handle(status: 0xE0 | c, data1: UInt8(k % 128), data2: UInt8(k % 128))
            engine.handle(status: 0xD0 | c, data1: UInt8(k % 128), data2: 0)
            engine.handle(status: 0xA0 | c, data1: UInt8(30 + k % 60), data2: 50)
            if k % 7 == 0 { engine.handle(status: 0xB0 | c, data1: 64, data2: k % 14 == 0 ? 127 : 0) }
            if k % 11 == 0 { engine.handle(status: 0xC0 | c, data1: UInt8(k % 128), data2: 0) }
            if k % 13 == 0 { engine.handle(status: 0xB0 | c, data1: 0, data2: k % 26 == 0 ? 0x78 : 0x79) }
            if k % 17 == 0 { engine.handle(status: 0x80 | c, data1: UInt8(30 + (k - 3) % 60), data2: 0) }
            if k % 97 == 0 { engine.handle(status: 0xB0 | c, data1: 123, data2: 0) }
        }
        for k in 0 ..< 200 { events(k); engine.render(frameCount: 512, left: left, right: right) }
        for k in 0 ..< 64 { engine.handle(status: 0x90 | UInt8(k % 16), data1: UInt8(36 + k), data2: 100) }
        engine.render(frameCount: 512, left: left, right: right)
        #expect(engine.activeVoiceCount >= 56)  // the pool is full (a drum voice may have ended)

        oca_alloc_counting_start()
        for k in 0 ..< 400 {
            events(k)
            engine.render(frameCount: 512, left: left, right: right)
        }
        let count = oca_alloc_counting_stop()
        #expect(count == 0, "\(count) allocations while rendering")
        #expect(engine.activeVoiceCount > soundingAtEnd)
    }
}
