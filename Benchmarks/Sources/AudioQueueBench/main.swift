// Audio Queue offline render throughput: a 2-minute stereo 16-bit WAV rendered to Float32 through an
// output queue in offline mode (AQOfflineRenderTest's loop: AudioFile reads into queue buffers from the
// callback, AudioQueueOfflineRender pulls), against ExtAudioFile reading the same file as Float32 in the
// same run. Prints x real time for each and the ratio; median of 5 runs. Then the same for AAC: the WAV's first
// 60 s encoded into a CAF by ExtAudioFile, the queue decoding the packets (with their descriptions and the
// file's magic cookie) against ExtAudioFile decoding the same file.
import AudioToolbox
import AudioToolboxAAC
import Foundation

nonisolated(unsafe) let rate = 44100.0
nonisolated(unsafe) let seconds = 120
nonisolated(unsafe) let frames = Int(rate) * seconds
nonisolated(unsafe) let url = FileManager.default.temporaryDirectory.appendingPathComponent("oca-aq-bench.wav")
defer { try? FileManager.default.removeItem(at: url) }

func median(_ xs: [Double]) -> Double { xs.sorted()[xs.count / 2] }
func timed(_ body: () -> Void) -> Double {
    let t0 = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9
}

nonisolated(unsafe) var int16 = AudioStreamBasicDescription(mSampleRate: rate, mFormatID: kAudioFormatLinearPCM,
                                                            mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked,
                                                            mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4,
                                                            mChannelsPerFrame: 2, mBitsPerChannel: 16, mReserved: 0)
nonisolated(unsafe) var float32 = AudioStreamBasicDescription(mSampleRate: rate, mFormatID: kAudioFormatLinearPCM,
                                                              mFormatFlags: kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked,
                                                              mBytesPerPacket: 8, mFramesPerPacket: 1, mBytesPerFrame: 8,
                                                              mChannelsPerFrame: 2, mBitsPerChannel: 32, mReserved: 0)

do {
    var file: AudioFileID?
    AudioFileCreateWithURL(url as CFURL, kAudioFileWAVEType, &int16, .eraseFile, &file)
    var samples = (0..<(2 * 44100)).map { Int16(12000 * sin(Double($0 / 2) * 0.0627)) }
    for s in 0..<seconds {
        var bytes = UInt32(samples.count * 2)
        AudioFileWriteBytes(file!, false, Int64(s) * Int64(bytes), &bytes, &samples)
    }
    AudioFileClose(file!)
}

final class Reader { var file: AudioFileID?; var packet: Int64 = 0; var done = false; var flushed = false }

nonisolated(unsafe) let callback: AudioQueueOutputCallback = { user, queue, buffer in
    let r = Unmanaged<Reader>.fromOpaque(user!).takeUnretainedValue()
    if r.done { return }
    var bytes = buffer.pointee.mAudioDataBytesCapacity
    var packets = bytes / 4
    AudioFileReadPacketData(r.file!, false, &bytes, nil, r.packet, &packets, buffer.pointee.mAudioData)
    if packets > 0 {
        buffer.pointee.mAudioDataByteSize = bytes
        AudioQueueEnqueueBuffer(queue, buffer, 0, nil)
        r.packet += Int64(packets)
    } else {
        AudioQueueFlush(queue)
        AudioQueueStop(queue, false)
        r.flushed = true
        r.done = true
    }
}

func queueRender() -> Int {
    let r = Reader()
    AudioFileOpenURL(url as CFURL, .readPermission, 0, &r.file)
    defer { AudioFileClose(r.file!) }
    var queue: AudioQueueRef?
    AudioQueueNewOutput(&int16, callback, Unmanaged.passUnretained(r).toOpaque(), nil, nil, 0, &queue)
    defer { AudioQueueDispose(queue!, true) }
    var buffer: AudioQueueBufferRef?, capture: AudioQueueBufferRef?
    AudioQueueAllocateBuffer(queue!, 0x10000, &buffer)
    AudioQueueSetOfflineRenderFormat(queue!, &float32, nil)
    AudioQueueAllocateBuffer(queue!, 0x10000, &capture)
    AudioQueueStart(queue!, nil)
    var ts = AudioTimeStamp()
    ts.mFlags = .sampleTimeValid
    AudioQueueOfflineRender(queue!, &ts, capture!, 0)
    callback(Unmanaged.passUnretained(r).toOpaque(), queue!, buffer!)
    var total = 0
    while true {
        AudioQueueOfflineRender(queue!, &ts, capture!, 0x10000 / 8)
        let got = Int(capture!.pointee.mAudioDataByteSize) / 8
        total += got
        if r.flushed && got < 0x10000 / 8 { break }
        ts.mSampleTime += Double(got)
    }
    return total
}

func extAudioFileRead() -> Int {
    var x: ExtAudioFileRef?
    ExtAudioFileOpenURL(url as CFURL, &x)
    defer { ExtAudioFileDispose(x!) }
    ExtAudioFileSetProperty(x!, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &float32)
    var out = [Float](repeating: 0, count: 2 * 8192)
    var total = 0
    while true {
        var n: UInt32 = 8192
        out.withUnsafeMutableBytes { raw in
            var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 2, mDataByteSize: UInt32(raw.count), mData: raw.baseAddress))
            ExtAudioFileRead(x!, &n, &list)
        }
        if n == 0 { break }
        total += Int(n)
    }
    return total
}

precondition(queueRender() == frames, "the queue rendered \(queueRender()) of \(frames) frames")
precondition(extAudioFileRead() == frames)
var queueTimes: [Double] = [], extTimes: [Double] = []
for _ in 0..<5 {
    queueTimes.append(timed { _ = queueRender() })
    extTimes.append(timed { _ = extAudioFileRead() })
}
let q = Double(seconds) / median(queueTimes), e = Double(seconds) / median(extTimes)
print(String(format: "PCM 16-bit stereo -> Float32, %d s: AudioQueueOfflineRender %.0fx real time, ExtAudioFileRead %.0fx (queue/ExtAudioFile %.2f)",
             seconds, q, e, q / e))

// MARK: AAC

let aacSeconds = 60
let aacURL = FileManager.default.temporaryDirectory.appendingPathComponent("oca-aq-bench.caf")
defer { try? FileManager.default.removeItem(at: aacURL) }

/// The WAV's first `aacSeconds` seconds encoded to AAC in a CAF.
func encodeAAC() {
    var source: ExtAudioFileRef?, target: ExtAudioFileRef?
    ExtAudioFileOpenURL(url as CFURL, &source)
    var aac = AudioStreamBasicDescription(mSampleRate: rate, mFormatID: kAudioFormatMPEG4AAC, mFormatFlags: 0, mBytesPerPacket: 0,
                                          mFramesPerPacket: 1024, mBytesPerFrame: 0, mChannelsPerFrame: 2, mBitsPerChannel: 0, mReserved: 0)
    let created = ExtAudioFileCreateWithURL(aacURL as CFURL, kAudioFileCAFType, &aac, nil, AudioFileFlags.eraseFile.rawValue, &target)
    precondition(created == noErr, "creating the AAC file: \(created)")
    let asbd = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
    ExtAudioFileSetProperty(source!, kExtAudioFileProperty_ClientDataFormat, asbd, &float32)
    ExtAudioFileSetProperty(target!, kExtAudioFileProperty_ClientDataFormat, asbd, &float32)
    var chunk = [Float](repeating: 0, count: 2 * 8192)
    var left = Int(rate) * aacSeconds
    while left > 0 {
        var n = UInt32(min(8192, left))
        chunk.withUnsafeMutableBytes { raw in
            var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 2, mDataByteSize: UInt32(raw.count), mData: raw.baseAddress))
            ExtAudioFileRead(source!, &n, &list)
            list.mBuffers.mDataByteSize = n * 8
            precondition(ExtAudioFileWrite(target!, n, &list) == noErr)
        }
        if n == 0 { break }
        left -= Int(n)
    }
    ExtAudioFileDispose(source!)
    ExtAudioFileDispose(target!)
}

final class PacketReader {
    var file: AudioFileID?
    var packet: Int64 = 0
    var packetsPerBuffer: UInt32 = 0
    var flushed = false
}

nonisolated(unsafe) let packetCallback: AudioQueueOutputCallback = { user, queue, buffer in
    let r = Unmanaged<PacketReader>.fromOpaque(user!).takeUnretainedValue()
    if r.flushed { return }
    var bytes = buffer.pointee.mAudioDataBytesCapacity
    var packets = r.packetsPerBuffer
    AudioFileReadPacketData(r.file!, false, &bytes, buffer.pointee.mPacketDescriptions, r.packet, &packets, buffer.pointee.mAudioData)
    if packets > 0 {
        buffer.pointee.mAudioDataByteSize = bytes
        AudioQueueEnqueueBuffer(queue, buffer, packets, buffer.pointee.mPacketDescriptions)
        r.packet += Int64(packets)
    } else {
        AudioQueueFlush(queue)
        AudioQueueStop(queue, false)
        r.flushed = true
    }
}

/// AQOfflineRenderTest's flow on the AAC file: frames rendered.
func queueRenderAAC() -> Int {
    let r = PacketReader()
    AudioFileOpenURL(aacURL as CFURL, .readPermission, 0, &r.file)
    defer { AudioFileClose(r.file!) }
    var format = AudioStreamBasicDescription()
    var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
    AudioFileGetProperty(r.file!, kAudioFilePropertyDataFormat, &size, &format)
    var queue: AudioQueueRef?
    precondition(AudioQueueNewOutput(&format, packetCallback, Unmanaged.passUnretained(r).toOpaque(), nil, nil, 0, &queue) == noErr)
    defer { AudioQueueDispose(queue!, true) }
    var cookieSize: UInt32 = 0
    if AudioFileGetPropertyInfo(r.file!, kAudioFilePropertyMagicCookieData, &cookieSize, nil) == noErr, cookieSize > 0 {
        var cookie = [UInt8](repeating: 0, count: Int(cookieSize))
        AudioFileGetProperty(r.file!, kAudioFilePropertyMagicCookieData, &cookieSize, &cookie)
        AudioQueueSetProperty(queue!, kAudioQueueProperty_MagicCookie, cookie, cookieSize)
    }
    var maxPacket: UInt32 = 0
    size = 4
    AudioFileGetProperty(r.file!, kAudioFilePropertyPacketSizeUpperBound, &size, &maxPacket)
    r.packetsPerBuffer = 16
    var buffer: AudioQueueBufferRef?, capture: AudioQueueBufferRef?
    AudioQueueAllocateBufferWithPacketDescriptions(queue!, r.packetsPerBuffer * max(maxPacket, 1), r.packetsPerBuffer, &buffer)
    AudioQueueSetOfflineRenderFormat(queue!, &float32, nil)
    AudioQueueAllocateBuffer(queue!, 0x10000, &capture)
    AudioQueueStart(queue!, nil)
    var ts = AudioTimeStamp()
    ts.mFlags = .sampleTimeValid
    AudioQueueOfflineRender(queue!, &ts, capture!, 0)
    packetCallback(Unmanaged.passUnretained(r).toOpaque(), queue!, buffer!)
    var total = 0
    while true {
        AudioQueueOfflineRender(queue!, &ts, capture!, 0x10000 / 8)
        let got = Int(capture!.pointee.mAudioDataByteSize) / 8
        total += got
        if r.flushed && got < 0x10000 / 8 { break }
        ts.mSampleTime += Double(got)
    }
    return total
}

/// ExtAudioFile decoding the same AAC file to Float32: frames read.
func extAudioFileReadAAC() -> Int {
    var x: ExtAudioFileRef?
    ExtAudioFileOpenURL(aacURL as CFURL, &x)
    defer { ExtAudioFileDispose(x!) }
    ExtAudioFileSetProperty(x!, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &float32)
    var out = [Float](repeating: 0, count: 2 * 8192)
    var total = 0
    while true {
        var n: UInt32 = 8192
        out.withUnsafeMutableBytes { raw in
            var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 2, mDataByteSize: UInt32(raw.count), mData: raw.baseAddress))
            ExtAudioFileRead(x!, &n, &list)
        }
        if n == 0 { break }
        total += Int(n)
    }
    return total
}

encodeAAC()
// The queue plays the packets whole (priming included); ExtAudioFile trims the priming and remainder.
let aacQueueFrames = queueRenderAAC(), aacExtFrames = extAudioFileReadAAC()
precondition(aacExtFrames == Int(rate) * aacSeconds, "ExtAudioFile read \(aacExtFrames) frames")
precondition(abs(aacQueueFrames - aacExtFrames) <= 4096, "the queue rendered \(aacQueueFrames) frames, ExtAudioFile \(aacExtFrames)")
var aacQueueTimes: [Double] = [], aacExtTimes: [Double] = []
for _ in 0..<5 {
    aacQueueTimes.append(timed { _ = queueRenderAAC() })
    aacExtTimes.append(timed { _ = extAudioFileReadAAC() })
}
let qa = Double(aacSeconds) / median(aacQueueTimes), ea = Double(aacSeconds) / median(aacExtTimes)
print(String(format: "AAC stereo (CAF) -> Float32, %d s: AudioQueueOfflineRender %.0fx real time, ExtAudioFileRead %.0fx (queue/ExtAudioFile %.2f)",
             aacSeconds, qa, ea, qa / ea))
