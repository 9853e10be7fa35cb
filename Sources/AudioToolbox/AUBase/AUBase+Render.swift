import COCASupport

/// AudioUnitRender for every built-in unit, with the checks and notifications of Apple's base class.
/// Safe on the render thread: no allocation, no locks.
extension AUBase {
    func auRender(_ flagsPointer: UnsafeMutablePointer<AudioUnitRenderActionFlags>?,
                         _ timeStamp: UnsafePointer<AudioTimeStamp>, _ bus: UInt32, _ frames: UInt32,
                         _ ioData: UnsafeMutablePointer<AudioBufferList>) -> OSStatus {
        if let flagsPointer { return doRender(flagsPointer, timeStamp, bus, frames, ioData) }
        var localFlags: AudioUnitRenderActionFlags = []
        return doRender(&localFlags, timeStamp, bus, frames, ioData)
    }

    private func doRender(_ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>,
                          _ timeStamp: UnsafePointer<AudioTimeStamp>, _ bus: UInt32, _ frames: UInt32,
                          _ ioData: UnsafeMutablePointer<AudioBufferList>) -> OSStatus {
        oca_render_enter()
        defer { oca_render_leave() }
        // A plain load first: the exchange is a locked instruction, and a plan is pending only after a graph edit.
        if pendingPlan.load(ordering: .relaxed) != nil, let plan = pendingPlan.exchange(nil, ordering: .acquiringAndReleasing) {
            Unmanaged<GraphRenderPlan>.fromOpaque(plan)._withUnsafeGuaranteedRef { $0.adopt() }
        }
        guard loadMeter.isOn else { return renderChecked(flags, timeStamp, bus, frames, ioData) }
        let start = oca_monotonic_nanoseconds()
        let status = renderChecked(flags, timeStamp, bus, frames, ioData)
        loadMeter.record(nanoseconds: oca_monotonic_nanoseconds() - start, frames: frames,
                         sampleRate: outputs.isEmpty ? 44100 : outputs[0].format.mSampleRate)
        return status
    }

    private func renderChecked(_ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>,
                               _ timeStamp: UnsafePointer<AudioTimeStamp>, _ bus: UInt32, _ frames: UInt32,
                               _ ioData: UnsafeMutablePointer<AudioBufferList>) -> OSStatus {
        guard isInitialized else {
            return finishRender(kAudioUnitErr_Uninitialized, flags, timeStamp, bus, frames, ioData)
        }
        guard frames <= maxFramesPerSlice else {
            return finishRender(kAudioUnitErr_TooManyFramesToProcess, flags, timeStamp, bus, frames, ioData)
        }
        guard Int(bus) < outputs.count else { return kAudioUnitErr_InvalidElement }
        return withUnretained(outputs[Int(bus)]) { renderChecked($0, flags, timeStamp, bus, frames, ioData) }
    }

    @inline(__always)
    private func renderChecked(_ output: AUOutputElement, _ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>,
                               _ timeStamp: UnsafePointer<AudioTimeStamp>, _ bus: UInt32, _ frames: UInt32,
                               _ ioData: UnsafeMutablePointer<AudioBufferList>) -> OSStatus {
        let abl = UnsafeMutableAudioBufferListPointer(ioData)
        guard abl.count == output.bufferCount else {
            return finishRender(kAudio_ParamError, flags, timeStamp, bus, frames, ioData)
        }
        let expectedBytes = frames * output.format.mBytesPerFrame
        var callerProvidesMemory = true
        for i in 0..<abl.count {
            if abl[i].mData == nil {
                callerProvidesMemory = false
            } else if abl[i].mDataByteSize < expectedBytes {
                return finishRender(kAudio_ParamError, flags, timeStamp, bus, frames, ioData)
            } else {
                abl[i].mDataByteSize = expectedBytes
            }
        }

        renderNotifies.notify(flags.pointee.union(.unitRenderAction_PreRender), timeStamp, bus, frames, ioData)
        applyScheduledParameters(frames: frames)

        let status: OSStatus
        if callerProvidesMemory {
            status = renderBus(flags, timeStamp, bus, frames, ioData)
        } else {
            guard output.buffers.hasMemory else {
                return finishRender(kAudioUnitErr_InvalidPropertyValue, flags, timeStamp, bus, frames, ioData)
            }
            let own = output.buffers.prepare(frames: frames)
            status = renderBus(flags, timeStamp, bus, frames, own)
            // Lend our pointers to the caller.
            let ownList = UnsafeMutableAudioBufferListPointer(own)
            for i in 0..<abl.count { abl[i] = ownList[i] }
        }
        if status == noErr {
            lastRenderSampleTime.store(timeStamp.pointee.mSampleTime.bitPattern, ordering: .relaxed)
        }
        return finishRender(status, flags, timeStamp, bus, frames, ioData)
    }

    /// Post-render notification and LastRenderError bookkeeping.
    @inline(__always)
    private func finishRender(_ status: OSStatus, _ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>,
                              _ timeStamp: UnsafePointer<AudioTimeStamp>, _ bus: UInt32, _ frames: UInt32,
                              _ ioData: UnsafeMutablePointer<AudioBufferList>) -> OSStatus {
        var post = flags.pointee.union(.unitRenderAction_PostRender)
        if status != noErr {
            post.insert(.unitRenderAction_PostRenderError)
            // The first error sticks until LastRenderError is read.
            _ = lastRenderError.compareExchange(expected: 0, desired: status, ordering: .relaxed)
        }
        renderNotifies.notify(post, timeStamp, bus, frames, ioData)
        return status
    }
}
