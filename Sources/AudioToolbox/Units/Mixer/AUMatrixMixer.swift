import AudioDSP
import COCASupport
import Synchronization

/// AUMatrixMixer (`'aumx' 'mxmx' 'appl'`): any number of input and output buses (ElementCount on both scopes),
/// each with any number of channels, numbered in one sequence across the buses of a scope (a stereo, a mono and a
/// stereo input are channels 0-1, 2 and 3-4). Each input channel reaches each output channel through four gains
/// multiplied: the input channel's volume (input scope, element = input channel), the crosspoint's (global scope,
/// element = input channel << 16 | output channel), the output channel's (output scope, element = output channel)
/// and the master volume (global scope, element 0xFFFFFFFF). Every volume starts at 0, as on Apple's unit, so a
/// client sets the routes it wants; Enable (input or output scope, element = bus, default 1) turns a bus off (a
/// disabled input is not pulled). kAudioUnitProperty_MatrixLevels and MatrixDimensions report the state. Up to
/// 128 input and 128 output channels. Inputs are pulled once per render time stamp, whichever output asks first.
/// Volumes are applied per slice, without a ramp.
///
/// Metering (kAudioUnitProperty_MeteringMode on the global scope for every channel, or on an input or output bus for
/// its channels) fills the read-only meter parameters of each channel (input or output scope, element = channel),
/// from the last slice: an input channel's "pre" level is what the input gave, "post" after its input volume; an
/// output channel's "post" level is what the unit puts out, "pre" the same before the output and master volumes.
/// kMatrixMixerParam_*Power and *PeakHoldLevel answer dB (-120 for silence), the *Linear ones linear levels.
/// kAudioUnitProperty_MeterClipping (global) reports the output's largest sample since the last call and whether an
/// infinity or NaN went out, then starts over (a slice rendered during the call may be counted in the next).

final class AUMatrixMixer: AUBase, @unchecked Sendable {
    static let description = AudioComponentDescription(
        componentType: kAudioUnitType_Mixer, componentSubType: kAudioUnitSubType_MatrixMixer,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
    static let maxChannels = 128
    static let masterElement: AudioUnitElement = 0xFFFF_FFFF

    // Gains as Float32 bits, read by the render thread with atomic loads.
    private let crosspoints = UnsafeMutablePointer<UInt32>.allocate(capacity: AUMatrixMixer.maxChannels * AUMatrixMixer.maxChannels)
    private let inputVolumes = UnsafeMutablePointer<UInt32>.allocate(capacity: AUMatrixMixer.maxChannels)
    private let outputVolumes = UnsafeMutablePointer<UInt32>.allocate(capacity: AUMatrixMixer.maxChannels)
    private let enables = UnsafeMutablePointer<UInt32>.allocate(capacity: 2 * AUMatrixMixer.maxChannels)  // inputs then outputs
    private let master = UnsafeMutablePointer<UInt32>.allocate(capacity: 1)
    /// Meter levels (linear Float32 bits): per channel, inputs then outputs, (pre average, pre peak, post average,
    /// post peak).
    private let meterLevels = UnsafeMutablePointer<UInt32>.allocate(capacity: 2 * AUMatrixMixer.maxChannels * 4)
    /// MeterClipping since the last read: the largest finite output sample (Float32 bits), infinity and NaN seen.
    private let clipPeak = Atomic<UInt32>(0)
    private let clipFlags = Atomic<UInt32>(0)

    // Render state (sized at initialize).
    private var scratch: UnsafeMutablePointer<Float>?
    private var inputChannels: UnsafeMutablePointer<UnsafePointer<Float>?>?
    private var inputLists: [UnsafeMutableAudioBufferListPointer] = []
    private var firstInputChannel: [Int] = []
    private var firstOutputChannel: [Int] = []
    private var totalIn = 0, totalOut = 0
    private var pulledTime = Double.nan

    init(component: AudioComponentEntry) {
        crosspoints.initialize(repeating: 0, count: Self.maxChannels * Self.maxChannels)
        inputVolumes.initialize(repeating: 0, count: Self.maxChannels)
        outputVolumes.initialize(repeating: 0, count: Self.maxChannels)
        enables.initialize(repeating: Float(1).bitPattern, count: 2 * Self.maxChannels)
        master.initialize(to: 0)
        meterLevels.initialize(repeating: 0, count: 2 * Self.maxChannels * 4)
        super.init(component: component, inputs: 1, outputs: 1)
    }

    deinit {
        crosspoints.deallocate()
        inputVolumes.deallocate()
        outputVolumes.deallocate()
        enables.deallocate()
        master.deallocate()
        meterLevels.deallocate()
    }

    override func isElementCountWritable(_ scope: AudioUnitScope) -> Bool {
        scope == kAudioUnitScope_Input || scope == kAudioUnitScope_Output
    }

    override func isValidFormat(_ scope: AudioUnitScope, _ element: AudioUnitElement, _ f: AudioStreamBasicDescription) -> Bool {
        AUFormatRules.isCommonFloat32(f)
    }

    /// Channel numbers of each bus's first channel, from the current formats.
    private func channelLayout() -> (inputs: [Int], outputs: [Int], totalIn: Int, totalOut: Int) {
        var ins: [Int] = [], outs: [Int] = []
        var n = 0
        for e in inputs { ins.append(n); n += Int(e.format.mChannelsPerFrame) }
        var m = 0
        for e in outputs { outs.append(m); m += Int(e.format.mChannelsPerFrame) }
        return (ins, outs, n, m)
    }

    override func initializeUnit() -> OSStatus {
        let layout = channelLayout()
        guard layout.totalIn <= Self.maxChannels, layout.totalOut <= Self.maxChannels else { return kAudioUnitErr_FormatNotSupported }
        let rate = outputs[0].format.mSampleRate
        for e in inputs + outputs where e.format.mSampleRate != rate { return kAudioUnitErr_FormatNotSupported }
        (firstInputChannel, firstOutputChannel, totalIn, totalOut) = layout
        let frames = Int(maxFramesPerSlice)
        scratch = renderMemory.take(Float.self, count: max(totalIn, 1) * frames, repeating: 0)
        inputChannels = renderMemory.take(UnsafePointer<Float>?.self, count: max(totalIn, 1), repeating: nil)
        inputLists = inputs.enumerated().map { k, e in
            let list = renderMemory.takeBufferList(buffers: Int(e.format.mChannelsPerFrame))
            for c in 0..<Int(e.format.mChannelsPerFrame) {
                list[c] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(frames * 4),
                                      mData: UnsafeMutableRawPointer(scratch! + (firstInputChannel[k] + c) * frames))
            }
            return list
        }
        pulledTime = .nan
        return noErr
    }

    /// The pointers go with the unit's render memory (AUBase frees it after this).
    override func cleanupUnit() {
        scratch = nil
        inputChannels = nil
        inputLists = []
    }

    override func resetUnit(_ scope: AudioUnitScope, _ element: AudioUnitElement) { pulledTime = .nan }

    // MARK: Parameters (their own storage: crosspoint and channel elements are not buses)

    private func slot(_ id: AudioUnitParameterID, _ scope: AudioUnitScope, _ element: AudioUnitElement) -> Result<UnsafeMutablePointer<UInt32>, OSStatusError> {
        switch (id, scope) {
        case (kMatrixMixerParam_Volume, kAudioUnitScope_Global):
            if element == Self.masterElement { return .success(master) }
            let i = Int(element >> 16), o = Int(element & 0xFFFF)
            guard i < Self.maxChannels, o < Self.maxChannels else { return .failure(OSStatusError(kAudioUnitErr_InvalidElement)) }
            return .success(crosspoints + i * Self.maxChannels + o)
        case (kMatrixMixerParam_Volume, kAudioUnitScope_Input):
            guard Int(element) < Self.maxChannels else { return .failure(OSStatusError(kAudioUnitErr_InvalidElement)) }
            return .success(inputVolumes + Int(element))
        case (kMatrixMixerParam_Volume, kAudioUnitScope_Output):
            guard Int(element) < Self.maxChannels else { return .failure(OSStatusError(kAudioUnitErr_InvalidElement)) }
            return .success(outputVolumes + Int(element))
        case (kMatrixMixerParam_Enable, kAudioUnitScope_Input):
            guard Int(element) < inputs.count else { return .failure(OSStatusError(kAudioUnitErr_InvalidElement)) }
            return .success(enables + Int(element))
        case (kMatrixMixerParam_Enable, kAudioUnitScope_Output):
            guard Int(element) < outputs.count else { return .failure(OSStatusError(kAudioUnitErr_InvalidElement)) }
            return .success(enables + Self.maxChannels + Int(element))
        case (_, let s) where s > kAudioUnitScope_Group:
            return .failure(OSStatusError(kAudioUnitErr_InvalidScope))
        default:
            return .failure(OSStatusError(kAudioUnitErr_InvalidParameter))
        }
    }

    override func getParameter(_ id: AudioUnitParameterID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
                               _ outValue: UnsafeMutablePointer<AudioUnitParameterValue>) -> OSStatus {
        if id >= kMatrixMixerParam_PreAveragePower && id <= kMatrixMixerParam_PostPeakHoldLevelLinear && id % 1000 == 0 {
            return meter(id, scope, element, outValue)
        }
        switch slot(id, scope, element) {
        case .failure(let e): return e.status
        case .success(let p):
            outValue.pointee = Float(bitPattern: oca_atomic_load_u32(p))
            return noErr
        }
    }

    override func setParameter(_ id: AudioUnitParameterID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
                               _ value: AudioUnitParameterValue, _ bufferOffset: UInt32) -> OSStatus {
        guard value.isFinite else { return kAudioUnitErr_InvalidParameterValue }
        switch slot(id, scope, element) {
        case .failure(let e): return e.status
        case .success(let p):
            oca_atomic_store_u32(p, value.bitPattern)
            return noErr
        }
    }

    @inline(__always)
    private func gain(_ p: UnsafeMutablePointer<UInt32>) -> Float { Float(bitPattern: oca_atomic_load_u32(p)) }

    /// A meter parameter: 1000-4000 in dB, 5000-8000 linear, of an input or output channel.
    private func meter(_ id: AudioUnitParameterID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
                       _ outValue: UnsafeMutablePointer<AudioUnitParameterValue>) -> OSStatus {
        let layout = channelLayout()
        let channel: Int
        switch scope {
        case kAudioUnitScope_Input:
            guard Int(element) < layout.totalIn else { return kAudioUnitErr_InvalidElement }
            channel = Int(element)
        case kAudioUnitScope_Output:
            guard Int(element) < layout.totalOut else { return kAudioUnitErr_InvalidElement }
            channel = Self.maxChannels + Int(element)
        default:
            return kAudioUnitErr_InvalidScope
        }
        let kind = Int((id / 1000 - 1) % 4)  // pre average, pre peak, post average, post peak
        let level = Float(bitPattern: oca_atomic_load_u32(meterLevels + channel * 4 + kind))
        outValue.pointee = id >= kMatrixMixerParam_PreAveragePowerLinear ? level
            : SignalMeasurement.meterDecibels(level, floor: Self.meterFloor)
        return noErr
    }

    /// Whether the channels of an input (or output) bus are metered now.
    @inline(__always)
    private func metered(_ bus: Int, input: Bool) -> Bool {
        // kAudioUnitProperty_MeteringMode on the global scope: every channel metered.
        if globalElement.meteringMode.load(ordering: .relaxed) { return true }
        if input { return bus < inputs.count && inputs[bus].meteringMode.load(ordering: .relaxed) }
        return bus < outputs.count && outputs[bus].meteringMode.load(ordering: .relaxed)
    }

    /// Stores a channel's levels (linear): (pre average, pre peak, post average, post peak).
    @inline(__always)
    private func storeLevels(_ channel: Int, _ preAverage: Float, _ prePeak: Float, _ postAverage: Float, _ postPeak: Float) {
        let p = meterLevels + channel * 4
        oca_atomic_store_u32(p, preAverage.bitPattern)
        oca_atomic_store_u32(p + 1, prePeak.bitPattern)
        oca_atomic_store_u32(p + 2, postAverage.bitPattern)
        oca_atomic_store_u32(p + 3, postPeak.bitPattern)
    }

    /// Adds an output slice to the clipping report.
    @inline(__always)
    private func noteClipping(_ samples: UnsafeBufferPointer<Float>) {
        let (peak, infinity, nan) = SignalMeasurement.peakAndNonFinite(samples)
        var old = clipPeak.load(ordering: .relaxed)
        while Float(bitPattern: old) < peak {
            let (exchanged, now) = clipPeak.compareExchange(expected: old, desired: peak.bitPattern, ordering: .relaxed)
            if exchanged { break }
            old = now
        }
        if infinity || nan { clipFlags.bitwiseOr((infinity ? 1 : 0) | (nan ? 2 : 0), ordering: .relaxed) }
    }

    // MARK: Render

    override func renderBus(_ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, _ timeStamp: UnsafePointer<AudioTimeStamp>,
                            _ bus: UInt32, _ frames: UInt32, _ output: UnsafeMutablePointer<AudioBufferList>) -> OSStatus {
        guard let inputChannels, Int(bus) < outputs.count else { return kAudioUnitErr_Uninitialized }
        let n = Int(frames)
        // Pull every enabled input once per time stamp.
        if pulledTime != timeStamp.pointee.mSampleTime || !timeStamp.pointee.mFlags.contains(.sampleTimeValid) {
            pulledTime = timeStamp.pointee.mSampleTime
            for k in 0..<inputs.count {
                let first = firstInputChannel[k], count = Int(inputs[k].format.mChannelsPerFrame)
                for c in 0..<count { inputChannels[first + c] = nil }
                guard gain(enables + k) != 0, inputs[k].source.value.kind != .none else { continue }
                let list = inputLists[k]
                for c in 0..<count { list[c].mDataByteSize = frames * 4 }
                var inputFlags: AudioUnitRenderActionFlags = []
                let (status, pulled) = pullInput(k, flags: &inputFlags, timeStamp: timeStamp, frames: frames,
                                                      into: list.unsafeMutablePointer)
                guard status == noErr else { return status }
                let got = UnsafeMutableAudioBufferListPointer(pulled)
                for c in 0..<min(count, got.count) {
                    inputChannels[first + c] = got[c].mData.map { UnsafePointer($0.assumingMemoryBound(to: Float.self)) }
                }
                if metered(k, input: true) {
                    for c in 0..<min(count, got.count) {
                        guard let src = inputChannels[first + c] else { continue }
                        let samples = UnsafeBufferPointer(start: src, count: n)
                        let average = Float(SignalMeasurement.rms(samples)), peak = SignalMeasurement.peak(samples)
                        let g = abs(gain(inputVolumes + first + c))
                        storeLevels(first + c, average, peak, average * g, peak * g)
                    }
                }
            }
        }
        let out = UnsafeMutableAudioBufferListPointer(output)
        let firstOut = firstOutputChannel[Int(bus)]
        let busOn = gain(enables + AUMatrixMixer.maxChannels + Int(bus)) != 0
        let masterGain = gain(master)
        var silent = true
        let metering = metered(Int(bus), input: false)
        for oc in 0..<out.count {
            guard let dst = out[oc].mData?.assumingMemoryBound(to: Float.self) else { continue }
            dst.update(repeating: 0, count: n)
            let o = firstOut + oc
            guard busOn, o < totalOut else { continue }
            let outGain = masterGain * gain(outputVolumes + o)
            if outGain != 0 {
                for i in 0..<totalIn {
                    guard let src = inputChannels[i] else { continue }
                    let g = outGain * gain(inputVolumes + i) * gain(crosspoints + i * AUMatrixMixer.maxChannels + o)
                    guard g != 0 else { continue }
                    _ = MixerKernels.accumulate(src, into: dst, count: n, gain: g, target: g, step: 1)
                    silent = false
                }
            }
            if metering {
                let samples = UnsafeBufferPointer(start: UnsafePointer(dst), count: n)
                let average = Float(SignalMeasurement.rms(samples)), peak = SignalMeasurement.peak(samples)
                // "Pre": before the output and master volumes (unknown when they are 0: the mix is not made).
                let g = abs(outGain)
                storeLevels(AUMatrixMixer.maxChannels + o, g > 0 ? average / g : 0, g > 0 ? peak / g : 0, average, peak)
                noteClipping(samples)
            }
        }
        if silent { flags.pointee.insert(.unitRenderAction_OutputIsSilence) }
        return noErr
    }

    // MARK: Properties

    override class var propertyRows: [AUProperty] {
        super.propertyRows + [
            .array(kAudioUnitProperty_MatrixDimensions, UInt32.self, of: AUMatrixMixer.self, place: AUProperty.global,
                   get: { unit, _, _ in
                       let layout = unit.channelLayout()
                       return [UInt32(layout.totalIn), UInt32(layout.totalOut)]
                   }),
            .array(kAudioUnitProperty_MatrixLevels, Float32.self, of: AUMatrixMixer.self, place: AUProperty.global,
                   get: { unit, _, _ in unit.levels() }),
            // Global (element 0: every channel), or an input or output bus (its channels).
            meteringModeRow(global: true),
            .value(kAudioUnitProperty_MeterClipping, AudioUnitMeterClipping.self, of: AUMatrixMixer.self, place: AUProperty.global,
                   get: { unit, _, _ in
                       let peak = Float(bitPattern: unit.clipPeak.exchange(0, ordering: .relaxed))
                       let flags = unit.clipFlags.exchange(0, ordering: .relaxed)
                       return AudioUnitMeterClipping(peakValueSinceLastCall: peak, sawInfinity: DarwinBoolean(flags & 1 != 0),
                                                     sawNotANumber: DarwinBoolean(flags & 2 != 0))
                   }),
        ]
    }

    /// (inputs + 1) × (outputs + 1): crosspoints, input volumes in the last column, output volumes in the last row,
    /// the master volume in the corner.
    private func levels() -> [Float32] {
        let layout = channelLayout()
        let rows = layout.totalIn + 1, columns = layout.totalOut + 1
        var v = [Float32](repeating: 0, count: rows * columns)
        for i in 0..<layout.totalIn {
            for o in 0..<layout.totalOut { v[i * columns + o] = gain(crosspoints + i * Self.maxChannels + o) }
            v[i * columns + layout.totalOut] = gain(inputVolumes + i)
        }
        for o in 0..<layout.totalOut { v[layout.totalIn * columns + o] = gain(outputVolumes + o) }
        v[rows * columns - 1] = gain(master)
        return v
    }
}
