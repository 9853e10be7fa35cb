import AudioToolbox
import Testing

/// A unit written by a client against Apple's v2 plug-in interface (Open/Close/Lookup by selector),
/// registered with AudioComponentRegister, then found and hosted like a built-in unit.
/// It generates a ramp: frame n (counted from the render's sample time) is (n mod 100) / 100.
enum RampGeneratorPlugIn {
    static let description = AudioComponentDescription(
        componentType: kAudioUnitType_Generator, componentSubType: 0x72616D70 /* 'ramp' */,
        componentManufacturer: 0x4F434174 /* 'OCAt' */, componentFlags: 0, componentFlagsMask: 0)

    /// Per-instance state, stored right after the interface struct the host calls us through.
    final class State {
        var instance: AudioComponentInstance?
        var format = OCAFormat.canonical(sampleRate: 48000, channels: 1)
        var maxFrames: UInt32 = 1156
        var initialized = false
        var renders = 0
    }

    static let interfaceStride = MemoryLayout<AudioComponentPlugInInterface>.stride

    static func state(_ selfPointer: UnsafeMutableRawPointer) -> State {
        let raw = selfPointer.load(fromByteOffset: interfaceStride, as: UnsafeRawPointer.self)
        return Unmanaged<State>.fromOpaque(raw).takeUnretainedValue()
    }

    static let factory: AudioComponentFactoryFunction = { _ in
        let memory = UnsafeMutableRawPointer.allocate(byteCount: interfaceStride + 8, alignment: 16)
        let interface = memory.bindMemory(to: AudioComponentPlugInInterface.self, capacity: 1)
        interface.initialize(to: AudioComponentPlugInInterface(
            Open: { selfPointer, instance in
                RampGeneratorPlugIn.state(selfPointer).instance = instance
                return noErr
            },
            Close: { selfPointer in
                let raw = selfPointer.load(fromByteOffset: RampGeneratorPlugIn.interfaceStride, as: UnsafeRawPointer.self)
                Unmanaged<State>.fromOpaque(raw).release()
                selfPointer.deallocate()
                return noErr
            },
            Lookup: { selector in RampGeneratorPlugIn.lookup(selector) },
            reserved: nil))
        memory.storeBytes(of: UnsafeRawPointer(Unmanaged.passRetained(State()).toOpaque()),
                          toByteOffset: interfaceStride, as: UnsafeRawPointer.self)
        return interface
    }

    static let initialize: AudioUnitInitializeProc = { s in state(s).initialized = true; return noErr }
    static let uninitialize: AudioUnitUninitializeProc = { s in state(s).initialized = false; return noErr }

    static let getPropertyInfo: AudioUnitGetPropertyInfoProc = { _, id, scope, element, outSize, outWritable in
        switch (id, scope) {
        case (kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output) where element == 0:
            outSize?.pointee = UInt32(MemoryLayout<AudioStreamBasicDescription>.size); outWritable?.pointee = true
        case (kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global):
            outSize?.pointee = 4; outWritable?.pointee = true
        default:
            return kAudioUnitErr_InvalidProperty
        }
        return noErr
    }

    static let getProperty: AudioUnitGetPropertyProc = { s, id, scope, element, outData, ioSize in
        let st = state(s)
        switch (id, scope) {
        case (kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output) where element == 0:
            outData.storeBytes(of: st.format, as: AudioStreamBasicDescription.self)
            ioSize.pointee = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        case (kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global):
            outData.storeBytes(of: st.maxFrames, as: UInt32.self)
            ioSize.pointee = 4
        default:
            return kAudioUnitErr_InvalidProperty
        }
        return noErr
    }

    static let setProperty: AudioUnitSetPropertyProc = { s, id, scope, _, data, size in
        let st = state(s)
        guard let data else { return kAudioUnitErr_InvalidPropertyValue }
        switch (id, scope) {
        case (kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global):
            st.maxFrames = data.load(as: UInt32.self)
        case (kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output):
            let f = data.load(as: AudioStreamBasicDescription.self)
            guard f.mFormatFlags & kAudioFormatFlagIsFloat != 0, f.mBitsPerChannel == 32,
                  f.mChannelsPerFrame == 1 || f.mFormatFlags & kAudioFormatFlagIsNonInterleaved != 0 else {
                return kAudioUnitErr_FormatNotSupported
            }
            st.format = f
        default:
            return kAudioUnitErr_InvalidProperty
        }
        return noErr
    }

    static let render: AudioUnitRenderProc = { s, _, timeStamp, bus, frames, ioData in
        let st = state(s)
        guard st.initialized else { return kAudioUnitErr_Uninitialized }
        guard bus == 0 else { return kAudioUnitErr_InvalidElement }
        st.renders += 1
        let abl = UnsafeMutableAudioBufferListPointer(ioData)
        let start = Int(timeStamp.pointee.mSampleTime)
        for b in 0..<abl.count {
            guard let out = abl[b].mData?.assumingMemoryBound(to: Float32.self) else { return kAudio_ParamError }
            for n in 0..<Int(frames) { out[n] = Float32((start + n) % 100) / 100 }
            abl[b].mDataByteSize = frames * 4
        }
        return noErr
    }

    static func lookup(_ selector: Int16) -> AudioComponentMethod? {
        switch Int(selector) {
        case kAudioUnitInitializeSelect: unsafeBitCast(initialize, to: AudioComponentMethod.self)
        case kAudioUnitUninitializeSelect: unsafeBitCast(uninitialize, to: AudioComponentMethod.self)
        case kAudioUnitGetPropertyInfoSelect: unsafeBitCast(getPropertyInfo, to: AudioComponentMethod.self)
        case kAudioUnitGetPropertySelect: unsafeBitCast(getProperty, to: AudioComponentMethod.self)
        case kAudioUnitSetPropertySelect: unsafeBitCast(setProperty, to: AudioComponentMethod.self)
        case kAudioUnitRenderSelect: unsafeBitCast(render, to: AudioComponentMethod.self)
        default: nil
        }
    }

    /// Registers once per process.
    nonisolated(unsafe) static let registered: AudioComponent = {
        var d = description
        return AudioComponentRegister(&d, "OCA Tests: Ramp Generator" as CFString, 0x0002_0001, factory)
    }()
}

@Suite struct PlugInRegistrationTests {
    @Test func registeredUnitIsFoundByWildcardAndRenders() throws {
        let registered = RampGeneratorPlugIn.registered
        var wildcard = AudioComponentDescription(componentType: kAudioUnitType_Generator, componentSubType: 0,
                                                 componentManufacturer: 0, componentFlags: 0, componentFlagsMask: 0)
        var found: AudioComponent?
        var c = AudioComponentFindNext(nil, &wildcard)
        while let current = c {
            if current == registered { found = current }
            c = AudioComponentFindNext(current, &wildcard)
        }
        let component = try #require(found)
        var name: Unmanaged<CFString>?
        AudioComponentCopyName(component, &name)
        #expect(name?.takeRetainedValue() as String? == "OCA Tests: Ramp Generator")
        var version: UInt32 = 0
        AudioComponentGetVersion(component, &version)
        #expect(version == 0x0002_0001)

        var generator: AudioUnit?
        #expect(AudioComponentInstanceNew(component, &generator) == noErr)
        let gen = try #require(generator)
        defer { AudioComponentInstanceDispose(gen) }
        #expect(AudioComponentInstanceGetComponent(gen) == component)
        #expect(AudioComponentInstanceCanDo(gen, Int16(kAudioUnitRenderSelect)))
        #expect(!AudioComponentInstanceCanDo(gen, Int16(kAudioOutputUnitStartSelect)))
        // Calls the plug-in does not implement report a bad selector rather than crashing.
        #expect(AudioUnitReset(gen, kAudioUnitScope_Global, 0) == badComponentSelector)

        let output = try TestSupport.newUnit()
        defer { AudioComponentInstanceDispose(output) }
        let format = OCAFormat.canonical(sampleRate: 48000, channels: 1)
        TestSupport.setFormat(output, kAudioUnitScope_Output, 0, format)
        var connection = AudioUnitConnection(sourceAudioUnit: gen, sourceOutputNumber: 0, destInputNumber: 0)
        #expect(AudioUnitSetProperty(output, kAudioUnitProperty_MakeConnection, kAudioUnitScope_Input, 0, &connection,
                                     UInt32(MemoryLayout<AudioUnitConnection>.size)) == noErr)
        #expect(AudioUnitInitialize(gen) == noErr)
        #expect(AudioUnitInitialize(output) == noErr)
        let out = try TestSupport.render(output, format: format, totalFrames: 1000, slices: [64, 250, 3])
        for n in 0..<1000 where out.channels[0][n] != Double(Float32(n % 100) / 100) {
            Issue.record("frame \(n): \(out.channels[0][n])"); break
        }
    }
}
