import AudioToolbox

/// The render callback of every mixer input: the context's voice on that bus, or silence.
private let alRenderVoice: AURenderCallback = { refCon, _, _, bus, frames, data in
    guard let data else { return noErr }
    let context = Unmanaged<ALContext>.fromOpaque(refCon).takeUnretainedValue()
    context.renderVoice(bus: Int(bus), frames: Int(frames), data)
    return noErr
}

/// An ALC context: sources, listener and world settings, rendered by one AUSpatialMixer (one input per
/// source, mono buffers spatialised with equal-power panning, stereo ones passed through) into the device's
/// default output unit, or into an AUGenericOutput that alcRenderSamplesSOFT pulls for a loopback device.
/// OpenAL's gain (distance model, cone, source and listener gain, min/max clamps) is computed here and set
/// as the input's Gain; the mixer's own distance attenuation stays off (its Distance parameter stays 0).
/// Pitch, Doppler and the buffer-to-context rate ratio go into PlaybackRate, which the mixer clamps to 0.5...2.
final class ALContext {
    /// Sources per context unless ALC_MONO_SOURCES + ALC_STEREO_SOURCES ask for more (up to `maxBusCount`).
    static let defaultBusCount = 64
    static let maxBusCount = 1024
    static let maxSlice = 4096

    /// The mixer's inputs: one per source that can play at once.
    let busCount: Int
    /// ALC_HRTF_SOFT as asked at creation or by alcResetDeviceSOFT: ALC_TRUE, ALC_FALSE or ALC_DONT_CARE_SOFT
    /// (then Apple's rendering quality decides).
    var hrtfRequest: ALCint = ALC_DONT_CARE_SOFT

    let device: ALDevice
    let frequency: Double
    var error: ALenum = AL_NO_ERROR
    var sources: [ALuint: ALSource] = [:]
    var nextSourceID: ALuint = 1
    /// bus -> source; changed under the render lock, read by the render callbacks under tryLock.
    var voices: [ALSource?]
    var listenerPosition = SIMD3<Float>(0, 0, 0)
    var listenerVelocity = SIMD3<Float>(0, 0, 0)
    var listenerAt = SIMD3<Float>(0, 0, -1)
    var listenerUp = SIMD3<Float>(0, 1, 0)
    var listenerGain: Float = 1
    var distanceModel: ALenum = AL_INVERSE_DISTANCE_CLAMPED
    var dopplerFactor: Float = 1
    var dopplerVelocity: Float = 1
    var speedOfSound: Float = 343.3

    /// A loopback device rendering one channel.
    var monoOutput: Bool { device.isLoopback && device.loopbackChannels == ALC_MONO_SOFT }
    private(set) var mixer: AudioUnit?

    /// Whether sources render with HRTF: asked for with ALC_HRTF_SOFT, or left to Apple's rendering quality (HIGH and
    /// HEADPHONES: HRTF; LOW: equal-power panning). A mono loopback device has no ears to render for.
    var usesHRTF: Bool {
        if monoOutput { return false }
        switch hrtfRequest {
        case ALC_TRUE: return true
        case ALC_FALSE: return false
        default:
            let quality = ALState.shared.renderingQuality
            return quality == ALC_MAC_OSX_SPATIAL_RENDERING_QUALITY_HIGH || quality == ALC_IPHONE_SPATIAL_RENDERING_QUALITY_HEADPHONES
        }
    }

    /// ALC_HRTF_STATUS_SOFT.
    var hrtfStatus: ALCint {
        if monoOutput && hrtfRequest == ALC_TRUE { return ALC_HRTF_UNSUPPORTED_FORMAT_SOFT }
        return usesHRTF ? ALC_HRTF_ENABLED_SOFT : ALC_HRTF_DISABLED_SOFT
    }

    /// Sets every input's 3D mixer algorithm: HRTF (the spherical head where no SOFA data is installed) or equal-power
    /// panning. `hrtf` is `usesHRTF` read under the API lock.
    func applyAlgorithm(hrtf: Bool) {
        guard let mixer else { return }
        for bus in 0..<UInt32(busCount) {
            var algorithm = (hrtf ? AUSpatializationAlgorithm.spatializationAlgorithm_HRTF : .spatializationAlgorithm_EqualPowerPanning).rawValue
            if AudioUnitSetProperty(mixer, kAudioUnitProperty_SpatializationAlgorithm, kAudioUnitScope_Input, bus, &algorithm, 4) != noErr {
                algorithm = AUSpatializationAlgorithm.spatializationAlgorithm_SphericalHead.rawValue
                AudioUnitSetProperty(mixer, kAudioUnitProperty_SpatializationAlgorithm, kAudioUnitScope_Input, bus, &algorithm, 4)
            }
        }
    }
    private(set) var output: AudioUnit?
    /// Loopback scratch (2 non-interleaved channels of maxSlice frames) and the running sample time.
    private var scratch: UnsafeMutablePointer<Float>?
    private var scratchList: UnsafeMutableAudioBufferListPointer?
    private var sampleTime = 0.0

    var handle: OpaquePointer { OpaquePointer(Unmanaged.passUnretained(self).toOpaque()) }

    init(device: ALDevice, frequency: Double, busCount: Int = ALContext.defaultBusCount, hrtfRequest: ALCint = ALC_DONT_CARE_SOFT) {
        self.device = device
        self.frequency = frequency
        self.busCount = busCount
        self.hrtfRequest = hrtfRequest
        voices = Array(repeating: nil, count: busCount)
    }

    /// Sets the AL error unless one is pending (the spec keeps the first error until alGetError).
    func setError(_ e: ALenum) { if error == AL_NO_ERROR { error = e } }

    // MARK: Graph

    /// Builds and starts mixer -> output; false if a unit cannot be made or started.
    func start() -> Bool {
        func make(_ type: OSType, _ subType: OSType) -> AudioUnit? {
            var d = AudioComponentDescription(componentType: type, componentSubType: subType, componentManufacturer: kAudioUnitManufacturer_Apple,
                                              componentFlags: 0, componentFlagsMask: 0)
            guard let component = AudioComponentFindNext(nil, &d) else { return nil }
            var unit: AudioUnit?
            guard AudioComponentInstanceNew(component, &unit) == noErr else { return nil }
            return unit
        }
        guard let mixer = make(kAudioUnitType_Mixer, kAudioUnitSubType_SpatialMixer),
              let output = make(kAudioUnitType_Output, device.isLoopback ? kAudioUnitSubType_GenericOutput : kAudioUnitSubType_DefaultOutput)
        else { return false }
        self.mixer = mixer
        self.output = output
        let floatSize = UInt32(MemoryLayout<Float>.size)
        var format = AudioStreamBasicDescription(mSampleRate: frequency, mFormatID: kAudioFormatLinearPCM,
                                                 mFormatFlags: kAudioFormatFlagsNativeFloatPacked | kAudioFormatFlagIsNonInterleaved,
                                                 mBytesPerPacket: floatSize, mFramesPerPacket: 1, mBytesPerFrame: floatSize,
                                                 mChannelsPerFrame: 2, mBitsPerChannel: 32, mReserved: 0)
        let formatSize = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        var maxFrames = UInt32(Self.maxSlice)
        var count = UInt32(busCount)
        var status = AudioUnitSetProperty(mixer, kAudioUnitProperty_ElementCount, kAudioUnitScope_Input, 0, &count, 4)
        status |= AudioUnitSetProperty(mixer, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &maxFrames, 4)
        status |= AudioUnitSetProperty(output, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &maxFrames, 4)
        status |= AudioUnitSetProperty(mixer, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &format, formatSize)
        let refCon = Unmanaged.passUnretained(self).toOpaque()
        for bus in 0..<UInt32(busCount) {
            status |= AudioUnitSetProperty(mixer, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, bus, &format, formatSize)
            var callback = AURenderCallbackStruct(inputProc: alRenderVoice, inputProcRefCon: refCon)
            status |= AudioUnitSetProperty(mixer, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, bus, &callback,
                                           UInt32(MemoryLayout<AURenderCallbackStruct>.size))
            var mode = AUSpatialMixerSourceMode.spatialMixerSourceMode_PointSource.rawValue
            status |= AudioUnitSetProperty(mixer, kAudioUnitProperty_SpatialMixerSourceMode, kAudioUnitScope_Input, bus, &mode, 4)
            status |= AudioUnitSetParameter(mixer, kSpatialMixerParam_Enable, kAudioUnitScope_Input, bus, 0, 0)
        }
        applyAlgorithm(hrtf: usesHRTF)
        status |= AudioUnitSetProperty(output, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &format, formatSize)
        if device.isLoopback {
            // A generic output does not convert: both its sides run at the context's rate.
            status |= AudioUnitSetProperty(output, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &format, formatSize)
        }
        var connection = AudioUnitConnection(sourceAudioUnit: mixer, sourceOutputNumber: 0, destInputNumber: 0)
        status |= AudioUnitSetProperty(output, kAudioUnitProperty_MakeConnection, kAudioUnitScope_Input, 0, &connection,
                                       UInt32(MemoryLayout<AudioUnitConnection>.size))
        status |= AudioUnitInitialize(mixer)
        status |= AudioUnitInitialize(output)
        if device.isLoopback {
            scratch = .allocate(capacity: 2 * Self.maxSlice)
            scratchList = AudioBufferList.allocate(maximumBuffers: 2)
        } else if status == noErr {
            status = AudioOutputUnitStart(output)
        }
        return status == noErr
    }

    /// Stops and disposes the units (after this no render callback runs for this context).
    func stop() {
        if let output {
            if !device.isLoopback { _ = AudioOutputUnitStop(output) }
            _ = AudioUnitUninitialize(output)
            _ = AudioComponentInstanceDispose(output)
        }
        if let mixer {
            _ = AudioUnitUninitialize(mixer)
            _ = AudioComponentInstanceDispose(mixer)
        }
        output = nil
        mixer = nil
        scratch?.deallocate()
        scratch = nil
        if let scratchList { free(scratchList.unsafeMutablePointer) }
        scratchList = nil
    }

    // MARK: Parameters

    /// Pushes every source's gain, direction and rate to the mixer (after a listener or world change).
    func updateAll() { for s in sources.values { update(s) } }

    /// Computes `s`'s OpenAL gain, direction and rate and sets them on its mixer input.
    func update(_ s: ALSource) {
        guard let mixer else { return }
        let position = SIMD3<Double>(s.position), listener = SIMD3<Double>(listenerPosition)
        let v = s.relative ? position : position - listener
        let distance = (v * v).sum().squareRoot()
        var gain = ALSpatialMath.distanceGain(model: distanceModel, distance: distance, reference: Double(s.referenceDistance),
                                              rolloff: Double(s.rolloff), maxDistance: Double(s.maxDistance))
        gain *= ALSpatialMath.coneGain(direction: SIMD3<Double>(s.direction), toListener: -v, inner: Double(s.coneInner),
                                       outer: Double(s.coneOuter), outerGain: Double(s.coneOuterGain))
        gain *= Double(s.gain)
        gain = min(max(gain, Double(s.minGain)), Double(s.maxGain))
        gain *= Double(listenerGain)
        // A relative source is in the listener's own frame (front -Z, up +Y); otherwise the listener's orientation turns it.
        let (azimuth, elevation) = s.relative
            ? ALSpatialMath.direction(of: v, at: SIMD3(0, 0, -1), up: SIMD3(0, 1, 0))
            : ALSpatialMath.direction(of: v, at: SIMD3<Double>(listenerAt), up: SIMD3<Double>(listenerUp))
        let velocityScale = Double(dopplerVelocity)
        let doppler = ALSpatialMath.doppler(sourceToListener: -v, sourceVelocity: SIMD3<Double>(s.velocity),
                                            listenerVelocity: s.relative ? SIMD3(0, 0, 0) : SIMD3<Double>(listenerVelocity),
                                            factor: Double(dopplerFactor), speedOfSound: Double(speedOfSound) * velocityScale)
        let bufferRate = Double(s.firstBuffer?.frequency ?? Int(frequency))
        let rate = min(max(Double(s.pitch) * doppler * bufferRate / frequency, 0.5), 2)
        let dB = gain > 1e-6 ? min(max(20 * log10(gain), -120), 20) : -120
        let bus = UInt32(s.bus)
        _ = AudioUnitSetParameter(mixer, kSpatialMixerParam_Gain, kAudioUnitScope_Input, bus, Float(dB), 0)
        _ = AudioUnitSetParameter(mixer, kSpatialMixerParam_Azimuth, kAudioUnitScope_Input, bus, Float(azimuth), 0)
        _ = AudioUnitSetParameter(mixer, kSpatialMixerParam_Elevation, kAudioUnitScope_Input, bus, Float(elevation), 0)
        _ = AudioUnitSetParameter(mixer, kSpatialMixerParam_PlaybackRate, kAudioUnitScope_Input, bus, Float(rate), 0)
        _ = AudioUnitSetParameter(mixer, kSpatialMixerParam_Enable, kAudioUnitScope_Input, bus, s.audible ? 1 : 0, 0)
        // A mono loopback device does not pan: every source passes through (and the two sides are averaged).
        let stereo = s.firstBuffer?.channels == 2 || monoOutput
        if stereo != s.stereoMode {
            s.stereoMode = stereo
            var mode = (stereo ? AUSpatialMixerSourceMode.spatialMixerSourceMode_Bypass : .spatialMixerSourceMode_PointSource).rawValue
            _ = AudioUnitSetProperty(mixer, kAudioUnitProperty_SpatialMixerSourceMode, kAudioUnitScope_Input, bus, &mode, 4)
        }
    }

    // MARK: Render

    /// One mixer input's slice: the source's queued samples from its cursor (advancing it, looping or
    /// stopping at the end), or silence if the source is not playing or an AL call holds the lock.
    /// Runs on the render thread: takes no lock it would wait for and allocates nothing.
    func renderVoice(bus: Int, frames: Int, _ data: UnsafeMutablePointer<AudioBufferList>) {
        let list = UnsafeMutableAudioBufferListPointer(data)
        guard let l = list[0].mData?.assumingMemoryBound(to: Float.self) else { return }
        let r = list.count > 1 ? (list[1].mData?.assumingMemoryBound(to: Float.self) ?? l) : l
        var k = 0
        if ALState.shared.tryLock() {
            if bus < voices.count, let s = voices[bus], s.state == AL_PLAYING {
                var hasFrames = false
                // An index loop: for-in over the array allocates its iterator in unoptimised builds.
                var i = 0
                while i < s.queue.count && !hasFrames { hasFrames = s.queue[i].frames > 0; i += 1 }
                if !hasFrames { s.state = AL_STOPPED; s.current = s.queue.count; s.cursor = 0 }
                while k < frames && s.state == AL_PLAYING {
                    if s.current >= s.queue.count {
                        if s.looping { s.current = 0; s.cursor = 0 } else { s.state = AL_STOPPED; s.cursor = 0; break }
                    }
                    let b = s.queue[s.current]
                    let n = min(b.frames - s.cursor, frames - k)
                    if n > 0 {
                        // Only constants are captured: a captured `var` is boxed on the heap in unoptimised builds.
                        let out = k, from = s.cursor, channels = b.channels
                        b.samples.withUnsafeBufferPointer { p in
                            if channels == 1 {
                                for j in 0..<n { let x = p[from + j]; l[out + j] = x; r[out + j] = x }
                            } else {
                                for j in 0..<n { l[out + j] = p[2 * (from + j)]; r[out + j] = p[2 * (from + j) + 1] }
                            }
                        }
                        k += n
                        s.cursor += n
                    }
                    if s.cursor >= b.frames {
                        // Wrap or stop at once, so that offsets and states read between slices are exact.
                        s.current += 1
                        s.cursor = 0
                        if s.current >= s.queue.count {
                            if s.looping { s.current = 0 } else { s.state = AL_STOPPED }
                        }
                    }
                }
                s.publish()
            }
            ALState.shared.unlock()
        }
        if k < frames {
            (l + k).update(repeating: 0, count: frames - k)
            if r != l { (r + k).update(repeating: 0, count: frames - k) }
        }
    }

    /// Renders `frames` frames of the loopback device's mix into `buffer` in the device's format
    /// (interleaved). Called without ALState's lock held (the render callbacks take it).
    func renderLoopback(into buffer: UnsafeMutableRawPointer, frames: Int, channels: Int, type: ALCenum) {
        guard let output, let scratch, let scratchList else { return }
        var done = 0
        while done < frames {
            let n = min(Self.maxSlice, frames - done)
            for c in 0..<2 {
                scratchList[c] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(n * 4),
                                             mData: UnsafeMutableRawPointer(scratch + c * Self.maxSlice))
            }
            var time = AudioTimeStamp()
            time.mSampleTime = sampleTime
            time.mFlags = .sampleTimeValid
            var flags: AudioUnitRenderActionFlags = []
            if AudioUnitRender(output, &flags, &time, 0, UInt32(n), scratchList.unsafeMutablePointer) != noErr {
                scratch.update(repeating: 0, count: 2 * Self.maxSlice)
            }
            sampleTime += Double(n)
            let left = UnsafePointer(scratch), right = UnsafePointer(scratch + Self.maxSlice)
            for i in 0..<n {
                let values: (Float, Float) = channels == 1 ? ((left[i] + right[i]) * 0.5, 0) : (left[i], right[i])
                for c in 0..<channels {
                    let x = c == 0 ? values.0 : values.1
                    let index = (done + i) * channels + c
                    let clamped = max(-1, min(1, x))
                    switch type {
                    case ALC_FLOAT_SOFT: buffer.storeBytes(of: x, toByteOffset: 4 * index, as: Float.self)
                    case ALC_SHORT_SOFT: buffer.storeBytes(of: Int16(clamped * 32767), toByteOffset: 2 * index, as: Int16.self)
                    case ALC_UNSIGNED_SHORT_SOFT: buffer.storeBytes(of: UInt16(clamped * 32767 + 32768), toByteOffset: 2 * index, as: UInt16.self)
                    case ALC_INT_SOFT: buffer.storeBytes(of: Int32(Double(clamped) * 2147483647), toByteOffset: 4 * index, as: Int32.self)
                    case ALC_UNSIGNED_INT_SOFT:
                        buffer.storeBytes(of: UInt32(Double(clamped) * 2147483647 + 2147483648), toByteOffset: 4 * index, as: UInt32.self)
                    case ALC_BYTE_SOFT: buffer.storeBytes(of: Int8(clamped * 127), toByteOffset: index, as: Int8.self)
                    default: buffer.storeBytes(of: UInt8(clamped * 127 + 128), toByteOffset: index, as: UInt8.self)
                    }
                }
            }
            done += n
        }
    }
}
