import COCASupport

/// AudioUnitRender for every built-in unit, with the checks and notifications of Apple's base class.
/// Safe on the render thread: no allocation, no locks.
///
/// The hot path is kept in one small frame: a pull chain recurses through every unit, and in a 64-unit chain the
/// stack (about 900 bytes per unit before) no longer fitted the L1 cache beside the units' own data. Whatever an idle
/// unit does not need (errors, notifications, the load meter, a pending graph plan, lending buffers) is out of line.
extension AUBase {
    @inline(__always)
    func auRender(_ flagsPointer: UnsafeMutablePointer<AudioUnitRenderActionFlags>?,
                  _ timeStamp: UnsafePointer<AudioTimeStamp>, _ bus: UInt32, _ frames: UInt32,
                  _ ioData: UnsafeMutablePointer<AudioBufferList>) -> OSStatus {
        guard let flagsPointer else { return renderWithLocalFlags(timeStamp, bus, frames, ioData) }
        oca_render_enter()
        defer { oca_render_leave() }
        // A plain load first: the exchange is a locked instruction, and a plan is pending only after a graph edit.
        if pendingPlan.load(ordering: .relaxed) != nil { adoptPendingPlan() }
        guard !hasRenderWork(.meter) else { return renderMetered(flagsPointer, timeStamp, bus, frames, ioData) }
        return renderChecked(flagsPointer, timeStamp, bus, frames, ioData)
    }

    @inline(never)
    private func renderWithLocalFlags(_ timeStamp: UnsafePointer<AudioTimeStamp>, _ bus: UInt32, _ frames: UInt32,
                                      _ ioData: UnsafeMutablePointer<AudioBufferList>) -> OSStatus {
        var localFlags: AudioUnitRenderActionFlags = []
        return auRender(&localFlags, timeStamp, bus, frames, ioData)
    }

    @inline(never)
    private func adoptPendingPlan() {
        if let plan = pendingPlan.exchange(nil, ordering: .acquiringAndReleasing) {
            Unmanaged<GraphRenderPlan>.fromOpaque(plan)._withUnsafeGuaranteedRef { $0.adopt() }
        }
    }

    @inline(never)
    private func renderMetered(_ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>,
                               _ timeStamp: UnsafePointer<AudioTimeStamp>, _ bus: UInt32, _ frames: UInt32,
                               _ ioData: UnsafeMutablePointer<AudioBufferList>) -> OSStatus {
        let start = oca_monotonic_nanoseconds()
        let status = renderChecked(flags, timeStamp, bus, frames, ioData)
        loadMeter.record(nanoseconds: oca_monotonic_nanoseconds() - start, frames: frames,
                         sampleRate: outputs.isEmpty ? 44100 : outputs[0].format.mSampleRate)
        return status
    }

    @inline(__always)
    private func renderChecked(_ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>,
                               _ timeStamp: UnsafePointer<AudioTimeStamp>, _ bus: UInt32, _ frames: UInt32,
                               _ ioData: UnsafeMutablePointer<AudioBufferList>) -> OSStatus {
        guard isInitialized else { return finishRender(kAudioUnitErr_Uninitialized, flags, timeStamp, bus, frames, ioData) }
        guard frames <= maxFramesPerSlice else {
            return finishRender(kAudioUnitErr_TooManyFramesToProcess, flags, timeStamp, bus, frames, ioData)
        }
        guard Int(bus) < outputCount else { return kAudioUnitErr_InvalidElement }
        // Bus 0's checks use the copy kept in the unit, the others' the element itself.
        let (bufferCount, bytesPerFrame) = bus == 0 ? (Int(output0Buffers), output0BytesPerFrame)
            : withOutput(Int(bus)) { ($0.bufferCount, $0.format.mBytesPerFrame) }
        let abl = UnsafeMutableAudioBufferListPointer(ioData)
        guard abl.count == bufferCount else {
            return finishRender(kAudio_ParamError, flags, timeStamp, bus, frames, ioData)
        }
        let expectedBytes = frames * bytesPerFrame
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
        guard callerProvidesMemory, renderWork.load(ordering: .relaxed) == 0 else {
            return renderWithWork(flags, timeStamp, bus, frames, ioData, callerProvidesMemory: callerProvidesMemory)
        }
        // The common case: the caller's memory, no notifications and no parameter events.
        let status: OSStatus
        if bus == 0, passesInput0Through, let upstream = input0Upstream.load(ordering: .relaxed) {
            status = AudioUnitRender(OpaquePointer(upstream), flags, timeStamp, 0, frames, ioData)
        } else {
            status = renderBus(flags, timeStamp, bus, frames, ioData)
        }
        guard status == noErr else { return finishRender(status, flags, timeStamp, bus, frames, ioData) }
        lastRenderSampleTime.store(timeStamp.pointee.mSampleTime.bitPattern, ordering: .relaxed)
        return noErr
    }

    /// The render with notifications, scheduled parameters or the unit's own memory lent to the caller.
    @inline(never)
    private func renderWithWork(_ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>,
                                _ timeStamp: UnsafePointer<AudioTimeStamp>, _ bus: UInt32, _ frames: UInt32,
                                _ ioData: UnsafeMutablePointer<AudioBufferList>, callerProvidesMemory: Bool) -> OSStatus {
        if hasRenderWork(.notifies) {
            renderNotifies.notify(flags.pointee.union(.unitRenderAction_PreRender), timeStamp, bus, frames, ioData)
        }
        applyScheduledParameters(frames: frames)

        let status: OSStatus
        if callerProvidesMemory {
            status = renderBus(flags, timeStamp, bus, frames, ioData)
        } else {
            let buffers = outputs[Int(bus)].buffers
            guard buffers.hasMemory else {
                return finishRender(kAudioUnitErr_InvalidPropertyValue, flags, timeStamp, bus, frames, ioData)
            }
            let own = buffers.prepare(frames: frames)
            status = renderBus(flags, timeStamp, bus, frames, own)
            // Lend our pointers to the caller.
            let abl = UnsafeMutableAudioBufferListPointer(ioData), ownList = UnsafeMutableAudioBufferListPointer(own)
            for i in 0..<abl.count { abl[i] = ownList[i] }
        }
        if status == noErr {
            lastRenderSampleTime.store(timeStamp.pointee.mSampleTime.bitPattern, ordering: .relaxed)
        }
        return finishRender(status, flags, timeStamp, bus, frames, ioData)
    }

    /// Post-render notification and LastRenderError bookkeeping.
    @inline(never)
    private func finishRender(_ status: OSStatus, _ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>,
                              _ timeStamp: UnsafePointer<AudioTimeStamp>, _ bus: UInt32, _ frames: UInt32,
                              _ ioData: UnsafeMutablePointer<AudioBufferList>) -> OSStatus {
        var post = flags.pointee.union(.unitRenderAction_PostRender)
        if status != noErr {
            post.insert(.unitRenderAction_PostRenderError)
            // The first error sticks until LastRenderError is read.
            _ = lastRenderError.compareExchange(expected: 0, desired: status, ordering: .relaxed)
        }
        if hasRenderWork(.notifies) { renderNotifies.notify(post, timeStamp, bus, frames, ioData) }
        return status
    }
}
