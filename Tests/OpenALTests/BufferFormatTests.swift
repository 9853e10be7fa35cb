import OpenAL
import Testing

extension OpenALTests {
    /// alBufferData converts each format to Float32; stereo buffers bypass spatialisation.
    @Suite struct BufferFormatTests {
        @Test func formatsAndQueries() throws {
            let lb = try Loopback()
            var ids = [ALuint](repeating: 0, count: 4)
            alGenBuffers(4, &ids)
            let mono8: [UInt8] = [128, 192, 64, 255]
            alBufferData(ids[0], AL_FORMAT_MONO8, mono8, 4, 22050)
            let stereo16: [Int16] = [16384, -16384, 8192, 0]
            alBufferData(ids[1], AL_FORMAT_STEREO16, stereo16, 8, 44100)
            let stereo8: [UInt8] = [0, 255]
            alBufferData(ids[2], AL_FORMAT_STEREO8, stereo8, 2, 8000)
            let float: [Float] = [0.25, -0.25]
            alBufferData(ids[3], AL_FORMAT_STEREO_FLOAT32, float, 8, 48000)
            #expect(alGetError() == AL_NO_ERROR)
            func query(_ b: ALuint) -> [ALint] {
                [AL_FREQUENCY, AL_BITS, AL_CHANNELS, AL_SIZE].map { p in var v: ALint = 0; alGetBufferi(b, p, &v); return v }
            }
            #expect(query(ids[0]) == [22050, 8, 1, 4])
            #expect(query(ids[1]) == [44100, 16, 2, 8])
            #expect(query(ids[2]) == [8000, 8, 2, 2])
            #expect(query(ids[3]) == [48000, 32, 2, 8])
            alDeleteBuffers(4, &ids)
            #expect(alGetError() == AL_NO_ERROR)
            lb.close()
        }

        @Test func stereoBuffersPassThroughUnpanned() throws {
            let lb = try Loopback()
            var b: ALuint = 0
            alGenBuffers(1, &b)
            let frames = (0..<44100).flatMap { _ in [Int16(16384), Int16(-8192)] }   // L 0.5, R -0.25
            alBufferData(b, AL_FORMAT_STEREO16, frames, ALsizei(frames.count * 2), 44100)
            let s = lb.source(buffer: b)
            alDistanceModel(AL_NONE)
            alSource3f(s, AL_POSITION, 5, 0, 0)                              // position does not pan stereo
            alSourcePlay(s)
            _ = lb.render(2048)
            let (l, r) = lb.render(256)
            #expect(l.allSatisfy { abs($0 - 0.5) < 1e-6 })
            #expect(r.allSatisfy { abs($0 + 0.25) < 1e-6 })
            lb.close(sources: [s], buffers: [b])
        }

        @Test func eightBitIsUnsignedAndSixteenBitSigned() throws {
            let lb = try Loopback()
            var b8: ALuint = 0, b16: ALuint = 0
            alGenBuffers(1, &b8)
            alGenBuffers(1, &b16)
            let eight = [UInt8](repeating: 192, count: 44100)                 // +0.5
            alBufferData(b8, AL_FORMAT_MONO8, eight, 44100, 44100)
            let sixteen = [Int16](repeating: -16384, count: 44100)            // -0.5
            alBufferData(b16, AL_FORMAT_MONO16, sixteen, 88200, 44100)
            let s8 = lb.source(buffer: b8), s16 = lb.source(buffer: b16)
            alDistanceModel(AL_NONE)
            alSourcePlay(s8)
            _ = lb.render(2048)
            let a = lb.render(64).left
            alSourceStop(s8)
            alSourcePlay(s16)
            _ = lb.render(2048)
            let c = lb.render(64).left
            let g = Float(0.5).squareRoot()
            #expect(a.allSatisfy { abs($0 - 0.5 * g) < 1e-5 })
            #expect(c.allSatisfy { abs($0 + 0.5 * g) < 1e-5 })
            lb.close(sources: [s8, s16], buffers: [b8, b16])
        }
    }
}

extension OpenALTests.BufferFormatTests {
    /// A mono 16-bit loopback device: a centred mono source comes out at its full OpenAL gain, unpanned.
    @Test func monoShortLoopback() throws {
        let device = try #require(alcLoopbackOpenDeviceSOFT(nil))
        #expect(alcIsRenderFormatSupportedSOFT(device, 22050, ALC_MONO_SOFT, ALC_SHORT_SOFT) == ALCboolean(ALC_TRUE))
        let attributes: [ALCint] = [ALC_FREQUENCY, 22050, ALC_FORMAT_CHANNELS_SOFT, ALC_MONO_SOFT, ALC_FORMAT_TYPE_SOFT, ALC_SHORT_SOFT, 0]
        let context = try #require(alcCreateContext(device, attributes))
        _ = alcMakeContextCurrent(context)
        var b: ALuint = 0, s: ALuint = 0
        alGenBuffers(1, &b)
        let data = [Int16](repeating: 8192, count: 22050)                              // 0.25
        alBufferData(b, AL_FORMAT_MONO16, data, 44100, 22050)
        alGenSources(1, &s)
        alSourcei(s, AL_BUFFER, ALint(b))
        alSource3f(s, AL_POSITION, 3, 0, 0)                                            // distance 3, inverse clamped: 1/3
        alSourcePlay(s)
        var out = [Int16](repeating: 0, count: 4096)
        alcRenderSamplesSOFT(device, &out, 2048)
        alcRenderSamplesSOFT(device, &out, 256)
        let expected = 0.25 / 3 * 32767
        #expect(out[0..<256].allSatisfy { abs(Double($0) - expected) <= 2 }, "\(out[0]) vs \(expected)")
        alDeleteSources(1, &s)
        alDeleteBuffers(1, &b)
        _ = alcMakeContextCurrent(nil)
        alcDestroyContext(context)
        #expect(alcCloseDevice(device) == ALCboolean(ALC_TRUE))
    }
}
