import Foundation

/// Plays buffers and file segments at sample-accurate times on its own timeline (player time, which runs while
/// the player plays and stops while it is paused). Scheduling, play, pause and stop may be called from any
/// thread; completion handlers run on the module's service thread. File segments are read ahead off the render
/// thread (in offline manual rendering the render waits for the reader instead of playing silence).
open class AVAudioPlayerNode: AVAudioNode, AVAudioMixing, ServiceClient, @unchecked Sendable {
    static let description = AudioComponentDescription(componentType: kAudioUnitType_FormatConverter, componentSubType: kAudioUnitSubType_AUConverter,
                                                       componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
    let schedule = PlayerSchedule()

    /// A player with nothing scheduled.
    public init() {
        super.init(unit: Self.instantiate(Self.description))
        var callback = AURenderCallbackStruct(inputProc: Self.renderProc, inputProcRefCon: Unmanaged.passUnretained(schedule).toOpaque())
        AudioUnitSetProperty(unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &callback,
                             UInt32(MemoryLayout<AURenderCallbackStruct>.size))
        if let standard = AVAudioFormat(standardFormatWithSampleRate: 44100, channels: 2) { setOutputFormat(standard) }
        ServiceThread.shared.add(self)
    }

    deinit { ServiceThread.shared.remove(self) }

    private static let renderProc: AURenderCallback = { refCon, flags, timeStamp, _, frames, ioData in
        let schedule = Unmanaged<PlayerSchedule>.fromOpaque(refCon).takeUnretainedValue()
        guard let ioData else { return kAudio_ParamError }
        let wrote = schedule.render(UnsafeMutableAudioBufferListPointer(ioData), frames: Int(frames), time: timeStamp.pointee.mSampleTime,
                                    hostTime: timeStamp.pointee.mHostTime)
        if !wrote { flags.pointee.insert(.unitRenderAction_OutputIsSilence) }
        return noErr
    }

    /// The player renders in its output format: the converter's input takes the same.
    @discardableResult
    override func setOutputFormat(_ format: AVAudioFormat, bus: AVAudioNodeBus = 0) -> Bool {
        guard format.isStandard else { return false }
        return setFormat(format, kAudioUnitScope_Input, 0) && super.setOutputFormat(format, bus: bus)
    }

    /// No inputs.
    public override var numberOfInputs: Int { 0 }
    /// One output.
    public override var numberOfOutputs: Int { 1 }

    override func didAttach(to engine: AVAudioEngine) {
        schedule.waitsForData = engine.isInManualRenderingMode && engine.manualRenderingMode == .offline
    }

    private var sampleRate: Double { outputFormat(forBus: 0).sampleRate }

    /// Player time (at the player's rate) of `when`, or nil for "after what is scheduled".
    private func playerTime(of when: AVAudioTime?) -> Double? {
        guard let when else { return nil }
        if when.isSampleTimeValid {
            return when.sampleRate > 0 && when.sampleRate != sampleRate
                ? Double(when.sampleTime) * sampleRate / when.sampleRate : Double(when.sampleTime)
        }
        guard when.isHostTimeValid, let node = renderTime(ofHostTime: when.hostTime) else { return nil }
        return locked { $0.playerTime(node) } ?? node
    }

    /// Render time of a host time, from the last render's anchor.
    private func renderTime(ofHostTime host: UInt64) -> Double? {
        let (end, anchor) = locked { ($0.lastRenderEnd, $0.lastHostTime) }
        guard !end.isNaN, anchor != 0 else { return nil }
        let seconds = (Double(AudioConvertHostTimeToNanos(host)) - Double(AudioConvertHostTimeToNanos(anchor))) / 1e9
        return end + seconds * sampleRate
    }

    private func locked<T>(_ body: (PlayerSchedule) -> T) -> T {
        schedule.lock.lock()
        defer { schedule.lock.unlock() }
        return body(schedule)
    }

    private func add(_ item: PlayerItem) {
        schedule.lock.lock()
        schedule.schedule(item)
        schedule.reserve()
        schedule.lock.unlock()
    }

    // MARK: Scheduling

    /// Plays `buffer` after what is scheduled.
    public func scheduleBuffer(_ buffer: AVAudioPCMBuffer, completionHandler: AVAudioNodeCompletionHandler? = nil) {
        scheduleBuffer(buffer, at: nil, options: [], completionHandler: completionHandler)
    }

    /// Plays `buffer` after what is scheduled, calling the handler at the stage `callbackType` names.
    public func scheduleBuffer(_ buffer: AVAudioPCMBuffer, completionCallbackType callbackType: AVAudioPlayerNodeCompletionCallbackType,
                               completionHandler: AVAudioPlayerNodeCompletionHandler? = nil) {
        scheduleBuffer(buffer, at: nil, options: [], completionCallbackType: callbackType, completionHandler: completionHandler)
    }

    /// Plays `buffer` at player time `when` (nil: after what is scheduled) with `options`.
    public func scheduleBuffer(_ buffer: AVAudioPCMBuffer, at when: AVAudioTime?, options: AVAudioPlayerNodeBufferOptions = [],
                               completionHandler: AVAudioNodeCompletionHandler? = nil) {
        scheduleBuffer(buffer, at: when, options: options, completionCallbackType: .dataConsumed,
                       completionHandler: completionHandler.map { handler in { _ in handler() } })
    }

    /// Plays `buffer` at player time `when` with `options`, calling the handler at the stage `callbackType` names.
    public func scheduleBuffer(_ buffer: AVAudioPCMBuffer, at when: AVAudioTime?, options: AVAudioPlayerNodeBufferOptions = [],
                               completionCallbackType callbackType: AVAudioPlayerNodeCompletionCallbackType,
                               completionHandler: AVAudioPlayerNodeCompletionHandler? = nil) {
        let playable = buffer.format.commonFormat == .pcmFormatFloat32 && !buffer.format.isInterleaved ? buffer : Self.standard(buffer)
        add(PlayerItem(buffer: playable, stream: nil, when: playerTime(of: when), options: options, callbackType: callbackType,
                       completion: completionHandler))
    }

    /// Plays all of `file` at player time `when` (nil: after what is scheduled).
    public func scheduleFile(_ file: AVAudioFile, at when: AVAudioTime?, completionHandler: AVAudioNodeCompletionHandler? = nil) {
        scheduleSegment(file, startingFrame: 0, frameCount: AVAudioFrameCount(clamping: file.length), at: when, completionHandler: completionHandler)
    }

    /// Plays all of `file`, calling the handler at the stage `callbackType` names.
    public func scheduleFile(_ file: AVAudioFile, at when: AVAudioTime?, completionCallbackType callbackType: AVAudioPlayerNodeCompletionCallbackType,
                             completionHandler: AVAudioPlayerNodeCompletionHandler? = nil) {
        scheduleSegment(file, startingFrame: 0, frameCount: AVAudioFrameCount(clamping: file.length), at: when,
                        completionCallbackType: callbackType, completionHandler: completionHandler)
    }

    /// Plays `frameCount` frames of `file` from `startFrame`.
    public func scheduleSegment(_ file: AVAudioFile, startingFrame startFrame: AVAudioFramePosition, frameCount numberFrames: AVAudioFrameCount,
                                at when: AVAudioTime?, completionHandler: AVAudioNodeCompletionHandler? = nil) {
        scheduleSegment(file, startingFrame: startFrame, frameCount: numberFrames, at: when, completionCallbackType: .dataConsumed,
                        completionHandler: completionHandler.map { handler in { _ in handler() } })
    }

    /// Plays `frameCount` frames of `file` from `startFrame`, calling the handler at the stage `callbackType` names.
    public func scheduleSegment(_ file: AVAudioFile, startingFrame startFrame: AVAudioFramePosition, frameCount numberFrames: AVAudioFrameCount,
                                at when: AVAudioTime?, completionCallbackType callbackType: AVAudioPlayerNodeCompletionCallbackType,
                                completionHandler: AVAudioPlayerNodeCompletionHandler? = nil) {
        let start = max(0, min(startFrame, file.length))
        let count = Int(min(AVAudioFramePosition(numberFrames), file.length - start))
        let stream = try? FileSegmentStream(url: file.url, startFrame: start, frameCount: count, format: outputFormat(forBus: 0))
        add(PlayerItem(buffer: nil, stream: stream, when: playerTime(of: when), options: [], callbackType: callbackType,
                       completion: completionHandler))
    }

    /// The buffer in deinterleaved Float32 (the player's sample layout).
    private static func standard(_ buffer: AVAudioPCMBuffer) -> AVAudioPCMBuffer {
        guard let format = AVAudioFormat(standardFormatWithSampleRate: buffer.format.sampleRate, channels: buffer.format.channelCount),
              let converter = AVAudioConverter(from: buffer.format, to: format),
              let out = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: max(buffer.frameLength, 1)) else { return buffer }
        try? converter.convert(to: out, from: buffer)
        return out
    }

    // MARK: Transport

    /// Starts (or resumes) the player's timeline at the next render.
    public func play() { play(at: nil) }

    /// Starts the timeline at node time `when` (nil: the next render).
    public func play(at when: AVAudioTime?) {
        var start = Double.nan
        if let when {
            if when.isSampleTimeValid {
                start = when.sampleRate > 0 && when.sampleRate != sampleRate ? Double(when.sampleTime) * sampleRate / when.sampleRate
                    : Double(when.sampleTime)
            } else if when.isHostTimeValid, let t = renderTime(ofHostTime: when.hostTime) {
                start = t.rounded()
            }
        }
        locked { $0.play(at: start) }
    }

    /// Stops the timeline; play resumes where it was.
    public func pause() { locked { $0.pause() } }

    /// Clears everything scheduled (calling its completion handlers) and rewinds the timeline.
    public func stop() {
        locked { $0.stop() }
        service()
    }

    /// Reads the first frames of scheduled files now, so playing starts without waiting for the disk.
    public func prepare(withFrameCount frameCount: AVAudioFrameCount) {
        for stream in schedule.streams() { stream.fill() }
    }

    /// Whether the player is playing.
    public var isPlaying: Bool { locked { $0.playing } }

    /// The node time of a player time; nil while the player is not playing.
    public func nodeTime(forPlayerTime playerTime: AVAudioTime) -> AVAudioTime? {
        guard playerTime.isSampleTimeValid, let t = locked({ $0.renderTime(Double(playerTime.sampleTime)) }) else { return nil }
        return AVAudioTime(sampleTime: AVAudioFramePosition(t), atRate: sampleRate)
    }

    /// The player time of a node time; nil while the player is not playing.
    public func playerTime(forNodeTime nodeTime: AVAudioTime) -> AVAudioTime? {
        guard nodeTime.isSampleTimeValid, let p = locked({ $0.playerTime(Double(nodeTime.sampleTime)) }) else { return nil }
        return AVAudioTime(sampleTime: AVAudioFramePosition(p), atRate: sampleRate)
    }

    // MARK: Service thread

    func service() {
        for stream in schedule.streams() { stream.fill() }
        // The render's lock only when something finished.
        guard schedule.finishedCount.load(ordering: .acquiring) > 0 else { return }
        let finished = locked { $0.takeDone() }
        schedule.forgetStreams(of: finished)
        for item in finished {
            guard let completion = item.completion else { continue }
            if item.callbackType == .dataPlayedBack, let latency = attachedEngine?.deviceLatency(input: false), latency > 0 {
                let call = UncheckedHandler(completion)
                DispatchQueue.global().asyncAfter(deadline: .now() + latency) { call.handler(.dataPlayedBack) }
            } else {
                completion(item.callbackType)
            }
        }
    }
}

/// A completion handler carried to another queue (the client's handler makes no promise of Sendable).
private struct UncheckedHandler: @unchecked Sendable {
    let handler: AVAudioPlayerNodeCompletionHandler
    init(_ handler: @escaping AVAudioPlayerNodeCompletionHandler) { self.handler = handler }
}
