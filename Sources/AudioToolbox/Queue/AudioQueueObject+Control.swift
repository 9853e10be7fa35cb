import COCASupport
import Foundation

/// Start, pause, stop, reset and the I/O unit behind a running queue.
extension AudioQueueObject {
    /// AudioQueueStart: plays (or records) from now, or (an output queue) from `time`: a sample time on the queue's
    /// timeline or a host time, before which it plays silence. A queue in offline mode starts without a device.
    func start(at time: AudioTimeStamp? = nil) -> OSStatus {
        lock.lock(); defer { lock.unlock() }
        guard !disposed else { return kAudioQueueErr_DisposalPending }
        if runState == .running { return noErr }
        var delay = 0
        if let time, direction == .output {
            if time.mFlags.contains(.sampleTimeValid) {
                delay = Int(time.mSampleTime.rounded()) - (runState == .stopped ? 0 : sampleTime.load(ordering: .acquiring))
            } else if time.mFlags.contains(.hostTimeValid) {
                let now = AudioGetCurrentHostTime()
                let nanos = time.mHostTime > now ? AudioConvertHostTimeToNanos(time.mHostTime - now) : 0
                delay = Int(Double(nanos) / 1e9 * format.mSampleRate)
            }
        }
        startDelay.store(max(delay, 0), ordering: .releasing)
        if runState == .stopped {
            stopPending.store(false, ordering: .releasing)
            playedOut.store(false, ordering: .releasing)
        }
        if runState == .stopped {
            // The time-pitch processor for this run (none unless EnableTimePitch is on).
            timePitch = timePitchEnabled ? AudioQueueTimePitch(sampleRate: format.mSampleRate, channels: pcm.channels,
                                                               algorithm: timePitchAlgorithm, bypass: timePitchBypass,
                                                               maximumFrames: Self.maximumFramesPerSlice) : nil
            stagedFrames = 0
            tap?.discontinuity = true
            tap?.outputSampleTime = 0
        }
        if let c = offlineConverter, runState == .stopped {
            AudioConverterReset(c)
            lastSliceEnded = false
        }
        if offlineFormat == nil {
            if unit == nil {
                let (made, status) = makeUnit()
                guard let made else { return status }
                unit = made
                ioUnit = made
            }
            if runState == .stopped { enqueueInternalBuffers() }
            // From a pause: the device may still be playing out (then it simply takes audio again).
            outputPaused.store(false, ordering: .releasing)
            deviceRunning.store(true, ordering: .releasing)
            let status = AudioOutputUnitStart(unit!)
            guard status == noErr else {
                deviceRunning.store(false, ordering: .releasing)
                return status == kAudioUnitErr_NoConnection ? kAudioQueueErr_InvalidDevice : status
            }
        }
        runState = .running
        setRunning(true)
        return noErr
    }

    /// AudioQueuePause: the enqueued buffers and the queue's time stay. An output queue stops taking audio at once and
    /// its device plays out what it already holds (on silence) before the queue's thread stops it, so Start resumes
    /// exactly where the listener stopped hearing; an input queue's device stops now.
    func pause() -> OSStatus {
        lock.lock(); defer { lock.unlock() }
        guard !disposed else { return kAudioQueueErr_DisposalPending }
        guard runState == .running else { return noErr }
        if direction == .output && offlineFormat == nil && deviceRunning.load(ordering: .acquiring) {
            pauseFramesToHear.store(deviceHoldFrames(), ordering: .releasing)
            outputPaused.store(true, ordering: .releasing)
            poke()
        } else {
            stopDevice()
        }
        runState = .paused
        return noErr
    }

    /// AudioQueueStop. Immediate: the device stops now and every enqueued buffer comes back through the
    /// callback. Otherwise the queue plays what is enqueued, then stops (IsRunning changes then).
    func stop(immediate: Bool) -> OSStatus {
        lock.lock()
        guard !disposed else { lock.unlock(); return kAudioQueueErr_DisposalPending }
        if !immediate && direction == .output && runState == .running {
            stopPending.store(true, ordering: .releasing)
            lock.unlock()
            poke()
            return noErr
        }
        stopDevice()
        outputPaused.store(false, ordering: .releasing)
        returnAllEntries()
        resetDecoder()
        let wasRecording = runState != .stopped
        runState = .stopped
        if wasRecording { finishEncodingAfterStop() }
        stopPending.store(false, ordering: .releasing)
        playedOut.store(false, ordering: .releasing)
        sampleTime.store(0, ordering: .releasing)
        startDelay.store(0, ordering: .releasing)
        scheduledFrames = 0
        setRunning(false)
        lock.unlock()
        poke()
        return noErr
    }

    /// AudioQueueReset: every enqueued buffer comes back through the callback; the queue keeps running.
    func reset() -> OSStatus {
        lock.lock()
        guard !disposed else { lock.unlock(); return kAudioQueueErr_DisposalPending }
        resetDecoder()
        if deviceRunning.load(ordering: .acquiring) {
            // The device thread owns the entries while it runs: ask it, and wait (bounded) for its answer.
            resetDone.store(false, ordering: .releasing)
            resetPending.store(true, ordering: .releasing)
            lock.unlock()
            var waited = 0
            while !resetDone.load(ordering: .acquiring) && waited < 1000 {
                usleep(1000)
                waited += 1
            }
            lock.lock()
            if !resetDone.load(ordering: .acquiring) {
                // The device stalled: stop it and take the entries back here.
                resetPending.store(false, ordering: .releasing)
                stopDevice()
                returnAllEntries()
                if runState == .running, let u = unit {
                    deviceRunning.store(true, ordering: .releasing)
                    if AudioOutputUnitStart(u) != noErr { deviceRunning.store(false, ordering: .releasing) }
                }
            }
        } else {
            returnAllEntries()
            tap?.discontinuity = true
        }
        scheduledFrames = sampleTime.load(ordering: .acquiring)
        lock.unlock()
        poke()
        return noErr
    }

    /// With the device thread stopped: hands every queued entry back (caller holds the lock).
    func returnAllEntries() {
        if let c = current { completeEntry(c, bytes: position - c.start) }
        current = nil
        gapFrames = 0
        while let e = toDevice.pop() { completeEntry(e, bytes: 0) }
    }

    /// Hands an entry back. Input buffers carry what was recorded into them.
    func completeEntry(_ e: AudioQueueEntry, bytes: Int) {
        if direction == .input {
            e.buffer.pointee.mAudioDataByteSize = UInt32(max(bytes, 0))
            e.buffer.pointee.mPacketDescriptionCount = 0
        }
        completed.push(AudioQueueCompletion(buffer: e.buffer, startTime: captureStart))
    }

    /// Stops the I/O unit, synchronously: its thread is out of the render callback when this returns.
    func stopDevice() {
        if let u = unit, deviceRunning.load(ordering: .acquiring) { AudioOutputUnitStop(u) }
        deviceRunning.store(false, ordering: .releasing)
    }

    /// The I/O unit: AUHAL on the default output device (or the input device, for an input queue), fed
    /// or read in planar Float32 at the queue's rate; the unit converts to the device's rate and format.
    func makeUnit() -> (AudioUnit?, OSStatus) {
        var description = AudioComponentDescription(componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_HALOutput,
                                                     componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        guard let component = AudioComponentFindNext(nil, &description) else { return (nil, kAudioQueueErr_InvalidDevice) }
        var made: AudioUnit?
        guard AudioComponentInstanceNew(component, &made) == noErr, let u = made else { return (nil, kAudioQueueErr_InvalidDevice) }
        let input = direction == .input
        var device = deviceID() ?? 0
        guard device != 0 else { AudioComponentInstanceDispose(u); return (nil, kAudioQueueErr_InvalidDevice) }
        var inputOn: UInt32 = input ? 1 : 0, outputOn: UInt32 = input ? 0 : 1
        // With ChannelAssignments the unit takes all the device's channels (the route fills them).
        var float = channelRoute.map { OCAFormat.canonical(sampleRate: floatFormat.description.mSampleRate, channels: UInt32($0.deviceChannels)) }
            ?? floatFormat.description
        var frames = UInt32(Self.maximumFramesPerSlice)
        let asbdSize = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        let me = Unmanaged.passUnretained(self).toOpaque()
        var status = AudioUnitSetProperty(u, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 1, &inputOn, 4)
        if status == noErr { status = AudioUnitSetProperty(u, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Output, 0, &outputOn, 4) }
        if status == noErr { status = AudioUnitSetProperty(u, kAudioOutputUnitProperty_CurrentDevice, kAudioUnitScope_Global, 0, &device, 4) }
        if status == noErr { status = AudioUnitSetProperty(u, kAudioUnitProperty_MaximumFramesPerSlice, kAudioUnitScope_Global, 0, &frames, 4) }
        if input {
            var callback = AURenderCallbackStruct(inputProc: Self.captureProc, inputProcRefCon: me)
            if status == noErr { status = AudioUnitSetProperty(u, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 1, &float, asbdSize) }
            if status == noErr {
                status = AudioUnitSetProperty(u, kAudioOutputUnitProperty_SetInputCallback, kAudioUnitScope_Global, 0, &callback,
                                              UInt32(MemoryLayout<AURenderCallbackStruct>.size))
            }
        } else {
            var callback = AURenderCallbackStruct(inputProc: Self.renderProc, inputProcRefCon: me)
            if status == noErr { status = AudioUnitSetProperty(u, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &float, asbdSize) }
            if status == noErr {
                status = AudioUnitSetProperty(u, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, 0, &callback,
                                              UInt32(MemoryLayout<AURenderCallbackStruct>.size))
            }
        }
        if status == noErr { status = AudioUnitInitialize(u) }
        guard status == noErr else {
            AudioComponentInstanceDispose(u)
            return (nil, status == kAudioUnitErr_NoConnection ? kAudioQueueErr_InvalidDevice : status)
        }
        return (u, noErr)
    }

    /// The device the queue plays to or records from: the one named by CurrentDevice, else the default.
    func deviceID() -> AudioDeviceID? {
        if let uid = deviceUID { return Self.device(forUID: uid) }
        let id = HALDeviceQuery.defaultDevice(input: direction == .input)
        return id == kAudioObjectUnknown ? nil : id
    }

    /// A HAL device by its UID (kAudioHardwarePropertyTranslateUIDToDevice).
    static func device(forUID uid: String) -> AudioDeviceID? {
        var address = AudioObjectPropertyAddress(mSelector: kAudioHardwarePropertyTranslateUIDToDevice,
                                                 mScope: kAudioObjectPropertyScopeGlobal, mElement: kAudioObjectPropertyElementMain)
        var name: CFString = uid as CFString
        var id: AudioDeviceID = 0
        var size = UInt32(4)
        let status = withUnsafeMutablePointer(to: &name) {
            AudioObjectGetPropertyData(AudioObjectID(kAudioObjectSystemObject), &address, UInt32(MemoryLayout<CFString>.size), $0, &size, &id)
        }
        return status == noErr && id != 0 ? id : nil
    }

    /// The format of the queue's device stream (its sample rate and channel count are queue properties).
    func deviceFormat() -> AudioStreamBasicDescription? {
        deviceID().flatMap { HALDeviceQuery.streamFormat($0, input: direction == .input) }
    }
}
