import Foundation

/// A sound made by AudioServicesCreateSystemSoundID: the whole file decoded to interleaved Float32 at
/// its own rate, played through an output queue of its own each time.
final class SystemSound: @unchecked Sendable {
    /// Apple's limit for system sounds.
    static let maximumSeconds = 30.0

    let format: AudioStreamBasicDescription
    let samples: [Float]
    var isUISound: UInt32 = 1
    var completePlaybackIfAppDies: UInt32 = 0
    var completion: (proc: AudioServicesSystemSoundCompletionProc, clientData: UnsafeMutableRawPointer?, loop: CFRunLoop?, mode: String)?

    init(format: AudioStreamBasicDescription, samples: [Float]) {
        self.format = format
        self.samples = samples
    }

    /// Decodes a file (any format ExtAudioFile reads) into memory; Apple's status when it cannot.
    static func load(_ url: CFURL) -> (SystemSound?, OSStatus) {
        var ext: ExtAudioFileRef?
        var status = ExtAudioFileOpenURL(url, &ext)
        guard status == noErr, let ext else { return (nil, status) }
        defer { ExtAudioFileDispose(ext) }
        var fileFormat = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        status = ExtAudioFileGetProperty(ext, kExtAudioFileProperty_FileDataFormat, &size, &fileFormat)
        guard status == noErr else { return (nil, status) }
        var frames: Int64 = 0
        size = 8
        status = ExtAudioFileGetProperty(ext, kExtAudioFileProperty_FileLengthFrames, &size, &frames)
        guard status == noErr else { return (nil, status) }
        guard Double(frames) <= maximumSeconds * fileFormat.mSampleRate else { return (nil, kAudioServicesSystemSoundExceededMaximumDurationError) }
        var client = OCAFormat.canonical(sampleRate: fileFormat.mSampleRate, channels: fileFormat.mChannelsPerFrame, interleaved: true)
        status = ExtAudioFileSetProperty(ext, kExtAudioFileProperty_ClientDataFormat, UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &client)
        guard status == noErr else { return (nil, status) }
        let channels = Int(client.mChannelsPerFrame)
        var samples = [Float](repeating: 0, count: Int(frames) * channels)
        var read = 0
        while read < Int(frames) {
            var n = UInt32(min(Int(frames) - read, 8192))
            status = samples.withUnsafeMutableBufferPointer { p -> OSStatus in
                var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: UInt32(channels), mDataByteSize: n * 4 * UInt32(channels),
                                                                                   mData: p.baseAddress! + read * channels))
                return ExtAudioFileRead(ext, &n, &list)
            }
            guard status == noErr else { return (nil, status) }
            if n == 0 { break }
            read += Int(n)
        }
        samples.removeLast(samples.count - read * channels)
        return (SystemSound(format: client, samples: samples), noErr)
    }

    /// The alert sound: a 0.2 s 880 Hz beep with 10 ms fades (there is no user alert sound on Linux).
    static let alert: SystemSound = {
        let rate = 44100.0, frames = Int(0.2 * rate), fade = Int(0.01 * rate)
        let samples = (0..<frames).map { n -> Float in
            let envelope = min(1, Double(min(n, frames - 1 - n)) / Double(fade))
            return Float(0.3 * envelope * sin(2 * Double.pi * 880 * Double(n) / rate))
        }
        return SystemSound(format: OCAFormat.canonical(sampleRate: rate, channels: 1, interleaved: true), samples: samples)
    }()
}
