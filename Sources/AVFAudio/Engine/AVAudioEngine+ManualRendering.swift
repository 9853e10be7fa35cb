import Foundation

/// Manual rendering: the engine renders into the client's buffers instead of a device, offline (as fast as the
/// client calls renderOffline, file players waiting for their reads) or realtime (the manual rendering block,
/// called from the client's own real-time thread).
extension AVAudioEngine {
    /// Switches the engine to manual rendering in `pcmFormat`, at most `maximumFrameCount` frames per render.
    /// The engine must be stopped.
    public func enableManualRenderingMode(_ mode: AVAudioEngineManualRenderingMode, format pcmFormat: AVAudioFormat,
                                          maximumFrameCount: AVAudioFrameCount) throws {
        try withLock {
            guard !running else { throw AVAudioError.make(AVAudioEngineManualRenderingError.initialized.rawValue) }
            guard pcmFormat.streamDescription.pointee.mFormatID == kAudioFormatLinearPCM, maximumFrameCount > 0 else {
                throw AVAudioError.make(kAudioUnitErr_FormatNotSupported)
            }
            if prepared { stopGraph(uninitialize: true) }
            let hadOutput = attached.values.contains { $0 is AVAudioOutputNode }
            manualMode = mode
            manualFormatStorage = pcmFormat
            manualMaximumFrames = maximumFrameCount
            manualSampleTime = 0
            // An engine that never touched its device does not open it now (outputNode makes the generic output).
            if hadOutput { switchIONodes() } else { _ = outputNode }
            for node in attached.values { node.didAttach(to: self) }
        }
    }

    /// Returns the engine to the device. The engine must be stopped (it is stopped if not).
    public func disableManualRenderingMode() {
        withLock {
            guard manualMode != nil else { return }
            stopGraph(uninitialize: true)
            manualMode = nil
            manualFormatStorage = nil
            switchIONodes()
            for node in attached.values { node.didAttach(to: self) }
        }
    }

    /// Moves the output (and input) node onto the units of the current mode, keeping their connections.
    private func switchIONodes() {
        publishedPulls = []  // the pull buffers' size follows the mode's maximum frame count
        guard let output = attached.values.first(where: { $0 is AVAudioOutputNode }) as? AVAudioOutputNode else { return }
        let input = attached.values.first(where: { $0 is AVAudioInputNode }) as? AVAudioInputNode
        AUGraphRemoveNode(graph, output.graphNode)
        if let input, input.graphNode != output.graphNode { AUGraphRemoveNode(graph, input.graphNode) }
        output.unit = outputUnit()
        if let manualFormat = manualFormatStorage {
            output.setFormat(manualFormat, kAudioUnitScope_Input, 0)
            output.setFormat(manualFormat, kAudioUnitScope_Output, 0)
        }
        output.graphNode = addGraphNode(output.unit)
        head.attach(to: output.unit)
        if let input {
            if manualMode != nil {
                input.unit = manualInputUnitMake()
                let format = input.manualInputFormat ?? manualFormatStorage!
                input.setFormat(format, kAudioUnitScope_Input, 0)
                input.setFormat(format, kAudioUnitScope_Output, 0)
                installManualInputCallback(input)
                input.graphNode = addGraphNode(input.unit)
            } else {
                if !inputEnabled, let ioUnit {
                    Self.switchInputOn(ioUnit)
                    inputEnabled = true
                }
                input.unit = ioUnit!
                input.graphNode = output.graphNode
            }
        }
        // The main mixer follows the output's rate and (mono or stereo) width; its inputs are wired again for it.
        var mixers: [AVAudioNode] = []
        if let mixer = attached.values.first(where: { n in connections.contains { $0.source === n && $0.dest === output } }) as? AVAudioMixerNode,
           let format = mainMixerFormat() {
            mixer.setOutputFormat(format)
            for c in connections where c.source === mixer && c.dest === output { c.format = format }
            mixers.append(mixer)
        }
        rewireAll(involving: [output] + (input.map { [$0] } ?? []) + mixers)
    }

    /// The input node in manual mode: its converter pulls the client's input block (silence without one).
    func installManualInputCallback(_ input: AVAudioInputNode) {
        var callback = AURenderCallbackStruct(inputProc: Self.manualInputProc, inputProcRefCon: Unmanaged.passUnretained(input).toOpaque())
        AudioUnitSetProperty(input.unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &callback,
                             UInt32(MemoryLayout<AURenderCallbackStruct>.size))
    }

    private static let manualInputProc: AURenderCallback = { refCon, flags, _, _, frames, ioData in
        let input = Unmanaged<AVAudioInputNode>.fromOpaque(refCon).takeUnretainedValue()
        guard let ioData else { return kAudio_ParamError }
        let out = UnsafeMutableAudioBufferListPointer(ioData)
        guard let block = input.manualInputBlock, let supplied = block(frames) else {
            for b in out { b.mData?.initializeMemory(as: UInt8.self, repeating: 0, count: Int(b.mDataByteSize)) }
            flags.pointee.insert(.unitRenderAction_OutputIsSilence)
            return noErr
        }
        let source = UnsafeMutableAudioBufferListPointer(UnsafeMutablePointer(mutating: supplied))
        for i in 0..<min(out.count, source.count) {
            guard let to = out[i].mData, let from = source[i].mData else { continue }
            let bytes = min(Int(out[i].mDataByteSize), Int(source[i].mDataByteSize))
            to.copyMemory(from: from, byteCount: bytes)
            if bytes < Int(out[i].mDataByteSize) { (to + bytes).initializeMemory(as: UInt8.self, repeating: 0, count: Int(out[i].mDataByteSize) - bytes) }
        }
        return noErr
    }

    /// Makes the manual input node take `format` (its converter turns it into what the input node outputs).
    func setManualInput(format: AVAudioFormat) -> Bool {
        withLock {
            guard manualMode != nil, !running, let input = attached.values.first(where: { $0 is AVAudioInputNode }) else { return false }
            if prepared { stopGraph(uninitialize: true) }
            return input.setFormat(format, kAudioUnitScope_Input, 0) && input.setFormat(format, kAudioUnitScope_Output, 0)
        }
    }

    /// Whether the engine renders manually.
    public var isInManualRenderingMode: Bool { withLock { manualMode != nil } }
    /// The manual rendering mode (offline when not in manual rendering).
    public var manualRenderingMode: AVAudioEngineManualRenderingMode { withLock { manualMode ?? .offline } }
    /// The format manual renders produce.
    public var manualRenderingFormat: AVAudioFormat {
        withLock { manualFormatStorage ?? outputNode.outputFormat(forBus: 0) }
    }
    /// The most frames one manual render may ask for.
    public var manualRenderingMaximumFrameCount: AVAudioFrameCount { withLock { manualMaximumFrames } }
    /// The sample time of the next manual render's first frame.
    public var manualRenderingSampleTime: AVAudioFramePosition { withLock { manualSampleTime } }

    /// Renders `numberOfFrames` frames into `buffer` (in the manual rendering format). Edits made since the last
    /// render take effect at its start.
    public func renderOffline(_ numberOfFrames: AVAudioFrameCount, to buffer: AVAudioPCMBuffer) throws -> AVAudioEngineManualRenderingStatus {
        try withLock {
            guard let manualFormat = manualFormatStorage, let unit = manualOutputUnit else {
                throw AVAudioError.make(AVAudioEngineManualRenderingError.invalidMode.rawValue)
            }
            guard running else { throw AVAudioError.make(AVAudioEngineManualRenderingError.notRunning.rawValue) }
            guard buffer.format.isEqual(manualFormat), numberOfFrames <= buffer.frameCapacity, numberOfFrames <= manualMaximumFrames else {
                throw AVAudioError.make(kAudio_ParamError)
            }
            buffer.frameLength = numberOfFrames
            let status = render(unit, frames: numberOfFrames, into: buffer.mutableAudioBufferList)
            guard status == noErr else {
                buffer.frameLength = 0
                throw AVAudioError.make(status)
            }
            return .success
        }
    }

    /// Renders into the client's buffer list from a real-time context (no lock, no allocation).
    public var manualRenderingBlock: AVAudioEngineManualRenderingBlock {
        let state = withLock { (manualOutputUnit, manualMaximumFrames) }
        let box = ManualRenderState(engine: self)
        return { frames, list, outError in
            guard let unit = state.0, frames <= state.1 else {
                outError?.pointee = kAudio_ParamError
                return .error
            }
            guard let engine = box.engine else { return .error }
            let status = engine.render(unit, frames: frames, into: list)
            outError?.pointee = status
            return status == noErr ? .success : .error
        }
    }

    /// One manual render at the running sample time.
    func render(_ unit: AudioUnit, frames: AVAudioFrameCount, into list: UnsafeMutablePointer<AudioBufferList>) -> OSStatus {
        var stamp = AudioTimeStamp()
        stamp.mSampleTime = Double(manualSampleTime)
        stamp.mHostTime = AudioGetCurrentHostTime()
        stamp.mFlags = .sampleHostTimeValid  // not an array literal: that allocates in a debug build
        var flags: AudioUnitRenderActionFlags = []
        let status = AudioUnitRender(unit, &flags, &stamp, 0, frames, list)
        if status == noErr { manualSampleTime += AVAudioFramePosition(frames) }
        return status
    }
}

/// The engine as the manual rendering block holds it (weakly: the block must not keep the engine alive).
final class ManualRenderState: @unchecked Sendable {
    weak var engine: AVAudioEngine?
    init(engine: AVAudioEngine) { self.engine = engine }
}
