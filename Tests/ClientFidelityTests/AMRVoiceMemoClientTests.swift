// A voice-memo app that keeps its recordings small: 44.1 kHz stereo Float32 from the microphone encoded to AMR
// narrowband ('samr', 8 kHz mono, 20 ms frames) with AudioConverter, and saved as a .3gp through ExtAudioFile.
import AVFoundation
import AudioToolbox
import Foundation
import Testing

/// The app's AMR encoder: one AudioConverter from the capture format to 'samr'.
final class VoiceMemoEncoder {
    static let captureFormat = AudioStreamBasicDescription(
        mSampleRate: 44100, mFormatID: kAudioFormatLinearPCM, mFormatFlags: kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked,
        mBytesPerPacket: 8, mFramesPerPacket: 1, mBytesPerFrame: 8, mChannelsPerFrame: 2, mBitsPerChannel: 32, mReserved: 0)
    static var amrFormat: AudioStreamBasicDescription {
        var f = AudioStreamBasicDescription()
        f.mFormatID = kAudioFormatAMR
        f.mSampleRate = 8000
        f.mChannelsPerFrame = 1
        f.mFramesPerPacket = 160
        return f
    }

    let converter: AudioConverterRef
    /// The capture handed to the input proc: stays allocated while the converter reads it.
    var pending = UnsafeMutableBufferPointer<Float>(start: nil, count: 0)
    var consumed = false

    init(bitRate: UInt32) throws {
        var input = Self.captureFormat, output = Self.amrFormat
        var c: AudioConverterRef?
        let status = AudioConverterNew(&input, &output, &c)
        guard status == noErr, let c else { throw NSError(domain: NSOSStatusErrorDomain, code: Int(status)) }
        converter = c
        var rate = bitRate
        let set = AudioConverterSetProperty(c, kAudioConverterEncodeBitRate, 4, &rate)
        guard set == noErr else { throw NSError(domain: NSOSStatusErrorDomain, code: Int(set)) }
    }

    deinit { AudioConverterDispose(converter) }

    func property<T>(_ id: AudioConverterPropertyID, _ initial: T) -> T {
        var value = initial
        var size = UInt32(MemoryLayout<T>.size)
        _ = withUnsafeMutableBytes(of: &value) { AudioConverterGetProperty(converter, id, &size, $0.baseAddress!) }
        return value
    }

    /// All of `samples` (interleaved stereo) encoded: the packets, each with its bytes.
    func encodeAll(_ samples: [Float]) -> (packets: [[UInt8]], status: OSStatus) {
        pending = .allocate(capacity: samples.count)
        _ = pending.initialize(from: samples)
        defer { pending.deallocate() }
        consumed = false
        let maxPacket = Int(property(kAudioConverterPropertyMaximumOutputPacketSize, UInt32(0)))
        var packets: [[UInt8]] = []
        var buffer = [UInt8](repeating: 0, count: 16 * max(maxPacket, 1))
        var descriptions = [AudioStreamPacketDescription](repeating: AudioStreamPacketDescription(), count: 16)
        while true {
            var count: UInt32 = 16
            let status = buffer.withUnsafeMutableBytes { raw -> OSStatus in
                var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(raw.count), mData: raw.baseAddress))
                return AudioConverterFillComplexBuffer(converter, { _, ioCount, ioData, _, user in
                    let me = Unmanaged<VoiceMemoEncoder>.fromOpaque(user!).takeUnretainedValue()
                    if me.consumed {
                        ioCount.pointee = 0
                        ioData.pointee.mBuffers.mDataByteSize = 0
                        return noErr
                    }
                    me.consumed = true
                    ioCount.pointee = UInt32(me.pending.count / 2)
                    ioData.pointee.mBuffers.mData = UnsafeMutableRawPointer(me.pending.baseAddress)
                    ioData.pointee.mBuffers.mDataByteSize = UInt32(me.pending.count * 4)
                    ioData.pointee.mBuffers.mNumberChannels = 2
                    return noErr
                }, Unmanaged.passUnretained(self).toOpaque(), &count, &list, &descriptions)
            }
            if status != noErr { return (packets, status) }
            if count == 0 { break }
            for d in descriptions.prefix(Int(count)) {
                packets.append(Array(buffer[Int(d.mStartOffset)..<Int(d.mStartOffset) + Int(d.mDataByteSize)]))
            }
        }
        return (packets, noErr)
    }
}

@Suite struct AMRVoiceMemoClientTests {
    /// One second of a 300 Hz + 1 kHz voice-band signal, slightly different in each channel, 44.1 kHz stereo.
    static let second: [Float] = (0..<44100).flatMap { i -> [Float] in
        let t = Double(i) / 44100
        let v = 0.3 * sin(2 * Double.pi * 300 * t) + 0.2 * sin(2 * Double.pi * 1000 * t)
        return [Float(v), Float(v * 0.9)]
    }

    /// Frame bytes (ToC byte included) of each narrowband mode, from RFC 4867's table.
    static let modeSizes = [4750: 13, 5150: 14, 5900: 16, 6700: 18, 7400: 20, 7950: 21, 10200: 27, 12200: 32]

    /// The converter offers every AMR mode's bit rate, packets at most 32 bytes, and at each mode every packet is
    /// one frame of that mode's size whose ToC byte names it; a second of input makes 50 frames (the resampler's
    /// delay may push one more).
    @Test(arguments: [4750, 5150, 5900, 6700, 7400, 7950, 10200, 12200])
    func encodesEveryModeFromStereoCapture(_ bitRate: Int) throws {
        let encoder = try VoiceMemoEncoder(bitRate: UInt32(bitRate))
        #expect(encoder.property(kAudioConverterPropertyMaximumOutputPacketSize, UInt32(0)) == 32)
        #expect(encoder.property(kAudioConverterEncodeBitRate, UInt32(0)) == UInt32(bitRate))
        var size: UInt32 = 0
        #expect(AudioConverterGetPropertyInfo(encoder.converter, kAudioConverterAvailableEncodeBitRates, &size, nil) == noErr)
        var ranges = [AudioValueRange](repeating: AudioValueRange(), count: Int(size) / MemoryLayout<AudioValueRange>.size)
        AudioConverterGetProperty(encoder.converter, kAudioConverterAvailableEncodeBitRates, &size, &ranges)
        for rate in Self.modeSizes.keys {
            #expect(ranges.contains { $0.mMinimum <= Double(rate) && Double(rate) <= $0.mMaximum }, "\(rate) missing from \(ranges)")
        }
        let (packets, status) = encoder.encodeAll(Self.second)
        #expect(status == noErr)
        #expect((50...51).contains(packets.count), "\(packets.count) packets")
        let mode = [4750, 5150, 5900, 6700, 7400, 7950, 10200, 12200].firstIndex(of: bitRate)!
        #expect(packets.allSatisfy { $0.count == Self.modeSizes[bitRate]! && Int($0[0] >> 3) & 15 == mode })
    }

    /// The memo saved as .3gp through ExtAudioFile from the capture format: AudioFile reads back a 3GP file of
    /// 'samr' at 8 kHz mono with a packet per 20 ms, and ExtAudioFile reads the recording's length at 8 kHz.
    @Test func savesMemoAs3GP() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("memo-\(UUID().uuidString).3gp")
        defer { try? FileManager.default.removeItem(at: url) }
        var file = VoiceMemoEncoder.amrFormat
        var ext: ExtAudioFileRef?
        try #require(ExtAudioFileCreateWithURL(url as CFURL, kAudioFile3GPType, &file, nil, AudioFileFlags.eraseFile.rawValue, &ext) == noErr)
        var client = VoiceMemoEncoder.captureFormat
        try #require(ExtAudioFileSetProperty(ext!, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &client) == noErr)
        var samples = Self.second + Self.second
        let status = samples.withUnsafeMutableBytes { raw -> OSStatus in
            var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: 2, mDataByteSize: UInt32(raw.count), mData: raw.baseAddress))
            return ExtAudioFileWrite(ext!, 88200, &list)
        }
        #expect(status == noErr)
        #expect(ExtAudioFileDispose(ext!) == noErr)

        var audioFile: AudioFileID?
        try #require(AudioFileOpenURL(url as CFURL, .readPermission, 0, &audioFile) == noErr)
        var type: AudioFileTypeID = 0, format = AudioStreamBasicDescription(), packets: UInt64 = 0
        var size = UInt32(4)
        AudioFileGetProperty(audioFile!, kAudioFilePropertyFileFormat, &size, &type)
        size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        AudioFileGetProperty(audioFile!, kAudioFilePropertyDataFormat, &size, &format)
        size = 8
        AudioFileGetProperty(audioFile!, kAudioFilePropertyAudioDataPacketCount, &size, &packets)
        AudioFileClose(audioFile!)
        #expect(type == kAudioFile3GPType)
        #expect(format.mFormatID == kAudioFormatAMR && format.mSampleRate == 8000 && format.mChannelsPerFrame == 1)
        #expect((100...101).contains(packets), "\(packets) packets")

        var reader: ExtAudioFileRef?
        try #require(ExtAudioFileOpenURL(url as CFURL, &reader) == noErr)
        defer { ExtAudioFileDispose(reader!) }
        var length: Int64 = 0
        size = 8
        ExtAudioFileGetProperty(reader!, kExtAudioFileProperty_FileLengthFrames, &size, &length)
        #expect(abs(length - 16000) <= 1, "\(length) frames")
    }

    /// The same memo through AVAudioFile, as most apps write it: settings for AMR at 8 kHz mono and a .3gp or .amr
    /// URL; read back, the file's format is 'samr' at 8 kHz mono, its length the frames written, and it decodes to
    /// a buffer of that length at the processing format.
    @Test(arguments: ["3gp", "amr"])
    func avAudioFileWritesAMR(_ ext: String) throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("memo-\(UUID().uuidString).\(ext)")
        defer { try? FileManager.default.removeItem(at: url) }
        let settings: [String: Any] = [AVFormatIDKey: kAudioFormatAMR, AVSampleRateKey: 8000.0, AVNumberOfChannelsKey: 1]
        do {
            let file = try AVAudioFile(forWriting: url, settings: settings, commonFormat: .pcmFormatFloat32, interleaved: false)
            let buffer = try #require(AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: 8000))
            buffer.frameLength = 8000
            for i in 0..<8000 { buffer.floatChannelData![0][i] = Float(0.4 * sin(2 * Double.pi * 500 * Double(i) / 8000)) }
            try file.write(from: buffer)
        }
        let read = try AVAudioFile(forReading: url)
        #expect(read.fileFormat.streamDescription.pointee.mFormatID == kAudioFormatAMR)
        #expect(read.fileFormat.sampleRate == 8000 && read.fileFormat.channelCount == 1)
        #expect(read.length == 8000)
        let back = try #require(AVAudioPCMBuffer(pcmFormat: read.processingFormat, frameCapacity: 9000))
        try read.read(into: back)
        #expect(back.frameLength == 8000)
        // A 500 Hz tone survives 12.2 kb/s coding: the decoded signal's power is within 6 dB of the input's (0.08).
        let power = (0..<Int(back.frameLength)).reduce(0.0) { $0 + Double(back.floatChannelData![0][$1] * back.floatChannelData![0][$1]) } / 8000
        #expect(power > 0.02 && power < 0.32, "power \(power)")
    }
}
