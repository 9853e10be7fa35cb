import DeviceTestSupport
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
