/// alGetProcAddress / alcGetProcAddress and the enum-by-name look-ups: the extension functions as C
/// function pointers, and the names of the constants clients most often ask for.
enum ALProcedures {
    /// The C-callable address of an extension function, or nil.
    static func address(_ name: String) -> UnsafeMutableRawPointer? {
        switch name {
        case "alBufferDataStatic":
            let f: alBufferDataStaticProcPtr = { alBufferDataStatic($0, $1, $2, $3, $4) }
            return unsafeBitCast(f, to: UnsafeMutableRawPointer.self)
        case "alcMacOSXMixerOutputRate":
            let f: alcMacOSXMixerOutputRateProcPtr = { alcMacOSXMixerOutputRate($0) }
            return unsafeBitCast(f, to: UnsafeMutableRawPointer.self)
        case "alcMacOSXRenderingQuality":
            let f: alcMacOSXRenderingQualityProcPtr = { alcMacOSXRenderingQuality($0) }
            return unsafeBitCast(f, to: UnsafeMutableRawPointer.self)
        case "alcMacOSXGetRenderingQuality":
            let f: alcMacOSXGetRenderingQualityProcPtr = { alcMacOSXGetRenderingQuality() }
            return unsafeBitCast(f, to: UnsafeMutableRawPointer.self)
        case "alcMacOSXGetMixerOutputRate":
            let f: alcMacOSXGetMixerOutputRateProcPtr = { alcMacOSXGetMixerOutputRate() }
            return unsafeBitCast(f, to: UnsafeMutableRawPointer.self)
        case "alcLoopbackOpenDeviceSOFT":
            let f: @convention(c) (UnsafePointer<ALCchar>?) -> OpaquePointer? = { alcLoopbackOpenDeviceSOFT($0) }
            return unsafeBitCast(f, to: UnsafeMutableRawPointer.self)
        case "alcIsRenderFormatSupportedSOFT":
            let f: @convention(c) (OpaquePointer?, ALCsizei, ALCenum, ALCenum) -> ALCboolean = { alcIsRenderFormatSupportedSOFT($0, $1, $2, $3) }
            return unsafeBitCast(f, to: UnsafeMutableRawPointer.self)
        case "alcRenderSamplesSOFT":
            let f: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, ALCsizei) -> Void = { alcRenderSamplesSOFT($0, $1, $2) }
            return unsafeBitCast(f, to: UnsafeMutableRawPointer.self)
        case "alcGetStringiSOFT":
            let f: @convention(c) (OpaquePointer?, ALCenum, ALCsizei) -> UnsafePointer<ALCchar>? = { alcGetStringiSOFT($0, $1, $2) }
            return unsafeBitCast(f, to: UnsafeMutableRawPointer.self)
        case "alcResetDeviceSOFT":
            let f: @convention(c) (OpaquePointer?, UnsafePointer<ALCint>?) -> ALCboolean = { alcResetDeviceSOFT($0, $1) }
            return unsafeBitCast(f, to: UnsafeMutableRawPointer.self)
        default:
            return nil
        }
    }

    private static let enums: [String: Int32] = [
        "AL_NONE": AL_NONE, "AL_FALSE": AL_FALSE, "AL_TRUE": AL_TRUE, "AL_SOURCE_RELATIVE": AL_SOURCE_RELATIVE,
        "AL_CONE_INNER_ANGLE": AL_CONE_INNER_ANGLE, "AL_CONE_OUTER_ANGLE": AL_CONE_OUTER_ANGLE, "AL_PITCH": AL_PITCH,
        "AL_POSITION": AL_POSITION, "AL_DIRECTION": AL_DIRECTION, "AL_VELOCITY": AL_VELOCITY, "AL_LOOPING": AL_LOOPING,
        "AL_BUFFER": AL_BUFFER, "AL_GAIN": AL_GAIN, "AL_MIN_GAIN": AL_MIN_GAIN, "AL_MAX_GAIN": AL_MAX_GAIN,
        "AL_ORIENTATION": AL_ORIENTATION, "AL_SOURCE_STATE": AL_SOURCE_STATE, "AL_INITIAL": AL_INITIAL, "AL_PLAYING": AL_PLAYING,
        "AL_PAUSED": AL_PAUSED, "AL_STOPPED": AL_STOPPED, "AL_BUFFERS_QUEUED": AL_BUFFERS_QUEUED,
        "AL_BUFFERS_PROCESSED": AL_BUFFERS_PROCESSED, "AL_REFERENCE_DISTANCE": AL_REFERENCE_DISTANCE,
        "AL_ROLLOFF_FACTOR": AL_ROLLOFF_FACTOR, "AL_CONE_OUTER_GAIN": AL_CONE_OUTER_GAIN, "AL_MAX_DISTANCE": AL_MAX_DISTANCE,
        "AL_SEC_OFFSET": AL_SEC_OFFSET, "AL_SAMPLE_OFFSET": AL_SAMPLE_OFFSET, "AL_BYTE_OFFSET": AL_BYTE_OFFSET,
        "AL_SOURCE_TYPE": AL_SOURCE_TYPE, "AL_STATIC": AL_STATIC, "AL_STREAMING": AL_STREAMING, "AL_UNDETERMINED": AL_UNDETERMINED,
        "AL_FORMAT_MONO8": AL_FORMAT_MONO8, "AL_FORMAT_MONO16": AL_FORMAT_MONO16, "AL_FORMAT_STEREO8": AL_FORMAT_STEREO8,
        "AL_FORMAT_STEREO16": AL_FORMAT_STEREO16, "AL_FORMAT_MONO_FLOAT32": AL_FORMAT_MONO_FLOAT32,
        "AL_FORMAT_STEREO_FLOAT32": AL_FORMAT_STEREO_FLOAT32, "AL_FREQUENCY": AL_FREQUENCY, "AL_BITS": AL_BITS,
        "AL_CHANNELS": AL_CHANNELS, "AL_SIZE": AL_SIZE, "AL_NO_ERROR": AL_NO_ERROR, "AL_INVALID_NAME": AL_INVALID_NAME,
        "AL_INVALID_ENUM": AL_INVALID_ENUM, "AL_INVALID_VALUE": AL_INVALID_VALUE, "AL_INVALID_OPERATION": AL_INVALID_OPERATION,
        "AL_OUT_OF_MEMORY": AL_OUT_OF_MEMORY, "AL_VENDOR": AL_VENDOR, "AL_VERSION": AL_VERSION, "AL_RENDERER": AL_RENDERER,
        "AL_EXTENSIONS": AL_EXTENSIONS, "AL_DOPPLER_FACTOR": AL_DOPPLER_FACTOR, "AL_DOPPLER_VELOCITY": AL_DOPPLER_VELOCITY,
        "AL_SPEED_OF_SOUND": AL_SPEED_OF_SOUND, "AL_DISTANCE_MODEL": AL_DISTANCE_MODEL, "AL_INVERSE_DISTANCE": AL_INVERSE_DISTANCE,
        "AL_INVERSE_DISTANCE_CLAMPED": AL_INVERSE_DISTANCE_CLAMPED, "AL_LINEAR_DISTANCE": AL_LINEAR_DISTANCE,
        "AL_LINEAR_DISTANCE_CLAMPED": AL_LINEAR_DISTANCE_CLAMPED, "AL_EXPONENT_DISTANCE": AL_EXPONENT_DISTANCE,
        "AL_EXPONENT_DISTANCE_CLAMPED": AL_EXPONENT_DISTANCE_CLAMPED,
        "ALC_FREQUENCY": ALC_FREQUENCY, "ALC_REFRESH": ALC_REFRESH, "ALC_SYNC": ALC_SYNC, "ALC_MONO_SOURCES": ALC_MONO_SOURCES,
        "ALC_STEREO_SOURCES": ALC_STEREO_SOURCES, "ALC_NO_ERROR": ALC_NO_ERROR, "ALC_INVALID_DEVICE": ALC_INVALID_DEVICE,
        "ALC_INVALID_CONTEXT": ALC_INVALID_CONTEXT, "ALC_INVALID_ENUM": ALC_INVALID_ENUM, "ALC_INVALID_VALUE": ALC_INVALID_VALUE,
        "ALC_OUT_OF_MEMORY": ALC_OUT_OF_MEMORY, "ALC_MAJOR_VERSION": ALC_MAJOR_VERSION, "ALC_MINOR_VERSION": ALC_MINOR_VERSION,
        "ALC_ATTRIBUTES_SIZE": ALC_ATTRIBUTES_SIZE, "ALC_ALL_ATTRIBUTES": ALC_ALL_ATTRIBUTES,
        "ALC_HRTF_SOFT": ALC_HRTF_SOFT, "ALC_DONT_CARE_SOFT": ALC_DONT_CARE_SOFT, "ALC_HRTF_STATUS_SOFT": ALC_HRTF_STATUS_SOFT,
        "ALC_HRTF_DISABLED_SOFT": ALC_HRTF_DISABLED_SOFT, "ALC_HRTF_ENABLED_SOFT": ALC_HRTF_ENABLED_SOFT,
        "ALC_HRTF_UNSUPPORTED_FORMAT_SOFT": ALC_HRTF_UNSUPPORTED_FORMAT_SOFT, "ALC_NUM_HRTF_SPECIFIERS_SOFT": ALC_NUM_HRTF_SPECIFIERS_SOFT,
        "ALC_HRTF_SPECIFIER_SOFT": ALC_HRTF_SPECIFIER_SOFT, "ALC_HRTF_ID_SOFT": ALC_HRTF_ID_SOFT,
        "ALC_DEFAULT_DEVICE_SPECIFIER": ALC_DEFAULT_DEVICE_SPECIFIER, "ALC_DEVICE_SPECIFIER": ALC_DEVICE_SPECIFIER,
        "ALC_EXTENSIONS": ALC_EXTENSIONS, "ALC_FORMAT_CHANNELS_SOFT": ALC_FORMAT_CHANNELS_SOFT, "ALC_FORMAT_TYPE_SOFT": ALC_FORMAT_TYPE_SOFT,
        "ALC_FLOAT_SOFT": ALC_FLOAT_SOFT, "ALC_SHORT_SOFT": ALC_SHORT_SOFT, "ALC_STEREO_SOFT": ALC_STEREO_SOFT, "ALC_MONO_SOFT": ALC_MONO_SOFT,
    ]

    /// The value of a named constant, or 0.
    static func enumValue(_ name: String) -> Int32 { enums[name] ?? 0 }
}
