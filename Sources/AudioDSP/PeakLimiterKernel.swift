#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A look-ahead peak limiter with AUPeakLimiter's controls ('aufx' 'lmtr').
///
/// The signal, after the pre-gain, is delayed by L = round(attackTime · sampleRate) frames (the latency). Each frame
/// needs the gain r = min(1, ceiling / peak), the peak being the largest magnitude over the channels (stereo
/// link). The gain envelope is built in three steps:
///
/// 1. hold: h[n] = min(r[n−L] ... r[n]), a sliding minimum over L + 1 frames (monotonic queue, O(1) per frame);
/// 2. smooth: s[n] = mean(h[n−L] ... h[n]), a moving average over the same L + 1 frames. Every h in that average
///    covers frame n − L, so s[n] ≤ r[n − L]: the gain ramps down linearly over the look-ahead and reaches what the
///    frame leaving the delay needs just as it leaves. The sum runs on integers (h in units of 2⁻³²), so it never
///    drifts;
/// 3. release: the applied gain g follows s at once when s falls and with a one-pole of time constant decayTime when
///    it rises, so g ≤ s always.
///
/// Hence |output| ≤ ceiling for every frame, from the first on (the delay starts out silent): the guarantee is exact,
/// not statistical. A final clamp to ±ceiling only absorbs the last ulp of Float rounding (the tests pass without it)
/// and turns a NaN input into silence.
///
/// A change of attack time changes the latency; the envelope is then rebuilt from the stored peaks of the last 2L + 1
/// frames, so the guarantee survives it (the output jumps to the new delay). Real-time: all memory is allocated at
/// init; `process` and the setters allocate nothing, lock nothing and make no system call.
public final class PeakLimiterKernel {
    /// The sample rate, Hz.
    public let sampleRate: Double
    /// The most frames one `process` call may pass.
    public let maximumFrames: Int
    /// The most channels one `process` call may pass (1...8).
    public let channels: Int

    /// Attack time, seconds (0.001...0.03, default 0.012): also the look-ahead.
    public private(set) var attackTime = 0.012
    /// Decay (release) time constant, seconds (0.001...0.06, default 0.024).
    public private(set) var decayTime = 0.024
    /// Gain before limiting, dB (-40...40, default 0); glides over 10 ms.
    public private(set) var preGain = 0.0
    /// The largest output magnitude, linear (default 1, i.e. 0 dBFS; non-positive or NaN values become 1e-6 and 1).
    public var ceiling: Float = 1 {
        didSet {
            if ceiling.isNaN { ceiling = 1 } else if !(ceiling >= 1e-6) { ceiling = 1e-6 }
            rebuild()
        }
    }
    /// The look-ahead delay, frames: round(attackTime · sampleRate).
    public private(set) var latencyFrames: Int
    /// The look-ahead delay, seconds (what the unit reports as kAudioUnitProperty_Latency).
    public var latencySeconds: Double { Double(latencyFrames) / sampleRate }
    /// Output after the input stops, latency excluded: none.
    public var tailSeconds: Double { 0 }
    /// The gain reduction applied to the last frame processed, dB (≥ 0).
    public var gainReduction: Double { gain > 0 ? -20 * log10(gain) : 200 }

    private let maximumLookahead: Int
    private let capacity: Int                         // delay, box and queue rings (power of two > max look-ahead + 1)
    private let delay: UnsafeMutablePointer<Float>    // channels × capacity
    private let box: UnsafeMutablePointer<Int64>      // held gains of the last L + 1 frames, units of 2⁻³²
    private let queueValue: UnsafeMutablePointer<Double>
    private let queuePosition: UnsafeMutablePointer<Int>
    private let historyCapacity: Int                  // power of two > 2·max look-ahead + 1
    private let peaks: UnsafeMutablePointer<Float>    // each frame's peak after the pre-gain, for rebuilds
    private var queueHead = 0, queueCount = 0
    private var boxSum: Int64 = 0
    private var position = 0                          // frames since reset
    private var gain = 1.0
    private var releaseCoefficient = 0.0
    private var pre: SmoothedGain

    /// A limiter for up to `channels` channels (clamped to 1...8) of at most `maximumFrames` frames per call.
    public init(sampleRate: Double, maximumFrames: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.maximumFrames = maximumFrames
        self.channels = min(max(channels, 1), 8)
        maximumLookahead = max(1, Int((0.03 * sampleRate).rounded()))
        var c = 1
        while c < maximumLookahead + 2 { c <<= 1 }
        capacity = c
        var h = 1
        while h < 2 * maximumLookahead + 2 { h <<= 1 }
        historyCapacity = h
        delay = .allocate(capacity: c * self.channels)
        box = .allocate(capacity: c)
        queueValue = .allocate(capacity: c)
        queuePosition = .allocate(capacity: c)
        peaks = .allocate(capacity: h)
        delay.initialize(repeating: 0, count: c * self.channels)
        box.initialize(repeating: 0, count: c)
        queueValue.initialize(repeating: 1, count: c)
        queuePosition.initialize(repeating: 0, count: c)
        peaks.initialize(repeating: 0, count: h)
        pre = SmoothedGain(sampleRate: sampleRate)
        latencyFrames = PeakLimiterKernel.frames(0.012, sampleRate, maximumLookahead)
        setDecay(decayTime)
        reset()
    }

    deinit {
        delay.deallocate()
        box.deallocate()
        queueValue.deallocate()
        queuePosition.deallocate()
        peaks.deallocate()
    }

    private static func frames(_ seconds: Double, _ rate: Double, _ limit: Int) -> Int {
        min(max(1, Int((seconds * rate).rounded())), limit)
    }

    /// Clears the delay line and the envelope (silence out for the next L frames) and lands the pre-gain.
    public func reset() {
        delay.update(repeating: 0, count: capacity * channels)
        peaks.update(repeating: 0, count: historyCapacity)
        position = 0
        gain = 1
        pre.settle()
        rebuild()
    }

    /// Jumps the pre-gain to its target (a unit's first parameters, before any audio).
    public func settle() { pre.settle() }

    /// Attack (look-ahead) time, seconds (clamped to 0.001...0.03). A new latency rebuilds the envelope.
    public func setAttack(_ seconds: Double) {
        attackTime = min(max(seconds, 0.001), 0.03)
        let frames = PeakLimiterKernel.frames(attackTime, sampleRate, maximumLookahead)
        if frames != latencyFrames {
            latencyFrames = frames
            rebuild()
        }
    }
    /// Decay time constant, seconds (clamped to 0.001...0.06): once the look-ahead has passed a peak, the gain's
    /// shortfall from 1 shrinks by 1/e per decay time.
    public func setDecay(_ seconds: Double) {
        decayTime = min(max(seconds, 0.001), 0.06)
        releaseCoefficient = 1 - exp(-1 / (decayTime * sampleRate))
    }
    /// Pre-gain, dB (clamped to -40...40); glides over 10 ms.
    public func setPreGain(_ dB: Double) {
        preGain = min(max(dB, -40), 40)
        pre.setTarget(decibels: preGain)
    }

    /// Recomputes the hold queue and the box for the current look-ahead and ceiling from the stored peaks.
    @_noLocks @_noAllocation
    private func rebuild() {
        let l = latencyFrames, mask = capacity - 1, historyMask = historyCapacity - 1
        let limit = Double(ceiling)
        let unit = 4_294_967_296.0  // 2³²: the box sum of up to 5761 held gains stays far inside Int64
        queueHead = 0
        queueCount = 0
        boxSum = 0
        // h for the frames position−L−1 ... position−1 needs r back to position − 2L − 1.
        var p = position - 2 * l - 1
        while p < position {
            var r = 1.0
            if p >= 0 {
                let peak = Double(peaks[p & historyMask])
                if peak > limit { r = limit / peak }
            }
            let held = push(r, at: p, lookahead: l, mask: mask)
            if p >= position - l - 1 {
                let q = Int64(held * unit)
                box[p & mask] = q
                boxSum += q
            }
            p += 1
        }
        gain = min(gain, Double(boxSum) / (Double(l + 1) * unit))
    }

    /// Adds frame `p`'s need to the sliding-minimum queue and returns the minimum over frames p−L ... p.
    @inline(__always) @_noLocks @_noAllocation
    private func push(_ r: Double, at p: Int, lookahead l: Int, mask: Int) -> Double {
        // Entries no smaller than r can never be the minimum again.
        while queueCount > 0 {
            if queueValue[(queueHead + queueCount - 1) & mask] < r { break }
            queueCount -= 1
        }
        let slot = (queueHead + queueCount) & mask
        queueValue[slot] = r
        queuePosition[slot] = p
        queueCount += 1
        // Drop what fell out of the window (the newest entry always stays).
        while queuePosition[queueHead] < p - l {
            queueHead = (queueHead + 1) & mask
            queueCount -= 1
        }
        return queueValue[queueHead]
    }

    /// Limits `frames` frames (at most `maximumFrames`) of `channels` non-interleaved channels (at most the `channels`
    /// given at init; extra channels are left untouched). `input` may equal `output`.
    @_noLocks @_noAllocation
    public func process(input: UnsafePointer<UnsafeMutablePointer<Float>>, output: UnsafePointer<UnsafeMutablePointer<Float>>,
                        channels count: Int, frames: Int) {
        let n = min(count, channels)
        let l = latencyFrames, mask = capacity - 1, historyMask = historyCapacity - 1
        let limit = ceiling, limitD = Double(ceiling)
        let unit = 4_294_967_296.0  // held gains are summed in units of 2⁻³²
        let scale = 1 / (Double(l + 1) * unit)
        let release = releaseCoefficient
        var g = gain
        for i in 0..<frames {
            let pg = Float(pre.next())
            var peak: Float = 0
            let write = position & mask
            for c in 0..<n {
                let x = input[c][i] * pg
                delay[c * capacity + write] = x
                peak = max(peak, abs(x))
            }
            peaks[position & historyMask] = peak
            let r = Double(peak) > limitD ? limitD / Double(peak) : 1
            let held = push(r, at: position, lookahead: l, mask: mask)
            let q = Int64(held * unit)
            boxSum += q - box[(position - l - 1) & mask]
            box[write] = q
            let s = Double(boxSum) * scale
            if s < g {
                g = s
            } else if s > g {
                g += (s - g) * release
                if s - g < 1e-12 { g = s }  // the one-pole never lands
            }
            let read = (position - l) & mask
            for c in 0..<n {
                var y = Float(Double(delay[c * capacity + read]) * g)
                // Only Float rounding (an ulp) or a non-finite input can get here; NaN leaves as 0.
                if !(abs(y) <= limit) { y = y > 0 ? limit : (y < 0 ? -limit : 0) }
                output[c][i] = y
            }
            position += 1
        }
        gain = g
    }
}
