import Foundation

/// Parameter values as text and as slider positions: Apple's digit rule for `AUParameterFormatValue`, and
/// the display curves (`kAudioUnitParameterFlag_Display*`) behind `AUParameterValueToLinear`/`FromLinear`.
/// Pure functions on numbers; the API layer looks up the parameter's range and flags.
enum ParameterValueText {
    /// Apple's rule: with `p` = the power of ten of `magnitude` (the value itself for logarithmic/Hertz
    /// parameters, else the range max - min), the text has `digits - 1 - p` digits after the point; a negative
    /// count rounds to that power of ten (digits 3: 0.0123 -> "0.0123", 1.234 -> "1.23", 12345 -> "12300").
    static func format(_ value: Double, magnitude: Double, digits: Int) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : value < 0 ? "-inf" : "inf" }
        let m = abs(magnitude)
        let power = m.isFinite && m > 0 ? Int(floor(log10(m))) : 0
        let decimals = digits - 1 - power
        if decimals >= 0 {
            let places = min(decimals, 20)
            let text = String(format: "%.*f", places, value)
            return isNegativeZero(text) ? String(text.dropFirst()) : text
        }
        let step = pow(10, Double(-decimals))
        let rounded = (value / step).rounded() * step
        return String(format: "%.0f", rounded == 0 ? 0 : rounded)
    }

    /// "-0", "-0.00": a value that rounds to zero prints without a sign.
    private static func isNegativeZero(_ text: String) -> Bool {
        text.hasPrefix("-") && text.dropFirst().allSatisfy { $0 == "0" || $0 == "." }
    }

    /// The curve of a parameter's display flags.
    enum Curve {
        case linear, logarithmic, squareRoot, squared, cubed, cubeRoot, exponential

        init(flags: AudioUnitParameterOptions) {
            switch flags.rawValue & AudioUnitParameterOptions.flag_DisplayMask.rawValue {
            case AudioUnitParameterOptions.flag_DisplayLogarithmic.rawValue: self = .logarithmic
            case AudioUnitParameterOptions.flag_DisplaySquareRoot.rawValue: self = .squareRoot
            case AudioUnitParameterOptions.flag_DisplaySquared.rawValue: self = .squared
            case AudioUnitParameterOptions.flag_DisplayCubed.rawValue: self = .cubed
            case AudioUnitParameterOptions.flag_DisplayCubeRoot.rawValue: self = .cubeRoot
            case AudioUnitParameterOptions.flag_DisplayExponential.rawValue: self = .exponential
            default: self = .linear
            }
        }
    }

    /// The slider position (0...1 inside the range; linear positions extrapolate outside it) of `value`.
    /// The flag names the curve of the display axis: a logarithmic axis puts ln(value/min) / ln(max/min)
    /// at the position, a squared axis x², a square-root axis √x (x = (value - min) / (max - min)), an
    /// exponential axis the inverse of the logarithmic one. Logarithmic and exponential need 0 < min < max;
    /// otherwise they are linear. Roots of values below min are 0.
    static func toLinear(_ value: Double, min lo: Double, max hi: Double, curve: Curve) -> Double {
        guard hi != lo else { return 0 }
        let x = (value - lo) / (hi - lo)
        switch curve {
        case .linear: return x
        case .squared: return x * abs(x)
        case .cubed: return x * x * x
        case .squareRoot: return x > 0 ? x.squareRoot() : 0
        case .cubeRoot: return cbrt(x)
        case .logarithmic:
            guard lo > 0, hi > lo else { return x }
            return value > 0 ? log(value / lo) / log(hi / lo) : 0
        case .exponential:
            guard lo > 0, hi > lo else { return x }
            let r = hi / lo
            return (pow(r, x) - 1) / (r - 1)
        }
    }

    /// The value at slider position `linear`: the inverse of `toLinear`.
    static func fromLinear(_ linear: Double, min lo: Double, max hi: Double, curve: Curve) -> Double {
        let s = linear
        let x: Double
        switch curve {
        case .linear: x = s
        case .squared: x = s > 0 ? s.squareRoot() : -(-s).squareRoot()
        case .cubed: x = cbrt(s)
        case .squareRoot: x = s > 0 ? s * s : 0
        case .cubeRoot: x = s * s * s
        case .logarithmic:
            guard lo > 0, hi > lo else { x = s; break }
            return lo * pow(hi / lo, s)
        case .exponential:
            guard lo > 0, hi > lo else { x = s; break }
            let r = hi / lo
            let inner = s * (r - 1) + 1
            x = inner > 0 ? log(inner) / log(r) : 0
        }
        return lo + x * (hi - lo)
    }
}
