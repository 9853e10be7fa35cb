extension Int64 {
    /// `value` rounded toward zero and clamped to Int64's range (NaN is 0): frame counts and positions
    /// computed in Double from a file's sizes and a rate ratio must not trap on a hostile file.
    init(saturating value: Double) {
        if value.isNaN { self = 0 } else if value >= 9.223372036854775e18 { self = .max } else if value <= -9.223372036854775e18 { self = .min } else {
            self = Int64(value)
        }
    }
}
