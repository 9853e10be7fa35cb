import Dispatch
import Foundation
import Synchronization

/// AUScheduledSoundPlayer (`'augn' 'sspl' 'appl'`): plays buffers (ScheduledAudioSlice) at sample times
/// relative to a start time, on one output in the canonical format. The timeline is a `SliceSchedule`;
/// a worker thread of the unit's own calls the completion procs (Apple calls them on the render thread;
/// here the render thread only flags the slice and hands it over, so a completion proc may block or
/// allocate safely). The file player subclass uses the same worker to read files.
class AUScheduledSoundPlayer: AUBase, @unchecked Sendable {
    static let description = AudioComponentDescription(
        componentType: kAudioUnitType_Generator, componentSubType: kAudioUnitSubType_ScheduledSoundPlayer,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    let schedule = SliceSchedule()
    /// The start time stamp as last set (what Apple's getter answers until playback begins).
    private var startStamp = AudioTimeStamp()
    private let worker = Mutex<Thread?>(nil)
    private let workerAlive = Atomic<Bool>(false)
    let wake = DispatchSemaphore(value: 0)

    init(component: AudioComponentEntry) {
        super.init(component: component, inputs: 0, outputs: 1)
    }

    override func initializeUnit() -> OSStatus {
        schedule.sampleRate = outputs[0].format.mSampleRate
        startWorker()
        return noErr
    }

    override func cleanupUnit() {
        flushSchedule()
        stopWorker()
    }

    deinit { stopWorker() }

    override func resetUnit(_ scope: AudioUnitScope, _ element: AudioUnitElement) {
        flushSchedule()
    }

    /// Empties the schedule, completing every slice in it.
    private func flushSchedule() {
        consumer.withLock { _ in for e in schedule.reset() { finished(e) } }
    }

    override func renderBus(_ flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>, _ timeStamp: UnsafePointer<AudioTimeStamp>,
                            _ bus: UInt32, _ frames: UInt32, _ output: UnsafeMutablePointer<AudioBufferList>) -> OSStatus {
        let wrote = schedule.render(timeStamp, frames: Int(frames), into: UnsafeMutableAudioBufferListPointer(output))
        if !wrote { flags.pointee.insert(.unitRenderAction_OutputIsSilence) }
        return noErr
    }

    // MARK: The worker thread

    private func startWorker() {
        worker.withLock { thread in
            guard thread == nil else { return }
            workerAlive.store(true, ordering: .releasing)
            let t = Thread { [unowned self] in self.workerLoop() }
            t.name = "AUScheduledSoundPlayer"
            t.qualityOfService = .userInitiated
            thread = t
            t.start()
        }
    }

    private func stopWorker() {
        let running = worker.withLock { thread -> Bool in
            defer { thread = nil }
            return thread != nil
        }
        guard running else { return }
        workerAlive.store(false, ordering: .releasing)
        wake.signal()
        while workerRunning.load(ordering: .acquiring) { usleep(500) }
    }

    private let workerRunning = Atomic<Bool>(false)

    private func workerLoop() {
        workerRunning.store(true, ordering: .releasing)
        defer { workerRunning.store(false, ordering: .releasing) }
        while workerAlive.load(ordering: .acquiring) {
            workerPass()
            _ = wake.wait(timeout: .now() + .milliseconds(workerInterval))
        }
        workerPass()
    }

    /// How often the worker looks at the schedule, in milliseconds (the render thread never wakes it).
    var workerInterval: Int { 5 }

    /// One round of the worker: hands completed slices to their owners. Subclasses add their reading.
    func workerPass() {
        consumer.withLock { _ in while let done = schedule.completed.pop() { finished(done) } }
    }

    /// The completed ring has one consumer at a time: the worker, an offline render or a reset.
    private let consumer = LockedState(())

    /// A completed slice: a client's gets its completion proc; pool buffers are the subclass's.
    func finished(_ entry: SliceSchedule.Entry) {
        guard entry.poolIndex < 0 else { return }
        let slice = entry.slice
        slice.pointee.mCompletionProc?(slice.pointee.mCompletionProcUserData, slice)
    }

    // MARK: Properties

    override class var propertyRows: [AUProperty] {
        super.propertyRows + [
            AUProperty(kAudioUnitProperty_ScheduleAudioSlice, place: AUProperty.globalScope, writable: .always,
                       size: { _, _, _ in UInt32(MemoryLayout<ScheduledAudioSlice>.size) },
                       setSize: UInt32(MemoryLayout<ScheduledAudioSlice>.size), notify: .bySetter,
                       read: { _, _, _, _ in kAudioUnitErr_InvalidPropertyValue },
                       write: { unit, _, _, data in
                           // The client keeps the slice: the unit plays from it and flags it in place.
                           let player = unsafeDowncast(unit, to: AUScheduledSoundPlayer.self)
                           guard player.acceptsClientSlices else { return kAudioUnitErr_InvalidProperty }
                           let slice = UnsafeMutableRawPointer(mutating: data.baseAddress!).assumingMemoryBound(to: ScheduledAudioSlice.self)
                           return player.scheduleClientSlice(slice)
                       }),
            .value(kAudioUnitProperty_ScheduleStartTimeStamp, AudioTimeStamp.self, of: AUScheduledSoundPlayer.self,
                   place: AUProperty.globalScope, writable: .always,
                   get: { unit, _, _ in unit.startTimeStamp },
                   set: { unit, _, _, ts in
                       guard ts.mFlags.contains(.sampleTimeValid) || ts.mFlags.contains(.hostTimeValid) else {
                           return kAudioUnitErr_InvalidPropertyValue
                       }
                       unit.startStamp = ts
                       unit.schedule.setStart(ts)
                       return noErr
                   }),
            .value(kAudioUnitProperty_CurrentPlayTime, AudioTimeStamp.self, of: AUScheduledSoundPlayer.self,
                   place: AUProperty.globalScope,
                   get: { unit, _, _ in
                       var ts = AudioTimeStamp()
                       ts.mFlags = .sampleTimeValid
                       ts.mSampleTime = unit.schedule.currentPlayTime
                       return ts
                   }),
        ]
    }

    /// Whether clients may schedule slices (the file player schedules its own).
    var acceptsClientSlices: Bool { true }

    private func scheduleClientSlice(_ slice: UnsafeMutablePointer<ScheduledAudioSlice>) -> OSStatus {
        guard slice.pointee.mNumberFrames == 0 || UnsafeMutableAudioBufferListPointer(slice.pointee.mBufferList).count > 0 else {
            return kAudioUnitErr_InvalidPropertyValue
        }
        let list = UnsafeMutableAudioBufferListPointer(slice.pointee.mBufferList)
        for b in list where Int(b.mDataByteSize) < Int(slice.pointee.mNumberFrames) * 4 || b.mData == nil {
            return kAudioUnitErr_InvalidPropertyValue
        }
        return schedule.schedule(slice) ? noErr : kAudioUnitErr_CannotDoInCurrentContext
    }

    /// The start stamp as set, or, once playback has begun, the render sample time it began at.
    private var startTimeStamp: AudioTimeStamp {
        if let began = schedule.startedSampleTime {
            var ts = AudioTimeStamp()
            ts.mFlags = .sampleTimeValid
            ts.mSampleTime = began
            return ts
        }
        return startStamp
    }
}
