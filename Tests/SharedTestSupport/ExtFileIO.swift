import AudioToolbox
import Foundation
import Testing

/// Whole-file ExtAudioFile reading and writing for the file tests, generic over the client's sample type
/// (interleaved, one buffer): the loops every codec's tests otherwise repeat. Shared by the test targets.
public enum ExtFileIO {
    public static let descriptionSize = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)

    /// Writes in slices of 1,000 to 1,776 frames, uneven as a recorder's buffers come.
    public static func unevenSlice(_ framesWritten: Int) -> Int { 1000 + framesWritten % 777 }

    /// `url` opened for reading with `client` as its client format.
    public static func open(_ url: URL, client: AudioStreamBasicDescription) throws -> ExtAudioFileRef {
        var x: ExtAudioFileRef?
        try #require(ExtAudioFileOpenURL(url as CFURL, &x) == noErr)
        var format = client
        try #require(ExtAudioFileSetProperty(x!, kExtAudioFileProperty_ClientDataFormat, descriptionSize, &format) == noErr)
        return x!
    }

    /// A new file at `url` of `type` and `format` (erasing one that is there), with `client` as its client format
    /// and `layout` as the client's channel layout when given.
    public static func create(_ url: URL, type: AudioFileTypeID, format: AudioStreamBasicDescription,
                       client: AudioStreamBasicDescription, layout: AudioChannelLayoutTag? = nil) throws -> ExtAudioFileRef {
        var f = format
        var x: ExtAudioFileRef?
        try #require(ExtAudioFileCreateWithURL(url as CFURL, type, &f, nil, AudioFileFlags.eraseFile.rawValue, &x) == noErr)
        var c = client
        try #require(ExtAudioFileSetProperty(x!, kExtAudioFileProperty_ClientDataFormat, descriptionSize, &c) == noErr)
        if let layout {
            var l = AudioChannelLayout()
            l.mChannelLayoutTag = layout
            try #require(ExtAudioFileSetProperty(x!, kExtAudioFileProperty_ClientChannelLayout, 12, &l) == noErr)
        }
        return x!
    }

    /// The file's length in sample frames (kExtAudioFileProperty_FileLengthFrames).
    public static func lengthFrames(_ x: ExtAudioFileRef) -> Int64 {
        var length: Int64 = 0
        var size: UInt32 = 8
        ExtAudioFileGetProperty(x, kExtAudioFileProperty_FileLengthFrames, &size, &length)
        return length
    }

    /// Every frame from the read position to the end, `chunk` frames a call, interleaved `channels` wide.
    public static func readToEnd<T: Numeric>(_ x: ExtAudioFileRef, channels: Int, chunk: Int = 777) throws -> [T] {
        var out: [T] = []
        var buffer = [T](repeating: 0, count: channels * chunk)
        while true {
            var frames = UInt32(chunk)
            let status = buffer.withUnsafeMutableBytes { raw -> OSStatus in
                var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: UInt32(channels), mDataByteSize: UInt32(raw.count),
                                                                                     mData: raw.baseAddress))
                return ExtAudioFileRead(x, &frames, &list)
            }
            try #require(status == noErr)
            if frames == 0 { break }
            out += buffer.prefix(Int(frames) * channels)
        }
        return out
    }

    /// The whole of `url` read as `client` (interleaved, its sample type `T`), and the length the file reports.
    public static func read<T: Numeric>(_ url: URL, client: AudioStreamBasicDescription, chunk: Int = 777) throws -> (samples: [T], length: Int64) {
        let x = try open(url, client: client)
        defer { ExtAudioFileDispose(x) }
        let length = lengthFrames(x)
        return (try readToEnd(x, channels: Int(client.mChannelsPerFrame), chunk: chunk), length)
    }

    /// Writes all of `samples` (interleaved, `channels` wide) to `x`, `slice(framesWritten)` frames a call.
    public static func write<T>(_ x: ExtAudioFileRef, _ samples: [T], channels: Int, slice: (Int) -> Int = unevenSlice) throws {
        var source = samples
        let frames = samples.count / channels
        let bytesPerFrame = channels * MemoryLayout<T>.stride
        var done = 0
        while done < frames {
            let n = min(frames - done, slice(done))
            let status = source.withUnsafeMutableBytes { raw -> OSStatus in
                var list = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(mNumberChannels: UInt32(channels), mDataByteSize: UInt32(bytesPerFrame * n),
                                                                                     mData: raw.baseAddress! + bytesPerFrame * done))
                return ExtAudioFileWrite(x, UInt32(n), &list)
            }
            try #require(status == noErr)
            done += n
        }
    }

    /// A new file at `url` holding `samples` written as `client` (interleaved, its sample type `T`), encoded to
    /// `format` in a file of `type`, `slice(framesWritten)` frames a call; disposed (and so finished) on return.
    public static func write<T>(_ samples: [T], to url: URL, type: AudioFileTypeID, format: AudioStreamBasicDescription,
                         client: AudioStreamBasicDescription, layout: AudioChannelLayoutTag? = nil,
                         slice: (Int) -> Int = unevenSlice) throws {
        let x = try create(url, type: type, format: format, client: client, layout: layout)
        try write(x, samples, channels: Int(client.mChannelsPerFrame), slice: slice)
        try #require(ExtAudioFileDispose(x) == noErr)
    }
}
