/// What an `AudioConverterRef` points at: a PCM stage, with a decoder in front of it when the input is
/// compressed or an encoder behind it when the output is. Linear PCM to linear PCM is the PCM stage
/// alone. Codecs come from the CodecRegistry; compressed to compressed goes through PCM.
final class AudioConverterObject: @unchecked Sendable {
    static let handles = LiveHandleTable()

    let inputFormat: AudioStreamBasicDescription
    let outputFormat: AudioStreamBasicDescription
    /// Rebuilt when a magic cookie changes the decoder's PCM.
    private(set) var pcm: PCMConverter
    private(set) var decodeStage: DecodeStage?
    let encodeStage: EncodeStage?
    /// The cookies a client gave (DecompressionMagicCookie), or the encoder's.
    private(set) var decompressionCookie: [UInt8]?

    var handle: AudioConverterRef { OpaquePointer(Unmanaged.passUnretained(self).toOpaque()) }
    var isCodec: Bool { decodeStage != nil || encodeStage != nil }

    private init(input: AudioStreamBasicDescription, output: AudioStreamBasicDescription, pcm: PCMConverter,
                 decode: DecodeStage?, encode: EncodeStage?, cookie: [UInt8]?) {
        inputFormat = input
        outputFormat = output
        self.pcm = pcm
        decodeStage = decode
        encodeStage = encode
        decompressionCookie = cookie
        pcm.procHandle = handle
        decode?.clientHandle = handle
    }

    /// A converter between two formats, or Apple's status for why there is none: the rates are checked
    /// first, then whether a codec exists for the compressed side (kAudioConverterErr_FormatNotSupported).
    static func make(input: AudioStreamBasicDescription, output: AudioStreamBasicDescription,
                     cookie: [UInt8]? = nil) -> Result<AudioConverterObject, OSStatusError> {
        let rates = PCMConverter.checkRates(input: input.mSampleRate, output: output.mSampleRate)
        if rates != noErr { return .failure(OSStatusError(rates)) }
        let inPCM = input.mFormatID == kAudioFormatLinearPCM, outPCM = output.mFormatID == kAudioFormatLinearPCM
        if inPCM && outPCM {
            guard let i = PCMFormat(input), let o = PCMFormat(output) else { return .failure(OSStatusError(kAudioConverterErr_FormatNotSupported)) }
            return .success(AudioConverterObject(input: input, output: output, pcm: PCMConverter(input: i, output: o),
                                                 decode: nil, encode: nil, cookie: nil))
        }
        // One side linear PCM: compressed to compressed is two converters in Apple's too.
        guard inPCM != outPCM else { return .failure(OSStatusError(kAudioConverterErr_FormatNotSupported)) }
        if !inPCM {
            guard let entry = CodecRegistry.entry(input.mFormatID), let makeDecoder = entry.makeDecoder,
                  let o = PCMFormat(output), let complete = entry.completeFormat(input, cookie) else {
                return .failure(OSStatusError(kAudioConverterErr_FormatNotSupported))
            }
            let decoder: PacketDecoder
            do throws(OSStatusError) { decoder = try makeDecoder(complete, cookie) } catch { return .failure(error) }
            guard let stage = DecodeStage(format: complete, decoder: decoder),
                  PCMConverter.checkRates(stage.pcm, o) == noErr else { return .failure(OSStatusError(kAudioConverterErr_FormatNotSupported)) }
            return .success(AudioConverterObject(input: complete, output: output, pcm: PCMConverter(input: stage.pcm, output: o),
                                                 decode: stage, encode: nil, cookie: cookie))
        }
        guard let entry = CodecRegistry.entry(output.mFormatID), let makeEncoder = entry.makeEncoder,
              let i = PCMFormat(input), var complete = entry.completeFormat(output, nil) else {
            return .failure(OSStatusError(kAudioConverterErr_FormatNotSupported))
        }
        if complete.mSampleRate == 0 { complete.mSampleRate = input.mSampleRate }
        if complete.mChannelsPerFrame == 0 { complete.mChannelsPerFrame = input.mChannelsPerFrame }
        if !entry.encodeSampleRates.isEmpty && !entry.encodeSampleRates.contains(complete.mSampleRate) {
            return .failure(OSStatusError(kAudioConverterErr_OutputSampleRateOutOfRange))
        }
        guard complete.mChannelsPerFrame <= entry.maximumEncodeChannels else {
            return .failure(OSStatusError(kAudioConverterErr_FormatNotSupported))
        }
        let encoder: PacketEncoder
        do throws(OSStatusError) { encoder = try makeEncoder(complete, input) } catch { return .failure(error) }
        guard let stage = EncodeStage(format: encoder.format, encoder: encoder),
              PCMConverter.checkRates(i, stage.pcm) == noErr else { return .failure(OSStatusError(kAudioConverterErr_FormatNotSupported)) }
        return .success(AudioConverterObject(input: input, output: encoder.format, pcm: PCMConverter(input: i, output: stage.pcm),
                                             decode: nil, encode: stage, cookie: nil))
    }

    /// A decoding converter whose output is the codec's own PCM (no sample conversion after the decoder):
    /// what a reader that converts later (ExtAudioFile) wants.
    static func makeNativeDecoder(input: AudioStreamBasicDescription, cookie: [UInt8]?) -> Result<AudioConverterObject, OSStatusError> {
        guard let entry = CodecRegistry.entry(input.mFormatID), let makeDecoder = entry.makeDecoder,
              let complete = entry.completeFormat(input, cookie) else { return .failure(OSStatusError(kAudioConverterErr_FormatNotSupported)) }
        let decoder: PacketDecoder
        do throws(OSStatusError) { decoder = try makeDecoder(complete, cookie) } catch { return .failure(error) }
        return make(input: complete, output: decoder.pcmFormat, cookie: cookie)
    }

    func reset() {
        pcm.reset()
        decodeStage?.reset()
        encodeStage?.reset()
    }

    /// AudioConverterFillComplexBuffer: `capacity` is in output packets (frames for PCM output).
    func fill(_ list: UnsafeMutableAudioBufferListPointer, capacity: Int,
              descriptions: UnsafeMutablePointer<AudioStreamPacketDescription>?,
              proc: AudioConverterComplexInputDataProc, userData: UnsafeMutableRawPointer?) -> (Int, OSStatus) {
        if let encodeStage {
            return encodeStage.fill(list, packetCapacity: capacity, descriptions: descriptions, pcmStage: pcm, proc: proc, userData: userData)
        }
        let result: PCMConverter.PullResult
        if let decodeStage {
            decodeStage.clientProc = proc
            decodeStage.clientUserData = userData
            defer { decodeStage.clientProc = nil; decodeStage.clientUserData = nil }
            result = pcm.fill(list, capacity: capacity, proc: DecodeStage.pcmProc, userData: Unmanaged.passUnretained(decodeStage).toOpaque())
        } else {
            result = pcm.fill(list, capacity: capacity, proc: proc, userData: userData)
        }
        switch result {
        case .produced(let n): return (n, noErr)
        case .failed(let n, let status): return (n, status)
        }
    }

    /// kAudioConverterDecompressionMagicCookie: hands the cookie to the decoder and, if it now makes
    /// different PCM, rebuilds the PCM stage for it (keeping the PCM settings a client made).
    func setDecompressionCookie(_ bytes: [UInt8]) -> OSStatus {
        guard let decodeStage else { return kAudioConverterErr_PropertyNotSupported }
        do throws(OSStatusError) { try decodeStage.decoder.setMagicCookie(bytes) } catch { return error.status }
        decompressionCookie = bytes
        if !decodeStage.decoder.pcmFormat.isBitwiseEqual(to: decodeStage.pcm.description) {
            guard let stage = DecodeStage(format: decodeStage.format, decoder: decodeStage.decoder) else {
                return kAudioConverterErr_FormatNotSupported
            }
            stage.clientHandle = handle
            self.decodeStage = stage
            let rebuilt = PCMConverter(input: stage.pcm, output: pcm.output)
            rebuilt.procHandle = handle
            rebuilt.copySettings(from: pcm)
            pcm = rebuilt
        }
        reset()
        return noErr
    }
}
