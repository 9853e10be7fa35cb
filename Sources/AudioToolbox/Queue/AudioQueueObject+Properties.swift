import COCASupport
import Foundation

/// The queue's properties and parameters.
extension AudioQueueObject {
    static let properties: [AudioQueuePropertyID: AudioQueueProperty] = {
        let rows: [AudioQueueProperty] = [
            .value(kAudioQueueProperty_IsRunning, { $0.isRunningFlag }),
            .value(kAudioQueueDeviceProperty_SampleRate, { $0.deviceFormat()?.mSampleRate ?? 0 }),
            .value(kAudioQueueDeviceProperty_NumberChannels, { $0.deviceFormat()?.mChannelsPerFrame ?? 0 }),
            .value(kAudioQueueProperty_StreamDescription, { $0.format }),
            .value(kAudioConverterCurrentOutputStreamDescription, { $0.format }),
            .value(kAudioConverterCurrentInputStreamDescription, { $0.format }),
            // Linear PCM: a packet is a frame.
            .value(kAudioQueueProperty_MaximumOutputPacketSize, { UInt32($0.encoding?.encoder.maximumPacketBytes ?? $0.pcm.bytesPerFrame) }),
            .blob(kAudioQueueProperty_MagicCookie, \.magicCookie),
            // The encoder's cookie when recording a compressed format; linear PCM has none (an empty value, as the
            // book's recorder tolerates).
            AudioQueueProperty(id: kAudioConverterCompressionMagicCookie, get: { q in .success(q.encoding?.encoder.magicCookie ?? []) }, set: nil),
            // A compressed input queue's bit rate and quality, which its encoder takes as an AudioConverter would.
            .encoderSetting(kAudioConverterEncodeBitRate, { $0.bitRate }, set: { s, v in
                guard s.availableBitRates.contains(where: { Double(v) >= $0.mMinimum && Double(v) <= $0.mMaximum }) else {
                    return kAudioQueueErr_InvalidPropertyValue
                }
                s.bitRate = v
                return noErr
            }),
            .encoderSetting(kAudioCodecPropertyBitRateControlMode, { $0.bitRateControlMode }, set: { s, v in
                guard s.bitRateControlModes.contains(v) else { return kAudioQueueErr_InvalidPropertyValue }
                s.bitRateControlMode = v
                return noErr
            }),
            .encoderSetting(kAudioConverterCodecQuality, { $0.quality }, set: { s, v in
                guard v <= kAudioConverterQuality_Max else { return kAudioQueueErr_InvalidPropertyValue }
                s.quality = v
                return noErr
            }),
            .blob(kAudioQueueProperty_ChannelLayout, \.channelLayout),
            .flag(kAudioQueueProperty_EnableLevelMetering, { $0.meteringEnabled }, set: { q, on in
                q.meteringEnabled = on
                if on { for i in 0..<(2 * q.pcm.channels) { oca_atomic_store_u32(q.meters + i, 0) } }
                q.meteringOn.store(on, ordering: .releasing)
                return noErr
            }),
            AudioQueueProperty(id: kAudioQueueProperty_CurrentLevelMeter, get: { q in q.meterBytes(decibels: false) }, set: nil, truncates: true),
            AudioQueueProperty(id: kAudioQueueProperty_CurrentLevelMeterDB, get: { q in q.meterBytes(decibels: true) }, set: nil, truncates: true),
            .value(kAudioQueueProperty_DecodeBufferSizeFrames, { $0.decodeBufferSizeFrames }, set: { q, v in
                guard v > 0 else { return kAudioQueueErr_InvalidPropertyValue }
                q.decodeBufferSizeFrames = v
                return noErr
            }),
            .value(kAudioQueueProperty_ConverterError, { _ in OSStatus(noErr) }),
            .flag(kAudioQueueProperty_EnableTimePitch, { $0.timePitchEnabled }, set: { q, on in
                guard q.runState == .stopped else { return kAudioQueueErr_InvalidRunState }
                q.timePitchEnabled = on
                return noErr
            }),
            .value(kAudioQueueProperty_TimePitchAlgorithm, { $0.timePitchAlgorithm }, set: { q, v in
                let known = [kAudioQueueTimePitchAlgorithm_Spectral, kAudioQueueTimePitchAlgorithm_TimeDomain,
                             kAudioQueueTimePitchAlgorithm_Varispeed, kAudioQueueTimePitchAlgorithm_LowQualityZeroLatency]
                guard known.contains(v) else { return kAudioQueueErr_InvalidPropertyValue }
                q.timePitchAlgorithm = v
                return noErr
            }),
            .flag(kAudioQueueProperty_TimePitchBypass, { $0.timePitchBypass }, set: { q, on in q.timePitchBypass = on; return noErr }),
            .value(kAudioQueueProperty_HardwareCodecPolicy, { _ in UInt32(kAudioQueueHardwareCodecPolicy_Default) }, set: { _, v in
                v <= kAudioQueueHardwareCodecPolicy_PreferHardware ? noErr : kAudioQueueErr_InvalidPropertyValue
            }),
            // Write-only, as Apple's.
            AudioQueueProperty(id: kAudioQueueProperty_ChannelAssignments, get: { _ in .failure(OSStatusError(kAudioQueueErr_InvalidProperty)) },
                               set: { q, raw in q.setChannelAssignments(raw) }),
            AudioQueueProperty(id: kAudioQueueProperty_CurrentDevice, get: { q in
                guard let uid = q.currentDeviceUID() else { return .failure(OSStatusError(kAudioQueueErr_InvalidDevice)) }
                let object = Unmanaged.passRetained(uid as CFString).toOpaque()
                return .success(AudioQueueProperty.bytes(of: object))
            }, set: { q, raw in
                guard raw.count >= MemoryLayout<UnsafeRawPointer>.size else { return kAudioQueueErr_InvalidPropertySize }
                guard q.runState == .stopped else { return kAudioQueueErr_InvalidRunState }
                if let p = raw.loadUnaligned(as: UnsafeRawPointer?.self) {
                    let uid = Unmanaged<CFString>.fromOpaque(p).takeUnretainedValue() as String
                    guard AudioQueueObject.device(forUID: uid) != nil else { return kAudioQueueErr_InvalidDevice }
                    q.deviceUID = uid
                } else {
                    q.deviceUID = nil  // NULL: back to the default device
                }
                q.channelRoute = nil
                if let u = q.unit { AudioComponentInstanceDispose(u) }
                q.unit = nil
                q.ioUnit = nil
                return noErr
            }),
        ]
        return Dictionary(uniqueKeysWithValues: rows.map { ($0.id, $0) })
    }()

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
    func meterBytes(decibels: Bool) -> Result<[UInt8], OSStatusError> {
        guard meteringEnabled else { return .failure(OSStatusError(kAudioQueueErr_InvalidPropertyValue)) }
        var states: [AudioQueueLevelMeterState] = []
        for c in 0..<pcm.channels {
            let peak = Float(bitPattern: oca_atomic_load_u32(meters + 2 * c))
            let rms = Float(bitPattern: oca_atomic_load_u32(meters + 2 * c + 1))
            states.append(decibels ? AudioQueueLevelMeterState(mAveragePower: Self.decibels(rms), mPeakPower: Self.decibels(peak))
                                   : AudioQueueLevelMeterState(mAveragePower: rms, mPeakPower: peak))
        }
        return .success(states.withUnsafeBytes { Array($0) })
    }

    /// 20 log10 of a level, floored at -120 dB (silence).
    static func decibels(_ level: Float) -> Float { level > 1e-6 ? 20 * log10(level) : -120 }

    // MARK: The API's property calls

    func propertySize(_ id: AudioQueuePropertyID) -> (UInt32, OSStatus) {
        lock.lock(); defer { lock.unlock() }
        guard let row = Self.properties[id] else { return (0, kAudioQueueErr_InvalidProperty) }
        switch row.get(self) {
        case .success(let bytes): return (UInt32(bytes.count), noErr)
        case .failure(let e): return (0, e.status)
        }
    }

    func getProperty(_ id: AudioQueuePropertyID, _ out: UnsafeMutableRawPointer, _ size: UnsafeMutablePointer<UInt32>) -> OSStatus {
        lock.lock(); defer { lock.unlock() }
        guard let row = Self.properties[id] else { return kAudioQueueErr_InvalidProperty }
        switch row.get(self) {
        case .failure(let e): return e.status
        case .success(let bytes):
            let room = Int(size.pointee)
            guard room >= bytes.count || (row.truncates && room > 0) else { return kAudioQueueErr_InvalidPropertySize }
            let n = min(room, bytes.count)
            bytes.withUnsafeBytes { out.copyMemory(from: $0.baseAddress!, byteCount: n) }
            size.pointee = UInt32(n)
            return noErr
        }
    }

    func setProperty(_ id: AudioQueuePropertyID, _ data: UnsafeRawPointer, _ size: UInt32) -> OSStatus {
        lock.lock(); defer { lock.unlock() }
        guard let row = Self.properties[id] else { return kAudioQueueErr_InvalidProperty }
        guard let set = row.set else { return kAudioQueueErr_InvalidProperty }
        let status = set(self, UnsafeRawBufferPointer(start: data, count: Int(size)))
        if status == noErr { notify(id) }
        return status
    }

    func addListener(_ id: AudioQueuePropertyID, _ proc: @escaping AudioQueuePropertyListenerProc, _ user: UnsafeMutableRawPointer?) -> OSStatus {
        lock.lock(); defer { lock.unlock() }
        guard Self.properties[id] != nil else { return kAudioQueueErr_InvalidProperty }
        listeners.append((id, proc, user))
        return noErr
    }

    func removeListener(_ id: AudioQueuePropertyID, _ proc: @escaping AudioQueuePropertyListenerProc, _ user: UnsafeMutableRawPointer?) -> OSStatus {
        lock.lock(); defer { lock.unlock() }
        guard Self.properties[id] != nil else { return kAudioQueueErr_InvalidProperty }
        let target = unsafeBitCast(proc, to: UnsafeRawPointer.self)
        if let i = listeners.firstIndex(where: { $0.id == id && unsafeBitCast($0.proc, to: UnsafeRawPointer.self) == target && $0.user == user }) {
            listeners.remove(at: i)
        }
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
