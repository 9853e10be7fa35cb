/// Assembles a native .flac file from encoded frames and keeps the STREAMINFO statistics (frame sizes,
/// total samples, MD5) that are only known at the end. Two ways to use it: let it collect the frames and
/// take `fileBytes()`, or write `header` first yourself, then each frame as it comes, and finally write
/// `header` again over the first `header.count` bytes (its length never changes).
final class FLACStreamWriter {
    let channels: Int
    let bitsPerSample: Int
    let sampleRate: Int
    let blockSize: Int
    let vorbisComments: [(String, String)]
    let vendor: String
    let padding: Int
    /// Whether frames passed to `append` are kept for `fileBytes()`.
    let collectsFrames: Bool

    private var body: [UInt8] = []
    private var md5 = FLACMD5()
    private var totalSamples: Int64 = 0
    private var minFrameSize = Int.max
    private var maxFrameSize = 0

    /// A writer for a fixed-blocksize stream of the given format. `padding` bytes of PADDING leave room for
    /// later tag edits.
    init(channels: Int, bitsPerSample: Int, sampleRate: Int, blockSize: Int = 4096,
         vorbisComments: [(String, String)] = [], vendor: String = "OpenCoreAudio FLAC", padding: Int = 4096,
         collectsFrames: Bool = true) {
        self.channels = channels
        self.bitsPerSample = bitsPerSample
        self.sampleRate = sampleRate
        self.blockSize = blockSize
        self.vorbisComments = vorbisComments
        self.vendor = vendor
        self.padding = padding
        self.collectsFrames = collectsFrames
    }

    /// Records one encoded frame and the `frames` interleaved samples it encodes (for the MD5).
    func append(frame: [UInt8], samples: UnsafePointer<Int32>, frames: Int) {
        md5.updateSamples(samples, count: frames * channels, bitsPerSample: bitsPerSample)
        totalSamples += Int64(frames)
        minFrameSize = min(minFrameSize, frame.count)
        maxFrameSize = max(maxFrameSize, frame.count)
        if collectsFrames { body.append(contentsOf: frame) }
    }

    /// STREAMINFO for what has been appended so far (min/max frame sizes 0 while there are no frames).
    var streamInfo: FLACStreamInfo {
        let hasFrames = maxFrameSize > 0
        // As libFLAC does, a fixed-blocksize stream declares its nominal size as both (the last may be shorter).
        return FLACStreamInfo(minBlockSize: blockSize, maxBlockSize: blockSize,
                              minFrameSize: hasFrames ? minFrameSize : 0, maxFrameSize: maxFrameSize,
                              sampleRate: sampleRate, channels: channels, bitsPerSample: bitsPerSample,
                              totalSamples: totalSamples, md5: md5.finish())
    }

    /// The metadata for the current state; the same length whatever has been appended.
    var header: [UInt8] {
        FLACMetadata.serialize(streamInfo: streamInfo, vorbisComments: vorbisComments, vendor: vendor, padding: padding)
    }

    /// The complete file: metadata followed by every collected frame.
    func fileBytes() -> [UInt8] {
        header + body
    }

    /// Encodes interleaved `samples` (`frames` frames) into a complete .flac file in one call.
    static func encodeFile(_ samples: UnsafeBufferPointer<Int32>, channels: Int, bitsPerSample: Int, sampleRate: Int,
                           blockSize: Int = 4096, level: Int = 5, vorbisComments: [(String, String)] = [],
                           padding: Int = 4096) -> [UInt8] {
        let encoder = FLACFrameEncoder(channels: channels, bitsPerSample: bitsPerSample, sampleRate: sampleRate,
                                       blockSize: blockSize, level: level)
        let writer = FLACStreamWriter(channels: encoder.channels, bitsPerSample: encoder.bitsPerSample, sampleRate: sampleRate,
                                      blockSize: encoder.blockSize, vorbisComments: vorbisComments, padding: padding)
        let frames = samples.count / encoder.channels
        guard let base = samples.baseAddress else { return writer.fileBytes() }
        var done = 0, number = 0
        while done < frames {
            let n = min(encoder.blockSize, frames - done)
            let p = base + done * encoder.channels
            writer.append(frame: encoder.encode(p, frames: n, frameNumber: number), samples: p, frames: n)
            done += n
            number += 1
        }
        return writer.fileBytes()
    }
}
