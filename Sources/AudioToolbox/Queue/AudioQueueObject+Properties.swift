import AudioDSP
import OCAProperty
import COCASupport
import Foundation

/// The queue's properties and parameters. The properties are one table of `ObjectProperty` rows, as AudioFile's,
/// ExtAudioFile's and AudioConverter's are: Info's size is what Get writes, and a set is checked against the row.
extension AudioQueueObject {
    typealias Property = ObjectProperty<AudioQueueObject>

    static let propertyTable = ObjectPropertyTable<AudioQueueObject>(propertyRows, statuses: .init(
        unsupported: kAudioQueueErr_InvalidProperty, badSize: kAudioQueueErr_InvalidPropertySize,
        notWritable: { _ in kAudioQueueErr_InvalidProperty }))

    /// A UInt32 flag (0 or not) as Apple's queue properties carry them.
    private static func flag(_ id: AudioQueuePropertyID, _ get: @escaping (AudioQueueObject) -> Bool,
                             set: ((AudioQueueObject, Bool) -> OSStatus)? = nil) -> Property {
        .value(id, UInt32.self, exactSize: false, get: { get($0) ? 1 : 0 }, set: set.map { set in { q, v in set(q, v != 0) } })
    }

    /// A UInt32 setting of a compressed input queue's encoder, as AudioConverter takes it: present with a codec that
    /// has settings (kAudioQueueErr_InvalidProperty otherwise), set only while the queue is stopped.
    private static func encoderSetting(_ id: AudioQueuePropertyID, _ get: @escaping (CodecSettings) -> UInt32,
                                       set: @escaping (CodecSettings, UInt32) -> OSStatus) -> Property {
        .value(id, UInt32.self, exists: { $0.encoding?.encoder.settings != nil }, exactSize: false,
               get: { q in get(q.encoding!.encoder.settings!) },
               set: { q, v in
                   guard q.runState == .stopped else { return kAudioQueueErr_InvalidRunState }
                   return set(q.encoding!.encoder.settings!, v)
               })
    }

    private static let propertyRows: [Property] = [
        flag(kAudioQueueProperty_IsRunning, { $0.isRunningFlag != 0 }),
        .value(kAudioQueueDeviceProperty_SampleRate, Float64.self, get: { $0.deviceFormat()?.mSampleRate ?? 0 }),
        .value(kAudioQueueDeviceProperty_NumberChannels, UInt32.self, get: { $0.deviceFormat()?.mChannelsPerFrame ?? 0 }),
        .value(kAudioQueueProperty_StreamDescription, AudioStreamBasicDescription.self, get: { $0.format }),
        .value(kAudioConverterCurrentOutputStreamDescription, AudioStreamBasicDescription.self, get: { $0.format }),
        .value(kAudioConverterCurrentInputStreamDescription, AudioStreamBasicDescription.self, get: { $0.format }),
        // Linear PCM: a packet is a frame.
        .value(kAudioQueueProperty_MaximumOutputPacketSize, UInt32.self,
               get: { UInt32($0.encoding?.encoder.maximumPacketBytes ?? $0.pcm.bytesPerFrame) }),
        .bytes(kAudioQueueProperty_MagicCookie, get: { $0.magicCookie }, set: { q, raw in
            q.magicCookie = Array(raw)
            return noErr
        }),
        // The encoder's cookie when recording a compressed format; linear PCM has none (an empty value, as the
        // book's recorder tolerates).
        .bytes(kAudioConverterCompressionMagicCookie, writable: .never, get: { $0.encoding?.encoder.magicCookie ?? [] }),
        // A compressed input queue's bit rate and quality, which its encoder takes as an AudioConverter would.
        encoderSetting(kAudioConverterEncodeBitRate, { $0.bitRate }, set: { s, v in
            guard s.availableBitRates.contains(where: { Double(v) >= $0.mMinimum && Double(v) <= $0.mMaximum }) else {
                return kAudioQueueErr_InvalidPropertyValue
            }
            s.bitRate = v
            return noErr
        }),
        encoderSetting(kAudioCodecPropertyBitRateControlMode, { $0.bitRateControlMode }, set: { s, v in
            guard s.bitRateControlModes.contains(v) else { return kAudioQueueErr_InvalidPropertyValue }
            s.bitRateControlMode = v
            return noErr
        }),
        encoderSetting(kAudioConverterCodecQuality, { $0.quality }, set: { s, v in
            guard v <= kAudioConverterQuality_Max else { return kAudioQueueErr_InvalidPropertyValue }
            s.quality = v
            return noErr
        }),
        .bytes(kAudioQueueProperty_ChannelLayout, get: { $0.channelLayout }, set: { q, raw in
            q.channelLayout = Array(raw)
            return noErr
        }),
        flag(kAudioQueueProperty_EnableLevelMetering, { $0.meteringEnabled }, set: { q, on in
            q.meteringEnabled = on
            if on { for i in 0..<(2 * q.pcm.channels) { oca_atomic_store_u32(q.meters + i, 0) } }
            q.meteringOn.store(on, ordering: .releasing)
            return noErr
        }),
        // One AudioQueueLevelMeterState per channel while metering is on; a smaller buffer takes the first channels.
        .array(kAudioQueueProperty_CurrentLevelMeter, AudioQueueLevelMeterState.self, get: { $0.meterStates(decibels: false) })
            .available { $0.meteringEnabled ? noErr : kAudioQueueErr_InvalidPropertyValue }.truncating(),
        .array(kAudioQueueProperty_CurrentLevelMeterDB, AudioQueueLevelMeterState.self, get: { $0.meterStates(decibels: true) })
            .available { $0.meteringEnabled ? noErr : kAudioQueueErr_InvalidPropertyValue }.truncating(),
        .value(kAudioQueueProperty_DecodeBufferSizeFrames, UInt32.self, exactSize: false, get: { $0.decodeBufferSizeFrames }, set: { q, v in
            guard v > 0 else { return kAudioQueueErr_InvalidPropertyValue }
            q.decodeBufferSizeFrames = v
            return noErr
        }),
        .value(kAudioQueueProperty_ConverterError, OSStatus.self, get: { _ in noErr }),
        flag(kAudioQueueProperty_EnableTimePitch, { $0.timePitchEnabled }, set: { q, on in
            guard q.runState == .stopped else { return kAudioQueueErr_InvalidRunState }
            q.timePitchEnabled = on
            return noErr
        }),
        .value(kAudioQueueProperty_TimePitchAlgorithm, UInt32.self, exactSize: false, get: { $0.timePitchAlgorithm }, set: { q, v in
            let known = [kAudioQueueTimePitchAlgorithm_Spectral, kAudioQueueTimePitchAlgorithm_TimeDomain,
                         kAudioQueueTimePitchAlgorithm_Varispeed, kAudioQueueTimePitchAlgorithm_LowQualityZeroLatency]
            guard known.contains(v) else { return kAudioQueueErr_InvalidPropertyValue }
            q.timePitchAlgorithm = v
            return noErr
        }),
        flag(kAudioQueueProperty_TimePitchBypass, { $0.timePitchBypass }, set: { q, on in q.timePitchBypass = on; return noErr }),
        .value(kAudioQueueProperty_HardwareCodecPolicy, UInt32.self, exactSize: false,
               get: { _ in UInt32(kAudioQueueHardwareCodecPolicy_Default) }, set: { _, v in
                   v <= kAudioQueueHardwareCodecPolicy_PreferHardware ? noErr : kAudioQueueErr_InvalidPropertyValue
               }),
        // Write-only, as Apple's.
        Property(kAudioQueueProperty_ChannelAssignments, writable: .always, size: { _ in 0 }, read: { _, _, _ in noErr },
                 write: { q, raw in q.setChannelAssignments(raw) })
            .available { _ in kAudioQueueErr_InvalidProperty },
        // The device's UID (a CFString handed out +1); NULL goes back to the default device.
        .object(kAudioQueueProperty_CurrentDevice, get: { $0.currentDeviceUID()! as CFString }, set: { q, object in
            guard q.runState == .stopped else { return kAudioQueueErr_InvalidRunState }
            if let object {
                let uid = Unmanaged<CFString>.fromOpaque(Unmanaged.passUnretained(object).toOpaque()).takeUnretainedValue() as String
                guard AudioQueueObject.device(forUID: uid) != nil else { return kAudioQueueErr_InvalidDevice }
                q.deviceUID = uid
            } else {
                q.deviceUID = nil
            }
            q.channelRoute = nil
            if let u = q.unit { AudioComponentInstanceDispose(u) }
            q.unit = nil
            q.ioUnit = nil
            return noErr
        })
            .available { $0.currentDeviceUID() == nil ? kAudioQueueErr_InvalidDevice : noErr },
    ]

    /// The UID of the device the queue uses.
    func currentDeviceUID() -> String? {
        if let deviceUID { return deviceUID }
        guard let id = deviceID() else { return nil }
        var address = AudioObjectPropertyAddress(mSelector: kAudioDevicePropertyDeviceUID, mScope: kAudioObjectPropertyScopeGlobal,
                                                 mElement: kAudioObjectPropertyElementMain)
        var uid: Unmanaged<CFString>?
        var size = UInt32(MemoryLayout<Unmanaged<CFString>?>.size)
        guard AudioObjectGetPropertyData(id, &address, 0, nil, &size, &uid) == noErr, let uid else { return nil }
        return uid.takeRetainedValue() as String
    }

    /// CurrentLevelMeter(DB): one AudioQueueLevelMeterState per channel, from the last slice.
    func meterStates(decibels: Bool) -> [AudioQueueLevelMeterState] {
        (0..<pcm.channels).map { c in
            let peak = Float(bitPattern: oca_atomic_load_u32(meters + 2 * c))
            let rms = Float(bitPattern: oca_atomic_load_u32(meters + 2 * c + 1))
            return decibels ? AudioQueueLevelMeterState(mAveragePower: Self.decibels(rms), mPeakPower: Self.decibels(peak))
                            : AudioQueueLevelMeterState(mAveragePower: rms, mPeakPower: peak)
        }
    }

    /// 20 log10 of a level, floored at -120 dB (silence), as the mixers' meters.
    static func decibels(_ level: Float) -> Float { SignalMeasurement.meterDecibels(level, floor: -120) }

    // MARK: The API's property calls

    func propertySize(_ id: AudioQueuePropertyID) -> (UInt32, OSStatus) {
        lock.lock(); defer { lock.unlock() }
        var size: UInt32 = 0
        let status = Self.propertyTable.info(self, id, &size, nil)
        return (status == noErr ? size : 0, status)
    }

    func getProperty(_ id: AudioQueuePropertyID, _ out: UnsafeMutableRawPointer, _ size: UnsafeMutablePointer<UInt32>) -> OSStatus {
        lock.lock(); defer { lock.unlock() }
        return Self.propertyTable.get(self, id, size, out)
    }

    func setProperty(_ id: AudioQueuePropertyID, _ data: UnsafeRawPointer, _ size: UInt32) -> OSStatus {
        lock.lock(); defer { lock.unlock() }
        let status = Self.propertyTable.set(self, id, size, data)
        if status == noErr { notify(id) }
        return status
    }

    func addListener(_ id: AudioQueuePropertyID, _ proc: @escaping AudioQueuePropertyListenerProc, _ user: UnsafeMutableRawPointer?) -> OSStatus {
        guard Self.propertyTable.names(id) else { return kAudioQueueErr_InvalidProperty }
        listeners.add(id, proc, user)
        return noErr
    }

    /// Removes one registration of `proc` with `user` (Apple's queue removes one per call).
    func removeListener(_ id: AudioQueuePropertyID, _ proc: @escaping AudioQueuePropertyListenerProc, _ user: UnsafeMutableRawPointer?) -> OSStatus {
        guard Self.propertyTable.names(id) else { return kAudioQueueErr_InvalidProperty }
        listeners.remove(id, proc, user, firstOnly: true)
        return noErr
    }

    // MARK: Parameters

    func parameter(_ id: AudioQueueParameterID) -> (Float, OSStatus) {
        lock.lock(); defer { lock.unlock() }
        switch id {
        case kAudioQueueParam_Volume: return (Float(bitPattern: volumeBits.load(ordering: .relaxed)), noErr)
        case kAudioQueueParam_VolumeRampTime: return (Float(bitPattern: volumeRampBits.load(ordering: .relaxed)), noErr)
        case kAudioQueueParam_Pan: return (Float(bitPattern: panBits.load(ordering: .relaxed)), noErr)
        case kAudioQueueParam_PlayRate: return (Float(bitPattern: playRateBits.load(ordering: .relaxed)), noErr)
        case kAudioQueueParam_Pitch: return (Float(bitPattern: pitchBits.load(ordering: .relaxed)), noErr)
        default: return (0, kAudioQueueErr_InvalidParameter)
        }
    }

    func setParameter(_ id: AudioQueueParameterID, _ value: Float) -> OSStatus {
        lock.lock(); defer { lock.unlock() }
        guard value.isFinite else { return kAudioQueueErr_InvalidParameter }
        switch id {
        case kAudioQueueParam_Volume: volumeBits.store(min(max(value, 0), 1).bitPattern, ordering: .relaxed)
        case kAudioQueueParam_VolumeRampTime: volumeRampBits.store(max(value, 0).bitPattern, ordering: .relaxed)
        case kAudioQueueParam_Pan: panBits.store(min(max(value, -1), 1).bitPattern, ordering: .relaxed)
        case kAudioQueueParam_PlayRate: playRateBits.store(min(max(value, 0.5), 2).bitPattern, ordering: .relaxed)
        case kAudioQueueParam_Pitch: pitchBits.store(min(max(value, -2400), 2400).bitPattern, ordering: .relaxed)
        default: return kAudioQueueErr_InvalidParameter
        }
        return noErr
    }
}
