/// AudioConverter properties: a codec's own (cookies, prime info, bit rate, quality, packet sizes) on
/// the compressed side, the PCM stage's for everything else.
extension AudioConverterObject {
    private var encoder: PacketEncoder? { encodeStage?.encoder }

    /// A codec property's (size, writable), nil when the PCM stage answers.
    private func codecPropertyInfo(_ id: AudioConverterPropertyID) -> (UInt32, Bool)?? {
        switch id {
        case kAudioConverterCurrentInputStreamDescription, kAudioConverterCurrentOutputStreamDescription:
            return .some((UInt32(MemoryLayout<AudioStreamBasicDescription>.size), false))
        case kAudioConverterDecompressionMagicCookie:
            guard decodeStage != nil else { return .some(nil) }
            return .some((UInt32(decompressionCookie?.count ?? 0), true))
        case kAudioConverterCompressionMagicCookie:
            guard let encoder else { return .some(nil) }
            return .some((UInt32(encoder.magicCookie?.count ?? 0), false))
        case kAudioCodecPropertyBitRateControlMode:
            guard let settings = encoder?.settings else { return .some(nil) }
            return .some((4, !settings.bitRateControlModes.isEmpty))
        case kAudioConverterEncodeBitRate, kAudioConverterCodecQuality:
            guard encoder?.settings != nil else { return .some(nil) }
            return .some((4, true))
        case kAudioConverterAvailableEncodeBitRates, kAudioConverterApplicableEncodeBitRates:
            guard let settings = encoder?.settings else { return .some(nil) }
            return .some((UInt32(settings.availableBitRates.count * MemoryLayout<AudioValueRange>.size), false))
        case kAudioConverterPrimeInfo where encoder != nil:
            return .some((UInt32(MemoryLayout<AudioConverterPrimeInfo>.size), false))
        case kAudioConverterPropertyMaximumInputPacketSize where decodeStage != nil,
             kAudioConverterPropertyMaximumOutputPacketSize where encoder != nil,
             kAudioConverterPropertyMinimumInputBufferSize where decodeStage != nil,
             kAudioConverterPropertyMinimumOutputBufferSize where encoder != nil:
            return .some((4, false))
        case kAudioConverterPropertyCalculateInputBufferSize, kAudioConverterPropertyCalculateOutputBufferSize:
            return isCodec ? .some(nil) : nil
        default:
            return nil
        }
    }

    func propertyInfo(_ id: AudioConverterPropertyID) -> (UInt32, Bool)? {
        if let answer = codecPropertyInfo(id) { return answer }
        return pcm.propertyInfo(id)
    }

    /// The largest compressed input packet: the format's own size when constant, else a bound from the
    /// frames a packet holds (no codec here makes packets over 8 bytes a frame per channel).
    private var maximumInputPacketBytes: UInt32 {
        if inputFormat.mBytesPerPacket > 0 { return inputFormat.mBytesPerPacket }
        let frames = max(inputFormat.mFramesPerPacket, UInt32(decodeStage?.decoder.maximumFramesPerPacket ?? 4096))
        return UInt32(clamping: UInt64(frames) * UInt64(max(inputFormat.mChannelsPerFrame, 1)) * 8 + 64)
    }

    func getProperty(_ id: AudioConverterPropertyID, _ ioSize: UnsafeMutablePointer<UInt32>,
                     _ out: UnsafeMutableRawPointer) -> OSStatus {
        guard codecPropertyInfo(id) != nil else { return pcm.getProperty(id, ioSize, out) }
        guard let (size, _) = propertyInfo(id) else { return kAudioConverterErr_PropertyNotSupported }
        guard ioSize.pointee >= size else { return kAudioConverterErr_BadPropertySizeError }
        func put<T>(_ value: T) -> OSStatus {
            out.storeBytes(of: value, as: T.self)
            ioSize.pointee = UInt32(MemoryLayout<T>.size)
            return noErr
        }
        func putBytes(_ bytes: [UInt8]) -> OSStatus {
            bytes.withUnsafeBytes { if let b = $0.baseAddress { out.copyMemory(from: b, byteCount: bytes.count) } }
            ioSize.pointee = UInt32(bytes.count)
            return noErr
        }
        switch id {
        case kAudioConverterCurrentInputStreamDescription: return put(inputFormat)
        case kAudioConverterCurrentOutputStreamDescription: return put(outputFormat)
        case kAudioConverterDecompressionMagicCookie: return putBytes(decompressionCookie ?? [])
        case kAudioConverterCompressionMagicCookie: return putBytes(encoder?.magicCookie ?? [])
        case kAudioConverterEncodeBitRate: return put(encoder!.settings!.bitRate)
        case kAudioConverterCodecQuality: return put(encoder!.settings!.quality)
        case kAudioCodecPropertyBitRateControlMode: return put(encoder!.settings!.bitRateControlMode)
        case kAudioConverterAvailableEncodeBitRates, kAudioConverterApplicableEncodeBitRates:
            let ranges = encoder!.settings!.availableBitRates
            ranges.withUnsafeBytes { if let b = $0.baseAddress { out.copyMemory(from: b, byteCount: $0.count) } }
            ioSize.pointee = UInt32(ranges.count * MemoryLayout<AudioValueRange>.size)
            return noErr
        case kAudioConverterPrimeInfo: return put(encoder!.primeInfo)
        case kAudioConverterPropertyMaximumInputPacketSize, kAudioConverterPropertyMinimumInputBufferSize:
            return put(maximumInputPacketBytes)
        case kAudioConverterPropertyMaximumOutputPacketSize, kAudioConverterPropertyMinimumOutputBufferSize:
            return put(UInt32(encoder!.maximumPacketBytes))
        default:
            return kAudioConverterErr_PropertyNotSupported
        }
    }

    func setProperty(_ id: AudioConverterPropertyID, _ size: UInt32, _ data: UnsafeRawPointer) -> OSStatus {
        guard codecPropertyInfo(id) != nil else {
            let status = pcm.setProperty(id, size, data)
            // An encoder whose stream has its own channel order (Opus's Vorbis order) places the client's channels
            // by their labels, unless the client also gave the output's layout (the PCM stage then routes them).
            if status == noErr, id == kAudioConverterInputChannelLayout, let encoder, pcm.outputChannelLayout == nil,
               pcm.input.channels == pcm.output.channels {
                encoder.setInputChannelLabels(pcm.channelLabels(input: true))
            }
            return status
        }
        guard let (_, writable) = propertyInfo(id), writable else { return kAudioConverterErr_PropertyNotSupported }
        switch id {
        case kAudioConverterDecompressionMagicCookie:
            return setDecompressionCookie(Array(UnsafeRawBufferPointer(start: data, count: Int(size))))
        case kAudioConverterEncodeBitRate, kAudioConverterCodecQuality:
            guard size == 4 else { return kAudioConverterErr_BadPropertySizeError }
            let value = data.loadUnaligned(as: UInt32.self)
            if id == kAudioConverterEncodeBitRate { encoder!.settings!.bitRate = value } else { encoder!.settings!.quality = value }
            return noErr
        case kAudioCodecPropertyBitRateControlMode:
            guard size == 4 else { return kAudioConverterErr_BadPropertySizeError }
            let mode = data.loadUnaligned(as: UInt32.self)
            guard encoder!.settings!.bitRateControlModes.contains(mode) else { return kAudio_ParamError }
            encoder!.settings!.bitRateControlMode = mode
            return noErr
        default:
            return kAudioConverterErr_PropertyNotSupported
        }
    }
}
