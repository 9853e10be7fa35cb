import Foundation
import OCAProperty
import Synchronization

/// An audio device: one ALSA PCM name (its UID) with an output and/or an input stream. Settings (rate,
/// buffer frame size) are kept here and applied when IO starts; changing them while running restarts IO.
final class HALDevice: HALObject, @unchecked Sendable {
    let uid: String
    let deviceName: String
    let outputCapabilities: ALSA.Capabilities?
    let inputCapabilities: ALSA.Capabilities?
    private(set) var outputStream: HALStream?
    private(set) var inputStream: HALStream?

    /// Control state, guarded by `lock` (never taken by the IO thread).
    private let lock = NSRecursiveLock()
    private var nominalRate: Double
    private var bufferFrames: UInt32
    private var procs: [IOProcEntry] = []
    private var engine: DeviceIO?
    let alive = Atomic<Bool>(true)
    /// Xruns of engines that have stopped, plus the running one's (read by the watcher).
    private var pastXruns = 0
    /// The device's volume and mute controls, opened on first use (see HALDevice+Volume.swift).
    var mixerState: MixerState = .unopened
    let mixerLock = NSLock()
    enum MixerState { case unopened, none, open(ALSAMixer) }

    struct IOProcEntry {
        let id: UnsafeMutableRawPointer
        let proc: AudioDeviceIOProc?
        let block: AudioDeviceIOBlock?
        let clientData: UnsafeMutableRawPointer?
        var started = false
        var usesInput = true, usesOutput = true
        /// The cycle sample time the proc joins at (AudioDeviceStartAtTime); 0: at once.
        var startSample = 0.0
        /// The ID is memory the HAL made (false: the proc itself, AudioDeviceAddIOProc's ID).
        var ownsID = true
    }

    init(objectID: AudioObjectID, uid: String, name: String, output: ALSA.Capabilities?, input: ALSA.Capabilities?,
         streamIDs: (AudioObjectID, AudioObjectID)) {
        self.uid = uid
        self.deviceName = name
        self.outputCapabilities = output
        self.inputCapabilities = input
        let rates = Set((output?.rates ?? []) + (input?.rates ?? []))
        // PulseAudio's and most cards' native rates first.
        nominalRate = [44100.0, 48000].first { rates.contains($0) } ?? rates.max() ?? 44100
        let range = Self.frameRange(output, input)
        bufferFrames = min(max(512, range.lowerBound), range.upperBound)
        super.init(objectID: objectID, classID: kAudioDeviceClassID, ownerID: kAudioObjectSystemObject)
        if output != nil { outputStream = HALStream(objectID: streamIDs.0, device: self, isInput: false) }
        if input != nil { inputStream = HALStream(objectID: streamIDs.1, device: self, isInput: true) }
    }

    static func frameRange(_ a: ALSA.Capabilities?, _ b: ALSA.Capabilities?) -> ClosedRange<UInt32> {
        let ranges = [a?.periodFrames, b?.periodFrames].compactMap { $0 }
        let lo = ranges.map(\.lowerBound).max() ?? 64, hi = ranges.map(\.upperBound).min() ?? 8192
        return min(lo, hi)...max(lo, hi)
    }

    override var name: String { deviceName }
    override var manufacturer: String { "ALSA" }
    override var ownedObjects: [AudioObjectID] { [outputStream?.objectID, inputStream?.objectID].compactMap { $0 } }

    var availableRates: [Double] {
        let o = outputCapabilities?.rates, i = inputCapabilities?.rates
        switch (o, i) {
        case let (o?, i?): return o.filter { i.contains($0) }
        case let (o?, nil): return o
        case let (nil, i?): return i
        default: return []
        }
    }

    /// Channels per direction: stereo where the device allows it.
    func channels(input: Bool) -> UInt32 {
        guard let caps = input ? inputCapabilities : outputCapabilities else { return 0 }
        return caps.channels.contains(2) ? 2 : caps.channels.lowerBound
    }

    func streamFormat(input: Bool) -> AudioStreamBasicDescription {
        let c = channels(input: input)
        return AudioStreamBasicDescription(mSampleRate: lock.withLock { nominalRate }, mFormatID: kAudioFormatLinearPCM,
                                           mFormatFlags: kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked,
                                           mBytesPerPacket: 4 * c, mFramesPerPacket: 1, mBytesPerFrame: 4 * c,
                                           mChannelsPerFrame: c, mBitsPerChannel: 32, mReserved: 0)
    }

    var isRunning: Bool { lock.withLock { engine != nil } }
    var xrunCount: Int { lock.withLock { pastXruns + (engine?.xruns.load(ordering: .relaxed) ?? 0) } }

    func hasDirection(_ scope: AudioObjectPropertyScope) -> Bool {
        switch scope {
        case kAudioObjectPropertyScopeInput: inputCapabilities != nil
        case kAudioObjectPropertyScopeOutput: outputCapabilities != nil
        default: true
        }
    }

    // MARK: Properties

    override var properties: HALProperties { HALProperties(self, HALDevice.table) }

    private static let table = HALProperties.table(commonRows() as [HALRow<HALDevice>] + rows + volumeRows)

    private static let rows: [HALRow<HALDevice>] = [
        HALProperties.string(kAudioDevicePropertyDeviceUID, get: { $0.object.uid }),
        HALProperties.string(kAudioDevicePropertyModelUID, get: { $0.object.uid }),
        // AudioHardwareDeprecated.h's C-string forms of Name and Manufacturer.
        HALProperties.cString(kAudioDevicePropertyDeviceName, get: { $0.object.name }),
        HALProperties.cString(kAudioDevicePropertyDeviceManufacturer, get: { $0.object.manufacturer }),
        HALProperties.value(kAudioDevicePropertyTransportType, UInt32.self, get: {
            $0.object.uid.hasPrefix("hw:") ? kAudioDeviceTransportTypeBuiltIn : kAudioDeviceTransportTypeVirtual
        }),
        HALProperties.value(kAudioDevicePropertyDeviceIsAlive, UInt32.self, get: { $0.object.alive.load(ordering: .acquiring) ? 1 : 0 }),
        HALProperties.value(kAudioDevicePropertyDeviceIsRunning, UInt32.self, get: { $0.object.isRunning ? 1 : 0 }),
        HALProperties.value(kAudioDevicePropertyDeviceIsRunningSomewhere, UInt32.self, get: { $0.object.isRunning ? 1 : 0 }),
        HALProperties.value(kAudioDevicePropertyDeviceCanBeDefaultDevice, UInt32.self, get: canBeDefault),
        HALProperties.value(kAudioDevicePropertyDeviceCanBeDefaultSystemDevice, UInt32.self, get: canBeDefault),
        HALProperties.value(kAudioDevicePropertyClockDomain, UInt32.self, get: { _ in 0 }),
        HALProperties.array(kAudioDevicePropertyRelatedDevices, AudioObjectID.self, get: { [$0.object.objectID] }),
        HALProperties.value(kAudioDevicePropertyIsHidden, UInt32.self, get: { _ in 0 }),
        HALProperties.value(kAudioDevicePropertySafetyOffset, UInt32.self, get: { _ in 0 }),
        HALProperties.value(kAudioDevicePropertyLatency, UInt32.self,
                            exists: { $0.object.hasDirection($0.scope) && $0.scope != kAudioObjectPropertyScopeGlobal },
                            get: { $0.object.latencyFrames(input: $0.scope == kAudioObjectPropertyScopeInput) }),
        HALProperties.array(kAudioDevicePropertyStreams, AudioObjectID.self, get: { request in
            let device = request.object
            switch request.scope {
            case kAudioObjectPropertyScopeInput: return [device.inputStream?.objectID].compactMap { $0 }
            case kAudioObjectPropertyScopeOutput: return [device.outputStream?.objectID].compactMap { $0 }
            default: return device.ownedObjects
            }
        }),
        // An AudioBufferList with one buffer per stream, no data; a buffer too small for it is refused.
        ObjectProperty(kAudioDevicePropertyStreamConfiguration, exists: { isDirection($0.scope) },
                       size: { UInt32(AudioBufferList.sizeInBytes(maximumBuffers: max($0.object.streamChannels($0.scope).count, 1))) },
                       read: { request, out, _ in
                           let channels = request.object.streamChannels(request.scope)
                           let list = UnsafeMutableAudioBufferListPointer(out.assumingMemoryBound(to: AudioBufferList.self))
                           list.unsafeMutablePointer.pointee.mNumberBuffers = UInt32(channels.count)
                           for (i, c) in channels.enumerated() { list[i] = AudioBuffer(mNumberChannels: c, mDataByteSize: 0, mData: nil) }
                           return kAudioHardwareNoError
                       }),
        HALProperties.array(kAudioDevicePropertyPreferredChannelsForStereo, UInt32.self, exists: { $0.object.hasDirection($0.scope) },
                            get: { [1, $0.object.channels(input: $0.scope == kAudioObjectPropertyScopeInput) >= 2 ? 2 : 1] }),
        HALProperties.value(kAudioDevicePropertyNominalSampleRate, Float64.self, get: { d in d.object.lock.withLock { d.object.nominalRate } },
                            set: { $0.object.setNominalRate($1) }),
        HALProperties.value(kAudioDevicePropertyActualSampleRate, Float64.self, get: { d in d.object.lock.withLock { d.object.nominalRate } }),
        HALProperties.array(kAudioDevicePropertyAvailableNominalSampleRates, AudioValueRange.self, get: {
            $0.object.availableRates.map { AudioValueRange(mMinimum: $0, mMaximum: $0) }
        }),
        HALProperties.value(kAudioDevicePropertyBufferFrameSize, UInt32.self, get: { d in d.object.lock.withLock { d.object.bufferFrames } },
                            set: { $0.object.setBufferFrameSize($1) }),
        HALProperties.value(kAudioDevicePropertyBufferFrameSizeRange, AudioValueRange.self, get: {
            let r = frameRange($0.object.outputCapabilities, $0.object.inputCapabilities)
            return AudioValueRange(mMinimum: Double(r.lowerBound), mMaximum: Double(r.upperBound))
        }),
        // In and out in the caller's struct: the proc named in it, which of this direction's streams it uses.
        ObjectProperty(kAudioDevicePropertyIOProcStreamUsage, exists: { isDirection($0.scope) }, writable: .always,
                       size: { _ in UInt32(MemoryLayout<AudioHardwareIOProcStreamUsage>.size) },
                       setSize: .atLeast(UInt32(MemoryLayout<AudioHardwareIOProcStreamUsage>.size)),
                       read: { request, out, size in
                           request.object.streamUsage(input: request.scope == kAudioObjectPropertyScopeInput,
                                                      UnsafeMutableRawBufferPointer(start: out, count: Int(size)))
                       },
                       write: { request, data in request.object.setStreamUsage(input: request.scope == kAudioObjectPropertyScopeInput, data) }),
    ]

    private static func canBeDefault(_ request: HALPropertyRequest<HALDevice>) -> UInt32 {
        request.scope == kAudioObjectPropertyScopeGlobal || request.object.hasDirection(request.scope) ? 1 : 0
    }

    private static func isDirection(_ scope: AudioObjectPropertyScope) -> Bool {
        scope == kAudioObjectPropertyScopeInput || scope == kAudioObjectPropertyScopeOutput
    }

    /// kAudioDevicePropertyStreamConfiguration's channels per stream in a direction's scope (one stream or none).
    private func streamChannels(_ scope: AudioObjectPropertyScope) -> [UInt32] {
        let c = channels(input: scope == kAudioObjectPropertyScopeInput)
        return c > 0 ? [c] : []
    }

    /// Frames between the application and the converter: the ALSA delay while running, else the buffer
    /// the device will use (two periods ahead of the one being filled).
    func latencyFrames(input: Bool) -> UInt32 {
        lock.withLock {
            if let engine { return UInt32(clamping: input ? engine.inputDelay : engine.outputDelay) }
            return input ? 0 : 2 * bufferFrames
        }
    }

    private func setBufferFrameSize(_ frames: UInt32) -> OSStatus {
        guard Self.frameRange(outputCapabilities, inputCapabilities).contains(frames) else { return kAudioHardwareIllegalOperationError }
        let changed = lock.withLock { () -> Bool in
            guard bufferFrames != frames else { return false }
            bufferFrames = frames
            return true
        }
        if changed {
            restartIfRunning()
            HALSystem.shared.notify(objectID, [AudioObjectPropertyAddress(mSelector: kAudioDevicePropertyBufferFrameSize,
                                                                          mScope: kAudioObjectPropertyScopeWildcard,
                                                                          mElement: kAudioObjectPropertyElementMain)])
        }
        return kAudioHardwareNoError
    }

    func setNominalRate(_ rate: Double) -> OSStatus {
        guard availableRates.contains(rate) else { return kAudioHardwareIllegalOperationError }
        let changed = lock.withLock { () -> Bool in
            guard nominalRate != rate else { return false }
            nominalRate = rate
            return true
        }
        guard changed else { return kAudioHardwareNoError }
        restartIfRunning()
        var changes = [AudioObjectPropertyAddress(mSelector: kAudioDevicePropertyNominalSampleRate, mScope: kAudioObjectPropertyScopeGlobal,
                                                  mElement: kAudioObjectPropertyElementMain)]
        HALSystem.shared.notify(objectID, changes)
        changes = [AudioObjectPropertyAddress(mSelector: kAudioStreamPropertyVirtualFormat, mScope: kAudioObjectPropertyScopeGlobal,
                                              mElement: kAudioObjectPropertyElementMain),
                   AudioObjectPropertyAddress(mSelector: kAudioStreamPropertyPhysicalFormat, mScope: kAudioObjectPropertyScopeGlobal,
                                              mElement: kAudioObjectPropertyElementMain)]
        for stream in ownedObjects { HALSystem.shared.notify(stream, changes) }
        return kAudioHardwareNoError
    }

    /// kAudioDevicePropertyIOProcStreamUsage: which of this direction's streams an IOProc uses.
    func streamUsage(input: Bool, _ data: UnsafeMutableRawBufferPointer) -> OSStatus {
        let procID = data.load(as: UnsafeMutableRawPointer?.self)
        return lock.withLock {
            guard let entry = procs.first(where: { $0.id == procID }) else { return kAudioHardwareIllegalOperationError }
            let count = (input ? inputStream : outputStream) == nil ? 0 : 1
            data.storeBytes(of: UInt32(count), toByteOffset: MemoryLayout<UnsafeRawPointer>.stride, as: UInt32.self)
            data.storeBytes(of: UInt32((input ? entry.usesInput : entry.usesOutput) ? 1 : 0),
                            toByteOffset: MemoryLayout<UnsafeRawPointer>.stride + 4, as: UInt32.self)
            return kAudioHardwareNoError
        }
    }

    private func setStreamUsage(input: Bool, _ data: UnsafeRawBufferPointer) -> OSStatus {
        let procID = data.load(as: UnsafeMutableRawPointer?.self)
        let on = data.loadUnaligned(fromByteOffset: MemoryLayout<UnsafeRawPointer>.stride + 4, as: UInt32.self) != 0
        let status: OSStatus = lock.withLock {
            guard let i = procs.firstIndex(where: { $0.id == procID }) else { return kAudioHardwareIllegalOperationError }
            if input { procs[i].usesInput = on } else { procs[i].usesOutput = on }
            return kAudioHardwareNoError
        }
        if status == kAudioHardwareNoError { restartIfRunning() }
        return status
    }

    // MARK: IOProcs

    func addIOProc(_ proc: AudioDeviceIOProc?, block: AudioDeviceIOBlock?, clientData: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer {
        // A unique address stands for the proc ID (two IDs for the same function must differ).
        let id = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 16)
        lock.withLock { procs.append(IOProcEntry(id: id, proc: proc, block: block, clientData: clientData)) }
        return id
    }

    /// AudioDeviceAddIOProc: the proc is its own ID (one registration per proc).
    func addIOProc(usingProcAsID proc: AudioDeviceIOProc, clientData: UnsafeMutableRawPointer?) -> OSStatus {
        let id = unsafeBitCast(proc, to: UnsafeMutableRawPointer.self)
        return lock.withLock {
            guard !procs.contains(where: { $0.id == id }) else { return kAudioHardwareIllegalOperationError }
            procs.append(IOProcEntry(id: id, proc: proc, block: nil, clientData: clientData, ownsID: false))
            return kAudioHardwareNoError
        }
    }

    func removeIOProc(_ id: UnsafeMutableRawPointer) -> OSStatus {
        let found: IOProcEntry? = lock.withLock {
            guard let i = procs.firstIndex(where: { $0.id == id }) else { return nil }
            let entry = procs.remove(at: i)
            if entry.started { applyProcs() }
            return entry
        }
        guard let found else { return kAudioHardwareIllegalOperationError }
        if found.ownsID { id.deallocate() }
        return kAudioHardwareNoError
    }

    /// Starts one IOProc, or (nil) the device with no proc of its own.
    func start(_ id: UnsafeMutableRawPointer?) -> OSStatus {
        guard alive.load(ordering: .acquiring) else { return kAudioHardwareNotRunningError }
        return lock.withLock {
            if let id {
                guard let i = procs.firstIndex(where: { $0.id == id }) else { return kAudioHardwareIllegalOperationError }
                if procs[i].started { return kAudioHardwareNoError }
                procs[i].started = true
                procs[i].startSample = 0
            }
            let status = applyProcs(forceRunning: id == nil)
            if status != kAudioHardwareNoError, let id, let i = procs.firstIndex(where: { $0.id == id }) { procs[i].started = false }
            return status
        }
    }

    func stop(_ id: UnsafeMutableRawPointer?) -> OSStatus {
        lock.withLock {
            if let id {
                guard let i = procs.firstIndex(where: { $0.id == id }) else { return kAudioHardwareIllegalOperationError }
                procs[i].started = false
            }
            _ = applyProcs()
            return kAudioHardwareNoError
        }
    }

    /// Brings the engine in line with the started procs: starts it, hands it the new proc list, or stops it.
    @discardableResult
    private func applyProcs(forceRunning: Bool = false) -> OSStatus {
        let started = procs.filter(\.started)
        let wasRunning = engine != nil
        if started.isEmpty && !forceRunning {
            stopEngine()
            if wasRunning { notifyRunning() }
            return kAudioHardwareNoError
        }
        let wantInput = inputCapabilities != nil && started.contains { $0.usesInput }
        let wantOutput = outputCapabilities != nil && (started.contains { $0.usesOutput } || started.isEmpty)
        if let engine, engine.hasInput == wantInput, engine.hasOutput == wantOutput {
            engine.publish(started)
            return kAudioHardwareNoError
        }
        stopEngine()
        let engine = DeviceIO(device: self, uid: uid, rate: nominalRate, periodFrames: Int(bufferFrames),
                              outputChannels: wantOutput ? Int(channels(input: false)) : 0,
                              inputChannels: wantInput ? Int(channels(input: true)) : 0)
        engine.publish(started)
        guard engine.start() else {
            if wasRunning { notifyRunning() }
            return kAudioHardwareUnspecifiedError
        }
        self.engine = engine
        if !wasRunning { notifyRunning() }
        return kAudioHardwareNoError
    }

    private func stopEngine() {
        guard let engine else { return }
        engine.stop()
        pastXruns += engine.xruns.load(ordering: .relaxed)
        self.engine = nil
    }

    private func restartIfRunning() {
        lock.withLock {
            guard engine != nil else { return }
            stopEngine()
            applyProcs()
        }
    }

    private func notifyRunning() {
        HALSystem.shared.notify(objectID, [AudioObjectPropertyAddress(mSelector: kAudioDevicePropertyDeviceIsRunning,
                                                                      mScope: kAudioObjectPropertyScopeGlobal,
                                                                      mElement: kAudioObjectPropertyElementMain)])
    }

    /// Called by the watcher when the engine died (device gone, server killed): the device is no longer
    /// alive and every proc is stopped.
    func engineFailed() {
        let died: Bool = lock.withLock {
            guard let engine, engine.failed.load(ordering: .acquiring) != 0 else { return false }
            alive.store(false, ordering: .releasing)
            stopEngine()
            for i in procs.indices { procs[i].started = false }
            return true
        }
        guard died else { return }
        let addresses = [kAudioDevicePropertyDeviceIsAlive, kAudioDevicePropertyDeviceIsRunning, kAudioDevicePropertyIOStoppedAbnormally].map {
            AudioObjectPropertyAddress(mSelector: $0, mScope: kAudioObjectPropertyScopeGlobal, mElement: kAudioObjectPropertyElementMain)
        }
        HALSystem.shared.notify(objectID, addresses)
    }

    /// The running engine's failure status (0: none), for the watcher.
    var engineFailure: Int32 { lock.withLock { engine?.failed.load(ordering: .acquiring) ?? 0 } }

    func currentTime() -> AudioTimeStamp? { lock.withLock { engine?.currentTime() } }

    /// AudioDeviceTranslateTime: `time` (by its sample or else its host time) in the representations `wanted`
    /// asks for, on the running clock. Nil if the device is not running.
    func translate(_ time: AudioTimeStamp, wanted: AudioTimeStampFlags) -> Result<AudioTimeStamp, TimeError>? {
        guard let engine = lock.withLock({ engine }) else { return nil }
        return Self.translate(time, wanted: wanted, on: engine)
    }

    enum TimeError: Error { case noTime }

    private static func translate(_ time: AudioTimeStamp, wanted: AudioTimeStampFlags, on engine: DeviceIO) -> Result<AudioTimeStamp, TimeError> {
        let sample: Double, host: UInt64
        if time.mFlags.contains(.sampleTimeValid) {
            sample = time.mSampleTime
            host = time.mFlags.contains(.hostTimeValid) ? time.mHostTime : engine.hostTime(atSample: sample)
        } else if time.mFlags.contains(.hostTimeValid) {
            host = time.mHostTime
            sample = engine.sampleTime(atHost: host)
        } else {
            return .failure(.noTime)
        }
        var out = AudioTimeStamp()
        var done: AudioTimeStampFlags = []
        if wanted.contains(.sampleTimeValid) { out.mSampleTime = sample; done.insert(.sampleTimeValid) }
        if wanted.contains(.hostTimeValid) { out.mHostTime = host; done.insert(.hostTimeValid) }
        if wanted.contains(.rateScalarValid) { out.mRateScalar = engine.anchor()?.rateScalar ?? 1; done.insert(.rateScalarValid) }
        out.mFlags = done
        return .success(out)
    }

    /// AudioDeviceGetNearestStartTime: the first IO cycle at or after `requested` (an input time with
    /// kAudioDeviceStartTimeIsInputFlag, else an output time) that is at least one whole cycle away, so that a
    /// proc started there joins at a cycle boundary without a partial cycle. Returns that cycle's own sample
    /// time and the requested kind of time it stands for. Nil if the device is not running.
    func nearestStart(_ requested: AudioTimeStamp, flags: UInt32) -> Result<(cycle: Double, time: AudioTimeStamp), TimeError>? {
        guard let engine = lock.withLock({ engine }) else { return nil }
        return Self.nearestStart(requested, flags: flags, on: engine)
    }

    private static func nearestStart(_ requested: AudioTimeStamp, flags: UInt32, on engine: DeviceIO)
        -> Result<(cycle: Double, time: AudioTimeStamp), TimeError> {
        let wanted: AudioTimeStampFlags = [.sampleTimeValid]
        guard case .success(let t) = translate(requested, wanted: wanted, on: engine) else { return .failure(.noTime) }
        let n = Double(engine.periodFrames)
        let lead = flags & kAudioDeviceStartTimeIsInputFlag != 0 ? 0 : Double(engine.outputLead)
        // Input times are the cycle's sample time; output times run `lead` frames ahead of it.
        let earliest = (engine.anchor()?.sample).map { $0 + 2 * n } ?? 0
        let cycle = max((max(t.mSampleTime - lead, 0) / n).rounded(.up) * n, earliest)
        var out = AudioTimeStamp()
        out.mSampleTime = cycle + lead
        out.mHostTime = engine.hostTime(atSample: out.mSampleTime)
        out.mRateScalar = engine.anchor()?.rateScalar ?? 1
        out.mFlags = [.sampleTimeValid, .hostTimeValid, .rateScalarValid]
        return .success((cycle, out))
    }

    /// AudioDeviceStartAtTime: starts the device if it is stopped, then starts the proc (nil: the device alone)
    /// at the nearest cycle to `requested`, which is updated to the time it will start.
    func start(_ id: UnsafeMutableRawPointer?, at requested: inout AudioTimeStamp, flags: UInt32) -> OSStatus {
        guard alive.load(ordering: .acquiring) else { return kAudioHardwareNotRunningError }
        return lock.withLock {
            var index: Int?
            if let id {
                guard let i = procs.firstIndex(where: { $0.id == id }) else { return kAudioHardwareIllegalOperationError }
                if !procs[i].started {
                    // Started but held back until its cycle is known: the engine is built for the streams it uses.
                    procs[i].started = true
                    procs[i].startSample = .infinity
                    index = i
                }
            }
            if index != nil || engine == nil {
                let status = applyProcs(forceRunning: id == nil)
                if status != kAudioHardwareNoError {
                    if let index { procs[index].started = false }
                    return status
                }
            }
            guard let engine else { return kAudioHardwareNotRunningError }
            guard case .success(let (cycle, time)) = Self.nearestStart(requested, flags: flags, on: engine) else {
                if let index { procs[index].started = false; applyProcs() }
                return kAudioHardwareIllegalOperationError
            }
            if let index {
                procs[index].startSample = cycle
                applyProcs()
            }
            requested = time
            return kAudioHardwareNoError
        }
    }

    /// Marks the device gone (it left ALSA's list): not alive, IO stopped.
    func vanished() {
        lock.withLock {
            alive.store(false, ordering: .releasing)
            stopEngine()
            for i in procs.indices { procs[i].started = false }
        }
    }
}
