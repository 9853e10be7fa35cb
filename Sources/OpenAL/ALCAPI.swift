// The ALC functions: devices, contexts, errors and strings, ALC_SOFT_loopback and Apple's mixer-rate extension.

/// Opens the default output device (any name is taken as the default; ALC_INVALID_VALUE never).
public func alcOpenDevice(_ devicename: UnsafePointer<ALCchar>!) -> OpaquePointer! {
    ALState.shared.locked {
        let device = ALDevice(name: ALStrings.defaultDevice, isLoopback: false)
        ALState.shared.devices[UnsafeMutableRawPointer(device.handle)] = device
        return device.handle
    }
}

/// Opens an ALC_SOFT_loopback device: its context renders only when alcRenderSamplesSOFT asks.
public func alcLoopbackOpenDeviceSOFT(_ deviceName: UnsafePointer<ALCchar>!) -> OpaquePointer! {
    ALState.shared.locked {
        let device = ALDevice(name: "OpenCoreAudio Loopback", isLoopback: true)
        ALState.shared.devices[UnsafeMutableRawPointer(device.handle)] = device
        return device.handle
    }
}

/// Closes a device; fails (ALC_FALSE) while it still has contexts or buffers, as the spec says.
public func alcCloseDevice(_ device: OpaquePointer!) -> ALCboolean {
    ALState.shared.locked {
        guard let d = ALState.shared.device(device) else {
            ALState.shared.setALCError(nil, ALC_INVALID_DEVICE)
            return ALCboolean(ALC_FALSE)
        }
        guard d.contexts.isEmpty, d.buffers.isEmpty else { return ALCboolean(ALC_FALSE) }
        ALState.shared.devices[UnsafeMutableRawPointer(d.handle)] = nil
        return ALCboolean(ALC_TRUE)
    }
}

/// Returns and clears a device's first ALC error (the global one for a nil or unknown device).
public func alcGetError(_ device: OpaquePointer!) -> ALCenum {
    ALState.shared.locked {
        if let d = ALState.shared.device(device) {
            let e = d.error
            d.error = ALC_NO_ERROR
            return e
        }
        if device != nil { return ALC_INVALID_DEVICE }
        let e = ALState.shared.globalALCError
        ALState.shared.globalALCError = ALC_NO_ERROR
        return e
    }
}

/// The render formats a loopback device takes: mono or stereo; (un)signed 8, 16, 32-bit integers and float.
public func alcIsRenderFormatSupportedSOFT(_ device: OpaquePointer!, _ freq: ALCsizei, _ channels: ALCenum, _ type: ALCenum) -> ALCboolean {
    ALState.shared.locked {
        guard let d = ALState.shared.device(device), d.isLoopback else {
            ALState.shared.setALCError(ALState.shared.device(device), ALC_INVALID_DEVICE)
            return ALCboolean(ALC_FALSE)
        }
        guard freq > 0 else { ALState.shared.setALCError(d, ALC_INVALID_VALUE); return ALCboolean(ALC_FALSE) }
        let ok = (channels == ALC_MONO_SOFT || channels == ALC_STEREO_SOFT) && (ALC_BYTE_SOFT...ALC_FLOAT_SOFT).contains(type)
        return ALCboolean(ok ? ALC_TRUE : ALC_FALSE)
    }
}

/// A zero-terminated ALC attribute list as (key, value) pairs (at most 32, so a list missing its terminator stops).
private func attributePairs(_ list: UnsafePointer<ALCint>?) -> [(ALCint, ALCint)] {
    guard let list else { return [] }
    var pairs: [(ALCint, ALCint)] = []
    var i = 0
    while list[i] != 0, i < 64 {
        pairs.append((list[i], list[i + 1]))
        i += 2
    }
    return pairs
}

/// ALC_SOFT_HRTF's request in an attribute list: ALC_HRTF_SOFT's value (ALC_DONT_CARE_SOFT when absent), or nil when
/// it is not ALC_TRUE / ALC_FALSE / ALC_DONT_CARE_SOFT or ALC_HRTF_ID_SOFT names a data set other than the one (0).
private func hrtfRequest(_ pairs: [(ALCint, ALCint)]) -> ALCint? {
    var request = ALC_DONT_CARE_SOFT
    for (key, value) in pairs {
        if key == ALC_HRTF_SOFT {
            guard [ALC_TRUE, ALC_FALSE, ALC_DONT_CARE_SOFT].contains(value) else { return nil }
            request = value
        } else if key == ALC_HRTF_ID_SOFT, value != 0 {
            return nil
        }
    }
    return request
}

/// Creates a context on a device. Attributes: ALC_FREQUENCY (default 44100, or alcMacOSXMixerOutputRate's);
/// ALC_MONO_SOURCES + ALC_STEREO_SOURCES (together at least 64, at most 1,024 sources); ALC_HRTF_SOFT (ALC_TRUE,
/// ALC_FALSE, ALC_DONT_CARE_SOFT) and ALC_HRTF_ID_SOFT 0 (the one HRTF data set);
/// a loopback device also needs ALC_FORMAT_CHANNELS_SOFT and ALC_FORMAT_TYPE_SOFT (ALC_INVALID_VALUE if
/// missing or unsupported). Nil with ALC_INVALID_DEVICE if the device is bad or its output cannot start.
public func alcCreateContext(_ device: OpaquePointer!, _ attrlist: UnsafePointer<ALCint>!) -> OpaquePointer! {
    ALState.shared.locked {
        let state = ALState.shared
        guard let d = state.device(device) else { state.setALCError(nil, ALC_INVALID_DEVICE); return nil }
        var frequency: Int? = nil, channels: ALCenum? = nil, type: ALCenum? = nil
        var mono: Int = 0, stereo: Int = 0
        let pairs = attributePairs(attrlist)
        guard let hrtf = hrtfRequest(pairs) else { state.setALCError(d, ALC_INVALID_VALUE); return nil }
        for (key, value) in pairs {
            switch key {
            case ALC_FREQUENCY: frequency = Int(value)
            case ALC_FORMAT_CHANNELS_SOFT: channels = value
            case ALC_FORMAT_TYPE_SOFT: type = value
            case ALC_MONO_SOURCES: mono = Int(value)
            case ALC_STEREO_SOURCES: stereo = Int(value)
            default: break
            }
        }
        guard mono >= 0, stereo >= 0 else { state.setALCError(d, ALC_INVALID_VALUE); return nil }
        let sources = min(max(mono + stereo, ALContext.defaultBusCount), ALContext.maxBusCount)
        if let f = frequency, f < 8000 || f > 192_000 { state.setALCError(d, ALC_INVALID_VALUE); return nil }
        if d.isLoopback {
            guard let f = frequency, let c = channels, let t = type, c == ALC_MONO_SOFT || c == ALC_STEREO_SOFT,
                  (ALC_BYTE_SOFT...ALC_FLOAT_SOFT).contains(t) else { state.setALCError(d, ALC_INVALID_VALUE); return nil }
            d.loopbackFrequency = f
            d.loopbackChannels = c
            d.loopbackType = t
        }
        let rate = Double(frequency ?? (state.mixerOutputRate > 0 ? Int(state.mixerOutputRate) : 44100))
        let context = ALContext(device: d, frequency: rate, busCount: sources, hrtfRequest: hrtf)
        guard context.start() else {
            context.stop()
            state.setALCError(d, ALC_INVALID_DEVICE)
            return nil
        }
        d.contexts.append(context)
        state.contexts[UnsafeMutableRawPointer(context.handle)] = context
        return context.handle
    }
}

/// Makes a context current (nil: none); ALC_FALSE and ALC_INVALID_CONTEXT for a bad context.
public func alcMakeContextCurrent(_ context: OpaquePointer!) -> ALCboolean {
    ALState.shared.locked {
        guard let context else { ALState.shared.current = nil; return ALCboolean(ALC_TRUE) }
        guard let c = ALState.shared.context(context) else {
            ALState.shared.setALCError(nil, ALC_INVALID_CONTEXT)
            return ALCboolean(ALC_FALSE)
        }
        ALState.shared.current = c
        return ALCboolean(ALC_TRUE)
    }
}

/// Processing is continuous here: nothing to do (ALC_INVALID_CONTEXT for a bad context).
public func alcProcessContext(_ context: OpaquePointer!) {
    ALState.shared.locked { if ALState.shared.context(context) == nil { ALState.shared.setALCError(nil, ALC_INVALID_CONTEXT) } }
}

/// Suspension is not modelled: nothing to do (ALC_INVALID_CONTEXT for a bad context).
public func alcSuspendContext(_ context: OpaquePointer!) {
    ALState.shared.locked { if ALState.shared.context(context) == nil { ALState.shared.setALCError(nil, ALC_INVALID_CONTEXT) } }
}

/// Destroys a context: stops its output, frees its sources (releasing their buffers); clears it if current.
public func alcDestroyContext(_ context: OpaquePointer!) {
    let c: ALContext? = ALState.shared.locked {
        guard let c = ALState.shared.context(context) else { ALState.shared.setALCError(nil, ALC_INVALID_CONTEXT); return nil }
        ALState.shared.contexts[UnsafeMutableRawPointer(c.handle)] = nil
        c.device.contexts.removeAll { $0 === c }
        if ALState.shared.current === c { ALState.shared.current = nil }
        ALState.shared.rendering {
            for s in c.sources.values { for b in s.queue { b.references -= 1 } }
            c.sources = [:]
            c.voices = Array(repeating: nil, count: c.busCount)
        }
        return c
    }
    // Outside the lock: stopping waits for the render thread, whose callbacks may be trying the lock.
    c?.stop()
}

/// The current context, or nil.
public func alcGetCurrentContext() -> OpaquePointer! { ALState.shared.locked { ALState.shared.current?.handle } }

/// The device of a context (nil and ALC_INVALID_CONTEXT for a bad context).
public func alcGetContextsDevice(_ context: OpaquePointer!) -> OpaquePointer! {
    ALState.shared.locked {
        guard let c = ALState.shared.context(context) else { ALState.shared.setALCError(nil, ALC_INVALID_CONTEXT); return nil }
        return c.device.handle
    }
}

/// Whether an ALC extension is present (case-insensitive).
public func alcIsExtensionPresent(_ device: OpaquePointer!, _ extname: UnsafePointer<ALCchar>!) -> ALCboolean {
    guard let extname else {
        ALState.shared.locked { ALState.shared.setALCError(ALState.shared.device(device), ALC_INVALID_VALUE) }
        return ALCboolean(ALC_FALSE)
    }
    let name = String(cString: extname).lowercased()
    return ALCboolean(ALStrings.alcExtensions.lowercased().split(separator: " ").contains { $0 == name } ? ALC_TRUE : ALC_FALSE)
}

/// The address of an extension function, or nil.
public func alcGetProcAddress(_ device: OpaquePointer!, _ funcname: UnsafePointer<ALCchar>!) -> UnsafeMutableRawPointer! {
    guard let funcname else { return nil }
    return ALProcedures.address(String(cString: funcname))
}

/// The value of an ALC enum by name (0 if unknown).
public func alcGetEnumValue(_ device: OpaquePointer!, _ enumname: UnsafePointer<ALCchar>!) -> ALCenum {
    guard let enumname else { return 0 }
    return ALProcedures.enumValue(String(cString: enumname))
}

/// Device names, extension list and error names (ALC_INVALID_ENUM otherwise).
public func alcGetString(_ device: OpaquePointer!, _ param: ALCenum) -> UnsafePointer<ALCchar>! {
    ALState.shared.locked {
        let d = ALState.shared.device(device)
        switch param {
        case ALC_NO_ERROR: return ALStrings.c("No Error")
        case ALC_INVALID_DEVICE: return ALStrings.c("Invalid Device")
        case ALC_INVALID_CONTEXT: return ALStrings.c("Invalid Context")
        case ALC_INVALID_ENUM: return ALStrings.c("Invalid Enum")
        case ALC_INVALID_VALUE: return ALStrings.c("Invalid Value")
        case ALC_OUT_OF_MEMORY: return ALStrings.c("Out of Memory")
        case ALC_DEFAULT_DEVICE_SPECIFIER, ALC_DEFAULT_ALL_DEVICES_SPECIFIER: return ALStrings.c(ALStrings.defaultDevice)
        case ALC_DEVICE_SPECIFIER, ALC_ALL_DEVICES_SPECIFIER:
            if let d { return ALStrings.c(d.name) }
            return ALStrings.list([ALStrings.defaultDevice])
        case ALC_CAPTURE_DEFAULT_DEVICE_SPECIFIER: return ALStrings.c(ALStrings.defaultCaptureDevice)
        case ALC_CAPTURE_DEVICE_SPECIFIER:
            if let d { return ALStrings.c(d.name) }
            return ALStrings.list([ALStrings.defaultCaptureDevice])
        case ALC_HRTF_SPECIFIER_SOFT:
            // The data set the newest context renders with, or nothing when it pans.
            guard let d else { ALState.shared.setALCError(nil, ALC_INVALID_DEVICE); return nil }
            let newest = d.contexts.isEmpty ? nil : d.contexts[d.contexts.count - 1]
            return ALStrings.c(newest?.usesHRTF == true ? ALStrings.hrtfSpecifier : "")
        case ALC_EXTENSIONS:
            if d == nil, device != nil { ALState.shared.setALCError(nil, ALC_INVALID_DEVICE); return nil }
            return ALStrings.c(ALStrings.alcExtensions)
        default:
            ALState.shared.setALCError(d, ALC_INVALID_ENUM)
            return nil
        }
    }
}

/// Integer queries: versions, attribute list, frequency, refresh, sync and source counts, and ALC_SOFT_HRTF's
/// ALC_HRTF_SOFT (whether the newest context renders with HRTF), ALC_HRTF_STATUS_SOFT and ALC_NUM_HRTF_SPECIFIERS_SOFT.
public func alcGetIntegerv(_ device: OpaquePointer!, _ param: ALCenum, _ size: ALCsizei, _ values: UnsafeMutablePointer<ALCint>!) {
    ALState.shared.locked {
        let d = ALState.shared.device(device)
        guard let values, size > 0 else { ALState.shared.setALCError(d, ALC_INVALID_VALUE); return }
        let newest = d.flatMap { $0.contexts.isEmpty ? nil : $0.contexts[$0.contexts.count - 1] }
        let frequency = ALCint(newest?.frequency ?? 44100)
        let sources = ALCint(newest?.busCount ?? ALContext.defaultBusCount)
        let hrtf = ALCint(newest?.usesHRTF == true ? ALC_TRUE : ALC_FALSE)
        let attributes: [ALCint] = [ALC_FREQUENCY, frequency, ALC_REFRESH, 50, ALC_SYNC, ALC_FALSE,
                                    ALC_MONO_SOURCES, sources, ALC_STEREO_SOURCES, sources, ALC_HRTF_SOFT, hrtf, 0]
        switch param {
        case ALC_CAPTURE_SAMPLES:
            guard let capture = d?.capture else { ALState.shared.setALCError(d, ALC_INVALID_DEVICE); return }
            values[0] = ALCint(capture.available)
        case ALC_MAJOR_VERSION: values[0] = 1
        case ALC_MINOR_VERSION: values[0] = 1
        case ALC_ATTRIBUTES_SIZE, ALC_ALL_ATTRIBUTES, ALC_FREQUENCY, ALC_REFRESH, ALC_SYNC, ALC_MONO_SOURCES, ALC_STEREO_SOURCES,
             ALC_HRTF_SOFT, ALC_HRTF_STATUS_SOFT, ALC_NUM_HRTF_SPECIFIERS_SOFT:
            guard let d else { ALState.shared.setALCError(nil, ALC_INVALID_DEVICE); return }
            switch param {
            case ALC_ATTRIBUTES_SIZE: values[0] = ALCint(attributes.count)
            case ALC_ALL_ATTRIBUTES:
                guard Int(size) >= attributes.count else { ALState.shared.setALCError(d, ALC_INVALID_VALUE); return }
                for (i, v) in attributes.enumerated() { values[i] = v }
            case ALC_FREQUENCY: values[0] = frequency
            case ALC_REFRESH: values[0] = 50
            case ALC_SYNC: values[0] = ALC_FALSE
            case ALC_HRTF_SOFT: values[0] = hrtf
            case ALC_HRTF_STATUS_SOFT: values[0] = newest?.hrtfStatus ?? ALC_HRTF_DISABLED_SOFT
            case ALC_NUM_HRTF_SPECIFIERS_SOFT: values[0] = d.loopbackChannels == ALC_MONO_SOFT && d.isLoopback ? 0 : 1
            default: values[0] = sources
            }
        default: ALState.shared.setALCError(d, ALC_INVALID_ENUM)
        }
    }
}

/// ALC_SOFT_HRTF: the name of HRTF data set `index` (ALC_HRTF_SPECIFIER_SOFT; there is one, index 0), or nil with
/// ALC_INVALID_VALUE / ALC_INVALID_ENUM / ALC_INVALID_DEVICE.
public func alcGetStringiSOFT(_ device: OpaquePointer!, _ paramName: ALCenum, _ index: ALCsizei) -> UnsafePointer<ALCchar>! {
    ALState.shared.locked {
        guard let d = ALState.shared.device(device) else { ALState.shared.setALCError(nil, ALC_INVALID_DEVICE); return nil }
        guard paramName == ALC_HRTF_SPECIFIER_SOFT else { ALState.shared.setALCError(d, ALC_INVALID_ENUM); return nil }
        guard index == 0 else { ALState.shared.setALCError(d, ALC_INVALID_VALUE); return nil }
        return ALStrings.c(ALStrings.hrtfSpecifier)
    }
}

/// ALC_SOFT_HRTF: applies ALC_HRTF_SOFT (and checks ALC_HRTF_ID_SOFT) to every context of the device, as openal-soft
/// does when it resets a device; other attributes are accepted and keep their values. ALC_FALSE with ALC_INVALID_VALUE
/// for a bad value, ALC_INVALID_DEVICE for a bad device.
public func alcResetDeviceSOFT(_ device: OpaquePointer!, _ attribs: UnsafePointer<ALCint>!) -> ALCboolean {
    let contexts: [(ALContext, Bool)]? = ALState.shared.locked {
        guard let d = ALState.shared.device(device) else { ALState.shared.setALCError(nil, ALC_INVALID_DEVICE); return nil }
        guard let hrtf = hrtfRequest(attributePairs(attribs)) else { ALState.shared.setALCError(d, ALC_INVALID_VALUE); return nil }
        for c in d.contexts { c.hrtfRequest = hrtf }
        return d.contexts.map { ($0, $0.usesHRTF) }
    }
    guard let contexts else { return ALCboolean(ALC_FALSE) }
    // Outside the API lock, as alcMacOSXRenderingQuality: the mixer's property calls may wait for a render.
    for (c, hrtf) in contexts { c.applyAlgorithm(hrtf: hrtf) }
    return ALCboolean(ALC_TRUE)
}

/// Renders `samples` frames of a loopback device's mix into `buffer`, in the format its context was made
/// with (interleaved); silence if it has no context. ALC_INVALID_DEVICE for a device that is not loopback.
public func alcRenderSamplesSOFT(_ device: OpaquePointer!, _ buffer: UnsafeMutableRawPointer!, _ samples: ALCsizei) {
    // No closure here: this is the loopback render path, which allocates nothing.
    let state = ALState.shared
    state.lockAPI()
    guard let d = state.device(device), d.isLoopback else {
        state.setALCError(state.device(device), ALC_INVALID_DEVICE)
        state.unlockAPI()
        return
    }
    guard samples >= 0, buffer != nil || samples == 0 else {
        state.setALCError(d, ALC_INVALID_VALUE)
        state.unlockAPI()
        return
    }
    // Indexing, not .last (which allocates in unoptimised builds).
    let context = d.contexts.isEmpty ? nil : d.contexts[d.contexts.count - 1], channels = d.loopbackChannels == ALC_MONO_SOFT ? 1 : 2, type = d.loopbackType
    state.unlockAPI()
    guard let buffer, samples > 0 else { return }
    guard let context else {
        let bytes = type == ALC_FLOAT_SOFT || type == ALC_INT_SOFT || type == ALC_UNSIGNED_INT_SOFT ? 4
            : type == ALC_SHORT_SOFT || type == ALC_UNSIGNED_SHORT_SOFT ? 2 : 1
        memset(buffer, type == ALC_UNSIGNED_BYTE_SOFT ? 0x80 : 0, Int(samples) * channels * bytes)
        return
    }
    // Outside the lock: the mixer's input callbacks try it.
    context.renderLoopback(into: buffer, frames: Int(samples), channels: channels, type: type)
}

/// Apple's extension: the rate (Hz) contexts made from now on mix at.
public func alcMacOSXMixerOutputRate(_ value: ALdouble) {
    ALState.shared.locked { if value > 0, value.isFinite { ALState.shared.mixerOutputRate = value } }
}

/// Apple's extension: the spatial rendering quality of every context, now and later: HIGH (or iOS's HEADPHONES) renders
/// with HRTF, LOW pans. Other values are ignored.
public func alcMacOSXRenderingQuality(_ value: ALint) {
    guard [ALC_MAC_OSX_SPATIAL_RENDERING_QUALITY_HIGH, ALC_MAC_OSX_SPATIAL_RENDERING_QUALITY_LOW,
           ALC_IPHONE_SPATIAL_RENDERING_QUALITY_HEADPHONES].contains(value) else { return }
    let contexts = ALState.shared.locked { () -> [(ALContext, Bool)] in
        ALState.shared.renderingQuality = value
        return ALState.shared.contexts.values.map { ($0, $0.usesHRTF) }
    }
    // Contexts that asked for ALC_HRTF_SOFT on or off keep it.
    for (c, hrtf) in contexts { c.applyAlgorithm(hrtf: hrtf) }
}

/// Apple's extension: the rendering quality alcMacOSXRenderingQuality set (LOW by default).
public func alcMacOSXGetRenderingQuality() -> ALint {
    ALState.shared.locked { ALState.shared.renderingQuality }
}

/// Apple's extension: the rate set by alcMacOSXMixerOutputRate (44100 if none).
public func alcMacOSXGetMixerOutputRate() -> ALdouble {
    ALState.shared.locked { ALState.shared.mixerOutputRate > 0 ? ALState.shared.mixerOutputRate : 44100 }
}

/// Opens the default input for capture at `frequency` in `format` (an AL_FORMAT_*), keeping up to `buffersize`
/// frames; nil and ALC_INVALID_VALUE for a bad format or size, ALC_INVALID_DEVICE if the input cannot open.
public func alcCaptureOpenDevice(_ devicename: UnsafePointer<ALCchar>!, _ frequency: ALCuint, _ format: ALCenum,
                                 _ buffersize: ALCsizei) -> OpaquePointer! {
    ALState.shared.locked {
        guard ALBuffer.layout(format) != nil, buffersize > 0, frequency > 0 else { ALState.shared.setALCError(nil, ALC_INVALID_VALUE); return nil }
        guard let capture = ALCapture(frequency: Int(frequency), format: format, bufferSize: Int(buffersize)) else {
            ALState.shared.setALCError(nil, ALC_INVALID_DEVICE)
            return nil
        }
        let device = ALDevice(name: ALStrings.defaultCaptureDevice, isLoopback: false)
        device.capture = capture
        ALState.shared.devices[UnsafeMutableRawPointer(device.handle)] = device
        return device.handle
    }
}

/// Closes a capture device (ALC_FALSE and ALC_INVALID_DEVICE if it is not one).
public func alcCaptureCloseDevice(_ device: OpaquePointer!) -> ALCboolean {
    let capture: ALCapture? = ALState.shared.locked {
        guard let d = ALState.shared.device(device), let capture = d.capture else {
            ALState.shared.setALCError(ALState.shared.device(device), ALC_INVALID_DEVICE)
            return nil
        }
        ALState.shared.devices[UnsafeMutableRawPointer(d.handle)] = nil
        return capture
    }
    guard let capture else { return ALCboolean(ALC_FALSE) }
    capture.close()
    return ALCboolean(ALC_TRUE)
}

/// Starts capturing.
public func alcCaptureStart(_ device: OpaquePointer!) {
    ALState.shared.locked {
        guard let capture = ALState.shared.device(device)?.capture else {
            ALState.shared.setALCError(ALState.shared.device(device), ALC_INVALID_DEVICE); return
        }
        capture.start()
    }
}

/// Stops capturing; captured frames stay readable.
public func alcCaptureStop(_ device: OpaquePointer!) {
    ALState.shared.locked {
        guard let capture = ALState.shared.device(device)?.capture else {
            ALState.shared.setALCError(ALState.shared.device(device), ALC_INVALID_DEVICE); return
        }
        capture.stop()
    }
}

/// Reads `samples` captured frames into `buffer` (ALC_INVALID_VALUE if fewer are available).
public func alcCaptureSamples(_ device: OpaquePointer!, _ buffer: UnsafeMutableRawPointer!, _ samples: ALCsizei) {
    ALState.shared.locked {
        let d = ALState.shared.device(device)
        guard let capture = d?.capture else { ALState.shared.setALCError(d, ALC_INVALID_DEVICE); return }
        guard samples >= 0, buffer != nil || samples == 0 else { ALState.shared.setALCError(d, ALC_INVALID_VALUE); return }
        guard let buffer, samples > 0 else { return }
        if !capture.read(into: buffer, frames: Int(samples)) { ALState.shared.setALCError(d, ALC_INVALID_VALUE) }
    }
}
