import AudioDSP
import COCASupport
import Foundation

/// The device thread's side: play enqueued buffers into the I/O unit, record into them, or render
/// offline. Nothing here allocates, locks or makes a system call (offline rendering also calls the
/// client, on the client's own thread).
extension AudioQueueObject {
    /// The output I/O unit's render callback.
    static let renderProc: AURenderCallback = { refCon, _, _, _, frames, ioData in
        guard let ioData else { return kAudio_ParamError }
        let q = Unmanaged<AudioQueueObject>.fromOpaque(refCon).takeUnretainedValue()
        guard let route = q.channelRoute else {
            q.render(frames: Int(frames), into: UnsafeMutableAudioBufferListPointer(ioData), inline: false)
            return noErr
        }
        // ChannelAssignments: render the queue's channels aside, then put each on its device channel.
        let n = min(Int(frames), maximumFramesPerSlice)
        route.prepare(frames: n)
        q.render(frames: n, into: route.list, inline: false)
        route.scatter(into: UnsafeMutableAudioBufferListPointer(ioData), frames: n)
        return noErr
    }

    /// The input I/O unit's input callback: pulls the captured slice and records it into enqueued buffers.
    static let captureProc: AURenderCallback = { refCon, flags, timeStamp, _, frames, _ in
        let q = Unmanaged<AudioQueueObject>.fromOpaque(refCon).takeUnretainedValue()
        guard let unit = q.ioUnit else { return noErr }
        let n = min(Int(frames), maximumFramesPerSlice)
        q.pointAtScratch(q.captureList, frames: n)
        if let route = q.channelRoute {
            // ChannelAssignments: capture every device channel aside, then take each queue channel's own.
            route.prepare(frames: n)
            let status = AudioUnitRender(unit, flags, timeStamp, 1, UInt32(n), route.list.unsafeMutablePointer)
            guard status == noErr else { return status }
            route.gather(into: q.captureList, frames: n)
        } else {
            let status = AudioUnitRender(unit, flags, timeStamp, 1, UInt32(n), q.captureList.unsafeMutablePointer)
            guard status == noErr else { return status }
        }
        q.renderingInline = false
        let recorded = q.tap.map { q.tapInput($0, frames: n, hostTime: timeStamp.pointee.mHostTime) } ?? n
        q.record(frames: recorded, hostTime: timeStamp.pointee.mHostTime)
        return noErr
    }

    /// A Reset asked while the device runs: hand every entry back (and forget the time-pitch history).
    private func answerResetRequest() {
        guard resetPending.load(ordering: .acquiring) else { return }
        returnAllEntries()
        timePitch?.processor.reset()
        stagedFrames = 0
        tap?.discontinuity = true
        resetPending.store(false, ordering: .releasing)
        resetDone.store(true, ordering: .releasing)
    }

    /// Points `list`'s first `pcm.channels` buffers at the planar scratch area, `frames` frames each.
    func pointAtScratch(_ list: UnsafeMutableAudioBufferListPointer, frames: Int) {
        for c in 0..<min(list.count, pcm.channels) {
            list[c] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(frames * 4),
                                  mData: UnsafeMutableRawPointer(scratchSamples + c * Self.maximumFramesPerSlice))
        }
    }

    /// Plays `frames` frames of the enqueued audio into `list` (planar Float32), silence where there is
    /// none, through the time-pitch processor when EnableTimePitch is on, then applies volume and pan and
    /// measures the levels. `inline`: offline rendering, where a finished buffer goes back to the client
    /// at once (on this thread) so it can enqueue more. Returns the frames of audio produced; with a
    /// Stop(false) pending and nothing left, the rest of the slice is silence and `playedOut` is set.
    @discardableResult
    func render(frames: Int, into list: UnsafeMutableAudioBufferListPointer, inline: Bool) -> Int {
        answerResetRequest()
        renderingInline = inline
        if outputPaused.load(ordering: .acquiring) {
            // Paused: silence while the device plays out what it holds; nothing is taken and the time stands still.
            for c in 0..<min(list.count, pcm.channels) {
                if let p = list[c].mData?.assumingMemoryBound(to: Float.self) { oca_memzero(p, UInt(frames) * 4) }
            }
            pauseFramesToHear.subtract(frames, ordering: .releasing)
            return 0
        }
        let delay = startDelay.load(ordering: .acquiring)
        if delay > 0 {
            // Before the start time: silence, and the queue's time runs; the audio starts at the exact frame.
            let n = min(delay, frames)
            startDelay.store(delay - n, ordering: .releasing)
            let channels = min(list.count, pcm.channels)
            for c in 0..<channels {
                if let p = list[c].mData?.assumingMemoryBound(to: Float.self) { oca_memzero(p, UInt(n) * 4) }
            }
            sampleTime.add(n, ordering: .releasing)
            if n == frames { return 0 }
            offsetList.count = channels
            for c in 0..<channels {
                offsetList[c] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32((frames - n) * 4), mData: list[c].mData.map { $0 + n * 4 })
            }
            return n + render(frames: frames - n, into: offsetList, inline: inline)
        }
        let (written, drained): (Int, Bool)
        if let tap, tap.isPostEffects, !tap.isSiphon {
            (written, drained) = runTap(tap, frames: frames, into: list, at: 0)
        } else {
            (written, drained) = effects(frames: frames, into: list)
            if let tap, tap.isPostEffects { siphon(tap, list, frames: drained ? written : frames, at: 0) }
        }
        let ended = drained && written < frames
        let counted = ended && inline ? written : frames
        measure(list, frames: counted)
        if !inline { publishMeters() }
        sampleTime.add(counted, ordering: .releasing)
        if ended {
            lastSliceEnded = true
            endSampleTime.store(sampleTime.load(ordering: .relaxed) - counted + written, ordering: .relaxed)
            playedOut.store(true, ordering: .releasing)
        }
        return written
    }

    /// The queue's audio with its effects: the source (through a pre-effects tap), time-pitch when
    /// EnableTimePitch is on, volume and pan. Returns the frames of audio produced (all of them unless the
    /// audio ended) and whether a Stop(false) has played everything out (the rest of the slice is silence).
    func effects(frames: Int, into list: UnsafeMutableAudioBufferListPointer) -> (Int, Bool) {
        var written = 0
        var drained = false
        if let tp = timePitch {
            let rate = Float(bitPattern: playRateBits.load(ordering: .relaxed))
            let cents = Float(bitPattern: pitchBits.load(ordering: .relaxed))
            tp.configure(rate: rate, cents: cents)
            var stuck = 0
            var sourceDrained = false
            while written < frames && stuck < 4 {
                let wanted = min(max(tp.processor.inputFramesNeeded(forOutputFrames: frames - written), 1), tp.stagingCapacity)
                if stagedFrames < wanted && !sourceDrained {
                    let (got, ended) = source(frames: wanted - stagedFrames, into: tp.stagingList, at: stagedFrames)
                    // An underrun plays the silence the source filled in; the end of a Stop(false) flushes the processor.
                    stagedFrames = ended ? stagedFrames + got : wanted
                    sourceDrained = ended
                }
                for c in 0..<pcm.channels { tp.outputs[c] = list[c].mData!.assumingMemoryBound(to: Float.self) + written }
                let r = tp.processor.process(input: UnsafePointer(tp.inputs), inputFrames: stagedFrames, endOfInput: sourceDrained,
                                             output: UnsafePointer(tp.outputs), outputCapacity: frames - written)
                tp.consume(r.inputConsumed, of: stagedFrames)
                stagedFrames -= r.inputConsumed
                written += r.outputProduced
                stuck = r.outputProduced == 0 && r.inputConsumed == 0 ? stuck + 1 : 0
                if sourceDrained && tp.processor.isFinished { break }
            }
            // Played out once the processor has given back everything it held (its look-ahead and filter tail).
            drained = sourceDrained && (tp.processor.isFinished || stuck >= 4)
            for c in 0..<min(list.count, pcm.channels) where written < frames {
                if let p = list[c].mData?.assumingMemoryBound(to: Float.self) { oca_memzero(p + written, UInt(frames - written) * 4) }
            }
        } else {
            (written, drained) = source(frames: frames, into: list, at: 0)
        }
        applyGain(list, frames: frames)
        return (written, drained)
    }

    /// The enqueued audio from frame `offset` of `list`, through a pre-effects tap if there is one. Returns the
    /// frames produced (all of them, silence filling an underrun, unless the audio ended) and whether it ended.
    func source(frames: Int, into list: UnsafeMutableAudioBufferListPointer, at offset: Int) -> (Int, Bool) {
        if let tap, !tap.isPostEffects {
            if !tap.isSiphon { return runTap(tap, frames: frames, into: list, at: offset) }
            let (got, ended) = pullChecked(frames: frames, into: list, at: offset)
            siphon(tap, list, frames: ended ? got : frames, at: offset)
            return (got, ended)
        }
        return pullChecked(frames: frames, into: list, at: offset)
    }

    /// `pull`, and whether a Stop(false) has nothing more to play.
    func pullChecked(frames: Int, into list: UnsafeMutableAudioBufferListPointer, at offset: Int) -> (Int, Bool) {
        let got = pull(frames: frames, into: list, at: offset, inline: renderingInline)
        let ended = got < frames && current == nil && toDevice.isEmpty && stopPending.load(ordering: .acquiring)
        return (ended ? got : frames, ended)
    }

    /// Copies up to `frames` frames of enqueued audio into `list` from frame `at`, finishing buffers as
    /// they empty; the rest is silence. Returns the frames of enqueued audio copied.
    private func pull(frames: Int, into list: UnsafeMutableAudioBufferListPointer, at offset: Int, inline: Bool) -> Int {
        let bpf = pcm.bytesPerFrame
        var written = 0
        while written < frames {
            if current == nil {
                guard let next = toDevice.pop() else { break }
                current = next
                position = next.start
                if !next.volume.isNaN { volumeBits.store(next.volume.bitPattern, ordering: .relaxed) }
                // A start time ahead of the queue's: silence up to it (on the input side of time-pitch, when on).
                gapFrames = next.startSample >= 0 ? max(0, next.startSample - (sampleTime.load(ordering: .relaxed) + offset + written)) : 0
            }
            if gapFrames > 0 {
                let g = min(gapFrames, frames - written)
                for c in 0..<min(list.count, pcm.channels) {
                    if let p = list[c].mData?.assumingMemoryBound(to: Float.self) { oca_memzero(p + offset + written, UInt(g) * 4) }
                }
                gapFrames -= g
                written += g
                continue
            }
            let e = current!
            let n = min((e.end - position) / bpf, frames - written)
            if n > 0 {
                byteList[0] = AudioBuffer(mNumberChannels: UInt32(pcm.channels), mDataByteSize: UInt32(e.end - position),
                                          mData: e.data + position)
                converter.convertDirect(from: byteList, inFrame: 0, to: list, outFrame: offset + written, frames: n)
                position += n * bpf
                written += n
            }
            if position + bpf > e.end {
                current = nil
                if inline { returnInline(e) } else { completeEntry(e, bytes: 0) }
            }
        }
        for c in 0..<min(list.count, pcm.channels) where written < frames {
            if let p = list[c].mData?.assumingMemoryBound(to: Float.self) { oca_memzero(p + offset + written, UInt(frames - written) * 4) }
        }
        return written
    }

    /// Offline rendering: the client gets the buffer back before rendering goes on.
    private func returnInline(_ e: AudioQueueEntry) {
        lock.lock()
        buffers[UnsafeMutableRawPointer(e.buffer)]?.enqueued = false
        let gone = disposed
        lock.unlock()
        if !gone { callback.call(ref, AudioQueueCompletion(buffer: e.buffer, startTime: AudioTimeStamp())) }
    }

    /// Volume (ramped over VolumeRampTime) and, for stereo, pan as a balance.
    private func applyGain(_ list: UnsafeMutableAudioBufferListPointer, frames: Int) {
        let target = Float(bitPattern: volumeBits.load(ordering: .relaxed))
        let ramp = Float(bitPattern: volumeRampBits.load(ordering: .relaxed))
        let pan = Float(bitPattern: panBits.load(ordering: .relaxed))
        let channels = min(list.count, pcm.channels)
        if gain != 1 || target != 1 {
            let step = ramp > 0 ? abs(target - gain) / (ramp * Float(format.mSampleRate)) : .infinity
            var reached = gain
            for c in 0..<channels {
                guard let p = list[c].mData?.assumingMemoryBound(to: Float.self) else { continue }
                reached = MixerKernels.scale(p, count: frames, gain: gain, target: target, step: step)
            }
            gain = reached
        }
        if pan != 0 && channels == 2 {
            let g = MixerKernels.stereoBalanceGains(pan)
            for (c, v) in [(0, g.left), (1, g.right)] {
                guard let p = list[c].mData?.assumingMemoryBound(to: Float.self) else { continue }
                _ = MixerKernels.scale(p, count: frames, gain: v, target: v, step: 0)
            }
        }
    }

    /// Adds a slice to each channel's running peak and sum of squares (for CurrentLevelMeter(DB)).
    private func measure(_ list: UnsafeMutableAudioBufferListPointer, frames: Int) {
        guard meteringOn.load(ordering: .relaxed), frames > 0 else { return }
        for c in 0..<min(list.count, pcm.channels) {
            guard let p = list[c].mData?.assumingMemoryBound(to: Float.self) else { continue }
            let samples = UnsafeBufferPointer(start: p, count: frames)
            meterSums[2 * c] = max(meterSums[2 * c], Double(SignalMeasurement.peak(samples)))
            meterSums[2 * c + 1] += SignalMeasurement.sumOfSquares(samples)
        }
        meterFrames += frames
    }

    /// Publishes the levels measured since the last publication: one device cycle, or one OfflineRender.
    func publishMeters() {
        guard meterFrames > 0 else { return }
        for c in 0..<pcm.channels {
            oca_atomic_store_u32(meters + 2 * c, Float(meterSums[2 * c]).bitPattern)
            oca_atomic_store_u32(meters + 2 * c + 1, Float((meterSums[2 * c + 1] / Double(meterFrames)).squareRoot()).bitPattern)
            meterSums[2 * c] = 0
            meterSums[2 * c + 1] = 0
        }
        meterFrames = 0
    }

    /// Records `frames` captured frames (in `captureList`) into the enqueued buffers; a full buffer goes
    /// back with the queue time of its first frame. With no buffer enqueued the frames are dropped.
    func record(frames: Int, hostTime: UInt64) {
        answerResetRequest()
        let bpf = pcm.bytesPerFrame
        let base = sampleTime.load(ordering: .relaxed)
        var done = 0
        while done < frames {
            if current == nil {
                guard let next = toDevice.pop() else { break }
                current = next
                position = 0
                captureStart = AudioTimeStamp()
                captureStart.mSampleTime = Double(base + done)
                captureStart.mHostTime = hostTime &+ UInt64(Double(done) / format.mSampleRate * 1e9)
                captureStart.mFlags = [.sampleTimeValid, .hostTimeValid]
            }
            let e = current!
            let n = min((e.end - position) / bpf, frames - done)
            if n > 0 {
                byteList[0] = AudioBuffer(mNumberChannels: UInt32(pcm.channels), mDataByteSize: UInt32(e.end - position),
                                          mData: e.data + position)
                converter.convertDirect(from: captureList, inFrame: done, to: byteList, outFrame: 0, frames: n)
                position += n * bpf
                done += n
            }
            if position + bpf > e.end {
                current = nil
                completeEntry(e, bytes: position)
            }
        }
        measure(captureList, frames: frames)
        publishMeters()
        sampleTime.add(frames, ordering: .releasing)
    }
}
