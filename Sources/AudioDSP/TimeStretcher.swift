#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// round(x) for x >= 0 with halves up, without FloatingPointRoundingRule (its metadata is not real-time safe).
@inline(__always) @_noLocks @_noAllocation
func roundHalfUp(_ x: Double) -> Int {
    let w = Int(x)
    return x - Double(w) >= 0.5 ? w + 1 : w
}

/// How `TimeStretcher` cuts and matches frames.
public struct TimeStretcherSettings: Sendable, Equatable {
    /// Length of one analysis/synthesis frame (a Hann window), in seconds.
    public var frameDuration: Double
    /// How many frames overlap at any output instant (the hop is frameDuration / overlap); at least 2.
    public var overlap: Int
    /// How far, each way, the similarity search may move a frame from its nominal input position, in seconds.
    public var tolerance: Double
    /// Sample rate of the decimated signal the coarse search runs on (the fine search is at full rate).
    public var searchRate: Double
    /// How much the search prefers positions near the nominal one: the score (a squared normalised
    /// correlation, at most 1) loses this much at the edge of the tolerance, quadratically.
    public var proximityWeight: Double

    /// Settings with every field given (see each field).
    public init(frameDuration: Double, overlap: Int, tolerance: Double, searchRate: Double, proximityWeight: Double) {
        self.frameDuration = frameDuration
        self.overlap = overlap
        self.tolerance = tolerance
        self.searchRate = searchRate
        self.proximityWeight = proximityWeight
    }

    /// For speech (AUiPodTime): short frames, dense overlap, a search of ±8 ms (periods down to 62 Hz) that
    /// keeps close to the time map. Chosen by scripts/timepitch-quality.sh (round-trip STOI/PESQ at 2x
    /// 0.964/2.61 on its espeak-ng speech, where 25 ms frames at overlap 2 reach 0.948/2.10).
    public static let standard = TimeStretcherSettings(frameDuration: 0.012, overlap: 4, tolerance: 0.008, searchRate: 5500, proximityWeight: 1)
    /// For music and pitch shifting down (NewTimePitch): longer frames and a search wide enough for periods
    /// down to 33 Hz.
    public static let music = TimeStretcherSettings(frameDuration: 0.04, overlap: 2, tolerance: 0.015, searchRate: 5500, proximityWeight: 1)
}

/// Streaming time stretcher: WSOLA (waveform-similarity overlap-add) for planar Float32, channels locked.
///
/// The output is a sum of Hann-windowed frames of the input spaced `hop` apart. Frame k is centred at
/// output time k·hop and nominally at input time a_k = k·hop·rate; the frame actually taken starts within
/// ±tolerance of that position, where its waveform best continues the frame before it (the largest
/// normalised cross-correlation with the previous frame's natural continuation, the input that follows it
/// by one hop, over one frame of the channels' sum), less a penalty for straying from a_k (so the output
/// keeps to the time map where matches are alike: better intelligibility than pure similarity). The search
/// runs on a box-decimated signal, then at full rate around the best coarse match, then to a fraction of
/// a sample (the frame is then read by Hermite interpolation), so tones keep their phase across frames.
/// Where the natural continuation is the nominal position itself it is taken as is, so rate 1 reproduces
/// the input exactly (to Float rounding).
///
/// Timing: output time t corresponds to input time t·rate (for a constant rate; a rate change re-anchors the
/// map at the next frame, so the frames stay continuous and nothing clicks). The stream starts on zeros
/// before input frame 0, and a whole stream of N input frames at rate r gives exactly round(N / r) output
/// frames. The input runs `lookaheadFrames(rate:)` ahead of the output.
///
/// `process` is real-time safe: it touches only memory allocated in `init`, takes no locks and makes no
/// system calls. Input the frames will not need (rates above 1 skip input) is consumed without being kept.
public final class TimeStretcher {
    public let channels: Int
    public let sampleRate: Double
    public let settings: TimeStretcherSettings
    /// The rate range `rate` is clamped to; memory is sized for `maximumRate`.
    public let minimumRate: Double
    public let maximumRate: Double

    /// Input time per output time, read at each frame. Safe to set between `process` calls at any time.
    public var rate: Double = 1

    let frameLength: Int     // L
    let hop: Int             // L / overlap
    let tolerance: Int       // Δ, input frames each way
    let decimation: Int      // D
    let compareLength: Int   // frames correlated, a multiple of D
    /// Virtual time: input and output streams are preceded by L/2 + lead frames (zeros in, dropped out), so
    /// that frame k starts at virtual output k·hop and at virtual input a_k.
    let prime: Int
    /// Frames start this far (whole hops) before the first output frame's centre, so that every output
    /// frame handed out has all `overlap` frames summed into it (a_k and k·hop both count from here).
    let lead: Int
    let capacity: Int

    private let window: UnsafeMutablePointer<Float>
    private let history: UnsafeMutablePointer<Float>       // channels × capacity
    private let monoStorage: UnsafeMutablePointer<Float>?   // channels' sum when channels > 1
    private let mono: UnsafeMutablePointer<Float>
    private let decimated: UnsafeMutablePointer<Float>     // capacity / D
    private let decimatedReference: UnsafeMutablePointer<Float>
    /// A frame read at a fractional position, and the search reference read likewise.
    private let segment: UnsafeMutablePointer<Float>
    private let referenceSegment: UnsafeMutablePointer<Float>
    private let accumulator: UnsafeMutablePointer<Float>   // channels × L, a ring of hops
    private let inputPointers: UnsafeMutablePointer<UnsafePointer<Float>>

    // Input history holds virtual input frames base ..< base + filled; base is a multiple of D.
    private var base = 0
    private var filled = 0
    private var accepted = 0
    private var endOfInputSeen = false
    // Frames.
    private var frameIndex = 0
    /// Virtual input start of the frame last added (fractional: frames are placed to a fraction of a
    /// sample); negative before the first frame.
    private var previousStart = -1.0
    private var appliedRate = 1.0
    private var anchorIn = 0.0
    private var anchorOut = 0
    // Output: the ring slot where the frame last added starts; its first hop is ready, `readyRemaining` left.
    private var ringHead = 0
    private var readyRemaining = 0
    private var emitted = 0   // virtual output position of the next frame to hand out

    /// All allocation happens here. `maximumRate` bounds the input span kept in memory.
    public init(sampleRate: Double, channels: Int, settings: TimeStretcherSettings = .standard,
                minimumRate: Double = 1.0 / 32, maximumRate: Double = 32) {
        precondition(channels >= 1, "TimeStretcher needs at least one channel")
        precondition(sampleRate > 0 && sampleRate.isFinite, "TimeStretcher needs a positive sample rate")
        precondition(settings.overlap >= 2 && minimumRate > 0 && maximumRate >= minimumRate)
        self.channels = channels
        self.sampleRate = sampleRate
        self.settings = settings
        self.minimumRate = minimumRate
        self.maximumRate = maximumRate
        let d = max(1, Int(sampleRate / settings.searchRate))
        decimation = d
        let o = settings.overlap
        hop = max(d, Int(settings.frameDuration * sampleRate / Double(o) + 0.5))
        frameLength = hop * o
        compareLength = (frameLength / d) * d
        tolerance = max(d, Int(settings.tolerance * sampleRate / Double(d) + 0.5) * d)
        lead = ((o + 1) / 2 - 1) * hop
        prime = frameLength / 2 + lead
        // The span one frame needs: the search range, the reference (up to (rate - 1)·hop + Δ away) and a frame.
        let span = Int((maximumRate + 1) * Double(hop)) + 3 * tolerance + frameLength + 2 * d
        capacity = ((span + max(4096, 4 * frameLength)) / d + 1) * d

        window = .allocate(capacity: frameLength)
        // Periodic Hann windows at hop L/o sum to o/2: scaled by 2/o they sum to 1.
        for i in 0..<frameLength {
            window[i] = Float((1 - cos(2 * Double.pi * Double(i) / Double(frameLength))) / Double(o))
        }
        history = .allocate(capacity: channels * capacity)
        history.initialize(repeating: 0, count: channels * capacity)
        if channels > 1 {
            let m = UnsafeMutablePointer<Float>.allocate(capacity: capacity)
            m.initialize(repeating: 0, count: capacity)
            monoStorage = m
            mono = m
        } else {
            monoStorage = nil
            mono = history
        }
        decimated = .allocate(capacity: capacity / d + 1)
        decimated.initialize(repeating: 0, count: capacity / d + 1)
        decimatedReference = .allocate(capacity: compareLength / d + 1)
        decimatedReference.initialize(repeating: 0, count: compareLength / d + 1)
        segment = .allocate(capacity: frameLength)
        segment.initialize(repeating: 0, count: frameLength)
        referenceSegment = .allocate(capacity: compareLength)
        referenceSegment.initialize(repeating: 0, count: compareLength)
        accumulator = .allocate(capacity: channels * frameLength)
        accumulator.initialize(repeating: 0, count: channels * frameLength)
        inputPointers = .allocate(capacity: channels)
        reset()
    }

    deinit {
        window.deallocate()
        history.deallocate()
        monoStorage?.deallocate()
        decimated.deallocate()
        decimatedReference.deallocate()
        segment.deallocate()
        referenceSegment.deallocate()
        accumulator.deallocate()
        inputPointers.deallocate()
    }

    /// Frames the input runs ahead of the output at `rate` (the look-ahead of the search and the window).
    public func lookaheadFrames(rate: Double) -> Int {
        Int(Double(frameLength / 2) * (1 + rate)) + tolerance
    }

    /// The output length of a whole stream of `frames` input frames at a constant `rate`: round(frames / rate).
    public static func outputFrames(forInput frames: Int, rate: Double) -> Int {
        roundHalfUp(Double(frames) / rate)
    }


    /// True once endOfInput was seen and every output frame has been handed out.
    public var isFinished: Bool {
        @_noLocks @_noAllocation get {
            if !endOfInputSeen { return false }
            return emitted >= outputLimit()
        }
    }

    /// Back to the initial state (real-time safe). Keeps `rate`.
    @_noLocks @_noAllocation
    public func reset() {
        for i in 0..<(channels * frameLength) { accumulator[i] = 0 }
        base = 0
        filled = 0
        accepted = 0
        endOfInputSeen = false
        frameIndex = 0
        previousStart = -1
        appliedRate = clampedRate()
        anchorIn = Double(lead)
        anchorOut = lead
        ringHead = 0
        readyRemaining = 0
        emitted = 0
        // The L/2 zeros before the stream.
        stageZeros(prime)
    }

    @inline(__always) @_noLocks @_noAllocation
    private func clampedRate() -> Double {
        let r = rate
        if !(r >= minimumRate) { return minimumRate }  // also NaN
        return r > maximumRate ? maximumRate : r
    }

    /// Re-anchors the time map at the next frame when `rate` changed (a_k itself does not move).
    @inline(__always) @_noLocks @_noAllocation
    private func applyRate() {
        let r = clampedRate()
        guard r != appliedRate else { return }
        // Before the first frame the map stays anchored at time 0 (input 0 is output 0 at any rate).
        if frameIndex > 0 {
            anchorIn = nominalPosition(frameIndex)
            anchorOut = frameIndex * hop
        }
        appliedRate = r
    }

    /// a_k: the virtual input start of frame k (= the actual input time of its centre + lead).
    @inline(__always) @_noLocks @_noAllocation
    private func nominalPosition(_ k: Int) -> Double {
        anchorIn + Double(k * hop - anchorOut) * appliedRate
    }

    /// Virtual output position where the stream ends, once endOfInput is seen.
    @inline(__always) @_noLocks @_noAllocation
    private func outputLimit() -> Int {
        let t = Double(anchorOut - lead) + (Double(accepted) - (anchorIn - Double(lead))) / appliedRate
        return prime + max(roundHalfUp(t), 0)
    }

    /// The earliest virtual input frame the next frame can use, rounded down to a multiple of D (the
    /// interpolator reads one frame before a fractional position).
    @inline(__always) @_noLocks @_noAllocation
    private func keepPosition() -> Int {
        var lowest = nominalPosition(frameIndex) - Double(tolerance)
        if previousStart >= 0 { lowest = min(lowest, previousStart + Double(hop)) }
        let keep = max(Int(max(lowest, 0)) - 1, 0)
        return keep - keep % decimation
    }

    /// The virtual input position frame k needs the input to reach (exclusive), given the next frame index.
    @inline(__always) @_noLocks @_noAllocation
    private func inputNeeded(forFrame k: Int) -> Int {
        let a = nominalPosition(k)
        var reference = a
        if k == frameIndex {
            if previousStart >= 0 { reference = previousStart + Double(hop) }
        } else {
            reference = nominalPosition(k - 1) + Double(tolerance + hop)
        }
        // The frame or reference, plus the interpolator's two frames after it.
        return Int(max(a + Double(tolerance), reference)) + frameLength + 3
    }

    /// Input frames still to pass before `outputFrames` more output frames can be handed out (an upper
    /// bound: the search may settle earlier). 0 after endOfInput. Applies a pending rate change. Real-time safe.
    @_noLocks @_noAllocation
    public func inputFramesNeeded(forOutputFrames outputFrames: Int) -> Int {
        guard outputFrames > 0, !endOfInputSeen else { return 0 }
        applyRate()
        // Frame k makes virtual output [k·hop, (k+1)·hop) ready; frames before frameIndex are done.
        let lastFrame = (emitted + outputFrames - 1) / hop
        guard lastFrame >= frameIndex else { return 0 }
        return max(0, inputNeeded(forFrame: lastFrame) - (base + filled))
    }

    /// Streaming time stretch of planar Float32. Hands out as much output as fits and consumes input as far
    /// as the history allows (all of it unless the output fills first); input after endOfInput is ignored.
    @_noLocks @_noAllocation
    public func process(input: UnsafePointer<UnsafePointer<Float>>?, inputFrames: Int, endOfInput: Bool,
                        output: UnsafePointer<UnsafeMutablePointer<Float>>, outputCapacity: Int)
        -> (inputConsumed: Int, outputProduced: Int) {
        var available = max(inputFrames, 0)
        if input == nil { available = 0 }
        if endOfInputSeen { available = 0 }
        let capacity = max(outputCapacity, 0)
        var consumed = 0
        var written = 0
        while true {
            if readyRemaining > 0, written < capacity {
                let n = emit(output, at: written, count: capacity - written)
                if n > 0 { written += n; continue }
            }
            if readyRemaining == 0, frameComputable() {
                computeFrame()
                continue
            }
            if consumed < available, let input {
                let n = stage(input, offset: consumed, count: available - consumed)
                if n > 0 { consumed += n; continue }
            }
            if endOfInput, consumed == available, !endOfInputSeen {
                endOfInputSeen = true
                continue
            }
            break
        }
        return (consumed, written)
    }

    /// Hands out ready output (or skips it while in the primed region); returns the frames written.
    @inline(__always) @_noLocks @_noAllocation
    private func emit(_ output: UnsafePointer<UnsafeMutablePointer<Float>>, at offset: Int, count: Int) -> Int {
        var written = 0
        while readyRemaining > 0 {
            var n = readyRemaining
            if emitted < prime {
                n = min(n, prime - emitted)
                emitted += n
                readyRemaining -= n
                continue
            }
            if endOfInputSeen { n = min(n, outputLimit() - emitted) }
            n = min(n, count - written)
            guard n > 0 else { break }
            let start = ringHead + hop - readyRemaining
            for c in 0..<channels {
                let src = accumulator + c * frameLength + start, dst = output[c] + offset + written
                for i in 0..<n { dst[i] = src[i] }
            }
            written += n
            emitted += n
            readyRemaining -= n
        }
        if readyRemaining == 0 {
            // The hop is handed out: clear its slot and move the ring on.
            for c in 0..<channels {
                let slot = accumulator + c * frameLength + ringHead
                for i in 0..<hop { slot[i] = 0 }
            }
            ringHead += hop
            if ringHead == frameLength { ringHead = 0 }
        }
        return written
    }

    /// Whether frame `frameIndex` can be computed now (after endOfInput: whether the stream still needs it).
    @inline(__always) @_noLocks @_noAllocation
    private func frameComputable() -> Bool {
        applyRate()
        if endOfInputSeen { return frameIndex * hop < outputLimit() }
        return base + filled >= inputNeeded(forFrame: frameIndex)
    }

    /// Chooses frame `frameIndex`'s input position and adds it, windowed, into the output ring.
    @_noLocks @_noAllocation
    private func computeFrame() {
        let need = inputNeeded(forFrame: frameIndex)
        if base + filled < need {
            // Past the end of the input the signal is zero.
            compact(to: keepPosition())
            stageZeros(need - (base + filled))
        }
        let a = nominalPosition(frameIndex)
        let lo = max(a - Double(tolerance), 1), hi = a + Double(tolerance)
        var x = a
        if previousStart >= 0 {
            let natural = previousStart + Double(hop)
            if abs(natural - a) < 0.5 {
                x = natural
            } else {
                x = search(reference: natural, nominal: a, lo: lo, hi: hi)
            }
        }
        // The ring slot after the last hop handed out was cleared; add the whole frame from ringHead on.
        let whole = Int(x), fraction = Float(x - Double(whole))
        let first = frameLength - ringHead
        for c in 0..<channels {
            var src = UnsafePointer(history + c * capacity + (whole - base))
            if fraction != 0 {
                TimeStretchKernels.interpolate(src, fraction, into: segment, frameLength)
                src = UnsafePointer(segment)
            }
            let ring = accumulator + c * frameLength
            TimeStretchKernels.addWindowed(src, window, into: ring + ringHead, first)
            if ringHead > 0 {
                TimeStretchKernels.addWindowed(src + first, window + first, into: ring, ringHead)
            }
        }
        previousStart = x
        frameIndex += 1
        readyRemaining = hop
    }

    /// The start in lo...hi whose frame best matches the one at `reference` (normalised cross-correlation
    /// of the channels' sum): coarse on the decimated signal, then at full rate around the coarse best, then
    /// to a fraction of a sample by a parabola through the best three scores.
    @_noLocks @_noAllocation
    private func search(reference: Double, nominal: Double, lo: Double, hi: Double) -> Double {
        let d = decimation, m = compareLength / d
        let whole = Int(reference), fraction = Float(reference - Double(whole))
        var ref = UnsafePointer(mono + (whole - base))
        if fraction != 0 {
            TimeStretchKernels.interpolate(ref, fraction, into: referenceSegment, compareLength)
            ref = UnsafePointer(referenceSegment)
        }
        var refEnergy: Float = 0
        for i in 0..<compareLength { refEnergy += ref[i] * ref[i] }
        let epsilon = refEnergy * 1e-6 + 1e-20
        // Scores are squared normalised correlations (signed) less a penalty growing with the square of the
        // distance from the nominal position, so the frames keep close to the time map when matches are alike.
        let weight = Float(settings.proximityWeight) / Float(tolerance * tolerance)
        let inverseRefEnergy = 1 / (refEnergy + 1e-20)
        let first = Int(lo) + (Double(Int(lo)) < lo ? 1 : 0), last = Int(hi)
        var centre = first
        if d > 1 {
            TimeStretchKernels.decimate(ref, factor: d, into: decimatedReference, m)
            var decimatedEnergy: Float = 0
            for i in 0..<m { decimatedEnergy += decimatedReference[i] * decimatedReference[i] }
            let inverseDecimatedEnergy = 1 / (decimatedEnergy + 1e-20)
            let jlo = (first + d - 1) / d, jhi = last / d
            var best: Float = -Float.infinity
            centre = jlo * d
            var j = jlo
            while j <= jhi {
                let (c, e) = TimeStretchKernels.correlation(decimated + (j - base / d), decimatedReference, m)
                let distance = Float(Double(j * d) - nominal)
                let score = c * abs(c) / (e + epsilon * Float(d)) * inverseDecimatedEnergy - weight * distance * distance
                if score > best { best = score; centre = j * d }
                j += 1
            }
        }
        var x = max(first, centre - d + 1)
        let end = d > 1 ? min(last, centre + d - 1) : last
        var best: Float = -Float.infinity
        var bestX = x
        while x <= end {
            let score = score(x, ref, epsilon, inverseRefEnergy, weight, nominal)
            if score > best { best = score; bestX = x }
            x += 1
        }
        // Sub-sample position from the neighbours' scores (they exist in the history even if outside lo...hi).
        let below = score(bestX - 1, ref, epsilon, inverseRefEnergy, weight, nominal)
        let above = score(bestX + 1, ref, epsilon, inverseRefEnergy, weight, nominal)
        let curvature = below - 2 * best + above
        var offset: Float = 0
        if curvature < 0 {
            offset = 0.5 * (below - above) / curvature
            offset = min(max(offset, -0.5), 0.5)
        }
        return min(max(Double(bestX) + Double(offset), lo), hi)
    }

    /// The normalised cross-correlation of the channels' sum at `x` with `ref`, squared with its sign (no
    /// square root on this path), less the distance penalty.
    @inline(__always) @_noLocks @_noAllocation
    private func score(_ x: Int, _ ref: UnsafePointer<Float>, _ epsilon: Float, _ inverseRefEnergy: Float,
                       _ weight: Float, _ nominal: Double) -> Float {
        let (c, e) = TimeStretchKernels.correlation(mono + (x - base), ref, compareLength)
        let distance = Float(Double(x) - nominal)
        return c * abs(c) / (e + epsilon) * inverseRefEnergy - weight * distance * distance
    }

    /// Drops history before `keep` (a multiple of D), keeping whole decimation groups.
    @_noLocks @_noAllocation
    private func compact(to keep: Int) {
        let d = decimation
        var shift = min(keep - base, filled)
        shift -= shift % d
        guard shift > 0 else { return }
        let remaining = filled - shift
        for c in 0..<channels {
            let h = history + c * capacity
            for i in 0..<remaining { h[i] = h[i + shift] }
        }
        if monoStorage != nil {
            for i in 0..<remaining { mono[i] = mono[i + shift] }
        }
        let groups = filled / d, dropped = shift / d
        for j in 0..<(groups - dropped) { decimated[j] = decimated[j + dropped] }
        base += shift
        filled = remaining
    }

    /// Takes input frames into the history (dropping those no frame will need); returns the frames consumed.
    @_noLocks @_noAllocation
    private func stage(_ input: UnsafePointer<UnsafePointer<Float>>, offset: Int, count: Int) -> Int {
        let keep = keepPosition()
        let write = base + filled
        var skipped = 0
        if write < keep {
            // Nothing held is needed any more: drop input up to `keep` without storing it.
            skipped = min(count, keep - write)
            let next = write + skipped
            base = next - next % decimation
            filled = next - base
            for c in 0..<channels {
                let h = history + c * capacity
                for i in 0..<filled { h[i] = 0 }
            }
            if monoStorage != nil { for i in 0..<filled { mono[i] = 0 } }
            accepted += skipped
        }
        let remaining = count - skipped
        if remaining == 0 { return skipped }
        if capacity - filled < remaining { compact(to: keep) }
        let n = min(remaining, capacity - filled)
        guard n > 0 else { return skipped }
        for c in 0..<channels {
            let src = input[c] + offset + skipped, dst = history + c * capacity + filled
            for i in 0..<n { dst[i] = src[i] }
        }
        finishStaging(n)
        accepted += n
        return skipped + n
    }

    /// Appends `count` zero frames to the history (the primed start, or the padding after the end).
    @_noLocks @_noAllocation
    private func stageZeros(_ count: Int) {
        let n = min(count, capacity - filled)
        for c in 0..<channels {
            let dst = history + c * capacity + filled
            for i in 0..<n { dst[i] = 0 }
        }
        finishStaging(n)
    }

    /// Updates the channels' sum and the decimated signal for `n` frames just appended to the history.
    @inline(__always) @_noLocks @_noAllocation
    private func finishStaging(_ n: Int) {
        if monoStorage != nil {
            for i in filled..<(filled + n) {
                var s: Float = 0
                for c in 0..<channels { s += history[c * capacity + i] }
                mono[i] = s
            }
        }
        let d = decimation
        let oldGroups = filled / d
        filled += n
        let groups = filled / d
        if groups > oldGroups {
            TimeStretchKernels.decimate(mono + oldGroups * d, factor: d, into: decimated + oldGroups, groups - oldGroups)
        }
    }
}
