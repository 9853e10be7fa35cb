import AllocationCounter
import AudioToolbox
import COCASupport
import Foundation
import Testing

/// The instrument render path allocates nothing and takes no lock (RealtimeSanitizer in rtsan-test.sh): AUSampler on
/// the General MIDI piano with 64 voices sounding, notes, controllers, pitch bend and note instance IDs arriving
/// through the MusicDevice API from the render loop, as a sequencer's render notification sends them.
@Suite struct InstrumentAllocationTests {
    @Test func samplerWith64VoicesAllocatesNothing() throws {
        try AUSamplerTests.requireBank()
        let unit = try AUSamplerTests.sampler()
        defer { AudioComponentInstanceDispose(unit) }
        #expect(TestSupport.setUInt32(unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, 256) == noErr)
        try #require(AudioUnitInitialize(unit) == noErr)
        #expect(AUSamplerTests.loadGM(unit, program: 48) == noErr)  // strings: long sustains keep voices busy
        let abl = AudioBufferList.allocate(maximumBuffers: 2)
        defer { free(abl.unsafeMutablePointer) }
        let memory = UnsafeMutablePointer<Float32>.allocate(capacity: 512)
        defer { memory.deallocate() }
        var ts = AudioTimeStamp()
        ts.mFlags = .sampleTimeValid
        var failures = 0, loud = 0
        var params = MusicDeviceNoteParams(argCount: 2, mPitch: 60, mVelocity: 90, mControls: NoteParamsControlValue(mID: 0, mValue: 0))
        var noteID: NoteInstanceID = 0
        func renderOne(_ k: Int) {
            // 64 keys held, re-struck in turn (stealing once every key sounds), with controller traffic.
            let key = UInt32(30 + k % 64)
            if MusicDeviceMIDIEvent(unit, 0x90, key, UInt32(60 + k % 60), UInt32(k % 256)) != noErr { failures += 1 }
            if k % 7 == 0 { MusicDeviceMIDIEvent(unit, 0xE0, UInt32(k % 128), UInt32(k % 128), 13) }
            if k % 11 == 0 { MusicDeviceMIDIEvent(unit, 0xB0, 1, UInt32(k % 128), 0) }
            if k % 13 == 0 {
                params.mPitch = Float(40 + k % 40)
                MusicDeviceStartNote(unit, kMusicNoteEvent_Unused, 1, &noteID, 5, &params)
            }
            if k % 13 == 6 { MusicDeviceStopNote(unit, 1, noteID, 200) }
            for b in 0..<2 { abl[b] = AudioBuffer(mNumberChannels: 1, mDataByteSize: 1024, mData: UnsafeMutableRawPointer(memory + b * 256)) }
            var flags = AudioUnitRenderActionFlags()
            if AudioUnitRender(unit, &flags, &ts, 0, 256, abl.unsafeMutablePointer) != noErr { failures += 1 }
            if abs(memory[128]) > 1e-3 { loud += 1 }
            ts.mSampleTime += 256
        }
        for k in 0..<200 { renderOne(k) }
        oca_alloc_counting_start()
        oca_realtime_enter()
        for k in 200..<3_000 { renderOne(k) }
        oca_realtime_exit()
        let count = oca_alloc_counting_stop()
        #expect(failures == 0)
        #expect(count == 0, "\(count) allocations on the render path")
        #expect(loud > 2_500, "sounding in \(loud) of 2,800 slices")
    }
}
