import CoreAudio
import Foundation

/// Records the default input device into a file through an input audio queue, as the book's chapter 4
/// recorder does: the queue's format (the codec fills in what the settings leave open), the file made with
/// AudioFileCreateWithURL, packets written with AudioFileWritePackets, and the encoder's magic cookie copied
/// into the file before and after recording. Linear PCM goes into CAF, WAV or AIFF; compressed formats (AAC,
/// ALAC, FLAC, Opus) into CAF, and AAC also into .m4a.
///
/// The file is created (replacing one at the URL) by init and again by the first record() after stop().
///
/// Threading: the delegate is called on a private serial dispatch queue of the recorder, never on the main
/// thread: a command-line program can wait for it with a semaphore or `RunLoop.current.run(until:)`.
open class AVAudioRecorder: NSObject, @unchecked Sendable {
    /// The file's location.
    public let url: URL
    /// The format recorded (with the encoder's magic cookie for compressed formats).
    public let format: AVAudioFormat
    /// The delegate, told when a recording ends and when encoding fails (on the recorder's own serial queue).
    public weak var delegate: AVAudioRecorderDelegate?

    private let fileType: AudioFileTypeID
    private let requested: AudioStreamBasicDescription
    private let streamFormat: AudioStreamBasicDescription
    private let encoder: EncoderSettings
    private let service = DispatchQueue(label: "AVAudioRecorder")
    /// Each buffer holds this much audio: the granularity of callbacks and of a compressed recording's length.
    private static let bufferSeconds = 0.1
    private static let bufferCount = 5

    // MARK: State (under `lock`)

    private let lock = NSCondition()
    private var queue: AudioQueueRef?
    private var token: UInt = 0
    private var file: AudioFileID?
    /// Buffers the queue holds (enqueued and not yet handed back).
    private var outstanding = 0
    private var recordPacket: Int64 = 0
    private var framesWritten: Int64 = 0
    /// recordForDuration's length in frames.
    private var limitFrames: Int64?
    private var recording = false
    private var started = false
    private var stopping = false
    private var startPending = false
    private var schedule = 0
    private var meters = QueueLevelMeters()
    private var _metering = false

    /// A recorder into `url` in the format `settings` describe (AVFormatIDKey, AVSampleRateKey,
    /// AVNumberOfChannelsKey, the linear PCM keys); the file type is AVAudioFileTypeKey's or the one the extension
    /// names. Throws an NSOSStatusErrorDomain error when the format cannot be recorded or the file type cannot
    /// hold it.
    public init(url: URL, settings: [String: Any]) throws {
        let s = try Self.configure(url: url, settings: settings)
        self.url = url
        (fileType, requested, streamFormat, self.format, encoder) = (s.fileType, s.requested, s.streamFormat, s.format, s.encoder)
        super.init()
        try lock.withLock { try createFile() }
    }

    /// A recorder into `url` in `format` (its settings, as init(url:settings:) takes them).
    public init(url: URL, format: AVAudioFormat) throws {
        let s = try Self.configure(url: url, settings: format.settings)
        self.url = url
        (fileType, requested, streamFormat, self.format, encoder) = (s.fileType, s.requested, s.streamFormat, s.format, s.encoder)
        super.init()
        try lock.withLock { try createFile() }
    }

    private struct Setup {
        var fileType: AudioFileTypeID
        var requested: AudioStreamBasicDescription
        var streamFormat: AudioStreamBasicDescription
        var format: AVAudioFormat
        var encoder: EncoderSettings
    }

    /// The file type and the format the queue records, completed by the queue (packet size, frames per packet),
    /// as the book asks a queue for them.
    private static func configure(url: URL, settings: [String: Any]) throws -> Setup {
        let type = try SettingsValue.number(settings[AVAudioFileTypeKey]).map { AudioFileTypeID($0) } ?? AVAudioFile.fileType(for: url)
        var adjusted = settings
        // AIFF holds big-endian samples only: unless the settings say otherwise, record those.
        if type == kAudioFileAIFFType && settings[AVLinearPCMIsBigEndianKey] == nil { adjusted[AVLinearPCMIsBigEndianKey] = true }
        // The queue records interleaved samples; a one-channel format is the same either way.
        if SettingsValue.flag(settings[AVLinearPCMIsNonInterleaved]) == true { adjusted[AVLinearPCMIsNonInterleaved] = false }
        guard let description = AVAudioFormat.description(settings: adjusted) else { throw AVAudioError.make(kAudioFormatUnsupportedDataFormatError) }
        var asbd = description
        var probe: AudioQueueRef?
        try AVAudioError.check(AudioQueueNewInput(&asbd, inputCallback, nil, nil, nil, 0, &probe))
        guard let probe else { throw AVAudioError.make(kAudioQueueErr_InvalidDevice) }
        // The encoder's bit rate, quality and strategy, as the queue takes them (a value the codec refuses is left at
        // the codec's choice, as AVAudioFile leaves it); the cookie below then describes that bit rate.
        let encoder = EncoderSettings(settings, channels: description.mChannelsPerFrame)
        encoder.apply { id, value in
            var v = value
            AudioQueueSetProperty(probe, id, &v, 4)
        }
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        AudioQueueGetProperty(probe, kAudioConverterCurrentOutputStreamDescription, &asbd, &size)
        let cookie = Self.cookie(of: probe)
        AudioQueueDispose(probe, true)
        guard let format = AVAudioFormat(streamDescription: &asbd) else { throw AVAudioError.make(kAudioFormatUnsupportedDataFormatError) }
        if !cookie.isEmpty { format.magicCookie = Data(cookie) }
        return Setup(fileType: type, requested: description, streamFormat: asbd, format: format, encoder: encoder)
    }

    deinit {
        lock.lock()
        if let queue { AudioQueueDispose(queue, true) }
        AudioQueueOwners.shared.unregister(token)
        if let file { AudioFileClose(file) }
        lock.unlock()
    }

    // MARK: Properties

    /// The recorder's format as a settings dictionary.
    public var settings: [String: Any] {
        var s = format.settings
        s[AVAudioFileTypeKey] = NSNumber(value: fileType)
        return s
    }

    /// Whether the recorder is recording (or waiting for the time record(atTime:) gave).
    public var isRecording: Bool { lock.withLock { recording } }

    /// Seconds recorded so far; 0 when not recording (or paused, waiting to start).
    public var currentTime: TimeInterval {
        lock.withLock {
            guard let queue, started else { return 0 }
            var t = AudioTimeStamp()
            guard AudioQueueGetCurrentTime(queue, nil, &t, nil) == noErr else { return 0 }
            let seconds = t.mSampleTime / streamFormat.mSampleRate
            if let limitFrames { return min(seconds, Double(limitFrames) / streamFormat.mSampleRate) }
            return seconds
        }
    }

    /// The host clock in seconds, the time base of record(atTime:).
    public var deviceCurrentTime: TimeInterval { Double(AudioConvertHostTimeToNanos(AudioGetCurrentHostTime())) / 1e9 }

    /// Whether the queue measures input levels for updateMeters(). Off by default.
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

    /// Reads the levels of the audio recorded most recently (one device cycle).
    public func updateMeters() {
        lock.withLock {
            guard _metering, let queue else { meters.clear(); return }
            meters.update(queue, channels: Int(streamFormat.mChannelsPerFrame))
        }
    }

    /// The peak input level of a channel at the last updateMeters(), in decibels (-160 to 0).
    public func peakPower(forChannel channelNumber: Int) -> Float {
        lock.withLock { meters.peak(channelNumber) }
    }

    /// The RMS input level of a channel at the last updateMeters(), in decibels (-160 to 0).
    public func averagePower(forChannel channelNumber: Int) -> Float {
        lock.withLock { meters.average(channelNumber) }
    }

    // MARK: Transport

    /// Creates the file (if stop() closed it) and the input queue with its buffers.
    @discardableResult
    public func prepareToRecord() -> Bool {
        lock.withLock { prepare() }
    }

    /// Starts or resumes recording.
    @discardableResult
    public func record() -> Bool {
        lock.withLock {
            schedule += 1
            startPending = false
            limitFrames = nil
            return begin()
        }
    }

    /// Starts recording at `time` on the deviceCurrentTime clock (at once if it has passed).
    @discardableResult
    public func record(atTime time: TimeInterval) -> Bool {
        scheduleRecording(at: time, limit: nil)
    }

    /// Records for `duration` seconds, then stops (the delegate is told, as for stop()).
    @discardableResult
    public func record(forDuration duration: TimeInterval) -> Bool {
        guard duration > 0 else { return false }
        return lock.withLock {
            schedule += 1
            startPending = false
            limitFrames = framesWritten + Int64((duration * streamFormat.mSampleRate).rounded())
            return begin()
        }
    }

    /// Starts recording at `time` (deviceCurrentTime's clock) and records for `duration` seconds.
    @discardableResult
    public func record(atTime time: TimeInterval, forDuration duration: TimeInterval) -> Bool {
        guard duration > 0 else { return false }
        return scheduleRecording(at: time, limit: duration)
    }

    /// Pauses; record() resumes into the same file.
    public func pause() {
        lock.withLock {
            schedule += 1
            if startPending {
                startPending = false
            } else if recording, let queue {
                AudioQueuePause(queue)
            }
            recording = false
        }
    }

    /// Stops recording and closes the file (the delegate is told). record() then starts a new file.
    public func stop() {
        let stopped = lock.withLock { finishLocked() }
        if stopped { service.async { [self] in delegate?.audioRecorderDidFinishRecording(self, successfully: true) } }
    }

    /// Deletes the recorded file; fails (false) while recording.
    @discardableResult
    public func deleteRecording() -> Bool {
        lock.withLock {
            guard !recording, !startPending else { return false }
            // A paused or prepared recording is finished first; the next record() makes a new file.
            if queue != nil {
                _ = finishLocked()
            } else if let file {
                AudioFileClose(file)
                self.file = nil
            }
            return (try? FileManager.default.removeItem(at: url)) != nil
        }
    }

    // MARK: Internals (callers hold the lock)

    private func scheduleRecording(at time: TimeInterval, limit: TimeInterval?) -> Bool {
        let delay = time - deviceCurrentTime
        return lock.withLock {
            schedule += 1
            limitFrames = limit.map { framesWritten + Int64(($0 * streamFormat.mSampleRate).rounded()) }
            if delay <= 0 { startPending = false; return begin() }
            guard prepare() else { return false }
            let generation = schedule
            startPending = true
            recording = true
            service.asyncAfter(deadline: .now() + delay) { [self] in
                lock.withLock {
                    guard schedule == generation, startPending else { return }
                    startPending = false
                    if !begin() { recording = false }
                }
            }
            return true
        }
    }

    private func begin() -> Bool {
        guard prepare(), let queue else { return false }
        guard AudioQueueStart(queue, nil) == noErr else { return false }
        recording = true
        started = true
        return true
    }

    private func createFile() throws {
        var asbd = streamFormat
        var made: AudioFileID?
        try AVAudioError.check(AudioFileCreateWithURL(url as NSURL as CFURL, fileType, &asbd, .eraseFile, &made))
        guard let made else { throw AVAudioError.make(kAudioFileUnspecifiedError) }
        file = made
        recordPacket = 0
        framesWritten = 0
    }

    private func prepare() -> Bool {
        if queue != nil { return true }
        if file == nil {
            do { try createFile() } catch { return false }
        }
        guard let file else { return false }
        var asbd = requested
        let t = AudioQueueOwners.shared.register(self)
        var made: AudioQueueRef?
        guard AudioQueueNewInput(&asbd, Self.inputCallback, AudioQueueOwners.pointer(t), nil, nil, 0, &made) == noErr, let q = made else {
            AudioQueueOwners.shared.unregister(t)
            return false
        }
        queue = q
        token = t
        encoder.apply { id, value in
            var v = value
            AudioQueueSetProperty(q, id, &v, 4)
        }
        if _metering {
            var on: UInt32 = 1
            AudioQueueSetProperty(q, kAudioQueueProperty_EnableLevelMetering, &on, 4)
        }
        copyCookie(from: q, to: file)
        // MyComputeRecordBufferSize: a tenth of a second of packets at their largest.
        let framesPerPacket = max(Double(streamFormat.mFramesPerPacket), 1)
        let packets = max(UInt32((Self.bufferSeconds * streamFormat.mSampleRate / framesPerPacket).rounded(.up)), 1)
        var maximumPacket = streamFormat.mBytesPerPacket
        if maximumPacket == 0 {
            var size = UInt32(4)
            AudioQueueGetProperty(q, kAudioQueueProperty_MaximumOutputPacketSize, &maximumPacket, &size)
        }
        let bytes = packets * max(maximumPacket, 1)
        for _ in 0..<Self.bufferCount {
            var b: AudioQueueBufferRef?
            guard AudioQueueAllocateBuffer(q, bytes, &b) == noErr, let b, AudioQueueEnqueueBuffer(q, b, 0, nil) == noErr else {
                disposeQueue()
                return false
            }
            outstanding += 1
        }
        started = false
        stopping = false
        return true
    }

    /// Stops the queue, waits for its buffers (they carry the last audio), finishes and closes the file.
    /// False when there was nothing to stop.
    private func finishLocked() -> Bool {
        guard let q = queue, !stopping else { return false }
        stopping = true
        schedule += 1
        startPending = false
        // The queue hands back every buffer (a compressed queue first encodes what it holds); its callbacks take
        // this lock, so it is let go meanwhile.
        lock.unlock()
        AudioQueueStop(q, true)
        lock.lock()
        let deadline = Date().addingTimeInterval(2)
        while outstanding > 0 && lock.wait(until: deadline) {}
        if let file {
            copyCookie(from: q, to: file)
            AudioFileClose(file)
        }
        file = nil
        disposeQueue()
        recording = false
        started = false
        stopping = false
        limitFrames = nil
        return true
    }

    private func disposeQueue() {
        if let queue { AudioQueueDispose(queue, true) }
        AudioQueueOwners.shared.unregister(token)
        queue = nil
        token = 0
        outstanding = 0
        meters.clear()
    }

    /// The queue's thread: a buffer of recorded packets; write them (up to recordForDuration's length) and hand
    /// the buffer back to the queue.
    private func received(_ buffer: AudioQueueBufferRef, queue q: AudioQueueRef, token t: UInt, packets count: UInt32,
                          descriptions: UnsafePointer<AudioStreamPacketDescription>?) {
        lock.lock()
        defer { lock.unlock() }
        guard t == token, let file else { return }
        outstanding -= 1
        lock.broadcast()
        let framesPerPacket = Int64(max(streamFormat.mFramesPerPacket, 1))
        var packets = count
        if packets == 0 && streamFormat.mBytesPerPacket > 0 { packets = buffer.pointee.mAudioDataByteSize / streamFormat.mBytesPerPacket }
        if let limitFrames {
            let room = max(limitFrames - framesWritten, 0)
            packets = UInt32(min(Int64(packets), (room + framesPerPacket - 1) / framesPerPacket))
        }
        if packets > 0 {
            let bytes = streamFormat.mBytesPerPacket > 0 ? packets * streamFormat.mBytesPerPacket : buffer.pointee.mAudioDataByteSize
            let status = AudioFileWritePackets(file, false, bytes, descriptions, recordPacket, &packets, buffer.pointee.mAudioData)
            if status != noErr {
                service.async { [self] in failed(AVAudioError.make(status), token: t) }
                return
            }
            recordPacket += Int64(packets)
            framesWritten += Int64(packets) * framesPerPacket
        }
        if let limitFrames, framesWritten >= limitFrames, !stopping {
            service.async { [self] in reachedDuration(token: t) }
            return
        }
        if !stopping, AudioQueueEnqueueBuffer(q, buffer, 0, nil) == noErr { outstanding += 1 }
    }

    private func reachedDuration(token t: UInt) {
        let stopped = lock.withLock { t == token && finishLocked() }
        if stopped { delegate?.audioRecorderDidFinishRecording(self, successfully: true) }
    }

    private func failed(_ error: NSError, token t: UInt) {
        let stopped = lock.withLock { t == token && finishLocked() }
        guard stopped else { return }
        delegate?.audioRecorderEncodeErrorDidOccur(self, error: error)
        delegate?.audioRecorderDidFinishRecording(self, successfully: false)
    }

    private static let inputCallback: AudioQueueInputCallback = { token, queue, buffer, _, packets, descriptions in
        AudioQueueOwners.shared.owner(token, as: AVAudioRecorder.self)?
            .received(buffer, queue: queue, token: UInt(bitPattern: token), packets: packets, descriptions: descriptions)
    }

    private static func cookie(of queue: AudioQueueRef) -> [UInt8] {
        var size: UInt32 = 0
        guard AudioQueueGetPropertySize(queue, kAudioConverterCompressionMagicCookie, &size) == noErr, size > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        guard AudioQueueGetProperty(queue, kAudioConverterCompressionMagicCookie, &bytes, &size) == noErr else { return [] }
        return Array(bytes.prefix(Int(size)))
    }

    /// MyCopyEncoderCookieToFile.
    private func copyCookie(from queue: AudioQueueRef, to file: AudioFileID) {
        let bytes = Self.cookie(of: queue)
        if !bytes.isEmpty { AudioFileSetProperty(file, kAudioFilePropertyMagicCookieData, UInt32(bytes.count), bytes) }
    }

}
