import OCAProperty

/// AudioConverter properties, one row each (see `ObjectProperty`): a codec's own (cookies, prime info, bit
/// rate, quality, packet sizes) first, the PCM stage's rows behind them. A row answers where its `exists`
/// holds, else the next row with that ID does.
extension AudioConverterObject {
    private var encoder: PacketEncoder? { encodeStage?.encoder }

    static let propertyTable = ObjectPropertyTable<AudioConverterObject>(codecRows + pcmRows, statuses: .init(
        unsupported: kAudioConverterErr_PropertyNotSupported, badSize: kAudioConverterErr_BadPropertySizeError,
        notWritable: { _ in kAudioConverterErr_PropertyNotSupported }))

    typealias Row = ObjectProperty<AudioConverterObject>

    private static let codecRows: [Row] = [
        .value(kAudioConverterCurrentInputStreamDescription, AudioStreamBasicDescription.self, get: { $0.inputFormat }),
        .value(kAudioConverterCurrentOutputStreamDescription, AudioStreamBasicDescription.self, get: { $0.outputFormat }),
        .bytes(kAudioConverterDecompressionMagicCookie, exists: { $0.decodeStage != nil },
               get: { $0.decompressionCookie ?? [] }, set: { c, data in c.setDecompressionCookie(Array(data)) }),
        .bytes(kAudioConverterCompressionMagicCookie, exists: { $0.encoder != nil }, writable: .never,
               get: { $0.encoder?.magicCookie ?? [] }),
        .value(kAudioCodecPropertyBitRateControlMode, UInt32.self, exists: { $0.encoder?.settings != nil },
               writable: .when { !($0.encoder?.settings?.bitRateControlModes.isEmpty ?? true) },
               get: { $0.encoder!.settings!.bitRateControlMode },
               set: { c, mode in
                   guard c.encoder!.settings!.bitRateControlModes.contains(mode) else { return kAudio_ParamError }
                   c.encoder!.settings!.bitRateControlMode = mode
                   return noErr
               }),
        .value(kAudioConverterEncodeBitRate, UInt32.self, exists: { $0.encoder?.settings != nil },
               get: { $0.encoder!.settings!.bitRate }, set: { c, v in c.encoder!.settings!.bitRate = v; return noErr }),
        .value(kAudioConverterCodecQuality, UInt32.self, exists: { $0.encoder?.settings != nil },
               get: { $0.encoder!.settings!.quality }, set: { c, v in c.encoder!.settings!.quality = v; return noErr }),
        .array(kAudioConverterAvailableEncodeBitRates, AudioValueRange.self, exists: { $0.encoder?.settings != nil },
               get: { $0.encoder!.settings!.availableBitRates }),
        .array(kAudioConverterApplicableEncodeBitRates, AudioValueRange.self, exists: { $0.encoder?.settings != nil },
               get: { $0.encoder!.settings!.availableBitRates }),
        .value(kAudioConverterPrimeInfo, AudioConverterPrimeInfo.self, exists: { $0.encoder != nil }, get: { $0.encoder!.primeInfo }),
        .value(kAudioConverterPropertyMaximumInputPacketSize, UInt32.self, exists: { $0.decodeStage != nil }, get: { $0.maximumInputPacketBytes }),
        .value(kAudioConverterPropertyMinimumInputBufferSize, UInt32.self, exists: { $0.decodeStage != nil }, get: { $0.maximumInputPacketBytes }),
        .value(kAudioConverterPropertyMaximumOutputPacketSize, UInt32.self, exists: { $0.encoder != nil },
               get: { UInt32($0.encoder!.maximumPacketBytes) }),
        .value(kAudioConverterPropertyMinimumOutputBufferSize, UInt32.self, exists: { $0.encoder != nil },
               get: { UInt32($0.encoder!.maximumPacketBytes) }),
    ]

    /// The PCM stage's rows; a codec converter has no buffer-size calculation (its packets vary).
    private static let pcmRows: [Row] = PCMConverter.propertyRows.map { row in
        let calculation = row.id == kAudioConverterPropertyCalculateInputBufferSize || row.id == kAudioConverterPropertyCalculateOutputBufferSize
        return row.lifted({ $0.pcm }, exists: calculation ? { !$0.isCodec } : nil)
    }

    func propertyInfo(_ id: AudioConverterPropertyID) -> (UInt32, Bool)? {
        Self.propertyTable.info(self, id).map { ($0.size, $0.writable) }
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
        Self.propertyTable.get(self, id, ioSize, out)
    }

    func setProperty(_ id: AudioConverterPropertyID, _ size: UInt32, _ data: UnsafeRawPointer) -> OSStatus {
        let status = Self.propertyTable.set(self, id, size, data)
        // An encoder whose stream has its own channel order (Opus's Vorbis order) places the client's channels
        // by their labels, unless the client also gave the output's layout (the PCM stage then routes them).
        if status == noErr, id == kAudioConverterInputChannelLayout, let encoder, pcm.outputChannelLayout == nil,
           pcm.input.channels == pcm.output.channels {
            encoder.setInputChannelLabels(pcm.channelLabels(input: true))
        }
        return status
    }
}
