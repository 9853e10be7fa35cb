// The buffer functions. Buffers belong to the current context's device.

/// Creates `n` buffers and writes their names (AL_INVALID_VALUE for n < 0 or a nil array).
public func alGenBuffers(_ n: ALsizei, _ buffers: UnsafeMutablePointer<ALuint>!) {
    alWithContext { c in
        guard n >= 0 else { c.setError(AL_INVALID_VALUE); return }
        guard n > 0 else { return }
        guard let buffers else { c.setError(AL_INVALID_VALUE); return }
        let d = c.device
        for i in 0..<Int(n) {
            while d.buffers[d.nextBufferID] != nil || d.nextBufferID == 0 { d.nextBufferID &+= 1 }
            let b = ALBuffer(id: d.nextBufferID)
            d.buffers[b.id] = b
            buffers[i] = b.id
            d.nextBufferID &+= 1
        }
    }
}

/// Deletes buffers: all or none (AL_INVALID_NAME for an unknown name, AL_INVALID_OPERATION for one in use;
/// name 0 is ignored).
public func alDeleteBuffers(_ n: ALsizei, _ buffers: UnsafePointer<ALuint>!) {
    alWithContext { c in
        guard n >= 0 else { c.setError(AL_INVALID_VALUE); return }
        guard n > 0 else { return }
        guard let buffers else { c.setError(AL_INVALID_VALUE); return }
        let d = c.device
        for i in 0..<Int(n) where buffers[i] != 0 {
            guard let b = d.buffers[buffers[i]] else { c.setError(AL_INVALID_NAME); return }
            guard b.references == 0 else { c.setError(AL_INVALID_OPERATION); return }
        }
        for i in 0..<Int(n) { d.buffers[buffers[i]] = nil }
    }
}

/// Whether `buffer` names a buffer (0, the NULL buffer, counts, as the spec says).
public func alIsBuffer(_ buffer: ALuint) -> ALboolean {
    alWithContext(ALboolean(AL_FALSE)) { c in ALboolean(buffer == 0 || c.device.buffers[buffer] != nil ? AL_TRUE : AL_FALSE) }
}

/// Copies `size` bytes of `format` at `freq` Hz into the buffer, converted to Float32. AL_INVALID_NAME for an
/// unknown buffer, AL_INVALID_ENUM for an unknown format, AL_INVALID_VALUE for a bad size or rate,
/// AL_INVALID_OPERATION while a source queues it.
public func alBufferData(_ buffer: ALuint, _ format: ALenum, _ data: UnsafeRawPointer!, _ size: ALsizei, _ freq: ALsizei) {
    alWithContext { c in
        guard let b = c.device.buffers[buffer] else { c.setError(AL_INVALID_NAME); return }
        guard let (channels, bits) = ALBuffer.layout(format) else { c.setError(AL_INVALID_ENUM); return }
        guard size >= 0, freq > 0, Int(size) % (channels * bits / 8) == 0, data != nil || size == 0 else { c.setError(AL_INVALID_VALUE); return }
        guard b.references == 0 else { c.setError(AL_INVALID_OPERATION); return }
        b.fill(format: format, data: data, size: Int(size), frequency: Int(freq))
    }
}

/// Apple's extension. Apple's plays from the caller's memory; this copies it, like alBufferData (the caller
/// keeping the memory alive and unchanged, as Apple requires, makes the difference unobservable).
public func alBufferDataStatic(_ bid: ALint, _ format: ALenum, _ data: UnsafeRawPointer!, _ size: ALsizei, _ freq: ALsizei) {
    alBufferData(ALuint(bitPattern: bid), format, data, size, freq)
}

/// A buffer property as an integer: AL_FREQUENCY, AL_BITS, AL_CHANNELS, AL_SIZE.
private func bufferInteger(_ c: ALContext, _ buffer: ALuint, _ param: ALenum) -> ALint? {
    guard let b = c.device.buffers[buffer] else { c.setError(AL_INVALID_NAME); return nil }
    switch param {
    case AL_FREQUENCY: return ALint(b.frequency)
    case AL_BITS: return ALint(b.bits)
    case AL_CHANNELS: return ALint(b.channels)
    case AL_SIZE: return ALint(b.byteSize)
    default: c.setError(AL_INVALID_ENUM); return nil
    }
}

/// Buffer properties are read-only in OpenAL 1.1: AL_INVALID_NAME or AL_INVALID_ENUM.
private func setBuffer(_ buffer: ALuint) {
    alWithContext { c in c.setError(c.device.buffers[buffer] == nil ? AL_INVALID_NAME : AL_INVALID_ENUM) }
}

/// No float buffer properties in 1.1 (AL_INVALID_ENUM).
public func alBufferf(_ buffer: ALuint, _ param: ALenum, _ value: ALfloat) { setBuffer(buffer) }
/// No float-vector buffer properties in 1.1 (AL_INVALID_ENUM).
public func alBuffer3f(_ buffer: ALuint, _ param: ALenum, _ value1: ALfloat, _ value2: ALfloat, _ value3: ALfloat) { setBuffer(buffer) }
/// No float buffer properties in 1.1 (AL_INVALID_ENUM).
public func alBufferfv(_ buffer: ALuint, _ param: ALenum, _ values: UnsafePointer<ALfloat>!) { setBuffer(buffer) }
/// No settable integer buffer properties in 1.1 (AL_INVALID_ENUM).
public func alBufferi(_ buffer: ALuint, _ param: ALenum, _ value: ALint) { setBuffer(buffer) }
/// No settable integer buffer properties in 1.1 (AL_INVALID_ENUM).
public func alBuffer3i(_ buffer: ALuint, _ param: ALenum, _ value1: ALint, _ value2: ALint, _ value3: ALint) { setBuffer(buffer) }
/// No settable integer buffer properties in 1.1 (AL_INVALID_ENUM).
public func alBufferiv(_ buffer: ALuint, _ param: ALenum, _ values: UnsafePointer<ALint>!) { setBuffer(buffer) }

/// No float buffer properties in 1.1 (AL_INVALID_ENUM).
public func alGetBufferf(_ buffer: ALuint, _ param: ALenum, _ value: UnsafeMutablePointer<ALfloat>!) { setBuffer(buffer) }
/// No float-vector buffer properties in 1.1 (AL_INVALID_ENUM).
public func alGetBuffer3f(_ buffer: ALuint, _ param: ALenum, _ value1: UnsafeMutablePointer<ALfloat>!, _ value2: UnsafeMutablePointer<ALfloat>!,
                          _ value3: UnsafeMutablePointer<ALfloat>!) { setBuffer(buffer) }
/// No float buffer properties in 1.1 (AL_INVALID_ENUM).
public func alGetBufferfv(_ buffer: ALuint, _ param: ALenum, _ values: UnsafeMutablePointer<ALfloat>!) { setBuffer(buffer) }

/// AL_FREQUENCY, AL_BITS, AL_CHANNELS or AL_SIZE (bytes of the original format) of a buffer.
public func alGetBufferi(_ buffer: ALuint, _ param: ALenum, _ value: UnsafeMutablePointer<ALint>!) {
    alWithContext { c in if let v = bufferInteger(c, buffer, param) { alStore(c, value, v) } }
}

/// No integer-vector buffer properties in 1.1 (AL_INVALID_ENUM).
public func alGetBuffer3i(_ buffer: ALuint, _ param: ALenum, _ value1: UnsafeMutablePointer<ALint>!, _ value2: UnsafeMutablePointer<ALint>!,
                          _ value3: UnsafeMutablePointer<ALint>!) { setBuffer(buffer) }

/// As alGetBufferi.
public func alGetBufferiv(_ buffer: ALuint, _ param: ALenum, _ values: UnsafeMutablePointer<ALint>!) { alGetBufferi(buffer, param, values) }
