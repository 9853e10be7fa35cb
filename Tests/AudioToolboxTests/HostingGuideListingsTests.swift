@testable import AudioToolbox
import Testing

/// The listings of Apple's "Audio Unit Hosting Fundamentals" (listings 1-1 to 1-7), written in Swift
/// against these modules, behaving as the text says. Listing 1-3 (AUGraph) arrives with the AUGraph
/// issue; RemoteIO with the device issue.
@Suite struct HostingGuideListingsTests {
    // Listing 1-1: a description that identifies one unit; a zero subtype makes it a wildcard.
    func listing1_1(subType: UInt32) -> AudioComponentDescription {
        var ioUnitDescription = AudioComponentDescription()
        ioUnitDescription.componentType = kAudioUnitType_Output
        ioUnitDescription.componentSubType = subType
        ioUnitDescription.componentManufacturer = kAudioUnitManufacturer_Apple
        ioUnitDescription.componentFlags = 0
        ioUnitDescription.componentFlagsMask = 0
        return ioUnitDescription
    }

    @Test func listings1_1and1_2FindAndInstantiate() throws {
        // Listing 1-2: find the first matching unit, instantiate it.
        var ioUnitDescription = listing1_1(subType: kAudioUnitSubType_GenericOutput)
        let foundIoUnitReference = try #require(AudioComponentFindNext(nil, &ioUnitDescription))
        var ioUnitInstance: AudioUnit?
        #expect(AudioComponentInstanceNew(foundIoUnitReference, &ioUnitInstance) == noErr)
        #expect(ioUnitInstance != nil)
        AudioComponentInstanceDispose(ioUnitInstance!)

        // "To match all the I/O units, use 0 for the componentSubType field", then iterate with FindNext.
        var all = listing1_1(subType: 0)
        var count = 0
        var ref = AudioComponentFindNext(nil, &all)
        while let current = ref {
            count += 1
            var d = AudioComponentDescription()
            AudioComponentGetDescription(current, &d)
            #expect(d.componentType == kAudioUnitType_Output && d.componentManufacturer == kAudioUnitManufacturer_Apple)
            ref = AudioComponentFindNext(current, &all)
        }
        #expect(count >= 1)
        #expect(UInt32(count) == AudioComponentCount(&all))
    }

    @Test func listing1_4SetsTheInputBusCount() throws {
        _ = TestSummingUnit.registered
        let mixerUnit = try TestSupport.newUnit(TestSummingUnit.description)
        defer { AudioComponentInstanceDispose(mixerUnit) }
        var busCount: UInt32 = 2
        let result = AudioUnitSetProperty(
            mixerUnit,
            kAudioUnitProperty_ElementCount,  // the property key
            kAudioUnitScope_Input,            // the scope to set the property on
            0,                                // the element to set the property on
            &busCount,                        // the property value
            UInt32(MemoryLayout.size(ofValue: busCount)))
        #expect(result == noErr)
        #expect(TestSupport.getUInt32(mixerUnit, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0) == (noErr, 2))
        // Both buses exist now and sum.
        let one: AURenderCallback = { _, _, _, bus, frames, ioData in
            for b in UnsafeMutableAudioBufferListPointer(ioData!) {
                let p = b.mData!.assumingMemoryBound(to: Float32.self)
                for n in 0..<Int(frames) { p[n] = bus == 0 ? 0.25 : 0.5 }
            }
            return noErr
        }
        #expect(TestSupport.setCallback(mixerUnit, 0, one, nil) == noErr)
        #expect(TestSupport.setCallback(mixerUnit, 1, one, nil) == noErr)
        #expect(TestSupport.setCallback(mixerUnit, 2, one, nil) == kAudioUnitErr_InvalidElement)
        #expect(AudioUnitInitialize(mixerUnit) == noErr)
        // Most properties are fixed once initialized: the bus count too.
        #expect(AudioUnitSetProperty(mixerUnit, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, &busCount, 4)
                == kAudioUnitErr_Initialized)
        let out = try TestSupport.render(mixerUnit, format: OCAFormat.canonical(sampleRate: 44100, channels: 2),
                                         totalFrames: 64, slices: [64], callerMemory: false)
        #expect(out.channels.allSatisfy { $0.allSatisfy { $0 == 0.75 } })
    }

    // Listing 1-5: a render callback header; producing silence as the text describes.
    static let myAURenderCallback: AURenderCallback = {
        (inRefCon: UnsafeMutableRawPointer,
         ioActionFlags: UnsafeMutablePointer<AudioUnitRenderActionFlags>,
         inTimeStamp: UnsafePointer<AudioTimeStamp>,
         inBusNumber: UInt32,
         inNumberFrames: UInt32,
         ioData: UnsafeMutablePointer<AudioBufferList>?) -> OSStatus in
        ioActionFlags.pointee.insert(.unitRenderAction_OutputIsSilence)
        for buffer in UnsafeMutableAudioBufferListPointer(ioData!) {
            memset(buffer.mData, 0, Int(buffer.mDataByteSize))
        }
        return noErr
    }

    @Test func listing1_5SilenceIsFlaggedAndZeroed() throws {
        let unit = try TestSupport.newUnit()
        defer { AudioComponentInstanceDispose(unit) }
        var context = 0
        try withUnsafeMutablePointer(to: &context) { refCon in
            TestSupport.setCallback(unit, 0, Self.myAURenderCallback, UnsafeMutableRawPointer(refCon))
            AudioUnitInitialize(unit)
            var memory = [Float32](repeating: 1, count: 512)
            let abl = AudioBufferList.allocate(maximumBuffers: 2)
            defer { free(abl.unsafeMutablePointer) }
            try memory.withUnsafeMutableBufferPointer { m in
                abl[0] = AudioBuffer(mNumberChannels: 1, mDataByteSize: 1024, mData: m.baseAddress!)
                abl[1] = AudioBuffer(mNumberChannels: 1, mDataByteSize: 1024, mData: m.baseAddress! + 256)
                var flags: AudioUnitRenderActionFlags = []
                var ts = AudioTimeStamp()
                try #require(AudioUnitRender(unit, &flags, &ts, 0, 256, abl.unsafeMutablePointer) == noErr)
                #expect(flags.contains(.unitRenderAction_OutputIsSilence))
            }
            #expect(memory.allSatisfy { $0 == 0 })
        }
    }

    @Test func listing1_6TheStructure() {
        let asbd = AudioStreamBasicDescription(mSampleRate: 44100, mFormatID: kAudioFormatLinearPCM, mFormatFlags: 0,
                                               mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4,
                                               mChannelsPerFrame: 2, mBitsPerChannel: 32, mReserved: 0)
        #expect(MemoryLayout<AudioStreamBasicDescription>.size == 40)
        #expect(MemoryLayout<AudioStreamBasicDescription>.offset(of: \.mFormatID) == 8)
        #expect(MemoryLayout<AudioStreamBasicDescription>.offset(of: \.mReserved) == 36)
        #expect(asbd.mChannelsPerFrame == 2)
    }

    @Test func listing1_7DefinesAStereoStreamFormat() throws {
        let graphSampleRate: Float64 = 44100.0
        let bytesPerSample = UInt32(MemoryLayout<AudioUnitSampleType>.size)
        var stereoStreamFormat = AudioStreamBasicDescription()
        stereoStreamFormat.mFormatID = kAudioFormatLinearPCM
        stereoStreamFormat.mFormatFlags = kAudioFormatFlagsAudioUnitCanonical
        stereoStreamFormat.mBytesPerPacket = bytesPerSample
        stereoStreamFormat.mBytesPerFrame = bytesPerSample
        stereoStreamFormat.mFramesPerPacket = 1
        stereoStreamFormat.mBitsPerChannel = 8 * bytesPerSample
        stereoStreamFormat.mChannelsPerFrame = 2  // 2 indicates stereo
        stereoStreamFormat.mSampleRate = graphSampleRate
        // On macOS (and here) the canonical sample type is Float32, non-interleaved.
        #expect(bytesPerSample == 4)
        #expect(stereoStreamFormat.mFormatFlags == 0x29)
        let unit = try TestSupport.newUnit()
        defer { AudioComponentInstanceDispose(unit) }
        #expect(TestSupport.setFormat(unit, kAudioUnitScope_Input, 0, stereoStreamFormat) == noErr)
        #expect(OCAFormat.describe(TestSupport.format(unit, kAudioUnitScope_Input, 0))
                == " 2 ch,  44100 Hz, 'lpcm' (0x00000029) 32-bit little-endian float, deinterleaved")
    }
}
