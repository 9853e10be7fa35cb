import Foundation
import Synchronization

/// What the engine does on the render thread around each cycle, through a render notify on its output unit:
/// before the cycle it pulls the nodes nothing else pulls (sink nodes, tapped nodes that feed nothing); after
/// it, it records the cycle's time (lastRenderTime). The list of extra pulls is published through one atomic
/// pointer; replaced lists are kept until the engine goes, so a render never sees freed memory.
final class EngineHead: @unchecked Sendable {
    /// One extra pull: render `unit`'s `bus` into `list` and hand it to `sink` if there is one.
    struct Pull {
        let unit: AudioUnit
        let bus: UInt32
        let list: UnsafeMutableAudioBufferListPointer
        let channels: Int
        let capacity: Int
        let sink: Unmanaged<SinkBox>?
    }

    /// A sink's receiver block, held where the render thread can reach it without retaining.
    final class SinkBox {
        let block: AVAudioSinkNodeReceiverBlock
        init(_ block: @escaping AVAudioSinkNodeReceiverBlock) { self.block = block }
    }

    /// An immutable list of pulls with the memory they render into.
    final class PullList {
        let pulls: UnsafeMutableBufferPointer<Pull>
        let storage: [UnsafeMutablePointer<Float>]
        let sinks: [SinkBox]

        init(_ specs: [(AudioUnit, UInt32, Int, SinkBox?)], capacity: Int) {
            var storage: [UnsafeMutablePointer<Float>] = []
            pulls = .allocate(capacity: max(specs.count, 1))
            for (i, (unit, bus, channels, sink)) in specs.enumerated() {
                let list = AudioBufferList.allocate(maximumBuffers: max(channels, 1))
                for c in 0..<max(channels, 1) {
                    let memory = UnsafeMutablePointer<Float>.allocate(capacity: capacity)
                    storage.append(memory)
                    list[c] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(capacity * 4), mData: memory)
                }
                (pulls.baseAddress! + i).initialize(to: Pull(unit: unit, bus: bus, list: list, channels: max(channels, 1), capacity: capacity,
                                                             sink: sink.map { Unmanaged.passUnretained($0) }))
            }
            self.storage = storage
            sinks = specs.compactMap(\.3)
            count = specs.count
        }

        let count: Int

        deinit {
            for i in 0..<count { free(pulls[i].list.unsafeMutablePointer) }
            pulls.deallocate()
            storage.forEach { $0.deallocate() }
        }
    }

    private let current = Atomic<UnsafeMutableRawPointer?>(nil)
    private var lists: [PullList] = []  // every list published, kept until the engine goes
    private let lastSampleTime = Atomic<UInt64>(Double.nan.bitPattern)
    private let lastHostTime = Atomic<UInt64>(0)
    private(set) var unit: AudioUnit?

    /// Publishes a new list of pulls (off the render thread).
    func publish(_ list: PullList) {
        lists.append(list)
        current.store(Unmanaged.passUnretained(list).toOpaque(), ordering: .releasing)
    }

    /// Installs the notify on `unit` (the engine's output unit), removing it from the previous one.
    func attach(to unit: AudioUnit?) {
        if let old = self.unit { AudioUnitRemoveRenderNotify(old, Self.notify, Unmanaged.passUnretained(self).toOpaque()) }
        self.unit = unit
        if let unit { AudioUnitAddRenderNotify(unit, Self.notify, Unmanaged.passUnretained(self).toOpaque()) }
        lastSampleTime.store(Double.nan.bitPattern, ordering: .relaxed)
    }

    /// The last cycle's time, if the engine has rendered.
    func lastTime(sampleRate: Double) -> AVAudioTime? {
        let sample = Double(bitPattern: lastSampleTime.load(ordering: .acquiring))
        guard !sample.isNaN else { return nil }
        let host = lastHostTime.load(ordering: .relaxed)
        return host != 0 ? AVAudioTime(hostTime: host, sampleTime: AVAudioFramePosition(sample), atRate: sampleRate)
            : AVAudioTime(sampleTime: AVAudioFramePosition(sample), atRate: sampleRate)
    }

    /// Forgets the last render time (the engine stopped).
    func clearTime() { lastSampleTime.store(Double.nan.bitPattern, ordering: .relaxed) }

    private static let notify: AURenderCallback = { refCon, flags, timeStamp, bus, frames, _ in
        let head = Unmanaged<EngineHead>.fromOpaque(refCon).takeUnretainedValue()
        guard bus == 0 else { return noErr }
        if flags.pointee.contains(.unitRenderAction_PreRender) {
            head.pullExtras(timeStamp, frames: frames)
        } else if flags.pointee.contains(.unitRenderAction_PostRender) {
            head.lastHostTime.store(timeStamp.pointee.mHostTime, ordering: .relaxed)
            head.lastSampleTime.store(timeStamp.pointee.mSampleTime.bitPattern, ordering: .releasing)
        }
        return noErr
    }

    private func pullExtras(_ timeStamp: UnsafePointer<AudioTimeStamp>, frames: UInt32) {
        guard let raw = current.load(ordering: .acquiring) else { return }
        let list = Unmanaged<PullList>.fromOpaque(raw).takeUnretainedValue()
        for i in 0..<list.count {
            let pull = list.pulls[i]
            guard Int(frames) <= pull.capacity else { continue }
            for c in 0..<pull.channels { pull.list[c].mDataByteSize = frames * 4 }
            var flags: AudioUnitRenderActionFlags = []
            guard AudioUnitRender(pull.unit, &flags, timeStamp, pull.bus, frames, pull.list.unsafeMutablePointer) == noErr else { continue }
            if let sink = pull.sink {
                _ = sink.takeUnretainedValue().block(timeStamp, frames, UnsafePointer(pull.list.unsafeMutablePointer))
            }
        }
    }
}
