import Foundation

/// Converts between formats, PCM and compressed, with AudioConverter doing the work: sample rate, bit depth,
/// channel count, interleaving, encoding and decoding.
open class AVAudioConverter: NSObject, @unchecked Sendable {
    /// The format converted from.
    public let inputFormat: AVAudioFormat
    /// The format converted to.
    public let outputFormat: AVAudioFormat
    private let converter: AudioConverterRef
    private var reachedEnd = false

    /// A converter between the formats; nil when AudioConverter cannot convert between them.
    public init?(from fromFormat: AVAudioFormat, to toFormat: AVAudioFormat) {
        var ref: AudioConverterRef?
        var source = fromFormat.streamDescription.pointee, destination = toFormat.streamDescription.pointee
        guard AudioConverterNew(&source, &destination, &ref) == noErr, let ref else { return nil }
        converter = ref
        inputFormat = fromFormat
        outputFormat = toFormat
        super.init()
        if let cookie = fromFormat.magicCookie, fromFormat.streamDescription.pointee.mFormatID != kAudioFormatLinearPCM {
            magicCookie = cookie
        }
        if let layout = fromFormat.channelLayout { setProperty(kAudioConverterInputChannelLayout, layout.layout, size: Self.layoutSize(layout)) }
        if let layout = toFormat.channelLayout { setProperty(kAudioConverterOutputChannelLayout, layout.layout, size: Self.layoutSize(layout)) }
    }

    deinit { AudioConverterDispose(converter) }

    private static func layoutSize(_ layout: AVAudioChannelLayout) -> UInt32 {
        UInt32(AVAudioChannelLayout.size(descriptions: Int(layout.layout.pointee.mNumberChannelDescriptions)))
    }

    /// Forgets buffered data (resampler history, codec state) so the next conversion starts fresh.
    public func reset() {
        AudioConverterReset(converter)
        reachedEnd = false
    }

    // MARK: Properties

    private func setProperty(_ id: AudioConverterPropertyID, _ value: UnsafeRawPointer, size: UInt32) {
        AudioConverterSetProperty(converter, id, size, value)
    }

    private func getValue<T>(_ id: AudioConverterPropertyID, _ initial: T) -> T? {
        var value = initial
        var size = UInt32(MemoryLayout<T>.size)
        return AudioConverterGetProperty(converter, id, &size, &value) == noErr ? value : nil
    }

    private func setValue<T>(_ id: AudioConverterPropertyID, _ value: T) {
        var v = value
        AudioConverterSetProperty(converter, id, UInt32(MemoryLayout<T>.size), &v)
    }

    /// For each output channel, the input channel it takes (-1: silence).
    public var channelMap: [NSNumber] {
        get {
            var map = [Int32](repeating: 0, count: Int(outputFormat.channelCount))
            var size = UInt32(map.count * 4)
            guard AudioConverterGetProperty(converter, kAudioConverterChannelMap, &size, &map) == noErr else {
                return (0..<Int(outputFormat.channelCount)).map { NSNumber(value: $0 < Int(inputFormat.channelCount) ? $0 : -1) }
            }
            return map.map { NSNumber(value: $0) }
        }
        set {
            var map = newValue.map { Int32($0.intValue) }
            AudioConverterSetProperty(converter, kAudioConverterChannelMap, UInt32(map.count * 4), &map)
        }
    }

    /// The codec's magic cookie: the decoder's when the input is compressed, else the encoder's.
    public var magicCookie: Data? {
        get {
            let id = inputFormat.streamDescription.pointee.mFormatID != kAudioFormatLinearPCM
                ? kAudioConverterDecompressionMagicCookie : kAudioConverterCompressionMagicCookie
            var size: UInt32 = 0
            guard AudioConverterGetPropertyInfo(converter, id, &size, nil) == noErr, size > 0 else { return nil }
            var data = Data(count: Int(size))
            let status = data.withUnsafeMutableBytes { AudioConverterGetProperty(converter, id, &size, $0.baseAddress!) }
            return status == noErr ? data.prefix(Int(size)) : nil
        }
        set {
            guard let newValue else { return }
            newValue.withUnsafeBytes { raw in
                AudioConverterSetProperty(converter, kAudioConverterDecompressionMagicCookie, UInt32(raw.count), raw.baseAddress!)
            }
        }
    }

    /// Whether channels are mixed by the formats' channel layouts (ITU-R BS.775 downmix: 5.1 to stereo is
    /// L + 0.707 C + 0.707 Ls ...) instead of routed (the first channels kept, as without it).
    public var downmix: Bool {
        get { (getValue(kAudioConverterPropertyPerformDownmix, UInt32(0)) ?? 0) != 0 }
        set { setValue(kAudioConverterPropertyPerformDownmix, UInt32(newValue ? 1 : 0)) }
    }

    /// Whether integer output is dithered.
    public var dither: Bool {
        get { (getValue(kAudioConverterPropertyDithering, UInt32(0)) ?? 0) != 0 }
        set { setValue(kAudioConverterPropertyDithering, UInt32(newValue ? 1 : 0)) }
    }

    /// The sample rate converter's quality (an AVAudioQuality raw value).
    public var sampleRateConverterQuality: Int {
        get { Int(getValue(kAudioConverterSampleRateConverterQuality, UInt32(0)) ?? 0) }
        set { setValue(kAudioConverterSampleRateConverterQuality, UInt32(clamping: newValue)) }
    }

    /// The sample rate converter's algorithm (one of the AVSampleRateConverterAlgorithm_ strings).
    public var sampleRateConverterAlgorithm: String? {
        get {
            switch getValue(kAudioConverterSampleRateConverterComplexity, UInt32(0)) {
            case kAudioConverterSampleRateConverterComplexity_Mastering: AVSampleRateConverterAlgorithm_Mastering
            case kAudioConverterSampleRateConverterComplexity_MinimumPhase: AVSampleRateConverterAlgorithm_MinimumPhase
            default: AVSampleRateConverterAlgorithm_Normal
            }
        }
        set {
            let complexity = switch newValue {
            case AVSampleRateConverterAlgorithm_Mastering?: kAudioConverterSampleRateConverterComplexity_Mastering
            case AVSampleRateConverterAlgorithm_MinimumPhase?: kAudioConverterSampleRateConverterComplexity_MinimumPhase
            default: kAudioConverterSampleRateConverterComplexity_Normal
            }
            setValue(kAudioConverterSampleRateConverterComplexity, complexity)
        }
    }

    /// How priming frames are handled.
    public var primeMethod: AVAudioConverterPrimeMethod {
        get { AVAudioConverterPrimeMethod(rawValue: Int(getValue(kAudioConverterPrimeMethod, UInt32(1)) ?? 1)) ?? .normal }
        set { setValue(kAudioConverterPrimeMethod, UInt32(newValue.rawValue)) }
    }

    /// The priming frames before and after the data.
    public var primeInfo: AVAudioConverterPrimeInfo {
        get {
            let info = getValue(kAudioConverterPrimeInfo, AudioConverterPrimeInfo()) ?? AudioConverterPrimeInfo()
            return AVAudioConverterPrimeInfo(leadingFrames: info.leadingFrames, trailingFrames: info.trailingFrames)
        }
        set { setValue(kAudioConverterPrimeInfo, AudioConverterPrimeInfo(leadingFrames: newValue.leadingFrames, trailingFrames: newValue.trailingFrames)) }
    }

    /// The encoder's bit rate in bits per second.
    public var bitRate: Int {
        get { Int(getValue(kAudioConverterEncodeBitRate, UInt32(0)) ?? 0) }
        set { setValue(kAudioConverterEncodeBitRate, UInt32(clamping: newValue)) }
    }

    /// The encoder's bit rate strategy (one of the AVAudioBitRateStrategy_ strings).
    public var bitRateStrategy: String? {
        get {
            switch getValue(kAudioCodecPropertyBitRateControlMode, UInt32(0)) {
            case kAudioCodecBitRateControlMode_Constant?: AVAudioBitRateStrategy_Constant
            case kAudioCodecBitRateControlMode_LongTermAverage?: AVAudioBitRateStrategy_LongTermAverage
            case kAudioCodecBitRateControlMode_VariableConstrained?: AVAudioBitRateStrategy_VariableConstrained
            case kAudioCodecBitRateControlMode_Variable?: AVAudioBitRateStrategy_Variable
            default: nil
            }
        }
        set {
            let mode: UInt32? = switch newValue {
            case AVAudioBitRateStrategy_Constant?: kAudioCodecBitRateControlMode_Constant
            case AVAudioBitRateStrategy_LongTermAverage?: kAudioCodecBitRateControlMode_LongTermAverage
            case AVAudioBitRateStrategy_VariableConstrained?: kAudioCodecBitRateControlMode_VariableConstrained
            case AVAudioBitRateStrategy_Variable?: kAudioCodecBitRateControlMode_Variable
            default: nil
            }
            if let mode { setValue(kAudioCodecPropertyBitRateControlMode, mode) }
        }
    }

    /// The largest packet the converter can produce, in bytes.
    public var maximumOutputPacketSize: Int {
        Int(getValue(kAudioConverterPropertyMaximumOutputPacketSize, UInt32(0)) ?? outputFormat.streamDescription.pointee.mBytesPerPacket)
    }

    private func ranges(_ id: AudioConverterPropertyID) -> [NSNumber]? {
        var size: UInt32 = 0
        guard AudioConverterGetPropertyInfo(converter, id, &size, nil) == noErr, size > 0 else { return nil }
        var values = [AudioValueRange](repeating: AudioValueRange(), count: Int(size) / MemoryLayout<AudioValueRange>.size)
        guard AudioConverterGetProperty(converter, id, &size, &values) == noErr else { return nil }
        return values.prefix(Int(size) / MemoryLayout<AudioValueRange>.size).map { NSNumber(value: $0.mMaximum) }
    }

    /// Every bit rate the encoder offers.
    public var availableEncodeBitRates: [NSNumber]? { ranges(kAudioConverterAvailableEncodeBitRates) }
    /// The bit rates the encoder offers for these formats.
    public var applicableEncodeBitRates: [NSNumber]? { ranges(kAudioConverterApplicableEncodeBitRates) }
    /// Every sample rate the encoder offers.
    public var availableEncodeSampleRates: [NSNumber]? { ranges(kAudioConverterAvailableEncodeSampleRates) }
    /// The sample rates the encoder offers for these formats.
    public var applicableEncodeSampleRates: [NSNumber]? { ranges(kAudioConverterApplicableEncodeSampleRates) }
    /// The channel layout tags the encoder offers.
    public var availableEncodeChannelLayoutTags: [NSNumber]? {
        var size: UInt32 = 0
        guard AudioConverterGetPropertyInfo(converter, kAudioConverterAvailableEncodeChannelLayoutTags, &size, nil) == noErr, size > 0 else { return nil }
        var tags = [AudioChannelLayoutTag](repeating: 0, count: Int(size) / 4)
        guard AudioConverterGetProperty(converter, kAudioConverterAvailableEncodeChannelLayoutTags, &size, &tags) == noErr else { return nil }
        return tags.map { NSNumber(value: $0) }
    }

    // MARK: Converting

    /// Converts one PCM buffer into another with the same sample rate (use the block form for rate changes).
    public func convert(to outputBuffer: AVAudioPCMBuffer, from inputBuffer: AVAudioPCMBuffer) throws {
        guard inputBuffer.format.isEqual(inputFormat), outputBuffer.format.isEqual(outputFormat),
              inputFormat.sampleRate == outputFormat.sampleRate, outputBuffer.frameCapacity >= inputBuffer.frameLength
        else { throw AVAudioError.make(kAudio_ParamError) }
        var supplied = false
        var error: NSError?
        let status = convert(to: outputBuffer, error: &error) { _, outStatus in
            if supplied {
                outStatus.pointee = .noDataNow
                return nil
            }
            supplied = true
            outStatus.pointee = .haveData
            return inputBuffer
        }
        if status == .error { throw error ?? AVAudioError.make(kAudio_ParamError) }
    }

    /// Fills `outputBuffer` (PCM frames, or compressed packets), asking `inputBlock` for input as needed.
    public func convert(to outputBuffer: AVAudioBuffer, error outError: NSErrorPointer,
                        withInputFrom inputBlock: @escaping AVAudioConverterInputBlock) -> AVAudioConverterOutputStatus {
        let pcm = outputBuffer as? AVAudioPCMBuffer
        let compressed = outputBuffer as? AVAudioCompressedBuffer
        guard outputBuffer.format.isEqual(outputFormat), pcm != nil || compressed != nil else {
            outError?.pointee = AVAudioError.make(kAudio_ParamError)
            return .error
        }
        if reachedEnd {
            pcm?.frameLength = 0
            compressed?.packetCount = 0
            compressed?.byteLength = 0
            return .endOfStream
        }
        var capacity: UInt32
        let list = UnsafeMutableAudioBufferListPointer(outputBuffer.mutableAudioBufferList)
        if let pcm {
            capacity = pcm.frameCapacity
            pcm.frameLength = capacity
        } else {
            capacity = compressed!.packetCapacity
            compressed!.byteLength = compressed!.byteCapacity
        }
        let context = InputContext(block: inputBlock, format: inputFormat)
        let status = withExtendedLifetime(context) {
            AudioConverterFillComplexBuffer(converter, { _, ioPackets, ioData, outDescriptions, userData in
                let context = Unmanaged<InputContext>.fromOpaque(userData!).takeUnretainedValue()
                return context.supply(ioPackets, ioData, outDescriptions)
            }, Unmanaged.passUnretained(context).toOpaque(), &capacity, list.unsafeMutablePointer, compressed?.packetDescriptions)
        }
        if let pcm {
            pcm.frameLength = capacity
        } else if let compressed {
            compressed.packetCount = capacity
            if let descriptions = compressed.packetDescriptions, capacity > 0 {
                let last = descriptions[Int(capacity) - 1]
                compressed.byteLength = UInt32(last.mStartOffset) + last.mDataByteSize
            } else if capacity == 0 {
                compressed.byteLength = 0
            }
        }
        if status != noErr && status != InputContext.noDataNow {
            outError?.pointee = AVAudioError.make(status)
            return .error
        }
        if status == InputContext.noDataNow { return .inputRanDry }
        if capacity == 0 {
            // Nothing came out without the block running dry: the input has ended (now or on an earlier call).
            reachedEnd = true
            return .endOfStream
        }
        return .haveData
    }

    /// Hands the input block's buffers to AudioConverter's input callback.
    private final class InputContext {
        /// Returned to AudioConverter to stop a fill when the block has no data now.
        static let noDataNow: OSStatus = 0x6E6F_6461  // 'noda'
        let block: AVAudioConverterInputBlock
        let format: AVAudioFormat
        var current: AVAudioBuffer?
        var ended = false

        init(block: @escaping AVAudioConverterInputBlock, format: AVAudioFormat) {
            self.block = block
            self.format = format
        }

        func supply(_ ioPackets: UnsafeMutablePointer<UInt32>, _ ioData: UnsafeMutablePointer<AudioBufferList>,
                    _ outDescriptions: UnsafeMutablePointer<UnsafeMutablePointer<AudioStreamPacketDescription>?>?) -> OSStatus {
            if ended {
                ioPackets.pointee = 0
                return noErr
            }
            var status = AVAudioConverterInputStatus.haveData
            let buffer = block(ioPackets.pointee, &status)
            current = buffer
            switch status {
            case .noDataNow:
                ioPackets.pointee = 0
                return Self.noDataNow
            case .endOfStream:
                ended = true
                ioPackets.pointee = 0
                return noErr
            case .haveData:
                break
            }
            let out = UnsafeMutableAudioBufferListPointer(ioData)
            if let pcm = buffer as? AVAudioPCMBuffer {
                let source = UnsafeMutableAudioBufferListPointer(pcm.mutableAudioBufferList)
                guard source.count == out.count else { return kAudio_ParamError }
                for i in 0..<out.count { out[i] = source[i] }
                ioPackets.pointee = pcm.frameLength
                if pcm.frameLength == 0 { ended = true }
            } else if let compressed = buffer as? AVAudioCompressedBuffer {
                out[0] = AudioBuffer(mNumberChannels: format.channelCount, mDataByteSize: compressed.byteLength, mData: compressed.data)
                ioPackets.pointee = compressed.packetCount
                outDescriptions?.pointee = compressed.packetDescriptions
                if compressed.packetCount == 0 { ended = true }
            } else {
                ended = true
                ioPackets.pointee = 0
            }
            return noErr
        }
    }
}
