import AllocationCounter
import COCASupport
@testable import AudioToolbox
import Testing

/// The render path allocates nothing: counted by a malloc override in the test binary, per thread.
@Suite struct RealTimeAllocationTests {
    final class Phase { var value = 0.0 }

    static let sine: AURenderCallback = { refCon, _, _, _, frames, ioData in
        let phase = Unmanaged<Phase>.fromOpaque(refCon).takeUnretainedValue()
        let abl = UnsafeMutableAudioBufferListPointer(ioData!)
        for n in 0..<Int(frames) {
            let x = Float32(sin(phase.value))
            phase.value += 0.0626
            for b in 0..<abl.count { abl[b].mData!.assumingMemoryBound(to: Float32.self)[n] = x }
        }
        return noErr
    }

    static let notify: AURenderCallback = { _, _, _, _, _, _ in noErr }

    @Test func counterSeesAllocations() {
        oca_alloc_counting_start()
        let p = malloc(64)
        let n = oca_alloc_counting_stop()
        free(p)
        #expect(oca_alloc_counter_is_active() == 1)
        #expect(n >= 1)  // the counter itself works, so zero below means zero
    }

    func renderManySlices(_ unit: AudioUnit, slices: Int, frames: UInt32, callerMemory: Bool) -> UInt64 {
        let abl = AudioBufferList.allocate(maximumBuffers: 2)
        defer { free(abl.unsafeMutablePointer) }
        let memory = UnsafeMutablePointer<Float32>.allocate(capacity: Int(frames) * 2)
        defer { memory.deallocate() }
        var ts = AudioTimeStamp()
        ts.mFlags = .sampleTimeValid
        var flags = AudioUnitRenderActionFlags()
        var failures = 0
        func renderOne() {
            for b in 0..<2 {
                abl[b] = AudioBuffer(mNumberChannels: 1, mDataByteSize: frames * 4,
                                     mData: callerMemory ? UnsafeMutableRawPointer(memory + b * Int(frames)) : nil)
            }
            if AudioUnitRender(unit, &flags, &ts, 0, frames, abl.unsafeMutablePointer) != noErr { failures += 1 }
            ts.mSampleTime += Double(frames)
        }
        renderOne()  // the first slice may touch lazily created runtime state
        oca_alloc_counting_start()
        // Under RealtimeSanitizer (scripts/rtsan-test.sh) any lock, allocation or blocking call in here aborts.
        oca_realtime_enter()
        for _ in 1..<slices { renderOne() }
        oca_realtime_exit()
        let count = oca_alloc_counting_stop()
        #expect(failures == 0)
        return count
    }

    @Test(arguments: [true, false])
    func genericOutputWithCallbackAllocatesNothing(callerMemory: Bool) throws {
        let unit = try TestSupport.newUnit()
        defer { AudioComponentInstanceDispose(unit) }
        let phase = Phase()
        TestSupport.setCallback(unit, 0, Self.sine, Unmanaged.passUnretained(phase).toOpaque())
        AudioUnitAddRenderNotify(unit, Self.notify, nil)
        #expect(AudioUnitInitialize(unit) == noErr)
        #expect(renderManySlices(unit, slices: 10_000, frames: 512, callerMemory: callerMemory) == 0)
    }

    /// The multichannel mixer pulling four inputs (one disabled), metering, with volume and pan changes ramping.
    @Test func multiChannelMixerAllocatesNothing() throws {
        let d = AudioComponentDescription(componentType: kAudioUnitType_Mixer, componentSubType: kAudioUnitSubType_MultiChannelMixer,
                                          componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        let unit = try TestSupport.newUnit(d)
        defer { AudioComponentInstanceDispose(unit) }
        TestSupport.setUInt32(unit, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, 4)
        let phase = Phase()
        for i in 0..<4 { TestSupport.setCallback(unit, AudioUnitElement(i), Self.sine, Unmanaged.passUnretained(phase).toOpaque()) }
        AudioUnitSetParameter(unit, kMultiChannelMixerParam_Enable, kAudioUnitScope_Input, 3, 0, 0)
        TestSupport.setUInt32(unit, kAudioUnitProperty_MeteringMode, kAudioUnitScope_Input, 0, 1)
        TestSupport.setUInt32(unit, kAudioUnitProperty_MeteringMode, kAudioUnitScope_Output, 0, 1)
        #expect(AudioUnitInitialize(unit) == noErr)
        AudioUnitSetParameter(unit, kMultiChannelMixerParam_Volume, kAudioUnitScope_Input, 0, 0.3, 0)
        AudioUnitSetParameter(unit, kMultiChannelMixerParam_Pan, kAudioUnitScope_Input, 1, -0.7, 0)
        AudioUnitSetParameter(unit, kMultiChannelMixerParam_Volume, kAudioUnitScope_Output, 0, 0.5, 0)
        #expect(renderManySlices(unit, slices: 2_000, frames: 512, callerMemory: true) == 0)
    }

    /// The matrix mixer with two inputs routed to two outputs, metering every channel and tracking clipping.
    @Test func matrixMixerMeteringAllocatesNothing() throws {
        let d = AudioComponentDescription(componentType: kAudioUnitType_Mixer, componentSubType: kAudioUnitSubType_MatrixMixer,
                                          componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        let unit = try TestSupport.newUnit(d)
        defer { AudioComponentInstanceDispose(unit) }
        TestSupport.setUInt32(unit, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, 2)
        let phase = Phase()
        for i in 0..<2 { TestSupport.setCallback(unit, AudioUnitElement(i), Self.sine, Unmanaged.passUnretained(phase).toOpaque()) }
        TestSupport.setUInt32(unit, kAudioUnitProperty_MeteringMode, kAudioUnitScope_Global, 0, 1)
        #expect(AudioUnitInitialize(unit) == noErr)
        AudioUnitSetParameter(unit, kMatrixMixerParam_Volume, kAudioUnitScope_Global, 0xFFFF_FFFF, 1, 0)
        for c: AudioUnitElement in 0..<4 { AudioUnitSetParameter(unit, kMatrixMixerParam_Volume, kAudioUnitScope_Input, c, 0.5, 0) }
        for c: AudioUnitElement in 0..<2 { AudioUnitSetParameter(unit, kMatrixMixerParam_Volume, kAudioUnitScope_Output, c, 1, 0) }
        AudioUnitSetParameter(unit, kMatrixMixerParam_Volume, kAudioUnitScope_Global, 0 << 16 | 0, 1, 0)
        AudioUnitSetParameter(unit, kMatrixMixerParam_Volume, kAudioUnitScope_Global, 3 << 16 | 1, 1, 0)
        #expect(renderManySlices(unit, slices: 2_000, frames: 512, callerMemory: true) == 0)
    }

    /// The 3D mixer: equal-power, spherical-head (with its delay line) and stereo inputs at playback rates that
    /// pull the sources in varying slice sizes, metering, the internal reverb (its room changed while counted), and
    /// a source moving every slice while counted.
    @Test func spatialMixerAllocatesNothing() throws {
        let d = AudioComponentDescription(componentType: kAudioUnitType_Mixer, componentSubType: kAudioUnitSubType_SpatialMixer,
                                          componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        let unit = try TestSupport.newUnit(d)
        defer { AudioComponentInstanceDispose(unit) }
        TestSupport.setUInt32(unit, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, 3)
        let stereo = OCAFormat.canonical(sampleRate: 44100, channels: 2)
        TestSupport.setFormat(unit, kAudioUnitScope_Input, 2, stereo)
        let phase = Phase()
        for i in 0..<3 { TestSupport.setCallback(unit, AudioUnitElement(i), Self.sine, Unmanaged.passUnretained(phase).toOpaque()) }
        TestSupport.setUInt32(unit, kAudioUnitProperty_SpatializationAlgorithm, kAudioUnitScope_Input, 1,
                              AUSpatializationAlgorithm.spatializationAlgorithm_SphericalHead.rawValue)
        TestSupport.setUInt32(unit, kAudioUnitProperty_MeteringMode, kAudioUnitScope_Input, 0, 1)
        TestSupport.setUInt32(unit, kAudioUnitProperty_MeteringMode, kAudioUnitScope_Output, 0, 1)
        #expect(AudioUnitInitialize(unit) == noErr)
        AudioUnitSetParameter(unit, kSpatialMixerParam_PlaybackRate, kAudioUnitScope_Input, 0, 1.37, 0)
        AudioUnitSetParameter(unit, kSpatialMixerParam_PlaybackRate, kAudioUnitScope_Input, 1, 0.61, 0)
        AudioUnitSetParameter(unit, kSpatialMixerParam_Distance, kAudioUnitScope_Input, 1, 7, 0)
        TestSupport.setUInt32(unit, kAudioUnitProperty_UsesInternalReverb, kAudioUnitScope_Global, 0, 1)
        for i in 0..<3 { AudioUnitSetParameter(unit, kSpatialMixerParam_ReverbBlend, kAudioUnitScope_Input, AudioUnitElement(i), 40, 0) }
        _ = renderManySlices(unit, slices: 1, frames: 512, callerMemory: true)
        TestSupport.setUInt32(unit, kAudioUnitProperty_ReverbRoomType, kAudioUnitScope_Global, 0, 8)  // applied in a counted render
        // A ramp over many slices moves the spherical-head source while counting.
        var ramp = AudioUnitParameterEvent()
        ramp.scope = kAudioUnitScope_Input
        ramp.element = 1
        ramp.parameter = kSpatialMixerParam_Azimuth
        ramp.eventType = .parameterEvent_Ramped
        ramp.eventValues.ramp.durationInFrames = 512 * 1500
        ramp.eventValues.ramp.startValue = -170
        ramp.eventValues.ramp.endValue = 170
        AudioUnitScheduleParameters(unit, &ramp, 1)
        #expect(renderManySlices(unit, slices: 2_000, frames: 512, callerMemory: true) == 0)
    }

    /// The iPod EQ filtering with a preset, then crossfading to another while counted.
    @Test func iPodEQAllocatesNothingEvenWhileSwitchingPresets() throws {
        let unit = try TestSupport.newUnit(AudioComponentDescription(componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_AUiPodEQ,
                                                                     componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0))
        defer { AudioComponentInstanceDispose(unit) }
        let phase = Phase()
        TestSupport.setCallback(unit, 0, Self.sine, Unmanaged.passUnretained(phase).toOpaque())
        var preset = AUPreset(presetNumber: 16, presetName: nil)
        AudioUnitSetProperty(unit, kAudioUnitProperty_PresentPreset, kAudioUnitScope_Global, 0, &preset, UInt32(MemoryLayout<AUPreset>.size))
        #expect(AudioUnitInitialize(unit) == noErr)
        preset.presetNumber = 3  // applied at the next (uncounted) render; its 441-frame crossfade runs on in counted 64-frame slices
        AudioUnitSetProperty(unit, kAudioUnitProperty_PresentPreset, kAudioUnitScope_Global, 0, &preset, UInt32(MemoryLayout<AUPreset>.size))
        #expect(renderManySlices(unit, slices: 4_000, frames: 64, callerMemory: true) == 0)
    }

    @Test func connectionsAndScheduledRampsAllocateNothing() throws {
        _ = TestGainUnit.registered
        let gain = try TestSupport.newUnit(TestGainUnit.description)
        let output = try TestSupport.newUnit()
        defer { AudioComponentInstanceDispose(output); AudioComponentInstanceDispose(gain) }
        let phase = Phase()
        TestSupport.setCallback(gain, 0, Self.sine, Unmanaged.passUnretained(phase).toOpaque())
        var connection = AudioUnitConnection(sourceAudioUnit: gain, sourceOutputNumber: 0, destInputNumber: 0)
        AudioUnitSetProperty(output, kAudioUnitProperty_MakeConnection, kAudioUnitScope_Input, 0, &connection,
                             UInt32(MemoryLayout<AudioUnitConnection>.size))
        #expect(AudioUnitInitialize(gain) == noErr)
        #expect(AudioUnitInitialize(output) == noErr)
        // Schedule a ramp before each slice from a pre-render notification on the output unit, as hosts do.
        let scheduler: AURenderCallback = { refCon, flags, _, _, _, _ in
            guard flags.pointee.contains(.unitRenderAction_PreRender) else { return noErr }
            var e = AudioUnitParameterEvent()
            e.scope = kAudioUnitScope_Global
            e.parameter = TestGainUnit.gainID
            e.eventType = .parameterEvent_Ramped
            e.eventValues.ramp.startBufferOffset = 100
            e.eventValues.ramp.durationInFrames = 1000
            e.eventValues.ramp.startValue = 0
            e.eventValues.ramp.endValue = 1
            return AudioUnitScheduleParameters(OpaquePointer(refCon), &e, 1)
        }
        AudioUnitAddRenderNotify(output, scheduler, UnsafeMutableRawPointer(gain))
        #expect(renderManySlices(output, slices: 10_000, frames: 256, callerMemory: true) == 0)
    }

    @Test func sampleRateConversionInAUConverterAllocatesNothing() throws {
        let converter = try TestSupport.newUnit(AudioComponentDescription(
            componentType: kAudioUnitType_FormatConverter, componentSubType: kAudioUnitSubType_AUConverter,
            componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0))
        let output = try TestSupport.newUnit()
        defer { AudioComponentInstanceDispose(output); AudioComponentInstanceDispose(converter) }
        let int16 = OCAFormat.linearPCM(sampleRate: 22050, channels: 2, bitsPerChannel: 16, isFloat: false, interleaved: true)
        TestSupport.setFormat(converter, kAudioUnitScope_Input, 0, int16)
        let silence: AURenderCallback = { _, _, _, _, frames, ioData in
            let b = UnsafeMutableAudioBufferListPointer(ioData!)[0]
            memset(b.mData, 0, Int(frames) * 4)
            return noErr
        }
        TestSupport.setCallback(converter, 0, silence, nil)
        var connection = AudioUnitConnection(sourceAudioUnit: converter, sourceOutputNumber: 0, destInputNumber: 0)
        AudioUnitSetProperty(output, kAudioUnitProperty_MakeConnection, kAudioUnitScope_Input, 0, &connection,
                             UInt32(MemoryLayout<AudioUnitConnection>.size))
        #expect(AudioUnitInitialize(converter) == noErr)
        #expect(AudioUnitInitialize(output) == noErr)
        #expect(renderManySlices(output, slices: 2_000, frames: 512, callerMemory: true) == 0)
    }

    /// Changes a time-pitch unit's rate (and pitch) every 7th slice from a pre-render notification, cycling
    /// through values set up front.
    final class RateScheduler {
        let unit: AudioUnit
        let rateID: AudioUnitParameterID, rates: [Float]
        let pitchID: AudioUnitParameterID?, pitches: [Float]
        var slice = 0
        init(_ unit: AudioUnit, rateID: AudioUnitParameterID, rates: [Float], pitchID: AudioUnitParameterID? = nil, pitches: [Float] = [0]) {
            self.unit = unit; self.rateID = rateID; self.rates = rates; self.pitchID = pitchID; self.pitches = pitches
        }
        static let notify: AURenderCallback = { refCon, flags, _, _, _, _ in
            guard flags.pointee.contains(.unitRenderAction_PreRender) else { return noErr }
            let s = Unmanaged<RateScheduler>.fromOpaque(refCon).takeUnretainedValue()
            s.slice += 1
            guard s.slice % 7 == 0 else { return noErr }
            var e = AudioUnitParameterEvent()
            e.scope = kAudioUnitScope_Global
            e.parameter = s.rateID
            e.eventType = .parameterEvent_Immediate
            e.eventValues.immediate.value = s.rates[(s.slice / 7) % s.rates.count]
            var status = AudioUnitScheduleParameters(s.unit, &e, 1)
            if let pitchID = s.pitchID {
                e.parameter = pitchID
                e.eventValues.immediate.value = s.pitches[(s.slice / 7) % s.pitches.count]
                status = AudioUnitScheduleParameters(s.unit, &e, 1)
            }
            return status
        }
    }

    /// AUiPodTime, AUNewTimePitch and AUVarispeed pulling varying numbers of input frames (in several chunks at
    /// fast rates) while their rate (and pitch) change every few slices.
    @Test(arguments: [kAudioUnitSubType_AUiPodTime, kAudioUnitSubType_NewTimePitch, kAudioUnitSubType_Varispeed])
    func timePitchUnitsAllocateNothing(subType: OSType) throws {
        let unit = try TestSupport.newUnit(AudioComponentDescription(componentType: kAudioUnitType_FormatConverter, componentSubType: subType,
                                                                     componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0))
        defer { AudioComponentInstanceDispose(unit) }
        let phase = Phase()
        TestSupport.setCallback(unit, 0, Self.sine, Unmanaged.passUnretained(phase).toOpaque())
        let scheduler: RateScheduler
        switch subType {
        case kAudioUnitSubType_AUiPodTime:
            scheduler = RateScheduler(unit, rateID: kTimePitchParam_Rate, rates: [0.5, 2, 0.8, 1.5, 0.66667, 1.25, 1, 1.9])
        case kAudioUnitSubType_NewTimePitch:
            scheduler = RateScheduler(unit, rateID: kNewTimePitchParam_Rate, rates: [0.5, 2, 1, 4, 0.25, 1.3],
                                      pitchID: kNewTimePitchParam_Pitch, pitches: [0, 1200, -700, 2400, -2400, 100, 0])
        default:
            scheduler = RateScheduler(unit, rateID: kVarispeedParam_PlaybackRate, rates: [0.5, 2, 1, 4, 0.25, 1.3])
        }
        AudioUnitAddRenderNotify(unit, RateScheduler.notify, Unmanaged.passUnretained(scheduler).toOpaque())
        #expect(AudioUnitInitialize(unit) == noErr)
        #expect(renderManySlices(unit, slices: 1_000, frames: 512, callerMemory: true) == 0)
        #expect(scheduler.slice == 1_000)
    }

    /// CARingBuffer's Store, Fetch and GetTimeBounds (wrapping, skipping ahead, zero-filling at both ends).
    @Test func ringBufferStoreAndFetchAllocateNothing() {
        let ring = CARingBuffer()
        ring.Allocate(2, 4, 1000)
        let frames = 256
        let source = AudioBufferList.allocate(maximumBuffers: 2)
        let dest = AudioBufferList.allocate(maximumBuffers: 2)
        let memory = UnsafeMutablePointer<Float32>.allocate(capacity: frames * 4)
        memory.initialize(repeating: 0.5, count: frames * 4)
        defer {
            free(source.unsafeMutablePointer)
            free(dest.unsafeMutablePointer)
            memory.deallocate()
        }
        var t: CARingBuffer.SampleTime = 0
        var start: CARingBuffer.SampleTime = 0, end: CARingBuffer.SampleTime = 0
        var failures = 0
        func cycle(_ i: Int) {
            for b in 0..<2 {
                source[b] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(frames * 4), mData: memory + b * frames)
                dest[b] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(frames * 4), mData: memory + (2 + b) * frames)
            }
            if i % 97 == 0 { t += 300 }  // a gap to zero-fill
            if ring.Store(source.unsafePointer, UInt32(frames), t) != kCARingBufferError_OK { failures += 1 }
            if ring.GetTimeBounds(&start, &end) != kCARingBufferError_OK { failures += 1 }
            if ring.Fetch(dest.unsafeMutablePointer, UInt32(frames), start - 100) != kCARingBufferError_OK { failures += 1 }
            dest[0].mDataByteSize = UInt32(frames * 4)
            dest[1].mDataByteSize = UInt32(frames * 4)
            if ring.Fetch(dest.unsafeMutablePointer, UInt32(frames), end - 100) != kCARingBufferError_OK { failures += 1 }
            t += CARingBuffer.SampleTime(frames)
        }
        cycle(1)
        oca_alloc_counting_start()
        oca_realtime_enter()
        for i in 2..<20_000 { cycle(i) }
        oca_realtime_exit()
        let count = oca_alloc_counting_stop()
        #expect(failures == 0)
        #expect(count == 0)
    }
}
