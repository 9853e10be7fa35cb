import AudioToolbox
import Foundation
import Testing

/// Shared helpers for the AudioToolbox tests.
enum TestSupport {
    /// Every packet AudioFile reads from `url`, in order, as bytes: what an AudioFileStream test compares with.
    /// `maxPacketBytes` bounds one packet of the format.
    static func packetsAudioFileReads(_ url: URL, maxPacketBytes: Int) throws -> [[UInt8]] {
        var file: AudioFileID?
        try #require(AudioFileOpenURL(url as CFURL, .readPermission, 0, &file) == noErr)
        defer { AudioFileClose(file!) }
        var packets: [[UInt8]] = []
        var descriptions = [AudioStreamPacketDescription](repeating: AudioStreamPacketDescription(), count: 64)
        var buffer = [UInt8](repeating: 0, count: 64 * maxPacketBytes)
        var packet: Int64 = 0
        while true {
            var n: UInt32 = 64, size = UInt32(buffer.count)
            AudioFileReadPacketData(file!, false, &size, &descriptions, packet, &n, &buffer)
            if n == 0 { break }
            for d in descriptions.prefix(Int(n)) { packets.append(Array(buffer[Int(d.mStartOffset)..<Int(d.mStartOffset) + Int(d.mDataByteSize)])) }
            packet += Int64(n)
        }
        return packets
    }

    static let genericOutput = AudioComponentDescription(
        componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_GenericOutput,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    static func newUnit(_ description: AudioComponentDescription = genericOutput) throws -> AudioUnit {
        var d = description
        let component = try #require(AudioComponentFindNext(nil, &d))
        var unit: AudioUnit?
        try #require(AudioComponentInstanceNew(component, &unit) == noErr)
        return try #require(unit)
    }

    /// Interleaved 16-bit samples written to a new WAV file in the temporary directory (the caller removes it).
    static func writeWAV(_ samples: [Int16], channels: UInt32, sampleRate: Double, name: String = "oca-test") throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString).wav")
        var format = OCAFormat.linearPCM(sampleRate: sampleRate, channels: channels, bitsPerChannel: 16, isFloat: false, interleaved: true)
        var file: AudioFileID?
        try #require(AudioFileCreateWithURL(url as CFURL, kAudioFileWAVEType, &format, .eraseFile, &file) == noErr)
        defer { AudioFileClose(file!) }
        var data = samples
        var bytes = UInt32(data.count * 2)
        try #require(AudioFileWriteBytes(file!, false, 0, &bytes, &data) == noErr)
        return url
    }

    @discardableResult
    static func setFormat(_ unit: AudioUnit, _ scope: AudioUnitScope, _ element: AudioUnitElement,
                          _ format: AudioStreamBasicDescription) -> OSStatus {
        var f = format
        return AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, scope, element, &f,
                                    UInt32(MemoryLayout<AudioStreamBasicDescription>.size))
    }

    static func format(_ unit: AudioUnit, _ scope: AudioUnitScope, _ element: AudioUnitElement) -> AudioStreamBasicDescription {
        var f = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        AudioUnitGetProperty(unit, kAudioUnitProperty_StreamFormat, scope, element, &f, &size)
        return f
    }

    @discardableResult
    static func setCallback(_ unit: AudioUnit, _ element: AudioUnitElement, _ proc: AURenderCallback?,
                            _ refCon: UnsafeMutableRawPointer?) -> OSStatus {
        var cb = AURenderCallbackStruct(inputProc: proc, inputProcRefCon: refCon)
        return AudioUnitSetProperty(unit, kAudioUnitProperty_SetRenderCallback, kAudioUnitScope_Input, element, &cb,
                                    UInt32(MemoryLayout<AURenderCallbackStruct>.size))
    }

    @discardableResult
    static func setUInt32(_ unit: AudioUnit, _ id: AudioUnitPropertyID, _ scope: AudioUnitScope,
                          _ element: AudioUnitElement, _ value: UInt32) -> OSStatus {
        var v = value
        return AudioUnitSetProperty(unit, id, scope, element, &v, 4)
    }

    static func getUInt32(_ unit: AudioUnit, _ id: AudioUnitPropertyID, _ scope: AudioUnitScope,
                          _ element: AudioUnitElement) -> (OSStatus, UInt32) {
        var v: UInt32 = 0
        var size: UInt32 = 4
        let status = AudioUnitGetProperty(unit, id, scope, element, &v, &size)
        return (status, v)
    }
}

/// A sine source for render callbacks: channel c of frame n is
/// amplitude * sin(2π f n / sr + c π/3), written in whatever linear PCM layout the format says.
final class SineSource {
    let frequency: Double, amplitude: Double
    var format: AudioStreamBasicDescription
    var calls = 0
    var lastTimeStamp = AudioTimeStamp()

    init(frequency: Double, amplitude: Double, format: AudioStreamBasicDescription) {
        self.frequency = frequency
        self.amplitude = amplitude
        self.format = format
    }

    /// The closed-form value, as a Double in [-1, 1].
    func value(channel: Int, frame: Double) -> Double {
        amplitude * sin(2 * Double.pi * frequency * frame / format.mSampleRate + Double(channel) * Double.pi / 3)
    }

    static func int16(_ x: Double) -> Int16 { Int16((x * 32767).rounded()) }

    var refCon: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    static let callback: AURenderCallback = { refCon, _, timeStamp, _, frames, ioData in
        let source = Unmanaged<SineSource>.fromOpaque(refCon).takeUnretainedValue()
        source.calls += 1
        source.lastTimeStamp = timeStamp.pointee
        source.write(frames: Int(frames), startFrame: timeStamp.pointee.mSampleTime, into: ioData!)
        return noErr
    }

    func write(frames: Int, startFrame: Double, into ioData: UnsafeMutablePointer<AudioBufferList>) {
        let abl = UnsafeMutableAudioBufferListPointer(ioData)
        let channels = Int(format.mChannelsPerFrame)
        let nonInterleaved = format.mFormatFlags & kAudioFormatFlagIsNonInterleaved != 0
        let isFloat = format.mFormatFlags & kAudioFormatFlagIsFloat != 0
        for c in 0..<channels {
            let buffer = abl[nonInterleaved ? c : 0]
            let stride = nonInterleaved ? 1 : channels
            let offset = nonInterleaved ? 0 : c
            for n in 0..<frames {
                let x = value(channel: c, frame: startFrame + Double(n))
                if isFloat {
                    buffer.mData!.assumingMemoryBound(to: Float32.self)[n * stride + offset] = Float32(x)
                } else {
                    buffer.mData!.assumingMemoryBound(to: Int16.self)[n * stride + offset] = Self.int16(x)
                }
            }
        }
    }
}

/// A rendered stream, decoded per channel (Float32 samples as Double, Int16 as their integer value).
struct RenderedAudio {
    var channels: [[Double]]
}

extension TestSupport {
    /// Renders `totalFrames` from `unit` bus `bus` (sample times from `startTime`) in slices of the given sizes (cycled), into caller-owned
    /// buffers of `format`, with sample times advancing, and decodes the result.
    static func render(_ unit: AudioUnit, format: AudioStreamBasicDescription, totalFrames: Int,
                       slices: [Int], callerMemory: Bool = true, bus: UInt32 = 0, startTime: Double = 0) throws -> RenderedAudio {
        let channels = Int(format.mChannelsPerFrame)
        let nonInterleaved = format.mFormatFlags & kAudioFormatFlagIsNonInterleaved != 0
        let isFloat = format.mFormatFlags & kAudioFormatFlagIsFloat != 0
        let bufferCount = nonInterleaved ? channels : 1
        let maxSlice = slices.max()!
        let bytesPerBuffer = maxSlice * Int(format.mBytesPerFrame)
        let memory = UnsafeMutableRawPointer.allocate(byteCount: bytesPerBuffer * bufferCount, alignment: 16)
        defer { memory.deallocate() }
        let abl = AudioBufferList.allocate(maximumBuffers: bufferCount)
        defer { free(abl.unsafeMutablePointer) }

        var out = RenderedAudio(channels: Array(repeating: [], count: channels))
        var timeStamp = AudioTimeStamp()
        timeStamp.mFlags = .sampleTimeValid
        timeStamp.mSampleTime = startTime
        var done = 0, k = 0
        while done < totalFrames {
            let frames = min(slices[k % slices.count], totalFrames - done)
            k += 1
            for b in 0..<bufferCount {
                abl[b] = AudioBuffer(mNumberChannels: nonInterleaved ? 1 : UInt32(channels),
                                     mDataByteSize: UInt32(frames) * format.mBytesPerFrame,
                                     mData: callerMemory ? memory + b * bytesPerBuffer : nil)
            }
            var flags = AudioUnitRenderActionFlags()
            let status = AudioUnitRender(unit, &flags, &timeStamp, bus, UInt32(frames), abl.unsafeMutablePointer)
            try #require(status == noErr, "AudioUnitRender returned \(status)")
            for c in 0..<channels {
                let buffer = abl[nonInterleaved ? c : 0]
                let stride = nonInterleaved ? 1 : channels
                let offset = nonInterleaved ? 0 : c
                for n in 0..<frames {
                    if isFloat {
                        out.channels[c].append(Double(buffer.mData!.assumingMemoryBound(to: Float32.self)[n * stride + offset]))
                    } else {
                        out.channels[c].append(Double(buffer.mData!.assumingMemoryBound(to: Int16.self)[n * stride + offset]))
                    }
                }
            }
            timeStamp.mSampleTime += Double(frames)
            done += frames
        }
        return out
    }
}
