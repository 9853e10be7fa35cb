import OCAProperty
import Foundation

/// One CAClock: a media timeline (seconds, and beats through the tempo map) that moves with host time
/// at the play rate while started. Host time is the only timebase; internal sync is the only sync
/// mode. Calls may come from any thread except a render thread (one lock guards the state); listeners
/// are called on the calling thread, after the lock is released.
final class CAClockObject: @unchecked Sendable {
    private let lock = NSLock()
    private var running = false
    private var armed = false
    /// Timeline position at `anchorHost` (while stopped: the position).
    private var anchorSeconds = 0.0
    private var anchorHost: UInt64 = 0
    private(set) var playRate = 1.0
    private var tempoMap = [CATempoMapEntry(beats: 0, tempoBPM: 120)]
    private var meterTrack = [CAMeterTrackEntry(beats: 0, meterNumer: 4, meterDenom: 4)]
    private var smpteFormat: CAClockSMPTEFormat = .type30
    private var smpteOffset = 0.0
    private var name: CFString?
    /// Every listener hears every message: they are kept under one ID, 0.
    private let listeners = PropertyListenerList<UInt32, CAClockListenerProc>()

    var handle: CAClockRef { OpaquePointer(Unmanaged.passUnretained(self).toOpaque()) }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    private func notify(_ message: CAClockMessage) {
        listeners.fire(0) { l in l.proc(l.userData!, message, nil) }
    }

    func addListener(_ proc: @escaping CAClockListenerProc, _ userData: UnsafeMutableRawPointer) { listeners.add(0, proc, userData) }

    func removeListener(_ proc: CAClockListenerProc, _ userData: UnsafeMutableRawPointer) -> Bool {
        listeners.remove(0, proc, userData, firstOnly: true) == 1
    }

    // MARK: Timeline

    private static func hostSeconds(_ host: UInt64, from anchor: UInt64) -> Double {
        host >= anchor ? Double(AudioConvertHostTimeToNanos(host - anchor)) / 1e9 : -Double(AudioConvertHostTimeToNanos(anchor - host)) / 1e9
    }

    /// The timeline position (seconds) at a host time.
    private func seconds(atHost host: UInt64) -> Double {
        running ? anchorSeconds + Self.hostSeconds(host, from: anchorHost) * playRate : anchorSeconds
    }

    /// The host time at which the (running) timeline reaches `seconds`.
    private func host(atSeconds seconds: Double) -> UInt64 {
        let delta = (seconds - anchorSeconds) / (playRate == 0 ? 1 : playRate)
        let nanos = UInt64(abs(delta) * 1e9)
        return delta >= 0 ? anchorHost &+ AudioConvertNanosToHostTime(nanos) : anchorHost &- AudioConvertNanosToHostTime(nanos)
    }

    /// Beats at a timeline position, through the tempo map (each entry's tempo holds until the next).
    private func beats(atSeconds s: Double) -> Double {
        var beat = tempoMap[0].beats, elapsed = 0.0
        for (i, e) in tempoMap.enumerated() {
            let next = i + 1 < tempoMap.count ? tempoMap[i + 1].beats : .infinity
            let span = (next - e.beats) * 60 / e.tempoBPM
            if s - elapsed < span || next == .infinity { return e.beats + (s - elapsed) * e.tempoBPM / 60 }
            elapsed += span
            beat = next
        }
        return beat
    }

    private func seconds(atBeats b: Double) -> Double {
        var elapsed = 0.0
        for (i, e) in tempoMap.enumerated() {
            let next = i + 1 < tempoMap.count ? tempoMap[i + 1].beats : .infinity
            if b < next { return elapsed + (b - e.beats) * 60 / e.tempoBPM }
            elapsed += (next - e.beats) * 60 / e.tempoBPM
        }
        return elapsed
    }

    private func tempo(atBeats b: Double) -> Double {
        tempoMap.last(where: { $0.beats <= b })?.tempoBPM ?? tempoMap[0].tempoBPM
    }

    /// A time in any format as timeline seconds, or the status why not.
    private func timelineSeconds(_ t: CAClockTime) -> Result<Double, OSStatusError> {
        switch t.format {
        case .seconds: return .success(t.time.seconds)
        case .beats: return .success(seconds(atBeats: t.time.beats))
        case .hostTime: return .success(seconds(atHost: t.time.hostTime))
        case .smpteSeconds: return .success(t.time.seconds - smpteOffset)
        case .smpteTime:
            return smpteSeconds(t.time.smpte).map { $0 - smpteOffset }
        case .samples: return .failure(OSStatusError(kCAClock_InvalidUnitError))
        default: return .failure(OSStatusError(kCAClock_InvalidTimeFormatError))
        }
    }

    private func express(_ s: Double, as format: CAClockTimeFormat) -> Result<CAClockTime, OSStatusError> {
        var out = CAClockTime()
        out.format = format
        switch format {
        case .seconds: out.time.seconds = s
        case .beats: out.time.beats = beats(atSeconds: s)
        case .hostTime: out.time.hostTime = host(atSeconds: s)
        case .smpteSeconds: out.time.seconds = s + smpteOffset
        case .smpteTime:
            switch smpte(s + smpteOffset, subframeDivisor: 80) {
            case .success(let t): out.time.smpte = t
            case .failure(let e): return .failure(e)
            }
        case .samples: return .failure(OSStatusError(kCAClock_InvalidUnitError))
        default: return .failure(OSStatusError(kCAClock_InvalidTimeFormatError))
        }
        return .success(out)
    }

    func currentTime(_ format: CAClockTimeFormat) -> Result<CAClockTime, OSStatusError> {
        locked {
            if format == .hostTime {
                var t = CAClockTime()
                t.format = .hostTime
                t.time.hostTime = AudioGetCurrentHostTime()
                return .success(t)
            }
            return express(seconds(atHost: AudioGetCurrentHostTime()), as: format)
        }
    }

    func startTime(_ format: CAClockTimeFormat) -> Result<CAClockTime, OSStatusError> {
        locked { express(anchorSeconds, as: format) }
    }

    func translate(_ t: CAClockTime, to format: CAClockTimeFormat) -> Result<CAClockTime, OSStatusError> {
        locked { timelineSeconds(t).flatMap { express($0, as: format) } }
    }

    /// Sets the position; only while stopped (kCAClock_CannotSetTimeError otherwise).
    func setCurrentTime(_ t: CAClockTime) -> OSStatus {
        let status: OSStatus = locked {
            guard !running else { return kCAClock_CannotSetTimeError }
            switch timelineSeconds(t) {
            case .success(let s): anchorSeconds = s; return noErr
            case .failure(let e): return e.status
            }
        }
        if status == noErr { notify(.startTimeSet) }
        return status
    }

    func start() {
        let changed: Bool = locked {
            guard !running else { return false }
            anchorHost = AudioGetCurrentHostTime()
            running = true
            return true
        }
        if changed { notify(.started) }
    }

    func stop() {
        let changed: Bool = locked {
            guard running else { return false }
            anchorSeconds = seconds(atHost: AudioGetCurrentHostTime())
            running = false
            return true
        }
        if changed { notify(.stopped) }
    }

    func arm(_ on: Bool) {
        locked { armed = on }
        notify(on ? .armed : .disarmed)
    }

    func setPlayRate(_ rate: Double) -> OSStatus {
        guard rate > 0, rate.isFinite else { return kCAClock_InvalidPlayRateError }
        locked {
            let now = AudioGetCurrentHostTime()
            anchorSeconds = seconds(atHost: now)
            anchorHost = now
            playRate = rate
        }
        return noErr
    }

    /// The tempo at the current position (and that position, in beats).
    func currentTempo() -> (CAClockTempo, CAClockBeats) {
        locked {
            let b = beats(atSeconds: seconds(atHost: AudioGetCurrentHostTime()))
            return (tempo(atBeats: b), b)
        }
    }

    /// From the given time (nil: now) the tempo is `bpm`: later tempo map entries are replaced.
    func setCurrentTempo(_ bpm: Double, at time: CAClockTime?) -> OSStatus {
        guard bpm > 0, bpm.isFinite else { return kAudio_ParamError }
        let status: OSStatus = locked {
            var b: Double
            if let time {
                switch timelineSeconds(time) {
                case .success(let s): b = beats(atSeconds: s)
                case .failure(let e): return e.status
                }
            } else {
                b = beats(atSeconds: seconds(atHost: AudioGetCurrentHostTime()))
            }
            tempoMap.removeAll { $0.beats >= b && $0.beats > tempoMap[0].beats }
            if b <= tempoMap[0].beats { tempoMap = [CATempoMapEntry(beats: tempoMap[0].beats, tempoBPM: bpm)] } else {
                tempoMap.append(CATempoMapEntry(beats: b, tempoBPM: bpm))
            }
            return noErr
        }
        if status == noErr { notify(.propertyChanged) }
        return status
    }

    // MARK: SMPTE and bar-beat conversions

    /// Frames per second a SMPTE format counts (nil: a format not supported here, such as the drop-frame ones).
    private static func framesPerSecond(_ f: CAClockSMPTEFormat) -> Int? {
        switch f {
        case .type24: return 24
        case .type25: return 25
        case .type30: return 30
        case .type50: return 50
        case .type60: return 60
        default: return nil
        }
    }

    func smpte(_ seconds: Double, subframeDivisor: UInt16) -> Result<SMPTETime, OSStatusError> {
        let format = smpteFormat
        guard let fps = Self.framesPerSecond(format) else { return .failure(OSStatusError(kCAClock_InvalidSMPTEFormatError)) }
        let divisor = Int(max(subframeDivisor, 1))
        let totalSubframes = Int((seconds * Double(fps * divisor)).rounded(.down))
        var t = SMPTETime()
        t.mType = format
        t.mFlags = .valid
        t.mSubframeDivisor = Int16(divisor)
        t.mSubframes = Int16(totalSubframes % divisor)
        let frames = totalSubframes / divisor
        t.mFrames = Int16(frames % fps)
        t.mSeconds = Int16(frames / fps % 60)
        t.mMinutes = Int16(frames / fps / 60 % 60)
        t.mHours = Int16(frames / fps / 3600)
        return .success(t)
    }

    func smpteSeconds(_ t: SMPTETime) -> Result<Double, OSStatusError> {
        guard let fps = Self.framesPerSecond(t.mType) else { return .failure(OSStatusError(kCAClock_InvalidSMPTEFormatError)) }
        let frames = Double(t.mFrames) + (t.mSubframeDivisor > 0 ? Double(t.mSubframes) / Double(t.mSubframeDivisor) : 0)
        return .success(Double(t.mHours) * 3600 + Double(t.mMinutes) * 60 + Double(t.mSeconds) + frames / Double(fps))
    }

    /// Beats as bar, beat, subbeat under the meter track (bar 1 beat 1 is beat 0; a beat is a quarter
    /// note, so a 6/8 bar lasts 3 beats and counts 6 eighths).
    func barBeatTime(_ beats: Double, subbeatDivisor: UInt16) -> CABarBeatTime {
        let meters = locked { meterTrack }
        var bar = 1, start = 0.0
        var meter = meters[0]
        for (i, m) in meters.enumerated() {
            let next = i + 1 < meters.count ? meters[i + 1].beats : .infinity
            let barLength = 4 * Double(m.meterNumer) / Double(m.meterDenom)
            meter = m
            start = m.beats
            if beats < next { break }
            bar += Int(((next - m.beats) / barLength).rounded(.up))
        }
        let unit = 4 / Double(meter.meterDenom)
        let barLength = unit * Double(meter.meterNumer)
        let intoTrack = beats - start
        let bars = (intoTrack / barLength).rounded(.down)
        let inBar = intoTrack - bars * barLength
        let beat = (inBar / unit).rounded(.down)
        let divisor = Double(max(subbeatDivisor, 1))
        let sub = ((inBar - beat * unit) / unit * divisor).rounded(.down)
        return CABarBeatTime(bar: Int32(bar + Int(bars)), beat: UInt16(beat) + 1, subbeat: UInt16(sub),
                             subbeatDivisor: UInt16(divisor), reserved: 0)
    }

    func beats(_ t: CABarBeatTime) -> Double {
        let meters = locked { meterTrack }
        var bar = 1
        for (i, m) in meters.enumerated() {
            let next = i + 1 < meters.count ? meters[i + 1].beats : .infinity
            let unit = 4 / Double(m.meterDenom)
            let barLength = unit * Double(m.meterNumer)
            let barsHere = next == .infinity ? 0 : Int(((next - m.beats) / barLength).rounded(.up))
            if next == .infinity || Int(t.bar) < bar + barsHere {
                let sub = t.subbeatDivisor > 0 ? Double(t.subbeat) / Double(t.subbeatDivisor) : 0
                return m.beats + Double(Int(t.bar) - bar) * barLength + (Double(t.beat) - 1 + sub) * unit
            }
            bar += barsHere
        }
        return 0
    }

    // MARK: Properties

    enum Value {
        case bytes([UInt8])
        case object(CFString?)
    }

    private static func bytes<T>(of v: T) -> [UInt8] { withUnsafeBytes(of: v) { Array($0) } }

    func value(_ id: CAClockPropertyID) -> Value? {
        locked {
            switch id {
            case .internalTimebase: return .bytes(Self.bytes(of: CAClockTimebase.hostTime))
            case .syncMode: return .bytes(Self.bytes(of: CAClockSyncMode.internal))
            case .smpteFormat: return .bytes(Self.bytes(of: smpteFormat))
            case .smpteOffset: return .bytes(Self.bytes(of: smpteOffset))
            case .tempoMap: return .bytes(tempoMap.withUnsafeBytes { Array($0) })
            case .meterTrack: return .bytes(meterTrack.withUnsafeBytes { Array($0) })
            case .name: return .object(name)
            default: return nil
            }
        }
    }

    func setValue(_ id: CAClockPropertyID, _ data: UnsafeRawPointer, size: Int) -> OSStatus {
        func one<T>(_ type: T.Type) -> T? { size == MemoryLayout<T>.size ? data.loadUnaligned(as: T.self) : nil }
        let status: OSStatus = locked {
            switch id {
            case .internalTimebase:
                guard let v = one(CAClockTimebase.self) else { return kCAClock_InvalidPropertySizeError }
                // Device and output-unit timebases are not here.
                return v == .hostTime ? noErr : kCAClock_InvalidTimebaseError
            case .syncMode:
                guard let v = one(CAClockSyncMode.self) else { return kCAClock_InvalidPropertySizeError }
                return v == .internal ? noErr : kCAClock_InvalidSyncModeError
            case .smpteFormat:
                guard let v = one(CAClockSMPTEFormat.self) else { return kCAClock_InvalidPropertySizeError }
                guard Self.framesPerSecond(v) != nil else { return kCAClock_InvalidSMPTEFormatError }
                smpteFormat = v
            case .smpteOffset:
                guard let v = one(Double.self) else { return kCAClock_InvalidPropertySizeError }
                guard v.isFinite, v >= 0 else { return kCAClock_InvalidSMPTEOffsetError }
                smpteOffset = v
            case .tempoMap:
                let n = size / MemoryLayout<CATempoMapEntry>.stride
                guard n > 0, size == n * MemoryLayout<CATempoMapEntry>.stride else { return kCAClock_InvalidPropertySizeError }
                let entries = (0..<n).map { data.loadUnaligned(fromByteOffset: $0 * MemoryLayout<CATempoMapEntry>.stride, as: CATempoMapEntry.self) }
                guard entries.allSatisfy({ $0.tempoBPM > 0 }) else { return kAudio_ParamError }
                tempoMap = entries.sorted { $0.beats < $1.beats }
            case .meterTrack:
                let n = size / MemoryLayout<CAMeterTrackEntry>.stride
                guard n > 0, size == n * MemoryLayout<CAMeterTrackEntry>.stride else { return kCAClock_InvalidPropertySizeError }
                let entries = (0..<n).map { data.loadUnaligned(fromByteOffset: $0 * MemoryLayout<CAMeterTrackEntry>.stride, as: CAMeterTrackEntry.self) }
                guard entries.allSatisfy({ $0.meterNumer > 0 && $0.meterDenom > 0 }) else { return kAudio_ParamError }
                meterTrack = entries.sorted { $0.beats < $1.beats }
            case .name:
                guard size == MemoryLayout<CFString?>.size else { return kCAClock_InvalidPropertySizeError }
                name = data.load(as: Unmanaged<CFString>?.self)?.takeUnretainedValue()
            default:
                return kCAClock_UnknownPropertyError
            }
            return noErr
        }
        if status == noErr { notify(.propertyChanged) }
        return status
    }
}
