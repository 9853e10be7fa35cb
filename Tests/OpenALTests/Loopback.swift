import OpenAL
import Testing

/// A loopback device with one current context (stereo Float32 at `rate`), and helpers to render it.
final class Loopback {
    let device: OpaquePointer
    let context: OpaquePointer
    let rate: Int

    init(rate: Int = 44100, channels: ALCint = ALC_STEREO_SOFT, extra: [ALCint] = []) throws {
        self.rate = rate
        device = try #require(alcLoopbackOpenDeviceSOFT(nil))
        let attributes: [ALCint] = [ALC_FREQUENCY, ALCint(rate), ALC_FORMAT_CHANNELS_SOFT, channels, ALC_FORMAT_TYPE_SOFT, ALC_FLOAT_SOFT] + extra + [0]
        context = try #require(alcCreateContext(device, attributes))
        #expect(alcMakeContextCurrent(context) == ALCboolean(ALC_TRUE))
        _ = alGetError()
    }

    /// Interleaved stereo frames of the mix.
    func render(_ frames: Int) -> (left: [Float], right: [Float]) {
        var interleaved = [Float](repeating: 0, count: 2 * frames)
        alcRenderSamplesSOFT(device, &interleaved, ALCsizei(frames))
        return (stride(from: 0, to: 2 * frames, by: 2).map { interleaved[$0] }, stride(from: 1, to: 2 * frames, by: 2).map { interleaved[$0] })
    }

    /// The RMS of each channel over `frames` frames, after `settle` frames let gain ramps finish.
    func level(settle: Int = 2048, frames: Int = 2048) -> (left: Double, right: Double) {
        _ = render(settle)
        let (l, r) = render(frames)
        func rms(_ x: [Float]) -> Double { (x.reduce(0) { $0 + Double($1) * Double($1) } / Double(x.count)).squareRoot() }
        return (rms(l), rms(r))
    }

    /// A buffer of `frames` mono Float32 frames made by `sample` at `rate` Hz.
    func buffer(frames: Int, rate: Int? = nil, _ sample: (Int) -> Float = { _ in 0.5 }) -> ALuint {
        var id: ALuint = 0
        alGenBuffers(1, &id)
        let data = (0..<frames).map(sample)
        alBufferData(id, AL_FORMAT_MONO_FLOAT32, data, ALsizei(frames * 4), ALsizei(rate ?? self.rate))
        return id
    }

    /// A source playing `buffer` (looping if asked), straight ahead at 1 m unless placed.
    func source(buffer: ALuint, looping: Bool = true) -> ALuint {
        var id: ALuint = 0
        alGenSources(1, &id)
        alSourcei(id, AL_BUFFER, ALint(bitPattern: buffer))
        alSourcei(id, AL_LOOPING, looping ? AL_TRUE : AL_FALSE)
        alSource3f(id, AL_POSITION, 0, 0, -1)
        return id
    }

    func state(_ source: ALuint) -> ALint { integer(source, AL_SOURCE_STATE) }

    func integer(_ source: ALuint, _ param: ALenum) -> ALint {
        var v: ALint = 0
        alGetSourcei(source, param, &v)
        return v
    }

    /// Deletes every source and buffer named, destroys the context and closes the device.
    func close(sources: [ALuint] = [], buffers: [ALuint] = []) {
        for var s in sources { alSourceStop(s); alDeleteSources(1, &s) }
        for var b in buffers { alDeleteBuffers(1, &b) }
        _ = alcMakeContextCurrent(nil)
        alcDestroyContext(context)
        #expect(alcCloseDevice(device) == ALCboolean(ALC_TRUE))
    }
}
