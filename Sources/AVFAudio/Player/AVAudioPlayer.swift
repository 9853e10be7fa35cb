import CoreAudio
import Foundation

/// Plays an audio file, or the bytes of one held in memory, in any format AudioFile reads and AudioQueue
/// decodes (linear PCM, AAC, MP3, ALAC, FLAC, Opus, ...), through an output audio queue on the default device.
///
/// The file's packets are read on the queue's own thread (the book's chapter 5 player): three half-second
/// buffers, each refilled and enqueued again as it finishes. `stop()` releases the queue; `prepareToPlay()` and
/// `play()` make a new one.
///
/// Threading: the delegate is called on a private serial dispatch queue of the player, never on the main thread
/// and never on the audio queue's thread. A command-line program can therefore wait for
/// `audioPlayerDidFinishPlaying(_:successfully:)` with a semaphore, `RunLoop.current.run(until:)` or by polling
/// `isPlaying`; a program that needs the main thread hops there itself (`DispatchQueue.main.async`).
open class AVAudioPlayer: NSObject, @unchecked Sendable {
    /// An in-memory file's bytes, read by AudioFile through callbacks.
    private final class MemoryFile {
        let bytes: Data
        init(_ bytes: Data) { self.bytes = bytes }
    }

    /// What opening the file found out.
    private struct Source {
        var file: AudioFileID
        var memory: MemoryFile?
        var streamFormat: AudioStreamBasicDescription
        var format: AVAudioFormat
        var packetCount: Int64
        var validFrames: Int64
        var priming: UInt32
        var remainder: UInt32
        var maximumPacketSize: UInt32
        var cookie: [UInt8]
        var layout: [UInt8]
    }

    private let file: AudioFileID
    private let memory: MemoryFile?
    private let streamFormat: AudioStreamBasicDescription
    private let packetCount: Int64
    private let validFrames: Int64
    private let priming: UInt32
    private let remainder: UInt32
    private let maximumPacketSize: UInt32
    private let cookie: [UInt8]
    private let layout: [UInt8]
    /// Delegate calls, scheduled starts, fades and the end of play-out run here, one at a time.
    private let service = DispatchQueue(label: "AVAudioPlayer")

    // MARK: State (under `lock`)

    private let lock = NSRecursiveLock()
    private var queue: AudioQueueRef?
    /// The token the current queue's callbacks carry (see AudioQueueOwners).
    private var token: UInt = 0
    private var buffers: [AudioQueueBufferRef] = []
    private var nextPacket: Int64 = 0
    private var loopsLeft = 0
    /// Every packet (and loop) has been enqueued.
    private var feedDone = false
    private var playing = false
    /// play(atTime:) is waiting for its time; `schedule` tells a stale wait from the current one.
    private var startPending = false
    private var schedule = 0
    /// Fades in progress are cancelled by any later volume change.
    private var fade = 0
    /// Where the next run starts, in seconds of the file.
    private var position: TimeInterval = 0
    /// The current run: the file position it began at, the queue time of the last rate change and the position then.
    private var segment = (source: 0.0, queueFrames: 0.0, rate: 1.0)
    private var meters = QueueLevelMeters()
    private var _volume: Float = 1
    private var _pan: Float = 0
    private var _rate: Float = 1
    private var _enableRate = false
    private var _numberOfLoops = 0
    private var _metering = false

    // MARK: Creating a player

    /// A player for the audio file at `url`.
    public init(contentsOf url: URL) throws {
        let s = try Self.open(url: url, data: nil, hint: nil)
        (file, memory, streamFormat, packetCount, validFrames) = (s.file, s.memory, s.streamFormat, s.packetCount, s.validFrames)
        (priming, remainder, maximumPacketSize, cookie, layout) = (s.priming, s.remainder, s.maximumPacketSize, s.cookie, s.layout)
        self.url = url
        self.data = nil
        self.format = s.format
        super.init()
    }

    /// A player for the audio file at `url`, parsed first as the type the uniform type identifier `utiString`
    /// names (for example "com.microsoft.waveform-audio"), for files whose type their bytes do not make plain.
    public init(contentsOf url: URL, fileTypeHint utiString: String?) throws {
        let s = try Self.open(url: url, data: nil, hint: utiString)
        (file, memory, streamFormat, packetCount, validFrames) = (s.file, s.memory, s.streamFormat, s.packetCount, s.validFrames)
        (priming, remainder, maximumPacketSize, cookie, layout) = (s.priming, s.remainder, s.maximumPacketSize, s.cookie, s.layout)
        self.url = url
        self.data = nil
        self.format = s.format
        super.init()
    }

    /// A player for an audio file held in memory (the whole file, header included).
    public init(data: Data) throws {
        let s = try Self.open(url: nil, data: data, hint: nil)
        (file, memory, streamFormat, packetCount, validFrames) = (s.file, s.memory, s.streamFormat, s.packetCount, s.validFrames)
        (priming, remainder, maximumPacketSize, cookie, layout) = (s.priming, s.remainder, s.maximumPacketSize, s.cookie, s.layout)
        self.url = nil
        self.data = data
        self.format = s.format
        super.init()
    }

    /// A player for an audio file held in memory, parsed first as the type `utiString` names.
    public init(data: Data, fileTypeHint utiString: String?) throws {
        let s = try Self.open(url: nil, data: data, hint: utiString)
        (file, memory, streamFormat, packetCount, validFrames) = (s.file, s.memory, s.streamFormat, s.packetCount, s.validFrames)
        (priming, remainder, maximumPacketSize, cookie, layout) = (s.priming, s.remainder, s.maximumPacketSize, s.cookie, s.layout)
        self.url = nil
        self.data = data
        self.format = s.format
        super.init()
    }

    deinit {
        lock.lock()
        teardown()
        lock.unlock()
        AudioFileClose(file)
        _ = memory  // the callbacks' bytes live until the file is closed
    }

    // MARK: Properties

    /// The file's location; nil for a player made from data.
    public let url: URL?
    /// The file's bytes; nil for a player made from a URL.
    public let data: Data?
    /// The format of the audio in the file (with its magic cookie, if it has one).
    public let format: AVAudioFormat

    /// The format as a settings dictionary (AVFormatIDKey, AVSampleRateKey, AVNumberOfChannelsKey, ...).
    public var settings: [String: Any] { format.settings }

    /// The file's channel count.
    public var numberOfChannels: Int { Int(streamFormat.mChannelsPerFrame) }

    /// The file's length in seconds (its valid frames, without an encoder's priming and remainder).
    public var duration: TimeInterval { streamFormat.mSampleRate > 0 ? Double(validFrames) / streamFormat.mSampleRate : 0 }

    /// The delegate, told when playback finishes or a packet cannot be decoded (on the player's own serial queue).
    public weak var delegate: AVAudioPlayerDelegate?

    /// Whether the player is playing (or waiting for the time play(atTime:) gave).
    public var isPlaying: Bool { lock.withLock { playing } }

    /// The playback gain, 0 to 1.
    public var volume: Float {
        get { lock.withLock { _volume } }
        set {
            lock.withLock {
                fade += 1
                _volume = min(max(newValue, 0), 1)
                applyVolume(ramp: 0)
            }
        }
    }

    /// Moves the volume to `volume` linearly over `duration` seconds (at once for 0).
    public func setVolume(_ volume: Float, fadeDuration duration: TimeInterval) {
        let target = min(max(volume, 0), 1)
        guard duration > 0 else { self.volume = target; return }
        // Steps of 20 ms; the queue ramps within each step, so the fade has no zipper noise.
        let steps = max(Int((duration / 0.02).rounded()), 1)
        let (generation, from) = lock.withLock { () -> (Int, Float) in
            fade += 1
            return (fade, _volume)
        }
        for k in 1...steps {
            service.asyncAfter(deadline: .now() + duration * Double(k) / Double(steps)) { [self] in
                lock.withLock {
                    guard fade == generation else { return }
                    _volume = from + (target - from) * Float(k) / Float(steps)
                    applyVolume(ramp: Float(duration) / Float(steps))
                }
            }
        }
    }

    /// Stereo balance, -1 (left) to 1 (right). Applies to two-channel files (a mono file plays centred).
    public var pan: Float {
        get { lock.withLock { _pan } }
        set {
            lock.withLock {
                _pan = min(max(newValue, -1), 1)
                if let queue { AudioQueueSetParameter(queue, kAudioQueueParam_Pan, _pan) }
            }
        }
    }

    /// Whether `rate` takes effect; set it before prepareToPlay() (the queue's time-pitch processor is
    /// chosen when the queue is made).
    public var enableRate: Bool {
        get { lock.withLock { _enableRate } }
        set { lock.withLock { _enableRate = newValue } }
    }

    /// The playback rate, 0.5 to 2, pitch kept (needs enableRate).
    public var rate: Float {
        get { lock.withLock { _rate } }
        set {
            lock.withLock {
                let r = min(max(newValue, 0.5), 2)
                guard r != _rate else { return }
                if let queue, _enableRate, let frames = queueFrames() {
                    // The time so far counts at the old rate.
                    segment = (source: rawPosition(frames), queueFrames: frames, rate: Double(r))
                    AudioQueueSetParameter(queue, kAudioQueueParam_PlayRate, r)
                }
                _rate = r
            }
        }
    }

    /// How many times playback returns to the start after reaching the end: 0 plays once, 1 twice, a negative
    /// number until stop() or pause().
    public var numberOfLoops: Int {
        get { lock.withLock { _numberOfLoops } }
        set {
            lock.withLock {
                _numberOfLoops = newValue
                if queue != nil && !feedDone { loopsLeft = newValue }
            }
        }
    }

    /// The playback position in seconds: where playing is (while it plays) or would start. Setting it seeks.
    public var currentTime: TimeInterval {
        get { lock.withLock { currentPosition() } }
        set {
            lock.withLock {
                position = min(max(newValue.isFinite ? newValue : 0, 0), duration)
                guard queue != nil else { return }
                let resume = playing && !startPending
                teardown()
                if prepare(), resume {
                    if !start() { playing = false }
                }
            }
        }
    }

    /// The host clock in seconds, the time base of play(atTime:). It runs whether or not anything plays.
    public var deviceCurrentTime: TimeInterval { Double(AudioConvertHostTimeToNanos(AudioGetCurrentHostTime())) / 1e9 }

    /// Whether the queue measures levels for updateMeters(). Off by default.
    public var isMeteringEnabled: Bool {
        get { lock.withLock { _metering } }
        set {
            lock.withLock {
                _metering = newValue
                meters.clear()
                if let queue {
                    var on: UInt32 = newValue ? 1 : 0
                    AudioQueueSetProperty(queue, kAudioQueueProperty_EnableLevelMetering, &on, 4)
                }
            }
        }
    }

    /// Reads the levels of the audio played most recently (one device cycle) for peakPower and averagePower.
    public func updateMeters() {
        lock.withLock {
            guard _metering, let queue else { meters.clear(); return }
            meters.update(queue, channels: numberOfChannels)
        }
    }

    /// The peak level of a channel at the last updateMeters(), in decibels: -160 (silence) to 0 (full scale).
    public func peakPower(forChannel channelNumber: Int) -> Float {
        lock.withLock { meters.peak(channelNumber) }
    }

    /// The RMS level of a channel at the last updateMeters(), in decibels: -160 (silence) to 0 (full scale).
    public func averagePower(forChannel channelNumber: Int) -> Float {
        lock.withLock { meters.average(channelNumber) }
    }

    // MARK: Transport

    /// Makes the audio queue and fills its buffers, so that play() starts at once. play() calls it when needed.
    @discardableResult
    public func prepareToPlay() -> Bool {
        lock.withLock { prepare() }
    }

    /// Starts (or resumes) playing from currentTime. Returns false when the queue cannot be made or started
    /// (no output device, for instance).
    @discardableResult
    public func play() -> Bool {
        lock.withLock {
            if playing && !startPending { return true }
            schedule += 1
            startPending = false
            guard prepare() else { return false }
            return start()
        }
    }

    /// Starts playing at `time` on the deviceCurrentTime clock (at once if that time has passed). isPlaying is
    /// true from now on.
    @discardableResult
    public func play(atTime time: TimeInterval) -> Bool {
        let delay = time - deviceCurrentTime
        if delay <= 0 { return play() }
        return lock.withLock {
            if playing && !startPending { return true }
            guard prepare() else { return false }
            schedule += 1
            let generation = schedule
            startPending = true
            playing = true
            service.asyncAfter(deadline: .now() + delay) { [self] in
                lock.withLock {
                    guard schedule == generation, startPending else { return }
                    startPending = false
                    if !start() { playing = false }
                }
            }
            return true
        }
    }

    /// Pauses; play() resumes from here. The queue and its buffers stay ready.
    public func pause() {
        lock.withLock {
            schedule += 1
            if startPending {
                startPending = false
            } else if playing, let queue {
                AudioQueuePause(queue)
            }
            playing = false
        }
    }

    /// Stops playing and releases the audio queue. currentTime stays where playing stopped (set it to 0 to
    /// start over).
    public func stop() {
        lock.withLock {
            schedule += 1
            position = currentPosition()
            teardown()
            playing = false
            startPending = false
        }
    }

    // MARK: The queue (callers hold the lock)

    /// Makes the queue and primes it from `position`; true when it is ready (or already was).
    private func prepare() -> Bool {
        if queue != nil { return true }
        var asbd = streamFormat
        let t = AudioQueueOwners.shared.register(self)
        let user = AudioQueueOwners.pointer(t)
        var made: AudioQueueRef?
        guard AudioQueueNewOutput(&asbd, Self.outputCallback, user, nil, nil, 0, &made) == noErr, let q = made else {
            AudioQueueOwners.shared.unregister(t)
            return false
        }
        queue = q
        token = t
        if !cookie.isEmpty { AudioQueueSetProperty(q, kAudioQueueProperty_MagicCookie, cookie, UInt32(cookie.count)) }
        if !layout.isEmpty { AudioQueueSetProperty(q, kAudioQueueProperty_ChannelLayout, layout, UInt32(layout.count)) }
        AudioQueueAddPropertyListener(q, kAudioQueueProperty_IsRunning, Self.runningListener, user)
        if _enableRate {
            var on: UInt32 = 1
            AudioQueueSetProperty(q, kAudioQueueProperty_EnableTimePitch, &on, 4)
            AudioQueueSetParameter(q, kAudioQueueParam_PlayRate, _rate)
        }
        if _metering {
            var on: UInt32 = 1
            AudioQueueSetProperty(q, kAudioQueueProperty_EnableLevelMetering, &on, 4)
        }
        applyVolume(ramp: 0)
        AudioQueueSetParameter(q, kAudioQueueParam_Pan, _pan)

        // Half a second per buffer, as the book's player.
        let framesPerPacket = max(Double(streamFormat.mFramesPerPacket), 1)
        let packets = max(UInt32((0.5 * streamFormat.mSampleRate / framesPerPacket).rounded(.up)), 1)
        let variable = streamFormat.mBytesPerPacket == 0 || streamFormat.mFramesPerPacket == 0
        let bytes = variable ? packets * max(maximumPacketSize, 1) : packets * streamFormat.mBytesPerPacket
        for _ in 0..<3 {
            var b: AudioQueueBufferRef?
            let status = variable ? AudioQueueAllocateBufferWithPacketDescriptions(q, bytes, packets, &b) : AudioQueueAllocateBuffer(q, bytes, &b)
            guard status == noErr, let b else { teardown(); return false }
            buffers.append(b)
        }
        nextPacket = min(Int64((position * streamFormat.mSampleRate / framesPerPacket).rounded(.down)), packetCount)
        loopsLeft = _numberOfLoops
        feedDone = false
        segment = (source: position, queueFrames: 0, rate: _enableRate ? Double(_rate) : 1)
        for b in buffers where !feedDone {
            switch enqueue(b, on: q) {
            case .enqueued: break
            case .end: feedDone = true
            case .failed: teardown(); return false
            }
        }
        return true
    }

    /// Starts the prepared queue.
    private func start() -> Bool {
        guard let queue else { return false }
        guard AudioQueueStart(queue, nil) == noErr else { return false }
        playing = true
        // Everything fitted in the first buffers: play it out and stop.
        if feedDone { AudioQueueStop(queue, false) }
        return true
    }

    /// Disposes of the queue at once; its callbacks still on their way are ignored (their token is gone).
    private func teardown() {
        if let queue { AudioQueueDispose(queue, true) }
        AudioQueueOwners.shared.unregister(token)
        queue = nil
        token = 0
        buffers = []
        meters.clear()
        feedDone = false
    }

    private enum Fill { case enqueued, end, failed(OSStatus) }

    /// Reads the next packets (returning to the start for a loop) into `buffer` and enqueues it; the encoder's
    /// priming and remainder frames are trimmed where the file says.
    private func enqueue(_ buffer: AudioQueueBufferRef, on q: AudioQueueRef) -> Fill {
        let variable = buffer.pointee.mPacketDescriptionCapacity > 0
        for _ in 0..<2 {
            if nextPacket >= packetCount {
                guard loopsLeft != 0, packetCount > 0 else { return .end }
                if loopsLeft > 0 { loopsLeft -= 1 }
                nextPacket = 0
            }
            let first = nextPacket
            var bytes = buffer.pointee.mAudioDataBytesCapacity
            var packets = variable ? buffer.pointee.mPacketDescriptionCapacity : bytes / max(streamFormat.mBytesPerPacket, 1)
            let status = AudioFileReadPacketData(file, false, &bytes, variable ? buffer.pointee.mPacketDescriptions : nil, first, &packets,
                                                 buffer.pointee.mAudioData)
            guard status == noErr || status == kAudioFileEndOfFileError else { return .failed(status) }
            if packets == 0 {
                nextPacket = packetCount  // the file ended before its packet count: loop or end now
                continue
            }
            buffer.pointee.mAudioDataByteSize = bytes
            buffer.pointee.mPacketDescriptionCount = variable ? packets : 0
            nextPacket = first + Int64(packets)
            let trimStart = first == 0 ? priming : 0
            let trimEnd = nextPacket >= packetCount ? remainder : 0
            let enqueued: OSStatus
            if trimStart == 0 && trimEnd == 0 {
                enqueued = AudioQueueEnqueueBuffer(q, buffer, variable ? packets : 0, variable ? buffer.pointee.mPacketDescriptions : nil)
            } else {
                enqueued = AudioQueueEnqueueBufferWithParameters(q, buffer, variable ? packets : 0, variable ? buffer.pointee.mPacketDescriptions : nil,
                                                                 trimStart, trimEnd, 0, nil, nil, nil)
            }
            return enqueued == noErr ? .enqueued : .failed(enqueued)
        }
        return .end
    }

    /// The queue's thread: a buffer has played; refill it or, at the end, let the queue play out.
    private func refill(_ buffer: AudioQueueBufferRef, queue q: AudioQueueRef, token t: UInt) {
        lock.lock()
        guard t == token, !feedDone else { lock.unlock(); return }
        switch enqueue(buffer, on: q) {
        case .enqueued:
            lock.unlock()
        case .end:
            feedDone = true
            if playing && !startPending { AudioQueueStop(q, false) }
            lock.unlock()
        case .failed(let status):
            feedDone = true
            lock.unlock()
            service.async { [self] in finish(token: t, error: AVAudioError.make(status)) }
        }
    }

    /// The player's queue: play-out ended (or decoding failed); release the queue and tell the delegate.
    private func finish(token t: UInt, error: NSError?) {
        lock.lock()
        guard t == token, feedDone || error != nil else { lock.unlock(); return }
        teardown()
        playing = false
        startPending = false
        position = 0
        lock.unlock()
        if let error { delegate?.audioPlayerDecodeErrorDidOccur(self, error: error) }
        delegate?.audioPlayerDidFinishPlaying(self, successfully: error == nil)
    }

    private static let outputCallback: AudioQueueOutputCallback = { token, queue, buffer in
        AudioQueueOwners.shared.owner(token, as: AVAudioPlayer.self)?.refill(buffer, queue: queue, token: UInt(bitPattern: token))
    }

    private static let runningListener: AudioQueuePropertyListenerProc = { token, queue, id in
        var running: UInt32 = 1
        var size = UInt32(4)
        guard AudioQueueGetProperty(queue, kAudioQueueProperty_IsRunning, &running, &size) == noErr, running == 0,
              let player = AudioQueueOwners.shared.owner(token, as: AVAudioPlayer.self) else { return }
        let t = UInt(bitPattern: token)
        player.service.async { player.finish(token: t, error: nil) }
    }

    // MARK: Position and levels (callers hold the lock)

    /// Frames the running or paused queue has played; nil before it started.
    private func queueFrames() -> Double? {
        guard let queue, !startPending else { return nil }
        var t = AudioTimeStamp()
        guard AudioQueueGetCurrentTime(queue, nil, &t, nil) == noErr else { return nil }
        return t.mSampleTime
    }

    /// The position in the file the queue has reached, counting loops (not wrapped).
    private func rawPosition(_ frames: Double) -> Double {
        segment.source + (frames - segment.queueFrames) / streamFormat.mSampleRate * segment.rate
    }

    private func currentPosition() -> TimeInterval {
        guard let frames = queueFrames() else { return queue == nil ? position : segment.source }
        let p = rawPosition(frames)
        let d = duration
        guard d > 0 else { return 0 }
        return _numberOfLoops != 0 ? p.truncatingRemainder(dividingBy: d) : min(p, d)
    }

    private func applyVolume(ramp: Float) {
        guard let queue else { return }
        AudioQueueSetParameter(queue, kAudioQueueParam_VolumeRampTime, ramp)
        AudioQueueSetParameter(queue, kAudioQueueParam_Volume, _volume)
    }


    // MARK: Opening

    /// The AudioFileTypeID a uniform type identifier names (AVFileType's values), 0 when unknown.
    static func fileType(uti: String?) -> AudioFileTypeID {
        switch uti?.lowercased() {
        case "com.apple.coreaudio-format": kAudioFileCAFType
        case "com.microsoft.waveform-audio": kAudioFileWAVEType
        case "public.aiff-audio": kAudioFileAIFFType
        case "public.aifc-audio": kAudioFileAIFCType
        case "public.mp3": kAudioFileMP3Type
        case "com.apple.m4a-audio": kAudioFileM4AType
        case "public.mpeg-4", "public.mpeg-4-audio": kAudioFileMPEG4Type
        case "public.aac-audio": kAudioFileAAC_ADTSType
        case "public.ac3-audio": kAudioFileAC3Type
        case "public.3gpp": kAudioFile3GPType
        case "public.3gpp2": kAudioFile3GP2Type
        case "org.xiph.flac": kAudioFileFLACType
        case "org.3gpp.adaptive-multi-rate-audio": kAudioFileAMRType
        default: 0
        }
    }

    private static let readProc: AudioFile_ReadProc = { client, position, count, buffer, actual in
        let m = Unmanaged<MemoryFile>.fromOpaque(client).takeUnretainedValue()
        guard position >= 0 else { actual.pointee = 0; return kAudioFilePositionError }
        let start = min(Int(position), m.bytes.count)
        let n = min(Int(count), m.bytes.count - start)
        m.bytes.withUnsafeBytes { raw in
            if n > 0, let base = raw.baseAddress { buffer.copyMemory(from: base + start, byteCount: n) }
        }
        actual.pointee = UInt32(n)
        return n < Int(count) && n == 0 ? kAudioFileEndOfFileError : noErr
    }

    private static let sizeProc: AudioFile_GetSizeProc = { client in
        Int64(Unmanaged<MemoryFile>.fromOpaque(client).takeUnretainedValue().bytes.count)
    }

    /// Opens the file (or the bytes) and checks that an output queue can play its format.
    private static func open(url: URL?, data: Data?, hint: String?) throws -> Source {
        var id: AudioFileID?
        var memory: MemoryFile?
        if let url {
            try AVAudioError.check(AudioFileOpenURL(url as NSURL as CFURL, .readPermission, fileType(uti: hint), &id))
        } else {
            let m = MemoryFile(data ?? Data())
            memory = m
            try AVAudioError.check(AudioFileOpenWithCallbacks(Unmanaged.passUnretained(m).toOpaque(), readProc, nil, sizeProc, nil,
                                                              fileType(uti: hint), &id))
        }
        guard let file = id else { throw AVAudioError.make(kAudioFileUnspecifiedError) }
        do {
            var asbd = AudioStreamBasicDescription()
            var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
            try AVAudioError.check(AudioFileGetProperty(file, kAudioFilePropertyDataFormat, &size, &asbd))
            var packets: UInt64 = 0
            size = 8
            try AVAudioError.check(AudioFileGetProperty(file, kAudioFilePropertyAudioDataPacketCount, &size, &packets))
            var maximum: UInt32 = 0
            size = 4
            if AudioFileGetProperty(file, kAudioFilePropertyPacketSizeUpperBound, &size, &maximum) != noErr || maximum == 0 {
                size = 4
                AudioFileGetProperty(file, kAudioFilePropertyMaximumPacketSize, &size, &maximum)
            }
            var table = AudioFilePacketTableInfo()
            size = UInt32(MemoryLayout<AudioFilePacketTableInfo>.size)
            let hasTable = AudioFileGetProperty(file, kAudioFilePropertyPacketTableInfo, &size, &table) == noErr && table.mNumberValidFrames > 0
            let framesPerPacket = Int64(max(asbd.mFramesPerPacket, 1))
            let valid = hasTable ? table.mNumberValidFrames : Int64(packets) * framesPerPacket
            let cookie = blob(file, kAudioFilePropertyMagicCookieData)
            let layout = blob(file, kAudioFilePropertyChannelLayout)

            // The queue refuses what it cannot play (a format no codec decodes): ask it now, as Apple's init fails then.
            var probe: AudioQueueRef?
            try AVAudioError.check(AudioQueueNewOutput(&asbd, outputCallback, nil, nil, nil, 0, &probe))
            if let probe { AudioQueueDispose(probe, true) }

            var channelLayout: AVAudioChannelLayout?
            if layout.count >= MemoryLayout<AudioChannelLayout>.size {
                channelLayout = layout.withUnsafeBytes { raw in
                    let l = AVAudioChannelLayout(layout: raw.baseAddress!.assumingMemoryBound(to: AudioChannelLayout.self))
                    return l.channelCount == asbd.mChannelsPerFrame ? l : nil
                }
            }
            guard let format = AVAudioFormat(streamDescription: &asbd, channelLayout: channelLayout) ?? AVAudioFormat(streamDescription: &asbd)
            else { throw AVAudioError.make(kAudioFileUnsupportedDataFormatError) }
            if !cookie.isEmpty { format.magicCookie = Data(cookie) }
            return Source(file: file, memory: memory, streamFormat: asbd, format: format, packetCount: Int64(packets), validFrames: max(valid, 0),
                          priming: hasTable ? UInt32(clamping: table.mPrimingFrames) : 0,
                          remainder: hasTable ? UInt32(clamping: table.mRemainderFrames) : 0,
                          maximumPacketSize: maximum, cookie: cookie, layout: layout)
        } catch {
            AudioFileClose(file)
            throw error
        }
    }

    /// A variable-size AudioFile property's bytes (empty when the file has none).
    private static func blob(_ file: AudioFileID, _ id: AudioFilePropertyID) -> [UInt8] {
        var size: UInt32 = 0
        guard AudioFileGetPropertyInfo(file, id, &size, nil) == noErr, size > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        guard AudioFileGetProperty(file, id, &size, &bytes) == noErr else { return [] }
        return Array(bytes.prefix(Int(size)))
    }
}
