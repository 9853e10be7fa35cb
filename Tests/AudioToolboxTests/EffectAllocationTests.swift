import AllocationCounter
import AudioToolbox
import COCASupport
import Foundation
import Testing

/// The generator and effect render paths allocate nothing and take no lock (RealtimeSanitizer in rtsan-test.sh):
/// a graph holding the file player playing a file from disk, an N-band EQ, a reverb and the other effects.
@Suite struct EffectAllocationTests {
    static func effect(_ type: OSType, _ subtype: OSType) -> AudioComponentDescription {
        AudioComponentDescription(componentType: type, componentSubType: subtype, componentManufacturer: kAudioUnitManufacturer_Apple,
                                  componentFlags: 0, componentFlagsMask: 0)
    }

    static func connect(_ source: AudioUnit, to destination: AudioUnit) {
        var connection = AudioUnitConnection(sourceAudioUnit: source, sourceOutputNumber: 0, destInputNumber: 0)
        #expect(AudioUnitSetProperty(destination, kAudioUnitProperty_MakeConnection, kAudioUnitScope_Input, 0, &connection,
                                     UInt32(MemoryLayout<AudioUnitConnection>.size)) == noErr)
    }

    /// 10,000 slices of 256 frames (58 s at 44.1 kHz) from a 22.05 kHz file, primed whole into a large buffer pool so
    /// the render never waits for the reader; the chain changes parameters as it plays.
    @Test func filePlayerThroughEffectsAllocatesNothing() throws {
        let frames = 10_000 * 256 / 2 + 1_000
        let (url, _) = try AudioFilePlayerTests.makeWAV(frames: frames, rate: 22_050, channels: 1)
        defer { try? FileManager.default.removeItem(at: url) }
        let file = try AudioFilePlayerTests.open(url)
        defer { AudioFileClose(file) }

        let format = OCAFormat.canonical(sampleRate: 44_100, channels: 2)
        let player = try TestSupport.newUnit(Self.effect(kAudioUnitType_Generator, kAudioUnitSubType_AudioFilePlayer))
        let chain = try [kAudioUnitSubType_NBandEQ, kAudioUnitSubType_Reverb2, kAudioUnitSubType_MatrixReverb,
                         kAudioUnitSubType_LowPassFilter, kAudioUnitSubType_Delay, kAudioUnitSubType_DynamicsProcessor,
                         kAudioUnitSubType_GraphicEQ, kAudioUnitSubType_MultiBandCompressor, kAudioUnitSubType_Distortion,
                         kAudioUnitSubType_RogerBeep, kAudioUnitSubType_Pitch, kAudioUnitSubType_PeakLimiter]
            .map { try TestSupport.newUnit(Self.effect(kAudioUnitType_Effect, $0)) }
        defer { ([player] + chain).forEach { AudioComponentInstanceDispose($0) } }
        #expect(TestSupport.setFormat(player, kAudioUnitScope_Output, 0, format) == noErr)
        #expect(TestSupport.setUInt32(player, kAudioUnitProperty_ScheduledFileNumberBuffers, kAudioUnitScope_Global, 0, 700) == noErr)
        #expect(TestSupport.setUInt32(player, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, 256) == noErr)
        var previous = player
        for unit in chain {
            #expect(TestSupport.setFormat(unit, kAudioUnitScope_Input, 0, format) == noErr)
            #expect(TestSupport.setFormat(unit, kAudioUnitScope_Output, 0, format) == noErr)
            Self.connect(previous, to: unit)
            previous = unit
        }
        #expect(TestSupport.setUInt32(chain[0], kAUNBandEQProperty_NumberOfBands, kAudioUnitScope_Global, 0, 4) == noErr)
        for unit in [player] + chain { #expect(AudioUnitInitialize(unit) == noErr) }
        for b in 0..<4 {
            AudioUnitSetParameter(chain[0], kAUNBandEQParam_BypassBand + UInt32(b), kAudioUnitScope_Global, 0, 0, 0)
            AudioUnitSetParameter(chain[0], kAUNBandEQParam_FilterType + UInt32(b), kAudioUnitScope_Global, 0, Float(b * 2), 0)
        }
        try AudioFilePlayerTests.schedule(player, file, frames: UInt32(frames - 1_000))

        let last = chain.last!
        let abl = AudioBufferList.allocate(maximumBuffers: 2)
        defer { free(abl.unsafeMutablePointer) }
        let memory = UnsafeMutablePointer<Float32>.allocate(capacity: 512)
        defer { memory.deallocate() }
        var ts = AudioTimeStamp()
        ts.mFlags = .sampleTimeValid
        var failures = 0, heard = 0
        func renderOne(_ k: Int) {
            for b in 0..<2 { abl[b] = AudioBuffer(mNumberChannels: 1, mDataByteSize: 1024, mData: UnsafeMutableRawPointer(memory + b * 256)) }
            var flags = AudioUnitRenderActionFlags()
            if AudioUnitRender(last, &flags, &ts, 0, 256, abl.unsafeMutablePointer) != noErr { failures += 1 }
            if memory[100] != 0 { heard += 1 }
            // Parameter changes as a user would make them, gliding in the render.
            if k % 500 == 0 {
                AudioUnitSetParameter(chain[0], kAUNBandEQParam_Gain, kAudioUnitScope_Global, 0, Float(k % 7) - 3, 0)
                AudioUnitSetParameter(chain[3], kLowPassParam_CutoffFrequency, kAudioUnitScope_Global, 0, Float(2000 + k % 5000), 0)
                AudioUnitSetParameter(chain[1], kReverb2Param_DryWetMix, kAudioUnitScope_Global, 0, Float(k % 100), 0)
                AudioUnitSetParameter(chain[10], kTimePitchParam_Pitch, kAudioUnitScope_Global, 0, Float(k % 13) * 100 - 600, 0)
                AudioUnitSetParameter(chain[4], kDelayParam_DelayTime, kAudioUnitScope_Global, 0, Float(k % 10) * 0.1, 0)
                AudioUnitSetParameter(chain[11], kLimiterParam_PreGain, kAudioUnitScope_Global, 0, Float(k % 12), 0)
            }
            ts.mSampleTime += 256
        }
        renderOne(0)
        oca_alloc_counting_start()
        oca_realtime_enter()
        for k in 1..<10_000 { renderOne(k) }
        oca_realtime_exit()
        let count = oca_alloc_counting_stop()
        #expect(failures == 0)
        #expect(count == 0)
        #expect(heard > 9_000, "the file was heard in \(heard) of 10,000 slices")
    }
}
