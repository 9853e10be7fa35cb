import Foundation
import Synchronization

/// A tap on one output bus of a node: a post-render notify on the node's unit copies each rendered slice into a
/// lock-free ring (render thread: copies only), and the service thread hands the client buffers of
/// `bufferSize` frames with their times.
final class NodeTap: ServiceClient, @unchecked Sendable {
    let unit: AudioUnit
    let bus: UInt32
    let format: AVAudioFormat
    private let bufferSize: Int
    private let block: AVAudioNodeTapBlock
    private let channels: Int
    private let capacity: Int
    private let samples: UnsafeMutablePointer<Float>
    private let written = Atomic<Int>(0)  // frames pushed (render thread)
    private let read = Atomic<Int>(0)  // frames delivered (service thread)
    private let startSampleTime = Atomic<UInt64>(Double.nan.bitPattern)
    private let hostTimeAtStart = Atomic<UInt64>(0)
    /// Offline manual rendering: a full ring makes the render wait for the service thread instead of dropping the
    /// slice (the render runs on the client's thread there, and an offline render must lose nothing).
    let waitsForRoom = Atomic<Bool>(false)

    init(unit: AudioUnit, bus: UInt32, format: AVAudioFormat, bufferSize: Int, block: @escaping AVAudioNodeTapBlock) {
        self.unit = unit
        self.bus = bus
        self.format = format
        self.bufferSize = max(bufferSize, 64)
        self.block = block
        channels = Int(format.channelCount)
        capacity = max(self.bufferSize * 8, 32768)
        samples = .allocate(capacity: capacity * max(channels, 1))
    }

    deinit { samples.deallocate() }

    /// Starts copying renders and delivering buffers.
    func install() {
        AudioUnitAddRenderNotify(unit, Self.notify, Unmanaged.passUnretained(self).toOpaque())
        ServiceThread.shared.add(self)
    }

    /// Stops copying (the object must outlive a render in progress: the engine keeps it a while).
    func uninstall() {
        AudioUnitRemoveRenderNotify(unit, Self.notify, Unmanaged.passUnretained(self).toOpaque())
        ServiceThread.shared.remove(self)
    }

    private static let notify: AURenderCallback = { refCon, flags, timeStamp, bus, frames, ioData in
        let tap = Unmanaged<NodeTap>.fromOpaque(refCon).takeUnretainedValue()
        guard flags.pointee.contains(.unitRenderAction_PostRender), bus == tap.bus, let ioData else { return noErr }
        tap.capture(UnsafeMutableAudioBufferListPointer(ioData), frames: Int(frames), time: timeStamp.pointee,
                    silent: flags.pointee.contains(.unitRenderAction_OutputIsSilence))
        return noErr
    }

    /// Render thread: appends a slice (dropped when the client has fallen a ring behind, except offline).
    private func capture(_ list: UnsafeMutableAudioBufferListPointer, frames: Int, time: AudioTimeStamp, silent: Bool) {
        let w = written.load(ordering: .relaxed)
        guard frames > 0 else { return }
        if w + frames - read.load(ordering: .acquiring) > capacity && waitsForRoom.load(ordering: .relaxed) {
            // Bounded, in case the client's block never returns: then the slice is dropped as in real time.
            var waited = 0
            while w + frames - read.load(ordering: .acquiring) > capacity && waited < 10_000 { usleep(500); waited += 1 }
        }
        guard w + frames - read.load(ordering: .acquiring) <= capacity else { return }
        if w == 0 {
            startSampleTime.store(time.mSampleTime.bitPattern, ordering: .relaxed)
            hostTimeAtStart.store(time.mHostTime, ordering: .relaxed)
        }
        let interleaved = list.count == 1 && channels > 1
        for c in 0..<channels {
            let ring = samples + c * capacity
            let buffer = list[interleaved ? 0 : min(c, list.count - 1)]
            guard let data = buffer.mData?.assumingMemoryBound(to: Float.self) else { continue }
            for i in 0..<frames {
                ring[(w + i) % capacity] = silent ? 0 : (interleaved ? data[i * channels + c] : data[i])
            }
        }
        written.store(w + frames, ordering: .releasing)
    }

    func service() {
        while written.load(ordering: .acquiring) - read.load(ordering: .relaxed) >= bufferSize {
            let r = read.load(ordering: .relaxed)
            guard let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: AVAudioFrameCount(bufferSize)) else { return }
            buffer.frameLength = AVAudioFrameCount(bufferSize)
            let list = UnsafeMutableAudioBufferListPointer(buffer.mutableAudioBufferList)
            for c in 0..<channels {
                let ring = samples + c * capacity
                if format.isInterleaved {
                    let out = list[0].mData!.assumingMemoryBound(to: Float.self)
                    for i in 0..<bufferSize { out[i * channels + c] = ring[(r + i) % capacity] }
                } else {
                    let out = list[c].mData!.assumingMemoryBound(to: Float.self)
                    for i in 0..<bufferSize { out[i] = ring[(r + i) % capacity] }
                }
            }
            read.store(r + bufferSize, ordering: .releasing)
            let start = Double(bitPattern: startSampleTime.load(ordering: .relaxed))
            let sampleTime = AVAudioFramePosition((start.isNaN ? 0 : start) + Double(r))
            let host = hostTimeAtStart.load(ordering: .relaxed)
            let when = host != 0
                ? AVAudioTime(hostTime: host + AudioConvertNanosToHostTime(UInt64(Double(r) / format.sampleRate * 1e9)),
                              sampleTime: sampleTime, atRate: format.sampleRate)
                : AVAudioTime(sampleTime: sampleTime, atRate: format.sampleRate)
            block(buffer, when)
        }
    }
}
