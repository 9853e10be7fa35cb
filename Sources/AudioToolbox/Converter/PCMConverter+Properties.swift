import OCAProperty
import AudioDSP

/// AudioConverter properties for linear PCM, one row each (see `ObjectProperty`). The converter object
/// answers from these rows, behind its codec's own (AudioConverterObject+Properties.swift).
extension PCMConverter {
    typealias Row = ObjectProperty<PCMConverter>

    static let propertyRows: [Row] = [
        .value(kAudioConverterPropertyMinimumInputBufferSize, UInt32.self, get: { UInt32($0.input.bytesPerFrame) }),
        .value(kAudioConverterPropertyMaximumInputPacketSize, UInt32.self, get: { UInt32($0.input.bytesPerFrame) }),
        .value(kAudioConverterPropertyMaximumInputBufferSize, UInt32.self, get: { UInt32($0.input.bytesPerFrame) }),
        .value(kAudioConverterPropertyMinimumOutputBufferSize, UInt32.self, get: { UInt32($0.output.bytesPerFrame) }),
        .value(kAudioConverterPropertyMaximumOutputPacketSize, UInt32.self, get: { UInt32($0.output.bytesPerFrame) }),
        // In: output bytes wanted. Out: input bytes needed.
        .translation(kAudioConverterPropertyCalculateInputBufferSize, UInt32.self) { c, bytes in
            let outFrames = Int(bytes) / c.output.bytesPerFrame
            let inFrames = c.sampleRatesDiffer ? Int((Double(outFrames) / c.rateRatio).rounded(.up)) : outFrames
            bytes = UInt32(clamping: inFrames * c.input.bytesPerFrame)
            return noErr
        },
        .translation(kAudioConverterPropertyCalculateOutputBufferSize, UInt32.self) { c, bytes in
            let inFrames = Int(bytes) / c.input.bytesPerFrame
            let outFrames = c.sampleRatesDiffer ? Int((Double(inFrames) * c.rateRatio).rounded(.up)) : inFrames
            bytes = UInt32(clamping: outFrames * c.output.bytesPerFrame)
            return noErr
        },
        .value(kAudioConverterCurrentInputStreamDescription, AudioStreamBasicDescription.self, get: { $0.input.description }),
        .value(kAudioConverterCurrentOutputStreamDescription, AudioStreamBasicDescription.self, get: { $0.output.description }),
        .value(kAudioConverterSampleRateConverterQuality, UInt32.self, get: { $0.quality }, set: { c, v in
            c.quality = min(v, kAudioConverterQuality_Max)
            c.rebuildResampler()
            return noErr
        }),
        .value(kAudioConverterSampleRateConverterComplexity, UInt32.self, get: { $0.complexity }, set: { c, v in
            guard [kAudioConverterSampleRateConverterComplexity_Linear, kAudioConverterSampleRateConverterComplexity_Normal,
                   kAudioConverterSampleRateConverterComplexity_Mastering].contains(v) else {
                return kAudioConverterErr_PropertyNotSupported  // MinimumPhase is not implemented
            }
            c.complexity = v
            c.rebuildResampler()
            return noErr
        }),
        // Only Normal (aligned output, trailing frames synthesised at the end) is implemented.
        .value(kAudioConverterPrimeMethod, UInt32.self, get: { $0.primeMethod }, set: { c, v in
            guard v == kConverterPrimeMethod_Normal else { return kAudioConverterErr_PropertyNotSupported }
            c.primeMethod = v
            return noErr
        }),
        .value(kAudioConverterPropertyDithering, UInt32.self, get: { $0.ditherAlgorithm }, set: { c, v in
            guard v == 0 || v == kDitherAlgorithm_TPDF else { return kAudioConverterErr_PropertyNotSupported }
            c.ditherAlgorithm = v
            return noErr
        }),
        .value(kAudioConverterPropertyDitherBitDepth, UInt32.self, get: { $0.ditherBitDepth }, set: { c, v in
            c.ditherBitDepth = v
            return noErr
        }),
        // The filter reaches taps/2 - 1 frames back and taps/2 ahead of each output instant.
        .value(kAudioConverterPrimeInfo, AudioConverterPrimeInfo.self, get: {
            AudioConverterPrimeInfo(leadingFrames: UInt32(max($0.latencyFrames - 1, 0)), trailingFrames: UInt32($0.latencyFrames))
        }),
        .bytes(kAudioConverterChannelMap, setSize: .current, size: { UInt32($0.output.channels * 4) },
               get: { $0.channelMap.withUnsafeBytes { Array($0) } },
               set: { c, data in c.setChannelMap((0..<c.output.channels).map { data.loadUnaligned(fromByteOffset: $0 * 4, as: Int32.self) }) }),
        .bytes(kAudioConverterInputChannelLayout, setSize: .atLeast(12),
               get: { Array($0.layoutData(input: true)) }, set: { c, data in c.setChannelLayout(data, input: true) }),
        .bytes(kAudioConverterOutputChannelLayout, setSize: .atLeast(12),
               get: { Array($0.layoutData(input: false)) }, set: { c, data in c.setChannelLayout(data, input: false) }),
        .value(kAudioConverterPropertyPerformDownmix, UInt32.self, get: { $0.performsDownmix ? 1 : 0 }, set: { c, v in
            c.performsDownmix = v != 0
            return noErr
        }),
        .bytes(kAudioConverterPropertyChannelMixMap, setSize: .current, size: { UInt32($0.input.channels * $0.output.channels * 4) },
               get: { $0.channelMixMap.map(Float32.init).withUnsafeBytes { Array($0) } },
               set: { c, data in
                   let gains = (0..<data.count / 4).map { Double(data.loadUnaligned(fromByteOffset: $0 * 4, as: Float32.self)) }
                   guard gains.allSatisfy(\.isFinite) else { return kAudio_ParamError }
                   c.clientMixMap = gains
                   return noErr
               }),
    ]

    /// The stored channel layout, or a plain one for the channel count (mono, stereo, discrete).
    func layoutData(input isInput: Bool) -> Data {
        if let stored = isInput ? inputChannelLayout : outputChannelLayout { return stored }
        let channels = isInput ? input.channels : output.channels
        var layout = AudioChannelLayout()
        switch channels {
        case 1: layout.mChannelLayoutTag = kAudioChannelLayoutTag_Mono
        case 2: layout.mChannelLayoutTag = kAudioChannelLayoutTag_Stereo
        default: layout.mChannelLayoutTag = kAudioChannelLayoutTag_DiscreteInOrder | UInt32(channels)
        }
        return withUnsafeBytes(of: &layout) { Data($0.prefix(12)) }
    }

    private var rateRatio: Double { output.description.mSampleRate / input.description.mSampleRate }

    /// The mix in use; without one, the routing as a matrix (a channel map is a matrix of ones).
    private var channelMixMap: [Double] {
        if let mixGains { return mixGains }
        var gains = [Double](repeating: 0, count: input.channels * output.channels)
        for o in 0..<output.channels {
            if mixesToMono {
                for c in 0..<input.channels { gains[c * output.channels + o] = 1 / Double(input.channels) }
            } else if channelMap[o] >= 0 {
                gains[Int(channelMap[o]) * output.channels + o] = 1
            }
        }
        return gains
    }

    private func setChannelLayout(_ data: UnsafeRawBufferPointer, input isInput: Bool) -> OSStatus {
        let described = Int(data.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
        guard described <= 1024, data.count >= 12 + 20 * described else { return kAudioConverterErr_BadPropertySizeError }
        let bytes = Data(data)
        if isInput { inputChannelLayout = bytes } else { outputChannelLayout = bytes }
        return noErr
    }
}
