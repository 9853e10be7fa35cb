/// Encodes interleaved integer PCM to ALAC packets, making the decisions Apple's reference encoder makes:
/// a search over stereo mixes (mixRes 0...4) and predictor orders (4 or 8) on decimated data, coefficients
/// carried from packet to packet per channel, 1 or 2 low bytes shifted off 24- and 32-bit audio, and an
/// uncompressed ("escape") element whenever compression would not save space.
///
/// Input channels are in ALAC's bitstream order (that of `ALACSpecificConfig.channelLayoutTags`; 3 channels:
/// C L R), which is the order `ALACDecoder` gives back.
final class ALACEncoder {
    /// The stream's configuration; maxFrameBytes and avgBitRate follow the packets encoded so far.
    private(set) var config: ALACSpecificConfig
    /// The largest packet `encode` can produce.
    let maxPacketBytes: Int
    private let channels: Int
    private let bitDepth: Int
    private let frameLength: Int
    private let fastMode: Bool
    /// The element types, in bitstream order, for this channel count.
    private let elements: [Bool] // true: CPE, false: SCE
    /// Work buffers, frameLength + `slack` each: like the reference, the predictor's warm-up may touch up to
    /// index 8 even of a shorter block.
    private let mixU: UnsafeMutablePointer<Int32>
    private let mixV: UnsafeMutablePointer<Int32>
    private let predictorU: UnsafeMutablePointer<Int32>
    private let predictorV: UnsafeMutablePointer<Int32>
    private let shiftBuffer: UnsafeMutablePointer<UInt16>
    /// Coefficients per [channel][order - 1][16], kept across packets (better compression, per Apple).
    private let coefsU: UnsafeMutablePointer<Int16>
    private let coefsV: UnsafeMutablePointer<Int16>
    /// The best mixRes of each pair's previous packet (the search's tie winner).
    private let lastMixRes: UnsafeMutablePointer<Int>
    /// The packet being written.
    private let packet: UnsafeMutableRawPointer
    private var totalBytes = 0
    private var totalFrames = 0

    private static let slack = 32
    private static let mixBits = 2
    private static let maxMixRes = 4
    private static let pbFactor: UInt32 = 4
    /// The coder parameters Apple writes into every cookie (PB0, MB0, KB0).
    private static let pb: UInt32 = 40, mb: UInt32 = 10, kb: UInt32 = 14
    private static let coefStride = ALACPredictor.maxCoefficients

    /// An encoder for `channels` (1...8) channels of `bitDepth` (16, 20, 24 or 32) bits at `sampleRate` Hz,
    /// `frameLength` (1...65536) frames per packet. `fastMode` skips the stereo search, as Apple's does.
    init(channels: Int, bitDepth: Int, sampleRate: Int, frameLength: Int = 4096, fastMode: Bool = false) throws(ALACError) {
        guard (1...8).contains(channels), [16, 20, 24, 32].contains(bitDepth), sampleRate > 0, sampleRate <= Int(UInt32.max),
              frameLength >= 1, frameLength <= Int(ALACSpecificConfig.maxFrameLength) else {
            throw .invalidParameter
        }
        config = ALACSpecificConfig(frameLength: UInt32(frameLength), bitDepth: UInt8(bitDepth), numChannels: UInt8(channels),
                                    sampleRate: UInt32(sampleRate))
        self.channels = channels
        self.bitDepth = bitDepth
        self.frameLength = frameLength
        self.fastMode = fastMode
        elements = [[false], [true], [false, true], [false, true, false], [false, true, true], [false, true, true, false],
                    [false, true, true, false, false], [false, true, true, true, false]][channels - 1]
        // Escape elements bound every packet: verbatim samples plus at most 7 header bytes per element, and END.
        maxPacketBytes = (frameLength * bitDepth + 7) / 8 * channels + 8 * channels + 8
        let size = frameLength + Self.slack
        mixU = .allocate(capacity: size)
        mixV = .allocate(capacity: size)
        predictorU = .allocate(capacity: size)
        predictorV = .allocate(capacity: size)
        shiftBuffer = .allocate(capacity: 2 * size)
        for buffer in [mixU, mixV, predictorU, predictorV] { buffer.initialize(repeating: 0, count: size) }
        shiftBuffer.initialize(repeating: 0, count: 2 * size)
        let coefCount = channels * Self.coefStride * Self.coefStride
        coefsU = .allocate(capacity: coefCount)
        coefsV = .allocate(capacity: coefCount)
        for set in 0..<(channels * Self.coefStride) {
            ALACPredictor.initializeCoefficients(coefsU + set * Self.coefStride, denShift: ALACPredictor.defaultDenShift, count: Self.coefStride)
            ALACPredictor.initializeCoefficients(coefsV + set * Self.coefStride, denShift: ALACPredictor.defaultDenShift, count: Self.coefStride)
        }
        lastMixRes = .allocate(capacity: channels)
        lastMixRes.initialize(repeating: 0, count: channels)
        packet = .allocate(byteCount: maxPacketBytes, alignment: 8)
    }

    /// Frees the buffers.
    deinit {
        mixU.deallocate()
        mixV.deallocate()
        predictorU.deallocate()
        predictorV.deallocate()
        shiftBuffer.deallocate()
        coefsU.deallocate()
        coefsV.deallocate()
        lastMixRes.deallocate()
        packet.deallocate()
    }

    /// Encodes `frames` (1...frameLength) interleaved frames into one packet; fewer than frameLength sets the
    /// partial-frame flag (a stream's last packet). Samples outside the bit depth are truncated to it.
    /// Returns an empty array for an out-of-range frame count.
    func encode(_ samples: UnsafePointer<Int32>, frames: Int) -> [UInt8] {
        let size = encodePacket(samples, frames: frames)
        return Array(UnsafeRawBufferPointer(start: packet, count: size))
    }

    /// As `encode(_:frames:)`, writing into `output`; returns the packet's size, or 0 if the frame count is out
    /// of range or `output` holds fewer than the packet's bytes (`maxPacketBytes` always suffice).
    func encode(_ samples: UnsafePointer<Int32>, frames: Int, into output: UnsafeMutableRawBufferPointer) -> Int {
        let size = encodePacket(samples, frames: frames)
        guard size > 0, size <= output.count, let base = output.baseAddress else { return 0 }
        base.copyMemory(from: packet, byteCount: size)
        return size
    }

    /// Encodes one packet into `packet`, updates the statistics and returns its size (0 if `frames` is out of range).
    private func encodePacket(_ samples: UnsafePointer<Int32>, frames: Int) -> Int {
        guard frames >= 1, frames <= frameLength else { return 0 }
        var writer = ALACBitBuffer.Writer(packet, capacity: maxPacketBytes)
        var channel = 0
        var monoTag: UInt32 = 0, pairTag: UInt32 = 0
        for isPair in elements {
            if isPair {
                writer.write(1, 3) // ID_CPE
                writer.write(pairTag, 4)
                pairTag += 1
                if fastMode {
                    encodePairFast(&writer, samples + channel, channel: channel, count: frames)
                } else {
                    encodePair(&writer, samples + channel, channel: channel, count: frames)
                }
                channel += 2
            } else {
                writer.write(0, 3) // ID_SCE (Apple codes the LFE channel as an SCE too)
                writer.write(monoTag, 4)
                monoTag += 1
                encodeSingle(&writer, samples + channel, channel: channel, count: frames)
                channel += 1
            }
        }
        writer.write(7, 3) // ID_END
        let size = writer.finish()
        // Escape elements bound the size, so this cannot trip; it guards the bound itself.
        precondition(!writer.overflowed && size <= maxPacketBytes, "ALAC packet exceeded its bound")
        totalBytes += size
        totalFrames += frames
        config.maxFrameBytes = max(config.maxFrameBytes, UInt32(size))
        let rate = Double(totalBytes) * 8 * Double(config.sampleRate) / Double(totalFrames)
        config.avgBitRate = UInt32(min(rate.rounded(), Double(UInt32.max)))
        return size
    }

    /// The low bytes shifted off before prediction: 2 for 32-bit audio (so a mixed pair fits 17 bits), 1 for 24.
    private var bytesShifted: Int { bitDepth == 32 ? 2 : (bitDepth >= 24 ? 1 : 0) }

    /// Coefficients of `channel` for predictor `order` in `table`.
    @inline(__always)
    private func coefficients(_ table: UnsafeMutablePointer<Int16>, channel: Int, order: Int) -> UnsafeMutablePointer<Int16> {
        table + (channel * Self.coefStride + order - 1) * Self.coefStride
    }

    /// Runs the predictor over `count` values of `input` into `output` (pc_block at Apple's precision).
    @inline(__always)
    private func predict(_ input: UnsafeMutablePointer<Int32>, _ output: UnsafeMutablePointer<Int32>, count: Int,
                         coefs: UnsafeMutablePointer<Int16>, order: Int, sampleBits: Int) {
        ALACPredictor.encode(input, into: output, count: count, coefs: coefs, order: order, sampleBits: sampleBits,
                             denShift: ALACPredictor.defaultDenShift)
    }

    /// The bits the entropy coder needs for `count` residuals.
    @inline(__always)
    private func bitCount(_ residuals: UnsafeMutablePointer<Int32>, count: Int, sampleBits: Int) -> Int {
        ALACAdaptiveGolomb.bitCount(residuals, count: count, sampleBits: sampleBits, pb: Self.pb * Self.pbFactor / 4,
                                    mb: Self.mb, kb: Self.kb)
    }

    /// Writes the 12 zero bits, the flags and, for a partial frame, the frame count.
    private func writeElementHeader(_ writer: inout ALACBitBuffer.Writer, count: Int, shifted: Int, escape: Bool) {
        let partial = count != frameLength
        writer.write(0, 12)
        writer.write((partial ? 8 : 0) | UInt32(shifted << 1) | (escape ? 1 : 0), 4)
        if partial { writer.write(UInt32(count), 32) }
    }

    /// Writes one channel's mode/shift byte, pbFactor/order byte and coefficients.
    private func writePredictorHeader(_ writer: inout ALACBitBuffer.Writer, coefs: UnsafeMutablePointer<Int16>, order: Int) {
        writer.write(UInt32(ALACPredictor.defaultDenShift), 8) // mode 0
        writer.write(Self.pbFactor << 5 | UInt32(order), 8)
        for i in 0..<order { writer.write(UInt32(UInt16(bitPattern: coefs[i])), 16) }
    }

    /// The overhead of a partial frame's count.
    private func partialBits(_ count: Int) -> Int { count != frameLength ? 32 : 0 }

    /// EncodeStereo: the full search for a channel pair starting at `input`.
    private func encodePair(_ writer: inout ALACBitBuffer.Writer, _ input: UnsafePointer<Int32>, channel: Int, count: Int) {
        let start = writer
        let shifted = bytesShifted
        let sampleBits = bitDepth - shifted * 8 + 1

        // Mix search on every 8th block: the coefficients of order 8 adapt through all five trials, as in
        // Apple's encoder (which notes this compresses better than separate coefficients per trial).
        let decimated = count / 8
        var best = Int.max
        var bestRes = lastMixRes[channel]
        for mixRes in 0...Self.maxMixRes {
            ALACMatrix.mix(input, stride: channels, u: mixU, v: mixV, count: decimated, mixBits: Self.mixBits, mixRes: mixRes,
                           shiftBuffer: shiftBuffer, bytesShifted: shifted, bitDepth: bitDepth)
            predict(mixU, predictorU, count: decimated, coefs: coefficients(coefsU, channel: channel, order: 8), order: 8, sampleBits: sampleBits)
            predict(mixV, predictorV, count: decimated, coefs: coefficients(coefsV, channel: channel, order: 8), order: 8, sampleBits: sampleBits)
            let bits = bitCount(predictorU, count: decimated, sampleBits: sampleBits) + bitCount(predictorV, count: decimated, sampleBits: sampleBits)
            if bits < best {
                best = bits
                bestRes = mixRes
            }
        }
        lastMixRes[channel] = bestRes
        let mixRes = bestRes
        ALACMatrix.mix(input, stride: channels, u: mixU, v: mixV, count: count, mixBits: Self.mixBits, mixRes: mixRes,
                       shiftBuffer: shiftBuffer, bytesShifted: shifted, bitDepth: bitDepth)

        // Order search: converge each order's coefficients on every 32nd block, then size every 8th (the
        // reference sizes stale predictor output past the 32nd; kept, as it steers the same choice).
        var orderU = 4, orderV = 4
        var bestU = Int.max, bestV = Int.max
        for order in stride(from: 4, through: 8, by: 4) {
            let coefU = coefficients(coefsU, channel: channel, order: order)
            let coefV = coefficients(coefsV, channel: channel, order: order)
            for _ in 0..<8 {
                predict(mixU, predictorU, count: count / 32, coefs: coefU, order: order, sampleBits: sampleBits)
                predict(mixV, predictorV, count: count / 32, coefs: coefV, order: order, sampleBits: sampleBits)
            }
            let bitsU = bitCount(predictorU, count: decimated, sampleBits: sampleBits) * 8 + 16 * order
            if bitsU < bestU {
                bestU = bitsU
                orderU = order
            }
            let bitsV = bitCount(predictorV, count: decimated, sampleBits: sampleBits) * 8 + 16 * order
            if bitsV < bestV {
                bestV = bitsV
                orderV = order
            }
        }

        let escapeBits = count * bitDepth * 2 + partialBits(count) + 16
        let estimate = bestU + bestV + 64 + partialBits(count) + count * shifted * 8 * 2
        if estimate < escapeBits {
            let coefU = coefficients(coefsU, channel: channel, order: orderU)
            let coefV = coefficients(coefsV, channel: channel, order: orderV)
            writeElementHeader(&writer, count: count, shifted: shifted, escape: false)
            writer.write(UInt32(Self.mixBits), 8)
            writer.write(UInt32(mixRes), 8)
            writePredictorHeader(&writer, coefs: coefU, order: orderU)
            writePredictorHeader(&writer, coefs: coefV, order: orderV)
            writeShiftedPairs(&writer, count: count, shifted: shifted)
            predict(mixU, predictorU, count: count, coefs: coefU, order: orderU, sampleBits: sampleBits)
            encodeResiduals(&writer, predictorU, count: count, sampleBits: sampleBits)
            predict(mixV, predictorV, count: count, coefs: coefV, order: orderV, sampleBits: sampleBits)
            encodeResiduals(&writer, predictorV, count: count, sampleBits: sampleBits)
            if writer.position - start.position < escapeBits { return }
            writer = start
        }
        writePairEscape(&writer, input, count: count)
    }

    /// EncodeStereoFast: no search (mixRes 0, order 8), written speculatively.
    private func encodePairFast(_ writer: inout ALACBitBuffer.Writer, _ input: UnsafePointer<Int32>, channel: Int, count: Int) {
        let start = writer
        let shifted = bytesShifted
        let sampleBits = bitDepth - shifted * 8 + 1
        let order = 8
        let coefU = coefficients(coefsU, channel: channel, order: order)
        let coefV = coefficients(coefsV, channel: channel, order: order)
        ALACMatrix.mix(input, stride: channels, u: mixU, v: mixV, count: count, mixBits: Self.mixBits, mixRes: 0,
                       shiftBuffer: shiftBuffer, bytesShifted: shifted, bitDepth: bitDepth)
        writeElementHeader(&writer, count: count, shifted: shifted, escape: false)
        writer.write(UInt32(Self.mixBits), 8)
        writer.write(0, 8)
        writePredictorHeader(&writer, coefs: coefU, order: order)
        writePredictorHeader(&writer, coefs: coefV, order: order)
        writeShiftedPairs(&writer, count: count, shifted: shifted)
        predict(mixU, predictorU, count: count, coefs: coefU, order: order, sampleBits: sampleBits)
        encodeResiduals(&writer, predictorU, count: count, sampleBits: sampleBits)
        predict(mixV, predictorV, count: count, coefs: coefV, order: order, sampleBits: sampleBits)
        encodeResiduals(&writer, predictorV, count: count, sampleBits: sampleBits)
        let escapeBits = count * bitDepth * 2 + partialBits(count) + 16
        if writer.position - start.position < escapeBits { return }
        writer = start
        writePairEscape(&writer, input, count: count)
    }

    /// EncodeMono: order search (4 or 8) for one channel at `input`, then compressed or escaped.
    private func encodeSingle(_ writer: inout ALACBitBuffer.Writer, _ input: UnsafePointer<Int32>, channel: Int, count: Int) {
        let start = writer
        let shifted = bytesShifted
        let sampleBits = bitDepth - shifted * 8
        ALACMatrix.extractMono(input, stride: channels, into: mixU, count: count, shiftBuffer: shiftBuffer,
                               bytesShifted: shifted, bitDepth: bitDepth)
        var order = 4
        var best = Int.max
        for trial in stride(from: 4, through: 8, by: 4) {
            let coefs = coefficients(coefsU, channel: channel, order: trial)
            for _ in 0..<7 { predict(mixU, predictorU, count: count / 32, coefs: coefs, order: trial, sampleBits: sampleBits) }
            predict(mixU, predictorU, count: count / 8, coefs: coefs, order: trial, sampleBits: sampleBits)
            let bits = bitCount(predictorU, count: count / 8, sampleBits: sampleBits) * 8 + 16 * trial
            if bits < best {
                best = bits
                order = trial
            }
        }
        let escapeBits = count * bitDepth + partialBits(count) + 16
        let estimate = best + 32 + partialBits(count) + count * shifted * 8
        if estimate < escapeBits {
            let coefs = coefficients(coefsU, channel: channel, order: order)
            writeElementHeader(&writer, count: count, shifted: shifted, escape: false)
            writer.write(0, 16) // mixBits, mixRes
            writePredictorHeader(&writer, coefs: coefs, order: order)
            if shifted != 0 {
                for i in 0..<count { writer.write(UInt32(shiftBuffer[i]), shifted * 8) }
            }
            predict(mixU, predictorU, count: count, coefs: coefs, order: order, sampleBits: sampleBits)
            encodeResiduals(&writer, predictorU, count: count, sampleBits: sampleBits)
            if writer.position - start.position < escapeBits { return }
            writer = start
        }
        writeElementHeader(&writer, count: count, shifted: 0, escape: true)
        var p = input
        for _ in 0..<count {
            writer.write(UInt32(bitPattern: p[0]), bitDepth)
            p += channels
        }
    }

    /// A pair's shifted-off bytes, U and V together per frame.
    private func writeShiftedPairs(_ writer: inout ALACBitBuffer.Writer, count: Int, shifted: Int) {
        guard shifted != 0 else { return }
        let bits = shifted * 8
        for i in 0..<count {
            writer.write(UInt32(shiftBuffer[2 * i]) << UInt32(bits) | UInt32(shiftBuffer[2 * i + 1]), bits * 2)
        }
    }

    /// A pair's escape element: each frame's two samples verbatim at the bit depth.
    private func writePairEscape(_ writer: inout ALACBitBuffer.Writer, _ input: UnsafePointer<Int32>, count: Int) {
        writeElementHeader(&writer, count: count, shifted: 0, escape: true)
        var p = input
        for _ in 0..<count {
            writer.write(UInt32(bitPattern: p[0]), bitDepth)
            writer.write(UInt32(bitPattern: p[1]), bitDepth)
            p += channels
        }
    }

    /// Entropy-codes `count` residuals with Apple's fixed coder parameters.
    @inline(__always)
    private func encodeResiduals(_ writer: inout ALACBitBuffer.Writer, _ residuals: UnsafeMutablePointer<Int32>, count: Int, sampleBits: Int) {
        ALACAdaptiveGolomb.encode(residuals, count: count, sampleBits: sampleBits, pb: Self.pb * Self.pbFactor / 4,
                                  mb: Self.mb, kb: Self.kb, into: &writer)
    }
}
