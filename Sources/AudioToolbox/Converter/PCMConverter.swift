import AudioDSP

/// The linear PCM stage of every AudioConverter: the whole converter between two PCM formats, and the
/// step between a codec's PCM and the client's when one side is compressed. Samples are decoded
/// to Double (exact for every integer layout up to 32 bits and for Float32), routed through the
/// channel map, resampled in Float32 when the rates differ, and encoded with rounding, clipping and
/// optional TPDF dither. Routed channels without dither between packed little-endian layouts skip the
/// Double stage (PCMDirectKernels), at one rate and when resampling, with the same bytes as a result.
/// All working memory is allocated at creation (and when a property that changes the pipeline is set),
/// so conversion itself never allocates.
final class PCMConverter: @unchecked Sendable {
    /// Frames converted per internal step (fewer when upsampling by a large ratio, so that the resampled
    /// buffers stay near this size).
    static let chunkFrames = 1024
    /// The widest rate ratio taken either way: more than any real pair (8 kHz <-> 768 kHz is 96), and it
    /// bounds the filter length and buffers a hostile file's sample rate can ask for.
    static let maximumRateRatio = 256.0
    /// The highest sample rate anywhere in the engine (64 x 48 kHz, as the file parsers accept).
    static let maximumSampleRate = 3_072_000.0

    /// Apple's codes for rates the converter refuses: outside (0, 3.072 MHz], not finite, or a ratio past
    /// `maximumRateRatio` (the rate that is too far from the other is the one reported).
    static func checkRates(input: Double, output: Double) -> OSStatus {
        guard input > 0, input <= maximumSampleRate else { return kAudioConverterErr_InputSampleRateOutOfRange }
        guard output > 0, output <= maximumSampleRate else { return kAudioConverterErr_OutputSampleRateOutOfRange }
        if output / input > maximumRateRatio { return input < output ? kAudioConverterErr_InputSampleRateOutOfRange
                                                                       : kAudioConverterErr_OutputSampleRateOutOfRange }
        if input / output > maximumRateRatio { return kAudioConverterErr_OutputSampleRateOutOfRange }
        return noErr
    }

    static func checkRates(_ input: PCMFormat, _ output: PCMFormat) -> OSStatus {
        checkRates(input: input.description.mSampleRate, output: output.description.mSampleRate)
    }

    /// Input frames per internal step.
    let chunk: Int

    let input: PCMFormat
    let output: PCMFormat
    /// The converter reference an input proc receives: the public converter that owns this stage.
    var procHandle: AudioConverterRef?

    // Settings (properties).
    /// For each output channel, the input channel it takes, or -1 for silence.
    private(set) var channelMap: [Int32]
    /// Default route of several input channels into one output: their average.
    private(set) var mixesToMono: Bool
    var quality = kAudioConverterQuality_High
    var complexity = kAudioConverterSampleRateConverterComplexity_Normal
    var primeMethod = kConverterPrimeMethod_Normal
    var ditherAlgorithm: UInt32 = 0
    var ditherBitDepth: UInt32 = 0
    var inputChannelLayout: Data? { didSet { updateRouting() } }
    var outputChannelLayout: Data? { didSet { updateRouting() } }
    /// kAudioConverterPropertyPerformDownmix: mix channels through `mixGains` instead of routing them.
    var performsDownmix = false { didSet { updateRouting() } }
    /// kAudioConverterPropertyChannelMixMap as the client set it (a row per input channel), if it did.
    var clientMixMap: [Double]? { didSet { updateRouting() } }
    /// The client set kAudioConverterChannelMap, which overrides routing by channel layouts.
    private var channelMapIsExplicit = false
    /// The mix in use (rows are input channels), when channels are mixed rather than routed.
    private(set) var mixGains: [Double]?

    // Working memory.
    private let decoded: UnsafeMutablePointer<Double>          // input channels x chunk
    private let mapped: UnsafeMutablePointer<Double>           // output channels x chunk
    private let resampled: UnsafeMutablePointer<Double>        // output channels x resampledCapacity
    private let floatIn: UnsafeMutablePointer<Float>           // output channels x chunk
    private let floatOut: UnsafeMutablePointer<Float>          // output channels x resampledCapacity
    private let floatInPointers: UnsafeMutablePointer<UnsafePointer<Float>>
    private let floatOutPointers: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    private let resampledCapacity: Int
    private var resampler: SampleRateConverter?
    private let dither = UnsafeMutablePointer<TPDFDither>.allocate(capacity: 1)

    // Pull-model state (AudioConverterFillComplexBuffer).
    private let inputList: UnsafeMutableAudioBufferListPointer
    private let packetDescriptions = UnsafeMutablePointer<UnsafeMutablePointer<AudioStreamPacketDescription>?>.allocate(capacity: 1)
    /// Frames the input proc gave that are not consumed yet, and where they start.
    private var pendingFrames = 0
    private var pendingOffset = 0
    private var inputEnded = false
    /// Resampled output waiting to be delivered.
    private var resampledFrames = 0
    private var resampledOffset = 0

    var sampleRatesDiffer: Bool { input.description.mSampleRate != output.description.mSampleRate }

    /// Input and output are the same layout with every channel mapped to itself (no dither can apply).
    var isIdentity: Bool {
        !sampleRatesDiffer && !mixesToMono && mixGains == nil && input.layout == output.layout && input.channels == output.channels
            && input.isInterleaved == output.isInterleaved && input.bytesPerFrame == output.bytesPerFrame
            && mapsEveryChannelToItself
    }

    /// The direct kernels' pair when the conversion is one they do exactly: channels routed (not mixed), no dither,
    /// packed little-endian layouts on both sides. Nil: the Double path.
    private var directPair: (PCMDirectKernels.Kind, PCMDirectKernels.Kind)? {
        guard !mixesToMono, mixGains == nil, !shouldDither, let from = PCMDirectKernels.kind(input.layout),
              let to = PCMDirectKernels.kind(output.layout) else { return nil }
        return (from, to)
    }

    /// The source kind when the conversion widens a packed integer into a low-aligned Int32 container (an
    /// encoder's PCM format), routed channel for channel with no dither. Nil otherwise.
    private var widenablePair: PCMDirectKernels.Kind? {
        guard !mixesToMono, mixGains == nil, !shouldDither, PCMDirectKernels.isLowAlignedInt32(output.layout),
              let from = PCMDirectKernels.kind(input.layout) else { return nil }
        return from
    }

    /// An index loop: the generic enumerated/allSatisfy form allocates an iterator in a debug build, and this runs
    /// on the render thread.
    private var mapsEveryChannelToItself: Bool {
        for i in 0..<channelMap.count where channelMap[i] != Int32(i) { return false }
        return true
    }

    init(input: PCMFormat, output: PCMFormat) {
        self.input = input
        self.output = output
        precondition(Self.checkRates(input, output) == noErr, "rates are checked before a converter is made")
        let ratio = output.description.mSampleRate / input.description.mSampleRate
        let chunk = ratio <= 8 ? Self.chunkFrames : max(16, Int(Double(8 * Self.chunkFrames) / ratio))
        self.chunk = chunk
        decoded = .allocate(capacity: input.channels * chunk)
        mapped = .allocate(capacity: output.channels * chunk)
        floatIn = .allocate(capacity: output.channels * chunk)
        resampledCapacity = Int((Double(chunk) * ratio).rounded(.up)) + 64
        resampled = .allocate(capacity: output.channels * resampledCapacity)
        floatOut = .allocate(capacity: output.channels * resampledCapacity)
        floatInPointers = .allocate(capacity: output.channels)
        floatOutPointers = .allocate(capacity: output.channels)
        for c in 0..<output.channels {
            floatInPointers[c] = UnsafePointer(floatIn + c * chunk)
            floatOutPointers[c] = floatOut + c * resampledCapacity
        }
        dither.initialize(to: TPDFDither())
        inputList = AudioBufferList.allocate(maximumBuffers: input.bufferCount)
        (channelMap, mixesToMono) = Self.defaultChannelMap(inputs: input.channels, outputs: output.channels)
        rebuildResampler()
    }

    deinit {
        decoded.deallocate(); mapped.deallocate(); resampled.deallocate()
        floatIn.deallocate(); floatOut.deallocate()
        floatInPointers.deallocate(); floatOutPointers.deallocate()
        dither.deallocate()
        packetDescriptions.deallocate()
        free(inputList.unsafeMutablePointer)
    }

    /// Equal counts map one to one; mono fans out to every output; several inputs into one output are
    /// averaged; otherwise the first channels map across and extra outputs are silent.
    static func defaultChannelMap(inputs: Int, outputs: Int) -> ([Int32], Bool) {
        if inputs == 1 { return (Array(repeating: 0, count: outputs), false) }
        if outputs == 1 { return ([0], true) }
        return ((0..<outputs).map { $0 < inputs ? Int32($0) : -1 }, false)
    }

    func setChannelMap(_ map: [Int32]) -> OSStatus {
        guard map.count == output.channels, map.allSatisfy({ $0 >= -1 && Int($0) < input.channels }) else {
            return kAudio_ParamError
        }
        channelMap = map
        mixesToMono = false
        channelMapIsExplicit = true
        updateRouting()
        return noErr
    }

    /// The channels of the input or output layout (set, or the plain one for the count), if they are known.
    func channelLabels(input isInput: Bool) -> [AudioChannelLabel]? {
        layoutData(input: isInput).withUnsafeBytes { ChannelLayoutCatalog.labels(inLayout: $0) }
    }

    /// Chooses how channels travel after a layout, map or mix property changed. Downmix: the client's mix map,
    /// else the standard one between the two layouts. Otherwise, with both layouts set and no explicit channel
    /// map, channels follow their labels when that loses none (a reordering or a subset); else the default map.
    private func updateRouting() {
        mixGains = nil
        if performsDownmix {
            if let map = clientMixMap {
                mixGains = map
            } else if let from = channelLabels(input: true), let to = channelLabels(input: false),
                      let matrix = ChannelMixMatrix.matrix(from: from, to: to) {
                mixGains = matrix.flatMap { $0 }
            }
            if mixGains != nil { return }
        }
        guard !channelMapIsExplicit, inputChannelLayout != nil, outputChannelLayout != nil,
              let from = channelLabels(input: true), let to = channelLabels(input: false),
              from.count == input.channels, to.count == output.channels,
              // Only real labels route: an unused or unknown channel says nothing about where it goes.
              !(from + to).contains(where: { $0 == kAudioChannelLabel_Unused || $0 == kAudioChannelLabel_Unknown }),
              from.allSatisfy({ to.contains($0) }) || to.allSatisfy({ from.contains($0) }) else { return }
        channelMap = ChannelMixMatrix.channelMap(from: from, to: to)
        mixesToMono = false
    }

    /// Takes the client-set properties of the stage this one replaces (a cookie changed the codec's PCM).
    func copySettings(from other: PCMConverter) {
        quality = other.quality
        complexity = other.complexity
        primeMethod = other.primeMethod
        ditherAlgorithm = other.ditherAlgorithm
        ditherBitDepth = other.ditherBitDepth
        outputChannelLayout = other.outputChannelLayout
        if other.input.channels == input.channels {
            if other.channelMapIsExplicit { _ = setChannelMap(other.channelMap) }
            clientMixMap = other.clientMixMap
            performsDownmix = other.performsDownmix
        }
        rebuildResampler()
    }

    /// (Re)creates the sample-rate converter for the current quality and complexity.
    func rebuildResampler() {
        guard sampleRatesDiffer else { resampler = nil; return }
        let algorithm: SampleRateConverterAlgorithm = complexity == kAudioConverterSampleRateConverterComplexity_Linear ? .linear : .sinc
        var q: SampleRateConverterQuality
        switch quality {
        case 0x70...: q = .max
        case 0x50..<0x70: q = .high
        case 0x30..<0x50: q = .medium
        case 0x10..<0x30: q = .low
        default: q = .min
        }
        if complexity == kAudioConverterSampleRateConverterComplexity_Mastering { q = .max }
        resampler = SampleRateConverter(inputRate: input.description.mSampleRate, outputRate: output.description.mSampleRate,
                                        channels: output.channels, quality: q, algorithm: algorithm)
        reset()
    }

    var latencyFrames: Int { resampler?.latencyInputFrames ?? 0 }

    func reset() {
        resampler?.reset()
        pendingFrames = 0
        pendingOffset = 0
        inputEnded = false
        resampledFrames = 0
        resampledOffset = 0
        dither.pointee = TPDFDither()
    }

    // MARK: Stages

    /// Decodes `frames` (<= chunk) input frames starting at `frame`, then routes them to the output
    /// channels in `mapped`.
    private func decodeAndMap(_ list: UnsafeMutableAudioBufferListPointer, frame: Int, frames: Int) {
        for c in 0..<input.channels {
            guard let p = input.samplePointer(list, channel: c, frame: frame) else {
                (decoded + c * chunk).update(repeating: 0, count: frames)
                continue
            }
            PCMSampleCodec.decode(p, strideBytes: input.bytesPerFrame, count: frames, layout: input.layout, into: decoded + c * chunk)
        }
        if let gains = mixGains {
            gains.withUnsafeBufferPointer {
                ChannelMatrixKernel.mix(decoded, inputStride: chunk, inputs: input.channels, gains: $0.baseAddress!,
                                        into: mapped, outputStride: chunk, outputs: output.channels, frames: frames)
            }
            return
        }
        if mixesToMono {
            ChannelMatrixKernel.averageToMono(decoded, inputStride: chunk, inputs: input.channels, into: mapped, frames: frames)
            return
        }
        for c in 0..<output.channels {
            let source = Int(channelMap[c])
            if source < 0 {
                (mapped + c * chunk).update(repeating: 0, count: frames)
            } else {
                (mapped + c * chunk).update(from: decoded + source * chunk, count: frames)
            }
        }
    }

    /// Encodes `frames` frames from per-channel Doubles (`stride` apart) into the output list at `frame`.
    private func encode(_ source: UnsafeMutablePointer<Double>, stride: Int, frames: Int,
                        into list: UnsafeMutableAudioBufferListPointer, frame: Int) {
        let ditherState: UnsafeMutablePointer<TPDFDither>? = shouldDither ? dither : nil
        for c in 0..<output.channels {
            guard let p = output.samplePointer(list, channel: c, frame: frame) else { continue }
            PCMSampleCodec.encode(source + c * stride, count: frames, layout: output.layout, into: p,
                                  strideBytes: output.bytesPerFrame, dither: ditherState)
        }
    }

    /// Fills the resampler's planar Float32 input (`floatIn`, a plane per output channel) with `frames` (<= chunk) input
    /// frames from `frame`: with the direct pair, each plane decoded straight from its source channel (or silence);
    /// otherwise through the Double stage, rounded to Float. Both give the same Floats (see PCMDirectKernels.decode).
    private func decodeForResampler(_ list: UnsafeMutableAudioBufferListPointer, frame: Int, frames: Int,
                                    direct: (PCMDirectKernels.Kind, PCMDirectKernels.Kind)?) {
        if let (from, _) = direct {
            for c in 0..<output.channels {
                let plane = floatIn + c * chunk, source = Int(channelMap[c])
                guard source >= 0, let p = input.samplePointer(list, channel: source, frame: frame) else {
                    plane.update(repeating: 0, count: frames)
                    continue
                }
                PCMDirectKernels.decode(p, sourceStride: input.bytesPerFrame, from: from, into: plane, count: frames)
            }
            return
        }
        decodeAndMap(list, frame: frame, frames: frames)
        for c in 0..<output.channels {
            SampleConversion.doubleToFloat(mapped + c * chunk, floatIn + c * chunk, count: frames)
        }
    }

    /// Encodes `frames` resampled frames from `resampledOffset` in `floatOut` into the output list at `frame`: with the
    /// direct pair straight from Float32; otherwise widened to Double first (dither and the rarer layouts). Both
    /// write the same bytes (see PCMDirectKernels.encode).
    private func encodeResampled(frames: Int, into list: UnsafeMutableAudioBufferListPointer, frame: Int,
                                 direct: (PCMDirectKernels.Kind, PCMDirectKernels.Kind)?) {
        if let (_, to) = direct {
            for c in 0..<output.channels {
                guard let p = output.samplePointer(list, channel: c, frame: frame) else { continue }
                PCMDirectKernels.encode(floatOut + c * resampledCapacity + resampledOffset, to: to, p, destinationStride: output.bytesPerFrame,
                                        count: frames)
            }
            return
        }
        for c in 0..<output.channels {
            SampleConversion.floatToDouble(floatOut + c * resampledCapacity + resampledOffset, resampled + c * resampledCapacity, count: frames)
        }
        encode(resampled, stride: resampledCapacity, frames: frames, into: list, frame: frame)
    }

    /// Dither applies when asked for and the output is an integer narrower than the input's precision.
    private var shouldDither: Bool {
        ditherAlgorithm == kDitherAlgorithm_TPDF && !output.layout.isFloat
            && (input.layout.isFloat || input.layout.validBits > output.layout.validBits)
    }

    /// Same-rate conversion of `frames` frames between two lists, at frame offsets.
    func convertDirect(from inList: UnsafeMutableAudioBufferListPointer, inFrame: Int,
                       to outList: UnsafeMutableAudioBufferListPointer, outFrame: Int, frames: Int) {
        if isIdentity {
            // Same layout both sides, channels straight through: the bytes are the answer.
            for b in 0..<input.bufferCount {
                guard let src = inList[b].mData, let dst = outList[b].mData else { continue }
                (dst + outFrame * output.bytesPerFrame).copyMemory(from: src + inFrame * input.bytesPerFrame, byteCount: frames * input.bytesPerFrame)
            }
            return
        }
        if let (from, to) = directPair, input.isInterleaved, output.isInterleaved, input.channels == output.channels, mapsEveryChannelToItself {
            // Interleaved to interleaved, channel for channel: the whole buffer as one run of samples.
            guard let src = inList[0].mData, let dst = outList[0].mData else { return }
            PCMDirectKernels.convert(src + inFrame * input.bytesPerFrame, sourceStride: input.layout.containerBytes, from: from,
                                     dst + outFrame * output.bytesPerFrame, destinationStride: output.layout.containerBytes, to: to,
                                     count: frames * input.channels)
            return
        }
        if let from = widenablePair, input.isInterleaved, output.isInterleaved, input.channels == output.channels, mapsEveryChannelToItself,
           let src = inList[0].mData, let dst = outList[0].mData,
           PCMDirectKernels.widenToLowAlignedInt32(src + inFrame * input.bytesPerFrame, sourceStride: input.layout.containerBytes, from: from,
                                                   dst + outFrame * output.bytesPerFrame, destinationStride: 4,
                                                   validBits: output.layout.validBits, count: frames * input.channels) {
            // Integers widened into an encoder's low-aligned Int32 samples: a shift and a mask.
            return
        }
        if let (from, to) = directPair {
            // Each output channel straight from its source channel (or silence), no Double stage in between.
            for c in 0..<output.channels {
                guard let dst = output.samplePointer(outList, channel: c, frame: outFrame) else { continue }
                let source = Int(channelMap[c])
                guard source >= 0, let src = input.samplePointer(inList, channel: source, frame: inFrame) else {
                    for i in 0..<frames { (dst + i * output.bytesPerFrame).initializeMemory(as: UInt8.self, repeating: 0, count: output.layout.containerBytes) }
                    continue
                }
                PCMDirectKernels.convert(src, sourceStride: input.bytesPerFrame, from: from, dst, destinationStride: output.bytesPerFrame, to: to, count: frames)
            }
            return
        }
        var done = 0
        while done < frames {
            let n = min(chunk, frames - done)
            decodeAndMap(inList, frame: inFrame + done, frames: n)
            encode(mapped, stride: chunk, frames: n, into: outList, frame: outFrame + done)
            done += n
        }
    }

    // MARK: Pull model

    enum PullResult { case produced(Int), failed(Int, OSStatus) }

    /// AudioConverterFillComplexBuffer: fills up to `capacity` output frames, calling the input proc
    /// when it needs more input. Ends early when the input ends (0 packets) or the proc fails.
    func fill(_ list: UnsafeMutableAudioBufferListPointer, capacity: Int, proc: AudioConverterComplexInputDataProc,
              userData: UnsafeMutableRawPointer?) -> PullResult {
        var produced = 0
        // The direct kernels' pair when the rates differ: the resampler's Float32 straight from and to the client's layouts.
        let direct = resampler != nil ? directPair : nil
        while produced < capacity {
            if let resampler {
                if resampledFrames > 0 {
                    let n = min(resampledFrames, capacity - produced)
                    encodeResampled(frames: n, into: list, frame: produced, direct: direct)
                    resampledOffset += n
                    resampledFrames -= n
                    produced += n
                    continue
                }
                if resampler.isFinished { break }
                if pendingFrames == 0 && !inputEnded {
                    let status = pullInput(proc, userData)
                    if status != noErr { return .failed(produced, status) }
                    continue
                }
                // Feed up to a chunk of input (or the end-of-input flush) and collect what comes out.
                let n = min(pendingFrames, chunk)
                if n > 0 { decodeForResampler(inputList, frame: pendingOffset, frames: n, direct: direct) }
                let (consumed, made) = resampler.process(input: n > 0 ? UnsafePointer(floatInPointers) : nil, inputFrames: n,
                                                         endOfInput: inputEnded && n == pendingFrames,
                                                         output: UnsafePointer(floatOutPointers), outputCapacity: resampledCapacity)
                pendingOffset += consumed
                pendingFrames -= consumed
                resampledOffset = 0
                resampledFrames = made
                if consumed == 0 && made == 0 {
                    // No progress: a resampler that cannot take input or give output would spin.
                    if inputEnded { break }
                    return .failed(produced, kAudioConverterErr_UnspecifiedError)
                }
                continue
            }
            if pendingFrames == 0 {
                if inputEnded { break }
                let status = pullInput(proc, userData)
                if status != noErr { return .failed(produced, status) }
                continue
            }
            let n = min(pendingFrames, capacity - produced)
            convertDirect(from: inputList, inFrame: pendingOffset, to: list, outFrame: produced, frames: n)
            pendingOffset += n
            pendingFrames -= n
            produced += n
        }
        return .produced(produced)
    }

    /// Asks the input proc for more input; marks the end of input on 0 packets.
    private func pullInput(_ proc: AudioConverterComplexInputDataProc, _ userData: UnsafeMutableRawPointer?) -> OSStatus {
        inputList.count = input.bufferCount
        for b in 0..<input.bufferCount {
            inputList[b] = AudioBuffer(mNumberChannels: UInt32(input.isInterleaved ? input.channels : 1), mDataByteSize: 0, mData: nil)
        }
        var packets = UInt32(chunk)
        packetDescriptions.pointee = nil
        let status = proc(procHandle ?? OpaquePointer(Unmanaged.passUnretained(self).toOpaque()), &packets, inputList.unsafeMutablePointer, packetDescriptions, userData)
        guard status == noErr else { return status }
        // Trust no count beyond what the buffers hold.
        var frames = Int(packets)
        for b in 0..<min(inputList.count, input.bufferCount) {
            frames = min(frames, Int(inputList[b].mDataByteSize) / input.bytesPerFrame)
            if inputList[b].mData == nil { frames = 0 }
        }
        if inputList.count < input.bufferCount { frames = 0 }
        if frames == 0 { inputEnded = true }
        pendingFrames = frames
        pendingOffset = 0
        return noErr
    }
}
