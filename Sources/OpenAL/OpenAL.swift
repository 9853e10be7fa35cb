// The OpenAL module: OpenAL 1.1 (al.h and alc.h, declared in the C target COpenAL as the Clang module
// OpenAL; this Swift module is its overlay and implements the functions), with ALC_SOFT_loopback and
// Apple's alcMacOSXMixerOutputRate / alBufferDataStatic. Each context renders through one AUSpatialMixer.
//
// Threading: AL and ALC calls may come from any thread; they serialise on one process-wide API lock (so
// they may block briefly, and may allocate). What a render callback touches (the bus table, each source's
// queue, cursor and state) is guarded by a second, render lock, which AL calls take only briefly and only
// when they touch that (play/stop/pause/rewind, AL_BUFFER, AL_LOOPING, offsets, queueing, state queries,
// deleting); position, velocity, gain, listener and world changes never take it. Render callbacks (the
// mixer's input callbacks, on the output's render thread, or on the thread calling alcRenderSamplesSOFT)
// never wait and never allocate: each only tries the render lock, and renders silence for its slice
// (without advancing the source) if an AL call holds it at that moment. Gains, directions and rates reach
// the mixer through AudioUnitSetParameter, which is lock-free. Buffers stay retained while any source
// queues them and their samples cannot change then (alBufferData answers AL_INVALID_OPERATION).
// alcRenderSamplesSOFT must not be called from inside another AL call.
@_exported import AudioToolbox

/// The current context under the lock, or `fallback` if there is none.
func alWithContext<T>(_ fallback: T, _ body: (ALContext) -> T) -> T {
    ALState.shared.locked {
        guard let context = ALState.shared.current else { return fallback }
        return body(context)
    }
}

/// The current context under the lock (nothing happens without one).
func alWithContext(_ body: (ALContext) -> Void) { alWithContext((), body) }

/// Writes `value` through `pointer` unless it is nil (then AL_INVALID_VALUE).
func alStore<T>(_ context: ALContext, _ pointer: UnsafeMutablePointer<T>?, _ value: T) {
    guard let pointer else { context.setError(AL_INVALID_VALUE); return }
    pointer.pointee = value
}

/// Returns and clears the current context's first error since the last call (AL_INVALID_OPERATION without a context).
public func alGetError() -> ALenum {
    alWithContext(AL_INVALID_OPERATION) { c in
        let e = c.error
        c.error = AL_NO_ERROR
        return e
    }
}

/// Enables a capability: OpenAL 1.1 defines none (AL_INVALID_ENUM).
public func alEnable(_ capability: ALenum) { alWithContext { $0.setError(AL_INVALID_ENUM) } }

/// Disables a capability: OpenAL 1.1 defines none (AL_INVALID_ENUM).
public func alDisable(_ capability: ALenum) { alWithContext { $0.setError(AL_INVALID_ENUM) } }

/// Whether a capability is enabled: OpenAL 1.1 defines none (AL_INVALID_ENUM, AL_FALSE).
public func alIsEnabled(_ capability: ALenum) -> ALboolean {
    alWithContext(ALboolean(AL_FALSE)) { $0.setError(AL_INVALID_ENUM); return ALboolean(AL_FALSE) }
}

/// AL_VENDOR, AL_VERSION, AL_RENDERER, AL_EXTENSIONS or an error's name; nil and AL_INVALID_ENUM otherwise.
public func alGetString(_ param: ALenum) -> UnsafePointer<ALchar>! {
    if let e = ALStrings.alError(param) { return ALStrings.c(e) }
    return alWithContext(nil) { c in
        switch param {
        case AL_VENDOR: return ALStrings.c("OpenCoreAudio")
        case AL_VERSION: return ALStrings.c("1.1 OpenCoreAudio")
        case AL_RENDERER: return ALStrings.c("OpenCoreAudio AUSpatialMixer")
        case AL_EXTENSIONS: return ALStrings.c(ALStrings.alExtensions)
        default: c.setError(AL_INVALID_ENUM); return nil
        }
    }
}

/// A world value as Double (AL_DOPPLER_FACTOR, AL_DOPPLER_VELOCITY, AL_SPEED_OF_SOUND, AL_DISTANCE_MODEL).
private func worldValue(_ c: ALContext, _ param: ALenum) -> Double? {
    switch param {
    case AL_DOPPLER_FACTOR: return Double(c.dopplerFactor)
    case AL_DOPPLER_VELOCITY: return Double(c.dopplerVelocity)
    case AL_SPEED_OF_SOUND: return Double(c.speedOfSound)
    case AL_DISTANCE_MODEL: return Double(c.distanceModel)
    default: c.setError(AL_INVALID_ENUM); return nil
    }
}

/// A world value as ALboolean (non-zero is AL_TRUE).
public func alGetBoolean(_ param: ALenum) -> ALboolean {
    alWithContext(ALboolean(AL_FALSE)) { c in ALboolean((worldValue(c, param) ?? 0) != 0 ? AL_TRUE : AL_FALSE) }
}

/// A world value as ALint.
public func alGetInteger(_ param: ALenum) -> ALint { alWithContext(0) { c in ALint(worldValue(c, param) ?? 0) } }

/// A world value as ALfloat.
public func alGetFloat(_ param: ALenum) -> ALfloat { alWithContext(0) { c in ALfloat(worldValue(c, param) ?? 0) } }

/// A world value as ALdouble.
public func alGetDouble(_ param: ALenum) -> ALdouble { alWithContext(0) { c in worldValue(c, param) ?? 0 } }

/// A world value as ALboolean, written through `data`.
public func alGetBooleanv(_ param: ALenum, _ data: UnsafeMutablePointer<ALboolean>!) {
    alWithContext { c in if let v = worldValue(c, param) { alStore(c, data, ALboolean(v != 0 ? AL_TRUE : AL_FALSE)) } }
}

/// A world value as ALint, written through `data`.
public func alGetIntegerv(_ param: ALenum, _ data: UnsafeMutablePointer<ALint>!) {
    alWithContext { c in if let v = worldValue(c, param) { alStore(c, data, ALint(v)) } }
}

/// A world value as ALfloat, written through `data`.
public func alGetFloatv(_ param: ALenum, _ data: UnsafeMutablePointer<ALfloat>!) {
    alWithContext { c in if let v = worldValue(c, param) { alStore(c, data, ALfloat(v)) } }
}

/// A world value as ALdouble, written through `data`.
public func alGetDoublev(_ param: ALenum, _ data: UnsafeMutablePointer<ALdouble>!) {
    alWithContext { c in if let v = worldValue(c, param) { alStore(c, data, v) } }
}

/// Whether an AL extension is present (case-insensitive; AL_INVALID_VALUE for nil).
public func alIsExtensionPresent(_ extname: UnsafePointer<ALchar>!) -> ALboolean {
    alWithContext(ALboolean(AL_FALSE)) { c in
        guard let extname else { c.setError(AL_INVALID_VALUE); return ALboolean(AL_FALSE) }
        let name = String(cString: extname).lowercased()
        return ALboolean(ALStrings.alExtensions.lowercased().split(separator: " ").contains { $0 == name } ? AL_TRUE : AL_FALSE)
    }
}

/// The address of an extension function (Apple's and ALC_SOFT_loopback's), or nil.
public func alGetProcAddress(_ fname: UnsafePointer<ALchar>!) -> UnsafeMutableRawPointer! {
    guard let fname else { return nil }
    return ALProcedures.address(String(cString: fname))
}

/// The value of an AL enum by name (0 if unknown).
public func alGetEnumValue(_ ename: UnsafePointer<ALchar>!) -> ALenum {
    guard let ename else { return 0 }
    return ALProcedures.enumValue(String(cString: ename))
}

/// Sets the Doppler factor (>= 0, else AL_INVALID_VALUE).
public func alDopplerFactor(_ value: ALfloat) {
    alWithContext { c in
        guard value >= 0, value.isFinite else { c.setError(AL_INVALID_VALUE); return }
        c.dopplerFactor = value
        c.updateAll()
    }
}

/// Sets the (1.0, deprecated) Doppler velocity, which scales the speed of sound (> 0, else AL_INVALID_VALUE).
public func alDopplerVelocity(_ value: ALfloat) {
    alWithContext { c in
        guard value > 0, value.isFinite else { c.setError(AL_INVALID_VALUE); return }
        c.dopplerVelocity = value
        c.updateAll()
    }
}

/// Sets the speed of sound (> 0, else AL_INVALID_VALUE).
public func alSpeedOfSound(_ value: ALfloat) {
    alWithContext { c in
        guard value > 0, value.isFinite else { c.setError(AL_INVALID_VALUE); return }
        c.speedOfSound = value
        c.updateAll()
    }
}

/// Sets the distance model (AL_NONE or one of the six; else AL_INVALID_VALUE).
public func alDistanceModel(_ distanceModel: ALenum) {
    alWithContext { c in
        switch distanceModel {
        case AL_NONE, AL_INVERSE_DISTANCE, AL_INVERSE_DISTANCE_CLAMPED, AL_LINEAR_DISTANCE, AL_LINEAR_DISTANCE_CLAMPED,
             AL_EXPONENT_DISTANCE, AL_EXPONENT_DISTANCE_CLAMPED:
            c.distanceModel = distanceModel
            c.updateAll()
        default: c.setError(AL_INVALID_VALUE)
        }
    }
}
