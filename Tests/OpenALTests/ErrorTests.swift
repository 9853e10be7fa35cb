import OpenAL
import Testing

extension OpenALTests {
    /// alGetError / alcGetError exactly per the 1.1 spec, and bad calls that must not crash.
    @Suite struct ErrorTests {
        @Test func withoutContextNothingCrashes() {
            _ = alcMakeContextCurrent(nil)
            #expect(alGetError() == AL_INVALID_OPERATION)
            var s: ALuint = 0
            alGenSources(1, &s)
            #expect(s == 0)
            alSourcePlay(5)
            alSourcef(5, AL_GAIN, 1)
            alListener3f(AL_POSITION, 1, 2, 3)
            #expect(alGetString(AL_VERSION) == nil)
            #expect(alIsSource(1) == ALboolean(AL_FALSE))
            #expect(alcGetCurrentContext() == nil)
        }

        @Test func firstErrorIsKeptUntilRead() throws {
            let lb = try Loopback()
            let b = lb.buffer(frames: 100)
            let s = lb.source(buffer: b)
            #expect(alGetError() == AL_NO_ERROR)
            alSourcef(s + 1000, AL_GAIN, 1)          // AL_INVALID_NAME
            alSourcef(s, AL_GAIN, -1)                // AL_INVALID_VALUE, not recorded
            alSourcef(s, 0x1234, 1)                  // AL_INVALID_ENUM, not recorded
            #expect(alGetError() == AL_INVALID_NAME)
            #expect(alGetError() == AL_NO_ERROR)
            alSourcef(s, AL_GAIN, -1)
            #expect(alGetError() == AL_INVALID_VALUE)
            var gain: ALfloat = 0
            alGetSourcef(s, AL_GAIN, &gain)
            #expect(gain == 1)
            alSourcef(s, 0x1234, 1)
            #expect(alGetError() == AL_INVALID_ENUM)
            alSourcei(s, AL_LOOPING, 2)
            #expect(alGetError() == AL_INVALID_VALUE)
            alSourcef(s, AL_PITCH, 0)
            #expect(alGetError() == AL_INVALID_VALUE)
            alSourcef(s, AL_MAX_GAIN, 1.5)
            #expect(alGetError() == AL_INVALID_VALUE)
            alSourcei(s, AL_SOURCE_STATE, AL_PLAYING)
            #expect(alGetError() == AL_INVALID_OPERATION)
            alListenerf(AL_GAIN, -0.5)
            #expect(alGetError() == AL_INVALID_VALUE)
            alDistanceModel(0x1234)
            #expect(alGetError() == AL_INVALID_VALUE)
            alEnable(AL_GAIN)
            #expect(alGetError() == AL_INVALID_ENUM)
            lb.close(sources: [s], buffers: [b])
        }

        @Test func bogusNamesZeroIdsAndNilPointers() throws {
            let lb = try Loopback()
            alSourcePlay(0)
            #expect(alGetError() == AL_INVALID_NAME)
            alSourcei(0, AL_LOOPING, 1)
            #expect(alGetError() == AL_INVALID_NAME)
            var v: ALint = 0
            alGetSourcei(42, AL_SOURCE_STATE, &v)
            #expect(alGetError() == AL_INVALID_NAME)
            alBufferData(42, AL_FORMAT_MONO16, [Int16](repeating: 0, count: 4), 8, 44100)
            #expect(alGetError() == AL_INVALID_NAME)
            #expect(alIsBuffer(0) == ALboolean(AL_TRUE))
            #expect(alIsBuffer(42) == ALboolean(AL_FALSE))
            var none: ALuint = 42
            alDeleteBuffers(1, &none)
            #expect(alGetError() == AL_INVALID_NAME)
            alGenSources(1, nil)
            #expect(alGetError() == AL_INVALID_VALUE)
            alGenBuffers(-1, nil)
            #expect(alGetError() == AL_INVALID_VALUE)
            let b = lb.buffer(frames: 10)
            alBufferData(b, 0x4242, [Int16](repeating: 0, count: 4), 8, 44100)
            #expect(alGetError() == AL_INVALID_ENUM)
            alBufferData(b, AL_FORMAT_STEREO16, [Int16](repeating: 0, count: 3), 6, 44100)  // not a whole frame
            #expect(alGetError() == AL_INVALID_VALUE)
            let s = lb.source(buffer: b)
            alGetSourcei(s, AL_SOURCE_STATE, nil)
            #expect(alGetError() == AL_INVALID_VALUE)
            alSourcefv(s, AL_POSITION, nil)
            #expect(alGetError() == AL_INVALID_VALUE)
            alSourcei(s, AL_BUFFER, 4242)
            #expect(alGetError() == AL_INVALID_VALUE)
            #expect(alGetString(0x4242) == nil)
            #expect(alGetError() == AL_INVALID_ENUM)
            alSourcei(s, AL_BUFFER, 0)                       // the NULL buffer detaches
            #expect(alGetError() == AL_NO_ERROR)
            #expect(lb.integer(s, AL_SOURCE_TYPE) == AL_UNDETERMINED)
            lb.close(sources: [s], buffers: [b])
        }

        @Test func buffersInUseAndUnprocessedUnqueue() throws {
            let lb = try Loopback()
            let b1 = lb.buffer(frames: 1000), b2 = lb.buffer(frames: 1000)
            var s: ALuint = 0
            alGenSources(1, &s)
            var queue = [b1, b2]
            alSourceQueueBuffers(s, 2, &queue)
            #expect(alGetError() == AL_NO_ERROR)
            var victim = b1
            alDeleteBuffers(1, &victim)                       // queued: refused
            #expect(alGetError() == AL_INVALID_OPERATION)
            #expect(alIsBuffer(b1) == ALboolean(AL_TRUE))
            alBufferData(b1, AL_FORMAT_MONO16, [Int16](repeating: 0, count: 4), 8, 44100)
            #expect(alGetError() == AL_INVALID_OPERATION)
            var out: [ALuint] = [0, 0]
            alSourceUnqueueBuffers(s, 1, &out)                // nothing processed yet: the spec's AL_INVALID_VALUE
            #expect(alGetError() == AL_INVALID_VALUE)
            #expect(lb.integer(s, AL_BUFFERS_QUEUED) == 2)
            alSourcei(s, AL_BUFFER, ALint(b1))                // a streaming source cannot take AL_BUFFER while playing
            alSourcePlay(s)
            alSourcei(s, AL_BUFFER, ALint(b1))
            #expect(alGetError() == AL_INVALID_OPERATION)
            let other = lb.buffer(frames: 10, rate: 22050)
            var o = other
            alSourceQueueBuffers(s, 1, &o)                    // a different rate from the queue's
            #expect(alGetError() == AL_INVALID_OPERATION)
            let st = lb.source(buffer: other)
            alSourceQueueBuffers(st, 1, &o)                   // a static source cannot queue
            #expect(alGetError() == AL_INVALID_OPERATION)
            lb.close(sources: [s, st], buffers: [b1, b2, other])
        }

        @Test func sourceLimitAndAllOrNothingLists() throws {
            let lb = try Loopback()
            var many = [ALuint](repeating: 0, count: 65)
            alGenSources(65, &many)                               // one more than the mixer's inputs
            #expect(alGetError() == AL_INVALID_VALUE)
            #expect(many.allSatisfy { $0 == 0 })
            alGenSources(64, &many)
            #expect(alGetError() == AL_NO_ERROR)
            let b = lb.buffer(frames: 100)
            alSourcei(many[0], AL_BUFFER, ALint(b))
            var list = [many[0], 9999]
            alSourcePlayv(2, &list)                               // a bad name: nothing plays
            #expect(alGetError() == AL_INVALID_NAME)
            #expect(lb.state(many[0]) == AL_INITIAL)
            alDeleteSources(2, &list)                             // nothing is deleted either
            #expect(alGetError() == AL_INVALID_NAME)
            #expect(alIsSource(many[0]) == ALboolean(AL_TRUE))
            alDeleteSources(64, &many)
            #expect(alGetError() == AL_NO_ERROR)
            alGenSources(1, &many)                                // the inputs are free again
            #expect(alGetError() == AL_NO_ERROR)
            lb.close(sources: [many[0]], buffers: [b])
        }

        @Test func alcErrorsPerDevice() throws {
            #expect(alcCreateContext(nil, nil) == nil)
            #expect(alcGetError(nil) == ALC_INVALID_DEVICE)
            #expect(alcGetError(nil) == ALC_NO_ERROR)
            let bogus = OpaquePointer(bitPattern: 0x1000)!
            #expect(alcMakeContextCurrent(bogus) == ALCboolean(ALC_FALSE))
            #expect(alcGetError(nil) == ALC_INVALID_CONTEXT)
            #expect(alcCloseDevice(bogus) == ALCboolean(ALC_FALSE))
            #expect(alcGetError(nil) == ALC_INVALID_DEVICE)
            let device = try #require(alcLoopbackOpenDeviceSOFT(nil))
            #expect(alcCreateContext(device, nil) == nil)      // loopback needs its format
            #expect(alcGetError(device) == ALC_INVALID_VALUE)
            #expect(alcGetError(device) == ALC_NO_ERROR)
            #expect(alcIsRenderFormatSupportedSOFT(device, 44100, ALC_STEREO_SOFT, ALC_FLOAT_SOFT) == ALCboolean(ALC_TRUE))
            #expect(alcIsRenderFormatSupportedSOFT(device, 44100, ALC_5POINT1_SOFT, ALC_FLOAT_SOFT) == ALCboolean(ALC_FALSE))
            #expect(alcGetString(device, 0x4242) == nil)
            #expect(alcGetError(device) == ALC_INVALID_ENUM)
            #expect(alcIsExtensionPresent(device, "ALC_SOFT_loopback") == ALCboolean(ALC_TRUE))
            #expect(alcGetProcAddress(device, "alcRenderSamplesSOFT") != nil)
            #expect(alcGetEnumValue(device, "ALC_FORMAT_TYPE_SOFT") == 0x1991)
            #expect(alcCloseDevice(device) == ALCboolean(ALC_TRUE))
            // Capture: a bad format or size is refused before any input opens; a non-capture device is refused.
            #expect(alcCaptureOpenDevice(nil, 44100, 0x4242, 100) == nil)
            #expect(alcGetError(nil) == ALC_INVALID_VALUE)
            #expect(alcCaptureOpenDevice(nil, 44100, AL_FORMAT_MONO16, 0) == nil)
            #expect(alcGetError(nil) == ALC_INVALID_VALUE)
            var sample: Int16 = 0
            alcCaptureSamples(bogus, &sample, 1)
            #expect(alcGetError(nil) == ALC_INVALID_DEVICE)
            #expect(alcCaptureCloseDevice(nil) == ALCboolean(ALC_FALSE))
            #expect(alcGetError(nil) == ALC_INVALID_DEVICE)
        }

        @Test func stringsAndQueries() throws {
            let lb = try Loopback()
            #expect(String(cString: alGetString(AL_VERSION)).hasPrefix("1.1"))
            #expect(String(cString: alGetString(AL_EXTENSIONS)).contains("AL_EXT_float32"))
            #expect(alIsExtensionPresent("al_ext_float32") == ALboolean(AL_TRUE))
            #expect(alGetInteger(AL_DISTANCE_MODEL) == AL_INVERSE_DISTANCE_CLAMPED)
            #expect(alGetFloat(AL_SPEED_OF_SOUND) == 343.3)
            #expect(alGetFloat(AL_DOPPLER_FACTOR) == 1)
            #expect(alGetProcAddress("alBufferDataStatic") != nil)
            #expect(alGetEnumValue("AL_BUFFERS_PROCESSED") == AL_BUFFERS_PROCESSED)
            #expect(String(cString: alcGetString(lb.device, ALC_EXTENSIONS)).contains("ALC_SOFT_loopback"))
            var major: ALCint = 0, frequency: ALCint = 0
            alcGetIntegerv(lb.device, ALC_MAJOR_VERSION, 1, &major)
            alcGetIntegerv(lb.device, ALC_FREQUENCY, 1, &frequency)
            #expect(major == 1 && frequency == 44100)
            // Apple's extensions, reached as a Mac client does: through alGetProcAddress and Apple's proc-pointer types.
            let staticData = try #require(alGetProcAddress("alBufferDataStatic"))
            let bufferDataStatic = unsafeBitCast(staticData, to: alBufferDataStaticProcPtr.self)
            var b: ALuint = 0
            alGenBuffers(1, &b)
            let pcm: [Int16] = [1, 2, 3, 4]
            bufferDataStatic(ALint(b), AL_FORMAT_MONO16, pcm, 8, 22050)
            var rate: ALint = 0
            alGetBufferi(b, AL_FREQUENCY, &rate)
            #expect(rate == 22050)
            alDeleteBuffers(1, &b)
            let setRate = unsafeBitCast(try #require(alcGetProcAddress(nil, "alcMacOSXMixerOutputRate")), to: alcMacOSXMixerOutputRateProcPtr.self)
            setRate(48000)
            #expect(alcMacOSXGetMixerOutputRate() == 48000)
            alcMacOSXMixerOutputRate(44100)
            #expect(alcCloseDevice(lb.device) == ALCboolean(ALC_FALSE))  // still has a context
            lb.close()
        }
    }
}
