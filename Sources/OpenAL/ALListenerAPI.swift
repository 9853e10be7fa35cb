// The listener functions: AL_GAIN, AL_POSITION, AL_VELOCITY, AL_ORIENTATION (at then up).

/// How many values a listener parameter takes, or nil (AL_INVALID_ENUM).
private func listenerCount(_ param: ALenum) -> Int? {
    switch param {
    case AL_GAIN: return 1
    case AL_POSITION, AL_VELOCITY: return 3
    case AL_ORIENTATION: return 6
    default: return nil
    }
}

/// Sets a listener parameter from `v` (already the right count) and re-aims every source.
private func setListener(_ c: ALContext, _ param: ALenum, _ v: [Float]) {
    guard v.allSatisfy(\.isFinite) else { c.setError(AL_INVALID_VALUE); return }
    switch param {
    case AL_GAIN:
        guard v[0] >= 0 else { c.setError(AL_INVALID_VALUE); return }
        c.listenerGain = v[0]
    case AL_POSITION: c.listenerPosition = SIMD3(v[0], v[1], v[2])
    case AL_VELOCITY: c.listenerVelocity = SIMD3(v[0], v[1], v[2])
    case AL_ORIENTATION:
        c.listenerAt = SIMD3(v[0], v[1], v[2])
        c.listenerUp = SIMD3(v[3], v[4], v[5])
    default: c.setError(AL_INVALID_ENUM); return
    }
    c.updateAll()
}

/// A listener parameter's values, or nil (AL_INVALID_ENUM).
private func getListener(_ c: ALContext, _ param: ALenum) -> [Float]? {
    switch param {
    case AL_GAIN: return [c.listenerGain]
    case AL_POSITION: return [c.listenerPosition.x, c.listenerPosition.y, c.listenerPosition.z]
    case AL_VELOCITY: return [c.listenerVelocity.x, c.listenerVelocity.y, c.listenerVelocity.z]
    case AL_ORIENTATION: return [c.listenerAt.x, c.listenerAt.y, c.listenerAt.z, c.listenerUp.x, c.listenerUp.y, c.listenerUp.z]
    default: c.setError(AL_INVALID_ENUM); return nil
    }
}

/// Sets a one-value listener parameter (AL_GAIN).
public func alListenerf(_ param: ALenum, _ value: ALfloat) {
    alWithContext { c in listenerCount(param) == 1 ? setListener(c, param, [value]) : c.setError(AL_INVALID_ENUM) }
}

/// Sets a three-value listener parameter (AL_POSITION, AL_VELOCITY).
public func alListener3f(_ param: ALenum, _ value1: ALfloat, _ value2: ALfloat, _ value3: ALfloat) {
    alWithContext { c in listenerCount(param) == 3 ? setListener(c, param, [value1, value2, value3]) : c.setError(AL_INVALID_ENUM) }
}

/// Sets any listener parameter from an array (AL_ORIENTATION takes six values: at, then up).
public func alListenerfv(_ param: ALenum, _ values: UnsafePointer<ALfloat>!) {
    alWithContext { c in
        guard let n = listenerCount(param) else { c.setError(AL_INVALID_ENUM); return }
        guard let values else { c.setError(AL_INVALID_VALUE); return }
        setListener(c, param, Array(UnsafeBufferPointer(start: values, count: n)))
    }
}

/// No integer listener parameter takes one value in 1.1 (AL_INVALID_ENUM).
public func alListeneri(_ param: ALenum, _ value: ALint) { alWithContext { $0.setError(AL_INVALID_ENUM) } }

/// Sets AL_POSITION or AL_VELOCITY from integers.
public func alListener3i(_ param: ALenum, _ value1: ALint, _ value2: ALint, _ value3: ALint) {
    alListener3f(param, Float(value1), Float(value2), Float(value3))
}

/// Sets AL_POSITION, AL_VELOCITY or AL_ORIENTATION from integers.
public func alListeneriv(_ param: ALenum, _ values: UnsafePointer<ALint>!) {
    alWithContext { c in
        guard let n = listenerCount(param), n > 1 else { c.setError(AL_INVALID_ENUM); return }
        guard let values else { c.setError(AL_INVALID_VALUE); return }
        setListener(c, param, (0..<n).map { Float(values[$0]) })
    }
}

/// Reads AL_GAIN.
public func alGetListenerf(_ param: ALenum, _ value: UnsafeMutablePointer<ALfloat>!) {
    alWithContext { c in
        guard listenerCount(param) == 1, let v = getListener(c, param) else { c.setError(AL_INVALID_ENUM); return }
        alStore(c, value, v[0])
    }
}

/// Reads AL_POSITION or AL_VELOCITY.
public func alGetListener3f(_ param: ALenum, _ value1: UnsafeMutablePointer<ALfloat>!, _ value2: UnsafeMutablePointer<ALfloat>!,
                            _ value3: UnsafeMutablePointer<ALfloat>!) {
    alWithContext { c in
        guard listenerCount(param) == 3, let v = getListener(c, param) else { c.setError(AL_INVALID_ENUM); return }
        guard let value1, let value2, let value3 else { c.setError(AL_INVALID_VALUE); return }
        value1.pointee = v[0]; value2.pointee = v[1]; value3.pointee = v[2]
    }
}

/// Reads any listener parameter into an array.
public func alGetListenerfv(_ param: ALenum, _ values: UnsafeMutablePointer<ALfloat>!) {
    alWithContext { c in
        guard let v = getListener(c, param) else { return }
        guard let values else { c.setError(AL_INVALID_VALUE); return }
        for (i, x) in v.enumerated() { values[i] = x }
    }
}

/// No one-value integer listener parameter in 1.1 (AL_INVALID_ENUM).
public func alGetListeneri(_ param: ALenum, _ value: UnsafeMutablePointer<ALint>!) { alWithContext { $0.setError(AL_INVALID_ENUM) } }

/// Reads AL_POSITION or AL_VELOCITY as integers.
public func alGetListener3i(_ param: ALenum, _ value1: UnsafeMutablePointer<ALint>!, _ value2: UnsafeMutablePointer<ALint>!,
                            _ value3: UnsafeMutablePointer<ALint>!) {
    alWithContext { c in
        guard listenerCount(param) == 3, let v = getListener(c, param) else { c.setError(AL_INVALID_ENUM); return }
        guard let value1, let value2, let value3 else { c.setError(AL_INVALID_VALUE); return }
        value1.pointee = ALint(v[0]); value2.pointee = ALint(v[1]); value3.pointee = ALint(v[2])
    }
}

/// Reads AL_POSITION, AL_VELOCITY or AL_ORIENTATION as integers.
public func alGetListeneriv(_ param: ALenum, _ values: UnsafeMutablePointer<ALint>!) {
    alWithContext { c in
        guard let n = listenerCount(param), n > 1, let v = getListener(c, param) else { c.setError(AL_INVALID_ENUM); return }
        guard let values else { c.setError(AL_INVALID_VALUE); return }
        for (i, x) in v.enumerated() { values[i] = ALint(x) }
    }
}
