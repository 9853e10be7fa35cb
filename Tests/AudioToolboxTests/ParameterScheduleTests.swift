@testable import AudioToolbox
import Testing

@Suite struct ParameterScheduleTests {
    /// Feeds 1.0 on every frame so the output is the gain itself.
    static let ones: AURenderCallback = { _, _, _, _, frames, ioData in
        for buffer in UnsafeMutableAudioBufferListPointer(ioData!) {
            let p = buffer.mData!.assumingMemoryBound(to: Float32.self)
            for n in 0..<Int(frames) { p[n] = 1 }
        }
        return noErr
    }

    func makeGain() throws -> AudioUnit {
        _ = TestGainUnit.registered
        let unit = try TestSupport.newUnit(TestGainUnit.description)
        TestSupport.setCallback(unit, 0, Self.ones, nil)
        #expect(AudioUnitInitialize(unit) == noErr)
        return unit
    }

    func renderSlice(_ unit: AudioUnit, frames: Int, at sampleTime: Double) throws -> [Float] {
        let format = OCAFormat.canonical(sampleRate: 44100, channels: 2)
        var ts = AudioTimeStamp()
        ts.mSampleTime = sampleTime
        ts.mFlags = .sampleTimeValid
        let abl = AudioBufferList.allocate(maximumBuffers: 2)
        defer { free(abl.unsafeMutablePointer) }
        for b in 0..<2 { abl[b] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(frames) * format.mBytesPerFrame, mData: nil) }
        try #require(AudioUnitRender(unit, nil, &ts, 0, UInt32(frames), abl.unsafeMutablePointer) == noErr)
        let left = UnsafeBufferPointer<Float32>(abl[0]), right = UnsafeBufferPointer<Float32>(abl[1])
        #expect(Array(left) == Array(right))
        return Array(left)
    }

    func ramp(_ start: Float, _ end: Float, offset: Int32, duration: UInt32) -> AudioUnitParameterEvent {
        var e = AudioUnitParameterEvent()
        e.scope = kAudioUnitScope_Global
        e.element = 0
        e.parameter = TestGainUnit.gainID
        e.eventType = .parameterEvent_Ramped
        e.eventValues.ramp.startBufferOffset = offset
        e.eventValues.ramp.durationInFrames = duration
        e.eventValues.ramp.startValue = start
        e.eventValues.ramp.endValue = end
        return e
    }

    func immediate(_ value: Float, offset: UInt32) -> AudioUnitParameterEvent {
        var e = AudioUnitParameterEvent()
        e.scope = kAudioUnitScope_Global
        e.parameter = TestGainUnit.gainID
        e.eventType = .parameterEvent_Immediate
        e.eventValues.immediate.bufferOffset = offset
        e.eventValues.immediate.value = value
        return e
    }

    /// Independent reference: value of a linear ramp at frame n.
    func reference(_ start: Double, _ end: Double, from: Int, duration: Int, n: Int, before: Double) -> Double {
        if n < from { return before }
        if n >= from + duration { return end }
        return start + (end - start) * Double(n - from) / Double(duration)
    }

    @Test func immediateEventsLandOnTheirOffsets() throws {
        let unit = try makeGain()
        defer { AudioComponentInstanceDispose(unit) }
        var events = [immediate(0.5, offset: 10), immediate(2, offset: 100)]
        #expect(AudioUnitScheduleParameters(unit, &events, 2) == noErr)
        let out = try renderSlice(unit, frames: 256, at: 0)
        for n in 0..<256 {
            let want: Float = n < 10 ? 1 : (n < 100 ? 0.5 : 2)
            if out[n] != want { Issue.record("frame \(n): \(out[n]) != \(want)"); break }
        }
        var v: Float = 0
        AudioUnitGetParameter(unit, TestGainUnit.gainID, kAudioUnitScope_Global, 0, &v)
        #expect(v == 2)
        // Without new events the next slice is constant.
        #expect(try renderSlice(unit, frames: 64, at: 256).allSatisfy { $0 == 2 })
    }

    @Test func rampsAreSampleAccurateAcrossSlices() throws {
        let unit = try makeGain()
        defer { AudioComponentInstanceDispose(unit) }
        // A ramp from 0 to 1 over 300 frames starting at frame 50 of a 128-frame slice: it spans three slices.
        var e = ramp(0, 1, offset: 50, duration: 300)
        #expect(AudioUnitScheduleParameters(unit, &e, 1) == noErr)
        var out: [Float] = []
        for k in 0..<4 { out += try renderSlice(unit, frames: 128, at: Double(k * 128)) }
        var worst = 0.0
        for n in 0..<512 {
            worst = max(worst, abs(Double(out[n]) - reference(0, 1, from: 50, duration: 300, n: n, before: 1)))
        }
        // Float32 representation of the ramp values: within 1e-6.
        #expect(worst < 1e-6, "largest deviation \(worst)")
        #expect(out[49] == 1 && out[50] == 0 && out[350] == 1)
    }

    @Test func rampStartingInALaterSliceWaits() throws {
        let unit = try makeGain()
        defer { AudioComponentInstanceDispose(unit) }
        var e = ramp(2, 0, offset: 200, duration: 10)
        AudioUnitScheduleParameters(unit, &e, 1)
        let a = try renderSlice(unit, frames: 128, at: 0)
        let b = try renderSlice(unit, frames: 128, at: 128)
        #expect(a.allSatisfy { $0 == 1 })
        for n in 0..<128 {
            let want = reference(2, 0, from: 72, duration: 10, n: n, before: 1)
            #expect(abs(Double(b[n]) - want) < 1e-6, "frame \(n + 128)")
        }
    }

    @Test func badEventsAreRefusedWhole() throws {
        let unit = try makeGain()
        defer { AudioComponentInstanceDispose(unit) }
        var events = [immediate(0.25, offset: 0), immediate(.nan, offset: 5)]
        #expect(AudioUnitScheduleParameters(unit, &events, 2) == kAudioUnitErr_InvalidParameterValue)
        var unknown = immediate(1, offset: 0)
        unknown.parameter = 99
        #expect(AudioUnitScheduleParameters(unit, &unknown, 1) == kAudioUnitErr_InvalidParameter)
        unknown.parameter = TestGainUnit.gainID
        unknown.scope = 9
        #expect(AudioUnitScheduleParameters(unit, &unknown, 1) == kAudioUnitErr_InvalidScope)
        #expect(try renderSlice(unit, frames: 32, at: 0).allSatisfy { $0 == 1 })
    }

    @Test func parameterListInfoAndImmediateSet() throws {
        let unit = try makeGain()
        defer { AudioComponentInstanceDispose(unit) }
        var size: UInt32 = 0
        #expect(AudioUnitGetPropertyInfo(unit, kAudioUnitProperty_ParameterList, kAudioUnitScope_Global, 0, &size, nil) == noErr)
        #expect(size == 4)
        var ids: [AudioUnitParameterID] = [77]
        #expect(AudioUnitGetProperty(unit, kAudioUnitProperty_ParameterList, kAudioUnitScope_Global, 0, &ids, &size) == noErr)
        #expect(ids == [TestGainUnit.gainID])
        var info = AudioUnitParameterInfo()
        size = UInt32(MemoryLayout<AudioUnitParameterInfo>.size)
        #expect(AudioUnitGetProperty(unit, kAudioUnitProperty_ParameterInfo, kAudioUnitScope_Global, TestGainUnit.gainID, &info, &size) == noErr)
        #expect(info.unit == .linearGain && info.minValue == 0 && info.maxValue == 4 && info.defaultValue == 1)
        #expect(info.flags.contains([.flag_IsReadable, .flag_IsWritable, .flag_CanRamp, .flag_HasCFNameString]))
        #expect(info.cfNameString?.takeRetainedValue() as String? == "Gain")
        let cName = withUnsafeBytes(of: info.name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
        #expect(cName == "Gain")
        #expect(AudioUnitSetParameter(unit, TestGainUnit.gainID, kAudioUnitScope_Global, 0, 0.25, 0) == noErr)
        #expect(try renderSlice(unit, frames: 16, at: 0).allSatisfy { $0 == 0.25 })
        #expect(AudioUnitSetParameter(unit, 5, kAudioUnitScope_Global, 0, 1, 0) == kAudioUnitErr_InvalidParameter)
        #expect(AudioUnitSetParameter(unit, TestGainUnit.gainID, kAudioUnitScope_Global, 1, 1, 0) == kAudioUnitErr_InvalidElement)
        #expect(AudioUnitSetParameter(unit, TestGainUnit.gainID, kAudioUnitScope_Global, 0, .infinity, 0) == kAudioUnitErr_InvalidParameterValue)
        var v: Float = 0
        #expect(AudioUnitGetParameter(unit, TestGainUnit.gainID, kAudioUnitScope_Global, 0, &v) == noErr)
        #expect(v == 0.25)
        // Parameters survive a ClassInfo round trip.
        var classInfo: CFPropertyList? = nil
        size = UInt32(MemoryLayout<CFPropertyList?>.size)
        #expect(AudioUnitGetProperty(unit, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &classInfo, &size) == noErr)
        AudioUnitSetParameter(unit, TestGainUnit.gainID, kAudioUnitScope_Global, 0, 3, 0)
        #expect(AudioUnitSetProperty(unit, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &classInfo, size) == noErr)
        AudioUnitGetParameter(unit, TestGainUnit.gainID, kAudioUnitScope_Global, 0, &v)
        #expect(v == 0.25)
    }

    @Test func bypassPassesInputThrough() throws {
        let unit = try makeGain()
        defer { AudioComponentInstanceDispose(unit) }
        AudioUnitSetParameter(unit, TestGainUnit.gainID, kAudioUnitScope_Global, 0, 3, 0)
        #expect(TestSupport.setUInt32(unit, kAudioUnitProperty_BypassEffect, kAudioUnitScope_Global, 0, 1) == noErr)
        #expect(try renderSlice(unit, frames: 16, at: 0).allSatisfy { $0 == 1 })
        #expect(TestSupport.setUInt32(unit, kAudioUnitProperty_BypassEffect, kAudioUnitScope_Input, 0, 1) == kAudioUnitErr_InvalidProperty)
        TestSupport.setUInt32(unit, kAudioUnitProperty_BypassEffect, kAudioUnitScope_Global, 0, 0)
        #expect(try renderSlice(unit, frames: 16, at: 16).allSatisfy { $0 == 3 })
    }

    @Test func processWorksInPlaceWithoutPullingInput() throws {
        let unit = try makeGain()
        defer { AudioComponentInstanceDispose(unit) }
        AudioUnitSetParameter(unit, TestGainUnit.gainID, kAudioUnitScope_Global, 0, 0.5, 0)
        #expect(AudioComponentInstanceCanDo(unit, Int16(kAudioUnitProcessSelect)))
        var left = [Float32](repeating: 2, count: 32), right = [Float32](repeating: -4, count: 32)
        let abl = AudioBufferList.allocate(maximumBuffers: 2)
        defer { free(abl.unsafeMutablePointer) }
        var ts = AudioTimeStamp()
        left.withUnsafeMutableBufferPointer { l in
            right.withUnsafeMutableBufferPointer { r in
                abl[0] = AudioBuffer(l, numberOfChannels: 1)
                abl[1] = AudioBuffer(r, numberOfChannels: 1)
                #expect(AudioUnitProcess(unit, nil, &ts, 32, abl.unsafeMutablePointer) == noErr)
                #expect(AudioUnitProcess(unit, nil, &ts, 2000, abl.unsafeMutablePointer) == kAudioUnitErr_TooManyFramesToProcess)
            }
        }
        #expect(left.allSatisfy { $0 == 1 } && right.allSatisfy { $0 == -2 })
        let output = try TestSupport.newUnit()
        defer { AudioComponentInstanceDispose(output) }
        #expect(AudioUnitProcess(output, nil, &ts, 32, abl.unsafeMutablePointer) == kAudio_UnimplementedError)
    }

    @Test func globalScopeRenderCallbackFeedsInputZero() throws {
        // The book sets kAudioUnitProperty_SetRenderCallback on the global scope.
        _ = TestGainUnit.registered
        let unit = try TestSupport.newUnit(TestGainUnit.description)
        defer { AudioComponentInstanceDispose(unit) }
        var cb = AURenderCallbackStruct(inputProc: Self.ones, inputProcRefCon: nil)
        #expect(AudioUnitSetProperty(unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Global, 0, &cb,
                                     UInt32(MemoryLayout<AURenderCallbackStruct>.size)) == noErr)
        #expect(AudioUnitInitialize(unit) == noErr)
        #expect(try renderSlice(unit, frames: 8, at: 0).allSatisfy { $0 == 1 })
    }
}
