import OpenAL
import Testing

extension OpenALTests {
    /// Source states, queues, looping, offsets and rates, rendered through the loopback device.
    @Suite struct PlaybackTests {
        @Test func nonLoopingBufferStopsAfterItsFrames() throws {
            let lb = try Loopback()
            let b = lb.buffer(frames: 1000)
            let s = lb.source(buffer: b, looping: false)
            #expect(lb.state(s) == AL_INITIAL)
            alSourcePlay(s)
            #expect(lb.state(s) == AL_PLAYING)
            _ = lb.render(990)
            #expect(lb.state(s) == AL_PLAYING)
            let (l, _) = lb.render(30)
            #expect(lb.state(s) == AL_STOPPED)
            // The mixer's reader runs 2 frames ahead of its output: the last sample comes out at frame 1001.
            #expect(l[8] != 0 && l[29] == 0)
            #expect(lb.integer(s, AL_SAMPLE_OFFSET) == 0)
            lb.close(sources: [s], buffers: [b])
        }

        @Test func queuedBuffersPlayBackToBack() throws {
            let lb = try Loopback()
            // One ramp cut into three buffers: a gap or a repeat would break the ramp.
            let ids = (0..<3).map { k in lb.buffer(frames: 1000) { Float(k * 1000 + $0) / 4000 } }
            var s: ALuint = 0
            alGenSources(1, &s)
            alSource3f(s, AL_POSITION, 0, 0, -1)
            var queue = ids
            alSourceQueueBuffers(s, 3, &queue)
            #expect(lb.integer(s, AL_BUFFERS_QUEUED) == 3)
            #expect(lb.integer(s, AL_SOURCE_TYPE) == AL_STREAMING)
            alSourcePlay(s)
            var out: [Float] = []
            var processed: [ALint] = []
            for chunk in [1050, 1000, 1000] {
                out += lb.render(chunk).left
                processed.append(lb.integer(s, AL_BUFFERS_PROCESSED))
            }
            #expect(processed == [1, 2, 3])
            #expect(lb.state(s) == AL_STOPPED)
            // After the reader's 2-frame latency, output frame i is ramp sample i - 2 at the centre gain.
            let g = Float(0.5).squareRoot()
            var worst: Float = 0
            for i in 2..<3002 { worst = max(worst, abs(out[i] - g * Float(i - 2) / 4000)) }
            print("queue: processed \(processed), worst ramp error \(worst)")
            #expect(worst < 1e-5)
            var unqueued: [ALuint] = [0, 0, 0]
            alSourceUnqueueBuffers(s, 3, &unqueued)
            #expect(alGetError() == AL_NO_ERROR)
            #expect(unqueued == ids)
            #expect(lb.integer(s, AL_BUFFERS_QUEUED) == 0)
            lb.close(sources: [s], buffers: ids)
        }

        @Test func streamingUnqueueAndRequeueWhilePlaying() throws {
            let lb = try Loopback()
            let ids = (0..<3).map { _ in lb.buffer(frames: 1000) }
            var s: ALuint = 0
            alGenSources(1, &s)
            var queue = ids
            alSourceQueueBuffers(s, 3, &queue)
            alSourcePlay(s)
            _ = lb.render(1500)
            #expect(lb.integer(s, AL_BUFFERS_PROCESSED) == 1)
            var first: ALuint = 0
            alSourceUnqueueBuffers(s, 1, &first)
            #expect(first == ids[0])
            alSourceQueueBuffers(s, 1, &first)                 // refill, as a streaming client does
            #expect(lb.integer(s, AL_BUFFERS_QUEUED) == 3)
            #expect(lb.integer(s, AL_BUFFERS_PROCESSED) == 0)
            _ = lb.render(1000)
            #expect(lb.integer(s, AL_BUFFERS_PROCESSED) == 1)
            #expect(lb.state(s) == AL_PLAYING)
            #expect(alGetError() == AL_NO_ERROR)
            lb.close(sources: [s], buffers: ids)
        }

        @Test func loopingRepeats() throws {
            let lb = try Loopback()
            let b = lb.buffer(frames: 1000)
            let s = lb.source(buffer: b, looping: true)
            alSourcePlay(s)
            let (l, _) = lb.render(5000)
            #expect(lb.state(s) == AL_PLAYING)
            #expect(l[2...].allSatisfy { $0 > 0.3 })
            let offset = lb.integer(s, AL_SAMPLE_OFFSET)
            #expect((0..<1000).contains(offset))
            alSourcei(s, AL_LOOPING, AL_FALSE)
            _ = lb.render(1100)
            #expect(lb.state(s) == AL_STOPPED)
            lb.close(sources: [s], buffers: [b])
        }

        @Test func offsetsAdvanceAndSeek() throws {
            let lb = try Loopback()
            let b = lb.buffer(frames: 44100)
            let s = lb.source(buffer: b, looping: false)
            alSourcePlay(s)
            _ = lb.render(2000)
            let samples = lb.integer(s, AL_SAMPLE_OFFSET)
            #expect((2000...2010).contains(samples))
            #expect(lb.integer(s, AL_BYTE_OFFSET) == samples * 4)
            var seconds: ALfloat = 0
            alGetSourcef(s, AL_SEC_OFFSET, &seconds)
            #expect(abs(Double(seconds) - Double(samples) / 44100) < 1e-6)
            alSourcei(s, AL_SAMPLE_OFFSET, 30000)
            #expect(lb.integer(s, AL_SAMPLE_OFFSET) == 30000)
            _ = lb.render(1000)
            #expect((31000...31010).contains(lb.integer(s, AL_SAMPLE_OFFSET)))
            alSourcef(s, AL_SEC_OFFSET, 2)                     // beyond the buffer
            #expect(alGetError() == AL_INVALID_VALUE)
            alSourcePause(s)
            _ = lb.render(1000)
            #expect(lb.state(s) == AL_PAUSED)
            #expect((31000...31010).contains(lb.integer(s, AL_SAMPLE_OFFSET)))
            alSourceRewind(s)
            #expect(lb.state(s) == AL_INITIAL)
            alSourcef(s, AL_SEC_OFFSET, 0.5)                    // applied by the next play
            alSourcePlay(s)
            #expect(lb.integer(s, AL_SAMPLE_OFFSET) == 22050)
            lb.close(sources: [s], buffers: [b])
        }

        @Test func pitchAndBufferRateSetTheSpeed() throws {
            let lb = try Loopback()
            let b = lb.buffer(frames: 44100)
            let s = lb.source(buffer: b, looping: false)
            alDopplerFactor(0)
            alSourcef(s, AL_PITCH, 2)
            alSourcePlay(s)
            _ = lb.render(1000)
            let fast = lb.integer(s, AL_SAMPLE_OFFSET)
            // A 22050 Hz buffer on the 44100 Hz context: half a source frame per output frame.
            let slow = lb.buffer(frames: 22050, rate: 22050)
            let t = lb.source(buffer: slow, looping: false)
            alSourcePlay(t)
            _ = lb.render(2000)
            let half = lb.integer(t, AL_SAMPLE_OFFSET)
            var seconds: ALfloat = 0
            alGetSourcef(t, AL_SEC_OFFSET, &seconds)
            print("pitch 2: \(fast) frames read for 1000 rendered; 22050 Hz buffer: \(half) frames (\(seconds) s) for 2000")
            #expect((1990...2010).contains(fast))
            #expect((1000...1006).contains(half))
            lb.close(sources: [s, t], buffers: [b, slow])
        }

        @Test func dopplerShiftsTheRate() throws {
            let lb = try Loopback()
            let b = lb.buffer(frames: 44100)
            let s = lb.source(buffer: b, looping: false)
            // Approaching at a third of the speed of sound: f' = f * c / (c - c/3) = 1.5 f.
            alSource3f(s, AL_POSITION, 0, 0, -10)
            alSource3f(s, AL_VELOCITY, 0, 0, 343.3 / 3)
            alSourcePlay(s)
            _ = lb.render(2000)
            let read = lb.integer(s, AL_SAMPLE_OFFSET)
            #expect((2990...3010).contains(read))
            lb.close(sources: [s], buffers: [b])
        }
    }
}
