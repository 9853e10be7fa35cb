import AllocationCounter
import AudioToolbox
import DeviceTestSupport
import Foundation
import Testing

/// The I/O units' render path on the device's IO thread allocates nothing: a render notification counts the
/// heap allocations the IO thread makes inside every AudioUnitRender (bus 0 with its format conversion, and bus 1
/// pulled from the input callback) while RemoteIO runs duplex on the PulseAudio server. What ALSA and the
/// server's client library do between renders is not counted.
@Suite(.serialized, .audioServer) struct IOUnitAllocationTests {
    final class Counter: @unchecked Sendable {
        var unit: AudioUnit?
        var renders = 0
        var allocations: UInt64 = 0
        var phase = 0.0
        let list = AudioBufferList.allocate(maximumBuffers: 1)
        let memory = UnsafeMutablePointer<Int16>.allocate(capacity: 8192)

        /// Counts around bus 0's render, which includes the bus 1 render its callback makes.
        static let notify: AURenderCallback = { refCon, flags, _, bus, _, _ in
            let c = Unmanaged<Counter>.fromOpaque(refCon).takeUnretainedValue()
            guard bus == 0 else { return noErr }
            if flags.pointee.contains(.unitRenderAction_PreRender) {
                if c.renders > 8 { oca_alloc_counting_start() }   // the first renders may touch lazy runtime state
            } else if flags.pointee.contains(.unitRenderAction_PostRender) {
                if c.renders > 8 { c.allocations += oca_alloc_counting_stop() }
                c.renders += 1
            }
            return noErr
        }

        /// Bus 0: the microphone (bus 1, pulled here as RemoteIO programs do) mixed with a tone, in Int16.
        static let render: AURenderCallback = { refCon, flags, timeStamp, _, frames, ioData in
            let c = Unmanaged<Counter>.fromOpaque(refCon).takeUnretainedValue()
            let status = AudioUnitRender(c.unit!, flags, timeStamp, 1, frames, ioData!)
            let samples = UnsafeMutableAudioBufferListPointer(ioData!)[0].mData!.assumingMemoryBound(to: Int16.self)
            for k in 0..<Int(frames) {
                let mic = status == noErr ? Int32(samples[k]) : 0
                samples[k] = Int16(clamping: mic / 2 + Int32(8000 * sin(c.phase)))
                c.phase += 0.05
            }
            return noErr
        }
    }

    @Test(.timeLimit(.minutes(1))) func remoteIODuplexRenderAllocatesNothing() throws {
        let unit = try TestSupport.newUnit(AudioComponentDescription(componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_RemoteIO,
                                                                     componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0))
        defer { AudioComponentInstanceDispose(unit) }
        let counter = Counter()
        counter.unit = unit
        #expect(TestSupport.setUInt32(unit, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 1, 1) == noErr)
        var int16 = OCAFormat.linearPCM(sampleRate: 44100, channels: 1, bitsPerChannel: 16, isFloat: false, isSignedInteger: true, interleaved: true)
        let size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        #expect(AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &int16, size) == noErr)
        #expect(AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 1, &int16, size) == noErr)
        #expect(TestSupport.setCallback(unit, 0, Counter.render, Unmanaged.passUnretained(counter).toOpaque()) == noErr)
        #expect(AudioUnitAddRenderNotify(unit, Counter.notify, Unmanaged.passUnretained(counter).toOpaque()) == noErr)
        #expect(AudioUnitInitialize(unit) == noErr)
        #expect(AudioOutputUnitStart(unit) == noErr)
        Thread.sleep(forTimeInterval: 2)
        #expect(AudioOutputUnitStop(unit) == noErr)
        #expect(counter.renders > 100, "renders \(counter.renders)")
        #expect(counter.allocations == 0, "\(counter.allocations) allocations in \(counter.renders) renders")
    }
}
