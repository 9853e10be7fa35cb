import Foundation
import OpenAL
import Testing

extension OpenALTests {
    /// The rendered level of a source straight ahead follows each distance model's 1.1 formula.
    @Suite struct DistanceModelTests {
        static let reference = 2.0, rolloff = 1.5, maxDistance = 30.0
        static let distances: [Double] = [1, 1.5, 2, 3, 5, 8, 12, 20, 30, 45]

        /// The spec's formula (§3.4), written out independently, then the source's [AL_MIN_GAIN, AL_MAX_GAIN] clamp.
        static func expected(_ model: ALenum, _ distance: Double) -> Double {
            let ref = reference, max = maxDistance
            var d = distance
            let clamped = [AL_INVERSE_DISTANCE_CLAMPED, AL_LINEAR_DISTANCE_CLAMPED, AL_EXPONENT_DISTANCE_CLAMPED].contains(model)
            if clamped { d = Swift.max(d, ref); d = Swift.min(d, max) }
            var gain: Double
            switch model {
            case AL_INVERSE_DISTANCE, AL_INVERSE_DISTANCE_CLAMPED: gain = ref / (ref + rolloff * (d - ref))
            case AL_LINEAR_DISTANCE, AL_LINEAR_DISTANCE_CLAMPED:
                if !clamped { d = Swift.min(d, max) }
                gain = 1 - rolloff * (d - ref) / (max - ref)
            case AL_EXPONENT_DISTANCE, AL_EXPONENT_DISTANCE_CLAMPED: gain = pow(d / ref, -rolloff)
            default: gain = 1
            }
            return Swift.min(Swift.max(gain, 0), 1)
        }

        @Test(arguments: [AL_NONE, AL_INVERSE_DISTANCE, AL_INVERSE_DISTANCE_CLAMPED, AL_LINEAR_DISTANCE, AL_LINEAR_DISTANCE_CLAMPED,
                          AL_EXPONENT_DISTANCE, AL_EXPONENT_DISTANCE_CLAMPED])
        func renderedGainFollowsTheFormula(model: ALenum) throws {
            let lb = try Loopback()
            let b = lb.buffer(frames: 44100)
            let s = lb.source(buffer: b)
            alSourcef(s, AL_REFERENCE_DISTANCE, Float(Self.reference))
            alSourcef(s, AL_ROLLOFF_FACTOR, Float(Self.rolloff))
            alSourcef(s, AL_MAX_DISTANCE, Float(Self.maxDistance))
            alSourcePlay(s)
            alDistanceModel(AL_NONE)
            let unity = lb.level().left
            #expect(abs(unity - 0.5 * 0.5.squareRoot()) < 1e-4)  // DC 0.5, equal-power centre (-3 dB)
            alDistanceModel(model)
            var worst = 0.0
            for d in Self.distances {
                alSource3f(s, AL_POSITION, 0, 0, -Float(d))
                let (l, r) = lb.level()
                let gain = l / unity, want = Self.expected(model, d)
                worst = max(worst, abs(gain - want))
                #expect(abs(gain - want) < 1e-4, "model \(String(model, radix: 16)) distance \(d): \(gain) vs \(want)")
                #expect(abs(l - r) < 1e-6)
            }
            print("distance model 0x\(String(model, radix: 16)): worst |rendered - formula| = \(worst)")
            #expect(alGetError() == AL_NO_ERROR)
            lb.close(sources: [s], buffers: [b])
        }

        @Test func gainsAndConeCombine() throws {
            let lb = try Loopback()
            let b = lb.buffer(frames: 44100)
            let s = lb.source(buffer: b)
            alSourcePlay(s)
            alDistanceModel(AL_NONE)
            let unity = lb.level().left
            alSourcef(s, AL_GAIN, 0.5)
            alListenerf(AL_GAIN, 0.5)
            #expect(abs(lb.level().left / unity - 0.25) < 1e-4)
            alSourcef(s, AL_GAIN, 0.3)
            alSourcef(s, AL_MIN_GAIN, 0.4)                                   // 0.3 clamped up to 0.4, then the listener's 0.5
            #expect(abs(lb.level().left / unity - 0.2) < 1e-4)
            alSourcef(s, AL_MIN_GAIN, 0)
            alSourcef(s, AL_GAIN, 1)
            alListenerf(AL_GAIN, 1)
            // Source at (0,0,-1) pointing away from the listener (angle 180°): outside the outer cone.
            alSource3f(s, AL_DIRECTION, 0, 0, -1)
            alSourcef(s, AL_CONE_INNER_ANGLE, 90)
            alSourcef(s, AL_CONE_OUTER_ANGLE, 180)
            alSourcef(s, AL_CONE_OUTER_GAIN, 0.25)
            #expect(abs(lb.level().left / unity - 0.25) < 1e-4)
            alSource3f(s, AL_DIRECTION, 0, 0, 1)                                // facing the listener: inside
            #expect(abs(lb.level().left / unity - 1) < 1e-4)
            alSource3f(s, AL_DIRECTION, 1, 0, 1)                                // 45°: on the inner edge
            #expect(abs(lb.level().left / unity - 1) < 1e-4)
            alSource3f(s, AL_DIRECTION, 1, 0, 0)                                // 90°: on the outer edge
            #expect(abs(lb.level().left / unity - 0.25) < 1e-4)
            lb.close(sources: [s], buffers: [b])
        }
    }
}
