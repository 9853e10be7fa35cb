#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// AUAudioFilePlayer (`'augn' 'afpl' 'appl'`): plays regions of open audio files (any format ExtAudioFile
/// reads, converted to the unit's output format and rate) at sample times relative to the start time.
/// As Apple's does, it is a scheduled sound player whose slices it makes itself: the worker thread reads
/// and converts file data into a pool of buffers (ScheduledFileNumberBuffers of ScheduledFileBufferSizeFrames
/// frames) and schedules each as a slice at its exact time; the render thread only copies. A region's
/// completion proc runs on the reading thread once the region is completely read, and again with
/// kAudioUnitErr_CannotDoInCurrentContext if part of it was not read in time to play.
final class AUAudioFilePlayer: AUScheduledSoundPlayer, @unchecked Sendable {
    static let filePlayerDescription = AudioComponentDescription(
        componentType: kAudioUnitType_Generator, componentSubType: kAudioUnitSubType_AudioFilePlayer,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    private struct State {
        var fileIDs: [AudioFileID] = []
        var files: [AudioFileID: (ext: ExtAudioFileRef, channels: Int, rate: Double)] = [:]
        var pending: [ScheduledAudioFileRegion] = []
    }
    private let state = LockedState(State())
    /// Serializes reading between the worker thread and a client's ScheduledFilePrime.
    private let readLock = LockedState(())

    private var bufferFrames: UInt32 = 4096
    private var bufferCount: UInt32 = 8

    // The pool, built at initialize (worker and prime only; the render thread sees only the slices).
    private var slices: UnsafeMutablePointer<ScheduledAudioSlice>?
    private var samples: UnsafeMutablePointer<Float>?
    private var lists: [UnsafeMutableAudioBufferListPointer] = []
    private var channelPointers: UnsafeMutablePointer<UnsafeMutablePointer<Float>>?
    private var readList: UnsafeMutableAudioBufferListPointer?
    private var discard: UnsafeMutablePointer<Float>?
    /// Free pool buffers and the region each scheduled one belongs to (worker, prime and reset share them).
    private struct Pool { var free: [Int] = []; var owners: [FileRegionReader?] = [] }
    private let pool = LockedState(Pool())
    private var readers: [FileRegionReader] = []
    private var channels = 0

    override init(component: AudioComponentEntry) {
        super.init(component: component)
    }

    override var acceptsClientSlices: Bool { false }

    /// Set through kAudioUnitProperty_OfflineRender: the render itself reads what the worker has not yet,
    /// so an offline render faster than real time never runs ahead of the file.
    private let offline = Atomic<Bool>(false)

    override func renderBus(_ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, _ timeStamp: UnsafePointer<AudioTimeStamp>,
                            _ bus: UInt32, _ frames: UInt32, _ output: UnsafeMutablePointer<AudioBufferList>) -> OSStatus {
        if offline.load(ordering: .relaxed) { workerPass() }
        return super.renderBus(flags, timeStamp, bus, frames, output)
    }

    override func initializeUnit() -> OSStatus {
        channels = Int(outputs[0].format.mChannelsPerFrame)
        let frames = Int(bufferFrames), count = Int(bufferCount)
        // The pool comes from the unit's render memory (AUBase frees it after cleanupUnit has stopped the worker
        // and cleared these pointers).
        slices = renderMemory.take(ScheduledAudioSlice.self, count: count)
        samples = renderMemory.take(Float.self, count: count * channels * frames, repeating: 0)
        lists = (0..<count).map { i in
            let list = renderMemory.takeBufferList(buffers: channels)
            for c in 0..<channels {
                list[c] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(frames * 4),
                                      mData: UnsafeMutableRawPointer(samples! + (i * channels + c) * frames))
            }
            // The struct has non-optional pointers, so it is built whole (its user data points at itself).
            (slices! + i).initialize(to: ScheduledAudioSlice(
                mTimeStamp: AudioTimeStamp(), mCompletionProc: nil, mCompletionProcUserData: UnsafeMutableRawPointer(slices! + i),
                mFlags: [], mReserved: 0, mReserved2: nil, mNumberFrames: 0, mBufferList: list.unsafeMutablePointer))
            return list
        }
        channelPointers = renderMemory.take(UnsafeMutablePointer<Float>.self, count: channels)
        readList = renderMemory.takeBufferList(buffers: 64)
        discard = renderMemory.take(Float.self, count: frames)
        pool.withLock { $0 = Pool(free: Array((0..<count).reversed()), owners: Array(repeating: nil, count: count)) }
        return super.initializeUnit()
    }

    override func cleanupUnit() {
        super.cleanupUnit()
        readLock.withLock { _ in
            readers.removeAll()
            forgetPool()
        }
        state.withLock { s in
            for f in s.files.values { ExtAudioFileDispose(f.ext) }
            s.files.removeAll()
            s.pending.removeAll()
        }
    }

    deinit {
        state.withLock { s in for f in s.files.values { ExtAudioFileDispose(f.ext) } }
    }

    /// Clears the pool's pointers; its memory is the unit's render memory, which AUBase frees after cleanupUnit.
    private func forgetPool() {
        lists.removeAll()
        slices = nil
        samples = nil
        channelPointers = nil
        readList = nil
        discard = nil
        pool.withLock { $0 = Pool() }
    }

    override func resetUnit(_ scope: AudioUnitScope, _ element: AudioUnitElement) {
        let dropped: [ScheduledAudioFileRegion] = readLock.withLock { _ in
            super.resetUnit(scope, element)  // returns the pool's slices through finished()
            let unread = readers.filter { !$0.isDone }.map(\.region)
            readers.removeAll()
            return unread
        } + state.withLock { s in
            defer { s.pending.removeAll() }
            return s.pending
        }
        for var region in dropped { region.mCompletionProc?(region.mCompletionProcUserData, &region, noErr) }
    }

    // MARK: Reading (worker thread, or a client's prime)

    override func workerPass() {
        super.workerPass()
        readLock.withLock { _ in _ = fill(limit: Int.max) }
    }

    override func finished(_ entry: SliceSchedule.Entry) {
        guard entry.poolIndex >= 0 else { return super.finished(entry) }
        let i = Int(entry.poolIndex)
        let late = entry.slice.pointee.mFlags.contains(.scheduledAudioSliceFlag_BeganToRenderLate)
        let owner = pool.withLock { p -> FileRegionReader? in
            guard i < p.owners.count else { return nil }
            defer { p.owners[i] = nil; p.free.append(i) }
            return p.owners[i]
        }
        if late, let owner, !owner.reportedLate {
            owner.reportedLate = true
            var region = owner.region
            region.mCompletionProc?(region.mCompletionProcUserData, &region, kAudioUnitErr_CannotDoInCurrentContext)
        }
    }

    /// Reads into free buffers and schedules them until `limit` frames are queued, the pool is full or
    /// every region is read. Returns the frames queued. Caller holds `readLock`.
    private func fill(limit: Int) -> Int {
        guard let slices, let samples, let channelPointers, let readList, let discard else { return 0 }
        var queued = 0
        while queued < limit {
            guard let reader = currentReader() else { break }
            guard let i = pool.withLock({ $0.free.popLast() }) else { break }
            let frames = Int(bufferFrames)
            for c in 0..<channels { channelPointers[c] = samples + (i * channels + c) * frames }
            let time = reader.nextTime
            let (n, status) = reader.read(into: channelPointers, outputChannels: channels, capacity: frames,
                                          discard: discard, list: readList)
            if n > 0 {
                slices[i].mTimeStamp = AudioTimeStamp()
                slices[i].mTimeStamp.mFlags = .sampleTimeValid
                slices[i].mTimeStamp.mSampleTime = Double(time)
                slices[i].mNumberFrames = UInt32(n)
                slices[i].mFlags = []
                for c in 0..<channels { lists[i][c].mDataByteSize = UInt32(n * 4) }
                pool.withLock { $0.owners[i] = reader }
                if schedule.schedule(slices + i, poolIndex: Int32(i)) { queued += n } else {
                    pool.withLock { $0.owners[i] = nil; $0.free.append(i) }
                    break
                }
            } else {
                pool.withLock { $0.free.append(i) }
            }
            if reader.isDone || status != noErr {
                readers.removeFirst()
                var region = reader.region
                region.mCompletionProc?(region.mCompletionProcUserData, &region, status)
            }
        }
        return queued
    }

    /// The region being read, opening the next scheduled one when the last is done.
    private func currentReader() -> FileRegionReader? {
        if let first = readers.first { return first }
        let next: (ScheduledAudioFileRegion, ExtAudioFileRef, Int, Double)? = state.withLock { s in
            guard !s.pending.isEmpty else { return nil }
            let region = s.pending.removeFirst()
            guard let f = s.files[region.mAudioFile] else { return nil }
            return (region, f.ext, f.channels, f.rate)
        }
        guard let (region, ext, fileChannels, fileRate) = next else { return nil }
        let reader = FileRegionReader(region: region, file: ext, fileChannels: fileChannels,
                                      ratio: outputs[0].format.mSampleRate / fileRate)
        readers.append(reader)
        return reader
    }

    // MARK: Files

    /// Opens (once) an ExtAudioFile on `file` that converts to Float32 at the output rate.
    private func prepare(_ file: AudioFileID, in s: inout State) -> OSStatus {
        if s.files[file] != nil { return noErr }
        var ext: ExtAudioFileRef?
        var status = ExtAudioFileWrapAudioFileID(file, false, &ext)
        guard status == noErr, let ext else { return status == noErr ? kAudioUnitErr_InvalidFile : status }
        var fileFormat = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        status = ExtAudioFileGetProperty(ext, kExtAudioFileProperty_FileDataFormat, &size, &fileFormat)
        let fileChannels = Int(fileFormat.mChannelsPerFrame)
        guard status == noErr, fileChannels > 0, fileChannels <= 64, fileFormat.mSampleRate > 0 else {
            ExtAudioFileDispose(ext)
            return status == noErr ? kAudioUnitErr_InvalidFile : status
        }
        var client = OCAFormat.canonical(sampleRate: outputs[0].format.mSampleRate, channels: UInt32(fileChannels))
        status = ExtAudioFileSetProperty(ext, kExtAudioFileProperty_ClientDataFormat,
                                         UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &client)
        guard status == noErr else { ExtAudioFileDispose(ext); return status }
        s.files[file] = (ext, fileChannels, fileFormat.mSampleRate)
        return noErr
    }

    // MARK: Properties

    override class var propertyRows: [AUProperty] {
        super.propertyRows + [
            AUProperty(kAudioUnitProperty_ScheduledFileIDs, place: AUProperty.globalScope, writable: .always,
                       size: { unit, _, _ in
                           UInt32(unsafeDowncast(unit, to: AUAudioFilePlayer.self).state.withLock { $0.fileIDs.count } * MemoryLayout<AudioFileID>.stride)
                       },
                       read: { unit, _, _, out in
                           let ids = unsafeDowncast(unit, to: AUAudioFilePlayer.self).state.withLock { $0.fileIDs }
                           for (k, id) in ids.enumerated() { out.storeBytes(of: id, toByteOffset: k * MemoryLayout<AudioFileID>.stride, as: AudioFileID.self) }
                           return noErr
                       },
                       write: { unit, _, _, data in
                           let player = unsafeDowncast(unit, to: AUAudioFilePlayer.self)
                           guard data.count % MemoryLayout<AudioFileID>.stride == 0 else { return kAudioUnitErr_InvalidPropertyValue }
                           let ids = (0..<data.count / MemoryLayout<AudioFileID>.stride).map {
                               data.loadUnaligned(fromByteOffset: $0 * MemoryLayout<AudioFileID>.stride, as: AudioFileID.self)
                           }
                           return player.state.withLock { s in
                               for (id, f) in s.files where !ids.contains(id) {
                                   ExtAudioFileDispose(f.ext)
                                   s.files[id] = nil
                               }
                               s.fileIDs = ids
                               return noErr
                           }
                       }),
            AUProperty(kAudioUnitProperty_ScheduledFileRegion, place: AUProperty.globalScope, writable: .always,
                       size: { _, _, _ in UInt32(MemoryLayout<ScheduledAudioFileRegion>.size) },
                       setSize: UInt32(MemoryLayout<ScheduledAudioFileRegion>.size),
                       read: { _, _, _, _ in kAudioUnitErr_InvalidPropertyValue },
                       write: { unit, _, _, data in
                           let player = unsafeDowncast(unit, to: AUAudioFilePlayer.self)
                           return player.scheduleRegion(data.loadUnaligned(as: ScheduledAudioFileRegion.self))
                       }),
            .value(kAudioUnitProperty_ScheduledFilePrime, UInt32.self, of: AUAudioFilePlayer.self,
                   place: AUProperty.globalScope, writable: .always,
                   get: { _, _, _ in 0 },
                   set: { unit, _, _, frames in unit.prime(frames) }),
            .value(kAudioUnitProperty_ScheduledFileBufferSizeFrames, UInt32.self, of: AUAudioFilePlayer.self,
                   place: AUProperty.globalScope, writable: .uninitializedOnly,
                   get: { unit, _, _ in unit.bufferFrames },
                   set: { unit, _, _, frames in
                       guard frames >= 64, frames <= 1 << 20 else { return kAudioUnitErr_InvalidPropertyValue }
                       unit.bufferFrames = frames
                       return noErr
                   }),
            .value(kAudioUnitProperty_ScheduledFileNumberBuffers, UInt32.self, of: AUAudioFilePlayer.self,
                   place: AUProperty.globalScope, writable: .uninitializedOnly,
                   get: { unit, _, _ in unit.bufferCount },
                   set: { unit, _, _, count in
                       guard count >= 2, count <= 1024 else { return kAudioUnitErr_InvalidPropertyValue }
                       unit.bufferCount = count
                       return noErr
                   }),
            .absent(kAudioUnitProperty_ScheduleAudioSlice),
            .flag(kAudioUnitProperty_OfflineRender, of: AUAudioFilePlayer.self, place: AUProperty.globalScope,
                  get: { unit, _, _ in unit.offline.load(ordering: .relaxed) },
                  set: { unit, _, _, on in unit.offline.store(on, ordering: .relaxed); return noErr }),
        ]
    }

    private func scheduleRegion(_ region: ScheduledAudioFileRegion) -> OSStatus {
        guard isInitialized else { return kAudioUnitErr_Uninitialized }
        guard region.mTimeStamp.mFlags.contains(.sampleTimeValid), region.mStartFrame >= 0 else {
            return kAudioUnitErr_InvalidPropertyValue
        }
        let status = state.withLock { s -> OSStatus in
            guard s.fileIDs.contains(region.mAudioFile) else { return kAudioUnitErr_InvalidPropertyValue }
            let status = prepare(region.mAudioFile, in: &s)
            if status == noErr { s.pending.append(region) }
            return status
        }
        if status == noErr { wake.signal() }
        return status
    }

    /// Reads until `frames` output frames are queued (0: as many as the buffers hold) before returning.
    private func prime(_ frames: UInt32) -> OSStatus {
        guard isInitialized else { return kAudioUnitErr_Uninitialized }
        let limit = frames == 0 ? Int.max : Int(frames)
        readLock.withLock { _ in _ = fill(limit: limit) }
        return noErr
    }
}
