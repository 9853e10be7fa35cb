import AudioToolbox
import Testing

/// Property, scope, element, size and state rules, with the statuses Apple's units return; every
/// failed call leaves the unit unchanged.
@Suite struct PropertyRulesTests {
    let formatSize = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)

    @Test func defaultsMatchApple() throws {
        let unit = try TestSupport.newUnit()
        defer { AudioComponentInstanceDispose(unit) }
        let f = TestSupport.format(unit, kAudioUnitScope_Output, 0)
        #expect(f.mSampleRate == 44100)
        #expect(f.mFormatID == kAudioFormatLinearPCM)
        #expect(f.mFormatFlags == 0x29)
        #expect(f.mChannelsPerFrame == 2)
        #expect(f.mBitsPerChannel == 32 && f.mBytesPerFrame == 4 && f.mBytesPerPacket == 4 && f.mFramesPerPacket == 1)
        #expect(TestSupport.getUInt32(unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0) == (noErr, 1156))
        #expect(TestSupport.getUInt32(unit, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0) == (noErr, 1))
        #expect(TestSupport.getUInt32(unit, kAudioUnitProperty_ElementCount, kAudioUnitScope_Output, 0) == (noErr, 1))
        #expect(TestSupport.getUInt32(unit, kAudioUnitProperty_ElementCount, kAudioUnitScope_Global, 0) == (noErr, 1))
        var latency: Float64 = -1
        var size: UInt32 = 8
        #expect(AudioUnitGetProperty(unit, kAudioUnitProperty_Latency, kAudioUnitScope_Global, 0, &latency, &size) == noErr)
        #expect(latency == 0)
        var preset = AUPreset()
        size = UInt32(MemoryLayout<AUPreset>.size)
        #expect(AudioUnitGetProperty(unit, kAudioUnitProperty_PresentPreset, kAudioUnitScope_Global, 0, &preset, &size) == noErr)
        #expect(preset.presetNumber == -1)
        #expect(preset.presetName?.takeRetainedValue() as String? == "Untitled")
    }

    @Test func propertyInfoReportsSizesAndWritability() throws {
        let unit = try TestSupport.newUnit()
        defer { AudioComponentInstanceDispose(unit) }
        var size: UInt32 = 0
        var writable: DarwinBoolean = false
        #expect(AudioUnitGetPropertyInfo(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &size, &writable) == noErr)
        #expect(size == 40 && writable.boolValue)
        #expect(AudioUnitGetPropertyInfo(unit, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, &size, &writable) == noErr)
        #expect(size == 4 && !writable.boolValue)
        #expect(AudioUnitGetPropertyInfo(unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &size, &writable) == noErr)
        #expect(size == 16 && writable.boolValue)
        #expect(AudioUnitGetPropertyInfo(unit, kAudioUnitProperty_Latency, kAudioUnitScope_Global, 0, &size, nil) == noErr)
        #expect(size == 8)
        // Errors zero both outputs.
        #expect(AudioUnitGetPropertyInfo(unit, 0x7FFF_0000, kAudioUnitScope_Global, 0, &size, &writable) == kAudioUnitErr_InvalidProperty)
        #expect(size == 0 && !writable.boolValue)
    }

    @Test func badScopeElementAndPropertyAreRejected() throws {
        let unit = try TestSupport.newUnit()
        defer { AudioComponentInstanceDispose(unit) }
        let good = OCAFormat.canonical(sampleRate: 48000, channels: 2)
        #expect(TestSupport.setFormat(unit, kAudioUnitScope_Input, 1, good) == kAudioUnitErr_InvalidElement)
        #expect(TestSupport.setFormat(unit, 9, 0, good) == kAudioUnitErr_InvalidScope)
        #expect(TestSupport.setFormat(unit, kAudioUnitScope_Group, 0, good) == kAudioUnitErr_InvalidElement)
        #expect(TestSupport.getUInt32(unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Input, 0).0 == kAudioUnitErr_InvalidScope)
        #expect(TestSupport.getUInt32(unit, 0x7FFF_0000, kAudioUnitScope_Global, 0).0 == kAudioUnitErr_InvalidProperty)
        #expect(TestSupport.setUInt32(unit, kAudioUnitProperty_Latency, kAudioUnitScope_Global, 0, 1) == kAudioUnitErr_InvalidProperty)
        #expect(TestSupport.setUInt32(unit, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, 2) == kAudioUnitErr_PropertyNotWritable)
        #expect(TestSupport.getUInt32(unit, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0) == (noErr, 1))
        // Nothing changed.
        #expect(TestSupport.format(unit, kAudioUnitScope_Input, 0).mSampleRate == 44100)
    }

    @Test func sizesAndNilPointers() throws {
        let unit = try TestSupport.newUnit()
        defer { AudioComponentInstanceDispose(unit) }
        var frames: UInt32 = 512
        #expect(AudioUnitSetProperty(unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &frames, 2)
                == kAudioUnitErr_InvalidPropertyValue)
        #expect(AudioUnitSetProperty(unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, nil, 4) == kAudio_ParamError)
        #expect(AudioUnitSetProperty(unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &frames, 0) == kAudio_ParamError)
        #expect(AudioUnitSetProperty(unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, nil, 0)
                == kAudioUnitErr_InvalidPropertyValue)
        var format = AudioStreamBasicDescription()
        var size: UInt32 = 0
        #expect(AudioUnitGetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &format, &size) == kAudio_ParamError)
        // A short buffer receives the first bytes of the value.
        var rate: Float64 = 0
        size = 8
        #expect(AudioUnitGetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &rate, &size) == noErr)
        #expect(rate == 44100 && size == 8)
        // A larger buffer gets the real size back.
        var big = [UInt8](repeating: 0, count: 64)
        size = 64
        #expect(AudioUnitGetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &big, &size) == noErr)
        #expect(size == 40)
        #expect(TestSupport.getUInt32(unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0) == (noErr, 1156))
    }

    @Test func invalidFormatsAreRefused() throws {
        let unit = try TestSupport.newUnit()
        defer { AudioComponentInstanceDispose(unit) }
        var bad = OCAFormat.canonical(sampleRate: 44100, channels: 2)
        bad.mChannelsPerFrame = 0
        #expect(TestSupport.setFormat(unit, kAudioUnitScope_Input, 0, bad) == kAudioUnitErr_FormatNotSupported)
        bad = OCAFormat.canonical(sampleRate: 44100, channels: 2)
        bad.mBytesPerFrame = 3  // inconsistent with 32-bit samples
        bad.mBytesPerPacket = 3
        #expect(TestSupport.setFormat(unit, kAudioUnitScope_Input, 0, bad) == kAudioUnitErr_FormatNotSupported)
        bad = OCAFormat.canonical(sampleRate: -1, channels: 2)
        #expect(TestSupport.setFormat(unit, kAudioUnitScope_Input, 0, bad) == kAudioUnitErr_FormatNotSupported)
        var rate: Float64 = .nan
        #expect(AudioUnitSetProperty(unit, kAudioUnitProperty_SampleRate, kAudioUnitScope_Input, 0, &rate, 8) == kAudioUnitErr_InvalidPropertyValue)
        #expect(TestSupport.format(unit, kAudioUnitScope_Input, 0).mSampleRate == 44100)
    }

    @Test func stateRulesWhileInitialized() throws {
        let unit = try TestSupport.newUnit()
        defer { AudioComponentInstanceDispose(unit) }
        let f48 = OCAFormat.canonical(sampleRate: 48000, channels: 2)
        #expect(AudioUnitInitialize(unit) == noErr)
        #expect(AudioUnitInitialize(unit) == noErr)  // harmless twice
        #expect(TestSupport.setFormat(unit, kAudioUnitScope_Output, 0, f48) == kAudioUnitErr_PropertyNotWritable)
        // Setting the format it already has is fine.
        #expect(TestSupport.setFormat(unit, kAudioUnitScope_Output, 0, OCAFormat.canonical(sampleRate: 44100, channels: 2)) == noErr)
        #expect(TestSupport.setUInt32(unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, 4096) == kAudioUnitErr_Initialized)
        #expect(TestSupport.setUInt32(unit, kAudioUnitProperty_ShouldAllocateBuffer, kAudioUnitScope_Input, 0, 0) == kAudioUnitErr_Initialized)
        #expect(AudioUnitUninitialize(unit) == noErr)
        #expect(TestSupport.setUInt32(unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, 4096) == noErr)
        #expect(TestSupport.setFormat(unit, kAudioUnitScope_Output, 0, f48) == noErr)
        // Mismatched input and output formats cannot initialize: AUGenericOutput does not convert.
        #expect(AudioUnitInitialize(unit) == kAudioUnitErr_FormatNotSupported)
        #expect(TestSupport.setFormat(unit, kAudioUnitScope_Input, 0, f48) == noErr)
        #expect(AudioUnitInitialize(unit) == noErr)
    }

    @Test func renderErrors() throws {
        let unit = try TestSupport.newUnit()
        defer { AudioComponentInstanceDispose(unit) }
        let format = OCAFormat.canonical(sampleRate: 44100, channels: 2)
        let source = SineSource(frequency: 440, amplitude: 0.5, format: format)
        TestSupport.setCallback(unit, 0, SineSource.callback, source.refCon)
        let abl = AudioBufferList.allocate(maximumBuffers: 2)
        defer { free(abl.unsafeMutablePointer) }
        var memory = [Float32](repeating: 0, count: 8192)
        func point(_ frames: Int) {
            memory.withUnsafeMutableBufferPointer { m in
                abl[0] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(frames * 4), mData: m.baseAddress!)
                abl[1] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(frames * 4), mData: m.baseAddress! + 4096)
            }
        }
        var ts = AudioTimeStamp()
        ts.mFlags = .sampleTimeValid
        point(256)
        #expect(AudioUnitRender(unit, nil, &ts, 0, 256, abl.unsafeMutablePointer) == kAudioUnitErr_Uninitialized)
        #expect(AudioUnitInitialize(unit) == noErr)
        point(2000)
        #expect(AudioUnitRender(unit, nil, &ts, 0, 2000, abl.unsafeMutablePointer) == kAudioUnitErr_TooManyFramesToProcess)
        point(256)
        #expect(AudioUnitRender(unit, nil, &ts, 1, 256, abl.unsafeMutablePointer) == kAudioUnitErr_InvalidElement)
        abl.count = 1
        #expect(AudioUnitRender(unit, nil, &ts, 0, 256, abl.unsafeMutablePointer) == kAudio_ParamError)
        abl.count = 2
        point(100)  // buffers too small for 256 frames
        #expect(AudioUnitRender(unit, nil, &ts, 0, 256, abl.unsafeMutablePointer) == kAudio_ParamError)
        // The first error is kept until read, then cleared.
        #expect(TestSupport.getUInt32(unit, kAudioUnitProperty_LastRenderError, kAudioUnitScope_Global, 0)
                == (noErr, UInt32(bitPattern: kAudioUnitErr_Uninitialized)))
        #expect(TestSupport.getUInt32(unit, kAudioUnitProperty_LastRenderError, kAudioUnitScope_Global, 0) == (noErr, 0))
        #expect(source.calls == 0)
        point(256)
        #expect(AudioUnitRender(unit, nil, &ts, 0, 256, abl.unsafeMutablePointer) == noErr)
        #expect(source.calls == 1)
        // No input: NoConnection.
        TestSupport.setCallback(unit, 0, nil, nil)
        #expect(AudioUnitRender(unit, nil, &ts, 0, 256, abl.unsafeMutablePointer) == kAudioUnitErr_NoConnection)
    }

    @Test func listenersFireOnChangeAndCanBeRemoved() throws {
        final class Log { var events: [(AudioUnitPropertyID, AudioUnitScope, AudioUnitElement)] = [] }
        let log = Log()
        let listener: AudioUnitPropertyListenerProc = { refCon, _, id, scope, element in
            Unmanaged<Log>.fromOpaque(refCon).takeUnretainedValue().events.append((id, scope, element))
        }
        let unit = try TestSupport.newUnit()
        defer { AudioComponentInstanceDispose(unit) }
        let refCon = Unmanaged.passUnretained(log).toOpaque()
        #expect(AudioUnitAddPropertyListener(unit, kAudioUnitProperty_StreamFormat, listener, refCon) == noErr)
        TestSupport.setFormat(unit, kAudioUnitScope_Input, 0, OCAFormat.canonical(sampleRate: 48000, channels: 1))
        TestSupport.setFormat(unit, kAudioUnitScope_Input, 0, OCAFormat.canonical(sampleRate: 48000, channels: 1))  // unchanged: silent
        var rate: Float64 = 96000
        AudioUnitSetProperty(unit, kAudioUnitProperty_SampleRate, kAudioUnitScope_Output, 0, &rate, 8)
        #expect(log.events.count == 2)
        #expect(log.events.first.map { $0.0 == kAudioUnitProperty_StreamFormat && $0.1 == kAudioUnitScope_Input } == true)
        #expect(log.events.last.map { $0.1 == kAudioUnitScope_Output } == true)
        #expect(AudioUnitRemovePropertyListenerWithUserData(unit, kAudioUnitProperty_StreamFormat, listener, refCon) == noErr)
        TestSupport.setFormat(unit, kAudioUnitScope_Input, 0, OCAFormat.canonical(sampleRate: 8000, channels: 1))
        #expect(log.events.count == 2)
    }

    @Test func renderNotifyBracketsEveryRender() throws {
        final class Log { var flags: [AudioUnitRenderActionFlags] = [] }
        let log = Log()
        let notify: AURenderCallback = { refCon, flags, _, _, _, _ in
            Unmanaged<Log>.fromOpaque(refCon).takeUnretainedValue().flags.append(flags.pointee)
            return noErr
        }
        let unit = try TestSupport.newUnit()
        defer { AudioComponentInstanceDispose(unit) }
        let format = OCAFormat.canonical(sampleRate: 44100, channels: 2)
        let source = SineSource(frequency: 440, amplitude: 0.5, format: format)
        TestSupport.setCallback(unit, 0, SineSource.callback, source.refCon)
        let refCon = Unmanaged.passUnretained(log).toOpaque()
        #expect(AudioUnitAddRenderNotify(unit, notify, refCon) == noErr)
        AudioUnitInitialize(unit)
        _ = try TestSupport.render(unit, format: format, totalFrames: 1024, slices: [512])
        #expect(log.flags.count == 4)
        #expect(log.flags[0].contains(.unitRenderAction_PreRender) && !log.flags[0].contains(.unitRenderAction_PostRender))
        #expect(log.flags[1].contains(.unitRenderAction_PostRender) && !log.flags[1].contains(.unitRenderAction_PostRenderError))
        #expect(AudioUnitRemoveRenderNotify(unit, notify, refCon) == noErr)
        _ = try TestSupport.render(unit, format: format, totalFrames: 512, slices: [512])
        #expect(log.flags.count == 4)
    }

    /// The render's argument checks use a copy of output 0's buffer count and frame size kept in the unit; a format
    /// set after the unit was made (stereo to mono, then interleaved stereo) must reach that copy.
    @Test func renderChecksFollowTheOutputFormat() throws {
        let unit = try TestSupport.newUnit()
        defer { AudioComponentInstanceDispose(unit) }
        let mono = OCAFormat.canonical(sampleRate: 44100, channels: 1)
        #expect(TestSupport.setFormat(unit, kAudioUnitScope_Input, 0, mono) == noErr)
        #expect(TestSupport.setFormat(unit, kAudioUnitScope_Output, 0, mono) == noErr)
        let source = SineSource(frequency: 440, amplitude: 0.5, format: mono)
        TestSupport.setCallback(unit, 0, SineSource.callback, source.refCon)
        #expect(AudioUnitInitialize(unit) == noErr)
        let memory = UnsafeMutablePointer<Float32>.allocate(capacity: 1024)
        defer { memory.deallocate() }
        let list = AudioBufferList.allocate(maximumBuffers: 2)
        defer { free(list.unsafeMutablePointer) }
        var ts = AudioTimeStamp()
        ts.mFlags = .sampleTimeValid
        func render(buffers: Int, bytes: UInt32) -> OSStatus {
            list.count = buffers
            for i in 0..<buffers { list[i] = AudioBuffer(mNumberChannels: 1, mDataByteSize: bytes, mData: memory + i * 512) }
            var flags = AudioUnitRenderActionFlags()
            return AudioUnitRender(unit, &flags, &ts, 0, 256, list.unsafeMutablePointer)
        }
        #expect(render(buffers: 1, bytes: 1024) == noErr)
        #expect(render(buffers: 2, bytes: 1024) == kAudio_ParamError)  // two buffers for a mono format
        #expect(render(buffers: 1, bytes: 1020) == kAudio_ParamError)  // one frame short
        // Interleaved stereo: one buffer of 8 bytes a frame.
        AudioUnitUninitialize(unit)
        var stereo = OCAFormat.canonical(sampleRate: 44100, channels: 2)
        stereo.mFormatFlags &= ~kAudioFormatFlagIsNonInterleaved
        stereo.mBytesPerFrame = 8
        stereo.mBytesPerPacket = 8
        #expect(TestSupport.setFormat(unit, kAudioUnitScope_Input, 0, stereo) == noErr)
        #expect(TestSupport.setFormat(unit, kAudioUnitScope_Output, 0, stereo) == noErr)
        #expect(AudioUnitInitialize(unit) == noErr)
        #expect(render(buffers: 1, bytes: 1024) == kAudio_ParamError)  // 256 frames need 2,048 bytes now
        #expect(render(buffers: 1, bytes: 2048) == noErr)
    }

    @Test func elementNameAndClassInfoRoundTrip() throws {
        let unit = try TestSupport.newUnit()
        defer { AudioComponentInstanceDispose(unit) }
        var name: CFString? = nil
        var size = UInt32(MemoryLayout<CFString?>.size)
        #expect(AudioUnitGetProperty(unit, kAudioUnitProperty_ElementName, kAudioUnitScope_Input, 0, &name, &size)
                == kAudioUnitErr_PropertyNotInUse)
        #expect(size == 0)  // failed gets report no data
        size = UInt32(MemoryLayout<CFString?>.size)
        var newName: CFString? = "Sine in" as CFString
        #expect(AudioUnitSetProperty(unit, kAudioUnitProperty_ElementName, kAudioUnitScope_Input, 0, &newName, size) == noErr)
        #expect(AudioUnitGetProperty(unit, kAudioUnitProperty_ElementName, kAudioUnitScope_Input, 0, &name, &size) == noErr)
        #expect(name as String? == "Sine in")

        var classInfo: CFPropertyList? = nil
        size = UInt32(MemoryLayout<CFPropertyList?>.size)
        #expect(AudioUnitGetProperty(unit, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &classInfo, &size) == noErr)
        let dict = try #require(classInfo as? NSDictionary)
        #expect((dict["subtype"] as? NSNumber)?.uint32Value == kAudioUnitSubType_GenericOutput)
        #expect((dict["manufacturer"] as? NSNumber)?.uint32Value == kAudioUnitManufacturer_Apple)
        #expect((dict["version"] as? NSNumber)?.intValue == 0)
        #expect(dict["name"] as? String == "Untitled")

        let other = try TestSupport.newUnit()
        defer { AudioComponentInstanceDispose(other) }
        #expect(AudioUnitSetProperty(other, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &classInfo, size) == noErr)
        var restored: CFString? = nil
        size = UInt32(MemoryLayout<CFString?>.size)
        #expect(AudioUnitGetProperty(other, kAudioUnitProperty_ElementName, kAudioUnitScope_Input, 0, &restored, &size) == noErr)
        #expect(restored as String? == "Sine in")
        // A dictionary for another unit type is refused.
        let foreign = dict.mutableCopy() as! NSMutableDictionary
        foreign["subtype"] = NSNumber(value: 1234)
        var foreignRef: CFPropertyList? = foreign
        #expect(AudioUnitSetProperty(other, kAudioUnitProperty_ClassInfo, kAudioUnitScope_Global, 0, &foreignRef, size)
                == kAudioUnitErr_InvalidPropertyValue)
    }

    @Test func unsupportedPresetsAndChannelsAnswerInvalidProperty() throws {
        let unit = try TestSupport.newUnit()
        defer { AudioComponentInstanceDispose(unit) }
        var size: UInt32 = 0
        #expect(AudioUnitGetPropertyInfo(unit, kAudioUnitProperty_FactoryPresets, kAudioUnitScope_Global, 0, &size, nil)
                == kAudioUnitErr_InvalidProperty)
        #expect(AudioUnitGetPropertyInfo(unit, kAudioUnitProperty_SupportedNumChannels, kAudioUnitScope_Global, 0, &size, nil)
                == kAudioUnitErr_InvalidProperty)
        #expect(AudioUnitGetPropertyInfo(unit, kAudioUnitProperty_TailTime, kAudioUnitScope_Global, 0, &size, nil)
                == kAudioUnitErr_InvalidProperty)
        var preset = AUPreset(presetNumber: 3, presetName: nil)
        #expect(AudioUnitSetProperty(unit, kAudioUnitProperty_PresentPreset, kAudioUnitScope_Global, 0, &preset,
                                     UInt32(MemoryLayout<AUPreset>.size)) == kAudioUnitErr_InvalidProperty)
        let mine: CFString = "Mine" as CFString
        preset = AUPreset(presetNumber: -1, presetName: Unmanaged.passUnretained(mine))
        withExtendedLifetime(mine) {
            #expect(AudioUnitSetProperty(unit, kAudioUnitProperty_PresentPreset, kAudioUnitScope_Global, 0, &preset,
                                         UInt32(MemoryLayout<AUPreset>.size)) == noErr)
        }
        var current = AUPreset()
        var size2 = UInt32(MemoryLayout<AUPreset>.size)
        #expect(AudioUnitGetProperty(unit, kAudioUnitProperty_PresentPreset, kAudioUnitScope_Global, 0, &current, &size2) == noErr)
        #expect(current.presetNumber == -1)
        #expect(current.presetName?.takeRetainedValue() as String? == "Mine")
    }

    @Test func outputUnitStartStop() throws {
        let unit = try TestSupport.newUnit()
        defer { AudioComponentInstanceDispose(unit) }
        #expect(AudioOutputUnitStart(unit) == kAudioUnitErr_Uninitialized)
        AudioUnitInitialize(unit)
        #expect(AudioOutputUnitStart(unit) == noErr)
        #expect(TestSupport.getUInt32(unit, kAudioOutputUnitProperty_IsRunning, kAudioUnitScope_Global, 0) == (noErr, 1))
        #expect(AudioOutputUnitStop(unit) == noErr)
        #expect(TestSupport.getUInt32(unit, kAudioOutputUnitProperty_IsRunning, kAudioUnitScope_Global, 0) == (noErr, 0))
    }
}
