#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The reverberation engine shared by Reverb2Kernel and MatrixReverbKernel: a feedback delay network after Jot.
///
/// `lineCount` (8 or 16) integer-length delay lines, each closed through a first-order absorption shelf and a
/// Hadamard feedback matrix (orthogonal, so the loop itself is lossless and all loss is the shelves'). Each
/// shelf's gain is g = 10^(-3·length/(RT60·rate)) at 0 Hz and at Nyquist: every recirculation path then loses
/// 60 dB per RT60 whatever lines it runs through, so every mode decays at the requested rate. The shelf's
/// transition sits at 2.5 kHz (bilinear, first order), so "at Nyquist" governs the whole top of the spectrum
/// instead of only its last octave as Jot's one-pole would.
///
/// Lengths are distinct primes (so mutually prime), spread geometrically over [minimum, maximum] delay by a
/// seeded draw. A length change is made while the wet output is ducked for a few milliseconds, so moving the
/// delay parameters never clicks. Input channel c enters the lines through ±1 pattern c, output channel c leaves
/// through a different ±1 pattern c; the patterns are orthogonal, so the channels' tails are decorrelated. With
/// modulation on, each output rotates slowly between two orthogonal tap patterns (energy-preserving, no
/// interpolation, no pitch change). Inputs can be pre-delayed.
///
/// Values below 1e-24 in the loops are flushed to zero, so a tail never turns denormal and ends in exact silence
/// (8-9 x RT60 after a full-scale input). All memory is allocated at init and freed by the deinit; the type is
/// noncopyable and holds no references, so the render path does no reference counting.
struct FeedbackDelayNetwork: ~Copyable {
    /// Delay lines (a power of two).
    let lineCount: Int
    /// Channels the network takes and gives (1...8).
    let channels: Int
    /// Frames per second.
    let sampleRate: Double
    /// The longest delay time a line can be set to, in seconds.
    let maximumDelay: Double
    /// The longest pre-delay, in seconds.
    let maximumPreDelay: Double

    // The parameters as set (after clamping).
    private(set) var minimumDelayTime = 0.008
    private(set) var maximumDelayTime = 0.050
    private(set) var seed = 1
    private(set) var decayAt0Hz = 1.0
    private(set) var decayAtNyquist = 0.5
    private(set) var preDelayTime = 0.0
    private(set) var modulationRate = 0.0
    private(set) var modulationDepth = 0.0

    private let lineCapacity: Int
    private let storage: UnsafeMutablePointer<Float>
    private let lengths: UnsafeMutablePointer<Int>
    private let positions: UnsafeMutablePointer<Int>
    private let pendingLengths: UnsafeMutablePointer<Int>
    private let fractions: UnsafeMutablePointer<Double>
    // Absorption shelves (transposed direct form II): y = b0·x + s, s = b1·x - a1·y. The Hadamard matrix's
    // 1/sqrt(lineCount) is folded into b0 and b1.
    private let b0: UnsafeMutablePointer<Float>
    private let b1: UnsafeMutablePointer<Float>
    private let pendingB0: UnsafeMutablePointer<Float>
    private let pendingB1: UnsafeMutablePointer<Float>
    private let shelfState: UnsafeMutablePointer<Float>
    private let shelfA1: Float
    private let shelfWarp: Double
    private let values: UnsafeMutablePointer<Float>
    private let inputs: UnsafeMutablePointer<Float>
    private let inputTaps: UnsafeMutablePointer<Float>
    private let outputTaps: UnsafeMutablePointer<Float>
    private let alternateTaps: UnsafeMutablePointer<Float>
    private let canModulate: Bool
    private let preCapacity: Int
    private let preBuffer: UnsafeMutablePointer<Float>
    private var preWrite = 0
    private var preLength = 0
    private var lengthsPending = false
    private var duck: LinearRamp
    private var lfoCos: Float = 1
    private var lfoSin: Float = 0
    private var lfoStepCos: Float = 1
    private var lfoStepSin: Float = 0
    private var modulationAngle: Float = 0

    /// A network of `lineCount` lines (8 or 16) for `channels` channels (1...8), with lines long enough for
    /// `maximumDelay` seconds and a pre-delay of up to `maximumPreDelay` seconds. Starts with the defaults of
    /// AUReverb2 (delays 8-50 ms, seed 1, RT60 1 s at 0 Hz and 0.5 s at Nyquist) and no pre-delay.
    init(sampleRate: Double, channels: Int, lineCount: Int, maximumDelay: Double, maximumPreDelay: Double = 0) {
        precondition(lineCount == 8 || lineCount == 16, "8 or 16 lines")
        precondition(sampleRate > 0, "a positive sample rate")
        self.sampleRate = sampleRate
        self.channels = Swift.min(Swift.max(channels, 1), 8)
        self.lineCount = lineCount
        self.maximumDelay = maximumDelay
        self.maximumPreDelay = maximumPreDelay
        // Room above the longest delay for the prime search (prime gaps below 10^6 are under 120).
        lineCapacity = Int((maximumDelay * sampleRate).rounded(.up)) + 64 + 16 * lineCount
        storage = .allocate(capacity: lineCapacity * lineCount)
        storage.initialize(repeating: 0, count: lineCapacity * lineCount)
        func floats() -> UnsafeMutablePointer<Float> {
            let p = UnsafeMutablePointer<Float>.allocate(capacity: lineCount)
            p.initialize(repeating: 0, count: lineCount)
            return p
        }
        func ints() -> UnsafeMutablePointer<Int> {
            let p = UnsafeMutablePointer<Int>.allocate(capacity: lineCount)
            p.initialize(repeating: 0, count: lineCount)
            return p
        }
        lengths = ints()
        positions = ints()
        pendingLengths = ints()
        fractions = .allocate(capacity: lineCount)
        fractions.initialize(repeating: 0, count: lineCount)
        b0 = floats()
        b1 = floats()
        pendingB0 = floats()
        pendingB1 = floats()
        shelfState = floats()
        values = floats()
        inputs = .allocate(capacity: 8)
        inputs.initialize(repeating: 0, count: 8)

        // The shelf's transition frequency, prewarped; kept below Nyquist at low sample rates.
        let transition = Swift.min(2500, sampleRate / 8)
        shelfWarp = tan(Double.pi * transition / sampleRate)
        shelfA1 = Float((shelfWarp - 1) / (shelfWarp + 1))

        // Tap patterns: rows of the Sylvester-Hadamard matrix (mutually orthogonal) times a fixed sign scramble,
        // so that no tap vector lines up with the feedback matrix's own rows.
        let count = self.channels * lineCount
        inputTaps = .allocate(capacity: count)
        outputTaps = .allocate(capacity: count)
        alternateTaps = .allocate(capacity: count)
        canModulate = lineCount >= 2 * self.channels
        let scale = 1 / Double(lineCount).squareRoot()
        let inputSigns: UInt32 = 0x6A39, outputSigns: UInt32 = 0xB4E2
        func entry(row: Int, column: Int, signs: UInt32) -> Float {
            let hadamard = (row & column).nonzeroBitCount & 1 == 0 ? 1.0 : -1.0
            let scramble = (signs >> UInt32(column)) & 1 == 0 ? 1.0 : -1.0
            return Float(hadamard * scramble * scale)
        }
        for c in 0..<self.channels {
            for i in 0..<lineCount {
                inputTaps[c * lineCount + i] = entry(row: c, column: i, signs: inputSigns)
                outputTaps[c * lineCount + i] = entry(row: c, column: i, signs: outputSigns)
                alternateTaps[c * lineCount + i] = canModulate ? entry(row: c + lineCount / 2, column: i, signs: outputSigns) : 0
            }
        }

        preCapacity = maximumPreDelay > 0 ? Int((maximumPreDelay * sampleRate).rounded(.up)) + 2 : 0
        preBuffer = .allocate(capacity: Swift.max(1, preCapacity * self.channels))
        preBuffer.initialize(repeating: 0, count: Swift.max(1, preCapacity * self.channels))

        duck = LinearRamp(value: 1, length: Int(0.005 * sampleRate))
        computeLengths(into: lengths)
        computeAbsorption(lengths: lengths, b0: b0, b1: b1)
        pendingLengths.update(from: lengths, count: lineCount)
        pendingB0.update(from: b0, count: lineCount)
        pendingB1.update(from: b1, count: lineCount)
    }

    deinit {
        storage.deallocate()
        lengths.deallocate()
        positions.deallocate()
        pendingLengths.deallocate()
        fractions.deallocate()
        b0.deallocate()
        b1.deallocate()
        pendingB0.deallocate()
        pendingB1.deallocate()
        shelfState.deallocate()
        values.deallocate()
        inputs.deallocate()
        inputTaps.deallocate()
        outputTaps.deallocate()
        alternateTaps.deallocate()
        preBuffer.deallocate()
    }

    /// The delay lines' current lengths in samples (tests and diagnostics).
    func lineLengths() -> [Int] { Array(UnsafeBufferPointer(start: lengths, count: lineCount)) }

    /// Spreads the lines over [minimum, maximum] seconds (either order; clamped to 0.0001...maximumDelay) with
    /// the pattern `seed` picks. Takes effect, ducked, within the next few milliseconds of audio.
    mutating func setDelays(minimum: Double, maximum: Double, seed: Int) {
        let lo = Self.clamp(Swift.min(minimum, maximum), 0.0001, maximumDelay)
        let hi = Self.clamp(Swift.max(minimum, maximum), 0.0001, maximumDelay)
        if lo == minimumDelayTime && hi == maximumDelayTime && seed == self.seed { return }
        minimumDelayTime = lo
        maximumDelayTime = hi
        self.seed = seed
        computeLengths(into: pendingLengths)
        computeAbsorption(lengths: pendingLengths, b0: pendingB0, b1: pendingB1)
        var same = true
        for i in 0..<lineCount where pendingLengths[i] != lengths[i] { same = false }
        lengthsPending = !same
    }

    /// Sets the RT60 at 0 Hz and at Nyquist (seconds, clamped to 0.001...100); takes effect at once.
    mutating func setDecay(at0Hz: Double, atNyquist: Double) {
        let low = Self.clamp(at0Hz, 0.001, 100), high = Self.clamp(atNyquist, 0.001, 100)
        if low == decayAt0Hz && high == decayAtNyquist { return }
        decayAt0Hz = low
        decayAtNyquist = high
        computeAbsorption(lengths: lengths, b0: b0, b1: b1)
        computeAbsorption(lengths: pendingLengths, b0: pendingB0, b1: pendingB1)
    }

    /// Delays the input by `seconds` (clamped to 0...maximumPreDelay) before it enters the lines.
    mutating func setPreDelay(_ seconds: Double) {
        guard preCapacity > 0 else { return }
        let clamped = Self.clamp(seconds, 0, maximumPreDelay)
        if clamped == preDelayTime { return }
        preDelayTime = clamped
        preLength = Swift.min(Int((clamped * sampleRate).rounded()), preCapacity - 1)
    }

    /// Rotates each output between two orthogonal tap patterns by up to `depth`·45° at `rate` Hz
    /// (depth 0 turns it off; needs at least twice as many lines as channels).
    mutating func setModulation(rate: Double, depth: Double) {
        let r = Self.clamp(rate, 0, sampleRate / 4), d = Self.clamp(depth, 0, 1)
        if r == modulationRate && d == modulationDepth { return }
        modulationRate = r
        modulationDepth = d
        let step = 2 * Double.pi * r / sampleRate
        lfoStepCos = Float(cos(step))
        lfoStepSin = Float(sin(step))
        modulationAngle = canModulate ? Float(d * Double.pi / 4) : 0
    }

    /// Seconds until an impulse has died away by 60 dB at every frequency.
    var tailTime: Double { Swift.max(decayAt0Hz, decayAtNyquist) + maximumDelayTime + preDelayTime }

    /// Silences the network and applies any pending length change at once.
    mutating func reset() {
        storage.update(repeating: 0, count: lineCapacity * lineCount)
        shelfState.update(repeating: 0, count: lineCount)
        positions.update(repeating: 0, count: lineCount)
        preBuffer.update(repeating: 0, count: Swift.max(1, preCapacity * channels))
        preWrite = 0
        if lengthsPending { applyPendingLengths() }
        duck.set(1)
        duck.settle()
        lfoCos = 1
        lfoSin = 0
    }

    /// Renders `frames` of wet signal from `inputChannels` inputs into `outputChannels` outputs (each at most
    /// `channels`). The output buffers must not be the input buffers.
    @_noLocks @_noAllocation
    mutating func render(input: UnsafePointer<UnsafeMutablePointer<Float>>, inputChannels: Int,
                         output: UnsafePointer<UnsafeMutablePointer<Float>>, outputChannels: Int, frames: Int) {
        let ins = inputChannels < channels ? inputChannels : channels
        let outs = outputChannels < channels ? outputChannels : channels
        var start = 0
        while start < frames {
            // Pending lengths and the LFO's renormalisation are looked at every 32 frames.
            let count = frames - start < 32 ? frames - start : 32
            beginChunk()
            renderChunk(input: input, inputChannels: ins, output: output, outputChannels: outs, start: start, count: count)
            start += count
        }
    }

    @_noLocks @_noAllocation
    private mutating func beginChunk() {
        if lengthsPending {
            let settled = !duck.isMoving, silent = duck.value == 0
            if settled && silent {
                applyPendingLengths()
                duck.set(1)
            } else {
                duck.set(0)
            }
        } else if duck.target != 1 {
            duck.set(1)
        }
        // The rotating oscillator drifts off the unit circle by rounding; one Newton step puts it back.
        let r = 1.5 - 0.5 * (lfoCos * lfoCos + lfoSin * lfoSin)
        lfoCos *= r
        lfoSin *= r
    }

    @_noLocks @_noAllocation
    private mutating func applyPendingLengths() {
        var i = 0
        while i < lineCount {
            let old = lengths[i], new = pendingLengths[i]
            // Stale samples past the old end must not come back as echoes.
            if new > old { (storage + i * lineCapacity + old).update(repeating: 0, count: new - old) }
            if positions[i] >= new { positions[i] = 0 }
            lengths[i] = new
            b0[i] = pendingB0[i]
            b1[i] = pendingB1[i]
            i += 1
        }
        lengthsPending = false
    }

    @_noLocks @_noAllocation
    private mutating func renderChunk(input: UnsafePointer<UnsafeMutablePointer<Float>>, inputChannels: Int,
                                      output: UnsafePointer<UnsafeMutablePointer<Float>>, outputChannels: Int, start: Int, count: Int) {
        let n = lineCount, capacity = lineCapacity
        let storage = self.storage, lengths = self.lengths, positions = self.positions
        let b0 = self.b0, b1 = self.b1, state = self.shelfState, a1 = shelfA1
        let x = values, u = inputs, inTaps = inputTaps, outTaps = outputTaps, altTaps = alternateTaps
        let pre = preBuffer, preCapacity = self.preCapacity, preLength = self.preLength
        var preWrite = self.preWrite
        var duck = self.duck
        let depth = modulationAngle, modulating = depth > 0
        var lfoCos = self.lfoCos, lfoSin = self.lfoSin
        let stepCos = lfoStepCos, stepSin = lfoStepSin
        // Anything below -480 dB is flushed to zero: far above the denormal range (1e-38) and far below hearing,
        // and high enough that even a full-scale input at +20 dB leaves exact silence within 10 x RT60.
        let floor: Float = 1e-24

        var frame = start
        let end = start + count
        while frame < end {
            var c = 0
            while c < inputChannels {
                var v = input[c][frame]
                if preCapacity > 0 {
                    let line = pre + c * preCapacity
                    line[preWrite] = v
                    var read = preWrite - preLength
                    if read < 0 { read += preCapacity }
                    v = line[read]
                }
                u[c] = v
                c += 1
            }
            if preCapacity > 0 {
                preWrite += 1
                if preWrite == preCapacity { preWrite = 0 }
            }

            var i = 0
            while i < n {
                x[i] = storage[i * capacity + positions[i]]
                i += 1
            }

            let level = duck.next()
            var rotCos: Float = 1, rotSin: Float = 0
            if modulating {
                let nextCos = lfoCos * stepCos - lfoSin * stepSin
                lfoSin = lfoCos * stepSin + lfoSin * stepCos
                lfoCos = nextCos
                // sin and cos of an angle within ±45° by their series (libm is off limits here).
                let theta = depth * lfoSin, t2 = theta * theta
                rotSin = theta * (1 - t2 / 6 * (1 - t2 / 20 * (1 - t2 / 42)))
                rotCos = 1 - t2 / 2 * (1 - t2 / 12 * (1 - t2 / 30))
            }
            c = 0
            while c < outputChannels {
                let taps = outTaps + c * n
                var sum: Float = 0
                i = 0
                while i < n {
                    sum += taps[i] * x[i]
                    i += 1
                }
                if modulating {
                    let alternate = altTaps + c * n
                    var other: Float = 0
                    i = 0
                    while i < n {
                        other += alternate[i] * x[i]
                        i += 1
                    }
                    sum = rotCos * sum + rotSin * other
                }
                output[c][frame] = sum * level
                c += 1
            }

            i = 0
            while i < n {
                let xi = x[i]
                let y = b0[i] * xi + state[i]
                var s = b1[i] * xi - a1 * y
                if s < floor && s > -floor { s = 0 }
                state[i] = s
                x[i] = y
                i += 1
            }

            // Fast Walsh-Hadamard transform (the 1/sqrt(n) is in b0, b1).
            var half = 1
            while half < n {
                var block = 0
                while block < n {
                    var k = block
                    let stop = block + half
                    while k < stop {
                        let a = x[k], b = x[k + half]
                        x[k] = a + b
                        x[k + half] = a - b
                        k += 1
                    }
                    block += 2 * half
                }
                half *= 2
            }

            i = 0
            while i < n {
                var v = x[i]
                c = 0
                while c < inputChannels {
                    v += inTaps[c * n + i] * u[c]
                    c += 1
                }
                // Flush what would become denormal: the tail reaches exact silence and stays cheap.
                if v < floor && v > -floor { v = 0 }
                let p = positions[i]
                storage[i * capacity + p] = v
                positions[i] = p + 1 == lengths[i] ? 0 : p + 1
                i += 1
            }
            frame += 1
        }
        self.preWrite = preWrite
        self.duck = duck
        self.lfoCos = lfoCos
        self.lfoSin = lfoSin
    }

    /// Draws the lines' lengths for the current range and seed: stratified fractions of the range (one per
    /// line, jittered), shuffled over the lines, mapped geometrically, rounded to the nearest unused prime.
    private mutating func computeLengths(into out: UnsafeMutablePointer<Int>) {
        let lo = minimumDelayTime, hi = maximumDelayTime
        var rng = UInt64(truncatingIfNeeded: seed) &* 0x9E37_79B9_7F4A_7C15 ^ 0x5DEE_CE66_D1CE_4E5B
        for i in 0..<lineCount {
            let r = Double(Self.random(&rng) >> 11) / Double(1 << 53)
            fractions[i] = (Double(i) + 0.1 + 0.8 * r) / Double(lineCount)
        }
        var i = lineCount - 1
        while i > 0 {
            let j = Int(Self.random(&rng) % UInt64(i + 1))
            let t = fractions[i]
            fractions[i] = fractions[j]
            fractions[j] = t
            i -= 1
        }
        for i in 0..<lineCount {
            let seconds = lo * pow(hi / lo, fractions[i])
            out[i] = freePrime(near: Int((seconds * sampleRate).rounded()), taken: out, count: i)
        }
    }

    /// The nearest prime at or above `target` (below, if the lines are too short) not among `taken[0..<count]`.
    private func freePrime(near target: Int, taken: UnsafeMutablePointer<Int>, count: Int) -> Int {
        func free(_ p: Int) -> Bool {
            guard Self.isPrime(p) else { return false }
            for k in 0..<count where taken[k] == p { return false }
            return true
        }
        var p = Swift.max(target, 2)
        while p <= lineCapacity {
            if free(p) { return p }
            p += 1
        }
        p = Swift.min(target, lineCapacity)
        while p > 2 {
            p -= 1
            if free(p) { return p }
        }
        return 2
    }

    /// Shelf coefficients for `lengths`: per line, gains 10^(-3·length/(RT60·rate)) at 0 Hz and Nyquist.
    private func computeAbsorption(lengths: UnsafeMutablePointer<Int>, b0: UnsafeMutablePointer<Float>, b1: UnsafeMutablePointer<Float>) {
        let w = shelfWarp, scale = 1 / Double(lineCount).squareRoot()
        for i in 0..<lineCount {
            let samples = Double(lengths[i])
            let g0 = pow(10, -3 * samples / (decayAt0Hz * sampleRate))
            let gN = pow(10, -3 * samples / (decayAtNyquist * sampleRate))
            // Bilinear transform of H(s) = (gN·s + g0·w)/(s + w): H(1) = g0, H(-1) = gN.
            b0[i] = Float(scale * (gN + g0 * w) / (1 + w))
            b1[i] = Float(scale * (g0 * w - gN) / (1 + w))
        }
    }

    private static func clamp(_ v: Double, _ lo: Double, _ hi: Double) -> Double {
        v.isNaN ? lo : Swift.min(Swift.max(v, lo), hi)
    }

    private static func isPrime(_ n: Int) -> Bool {
        if n < 2 { return false }
        if n < 4 { return true }
        if n % 2 == 0 { return false }
        var d = 3
        while d * d <= n {
            if n % d == 0 { return false }
            d += 2
        }
        return true
    }

    /// SplitMix64: a small, well-mixed generator, so neighbouring seeds give unrelated patterns.
    private static func random(_ state: inout UInt64) -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
