import AudioDSP

/// AudioConverter properties for linear PCM.
extension PCMConverter {
    func propertyInfo(_ id: AudioConverterPropertyID) -> (UInt32, Bool)? {
        switch id {
        case kAudioConverterPropertyMinimumInputBufferSize, kAudioConverterPropertyMinimumOutputBufferSize,
             kAudioConverterPropertyMaximumInputPacketSize, kAudioConverterPropertyMaximumOutputPacketSize,
             kAudioConverterPropertyMaximumInputBufferSize:
            return (4, false)
        case kAudioConverterPropertyCalculateInputBufferSize, kAudioConverterPropertyCalculateOutputBufferSize:
            return (4, false)
        case kAudioConverterCurrentInputStreamDescription, kAudioConverterCurrentOutputStreamDescription:
            return (UInt32(MemoryLayout<AudioStreamBasicDescription>.size), false)
        case kAudioConverterSampleRateConverterQuality, kAudioConverterSampleRateConverterComplexity,
             kAudioConverterPrimeMethod, kAudioConverterPropertyDithering, kAudioConverterPropertyDitherBitDepth:
            return (4, true)
        case kAudioConverterPrimeInfo:
            return (UInt32(MemoryLayout<AudioConverterPrimeInfo>.size), false)
        case kAudioConverterChannelMap:
            return (UInt32(output.channels * 4), true)
        case kAudioConverterInputChannelLayout:
            return (UInt32(layoutData(input: true).count), true)
        case kAudioConverterOutputChannelLayout:
            return (UInt32(layoutData(input: false).count), true)
        case kAudioConverterPropertyPerformDownmix:
            return (4, true)
        case kAudioConverterPropertyChannelMixMap:
            return (UInt32(input.channels * output.channels * 4), true)
        default:
            return nil
        }
    }

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

    func getProperty(_ id: AudioConverterPropertyID, _ ioSize: UnsafeMutablePointer<UInt32>,
                     _ out: UnsafeMutableRawPointer) -> OSStatus {
        guard let (size, _) = propertyInfo(id) else { return kAudioConverterErr_PropertyNotSupported }
        guard ioSize.pointee >= size else { return kAudioConverterErr_BadPropertySizeError }
        func put<T>(_ value: T) -> OSStatus {
            out.storeBytes(of: value, as: T.self)
            ioSize.pointee = UInt32(MemoryLayout<T>.size)
            return noErr
        }
        let ratio = output.description.mSampleRate / input.description.mSampleRate
        switch id {
        case kAudioConverterPropertyMinimumInputBufferSize, kAudioConverterPropertyMaximumInputPacketSize,
             kAudioConverterPropertyMaximumInputBufferSize:
            return put(UInt32(input.bytesPerFrame))
        case kAudioConverterPropertyMinimumOutputBufferSize, kAudioConverterPropertyMaximumOutputPacketSize:
            return put(UInt32(output.bytesPerFrame))
        case kAudioConverterPropertyCalculateInputBufferSize:
            // In: output bytes wanted. Out: input bytes needed.
            let outFrames = Int(out.load(as: UInt32.self)) / output.bytesPerFrame
            let inFrames = sampleRatesDiffer ? Int((Double(outFrames) / ratio).rounded(.up)) : outFrames
            return put(UInt32(clamping: inFrames * input.bytesPerFrame))
        case kAudioConverterPropertyCalculateOutputBufferSize:
            let inFrames = Int(out.load(as: UInt32.self)) / input.bytesPerFrame
            let outFrames = sampleRatesDiffer ? Int((Double(inFrames) * ratio).rounded(.up)) : inFrames
            return put(UInt32(clamping: outFrames * output.bytesPerFrame))
        case kAudioConverterCurrentInputStreamDescription:
            return put(input.description)
        case kAudioConverterCurrentOutputStreamDescription:
            return put(output.description)
        case kAudioConverterSampleRateConverterQuality:
            return put(quality)
        case kAudioConverterSampleRateConverterComplexity:
            return put(complexity)
        case kAudioConverterPrimeMethod:
            return put(primeMethod)
        case kAudioConverterPrimeInfo:
            // The filter reaches taps/2 - 1 frames back and taps/2 ahead of each output instant.
            return put(AudioConverterPrimeInfo(leadingFrames: UInt32(max(latencyFrames - 1, 0)), trailingFrames: UInt32(latencyFrames)))
        case kAudioConverterPropertyDithering:
            return put(ditherAlgorithm)
        case kAudioConverterPropertyDitherBitDepth:
            return put(ditherBitDepth)
        case kAudioConverterChannelMap:
            channelMap.withUnsafeBytes { out.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            ioSize.pointee = size
            return noErr
        case kAudioConverterInputChannelLayout, kAudioConverterOutputChannelLayout:
            let data = layoutData(input: id == kAudioConverterInputChannelLayout)
            data.withUnsafeBytes { out.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            ioSize.pointee = UInt32(data.count)
            return noErr
        case kAudioConverterPropertyPerformDownmix:
            return put(UInt32(performsDownmix ? 1 : 0))
        case kAudioConverterPropertyChannelMixMap:
            // The mix in use; without one, the routing as a matrix (a channel map is a matrix of ones).
            var gains = mixGains ?? [Double](repeating: 0, count: input.channels * output.channels)
            if mixGains == nil {
                for o in 0..<output.channels {
                    if mixesToMono {
                        for c in 0..<input.channels { gains[c * output.channels + o] = 1 / Double(input.channels) }
                    } else if channelMap[o] >= 0 {
                        gains[Int(channelMap[o]) * output.channels + o] = 1
                    }
                }
            }
            for (i, g) in gains.enumerated() { out.storeBytes(of: Float32(g), toByteOffset: i * 4, as: Float32.self) }
            ioSize.pointee = size
            return noErr
        default:
            return kAudioConverterErr_PropertyNotSupported
        }
    }

    func setProperty(_ id: AudioConverterPropertyID, _ size: UInt32, _ data: UnsafeRawPointer) -> OSStatus {
        guard let (_, writable) = propertyInfo(id) else { return kAudioConverterErr_PropertyNotSupported }
        guard writable else { return kAudioConverterErr_PropertyNotSupported }
        func uint32() -> UInt32? { size == 4 ? data.loadUnaligned(as: UInt32.self) : nil }
        switch id {
        case kAudioConverterSampleRateConverterQuality:
            guard let v = uint32() else { return kAudioConverterErr_BadPropertySizeError }
            quality = min(v, kAudioConverterQuality_Max)
            rebuildResampler()
        case kAudioConverterSampleRateConverterComplexity:
            guard let v = uint32() else { return kAudioConverterErr_BadPropertySizeError }
            guard [kAudioConverterSampleRateConverterComplexity_Linear, kAudioConverterSampleRateConverterComplexity_Normal,
                   kAudioConverterSampleRateConverterComplexity_Mastering].contains(v) else {
                return kAudioConverterErr_PropertyNotSupported  // MinimumPhase is not implemented
            }
            complexity = v
            rebuildResampler()
        case kAudioConverterPrimeMethod:
            guard let v = uint32() else { return kAudioConverterErr_BadPropertySizeError }
            // Only Normal (aligned output, trailing frames synthesised at the end) is implemented.
            guard v == kConverterPrimeMethod_Normal else { return kAudioConverterErr_PropertyNotSupported }
            primeMethod = v
        case kAudioConverterPropertyDithering:
            guard let v = uint32() else { return kAudioConverterErr_BadPropertySizeError }
            guard v == 0 || v == kDitherAlgorithm_TPDF else { return kAudioConverterErr_PropertyNotSupported }
            ditherAlgorithm = v
        case kAudioConverterPropertyDitherBitDepth:
            guard let v = uint32() else { return kAudioConverterErr_BadPropertySizeError }
            ditherBitDepth = v
        case kAudioConverterChannelMap:
            guard size == UInt32(output.channels * 4) else { return kAudioConverterErr_BadPropertySizeError }
            let map = (0..<output.channels).map { data.loadUnaligned(fromByteOffset: $0 * 4, as: Int32.self) }
            return setChannelMap(map)
        case kAudioConverterInputChannelLayout, kAudioConverterOutputChannelLayout:
            guard size >= 12 else { return kAudioConverterErr_BadPropertySizeError }
            let described = Int(data.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
            guard described <= 1024, Int(size) >= 12 + 20 * described else { return kAudioConverterErr_BadPropertySizeError }
            let bytes = Data(bytes: data, count: Int(size))
            if id == kAudioConverterInputChannelLayout { inputChannelLayout = bytes } else { outputChannelLayout = bytes }
        case kAudioConverterPropertyPerformDownmix:
            guard let v = uint32() else { return kAudioConverterErr_BadPropertySizeError }
            performsDownmix = v != 0
        case kAudioConverterPropertyChannelMixMap:
            guard size == UInt32(input.channels * output.channels * 4) else { return kAudioConverterErr_BadPropertySizeError }
            let gains = (0..<input.channels * output.channels).map { Double(data.loadUnaligned(fromByteOffset: $0 * 4, as: Float32.self)) }
            guard gains.allSatisfy(\.isFinite) else { return kAudio_ParamError }
            clientMixMap = gains
        default:
            return kAudioConverterErr_PropertyNotSupported
        }
        return noErr
    }
}
