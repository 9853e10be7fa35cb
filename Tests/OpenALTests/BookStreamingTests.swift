import OpenAL
import Testing

extension OpenALTests {
    /// "Learning Core Audio" chapter 9's two programs, in Swift as a client writes them, on a loopback device.
    @Suite struct BookStreamingTests {
        /// OpenALOrbitLoop: a looping buffer on a source moved around the listener; the level moves between ears.
        @Test func orbitLoop() throws {
            let lb = try Loopback()
            var buffers = [ALuint](repeating: 0, count: 1)
            alGenBuffers(1, &buffers)
            let samples = (0..<44100).map { Int16(16000 * sin(2 * Double.pi * 440 * Double($0) / 44100)) }
            alBufferData(buffers[0], AL_FORMAT_MONO16, samples, ALsizei(samples.count * 2), 44100)
            var sources = [ALuint](repeating: 0, count: 1)
            alGenSources(1, &sources)
            alSourcei(sources[0], AL_LOOPING, AL_TRUE)
            alSourcef(sources[0], AL_GAIN, ALfloat(AL_MAX_GAIN))                     // the book's (clamped to AL_MAX_GAIN 1)
            alSourcei(sources[0], AL_BUFFER, ALint(buffers[0]))
            alListener3f(AL_POSITION, 0, 0, 0)
            alSourcePlay(sources[0])
            #expect(alGetError() == AL_NO_ERROR)
            var balance: [Double] = []
            for step in 0..<8 {
                let theta = Double(step) * Double.pi / 4                                // the book orbits in x/z, radius 3
                alSource3f(sources[0], AL_POSITION, Float(3 * cos(theta)), 0, Float(3 * sin(theta)))
                let (l, r) = lb.level(settle: 2048, frames: 4410)
                balance.append((r - l) / (r + l))
            }
            print("orbit balance (R-L)/(R+L): \(balance.map { ($0 * 100).rounded() / 100 })")
            #expect(balance[0] > 0.9 && balance[4] < -0.9)                             // +X right, -X left
            #expect(abs(balance[2]) < 1e-3 && abs(balance[6]) < 1e-3)                  // behind and ahead: centred
            lb.close(sources: sources, buffers: buffers)
        }

        /// OpenALOrbitStream: three buffers primed, then refilled as AL_BUFFERS_PROCESSED reports them; the
        /// stream plays on without a gap or a repeat.
        @Test func orbitStreamRefills() throws {
            let lb = try Loopback()
            let bufferFrames = 2205
            var next = 0                                                               // the stream's next frame
            func fill(_ buffer: ALuint) {
                let data = (0..<bufferFrames).map { Float((next + $0) % 44100) / 44100 }
                next += bufferFrames
                alBufferData(buffer, AL_FORMAT_MONO_FLOAT32, data, ALsizei(bufferFrames * 4), 44100)
            }
            var buffers = [ALuint](repeating: 0, count: 3)
            alGenBuffers(3, &buffers)
            for b in buffers { fill(b) }
            var source: ALuint = 0
            alGenSources(1, &source)
            alSource3f(source, AL_POSITION, 0, 0, -1)
            alSourceQueueBuffers(source, 3, &buffers)
            alSourcePlay(source)
            var out: [Float] = []
            var refills = 0
            for _ in 0..<60 {
                out += lb.render(1024).left
                var processed: ALint = 0
                alGetSourcei(source, AL_BUFFERS_PROCESSED, &processed)
                while processed > 0 {
                    var freeBuffer: ALuint = 0
                    alSourceUnqueueBuffers(source, 1, &freeBuffer)
                    fill(freeBuffer)
                    alSourceQueueBuffers(source, 1, &freeBuffer)
                    processed -= 1
                    refills += 1
                }
            }
            #expect(alGetError() == AL_NO_ERROR)
            #expect(lb.state(source) == AL_PLAYING)
            let g = Float(0.5).squareRoot()
            var worst: Float = 0
            for i in 2..<out.count { worst = max(worst, abs(out[i] - g * Float((i - 2) % 44100) / 44100)) }
            print("stream: \(refills) refills over \(out.count) frames, worst error \(worst)")
            #expect(refills >= 25)
            #expect(worst < 1e-5)
            alSourceStop(source)
            var all = [ALuint](repeating: 0, count: 3)
            alSourceUnqueueBuffers(source, 3, &all)
            lb.close(sources: [source], buffers: buffers)
        }
    }
}
