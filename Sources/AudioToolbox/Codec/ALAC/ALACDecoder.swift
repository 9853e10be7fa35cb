/// Decodes ALAC packets (one frame each) to interleaved integers at the stream's bit depth.
///
/// A frame is a sequence of elements, each introduced by a 3-bit tag: SCE/LFE (one channel), CPE (a channel
/// pair), DSE and FIL (skipped), END. Channels come out in bitstream order, as Apple's decoder gives them: for
/// 3 to 8 channels that is the order of `ALACSpecificConfig.channelLayoutTags` (3 channels: C L R).
/// All buffers are allocated at init; decoding never allocates.
final class ALACDecoder {
    /// The stream's configuration.
    let config: ALACSpecificConfig
    private let frameLength: Int
    private let channels: Int
    private let bitDepth: Int
    private let pb: UInt32
    private let mb: UInt32
    private let kb: UInt32
    /// Per-channel results before (un)mixing, frameLength each.
    private let mixU: UnsafeMutablePointer<Int32>
    private let mixV: UnsafeMutablePointer<Int32>
    /// Entropy-decoded residuals, frameLength.
    private let residuals: UnsafeMutablePointer<Int32>
    /// Shifted-off low bytes, 2 * frameLength (interleaved for a pair).
    private let shiftBuffer: UnsafeMutablePointer<UInt16>
    /// Predictor coefficients of the element being decoded (up to 31 each).
    private let coefsU: UnsafeMutablePointer<Int16>
    private let coefsV: UnsafeMutablePointer<Int16>

    /// Element tags (the 3-bit IDs at the start of each element).
    private enum Tag {
        static let sce: UInt32 = 0, cpe: UInt32 = 1, cce: UInt32 = 2, lfe: UInt32 = 3
        static let dse: UInt32 = 4, pce: UInt32 = 5, fil: UInt32 = 6, end: UInt32 = 7
    }

    /// A decoder for streams described by `config`, whose fields must pass `ALACSpecificConfig.validate()`.
    init(config: ALACSpecificConfig) throws(ALACError) {
        try config.validate()
        self.config = config
        frameLength = Int(config.frameLength)
        channels = Int(config.numChannels)
        bitDepth = Int(config.bitDepth)
        pb = UInt32(config.pb)
        mb = UInt32(config.mb)
        kb = UInt32(config.kb)
        mixU = .allocate(capacity: frameLength)
        mixV = .allocate(capacity: frameLength)
        residuals = .allocate(capacity: frameLength)
        shiftBuffer = .allocate(capacity: 2 * frameLength)
        coefsU = .allocate(capacity: 32)
        coefsV = .allocate(capacity: 32)
    }

    /// Frees the buffers.
    deinit {
        mixU.deallocate()
        mixV.deallocate()
        residuals.deallocate()
        shiftBuffer.deallocate()
        coefsU.deallocate()
        coefsV.deallocate()
    }

    /// Decodes one packet into `output` (interleaved, `config.numChannels` per frame, room for
    /// `capacityFrames` frames) and returns the frames decoded: frameLength, or fewer for a partial frame.
    /// Channels the packet lacks come out as zeros, as in Apple's decoder.
    func decode(_ packet: UnsafeRawBufferPointer, into output: UnsafeMutablePointer<Int32>, capacityFrames: Int) -> Result<Int, ALACError> {
        var reader = ALACBitBuffer.Reader(packet)
        var channelIndex = 0
        var frames = -1
        elements: while channelIndex < channels {
            guard reader.position &+ 3 <= reader.bitCount else { return .failure(.badBitstream) }
            switch reader.read(3) {
            case Tag.sce, Tag.lfe:
                if let error = decodeElement(&reader, pair: false, channelIndex: channelIndex, frames: &frames,
                                             output: output, capacityFrames: capacityFrames) {
                    return .failure(error)
                }
                channelIndex += 1
            case Tag.cpe:
                // A pair that would not fit ends decoding, as in Apple's decoder; the rest is zero-filled.
                if channelIndex + 2 > channels { break elements }
                if let error = decodeElement(&reader, pair: true, channelIndex: channelIndex, frames: &frames,
                                             output: output, capacityFrames: capacityFrames) {
                    return .failure(error)
                }
                channelIndex += 2
            case Tag.dse:
                _ = reader.read(4)
                let aligned = reader.read(1) != 0
                var count = Int(reader.read(8))
                if count == 255 { count += Int(reader.read(8)) }
                if aligned { reader.alignToByte() }
                guard reader.skip(count * 8) else { return .failure(.badBitstream) }
            case Tag.fil:
                var count = Int(reader.read(4))
                if count == 15 { count += Int(reader.read(8)) - 1 }
                guard reader.skip(count * 8) else { return .failure(.badBitstream) }
            case Tag.end:
                break elements
            default:
                // CCE and PCE: defined by AAC, never produced for ALAC, and not decodable by Apple's decoder.
                return .failure(.unsupported)
            }
        }
        guard frames >= 0 else { return .failure(.badBitstream) }
        for channel in channelIndex..<channels {
            var p = output + channel
            for _ in 0..<frames {
                p[0] = 0
                p += channels
            }
        }
        return .success(frames)
    }

    /// Decodes one SCE/LFE (`pair` false) or CPE element after its tag into `output` at `channelIndex`.
    /// `frames` is the frame count so far (-1 before the first element); every element must agree with it.
    private func decodeElement(_ reader: inout ALACBitBuffer.Reader, pair: Bool, channelIndex: Int, frames: inout Int,
                               output: UnsafeMutablePointer<Int32>, capacityFrames: Int) -> ALACError? {
        _ = reader.read(4) // element instance tag: unused
        guard reader.read(12) == 0 else { return .badBitstream }
        let flags = reader.read(4)
        let bytesShifted = Int((flags >> 1) & 3)
        guard bytesShifted != 3 else { return .badBitstream }
        // Without the partial-frame flag an element has the frame's length: frameLength, or the count an
        // earlier element of this frame gave (Apple's decoder carries it over).
        var count = frames >= 0 ? frames : frameLength
        if flags & 8 != 0 { count = Int(reader.read(32)) }
        guard !reader.isOverrun else { return .badBitstream }
        guard count >= 1, count <= frameLength, frames < 0 || count == frames else { return .badBitstream }
        guard count <= capacityFrames else { return .outputTooSmall }
        frames = count
        let channelCount = pair ? 2 : 1
        let out = output + channelIndex

        if flags & 1 != 0 {
            // Escape: verbatim samples (a pair's interleaved), at the full bit depth for a pair and less the
            // shifted bytes for a single channel, as Apple's decoder reads them; nothing is shifted back.
            let bits = pair ? bitDepth : bitDepth - bytesShifted * 8
            guard bits >= 1 else { return .badBitstream }
            guard reader.bitCount - reader.position >= count * bits * channelCount else { return .badBitstream }
            let ext = UInt32(32 - bits)
            for j in 0..<count {
                mixU[j] = Int32(bitPattern: reader.read(bits) &<< ext) &>> Int32(ext)
                if pair { mixV[j] = Int32(bitPattern: reader.read(bits) &<< ext) &>> Int32(ext) }
            }
            if pair {
                ALACMatrix.unmix(u: mixU, v: mixV, into: out, stride: channels, count: count, mixBits: 0, mixRes: 0,
                                 shiftBuffer: shiftBuffer, bytesShifted: 0, bitDepth: bitDepth)
            } else {
                ALACMatrix.outputMono(mixU, into: out, stride: channels, count: count, shiftBuffer: shiftBuffer,
                                      bytesShifted: 0, bitDepth: bitDepth)
            }
            return nil
        }

        let mixBits = Int(reader.read(8))
        let mixRes = Int(Int8(truncatingIfNeeded: reader.read(8)))
        guard mixRes == 0 || mixBits <= 31 else { return .badBitstream }
        let headerU = readPredictorHeader(&reader, coefs: coefsU)
        let headerV = pair ? readPredictorHeader(&reader, coefs: coefsV) : headerU
        // A header cut short reads as zeros; report the truncation rather than what the zeros would mean.
        guard !reader.isOverrun else { return .badBitstream }
        // A pair's mixed channel needs one more bit than its samples.
        let sampleBits = bitDepth - bytesShifted * 8 + (pair ? 1 : 0)
        guard sampleBits >= 1 else { return .badBitstream }
        guard sampleBits <= 32 else { return .unsupported }

        // The shifted-off bytes precede the entropy-coded data; read them after it.
        var shiftReader = reader
        if bytesShifted != 0 {
            guard reader.skip(bytesShifted * 8 * channelCount * count) else { return .badBitstream }
        }
        if let error = decodeChannel(&reader, header: headerU, coefs: coefsU, into: mixU, count: count, sampleBits: sampleBits) {
            return error
        }
        if pair, let error = decodeChannel(&reader, header: headerV, coefs: coefsV, into: mixV, count: count, sampleBits: sampleBits) {
            return error
        }
        if bytesShifted != 0 {
            let bits = bytesShifted * 8
            for i in 0..<(count * channelCount) { shiftBuffer[i] = UInt16(truncatingIfNeeded: shiftReader.read(bits)) }
        }
        if pair {
            ALACMatrix.unmix(u: mixU, v: mixV, into: out, stride: channels, count: count, mixBits: mixBits, mixRes: mixRes,
                             shiftBuffer: shiftBuffer, bytesShifted: bytesShifted, bitDepth: bitDepth)
        } else {
            ALACMatrix.outputMono(mixU, into: out, stride: channels, count: count, shiftBuffer: shiftBuffer,
                                  bytesShifted: bytesShifted, bitDepth: bitDepth)
        }
        return nil
    }

    /// One channel's predictor parameters from an element header.
    private struct PredictorHeader {
        var mode: Int
        var denShift: Int
        var pbFactor: UInt32
        var order: Int
    }

    /// Reads a channel's mode, shift, pbFactor, order and coefficients into `coefs`.
    private func readPredictorHeader(_ reader: inout ALACBitBuffer.Reader, coefs: UnsafeMutablePointer<Int16>) -> PredictorHeader {
        let first = reader.read(8), second = reader.read(8)
        let header = PredictorHeader(mode: Int(first >> 4), denShift: Int(first & 15), pbFactor: second >> 5, order: Int(second & 31))
        for i in 0..<header.order { coefs[i] = Int16(truncatingIfNeeded: reader.read(16)) }
        return header
    }

    /// Entropy-decodes and un-predicts one channel into `out`.
    private func decodeChannel(_ reader: inout ALACBitBuffer.Reader, header: PredictorHeader, coefs: UnsafeMutablePointer<Int16>,
                               into out: UnsafeMutablePointer<Int32>, count: Int, sampleBits: Int) -> ALACError? {
        // A filter needs a shift (the reference's rounding term is undefined at 0; FFmpeg refuses it too).
        let filtered = header.order != 0 && header.order != ALACPredictor.firstDifferenceOrder
        guard !filtered || header.denShift != 0 else { return .badBitstream }
        guard ALACAdaptiveGolomb.decode(&reader, into: residuals, count: count, sampleBits: sampleBits,
                                        pb: (pb * header.pbFactor) / 4, mb: mb, kb: kb) else {
            return .badBitstream
        }
        if header.mode != 0 {
            // Any non-zero mode (Apple uses 15) first undoes a first difference, in place.
            ALACPredictor.decode(residuals, into: residuals, count: count, coefs: coefs, order: ALACPredictor.firstDifferenceOrder,
                                 sampleBits: sampleBits, denShift: 0)
        }
        ALACPredictor.decode(residuals, into: out, count: count, coefs: coefs, order: header.order, sampleBits: sampleBits,
                             denShift: header.denShift)
        return nil
    }
}
