import Foundation

/// OpenAL 1.1's formulas (spec §3.4): distance attenuation per model, the sound cone, the listener-relative
/// direction given to the mixer, and the Doppler shift.
enum ALSpatialMath {
    /// The distance gain of `model` at distance `d` (spec §3.4.1-3.4.4; AL_NONE is 1).
    static func distanceGain(model: ALenum, distance d: Double, reference: Double, rolloff: Double, maxDistance: Double) -> Double {
        var d = d
        switch model {
        case AL_INVERSE_DISTANCE_CLAMPED, AL_LINEAR_DISTANCE_CLAMPED, AL_EXPONENT_DISTANCE_CLAMPED:
            d = min(max(d, reference), maxDistance)
        default: break
        }
        switch model {
        case AL_INVERSE_DISTANCE, AL_INVERSE_DISTANCE_CLAMPED:
            let denominator = reference + rolloff * (d - reference)
            return denominator > 0 ? reference / denominator : 1
        case AL_LINEAR_DISTANCE, AL_LINEAR_DISTANCE_CLAMPED:
            if model == AL_LINEAR_DISTANCE { d = min(d, maxDistance) }
            guard maxDistance > reference else { return 1 }
            return max(0, 1 - rolloff * (d - reference) / (maxDistance - reference))
        case AL_EXPONENT_DISTANCE, AL_EXPONENT_DISTANCE_CLAMPED:
            guard d > 0, reference > 0 else { return 1 }
            return pow(d / reference, -rolloff)
        default:
            return 1
        }
    }

    /// The cone gain: 1 inside half the inner angle, the outer gain beyond half the outer angle, linear between.
    static func coneGain(direction: SIMD3<Double>, toListener: SIMD3<Double>, inner: Double, outer: Double, outerGain: Double) -> Double {
        let dl = (direction * direction).sum().squareRoot(), tl = (toListener * toListener).sum().squareRoot()
        guard dl > 0, tl > 0 else { return 1 }
        let cosine = max(-1, min(1, (direction * toListener).sum() / (dl * tl)))
        let angle = acos(cosine) * 180 / Double.pi
        if angle <= inner / 2 { return 1 }
        if angle >= outer / 2 || outer <= inner { return outerGain }
        let t = (angle - inner / 2) / (outer / 2 - inner / 2)
        return 1 + (outerGain - 1) * t
    }

    /// Azimuth (degrees, +90 right) and elevation of `v`, a vector from the listener, in the frame whose
    /// front is `at` and whose top is `up` (OpenAL is right-handed: right = at x up).
    static func direction(of v: SIMD3<Double>, at: SIMD3<Double>, up: SIMD3<Double>) -> (azimuth: Double, elevation: Double) {
        func normalized(_ x: SIMD3<Double>) -> SIMD3<Double>? {
            let l = (x * x).sum().squareRoot()
            return l > 1e-12 ? x / l : nil
        }
        let front = normalized(at) ?? SIMD3(0, 0, -1)
        var top = up - front * (up * front).sum()
        top = normalized(top) ?? SIMD3(0, 1, 0)
        let right = SIMD3(front.y * top.z - front.z * top.y, front.z * top.x - front.x * top.z, front.x * top.y - front.y * top.x)
        let x = (v * right).sum(), y = (v * top).sum(), z = (v * front).sum()
        guard x * x + y * y + z * z > 1e-18 else { return (0, 0) }
        return (atan2(x, z) * 180 / Double.pi, atan2(y, (x * x + z * z).squareRoot()) * 180 / Double.pi)
    }

    /// The Doppler pitch factor (spec §3.5.2): source and listener velocities along the line between them.
    static func doppler(sourceToListener sl: SIMD3<Double>, sourceVelocity: SIMD3<Double>, listenerVelocity: SIMD3<Double>,
                        factor: Double, speedOfSound: Double) -> Double {
        let magnitude = (sl * sl).sum().squareRoot()
        guard factor > 0, speedOfSound > 0, magnitude > 0 else { return 1 }
        let limit = speedOfSound / factor
        let vls = min((sl * listenerVelocity).sum() / magnitude, limit)
        let vss = min((sl * sourceVelocity).sum() / magnitude, limit)
        let denominator = speedOfSound - factor * vss
        guard denominator > 0 else { return 1 }
        return max(0, (speedOfSound - factor * vls) / denominator)
    }
}
