import AudioDSP
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// AUSpatialMixer / AU3DMixerEmbedded (`'aumx' '3dem' 'appl'`, and the macOS 3D mixer `'aumx' '3dmx'`):
/// inputs (ElementCount, 8 by default, mono by default; stereo allowed) placed around a listener and mixed
/// to one stereo output. Per input: Azimuth, Elevation, Distance, Gain (dB), PlaybackRate (0.5...2, read
/// with Hermite interpolation, which also converts an input sample rate up to twice the output's), Enable,
/// MinGain/MaxGain (linear clamps of the distance-attenuated gain); output Gain (dB).
/// Algorithms (kAudioUnitProperty_SpatializationAlgorithm, per input): EqualPowerPanning, SphericalHead
/// (Brown-Duda interaural delay and head shadow), VectorBasedPanning (a ±30° speaker pair) and
/// StereoPassThrough, and HRTF / HRTFHQ (both the same here: the responses of a SOFA file, Debian's MIT KEMAR
/// set, by HRTFTable, convolved per input; they answer kAudioUnitErr_InvalidPropertyValue when no SOFA file is
/// installed). Distance attenuation follows MixerDistanceParams, the attenuation curve and the DistanceAtten
/// rolloff (SpatialKernels states the curves). Gains are de-zippered (10 ms for a unit step); sources pass
/// through the reader with a latency of 2 input frames.
/// Internal reverb (kAudioUnitProperty_UsesInternalReverb, off by default): each input's ReverbBlend (0...100 %)
/// is an equal-power crossfade between its direct sound and a send (after its gain and distance attenuation,
/// summed to mono) into one AUReverb2 network, whose room is kAudioUnitProperty_ReverbRoomType (medium hall by
/// default) and whose stereo return is scaled by GlobalReverbGain (-40...40 dB). Occlusion, obstruction, Doppler
/// and head tracking are not implemented: their parameters and flags are refused.
final class AUSpatialMixer: AUBase, @unchecked Sendable {
    static let description = AudioComponentDescription(
        componentType: kAudioUnitType_Mixer, componentSubType: kAudioUnitSubType_SpatialMixer,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
    static let macDescription = AudioComponentDescription(
        componentType: kAudioUnitType_Mixer, componentSubType: kAudioUnitSubType_3DMixer,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
    static let latencyFrames = 2.0
    static let meters: [(AudioUnitParameterID, String)] = [
        (k3DMixerParam_PreAveragePower, "Pre Average Power"), (k3DMixerParam_PrePeakHoldLevel, "Pre Peak Hold Level"),
        (k3DMixerParam_PostAveragePower, "Post Average Power"), (k3DMixerParam_PostPeakHoldLevel, "Post Peak Hold Level"),
    ]

    private(set) var settings: [SpatialMixerInputSettings] = []
    private var states: UnsafeMutablePointer<SpatialMixerInputState>?
    private var stateCount = 0
    private var sourceCapacity = 0
    private var historyLength = 0
    /// Work slices: the input read at rate (2 channels), and the two ear signals.
    private var work: UnsafeMutablePointer<Float>?
    private var pullLists: [UnsafeMutableAudioBufferListPointer] = []
    /// HRTF rendering: the responses at the output rate and one convolver per input, with the grid point each last used.
    private var hrtf: HRTFTable?
    private var convolvers: [HRTFConvolver] = []
    private var hrtfPoints: [Int] = []
    private var outputGain: Float = 1
    private var step: Float = 1
    /// Internal reverb: the switch and room (set by properties, read once per slice), the network (built at
    /// initialize), the room it was last given, its return gain, and its in/out channel pointers.
    private let reverbOn = Atomic<UInt32>(0)
    private let roomType = Atomic<UInt32>(AUReverbRoomType.reverbRoomType_MediumHall.rawValue)
    private var reverb: Reverb2Kernel?
    private var appliedRoom: UInt32 = .max
    private var reverbRunning = false
    private var reverbGain: Float = 1
    private var reverbIO: UnsafeMutablePointer<UnsafeMutablePointer<Float>>?
    /// The filter on the reverb's return (AVAudioEnvironmentReverbParameters.filterParameters): one AUNBandEQ band,
    /// set off the render thread, designed on it when its version changes.
    let reverbFilter = ReverbReturnFilter()
    private var reverbFilterVersion: UInt32 = .max
    private var reverbFilterSection = BiquadCoefficients.identity
    private var reverbFilterState = (BiquadState(), BiquadState())

    init(component: AudioComponentEntry) {
        super.init(component: component, inputs: 0, outputs: 1)
        defineParameter(kSpatialMixerParam_Gain, scope: kAudioUnitScope_Output, element: 0,
                        .oca("Gain", unit: .decibels, min: -120, max: 20, default: 0, flags: [.flag_CanRamp]))
        defineMeters(kAudioUnitScope_Output, 0)
        defineParameter(kSpatialMixerParam_GlobalReverbGain, scope: kAudioUnitScope_Global, element: 0,
                        .oca("Global Reverb Gain", unit: .decibels, min: -40, max: 40, default: 0, flags: [.flag_CanRamp]))
        // Inputs are mono unless set otherwise; new elements copy element 0's format.
        setElementCount(kAudioUnitScope_Input, 1)
        inputs[0].format = OCAFormat.canonical(sampleRate: Self.defaultFormat.mSampleRate, channels: 1)
        setElementCount(kAudioUnitScope_Input, 8)
    }

    private func defineMeters(_ scope: AudioUnitScope, _ element: AudioUnitElement) {
        defineMeterParameters(Self.meters, scope, element, channels: 2)
    }

    override func isElementCountWritable(_ scope: AudioUnitScope) -> Bool { scope == kAudioUnitScope_Input }

    override func definedNewElement(_ scope: AudioUnitScope, _ index: Int) {
        guard scope == kAudioUnitScope_Input else { return }
        let e = AudioUnitElement(index)
        func define(_ id: AudioUnitParameterID, _ name: String, _ unit: AudioUnitParameterUnit, _ min: Float, _ max: Float, _ value: Float,
                    _ flags: AudioUnitParameterOptions = [.flag_CanRamp]) {
            defineParameter(id, scope: scope, element: e, .oca(name, unit: unit, min: min, max: max, default: value, flags: flags))
        }
        define(kSpatialMixerParam_Azimuth, "Azimuth", .degrees, -180, 180, 0)
        define(kSpatialMixerParam_Elevation, "Elevation", .degrees, -90, 90, 0)
        define(kSpatialMixerParam_Distance, "Distance", .meters, 0, 10_000, 0)
        define(kSpatialMixerParam_Gain, "Gain", .decibels, -120, 20, 0)
        define(kSpatialMixerParam_PlaybackRate, "Playback Rate", .rate, 0.5, 2, 1)
        define(kSpatialMixerParam_Enable, "Enable", .boolean, 0, 1, 1, [])
        define(kSpatialMixerParam_MinGain, "Min Gain", .linearGain, 0, 10, 0, [])
        define(kSpatialMixerParam_MaxGain, "Max Gain", .linearGain, 0, 10, 10, [])
        define(kSpatialMixerParam_ReverbBlend, "Reverb Blend", .percent, 0, 100, 0)
        defineMeters(scope, e)
        if settings.count <= index { settings.append(SpatialMixerInputSettings()) } else { settings[index] = SpatialMixerInputSettings() }
    }

    override func isValidFormat(_ scope: AudioUnitScope, _ element: AudioUnitElement, _ f: AudioStreamBasicDescription) -> Bool {
        guard AUFormatRules.isCommonFloat32(f) else { return false }
        return scope == kAudioUnitScope_Input ? (1...2).contains(f.mChannelsPerFrame) : f.mChannelsPerFrame == 2
    }

    override var latency: Double { Self.latencyFrames / outputs[0].format.mSampleRate }
    override var tailTime: Double? {
        let head = SpatialKernels.SphericalHead.maxDelay(sampleRate: 1)
        guard reverbOn.load(ordering: .relaxed) != 0 else { return head }
        let room = ReverbRoomPreset(roomType: Int(roomType.load(ordering: .relaxed)))
        return head + max(room?.decayTimeAt0Hz ?? 0, room?.decayTimeAtNyquist ?? 0) + (room?.maxDelayTime ?? 0)
    }

    // MARK: Properties

    override class var propertyRows: [AUProperty] {
        /// A UInt32 setting of each input, stored if `valid` accepts it.
        func setting(_ id: AudioUnitPropertyID, _ value: @escaping (SpatialMixerInputSettings) -> UInt32,
                     _ store: @escaping (SpatialMixerInputSettings, UInt32) -> Void, valid: @escaping (UInt32) -> Bool) -> AUProperty {
            .value(id, UInt32.self, of: AUSpatialMixer.self, place: AUProperty.inputElement, writable: .always,
                   get: { unit, _, element in value(unit.settings[Int(element)]) },
                   set: { unit, _, element, v in
                       guard valid(v) else { return kAudioUnitErr_InvalidPropertyValue }
                       store(unit.settings[Int(element)], v)
                       return noErr
                   })
        }
        let algorithms: [AUSpatializationAlgorithm] = [.spatializationAlgorithm_EqualPowerPanning, .spatializationAlgorithm_SphericalHead,
                                                       .spatializationAlgorithm_VectorBasedPanning, .spatializationAlgorithm_StereoPassThrough]
            + (HRTFTable.isAvailable ? [.spatializationAlgorithm_HRTF, .spatializationAlgorithm_HRTFHQ] : [])
        let algorithm = setting(kAudioUnitProperty_SpatializationAlgorithm, { $0.algorithm.load(ordering: .relaxed) }, { $0.algorithm.store($1, ordering: .relaxed) }) { (v: UInt32) -> Bool in
            guard let a = AUSpatializationAlgorithm(rawValue: v) else { return false }
            return algorithms.contains(a)
        }
        let flags = setting(kAudioUnitProperty_3DMixerRenderingFlags, { $0.renderingFlags.load(ordering: .relaxed) }, { $0.renderingFlags.store($1, ordering: .relaxed) }) { (v: UInt32) -> Bool in
            v & ~SpatialMixerInputSettings.supportedFlags == 0
        }
        let sourceMode = setting(kAudioUnitProperty_SpatialMixerSourceMode, { $0.sourceMode.load(ordering: .relaxed) }, { $0.sourceMode.store($1, ordering: .relaxed) }) { (v: UInt32) -> Bool in
            v <= AUSpatialMixerSourceMode.spatialMixerSourceMode_PointSource.rawValue
        }
        let curve = setting(kAudioUnitProperty_3DMixerAttenuationCurve, { $0.curve.load(ordering: .relaxed) }, { $0.curve.store($1, ordering: .relaxed) }) { (v: UInt32) -> Bool in
            SpatialKernels.AttenuationCurve(rawValue: v) != nil
        }
        let rolloff: AUProperty = .value(kAudioUnitProperty_3DMixerDistanceAtten, Float64.self, of: AUSpatialMixer.self, place: AUProperty.inputElement,
                   writable: .always,
                   get: { unit, _, element in Double(bitPattern: unit.settings[Int(element)].rolloff.load(ordering: .relaxed)) },
                   set: { unit, _, element, rolloff in
                       guard rolloff.isFinite, rolloff >= 0 else { return kAudioUnitErr_InvalidPropertyValue }
                       unit.settings[Int(element)].rolloff.store(rolloff.bitPattern, ordering: .relaxed)
                       return noErr
                   })
        let distance: AUProperty = .value(kAudioUnitProperty_3DMixerDistanceParams, MixerDistanceParams.self, of: AUSpatialMixer.self, place: AUProperty.inputElement,
                   writable: .always,
                   get: { unit, _, element in unit.settings[Int(element)].distanceParams },
                   set: { unit, _, element, p in
                       guard p.mReferenceDistance > 0, p.mMaxDistance >= p.mReferenceDistance, p.mMaxAttenuation >= 0,
                             p.mMaxDistance.isFinite, p.mMaxAttenuation.isFinite else { return kAudioUnitErr_InvalidPropertyValue }
                       unit.settings[Int(element)].setDistanceParams(p)
                       return noErr
                   })
        let usesReverb: AUProperty = .value(kAudioUnitProperty_UsesInternalReverb, UInt32.self, of: AUSpatialMixer.self, place: AUProperty.global,
                   writable: .always,
                   get: { unit, _, _ in unit.reverbOn.load(ordering: .relaxed) },
                   set: { unit, _, _, on in unit.reverbOn.store(on != 0 ? 1 : 0, ordering: .relaxed); return noErr })
        let room: AUProperty = .value(kAudioUnitProperty_ReverbRoomType, UInt32.self, of: AUSpatialMixer.self, place: AUProperty.global,
                   writable: .always,
                   get: { unit, _, _ in unit.roomType.load(ordering: .relaxed) },
                   set: { unit, _, _, type in
                       guard ReverbRoomPreset(roomType: Int(type)) != nil else { return kAudioUnitErr_InvalidPropertyValue }
                       unit.roomType.store(type, ordering: .relaxed)
                       return noErr
                   })
        return super.propertyRows + [meteringModeRow(), algorithm, flags, sourceMode, curve, rolloff, distance, usesReverb, room]
    }

    // MARK: Lifecycle

    override func initializeUnit() -> OSStatus {
        let outRate = outputs[0].format.mSampleRate
        guard outputs[0].format.mChannelsPerFrame == 2 else { return kAudioUnitErr_FormatNotSupported }
        // The reader steps at most 2 (rate) x input/output rate; beyond 4 source frames per output frame it
        // would skip frames it never pulled.
        for input in inputs where input.format.mSampleRate > 2 * outRate { return kAudioUnitErr_FormatNotSupported }
        releaseState()
        let maxFrames = Int(maxFramesPerSlice)
        var maxStep = 0.0
        for input in inputs { maxStep = max(maxStep, 2 * input.format.mSampleRate / outRate) }
        sourceCapacity = Int((maxStep * Double(maxFrames)).rounded(.up)) + 8
        historyLength = Int(SpatialKernels.SphericalHead.maxDelay(sampleRate: outRate).rounded(.up)) + 3
        stateCount = inputs.count
        let made = (0..<stateCount).map { _ in
            SpatialMixerInputState(sourceCapacity: sourceCapacity, historyLength: historyLength, maxFrames: maxFrames, memory: renderMemory)
        }
        states = renderMemory.take(copying: made)
        // Work: the read slice (2), the ear signals (2), the reverb send (1) and its stereo return (2).
        work = renderMemory.take(Float.self, count: 7 * maxFrames, repeating: 0)
        let network = Reverb2Kernel(sampleRate: outRate, maximumFrames: maxFrames, channels: 2)
        network.setDryWetMix(100)
        network.reset()
        reverb = network
        appliedRoom = .max
        reverbRunning = false
        reverbIO = renderMemory.take(UnsafeMutablePointer<Float>.self, count: 4)
        reverbGain = decibelsToGain(parameterValue(kSpatialMixerParam_GlobalReverbGain, kAudioUnitScope_Global, 0))
        pullLists = [renderMemory.takeBufferList(buffers: 1), renderMemory.takeBufferList(buffers: 2)]
        step = Float(1 / max(0.010 * outRate, 1))
        hrtf = HRTFTable.isAvailable ? HRTFTable.table(sampleRate: outRate) : nil
        convolvers = hrtf == nil ? [] : (0..<stateCount).map { _ in HRTFConvolver(taps: HRTFTable.taps, maximumFrames: maxFrames) }
        hrtfPoints = Array(repeating: -1, count: stateCount)
        outputGain = decibelsToGain(parameterValue(kSpatialMixerParam_Gain, kAudioUnitScope_Output, 0))
        return noErr
    }

    override func cleanupUnit() { releaseState() }

    override func resetUnit(_ scope: AudioUnitScope, _ element: AudioUnitElement) {
        guard let states else { return }
        for i in 0..<stateCount { states[i].reset() }
        convolvers.forEach { $0.reset() }
        reverb?.reset()
        reverbFilterState = (BiquadState(), BiquadState())
        outputGain = decibelsToGain(parameterValue(kSpatialMixerParam_Gain, kAudioUnitScope_Output, 0))
    }

    private func releaseState() {
        states = nil
        stateCount = 0
        // The input states and their buffers, work, the pull lists and the reverb's pointers go with the unit's
        // render memory (AUBase frees it).
        work = nil
        pullLists = []
        convolvers = []
        hrtfPoints = []
        reverb = nil
        reverbIO = nil
    }

    @inline(__always) private func decibelsToGain(_ dB: Float) -> Float { dB <= -120 ? 0 : powf(10, dB / 20) }

    // MARK: Render

    override func renderBus(_ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, _ timeStamp: UnsafePointer<AudioTimeStamp>,
                            _ bus: UInt32, _ frames: UInt32, _ output: UnsafeMutablePointer<AudioBufferList>) -> OSStatus {
        guard let states, let work else { return kAudioUnitErr_Uninitialized }
        let out = UnsafeMutableAudioBufferListPointer(output)
        let n = Int(frames), maxFrames = Int(maxFramesPerSlice)
        let left = out[0].mData!.assumingMemoryBound(to: Float.self), right = out[1].mData!.assumingMemoryBound(to: Float.self)
        left.update(repeating: 0, count: n)
        right.update(repeating: 0, count: n)
        let read = (work, work + maxFrames), ears = (work + 2 * maxFrames, work + 3 * maxFrames)
        let send = work + 4 * maxFrames, wet = (work + 5 * maxFrames, work + 6 * maxFrames)
        let outRate = outputs[0].format.mSampleRate
        var silent = true
        let reverbing = reverbOn.load(ordering: .relaxed) != 0 && reverb != nil
        if reverbing { send.update(repeating: 0, count: n) }
        for i in 0..<stateCount {
            let e = AudioUnitElement(i), input = inputs[i], s = settings[i]
            let enabled = parameterValue(kSpatialMixerParam_Enable, kAudioUnitScope_Input, e) != 0
            if !enabled && states[i].gainLeft == 0 && states[i].gainRight == 0 { continue }
            if input.source.value.kind == .none { continue }
            let channels = Int(input.format.mChannelsPerFrame)
            let rate = min(max(parameterValue(kSpatialMixerParam_PlaybackRate, kAudioUnitScope_Input, e), 0.5), 2)
            let stepSize = Double(rate) * input.format.mSampleRate / outRate
            var inputFlags: AudioUnitRenderActionFlags = []
            let status = readInput(i, channels: channels, frames: n, step: stepSize, into: read, flags: &inputFlags)
            guard status == noErr else { return status }
            if !inputFlags.contains(.unitRenderAction_OutputIsSilence) { silent = false }

            // The gain: input gain x distance, clamped to [MinGain, MaxGain]; 0 when disabled.
            var gain: Float = 0
            if enabled {
                gain = decibelsToGain(parameterValue(kSpatialMixerParam_Gain, kAudioUnitScope_Input, e))
                    * s.distanceGain(parameterValue(kSpatialMixerParam_Distance, kAudioUnitScope_Input, e))
                gain = min(max(gain, parameterValue(kSpatialMixerParam_MinGain, kAudioUnitScope_Input, e)),
                           parameterValue(kSpatialMixerParam_MaxGain, kAudioUnitScope_Input, e))
            }
            let algorithm = AUSpatializationAlgorithm(rawValue: s.algorithm.load(ordering: .relaxed)) ?? .spatializationAlgorithm_EqualPowerPanning
            let mode = AUSpatialMixerSourceMode(rawValue: s.sourceMode.load(ordering: .relaxed)) ?? .spatialMixerSourceMode_SpatializeIfMono
            if channels == 2 && mode == .spatialMixerSourceMode_PointSource {
                for k in 0..<n { read.0[k] = 0.5 * (read.0[k] + read.1[k]) }
            }
            let mono = channels == 1 || mode == .spatialMixerSourceMode_PointSource
            let passThrough = algorithm == .spatializationAlgorithm_StereoPassThrough || mode == .spatialMixerSourceMode_Bypass || !mono
            let azimuth = parameterValue(kSpatialMixerParam_Azimuth, kAudioUnitScope_Input, e)
            let elevation = parameterValue(kSpatialMixerParam_Elevation, kAudioUnitScope_Input, e)
            // The reverb blend: an equal-power crossfade of the direct sound into the send.
            let blend = reverbing ? min(max(parameterValue(kSpatialMixerParam_ReverbBlend, kAudioUnitScope_Input, e) / 100, 0), 1) : 0
            let direct = cosf(blend * .pi / 2), sendTarget = gain * sinf(blend * .pi / 2)
            var targetL = gain * direct, targetR = gain * direct
            var sourceL = UnsafePointer(read.0), sourceR = UnsafePointer(mono ? read.0 : read.1)
            if !passThrough {
                switch algorithm {
                case .spatializationAlgorithm_SphericalHead:
                    spatializeSphericalHead(i, read.0, frames: n, azimuth: azimuth, elevation: elevation, sampleRate: outRate,
                                            interauralDelay: s.renderingFlags.load(ordering: .relaxed) & AU3DMixerRenderingFlags.k3DMixerRenderingFlags_InterAuralDelay.rawValue != 0,
                                            into: ears)
                    sourceL = UnsafePointer(ears.0)
                    sourceR = UnsafePointer(ears.1)
                case .spatializationAlgorithm_HRTF, .spatializationAlgorithm_HRTFHQ:
                    if let hrtf, i < convolvers.count {
                        let point = hrtf.index(azimuth: azimuth, elevation: elevation)
                        if point != hrtfPoints[i] {
                            let (l, r) = hrtf.filter(point)
                            convolvers[i].setFilter(left: l, right: r)
                            hrtfPoints[i] = point
                        }
                        convolvers[i].process(read.0, count: n, left: ears.0, right: ears.1)
                        sourceL = UnsafePointer(ears.0)
                        sourceR = UnsafePointer(ears.1)
                    }
                case .spatializationAlgorithm_VectorBasedPanning:
                    let (l, r) = SpatialKernels.vectorBaseGains(azimuth: azimuth, elevation: elevation)
                    targetL *= l; targetR *= r
                default:
                    let (l, r) = SpatialKernels.equalPowerGains(azimuth: azimuth, elevation: elevation)
                    targetL *= l; targetR *= r
                }
            }
            if !states[i].started {
                // The first slice starts at its gains rather than fading in.
                states[i].gainLeft = targetL
                states[i].gainRight = targetR
                states[i].sendGain = sendTarget
                states[i].started = true
            }
            if reverbing && (sendTarget != 0 || states[i].sendGain != 0) {
                // The send is mono: a stereo source's two channels at half gain each.
                if mono {
                    states[i].sendGain = MixerKernels.accumulate(read.0, into: send, count: n, gain: states[i].sendGain, target: sendTarget, step: step)
                } else {
                    let g = states[i].sendGain
                    _ = MixerKernels.accumulate(read.0, into: send, count: n, gain: 0.5 * g, target: 0.5 * sendTarget, step: 0.5 * step)
                    states[i].sendGain = 2 * MixerKernels.accumulate(read.1, into: send, count: n, gain: 0.5 * g, target: 0.5 * sendTarget, step: 0.5 * step)
                }
            } else {
                states[i].sendGain = sendTarget
            }
            if input.meteringMode.load(ordering: .relaxed) {
                storeMeters(kAudioUnitScope_Input, e, channel: 0, read.0, frames: n, gain: gain)
                if channels == 2 { storeMeters(kAudioUnitScope_Input, e, channel: 1, read.1, frames: n, gain: gain) }
            }
            states[i].gainLeft = MixerKernels.accumulate(sourceL, into: left, count: n, gain: states[i].gainLeft, target: targetL, step: step)
            states[i].gainRight = MixerKernels.accumulate(sourceR, into: right, count: n, gain: states[i].gainRight, target: targetR, step: step)
        }
        if reverbing, let reverb, let io = reverbIO {
            let room = roomType.load(ordering: .relaxed)
            if room != appliedRoom, let preset = ReverbRoomPreset(roomType: Int(room)) {
                reverb.apply(preset)
                if !reverbRunning { reverb.reset() }  // the first room is in place before any sound, without a glide
                appliedRoom = room
            }
            io[0] = send; io[1] = send; io[2] = wet.0; io[3] = wet.1
            reverb.process(input: UnsafePointer(io), output: UnsafePointer(io + 2), channels: 2, frames: n)
            let version = reverbFilter.version.load(ordering: .acquiring)
            if version != reverbFilterVersion {
                reverbFilterSection = reverbFilter.section(sampleRate: outRate)
                reverbFilterVersion = version
            }
            if reverbFilterSection != .identity {
                BiquadKernels.apply(wet.0, wet.0, count: n, reverbFilterSection, &reverbFilterState.0)
                BiquadKernels.apply(wet.1, wet.1, count: n, reverbFilterSection, &reverbFilterState.1)
            }
            let returnTarget = decibelsToGain(parameterValue(kSpatialMixerParam_GlobalReverbGain, kAudioUnitScope_Global, 0))
            if !reverbRunning { reverbGain = returnTarget }
            _ = MixerKernels.accumulate(wet.0, into: left, count: n, gain: reverbGain, target: returnTarget, step: step)
            reverbGain = MixerKernels.accumulate(wet.1, into: right, count: n, gain: reverbGain, target: returnTarget, step: step)
            reverbRunning = true
            silent = false  // the tail rings on after the sources fall silent
        } else if reverbRunning, let reverb {
            // Switched off: the tail stops, and a later switch-on starts from a quiet room.
            reverb.reset()
            reverbRunning = false
        }
        let target = decibelsToGain(parameterValue(kSpatialMixerParam_Gain, kAudioUnitScope_Output, 0))
        let metering = outputs[0].meteringMode.load(ordering: .relaxed)
        if metering {
            storeMeters(kAudioUnitScope_Output, 0, channel: 0, left, frames: n, gain: target)
            storeMeters(kAudioUnitScope_Output, 0, channel: 1, right, frames: n, gain: target)
        }
        _ = MixerKernels.scale(left, count: n, gain: outputGain, target: target, step: step)
        outputGain = MixerKernels.scale(right, count: n, gain: outputGain, target: target, step: step)
        if silent { flags.pointee.insert(.unitRenderAction_OutputIsSilence) } else { flags.pointee.remove(.unitRenderAction_OutputIsSilence) }
        return noErr
    }

    /// Reads `frames` frames of input `i` at `step` source frames per output frame into `into`, pulling the
    /// input (in slices of at most MaximumFramesPerSlice) for the source frames the reader needs.
    private func readInput(_ i: Int, channels: Int, frames n: Int, step: Double,
                           into: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>),
                           flags: inout AudioUnitRenderActionFlags) -> OSStatus {
        let state = states! + i
        let input = inputs[i]
        let needed = VariableRateKernels.samplesNeeded(position: state.pointee.position, step: step, count: n)
        var allSilent = true, pulledAny = false
        while state.pointee.held < needed {
            let chunk = min(needed - state.pointee.held, Int(maxFramesPerSlice))
            let list = pullLists[channels - 1]
            for c in 0..<channels {
                list[c] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(chunk * 4),
                                      mData: UnsafeMutableRawPointer(state.pointee.source + c * sourceCapacity + state.pointee.held))
            }
            var time = AudioTimeStamp()
            time.mSampleTime = state.pointee.sampleTime
            time.mFlags = .sampleTimeValid
            var pullFlags: AudioUnitRenderActionFlags = []
            let (status, abl) = input.pull(flags: &pullFlags, timeStamp: &time, bus: UInt32(i), frames: UInt32(chunk), into: list.unsafeMutablePointer)
            guard status == noErr else { return status }
            let pulled = UnsafeMutableAudioBufferListPointer(abl)
            for c in 0..<channels {
                let destination = state.pointee.source + c * sourceCapacity + state.pointee.held
                // A unit source may hand back its own buffers (zero copy); take the samples from there.
                if let p = pulled[min(c, pulled.count - 1)].mData, p != UnsafeMutableRawPointer(destination) {
                    destination.update(from: p.assumingMemoryBound(to: Float.self), count: chunk)
                }
            }
            if !pullFlags.contains(.unitRenderAction_OutputIsSilence) { allSilent = false }
            pulledAny = true
            state.pointee.held += chunk
            state.pointee.sampleTime += Double(chunk)
        }
        // Silent only if every pull of this slice said so (held samples from earlier slices may not be).
        if pulledAny && allSilent { flags.insert(.unitRenderAction_OutputIsSilence) }
        var next = 0.0
        for c in 0..<channels {
            next = VariableRateKernels.read(state.pointee.source + c * sourceCapacity, into: c == 0 ? into.0 : into.1, count: n,
                                            position: state.pointee.position, step: step)
        }
        // Keep the window from one frame before the next read position.
        let base = min(Int(next) - 1, state.pointee.held)
        let kept = state.pointee.held - base
        for c in 0..<channels where base > 0 {
            let p = state.pointee.source + c * sourceCapacity
            p.update(from: p + base, count: kept)
        }
        state.pointee.held = kept
        state.pointee.position = next - Double(base)
        return noErr
    }

    /// The spherical-head ear signals of a mono slice: delay line and head-shadow filter per ear, both moving
    /// linearly across the slice from the previous slice's position to this one's.
    private func spatializeSphericalHead(_ i: Int, _ signal: UnsafeMutablePointer<Float>, frames n: Int, azimuth: Float, elevation: Float,
                                         sampleRate: Double, interauralDelay: Bool,
                                         into ears: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>)) {
        let state = states! + i
        let head = SpatialKernels.SphericalHead(azimuth: azimuth, elevation: elevation, sampleRate: sampleRate)
        let current = state.pointee.history + historyLength
        current.update(from: signal, count: n)
        let (dL, dR) = interauralDelay ? (head.leftDelay, head.rightDelay) : (0, 0)
        if !state.pointee.started { state.pointee.delayLeft = dL; state.pointee.delayRight = dR; state.pointee.head = head }
        SpatialKernels.delayRead(current, into: ears.0, count: n, from: state.pointee.delayLeft, to: dL)
        SpatialKernels.delayRead(current, into: ears.1, count: n, from: state.pointee.delayRight, to: dR)
        state.pointee.delayLeft = dL
        state.pointee.delayRight = dR
        let previous = state.pointee.head
        (state.pointee.shadowLeft, state.pointee.shadowRight) = SpatialKernels.shadow(
            left: ears.0, right: ears.1, count: n, from: previous, to: head, state: (state.pointee.shadowLeft, state.pointee.shadowRight))
        state.pointee.head = head
        // Keep the newest historyLength samples for the next slice.
        let h = state.pointee.history
        h.update(from: h + n, count: historyLength)
    }

    /// Meters of one channel: average power (RMS) and peak before and after `gain`, in dB.
    private func storeMeters(_ scope: AudioUnitScope, _ element: AudioUnitElement, channel: Int, _ samples: UnsafePointer<Float>,
                             frames n: Int, gain: Float) {
        let buffer = UnsafeBufferPointer(start: samples, count: n)
        storeMeterParameters(preAverage: k3DMixerParam_PreAveragePower, prePeak: k3DMixerParam_PrePeakHoldLevel,
                             postAverage: k3DMixerParam_PostAveragePower, postPeak: k3DMixerParam_PostPeakHoldLevel,
                             scope, element, channel: channel, rms: Float(SignalMeasurement.rms(buffer)),
                             peak: SignalMeasurement.peak(buffer), gain: gain)
    }
}
