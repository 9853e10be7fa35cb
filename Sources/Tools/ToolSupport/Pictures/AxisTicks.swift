// Tick positions and labels for the plots' axes: steps of 1, 2 or 5 times a power of ten.
import Foundation

/// Evenly spaced "round" tick values over 0...span.
public struct AxisTicks: Sendable {
    /// The distance between ticks.
    public let step: Double
    /// The tick values from 0 up to span (inclusive, allowing for rounding).
    public let values: [Double]
    /// Decimal places the labels use (enough to tell neighbouring ticks apart).
    public let decimals: Int

    /// The smallest 1-2-5 step that puts at most `maximumCount` intervals across `span`.
    public init(span: Double, maximumCount: Int) {
        let span = span.isFinite && span > 0 ? span : 1
        let raw = span / Double(max(maximumCount, 1))
        var magnitude = pow(10, floor(log10(raw)))
        var chosen = magnitude
        search: while true {
            for m in [1.0, 2, 5] where m * magnitude >= raw * (1 - 1e-9) {
                chosen = m * magnitude
                break search
            }
            magnitude *= 10
        }
        step = chosen
        decimals = max(0, Int(ceil(-log10(chosen) - 1e-9)))
        let count = Int((span / chosen + 1e-9).rounded(.down))
        values = (0...count).map { Double($0) * chosen }
    }

    /// A tick value as its label.
    public func label(_ value: Double) -> String {
        String(format: "%.\(decimals)f", value)
    }
}
