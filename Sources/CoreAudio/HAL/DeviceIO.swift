import Foundation
import Synchronization
import COCASupport
#if canImport(Glibc)
import Glibc
#endif

/// A running device: its ALSA streams and the IO thread that, period by period, reads the input, calls the
/// started IOProcs and writes their mixed output. Nothing is allocated or locked per period: buffers are
/// made at start and the proc list is handed over through an atomic pointer.
final class DeviceIO: @unchecked Sendable {
    weak var device: HALDevice?
    let deviceID: AudioObjectID
    let uid: String
    let rate: Double
    private let requestedPeriod: Int, outputChannels: Int, inputChannels: Int
    /// The streams and the period ALSA granted; opened by the IO thread itself (see `start`).
    private(set) var playback: ALSA.PCM?
    private(set) var capture: ALSA.PCM?
    private(set) var periodFrames: Int
    var hasInput: Bool { inputChannels > 0 }
    var hasOutput: Bool { outputChannels > 0 }

    let xruns = Atomic<Int>(0)
    /// Non-zero (a negative errno) once the streams failed beyond recovery.
    let failed = Atomic<Int32>(0)
    private let stopRequested = Atomic<Bool>(false)
    /// The clock's anchor: the sample time of the current cycle's start and the host time it was taken at,
    /// with the measured rate scalar, published by the IO thread under a sequence count (odd while writing) so
    /// that readers on other threads never see a torn triple (AudioDeviceGetCurrentTime, TranslateTime).
    private let anchorSequence = Atomic<UInt64>(0)
    private let anchorSample = Atomic<UInt64>(0)
    private let anchorHost = Atomic<UInt64>(0)
    private let anchorRateScalar = Atomic<UInt64>(1.0.bitPattern)
    private let delays = Atomic<UInt64>(0)
    /// Output times run this many frames ahead of the cycle's sample time (the playback prefill); set when
    /// the streams open, before `start` returns.
    private(set) var outputLead = 0

    /// The started procs, as a retained snapshot; replaced ones are kept until the engine stops.
    final class Procs {
        let entries: [HALDevice.IOProcEntry]
        init(_ entries: [HALDevice.IOProcEntry]) { self.entries = entries }
    }
    private let procs = Atomic<UnsafeMutableRawPointer?>(nil)
    private var retired: [Unmanaged<Procs>] = []

    private var outputSamples = UnsafeMutablePointer<Float>.allocate(capacity: 1)
    private var mixSamples = UnsafeMutablePointer<Float>.allocate(capacity: 1)
    private var inputSamples = UnsafeMutablePointer<Float>.allocate(capacity: 1)
    private let inputList = AudioBufferList.allocate(maximumBuffers: 1)
    private let outputList = AudioBufferList.allocate(maximumBuffers: 1)
    private var thread: pthread_t?
    private let opened = DispatchSemaphore(value: 0)
    private var openSucceeded = false

    init(device: HALDevice, uid: String, rate: Double, periodFrames: Int, outputChannels: Int, inputChannels: Int) {
        self.device = device
        deviceID = device.objectID
        self.uid = uid
        self.rate = rate
        requestedPeriod = periodFrames
        self.periodFrames = periodFrames
        self.outputChannels = outputChannels
        self.inputChannels = inputChannels
        inputList.unsafeMutablePointer.pointee.mNumberBuffers = inputChannels > 0 ? 1 : 0
        outputList.unsafeMutablePointer.pointee.mNumberBuffers = outputChannels > 0 ? 1 : 0
    }

    deinit {
        if let p = procs.exchange(nil, ordering: .acquiringAndReleasing) { Unmanaged<Procs>.fromOpaque(p).release() }
        for r in retired { r.release() }
        outputSamples.deallocate()
        mixSamples.deallocate()
        inputSamples.deallocate()
        free(inputList.unsafeMutablePointer)
        free(outputList.unsafeMutablePointer)
    }

    /// Opens the streams and sizes the period buffers. Runs on the IO thread after it took real-time
    /// priority, so threads the ALSA plugin starts for the stream (PulseAudio's mainloop) inherit it.
    private func openStreams() -> Bool {
        if outputChannels > 0 {
            guard let p = ALSA.PCM(name: uid, output: true, rate: rate, channels: outputChannels, periodFrames: requestedPeriod) else { return false }
            playback = p
        }
        if inputChannels > 0 {
            guard let c = ALSA.PCM(name: uid, output: false, rate: rate, channels: inputChannels,
                                   periodFrames: playback?.periodFrames ?? requestedPeriod) else { return false }
            capture = c
        }
        // ALSA may round the period; the IO cycle uses what it granted.
        periodFrames = playback?.periodFrames ?? capture?.periodFrames ?? requestedPeriod
        outputLead = playback.map { $0.bufferFrames - periodFrames } ?? 0
        let outCount = max(periodFrames * max(outputChannels, 1), 1), inCount = max(periodFrames * max(inputChannels, 1), 1)
        outputSamples.deallocate(); mixSamples.deallocate(); inputSamples.deallocate()
        outputSamples = .allocate(capacity: outCount)
        mixSamples = .allocate(capacity: outCount)
        inputSamples = .allocate(capacity: inCount)
        inputSamples.initialize(repeating: 0, count: inCount)
        return true
    }

    /// Hands a new proc list to the IO thread (control thread only).
    func publish(_ entries: [HALDevice.IOProcEntry]) {
        let new = Unmanaged.passRetained(Procs(entries))
        if let old = procs.exchange(new.toOpaque(), ordering: .acquiringAndReleasing) {
            retired.append(Unmanaged<Procs>.fromOpaque(old))
        }
    }

    /// Starts the IO thread and waits until it has opened the streams; false if they would not open.
    func start() -> Bool {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        var t = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let status = pthread_create(&t, &attributes, { raw in
            let io = Unmanaged<DeviceIO>.fromOpaque(raw!).takeRetainedValue()
            io.run()
            return nil
        }, context)
        guard status == 0 else {
            Unmanaged<DeviceIO>.fromOpaque(context).release()
            return false
        }
        thread = t
        opened.wait()
        if !openSucceeded { stop() }
        return openSucceeded
    }

    /// Stops the IO thread and waits for it, unless called from it (an IOProc stopping its own device).
    func stop() {
        stopRequested.store(true, ordering: .releasing)
        guard let thread else { return }
        if pthread_equal(thread, pthread_self()) != 0 { pthread_detach(thread) } else { pthread_join(thread, nil) }
        self.thread = nil
    }

    var outputDelay: Int { Int(delays.load(ordering: .relaxed) >> 32) }
    var inputDelay: Int { Int(delays.load(ordering: .relaxed) & 0xFFFF_FFFF) }

    /// The clock's latest anchor (sample time at a cycle's start, its host time, the rate scalar); nil before
    /// the first cycle.
    func anchor() -> (sample: Double, host: UInt64, rateScalar: Double)? {
        while true {
            let before = anchorSequence.load(ordering: .sequentiallyConsistent)
            if before == 0 { return nil }
            if before & 1 == 1 { continue }
            let sample = Double(bitPattern: anchorSample.load(ordering: .sequentiallyConsistent))
            let host = anchorHost.load(ordering: .sequentiallyConsistent)
            let scalar = Double(bitPattern: anchorRateScalar.load(ordering: .sequentiallyConsistent))
            if anchorSequence.load(ordering: .sequentiallyConsistent) == before { return (sample, host, scalar) }
        }
    }

    /// Publishes a new anchor (IO thread only; atomics, no lock).
    private func publishAnchor(sample: Double, host: UInt64, rateScalar: Double) {
        let sequence = anchorSequence.load(ordering: .relaxed)
        anchorSequence.store(sequence + 1, ordering: .sequentiallyConsistent)
        anchorSample.store(sample.bitPattern, ordering: .sequentiallyConsistent)
        anchorHost.store(host, ordering: .sequentiallyConsistent)
        anchorRateScalar.store(rateScalar.bitPattern, ordering: .sequentiallyConsistent)
        anchorSequence.store(sequence + 2, ordering: .sequentiallyConsistent)
    }

    /// The sample time at a host time, extrapolated from the anchor at the measured rate.
    func sampleTime(atHost host: UInt64) -> Double {
        guard let a = anchor() else { return 0 }
        return a.sample + Double(Int64(bitPattern: host &- a.host)) * rate * a.rateScalar / 1e9
    }

    /// The host time of a sample time, extrapolated from the anchor at the measured rate.
    func hostTime(atSample sample: Double) -> UInt64 {
        guard let a = anchor() else { return oca_monotonic_nanoseconds() }
        let nanos = (sample - a.sample) / (rate * a.rateScalar) * 1e9
        return a.host &+ UInt64(bitPattern: Int64(nanos.rounded()))
    }

    func currentTime() -> AudioTimeStamp {
        let now = oca_monotonic_nanoseconds()
        var t = AudioTimeStamp()
        t.mSampleTime = sampleTime(atHost: now)
        t.mHostTime = now
        t.mRateScalar = anchor()?.rateScalar ?? 1
        t.mFlags = [.sampleTimeValid, .hostTimeValid, .rateScalarValid]
        return t
    }

    private func run() {
        // Real-time priority when the system allows it (root or rtprio limits); ordinary priority otherwise.
        var param = sched_param()
        param.sched_priority = 20
        _ = pthread_setschedparam(pthread_self(), SCHED_FIFO, &param)
        openSucceeded = openStreams()
        opened.signal()
        guard openSucceeded else { return }

        let n = periodFrames
        let outChannels = playback?.channels ?? 0, inChannels = capture?.channels ?? 0
        var xrunCount = 0
        if let playback {
            // Prefill all but one period with silence, so the stream starts with room to spare.
            outputSamples.initialize(repeating: 0, count: n * outChannels)
            var remaining = playback.bufferFrames - n
            while remaining > 0 {
                let chunk = min(remaining, n)
                if playback.transfer(outputSamples, frames: chunk, xruns: &xrunCount) < 0 { break }
                remaining -= chunk
            }
        }
        capture?.start()
        let outputLead = self.outputLead
        var sampleTime = 0.0
        // The rate scalar: frames per host second over a long window, measured once the start-up bursts (the
        // prefill, a capture buffer filling) are over; 1 until then.
        var reference: (sample: Double, host: UInt64)?
        var startHost: UInt64 = 0
        var rateScalar = 1.0
        while !stopRequested.load(ordering: .acquiring) {
            if let capture {
                let status = capture.transfer(inputSamples, frames: n, xruns: &xrunCount)
                if status < 0 { failed.store(status, ordering: .releasing); break }
                if ProcessInputMute.muted.load(ordering: .relaxed) { inputSamples.update(repeating: 0, count: n * inChannels) }
            }
            let now = oca_monotonic_nanoseconds()
            if startHost == 0 { startHost = now }
            if let reference {
                let elapsed = Double(now &- reference.host) / 1e9
                if elapsed >= 1 { rateScalar = min(max((sampleTime - reference.sample) / elapsed / rate, 0.9), 1.1) }
            } else if now &- startHost >= 500_000_000 {
                reference = (sampleTime, now)
            }
            publishAnchor(sample: sampleTime, host: now, rateScalar: rateScalar)
            let inDelay = capture?.delay ?? 0, outDelay = playback?.delay ?? 0
            delays.store(UInt64(UInt32(clamping: outDelay)) << 32 | UInt64(UInt32(clamping: inDelay)), ordering: .relaxed)
            // Sample times advance by exactly one period per cycle; host times place them by the streams' delays.
            var nowStamp = stamp(sampleTime, host: now, rateScalar)
            var inputTime = stamp(sampleTime, host: now &- nanos(inDelay + n), rateScalar)
            var outputTime = stamp(sampleTime + Double(outputLead), host: now &+ nanos(outDelay), rateScalar)
            if inChannels > 0 {
                inputList[0] = AudioBuffer(mNumberChannels: UInt32(inChannels), mDataByteSize: UInt32(n * inChannels * 4),
                                           mData: UnsafeMutableRawPointer(inputSamples))
            }
            callProcs(frames: n, outChannels: outChannels, now: &nowStamp, inputTime: &inputTime, outputTime: &outputTime)
            if let playback {
                let status = playback.transfer(outputSamples, frames: n, xruns: &xrunCount)
                if status < 0 { failed.store(status, ordering: .releasing); break }
            }
            sampleTime += Double(n)
            xruns.store(xrunCount, ordering: .relaxed)
        }
        xruns.store(xrunCount, ordering: .relaxed)
    }

    private func nanos(_ frames: Int) -> UInt64 { UInt64(Double(frames) / rate * 1e9) }

    private func stamp(_ sampleTime: Double, host: UInt64, _ rateScalar: Double) -> AudioTimeStamp {
        var t = AudioTimeStamp()
        t.mSampleTime = sampleTime
        t.mHostTime = host
        t.mRateScalar = rateScalar
        t.mFlags = [.sampleTimeValid, .hostTimeValid, .rateScalarValid]
        return t
    }

    /// Each started proc writes into zeroed memory; the first directly into the output, the others into a
    /// scratch period that is added in.
    private func callProcs(frames n: Int, outChannels: Int, now: inout AudioTimeStamp, inputTime: inout AudioTimeStamp,
                           outputTime: inout AudioTimeStamp) {
        let count = n * outChannels
        outputSamples.update(repeating: 0, count: max(count, 0))
        guard let raw = procs.load(ordering: .acquiring) else { return }
        let entries = Unmanaged<Procs>.fromOpaque(raw).takeUnretainedValue().entries
        for i in 0..<entries.count {
            let target = i == 0 ? outputSamples : mixSamples
            if i > 0 { mixSamples.update(repeating: 0, count: count) }
            if outChannels > 0 {
                outputList[0] = AudioBuffer(mNumberChannels: UInt32(outChannels), mDataByteSize: UInt32(count * 4),
                                            mData: UnsafeMutableRawPointer(target))
            }
            let entry = entries[i]
            // A proc started at a time (AudioDeviceStartAtTime) joins at the cycle it was aligned to.
            if entry.startSample > now.mSampleTime { continue }
            if let proc = entry.proc {
                _ = proc(deviceID, &now, inputList.unsafePointer, &inputTime, outputList.unsafeMutablePointer, &outputTime, entry.clientData)
            } else if let block = entry.block {
                block(&now, inputList.unsafePointer, &inputTime, outputList.unsafeMutablePointer, &outputTime)
            }
            if i > 0 { for k in 0..<count { outputSamples[k] += mixSamples[k] } }
        }
    }
}
