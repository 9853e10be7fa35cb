import AudioDSP
import CoreAudio
import COCASupport
import Synchronization

/// The I/O units, all one implementation with Apple's bus layout: element 0 goes to the device's output
/// (the app supplies it on input scope 0), element 1 comes from the device's input (the app reads it from
/// output scope 1, with AudioUnitRender on bus 1). The device-facing formats (output scope 0, input scope 1)
/// are the device's and read-only; the client formats are settable and converted inside the unit, sample rate
/// included (an AUConverter pulling the client on the output path; a streaming resampler on the input path). The device's IO thread drives everything: each cycle it
/// holds the captured input, calls the input callback (ioData NULL), then renders bus 0 into the device.
/// - AUHAL (`'auou' 'ahal'`): any device (CurrentDevice), output on and input off by default.
/// - DefaultOutput (`'auou' 'def '`) and SystemOutput (`'auou' 'sys '`): the default output device, output only.
/// - RemoteIO (`'auou' 'rioc'`): the default device, input off by default; duplex when enabled.
/// - AUVoiceProcessingIO (`'auou' 'vpio'`): RemoteIO with input on and voice processing on the input path.
class AUHALOutput: AUOutputBase, @unchecked Sendable {
    enum Kind { case hal, defaultOutput, systemOutput, remoteIO, voiceProcessing }

    static func description(_ subType: UInt32) -> AudioComponentDescription {
        AudioComponentDescription(componentType: kAudioUnitType_Output, componentSubType: subType,
                                  componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
    }

    let kind: Kind
    private(set) var device: AudioDeviceID = kAudioObjectUnknown
    private var enableOutput = true
    private var enableInput: Bool
    private var inputCallback: AURenderCallbackStruct?
    private var startTimestampsAtZero: UInt32 = 1
    /// kAudioOutputUnitProperty_StartTime: where the next Start (only the next) begins, through AudioDeviceStartAtTime.
    private var pendingStartTime: AudioOutputUnitStartAtTimeParams?
    private var ioProcID: AudioDeviceIOProcID?
    private var aliveListener: AudioObjectPropertyListenerBlock?
    private var clientOutputFormatSet = false, clientInputFormatSet = false

    /// Converters inside the unit: an AUConverter when the output path changes sample rate (it pulls the
    /// client as much as it needs), else an AudioConverter frame for frame; nil when the formats are equal.
    private var outputConverter: AudioUnit?
    /// Held as objects, not handles: the IO thread converts through them with no handle lookup (which locks).
    private var outputFormatConverter: AudioConverterObject?
    private var inputFormatConverter: AudioConverterObject?
    /// Input sample-rate conversion (client input rate ≠ device rate): the held period, de-interleaved,
    /// resampled into planar buffers at the client's rate (IO thread only; sized at initialize). These buffers,
    /// `held` and `heldList` are the unit's render memory: taken when it initializes with input on, freed by AUBase
    /// when it uninitializes (after cleanupUnit has stopped the device, waited for a cycle still inside the unit and
    /// cleared the pointers). They are built at initialize only: CurrentDevice cannot change while initialized.
    private var inputResampler: VariableRateResampler?
    private var planarIn: UnsafeMutablePointer<Float>?, resampled: UnsafeMutablePointer<Float>?
    private var planarInPointers: UnsafeMutablePointer<UnsafePointer<Float>>?
    private var resampledPointers: UnsafeMutablePointer<UnsafeMutablePointer<Float>>?
    private var resampledCapacity = 0, resampledFrames = 0
    private var clientInputFrames = 0.0
    /// The device input of the current cycle, in the device's format (IO thread only), and the list that lends it
    /// (or its resampled form) to the input converter.
    private var held: UnsafeMutablePointer<Float>?
    private var heldList: UnsafeMutableAudioBufferListPointer?
    private var heldCapacity = 0
    private var heldFrames = 0
    private var heldRead = 0
    /// StartTimestampsAtZero: the first input and output sample times, subtracted from later ones.
    private var inputOrigin = Double.nan, outputOrigin = Double.nan
    /// The device thread's way into `ioCycle`: AudioDeviceStop returns while that thread may still be inside this
    /// unit's IOProc (when another IOProc keeps the device running, it finishes the cycle it began), so cleanupUnit
    /// closes `cyclesOpen` and waits for `cyclesInside` to fall before the buffers and converters go. A cycle
    /// enters first, then looks at the door: either it sees the door closed or cleanupUnit sees it inside.
    private let cyclesOpen = Atomic<Bool>(false)
    private let cyclesInside = Atomic<Int>(0)
    /// The thread of the cycle inside (a cleanupUnit called from that cycle's callbacks waits for the others only).
    private let cycleThread = Atomic<UInt>(0)

    init(component: AudioComponentEntry, kind: Kind) {
        self.kind = kind
        enableInput = kind == .voiceProcessing
        super.init(component: component, inputs: 2, outputs: 2)
        maxFramesPerSlice = 4096
        defineParameter(kHALOutputParam_Volume, scope: kAudioUnitScope_Global, element: 0,
                        .oca("Volume", unit: .linearGain, min: 0, max: 1, default: 1))
        selectDevice(defaultDevice(input: false))
    }

    deinit {
        _ = stop()
        disposeConverters()
    }

    var allowsInput: Bool { kind != .defaultOutput && kind != .systemOutput }

    private func defaultDevice(input: Bool) -> AudioDeviceID { HALDeviceQuery.defaultDevice(input: input) }

    /// The device's stream format in one direction, or nil if it has no such stream.
    private func deviceFormat(input: Bool) -> AudioStreamBasicDescription? { HALDeviceQuery.streamFormat(device, input: input) }

    /// Makes `id` the unit's device and takes its formats for the device-facing sides (and, until the
    /// host sets its own, the client sides: canonical Float32 with the device's rate and channels).
    private func selectDevice(_ id: AudioDeviceID) {
        device = id
        if let out = deviceFormat(input: false) {
            outputs[0].format = out
            if !clientOutputFormatSet { inputs[0].format = OCAFormat.canonical(sampleRate: out.mSampleRate, channels: out.mChannelsPerFrame) }
        }
        if let input = deviceFormat(input: true) {
            inputs[1].format = input
            if !clientInputFormatSet { outputs[1].format = OCAFormat.canonical(sampleRate: input.mSampleRate, channels: input.mChannelsPerFrame) }
        }
    }

    // MARK: Formats

    override func isValidFormat(_ scope: AudioUnitScope, _ element: AudioUnitElement, _ f: AudioStreamBasicDescription) -> Bool {
        AUFormatRules.isConsistentLinearPCM(f)
    }

    override func isStreamFormatWritable(_ scope: AudioUnitScope, _ element: AudioUnitElement) -> Bool {
        // The device-facing sides are the device's.
        if (scope == kAudioUnitScope_Output && element == 0) || (scope == kAudioUnitScope_Input && element == 1) { return false }
        return !isInitialized
    }

    override func streamFormatChanged(_ scope: AudioUnitScope, _ element: AudioUnitElement) {
        if scope == kAudioUnitScope_Input && element == 0 { clientOutputFormatSet = true }
        if scope == kAudioUnitScope_Output && element == 1 { clientInputFormatSet = true }
    }

    // MARK: Properties

    override class var propertyRows: [AUProperty] {
        /// EnableIO and HasIO exist on output scope element 0 and input scope element 1 only.
        let ioSide: AUProperty.Place = { _, scope, element in
            switch (scope, element) {
            case (kAudioUnitScope_Output, 0), (kAudioUnitScope_Input, 1): noErr
            case (kAudioUnitScope_Output, _), (kAudioUnitScope_Input, _): kAudioUnitErr_InvalidElement
            default: kAudioUnitErr_InvalidScope
            }
        }
        return super.propertyRows + [
            .value(kAudioOutputUnitProperty_CurrentDevice, AudioDeviceID.self, of: AUHALOutput.self, place: AUProperty.globalScope,
                   writable: .when { unit, _, _ in (unit as! AUHALOutput).kind == .hal },
                   get: { unit, _, _ in unit.device },
                   set: { unit, _, _, id in
                       guard unit.kind == .hal else { return kAudioUnitErr_PropertyNotWritable }
                       guard !unit.isInitialized else { return kAudioUnitErr_Initialized }
                       var address = AudioObjectPropertyAddress(mSelector: kAudioDevicePropertyDeviceIsAlive,
                                                                mScope: kAudioObjectPropertyScopeGlobal, mElement: kAudioObjectPropertyElementMain)
                       guard AudioObjectHasProperty(id, &address) else { return kAudioUnitErr_InvalidPropertyValue }
                       unit.selectDevice(id)
                       unit.propertyChanged(kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0)
                       unit.propertyChanged(kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 1)
                       return noErr
                   }),
            .flag(kAudioOutputUnitProperty_EnableIO, of: AUHALOutput.self, place: ioSide, writable: .uninitializedOnly,
                  get: { unit, scope, _ in scope == kAudioUnitScope_Output ? unit.enableOutput : unit.enableInput },
                  set: { unit, scope, _, on in
                      if scope == kAudioUnitScope_Output {
                          unit.enableOutput = on
                      } else {
                          guard unit.allowsInput || !on else { return kAudioUnitErr_InvalidPropertyValue }
                          unit.enableInput = on
                      }
                      return noErr
                  }),
            .flag(kAudioOutputUnitProperty_HasIO, of: AUHALOutput.self, place: ioSide,
                  get: { unit, scope, _ in
                      unit.deviceFormat(input: scope == kAudioUnitScope_Input) != nil && (scope == kAudioUnitScope_Output || unit.allowsInput)
                  }),
            .value(kAudioOutputUnitProperty_SetInputCallback, AURenderCallbackStruct.self, of: AUHALOutput.self,
                   place: AUProperty.when({ ($0 as! AUHALOutput).allowsInput }, AUProperty.globalScope), writable: .always,
                   get: { unit, _, _ in unit.inputCallback ?? AURenderCallbackStruct(inputProc: nil, inputProcRefCon: nil) },
                   set: { unit, _, _, cb in
                       unit.inputCallback = cb.inputProc == nil ? nil : cb
                       return noErr
                   }),
            // Write-only, as Apple's: the next Start begins at this time (AudioDeviceStartAtTime with the params' flags).
            AUProperty(kAudioOutputUnitProperty_StartTime, place: AUProperty.globalScope, writable: .always,
                       size: { _, _, _ in UInt32(MemoryLayout<AudioOutputUnitStartAtTimeParams>.size) },
                       setSize: UInt32(MemoryLayout<AudioOutputUnitStartAtTimeParams>.size),
                       read: { _, _, _, _ in kAudioUnitErr_InvalidProperty },
                       write: { unit, _, _, data in
                           unsafeDowncast(unit, to: AUHALOutput.self).pendingStartTime = data.loadUnaligned(as: AudioOutputUnitStartAtTimeParams.self)
                           return noErr
                       }),
            .value(kAudioOutputUnitProperty_StartTimestampsAtZero, UInt32.self, of: AUHALOutput.self, place: AUProperty.globalScope,
                   writable: .always,
                   get: { unit, _, _ in unit.startTimestampsAtZero },
                   set: { unit, _, _, v in unit.startTimestampsAtZero = v; return noErr }),
        ]
    }

    // MARK: Lifecycle

    override func initializeUnit() -> OSStatus {
        let status = prepareIO()
        // A failed initialize: AUBase frees the render memory just taken, so no pointer into it is kept.
        if status != noErr { forgetBuffers() }
        return status
    }

    /// The converters and buffers the device's formats need, then AUVoiceProcessingIO's processing.
    private func prepareIO() -> OSStatus {
        guard enableOutput || enableInput else { return kAudioUnitErr_InvalidPropertyValue }
        // Input only on a device without input: an input unit takes the default input device.
        if enableInput && !enableOutput && deviceFormat(input: true) == nil && kind != .hal { selectDevice(defaultDevice(input: true)) }
        if enableOutput && deviceFormat(input: false) == nil { return kAudioUnitErr_NoConnection }
        if enableInput && deviceFormat(input: true) == nil { return kAudioUnitErr_NoConnection }
        disposeConverters()
        forgetBuffers()
        if enableOutput && !inputs[0].format.isBitwiseEqual(to: outputs[0].format) {
            if inputs[0].format.mSampleRate != outputs[0].format.mSampleRate {
                guard let c = makeConverter(from: inputs[0].format, to: outputs[0].format, pull: Self.pullClientOutput) else {
                    return kAudioUnitErr_FormatNotSupported
                }
                outputConverter = c
            } else {
                guard case .success(let c) = AudioConverterObject.make(input: inputs[0].format, output: outputs[0].format) else {
                    return kAudioUnitErr_FormatNotSupported
                }
                outputFormatConverter = c
            }
        }
        if enableInput {
            let deviceChannels = Int(inputs[1].format.mChannelsPerFrame)
            // What the held input is in when the app reads it: the device's format, or after resampling,
            // planar Float32 with the device's channels at the client's rate.
            var source = inputs[1].format
            if outputs[1].format.mSampleRate != inputs[1].format.mSampleRate {
                let step = inputs[1].format.mSampleRate / outputs[1].format.mSampleRate
                let r = VariableRateResampler(channels: deviceChannels, maximumStep: max(step, 1 / step), quality: .medium)
                r.step = step
                inputResampler = r
                let maxFrames = Int(maxFramesPerSlice)
                resampledCapacity = Int((Double(maxFrames) / step).rounded(.up)) + 64
                planarIn = renderMemory.take(Float.self, count: deviceChannels * maxFrames)
                resampled = renderMemory.take(Float.self, count: deviceChannels * resampledCapacity)
                planarInPointers = renderMemory.take(UnsafePointer<Float>.self, count: deviceChannels)
                resampledPointers = renderMemory.take(UnsafeMutablePointer<Float>.self, count: deviceChannels)
                for c in 0..<deviceChannels {
                    planarInPointers![c] = UnsafePointer(planarIn! + c * maxFrames)
                    resampledPointers![c] = resampled! + c * resampledCapacity
                }
                source = OCAFormat.canonical(sampleRate: outputs[1].format.mSampleRate, channels: UInt32(deviceChannels))
            }
            heldList = renderMemory.takeBufferList(buffers: deviceChannels)
            if inputResampler != nil || !source.isBitwiseEqual(to: outputs[1].format) {
                guard case .success(let c) = AudioConverterObject.make(input: source, output: outputs[1].format) else {
                    return kAudioUnitErr_FormatNotSupported
                }
                inputFormatConverter = c
            }
            heldCapacity = Int(maxFramesPerSlice) * Int(inputs[1].format.mChannelsPerFrame)
            held = renderMemory.take(Float.self, count: heldCapacity, repeating: 0)
        }
        let status = voiceProcessingInitialize()
        if status == noErr { cyclesOpen.store(true, ordering: .sequentiallyConsistent) }
        return status
    }

    /// AUVoiceProcessingIO's hook: sets up its processing once formats are known.
    func voiceProcessingInitialize() -> OSStatus { noErr }

    override func cleanupUnit() {
        _ = stop()
        waitForCyclesToLeave()
        disposeConverters()
        forgetBuffers()
    }

    /// Closes the way into `ioCycle` and waits until no cycle is inside, except the caller's own (a callback of
    /// the cycle uninitializing the unit: after its callbacks return, that cycle touches no buffer of the unit).
    private func waitForCyclesToLeave() {
        cyclesOpen.store(false, ordering: .sequentiallyConsistent)
        let own = cycleThread.load(ordering: .sequentiallyConsistent) == UInt(pthread_self()) ? 1 : 0
        while cyclesInside.load(ordering: .sequentiallyConsistent) > own { usleep(100) }
    }

    private func makeConverter(from source: AudioStreamBasicDescription, to destination: AudioStreamBasicDescription,
                               pull: AURenderCallback) -> AudioUnit? {
        var description = AUConverter.description
        guard let component = AudioComponentFindNext(nil, &description) else { return nil }
        var unit: AudioUnit?
        guard AudioComponentInstanceNew(component, &unit) == noErr, let unit else { return nil }
        var from = source, to = destination, frames = maxFramesPerSlice
        let size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        var callback = AURenderCallbackStruct(inputProc: pull, inputProcRefCon: Unmanaged.passUnretained(self).toOpaque())
        guard AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &from, size) == noErr,
              AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 0, &to, size) == noErr,
              AudioUnitSetProperty(unit, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &frames, 4) == noErr,
              AudioUnitSetProperty(unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &callback,
                                   UInt32(MemoryLayout<AURenderCallbackStruct>.size)) == noErr,
              AudioUnitInitialize(unit) == noErr else {
            AudioComponentInstanceDispose(unit)
            return nil
        }
        return unit
    }

    private func disposeConverters() {
        inputResampler = nil
        if let c = outputConverter { AudioComponentInstanceDispose(c) }
        outputConverter = nil
        outputFormatConverter = nil
        inputFormatConverter = nil
    }

    /// Clears the pointers into the render memory (AUBase frees it when the unit uninitializes).
    private func forgetBuffers() {
        planarIn = nil; resampled = nil; planarInPointers = nil; resampledPointers = nil
        held = nil; heldList = nil
    }

    override func start() -> OSStatus {
        guard isInitialized else { return kAudioUnitErr_Uninitialized }
        if running.load(ordering: .relaxed) { return noErr }
        var id: AudioDeviceIOProcID?
        var status = AudioDeviceCreateIOProcID(device, Self.ioProc, Unmanaged.passUnretained(self).toOpaque(), &id)
        guard status == noErr, let id else { return status }
        for (input, on) in [(true, enableInput), (false, enableOutput)] {
            var usage = AudioHardwareIOProcStreamUsage(mIOProc: unsafeBitCast(id, to: UnsafeMutableRawPointer.self), mNumberStreams: 1,
                                                       mStreamIsOn: (on ? 1 : 0))
            var address = AudioObjectPropertyAddress(mSelector: kAudioDevicePropertyIOProcStreamUsage,
                                                     mScope: input ? kAudioObjectPropertyScopeInput : kAudioObjectPropertyScopeOutput,
                                                     mElement: kAudioObjectPropertyElementMain)
            if AudioObjectHasProperty(device, &address) {
                _ = AudioObjectSetPropertyData(device, &address, 0, nil, UInt32(MemoryLayout<AudioHardwareIOProcStreamUsage>.size), &usage)
            }
        }
        inputOrigin = .nan
        outputOrigin = .nan
        clientInputFrames = 0
        if var params = pendingStartTime {
            // Apple's: the next Start only, as an output time (the params' flags without the input flag).
            pendingStartTime = nil
            status = AudioDeviceStartAtTime(device, id, &params.mTimestamp, params.mFlags & ~kAudioDeviceStartTimeIsInputFlag)
        } else {
            status = AudioDeviceStart(device, id)
        }
        guard status == noErr else {
            _ = AudioDeviceDestroyIOProcID(device, id)
            return status
        }
        ioProcID = id
        watchDevice()
        setRunning(true)
        return noErr
    }

    override func stop() -> OSStatus {
        guard let id = ioProcID else { return noErr }
        _ = AudioDeviceStop(device, id)
        _ = AudioDeviceDestroyIOProcID(device, id)
        ioProcID = nil
        unwatchDevice()
        setRunning(false)
        return noErr
    }

    /// When the device dies (unplugged, server gone), the unit stops and says why in LastRenderError.
    private func watchDevice() {
        var address = AudioObjectPropertyAddress(mSelector: kAudioDevicePropertyDeviceIsAlive, mScope: kAudioObjectPropertyScopeGlobal,
                                                 mElement: kAudioObjectPropertyElementMain)
        let box = UncheckedUnit(self)
        let listener: AudioObjectPropertyListenerBlock = { _, _ in
            guard let unit = box.unit else { return }
            var alive: UInt32 = 1
            var size: UInt32 = 4
            var a = AudioObjectPropertyAddress(mSelector: kAudioDevicePropertyDeviceIsAlive, mScope: kAudioObjectPropertyScopeGlobal,
                                               mElement: kAudioObjectPropertyElementMain)
            let status = AudioObjectGetPropertyData(unit.device, &a, 0, nil, &size, &alive)
            if status != noErr || alive == 0 {
                unit.lastRenderError.store(kAudioHardwareNotRunningError, ordering: .relaxed)
                _ = unit.stop()
            }
        }
        aliveListener = listener
        _ = AudioObjectAddPropertyListenerBlock(device, &address, nil, listener)
    }

    private func unwatchDevice() {
        guard let listener = aliveListener else { return }
        var address = AudioObjectPropertyAddress(mSelector: kAudioDevicePropertyDeviceIsAlive, mScope: kAudioObjectPropertyScopeGlobal,
                                                 mElement: kAudioObjectPropertyElementMain)
        _ = AudioObjectRemovePropertyListenerBlock(device, &address, nil, listener)
        aliveListener = nil
    }

    // MARK: IO (the device's thread)

    static let ioProc: AudioDeviceIOProc = { _, _, input, inputTime, output, outputTime, clientData in
        let unit = Unmanaged<AUHALOutput>.fromOpaque(clientData!).takeUnretainedValue()
        unit.cyclesInside.add(1, ordering: .sequentiallyConsistent)
        defer { unit.cyclesInside.subtract(1, ordering: .sequentiallyConsistent) }
        guard unit.cyclesOpen.load(ordering: .sequentiallyConsistent) else { return noErr }
        unit.cycleThread.store(UInt(pthread_self()), ordering: .sequentiallyConsistent)
        defer { unit.cycleThread.store(0, ordering: .sequentiallyConsistent) }
        unit.ioCycle(input, inputTime, output, outputTime)
        return noErr
    }

    private func ioCycle(_ input: UnsafePointer<AudioBufferList>, _ inputTime: UnsafePointer<AudioTimeStamp>,
                         _ output: UnsafeMutablePointer<AudioBufferList>, _ outputTime: UnsafePointer<AudioTimeStamp>) {
        let inList = UnsafeMutableAudioBufferListPointer(UnsafeMutablePointer(mutating: input))
        let outList = UnsafeMutableAudioBufferListPointer(output)
        if inputOrigin.isNaN { inputOrigin = inputTime.pointee.mSampleTime }
        if outputOrigin.isNaN { outputOrigin = outputTime.pointee.mSampleTime }
        if enableInput, inList.count > 0, let held, let data = inList[0].mData {
            let channels = Int(max(inList[0].mNumberChannels, 1))
            let samples = min(Int(inList[0].mDataByteSize) / 4, heldCapacity)
            oca_memmove(held, data, UInt(samples * 4))
            heldFrames = samples / channels
            heldRead = 0
            processCapturedInput(held, frames: heldFrames, channels: channels)
            var delivered = heldFrames
            if let r = inputResampler, let planarIn, let planarInPointers, let resampledPointers {
                let stride = Int(maxFramesPerSlice)
                InterleavedKernels.deinterleave(held, channels: channels, frames: heldFrames, into: planarIn, stride: stride)
                let (_, produced) = r.process(input: planarInPointers, inputFrames: heldFrames, endOfInput: false,
                                              output: resampledPointers, outputCapacity: resampledCapacity)
                resampledFrames = produced
                delivered = produced
            }
            if let cb = inputCallback, let proc = cb.inputProc {
                // Sample times count the client's frames: at another rate, the frames delivered so far.
                var time = adjusted(inputTime.pointee, inputOrigin)
                if inputResampler != nil { time.mSampleTime = clientInputFrames }
                var flags = AudioUnitRenderActionFlags()
                _ = invokeRenderCallback(proc, cb.inputProcRefCon, &flags, &time, 1, UInt32(delivered), nil)
            }
            clientInputFrames += Double(delivered)
        }
        guard enableOutput, outList.count > 0, let data = outList[0].mData else { return }
        let channels = Int(max(outList[0].mNumberChannels, 1))
        let frames = Int(outList[0].mDataByteSize) / (4 * channels)
        var time = adjusted(outputTime.pointee, outputOrigin)
        var flags = AudioUnitRenderActionFlags()
        let samples = data.assumingMemoryBound(to: Float.self)
        if AudioUnitRender(handle, &flags, &time, 0, UInt32(frames), output) != noErr {
            samples.update(repeating: 0, count: frames * channels)
        }
        renderedOutput(samples, frames: frames, channels: channels)
        let volume = parameterValue(kHALOutputParam_Volume, kAudioUnitScope_Global, 0)
        if volume != 1 { _ = MixerKernels.scale(samples, count: frames * channels, gain: volume, target: volume, step: 1) }
    }

    /// AUVoiceProcessingIO's hooks on the device thread: the captured input before anyone reads it, and the
    /// output about to be played (the echo reference).
    func processCapturedInput(_ samples: UnsafeMutablePointer<Float>, frames: Int, channels: Int) {}
    func renderedOutput(_ samples: UnsafeMutablePointer<Float>, frames: Int, channels: Int) {}

    private func adjusted(_ t: AudioTimeStamp, _ origin: Double) -> AudioTimeStamp {
        var time = t
        if startTimestampsAtZero != 0 { time.mSampleTime -= origin }
        return time
    }

    // MARK: Render

    override func renderBus(_ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, _ timeStamp: UnsafePointer<AudioTimeStamp>,
                            _ bus: UInt32, _ frames: UInt32, _ output: UnsafeMutablePointer<AudioBufferList>) -> OSStatus {
        if bus == 0 {
            guard enableOutput else { return kAudioUnitErr_InvalidElement }
            if let c = outputConverter { return AudioUnitRender(c, flags, timeStamp, 0, frames, output) }
            if let c = outputFormatConverter {
                let (status, pulled) = pullInput(0, flags: flags, timeStamp: timeStamp, frames: frames)
                guard status == noErr else { return status }
                return c.convertComplexBuffer(frames: frames, from: pulled, to: output)
            }
            let (status, pulled) = pullInput(0, flags: flags, timeStamp: timeStamp, frames: frames, into: output)
            if status == noErr && pulled != output { copyBufferContents(from: pulled, to: output) }
            return status
        }
        guard enableInput else { return kAudioUnitErr_CannotDoInCurrentContext }
        if let c = inputFormatConverter, inputResampler != nil, let resampled, let heldList {
            // The resampled period, planar at the client's rate, converted frame for frame.
            let n = min(Int(frames), resampledFrames - heldRead)
            guard n == Int(frames) else { return kAudioUnitErr_TooManyFramesToProcess }
            heldList.unsafeMutablePointer.pointee.mNumberBuffers = inputs[1].format.mChannelsPerFrame
            for ch in 0..<Int(inputs[1].format.mChannelsPerFrame) {
                heldList[ch] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(n * 4),
                                           mData: UnsafeMutableRawPointer(resampled + ch * resampledCapacity + heldRead))
            }
            heldRead += n
            return c.convertComplexBuffer(frames: frames, from: heldList.unsafePointer, to: output)
        }
        if let c = inputFormatConverter, let held, let heldList {
            // The held period, in the device's format, converted frame for frame (the rates are equal).
            let channels = Int(inputs[1].format.mChannelsPerFrame)
            let n = min(Int(frames), heldFrames - heldRead)
            guard n == Int(frames) else { return kAudioUnitErr_TooManyFramesToProcess }
            heldList.unsafeMutablePointer.pointee.mNumberBuffers = 1
            heldList[0] = AudioBuffer(mNumberChannels: UInt32(channels), mDataByteSize: UInt32(n * channels * 4),
                                      mData: UnsafeMutableRawPointer(held + heldRead * channels))
            heldRead += n
            return c.convertComplexBuffer(frames: frames, from: heldList.unsafePointer, to: output)
        }
        supplyHeld(into: UnsafeMutableAudioBufferListPointer(output), frames: Int(frames))
        return noErr
    }

    /// Copies held device input (interleaved, the device's format) into `list`, zero-filling what is not held.
    private func supplyHeld(into list: UnsafeMutableAudioBufferListPointer, frames: Int) {
        guard list.count > 0, let data = list[0].mData, let held else { return }
        let channels = Int(inputs[1].format.mChannelsPerFrame)
        let available = min(frames, heldFrames - heldRead)
        let target = data.assumingMemoryBound(to: Float.self)
        if available > 0 { oca_memmove(target, held + heldRead * channels, UInt(available * channels * 4)) }
        if available < frames { (target + max(available, 0) * channels).update(repeating: 0, count: (frames - max(available, 0)) * channels) }
        heldRead += max(available, 0)
    }

    static let pullClientOutput: AURenderCallback = { refCon, flags, timeStamp, _, frames, ioData in
        let unit = Unmanaged<AUHALOutput>.fromOpaque(refCon).takeUnretainedValue()
        let (status, pulled) = unit.pullInput(0, flags: flags, timeStamp: timeStamp, frames: frames, into: ioData!)
        if status == noErr && pulled != ioData! { copyBufferContents(from: pulled, to: ioData!) }
        return status
    }

}

/// A weak reference to a unit a HAL listener may outlive.
private final class UncheckedUnit: @unchecked Sendable {
    weak var unit: AUHALOutput?
    init(_ unit: AUHALOutput) { self.unit = unit }
}
