import AudioToolbox
import Foundation
import ToolSupport

/// afplay's default path, as Apple's afplay plays: an output audio queue fed with the file's packets from
/// the queue's own thread (any format the queue decodes, with the file's magic cookie and packet
/// descriptions). -v up to 1 is the queue's Volume, above 1 a processing tap's gain; -r is the queue's
/// time-pitch (PlayRate, 0.5 to 2; -q 1 Spectral, else TimeDomain); -t stops after that many seconds.
final class QueuePlayer: @unchecked Sendable {
    let file: AudioFileID
    let format: AudioStreamBasicDescription
    var queue: AudioQueueRef?
    var packet: Int64 = 0
    var packetsPerBuffer: UInt32 = 0
    let lock = NSLock()
    var atEnd = false
    /// The tap's gain (-v above 1), read on the device thread; set before the queue starts.
    var gain: Float = 1

    /// Opens `path`; fails with the reason as text.
    init(path: String) throws(QueuePlayerError) {
        var f: AudioFileID?
        let url = URL(fileURLWithPath: path) as CFURL
        var status = AudioFileOpenURL(url, .readPermission, 0, &f)
        guard status == noErr, let f else { throw QueuePlayerError(what: "can't open \(path)", status: status) }
        file = f
        var d = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        status = AudioFileGetProperty(f, kAudioFilePropertyDataFormat, &size, &d)
        guard status == noErr else { throw QueuePlayerError(what: "can't read the format of \(path)", status: status) }
        format = d
    }

    deinit { AudioFileClose(file) }

    /// Reads the next packets into `buffer` and enqueues it; at the end of the file, stops after play-out.
    static let callback: AudioQueueOutputCallback = { user, queue, buffer in
        let p = Unmanaged<QueuePlayer>.fromOpaque(user!).takeUnretainedValue()
        p.lock.lock(); defer { p.lock.unlock() }
        if p.atEnd { return }
        var bytes = buffer.pointee.mAudioDataBytesCapacity
        var packets = p.packetsPerBuffer
        let status = AudioFileReadPacketData(p.file, false, &bytes, buffer.pointee.mPacketDescriptions, p.packet, &packets, buffer.pointee.mAudioData)
        if (status == noErr || status == kAudioFileEndOfFileError) && packets > 0 {
            buffer.pointee.mAudioDataByteSize = bytes
            let variable = buffer.pointee.mPacketDescriptions != nil && p.format.mBytesPerPacket == 0
            if AudioQueueEnqueueBuffer(queue, buffer, variable ? packets : 0, variable ? buffer.pointee.mPacketDescriptions : nil) == noErr {
                p.packet += Int64(packets)
                return
            }
        }
        p.atEnd = true
        AudioQueueStop(queue, false)
    }

    /// A post-effects tap multiplying by the player's gain (-v above 1, beyond the queue's Volume).
    static let gainTap: AudioQueueProcessingTapCallback = { user, tap, frames, timeStamp, flags, outFrames, ioData in
        let gain = Unmanaged<QueuePlayer>.fromOpaque(user).takeUnretainedValue().gain
        var sourceFlags = AudioQueueProcessingTapFlags()
        var got: UInt32 = 0
        guard AudioQueueProcessingTapGetSourceAudio(tap, frames, timeStamp, &sourceFlags, &got, ioData) == noErr else { return }
        for b in UnsafeMutableAudioBufferListPointer(ioData) {
            guard let p = b.mData?.assumingMemoryBound(to: Float.self) else { continue }
            for i in 0..<Int(got) { p[i] *= gain }
        }
        if sourceFlags.contains(.endOfStream) { flags.pointee.insert(.endOfStream) }
        outFrames.pointee = got
    }

    /// Plays the file (or its first `seconds`) and returns when it has been heard.
    func play(volume: Float, rate: Float?, highQuality: Bool, seconds: Double?, debug: Bool) throws(QueuePlayerError) {
        var d = format
        let me = Unmanaged.passUnretained(self).toOpaque()
        var status = AudioQueueNewOutput(&d, Self.callback, me, nil, nil, 0, &queue)
        guard status == noErr, let queue else { throw QueuePlayerError(what: "can't make an output queue for this format", status: status) }
        defer { AudioQueueDispose(queue, true) }
        var cookieSize: UInt32 = 0
        if AudioFileGetPropertyInfo(file, kAudioFilePropertyMagicCookieData, &cookieSize, nil) == noErr, cookieSize > 0 {
            var cookie = [UInt8](repeating: 0, count: Int(cookieSize))
            if AudioFileGetProperty(file, kAudioFilePropertyMagicCookieData, &cookieSize, &cookie) == noErr {
                AudioQueueSetProperty(queue, kAudioQueueProperty_MagicCookie, cookie, cookieSize)
            }
        }
        // Buffers of about half a second (as the book's player sizes them), three of them.
        var maxPacket = format.mBytesPerPacket
        if maxPacket == 0 {
            var size = UInt32(4)
            AudioFileGetProperty(file, kAudioFilePropertyPacketSizeUpperBound, &size, &maxPacket)
        }
        let framesPerPacket = max(format.mFramesPerPacket, 1)
        packetsPerBuffer = max(UInt32(format.mSampleRate * 0.5) / framesPerPacket, 1)
        let bufferBytes = packetsPerBuffer * max(maxPacket, 1)
        let descriptions = format.mBytesPerPacket == 0 ? packetsPerBuffer : 0
        if let rate {
            var on: UInt32 = 1
            var algorithm = highQuality ? kAudioQueueTimePitchAlgorithm_Spectral : kAudioQueueTimePitchAlgorithm_TimeDomain
            AudioQueueSetProperty(queue, kAudioQueueProperty_EnableTimePitch, &on, 4)
            AudioQueueSetProperty(queue, kAudioQueueProperty_TimePitchAlgorithm, &algorithm, 4)
            AudioQueueSetParameter(queue, kAudioQueueParam_PlayRate, rate)
        }
        AudioQueueSetParameter(queue, kAudioQueueParam_Volume, min(volume, 1))
        if volume > 1 {
            gain = volume
            var maxFrames: UInt32 = 0
            var processing = AudioStreamBasicDescription()
            var tap: AudioQueueProcessingTapRef?
            status = AudioQueueProcessingTapNew(queue, Self.gainTap, me, .postEffects, &maxFrames, &processing, &tap)
            guard status == noErr else { throw QueuePlayerError(what: "can't install the gain tap", status: status) }
        }
        for _ in 0..<3 {
            var buffer: AudioQueueBufferRef?
            status = AudioQueueAllocateBufferWithPacketDescriptions(queue, bufferBytes, descriptions, &buffer)
            guard status == noErr, let buffer else { throw QueuePlayerError(what: "can't allocate a queue buffer", status: status) }
            Self.callback(me, queue, buffer)
        }
        status = AudioQueueStart(queue, nil)
        guard status == noErr else { throw QueuePlayerError(what: "can't start the queue", status: status) }
        if debug { warn("afplay: playing through an output queue (\(packetsPerBuffer) packets a buffer)") }
        let start = Date()
        // Until IsRunning goes to 0 (play-out heard, after Stop(false)), or -t.
        while true {
            var running: UInt32 = 0
            var size = UInt32(4)
            AudioQueueGetProperty(queue, kAudioQueueProperty_IsRunning, &running, &size)
            if running == 0 { break }
            if let seconds, Date().timeIntervalSince(start) >= seconds {
                AudioQueueStop(queue, true)
                break
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        if debug { warn("afplay: played \(String(format: "%.3f", Date().timeIntervalSince(start))) s") }
    }
}
