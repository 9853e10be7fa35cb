@testable import AudioToolbox
import Foundation
import Testing

/// The display curves behind AUParameterValueToLinear/FromLinear, for every display flag (built-in units use only
/// linear and logarithmic ones), against values computed by hand, and the digit rule of AUParameterFormatValue.
@Suite struct ParameterValueTextTests {
    typealias Curve = ParameterValueText.Curve

    @Test func eachDisplayFlagSelectsItsCurve() {
        #expect(Curve(flags: [.flag_IsReadable, .flag_DisplayLogarithmic]) == .logarithmic)
        #expect(Curve(flags: .flag_DisplaySquareRoot) == .squareRoot)
        #expect(Curve(flags: .flag_DisplaySquared) == .squared)
        #expect(Curve(flags: .flag_DisplayCubed) == .cubed)
        #expect(Curve(flags: .flag_DisplayCubeRoot) == .cubeRoot)
        #expect(Curve(flags: .flag_DisplayExponential) == .exponential)
        #expect(Curve(flags: [.flag_IsWritable, .flag_CanRamp]) == .linear)
    }

    @Test func handComputedPositions() {
        // Range 0...100, value 25: x = 1/4.
        let cases: [(Curve, Double)] = [(.linear, 0.25), (.squared, 0.0625), (.squareRoot, 0.5), (.cubed, 0.015625),
                                        (.cubeRoot, pow(0.25, 1.0 / 3))]
        for (curve, expected) in cases {
            #expect(abs(ParameterValueText.toLinear(25, min: 0, max: 100, curve: curve) - expected) < 1e-12)
            #expect(abs(ParameterValueText.fromLinear(expected, min: 0, max: 100, curve: curve) - 25) < 1e-9)
        }
        // 20 Hz...20 kHz, logarithmic: 632.5 Hz (sqrt(20 * 20000)) sits at the middle; 200 Hz at one third.
        #expect(abs(ParameterValueText.toLinear(20_000.0.squareRoot() * 20.0.squareRoot(), min: 20, max: 20_000, curve: .logarithmic) - 0.5) < 1e-12)
        #expect(abs(ParameterValueText.toLinear(200, min: 20, max: 20_000, curve: .logarithmic) - 1.0 / 3) < 1e-12)
        #expect(abs(ParameterValueText.fromLinear(2.0 / 3, min: 20, max: 20_000, curve: .logarithmic) - 2000) < 1e-9)
        // Exponential, the inverse curve: x = 1/3 of 20...20000 (r = 1000) sits at (1000^(1/3) - 1) / 999 = 9/999.
        let third = 20 + (20_000 - 20) / 3.0
        #expect(abs(ParameterValueText.toLinear(third, min: 20, max: 20_000, curve: .exponential) - 9.0 / 999) < 1e-12)
        #expect(abs(ParameterValueText.fromLinear(9.0 / 999, min: 20, max: 20_000, curve: .exponential) - third) < 1e-9)
        // A logarithmic curve over a range reaching 0 is linear.
        #expect(ParameterValueText.toLinear(5, min: 0, max: 10, curve: .logarithmic) == 0.5)
    }

    @Test func roundTripsOnEveryCurve() {
        for curve in [Curve.linear, .logarithmic, .squareRoot, .squared, .cubed, .cubeRoot, .exponential] {
            for s in stride(from: 0.0, through: 1.0, by: 0.125) {
                let v = ParameterValueText.fromLinear(s, min: 0.5, max: 8, curve: curve)
                #expect(abs(ParameterValueText.toLinear(v, min: 0.5, max: 8, curve: curve) - s) < 1e-9)
            }
        }
    }

    @Test func digitRule() {
        // Apple's table for three digits, by the magnitude's power of ten.
        #expect(ParameterValueText.format(0.05, magnitude: 0.05, digits: 3) == "0.0500")
        #expect(ParameterValueText.format(5, magnitude: 5, digits: 3) == "5.00")
        #expect(ParameterValueText.format(999, magnitude: 999, digits: 3) == "999")
        #expect(ParameterValueText.format(9_990, magnitude: 9_990, digits: 3) == "9990")
        #expect(ParameterValueText.format(99_900, magnitude: 99_900, digits: 3) == "99900")
        #expect(ParameterValueText.format(-0.001, magnitude: 1, digits: 3) == "0.00")
        #expect(ParameterValueText.format(0, magnitude: 0, digits: 3) == "0.00")
    }
}
