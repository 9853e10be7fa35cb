import DeviceTestSupport
import CoreAudio
import Foundation
import OpenAL
import Testing

extension OpenALTests {
    /// alcOpenDevice(nil) on the private PulseAudio server: a tone buffer is heard on the "out" sink, at the
    /// level and place OpenAL gives it.
    @Suite(.serialized, .audioServer) struct OpenALDeviceTests {
        static let rate = 44100.0

        /// A mono 16-bit sine of `seconds` at `frequency`.
        static func tone(seconds: Double, frequency: Double, amplitude: Double) -> [Int16] {
            (0..<Int(seconds * rate)).map { Int16(amplitude * 32767 * sin(2 * Double.pi * frequency * Double($0) / rate)) }
        }

        /// The first and last index above `threshold`.
        static func extent(_ x: [Float], threshold: Float = 0.02) -> (Int, Int)? {
            guard let a = x.firstIndex(where: { abs($0) > threshold }), let b = x.lastIndex(where: { abs($0) > threshold }) else { return nil }
            return (a, b)
        }

        @Test func defaultDevicePlaysAToneBuffer() throws {
            let device = try #require(alcOpenDevice(nil))
            let context = try #require(alcCreateContext(device, nil))
            #expect(alcMakeContextCurrent(context) == ALCboolean(ALC_TRUE))
            var buffer: ALuint = 0, source: ALuint = 0
            alGenBuffers(1, &buffer)
            let samples = Self.tone(seconds: 1, frequency: 1000, amplitude: 0.5)
            alBufferData(buffer, AL_FORMAT_MONO16, samples, ALsizei(samples.count * 2), 44100)
            alGenSources(1, &source)
            alSourcei(source, AL_BUFFER, ALint(buffer))
            alSource3f(source, AL_POSITION, 1, 0, 0)          // 1 m to the right: unity gain, right channel only
            #expect(alGetError() == AL_NO_ERROR)
            let capture = try PulseTestServer.Capture()
            Thread.sleep(forTimeInterval: 0.2)
            alSourcePlay(source)
            var state: ALint = 0
            let deadline = Date().addingTimeInterval(4)
            repeat {
                Thread.sleep(forTimeInterval: 0.01)
                alGetSourcei(source, AL_SOURCE_STATE, &state)
            } while state == AL_PLAYING && Date() < deadline
            #expect(state == AL_STOPPED)
            Thread.sleep(forTimeInterval: 0.4)
            let heard = capture.finish()
            alDeleteSources(1, &source)
            alDeleteBuffers(1, &buffer)
            _ = alcMakeContextCurrent(nil)
            alcDestroyContext(context)
            #expect(alcCloseDevice(device) == ALCboolean(ALC_TRUE))
            let right = heard[1], left = heard[0]
            let (start, end) = try #require(Self.extent(right), "nothing heard")
            let seconds = Double(end - start + 1) / Self.rate
            let amplitude = ToneAnalysis.fit(right[(start + 2205)...].prefix(22050), frequency: 1000, rate: Self.rate).amplitude
            let leftPeak = left[start...end].map { abs($0) }.max() ?? 0
            print("OpenAL device: heard \(seconds) s, right amplitude \(amplitude), left peak \(leftPeak)")
            #expect(abs(seconds - 1) < 0.05, "heard \(seconds) s")
            #expect(abs(amplitude - 0.5) < 0.02, "amplitude \(amplitude)")
            #expect(leftPeak < 0.01)
        }

        /// The book's orbit on the sink: a looping 500 Hz source at 3 m (inverse distance clamped, reference 1: gain 1/3)
        /// stepped round the listener, 250 ms at each of 16 positions; in the 100 ms block at the middle of each step the
        /// sink's left and right levels are the equal-power law's (θ = (sin azimuth + 1)·π/4, gains cos θ and sin θ) times
        /// the distance gain, within 3 % of the full level.
        @Test func orbitingSourceFollowsThePanningLaw() throws {
            let device = try #require(alcOpenDevice(nil))
            let context = try #require(alcCreateContext(device, nil))
            #expect(alcMakeContextCurrent(context) == ALCboolean(ALC_TRUE))
            var buffer: ALuint = 0, source: ALuint = 0
            alGenBuffers(1, &buffer)
            let samples = Self.tone(seconds: 1, frequency: 500, amplitude: 0.9)
            alBufferData(buffer, AL_FORMAT_MONO16, samples, ALsizei(samples.count * 2), 44100)
            alGenSources(1, &source)
            alSourcei(source, AL_BUFFER, ALint(buffer))
            alSourcei(source, AL_LOOPING, AL_TRUE)
            alSource3f(source, AL_POSITION, 0, 0, -3)
            #expect(alGetError() == AL_NO_ERROR)
            let capture = try PulseTestServer.Capture()
            Thread.sleep(forTimeInterval: 0.2)
            let steps = 16, hold = 0.25
            alSourcePlay(source)
            let started = Date()
            for k in 0..<steps {
                let azimuth = Double(k) * 2 * Double.pi / Double(steps)
                alSource3f(source, AL_POSITION, Float(3 * sin(azimuth)), 0, Float(-3 * cos(azimuth)))
                Thread.sleep(until: started.addingTimeInterval(Double(k + 1) * hold))
            }
            alSourceStop(source)
            Thread.sleep(forTimeInterval: 0.3)
            let heard = capture.finish()
            alDeleteSources(1, &source)
            alDeleteBuffers(1, &buffer)
            _ = alcMakeContextCurrent(nil)
            alcDestroyContext(context)
            #expect(alcCloseDevice(device) == ALCboolean(ALC_TRUE))
            let onset = try #require(heard[0].indices.first { max(abs(heard[0][$0]), abs(heard[1][$0])) > 0.02 }, "nothing heard")
            let full = 0.9 / 2.0.squareRoot() / 3  // the tone's RMS at 3 m
            var worst = 0.0
            for k in 0..<steps {
                let azimuth = Double(k) * 2 * Double.pi / Double(steps)
                let theta = (sin(azimuth) + 1) * Double.pi / 4
                let start = onset + Int((Double(k) + 0.3) * hold * Self.rate), block = Int(0.1 * Self.rate)
                guard start + block <= heard[0].count else { Issue.record("capture too short for step \(k)"); break }
                func rms(_ x: [Float]) -> Double { (x[start..<start + block].reduce(0) { $0 + Double($1) * Double($1) } / Double(block)).squareRoot() }
                let (l, r) = (rms(heard[0]), rms(heard[1]))
                let (el, er) = (full * cos(theta), full * sin(theta))
                worst = max(worst, abs(l - el) / full, abs(r - er) / full)
                #expect(abs(l - el) < 0.03 * full && abs(r - er) < 0.03 * full,
                        "step \(k) (azimuth \(Int(azimuth * 180 / .pi))°): heard L \(l) R \(r), expected L \(el) R \(er)")
            }
            print("OpenAL orbit on the sink: largest difference from the panning law \(worst * 100) % of the level")
        }

        /// A streamed source on the sink: three queued buffers of 0.5 s (one continuous 1 kHz tone cut in three) play as
        /// 1.5 s without a gap, AL_BUFFERS_PROCESSED counts all three back, and the source stops after them.
        @Test func queuedBuffersPlayWithoutAGap() throws {
            let device = try #require(alcOpenDevice(nil))
            let context = try #require(alcCreateContext(device, nil))
            #expect(alcMakeContextCurrent(context) == ALCboolean(ALC_TRUE))
            let tone = Self.tone(seconds: 1.5, frequency: 1000, amplitude: 0.5)
            var buffers = [ALuint](repeating: 0, count: 3), source: ALuint = 0
            alGenBuffers(3, &buffers)
            for (i, b) in buffers.enumerated() {
                let part = Array(tone[(i * 22050)..<((i + 1) * 22050)])
                alBufferData(b, AL_FORMAT_MONO16, part, ALsizei(part.count * 2), 44100)
            }
            alGenSources(1, &source)
            alSource3f(source, AL_POSITION, 1, 0, 0)
            alSourceQueueBuffers(source, 3, buffers)
            #expect(alGetError() == AL_NO_ERROR)
            let overloads = OverloadCounter()
            let capture = try PulseTestServer.Capture()
            Thread.sleep(forTimeInterval: 0.2)
            alSourcePlay(source)
            var state: ALint = 0, processed: ALint = 0
            let deadline = Date().addingTimeInterval(5)
            repeat {
                Thread.sleep(forTimeInterval: 0.01)
                alGetSourcei(source, AL_SOURCE_STATE, &state)
            } while state == AL_PLAYING && Date() < deadline
            alGetSourcei(source, AL_BUFFERS_PROCESSED, &processed)
            #expect(state == AL_STOPPED && processed == 3, "state \(state), processed \(processed)")
            var back = [ALuint](repeating: 0, count: 3)
            alSourceUnqueueBuffers(source, 3, &back)
            #expect(back == buffers && alGetError() == AL_NO_ERROR)
            Thread.sleep(forTimeInterval: 0.4)
            let heard = capture.finish()[1]
            overloads.stop()
            alDeleteSources(1, &source)
            alDeleteBuffers(3, buffers)
            _ = alcMakeContextCurrent(nil)
            alcDestroyContext(context)
            #expect(alcCloseDevice(device) == ALCboolean(ALC_TRUE))
            let (start, end) = try #require(Self.extent(heard), "nothing heard")
            let seconds = Double(end - start + 1) / Self.rate
            let body = heard[(start + 441)...(end - 441)]
            let gap = ToneAnalysis.longestGap(body)
            print("OpenAL stream on the sink: heard \(seconds) s, longest gap \(gap) frames")
            #expect(abs(seconds - 1.5) < 0.05, "heard \(seconds) s")
            // A gap here was once ours (a state query held the render lock; CI heard a 512-frame silent slice in two of three
            // runs); queries no longer take it. A device overload (an xrun) is reported beside any gap to tell the two apart.
            #expect(gap < 8, "gap of \(gap) frames; the device reported \(overloads.count) overloads")
            #expect(abs(ToneAnalysis.fit(body, frequency: 1000, rate: Self.rate).amplitude - 0.5) < 0.02)
        }

        /// Counts kAudioDeviceProcessorOverload reports of the default output device while it lives.
        final class OverloadCounter: @unchecked Sendable {
            private let lock = NSLock()
            private var reports = 0
            private let device: AudioObjectID
            private var address = AudioObjectPropertyAddress(mSelector: kAudioDeviceProcessorOverload, mScope: kAudioObjectPropertyScopeGlobal,
                                                             mElement: kAudioObjectPropertyElementMain)
            private var listener: AudioObjectPropertyListenerBlock?

            init() {
                var id = AudioObjectID(0), size = UInt32(MemoryLayout<AudioObjectID>.size)
                var defaultOutput = AudioObjectPropertyAddress(mSelector: kAudioHardwarePropertyDefaultOutputDevice,
                                                               mScope: kAudioObjectPropertyScopeGlobal, mElement: kAudioObjectPropertyElementMain)
                _ = AudioObjectGetPropertyData(AudioObjectID(kAudioObjectSystemObject), &defaultOutput, 0, nil, &size, &id)
                device = id
                let block: AudioObjectPropertyListenerBlock = { [weak self] _, _ in self?.lock.withLock { self?.reports += 1 } }
                listener = block
                _ = AudioObjectAddPropertyListenerBlock(device, &address, nil, block)
            }

            /// The reports so far.
            var count: Int { lock.withLock { reports } }

            /// Stops listening.
            func stop() {
                if let listener { _ = AudioObjectRemovePropertyListenerBlock(device, &address, nil, listener) }
                listener = nil
            }
        }

        @Test func captureHearsTheMic() throws {
            let device = try #require(alcCaptureOpenDevice(nil, 44100, AL_FORMAT_MONO16, 44100))
            let player = try PulseTestServer.startPlaying(PulseTestServer.stereoSine(1000, seconds: 3, amplitude: 0.5))
            defer { PulseTestServer.stop(player) }
            Thread.sleep(forTimeInterval: 0.3)
            alcCaptureStart(device)
            var available: ALCint = 0
            let deadline = Date().addingTimeInterval(3)
            repeat {
                Thread.sleep(forTimeInterval: 0.02)
                alcGetIntegerv(device, ALC_CAPTURE_SAMPLES, 1, &available)
            } while available < 22050 && Date() < deadline
            #expect(available >= 22050)
            var samples = [Int16](repeating: 0, count: 22050)
            alcCaptureSamples(device, &samples, 22050)
            #expect(alcGetError(device) == ALC_NO_ERROR)
            alcCaptureSamples(device, &samples, 44100 * 2)           // more than it holds
            #expect(alcGetError(device) == ALC_INVALID_VALUE)
            alcCaptureStop(device)
            #expect(alcCaptureCloseDevice(device) == ALCboolean(ALC_TRUE))
            let floats = samples.map { Float($0) / 32768 }
            let amplitude = ToneAnalysis.fit(floats[4410...].prefix(11025), frequency: 1000, rate: Self.rate).amplitude
            print("OpenAL capture: \(available) frames available, 1 kHz amplitude \(amplitude)")
            #expect(abs(amplitude - 0.5) < 0.02, "amplitude \(amplitude)")
        }
    }
}
