import Foundation

/// Renders a MIDI-only source (a unit whose audio goes nowhere, connected by connectMIDI) from its first
/// destination's pre-render notification, so the MIDI it makes in that render reaches the destination in the same
/// render. The source's audio goes into scratch buffers made here, off the render thread; the notification itself
/// only sets up the buffer list and calls AudioUnitRender (no allocation, no lock).
final class EngineMIDISourcePull {
    let source: AudioUnit
    let destination: AudioUnit
    /// The sample time of the render in progress (NaN outside one), for the forwarding block to turn the source's
    /// event times into offsets in it. Written and read on the render thread only.
    let renderStart: UnsafeMutablePointer<Float64>
    private let maxFrames: Int
    private let channels: Int
    private let interleaved: Bool
    private let samples: UnsafeMutablePointer<Float>
    private let list: UnsafeMutableAudioBufferListPointer

    /// A pull of `source` for `destination`; nil when the source's output is not Float32 PCM.
    init?(source: AudioUnit, destination: AudioUnit) {
        var format = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        guard AudioUnitGetProperty(source, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &format, &size) == noErr,
              format.mFormatID == kAudioFormatLinearPCM, format.mFormatFlags & kAudioFormatFlagIsFloat != 0, format.mBitsPerChannel == 32,
              format.mChannelsPerFrame > 0, format.mChannelsPerFrame <= 64 else { return nil }
        var frames: UInt32 = 0
        size = UInt32(MemoryLayout<UInt32>.size)
        AudioUnitGetProperty(source, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &frames, &size)
        self.source = source
        self.destination = destination
        maxFrames = max(Int(frames), 4096)
        channels = Int(format.mChannelsPerFrame)
        interleaved = format.mFormatFlags & kAudioFormatFlagIsNonInterleaved == 0
        samples = .allocate(capacity: maxFrames * channels)
        renderStart = .allocate(capacity: 1)
        renderStart.initialize(to: .nan)
        list = AudioBufferList.allocate(maximumBuffers: interleaved ? 1 : channels)
    }

    deinit {
        detach()  // when the engine goes first, the destination unit (the app's node) must not keep calling in
        samples.deallocate()
        renderStart.deallocate()
        free(list.unsafeMutablePointer)
    }

    /// Adds the pre-render notification to the destination.
    func attach() { AudioUnitAddRenderNotify(destination, Self.notify, Unmanaged.passUnretained(self).toOpaque()) }

    /// Removes it (a render already in it may finish: the owner keeps this object alive a while).
    func detach() { AudioUnitRemoveRenderNotify(destination, Self.notify, Unmanaged.passUnretained(self).toOpaque()) }

    private static let notify: AURenderCallback = { refCon, flags, timestamp, _, frames, _ in
        guard flags.pointee.contains(.unitRenderAction_PreRender) else { return noErr }
        let me = Unmanaged<EngineMIDISourcePull>.fromOpaque(refCon).takeUnretainedValue()
        guard Int(frames) <= me.maxFrames else { return noErr }
        if me.interleaved {
            me.list[0] = AudioBuffer(mNumberChannels: UInt32(me.channels), mDataByteSize: frames * UInt32(4 * me.channels), mData: me.samples)
        } else {
            for c in 0..<me.channels {
                me.list[c] = AudioBuffer(mNumberChannels: 1, mDataByteSize: frames * 4, mData: me.samples + c * me.maxFrames)
            }
        }
        var sourceFlags = AudioUnitRenderActionFlags()
        me.renderStart.pointee = timestamp.pointee.mFlags.contains(.sampleTimeValid) ? timestamp.pointee.mSampleTime : .nan
        _ = AudioUnitRender(me.source, &sourceFlags, timestamp, 0, frames, me.list.unsafeMutablePointer)
        me.renderStart.pointee = .nan
        return noErr
    }
}
