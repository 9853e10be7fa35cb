// The source functions: generation, properties, playback and buffer queueing.

/// The source named `id` in the current context (AL_INVALID_NAME if none).
private func withSource(_ id: ALuint, _ body: (ALContext, ALSource) -> Void) {
    alWithContext { c in
        guard let s = c.sources[id] else { c.setError(AL_INVALID_NAME); return }
        body(c, s)
    }
}

/// How many values a source parameter has, and whether it is integer-only; nil if unknown.
private func sourceShape(_ param: ALenum) -> (count: Int, integerOnly: Bool)? {
    switch param {
    case AL_PITCH, AL_GAIN, AL_MIN_GAIN, AL_MAX_GAIN, AL_MAX_DISTANCE, AL_ROLLOFF_FACTOR, AL_REFERENCE_DISTANCE,
         AL_CONE_INNER_ANGLE, AL_CONE_OUTER_ANGLE, AL_CONE_OUTER_GAIN, AL_SEC_OFFSET, AL_SAMPLE_OFFSET, AL_BYTE_OFFSET:
        return (1, false)
    case AL_POSITION, AL_VELOCITY, AL_DIRECTION: return (3, false)
    case AL_BUFFER, AL_LOOPING, AL_SOURCE_RELATIVE, AL_SOURCE_STATE, AL_BUFFERS_QUEUED, AL_BUFFERS_PROCESSED, AL_SOURCE_TYPE:
        return (1, true)
    default: return nil
    }
}

/// Sets a source parameter from `v` (its count checked by the caller); records the spec's error if any.
private func setSource(_ c: ALContext, _ s: ALSource, _ param: ALenum, _ v: [Double]) {
    guard v.allSatisfy(\.isFinite) else { c.setError(AL_INVALID_VALUE); return }
    let x = v[0]
    func ranged(_ range: ClosedRange<Double>, _ store: (Float) -> Void) {
        guard range.contains(x) else { c.setError(AL_INVALID_VALUE); return }
        store(Float(x))
    }
    switch param {
    case AL_PITCH:
        guard x > 0 else { c.setError(AL_INVALID_VALUE); return }
        s.pitch = Float(x)
    case AL_GAIN: ranged(0...Double.greatestFiniteMagnitude) { s.gain = $0 }
    case AL_MIN_GAIN: ranged(0...1) { s.minGain = $0 }
    case AL_MAX_GAIN: ranged(0...1) { s.maxGain = $0 }
    case AL_MAX_DISTANCE: ranged(0...Double.greatestFiniteMagnitude) { s.maxDistance = $0 }
    case AL_ROLLOFF_FACTOR: ranged(0...Double.greatestFiniteMagnitude) { s.rolloff = $0 }
    case AL_REFERENCE_DISTANCE: ranged(0...Double.greatestFiniteMagnitude) { s.referenceDistance = $0 }
    case AL_CONE_INNER_ANGLE: ranged(0...360) { s.coneInner = $0 }
    case AL_CONE_OUTER_ANGLE: ranged(0...360) { s.coneOuter = $0 }
    case AL_CONE_OUTER_GAIN: ranged(0...1) { s.coneOuterGain = $0 }
    case AL_POSITION: s.position = SIMD3(Float(v[0]), Float(v[1]), Float(v[2]))
    case AL_VELOCITY: s.velocity = SIMD3(Float(v[0]), Float(v[1]), Float(v[2]))
    case AL_DIRECTION: s.direction = SIMD3(Float(v[0]), Float(v[1]), Float(v[2]))
    case AL_LOOPING, AL_SOURCE_RELATIVE:
        guard x == 0 || x == 1 else { c.setError(AL_INVALID_VALUE); return }
        ALState.shared.rendering { if param == AL_LOOPING { s.looping = x == 1 } else { s.relative = x == 1 } }
    case AL_SEC_OFFSET, AL_SAMPLE_OFFSET, AL_BYTE_OFFSET:
        guard x >= 0, let b = s.firstBuffer else { c.setError(AL_INVALID_VALUE); return }
        let frame = param == AL_SAMPLE_OFFSET ? Int(x) : param == AL_BYTE_OFFSET ? Int(x) / max(b.bytesPerFrame, 1) : Int(x * Double(b.frequency))
        guard frame < s.totalFrames else { c.setError(AL_INVALID_VALUE); return }
        ALState.shared.rendering(publishing: s) { if s.state == AL_PLAYING || s.state == AL_PAUSED { s.seek(frame) } else { s.pendingOffset = frame } }
    case AL_BUFFER:
        // Only a playing source changes state on its own (to stopped): a stopped or initial one stays so here.
        guard s.playback.state == AL_INITIAL || s.playback.state == AL_STOPPED else { c.setError(AL_INVALID_OPERATION); return }
        let id = ALuint(truncatingIfNeeded: Int64(x))
        var buffer: ALBuffer? = nil
        if id != 0 {
            guard let b = c.device.buffers[id] else { c.setError(AL_INVALID_VALUE); return }
            buffer = b
        }
        let queue = buffer.map { [$0] } ?? []
        for b in s.queue { b.references -= 1 }
        buffer?.references += 1
        ALState.shared.rendering(publishing: s) {
            s.queue = queue
            s.type = buffer == nil ? AL_UNDETERMINED : AL_STATIC
            s.current = s.state == AL_STOPPED ? s.queue.count : 0
            s.cursor = 0
            s.pendingOffset = nil
        }
    case AL_SOURCE_STATE, AL_BUFFERS_QUEUED, AL_BUFFERS_PROCESSED, AL_SOURCE_TYPE:
        c.setError(AL_INVALID_OPERATION)  // read-only
        return
    default:
        c.setError(AL_INVALID_ENUM)
        return
    }
    c.update(s)
}

/// A source parameter's values, or nil (AL_INVALID_ENUM recorded). Read under the API lock only: the play cursor
/// (which the render thread moves) from its published snapshot, so that polling never holds up a render.
private func getSource(_ c: ALContext, _ s: ALSource, _ param: ALenum) -> [Double]? {
    let p = s.playback
    func three(_ v: SIMD3<Float>) -> [Double] { [Double(v.x), Double(v.y), Double(v.z)] }
    switch param {
    case AL_PITCH: return [Double(s.pitch)]
    case AL_GAIN: return [Double(s.gain)]
    case AL_MIN_GAIN: return [Double(s.minGain)]
    case AL_MAX_GAIN: return [Double(s.maxGain)]
    case AL_MAX_DISTANCE: return [Double(s.maxDistance)]
    case AL_ROLLOFF_FACTOR: return [Double(s.rolloff)]
    case AL_REFERENCE_DISTANCE: return [Double(s.referenceDistance)]
    case AL_CONE_INNER_ANGLE: return [Double(s.coneInner)]
    case AL_CONE_OUTER_ANGLE: return [Double(s.coneOuter)]
    case AL_CONE_OUTER_GAIN: return [Double(s.coneOuterGain)]
    case AL_POSITION: return three(s.position)
    case AL_VELOCITY: return three(s.velocity)
    case AL_DIRECTION: return three(s.direction)
    case AL_LOOPING: return [s.looping ? 1 : 0]
    case AL_SOURCE_RELATIVE: return [s.relative ? 1 : 0]
    case AL_SOURCE_STATE: return [Double(p.state)]
    case AL_SOURCE_TYPE: return [Double(s.type)]
    case AL_BUFFERS_QUEUED: return [Double(s.queue.count)]
    case AL_BUFFERS_PROCESSED: return [Double(s.processed(at: p))]
    case AL_BUFFER:
        let b = s.type == AL_STATIC ? s.queue.first : (p.current < s.queue.count ? s.queue[p.current] : s.queue.last)
        return [Double(b?.id ?? 0)]
    case AL_SAMPLE_OFFSET: return [Double(s.sampleOffset(at: p))]
    case AL_BYTE_OFFSET: return [Double(s.sampleOffset(at: p) * (s.firstBuffer?.bytesPerFrame ?? 0))]
    case AL_SEC_OFFSET: return [Double(s.sampleOffset(at: p)) / Double(s.firstBuffer?.frequency ?? 1)]
    default:
        c.setError(AL_INVALID_ENUM)
        return nil
    }
}

/// Creates `n` sources, each on its own mixer input (all or none; AL_INVALID_VALUE beyond the mixer's inputs).
public func alGenSources(_ n: ALsizei, _ sources: UnsafeMutablePointer<ALuint>!) {
    alWithContext { c in
        guard n >= 0 else { c.setError(AL_INVALID_VALUE); return }
        guard n > 0 else { return }
        guard let sources else { c.setError(AL_INVALID_VALUE); return }
        let free = c.voices.indices.filter { c.voices[$0] == nil }
        guard free.count >= Int(n) else { c.setError(AL_INVALID_VALUE); return }
        for i in 0..<Int(n) {
            while c.sources[c.nextSourceID] != nil || c.nextSourceID == 0 { c.nextSourceID &+= 1 }
            let s = ALSource(id: c.nextSourceID, bus: free[i])
            c.nextSourceID &+= 1
            c.sources[s.id] = s
            ALState.shared.rendering { c.voices[s.bus] = s }
            sources[i] = s.id
            c.update(s)
        }
    }
}

/// Deletes sources (all or none; AL_INVALID_NAME for an unknown one), stopping them and releasing their buffers.
public func alDeleteSources(_ n: ALsizei, _ sources: UnsafePointer<ALuint>!) {
    alWithContext { c in
        guard n >= 0 else { c.setError(AL_INVALID_VALUE); return }
        guard n > 0 else { return }
        guard let sources else { c.setError(AL_INVALID_VALUE); return }
        for i in 0..<Int(n) where c.sources[sources[i]] == nil { c.setError(AL_INVALID_NAME); return }
        for i in 0..<Int(n) {
            guard let s = c.sources.removeValue(forKey: sources[i]) else { continue }
            ALState.shared.rendering(publishing: s) {
                s.state = AL_STOPPED
                c.voices[s.bus] = nil
            }
            s.audible = false
            c.update(s)
            for b in s.queue { b.references -= 1 }
            s.queue = []
        }
    }
}

/// Whether `source` names a source of the current context.
public func alIsSource(_ source: ALuint) -> ALboolean {
    alWithContext(ALboolean(AL_FALSE)) { c in ALboolean(c.sources[source] != nil ? AL_TRUE : AL_FALSE) }
}

/// Sets a one-value float parameter (gains, pitch, distances, cone, offsets).
public func alSourcef(_ source: ALuint, _ param: ALenum, _ value: ALfloat) {
    withSource(source) { c, s in
        guard let shape = sourceShape(param), shape.count == 1, !shape.integerOnly else { c.setError(AL_INVALID_ENUM); return }
        setSource(c, s, param, [Double(value)])
    }
}

/// Sets AL_POSITION, AL_VELOCITY or AL_DIRECTION.
public func alSource3f(_ source: ALuint, _ param: ALenum, _ value1: ALfloat, _ value2: ALfloat, _ value3: ALfloat) {
    withSource(source) { c, s in
        guard sourceShape(param)?.count == 3 else { c.setError(AL_INVALID_ENUM); return }
        setSource(c, s, param, [Double(value1), Double(value2), Double(value3)])
    }
}

/// Sets any float parameter from an array.
public func alSourcefv(_ source: ALuint, _ param: ALenum, _ values: UnsafePointer<ALfloat>!) {
    withSource(source) { c, s in
        guard let shape = sourceShape(param), !shape.integerOnly else { c.setError(AL_INVALID_ENUM); return }
        guard let values else { c.setError(AL_INVALID_VALUE); return }
        setSource(c, s, param, (0..<shape.count).map { Double(values[$0]) })
    }
}

/// Sets a one-value parameter from an integer (AL_BUFFER, AL_LOOPING, AL_SOURCE_RELATIVE, offsets, distances, ...).
public func alSourcei(_ source: ALuint, _ param: ALenum, _ value: ALint) {
    withSource(source) { c, s in
        guard sourceShape(param)?.count == 1 else { c.setError(AL_INVALID_ENUM); return }
        // AL_BUFFER takes the name's bits (ALuint passed as ALint).
        setSource(c, s, param, [param == AL_BUFFER ? Double(UInt32(bitPattern: value)) : Double(value)])
    }
}

/// Sets AL_POSITION, AL_VELOCITY or AL_DIRECTION from integers.
public func alSource3i(_ source: ALuint, _ param: ALenum, _ value1: ALint, _ value2: ALint, _ value3: ALint) {
    withSource(source) { c, s in
        guard sourceShape(param)?.count == 3 else { c.setError(AL_INVALID_ENUM); return }
        setSource(c, s, param, [Double(value1), Double(value2), Double(value3)])
    }
}

/// Sets any parameter from an integer array.
public func alSourceiv(_ source: ALuint, _ param: ALenum, _ values: UnsafePointer<ALint>!) {
    withSource(source) { c, s in
        guard let shape = sourceShape(param) else { c.setError(AL_INVALID_ENUM); return }
        guard let values else { c.setError(AL_INVALID_VALUE); return }
        setSource(c, s, param, (0..<shape.count).map { param == AL_BUFFER ? Double(UInt32(bitPattern: values[$0])) : Double(values[$0]) })
    }
}

/// Reads a one-value parameter as float.
public func alGetSourcef(_ source: ALuint, _ param: ALenum, _ value: UnsafeMutablePointer<ALfloat>!) {
    withSource(source) { c, s in
        guard let shape = sourceShape(param), shape.count == 1, !shape.integerOnly else { c.setError(AL_INVALID_ENUM); return }
        if let v = getSource(c, s, param) { alStore(c, value, Float(v[0])) }
    }
}

/// Reads AL_POSITION, AL_VELOCITY or AL_DIRECTION.
public func alGetSource3f(_ source: ALuint, _ param: ALenum, _ value1: UnsafeMutablePointer<ALfloat>!, _ value2: UnsafeMutablePointer<ALfloat>!,
                          _ value3: UnsafeMutablePointer<ALfloat>!) {
    withSource(source) { c, s in
        guard sourceShape(param)?.count == 3, let v = getSource(c, s, param) else { c.setError(AL_INVALID_ENUM); return }
        guard let value1, let value2, let value3 else { c.setError(AL_INVALID_VALUE); return }
        value1.pointee = Float(v[0]); value2.pointee = Float(v[1]); value3.pointee = Float(v[2])
    }
}

/// Reads any float parameter into an array.
public func alGetSourcefv(_ source: ALuint, _ param: ALenum, _ values: UnsafeMutablePointer<ALfloat>!) {
    withSource(source) { c, s in
        guard let shape = sourceShape(param), !shape.integerOnly else { c.setError(AL_INVALID_ENUM); return }
        guard let v = getSource(c, s, param) else { return }
        guard let values else { c.setError(AL_INVALID_VALUE); return }
        for (i, x) in v.enumerated() { values[i] = Float(x) }
    }
}

/// Reads a one-value parameter as an integer (AL_SOURCE_STATE, AL_BUFFERS_QUEUED, AL_BUFFERS_PROCESSED, ...).
public func alGetSourcei(_ source: ALuint, _ param: ALenum, _ value: UnsafeMutablePointer<ALint>!) {
    withSource(source) { c, s in
        guard sourceShape(param)?.count == 1 else { c.setError(AL_INVALID_ENUM); return }
        guard let v = getSource(c, s, param) else { return }
        alStore(c, value, param == AL_BUFFER ? ALint(bitPattern: UInt32(v[0])) : ALint(clamping: Int64(v[0].rounded(.towardZero))))
    }
}

/// Reads AL_POSITION, AL_VELOCITY or AL_DIRECTION as integers.
public func alGetSource3i(_ source: ALuint, _ param: ALenum, _ value1: UnsafeMutablePointer<ALint>!, _ value2: UnsafeMutablePointer<ALint>!,
                          _ value3: UnsafeMutablePointer<ALint>!) {
    withSource(source) { c, s in
        guard sourceShape(param)?.count == 3, let v = getSource(c, s, param) else { c.setError(AL_INVALID_ENUM); return }
        guard let value1, let value2, let value3 else { c.setError(AL_INVALID_VALUE); return }
        value1.pointee = ALint(v[0]); value2.pointee = ALint(v[1]); value3.pointee = ALint(v[2])
    }
}

/// Reads any parameter into an integer array.
public func alGetSourceiv(_ source: ALuint, _ param: ALenum, _ values: UnsafeMutablePointer<ALint>!) {
    withSource(source) { c, s in
        guard sourceShape(param) != nil, let v = getSource(c, s, param) else { c.setError(AL_INVALID_ENUM); return }
        guard let values else { c.setError(AL_INVALID_VALUE); return }
        for (i, x) in v.enumerated() { values[i] = param == AL_BUFFER ? ALint(bitPattern: UInt32(x)) : ALint(clamping: Int64(x.rounded(.towardZero))) }
    }
}

/// Applies `transition` to each named source (all names checked first: AL_INVALID_NAME and nothing happens).
private func transition(_ n: ALsizei, _ sources: UnsafePointer<ALuint>?, _ change: (ALContext, ALSource) -> Void) {
    alWithContext { c in
        guard n >= 0 else { c.setError(AL_INVALID_VALUE); return }
        guard n > 0 else { return }
        guard let sources else { c.setError(AL_INVALID_VALUE); return }
        for i in 0..<Int(n) where c.sources[sources[i]] == nil { c.setError(AL_INVALID_NAME); return }
        for i in 0..<Int(n) {
            let s = c.sources[sources[i]]!
            s.audible = ALState.shared.rendering(publishing: s) {
                change(c, s)
                return s.state == AL_PLAYING
            }
            c.update(s)
        }
    }
}

/// Starts (or restarts; resumes if paused) the sources. A source with no buffers goes straight to AL_STOPPED.
public func alSourcePlayv(_ n: ALsizei, _ sources: UnsafePointer<ALuint>!) {
    transition(n, sources) { _, s in
        guard !s.queue.isEmpty else { s.state = AL_STOPPED; s.current = 0; s.cursor = 0; return }
        if s.state != AL_PAUSED {
            s.current = 0
            s.cursor = 0
            if let offset = s.pendingOffset { s.seek(offset) }
        }
        s.pendingOffset = nil
        s.state = AL_PLAYING
    }
}

/// Stops the sources: every queued buffer becomes processed.
public func alSourceStopv(_ n: ALsizei, _ sources: UnsafePointer<ALuint>!) {
    transition(n, sources) { _, s in
        s.state = AL_STOPPED
        s.current = s.queue.count
        s.cursor = 0
        s.pendingOffset = nil
    }
}

/// Rewinds the sources to AL_INITIAL.
public func alSourceRewindv(_ n: ALsizei, _ sources: UnsafePointer<ALuint>!) {
    transition(n, sources) { _, s in
        s.state = AL_INITIAL
        s.current = 0
        s.cursor = 0
        s.pendingOffset = nil
    }
}

/// Pauses the playing sources (others are unchanged).
public func alSourcePausev(_ n: ALsizei, _ sources: UnsafePointer<ALuint>!) {
    transition(n, sources) { _, s in if s.state == AL_PLAYING { s.state = AL_PAUSED } }
}

/// Starts one source (see alSourcePlayv).
public func alSourcePlay(_ source: ALuint) { var s = source; alSourcePlayv(1, &s) }

/// Stops one source (see alSourceStopv).
public func alSourceStop(_ source: ALuint) { var s = source; alSourceStopv(1, &s) }

/// Rewinds one source (see alSourceRewindv).
public func alSourceRewind(_ source: ALuint) { var s = source; alSourceRewindv(1, &s) }

/// Pauses one source (see alSourcePausev).
public func alSourcePause(_ source: ALuint) { var s = source; alSourcePausev(1, &s) }

/// Appends buffers to a source's queue (making it AL_STREAMING). AL_INVALID_NAME for an unknown buffer,
/// AL_INVALID_OPERATION for a static source or a buffer whose format or rate differs from the queue's.
public func alSourceQueueBuffers(_ source: ALuint, _ nb: ALsizei, _ buffers: UnsafePointer<ALuint>!) {
    withSource(source) { c, s in
        guard nb >= 0 else { c.setError(AL_INVALID_VALUE); return }
        guard nb > 0 else { return }
        guard let buffers else { c.setError(AL_INVALID_VALUE); return }
        guard s.type != AL_STATIC else { c.setError(AL_INVALID_OPERATION); return }
        var list: [ALBuffer] = []
        var reference = s.firstBuffer
        for i in 0..<Int(nb) {
            guard let b = c.device.buffers[buffers[i]] else { c.setError(AL_INVALID_NAME); return }
            if let r = reference, r.format != b.format || r.frequency != b.frequency { c.setError(AL_INVALID_OPERATION); return }
            reference = reference ?? b
            list.append(b)
        }
        for b in list { b.references += 1 }
        let queue = s.queue + list
        ALState.shared.rendering {
            s.queue = queue
            s.type = AL_STREAMING
        }
        c.update(s)
    }
}

/// Removes the first `nb` processed buffers from a streaming source's queue and writes their names.
/// AL_INVALID_VALUE if fewer than `nb` are processed (or the source is not streaming), as the spec says.
public func alSourceUnqueueBuffers(_ source: ALuint, _ nb: ALsizei, _ buffers: UnsafeMutablePointer<ALuint>!) {
    withSource(source) { c, s in
        guard nb >= 0 else { c.setError(AL_INVALID_VALUE); return }
        guard nb > 0 else { return }
        guard let buffers else { c.setError(AL_INVALID_VALUE); return }
        let removed: [ALBuffer]? = ALState.shared.rendering(publishing: s) {
            guard s.type == AL_STREAMING, Int(nb) <= s.processed else { return nil }
            let removed = Array(s.queue.prefix(Int(nb)))
            s.queue.removeFirst(Int(nb))
            s.current = max(0, s.current - Int(nb))
            if s.queue.isEmpty { s.type = AL_UNDETERMINED }
            return removed
        }
        guard let removed else { c.setError(AL_INVALID_VALUE); return }
        for (i, b) in removed.enumerated() {
            buffers[i] = b.id
            b.references -= 1
        }
        c.update(s)
    }
}
