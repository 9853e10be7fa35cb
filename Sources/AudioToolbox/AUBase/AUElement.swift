import Synchronization

/// An element (bus) of a scope. Global-scope and group elements carry only parameters, a name and a metering
/// switch; input and output elements are `AUIOElement`s with a stream format and render memory.
class AUElement {
    let parameters = ParameterTable()
    var name: String?
    /// `kAudioUnitProperty_MeteringMode` (mixers; on global element 0, AUMatrixMixer's every-channel metering),
    /// read by the render thread.
    let meteringMode = Atomic<Bool>(false)

    init() {}
}

/// An input or output element: a stream format and the buffers used to render it.
class AUIOElement: AUElement {
    // Unchecked exclusivity for what the render path reads (see AUBase.inputs).
    @exclusivity(unchecked) var format: AudioStreamBasicDescription {
        didSet { owner?.elementFormatChanged() }
    }
    /// The unit the element belongs to, told when the format changes (it keeps a copy for its render checks).
    /// Unowned: the unit owns its elements.
    unowned(unsafe) var owner: AUBase?
    let buffers = AUBufferList()
    /// `kAudioUnitProperty_ShouldAllocateBuffer`.
    @exclusivity(unchecked) var shouldAllocateBuffer = true

    init(format: AudioStreamBasicDescription) {
        self.format = format
    }

    /// The number of buffers an AudioBufferList of this element's format holds.
    var bufferCount: Int {
        format.mFormatFlags & kAudioFormatFlagIsNonInterleaved != 0 ? Int(format.mChannelsPerFrame) : 1
    }
}

/// An output element.
final class AUOutputElement: AUIOElement {}

/// An input element: where its audio comes from (nothing, a render callback or a connection),
/// published to the render thread without locks.
final class AUInputElement: AUIOElement {
    struct Source {
        enum Kind: UInt8 { case none, callback, connection }
        var kind: Kind = .none
        var callback: AURenderCallback?
        var refCon: UnsafeMutableRawPointer?
        var sourceUnit: AudioUnit?
        var sourceBus: UInt32 = 0
    }

    let source = RetiringPointerCell(Source())

    /// Publishes a new source and tells the owning unit (which keeps input 0's upstream unit in its render fields).
    /// Never call from the render thread.
    func publishSource(_ newSource: Source) {
        source.publish(newSource)
        owner?.inputSourceChanged(self)
    }

    /// Pulls `frames` frames of input for bus `bus` into this element's buffers (or the upstream
    /// unit's, for a connection that lends them). Safe on the render thread.
    @inline(__always)
    func pull(flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, timeStamp: UnsafePointer<AudioTimeStamp>,
              bus: UInt32, frames: UInt32) -> (OSStatus, UnsafeMutablePointer<AudioBufferList>) {
        pull(flags: flags, timeStamp: timeStamp, bus: bus, frames: frames, into: nil)
    }

    /// As above, rendering into `target` when given (it must match this element's format).
    @inline(__always)
    func pull(flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, timeStamp: UnsafePointer<AudioTimeStamp>,
              bus: UInt32, frames: UInt32,
              into target: UnsafeMutablePointer<AudioBufferList>?) -> (OSStatus, UnsafeMutablePointer<AudioBufferList>) {
        // A connection is the case that repeats down a chain; it stays inline and small (see AUBase+Render).
        let s = source.pointer
        guard s.pointee.kind == .connection, let target else {
            return pullOther(flags: flags, timeStamp: timeStamp, bus: bus, frames: frames, into: target)
        }
        return (AudioUnitRender(s.pointee.sourceUnit!, flags, timeStamp, s.pointee.sourceBus, frames, target), target)
    }

    @inline(never)
    private func pullOther(flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, timeStamp: UnsafePointer<AudioTimeStamp>,
                           bus: UInt32, frames: UInt32,
                           into target: UnsafeMutablePointer<AudioBufferList>?) -> (OSStatus, UnsafeMutablePointer<AudioBufferList>) {
        let s = source.value
        switch s.kind {
        case .none:
            return (kAudioUnitErr_NoConnection, buffers.list)
        case .callback:
            let abl = target ?? buffers.prepare(frames: frames)
            let status = invokeRenderCallback(s.callback!, s.refCon, flags, timeStamp, bus, frames, abl)
            return (status, abl)
        case .connection:
            let abl = target ?? (shouldAllocateBuffer && buffers.hasMemory
                ? buffers.prepare(frames: frames) : buffers.prepareNull(frames: frames))
            let status = AudioUnitRender(s.sourceUnit!, flags, timeStamp, s.sourceBus, frames, abl)
            return (status, abl)
        }
    }
}
