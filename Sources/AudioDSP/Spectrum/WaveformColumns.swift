// The waveform of a whole signal squeezed into a number of pixel columns: each column shows the
// smallest and largest sample of its stretch, so no peak disappears however long the signal is.

/// Minimum and maximum per column of a signal divided into equal stretches.
public enum WaveformColumns {
    /// Column c covers samples [c·n/columns, (c+1)·n/columns) (at least the one sample nearest its start
    /// when there are more columns than samples). Writes `columns` values to each output; columns of an
    /// empty signal read 0.
    public static func minMax(_ x: UnsafeBufferPointer<Float>, columns: Int,
                              minimum: UnsafeMutableBufferPointer<Float>, maximum: UnsafeMutableBufferPointer<Float>) {
        precondition(minimum.count >= columns && maximum.count >= columns, "WaveformColumns: outputs shorter than columns")
        let n = x.count
        for c in 0..<columns {
            guard n > 0 else {
                minimum[c] = 0
                maximum[c] = 0
                continue
            }
            let start = min(c * n / columns, n - 1)
            let end = max((c + 1) * n / columns, start + 1)
            var lo = x[start], hi = x[start]
            for i in start..<end {
                lo = min(lo, x[i])
                hi = max(hi, x[i])
            }
            minimum[c] = lo
            maximum[c] = hi
        }
    }
}
