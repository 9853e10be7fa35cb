/// One scheduled file region being read by AUAudioFilePlayer's worker: where the next frames come from in
/// the file (through an ExtAudioFile converting to the unit's rate), how many output frames each pass of the
/// region still owes, the loops left, and the player time its next buffer is scheduled at.
final class FileRegionReader {
    let region: ScheduledAudioFileRegion
    let file: ExtAudioFileRef
    let fileChannels: Int
    /// Output frames one pass of the region makes (its file frames at the output rate).
    let framesPerPass: Int64
    private var loopsLeft: UInt32
    private var leftInPass: Int64
    private var needsSeek = true
    /// Player time of the next frame read.
    private(set) var nextTime: Int64
    /// Whether the completion proc has been told the region was late.
    var reportedLate = false
    private(set) var isDone = false

    init(region: ScheduledAudioFileRegion, file: ExtAudioFileRef, fileChannels: Int, ratio: Double) {
        self.region = region
        self.file = file
        self.fileChannels = fileChannels
        framesPerPass = Int64((Double(region.mFramesToPlay) * ratio).rounded())
        loopsLeft = region.mLoopCount
        leftInPass = framesPerPass
        nextTime = Int64(region.mTimeStamp.mSampleTime.rounded())
    }

    /// Reads up to `capacity` frames into `channels` (the unit's output channels, Float32); a mono file
    /// feeds every channel, extra output channels get silence, extra file channels go to `discard`.
    /// Returns the frames read (0 once the region is done) and the first error.
    func read(into channels: UnsafeMutablePointer<UnsafeMutablePointer<Float>>, outputChannels: Int, capacity: Int,
              discard: UnsafeMutablePointer<Float>, list: UnsafeMutableAudioBufferListPointer) -> (Int, OSStatus) {
        var filled = 0
        while filled < capacity && !isDone {
            if leftInPass == 0 {
                if loopsLeft > 0 {
                    loopsLeft -= 1
                    leftInPass = framesPerPass
                    needsSeek = true
                    continue
                }
                isDone = true
                break
            }
            if needsSeek {
                let status = ExtAudioFileSeek(file, region.mStartFrame)
                if status != noErr { isDone = true; return (filled, status) }
                needsSeek = false
            }
            let want = min(capacity - filled, Int(leftInPass))
            var list = list
            list.count = fileChannels
            for c in 0..<fileChannels {
                let target = c < outputChannels ? channels[c] + filled : discard
                list[c] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(want * 4), mData: UnsafeMutableRawPointer(target))
            }
            var frames = UInt32(want)
            let status = ExtAudioFileRead(file, &frames, list.unsafeMutablePointer)
            if status != noErr { isDone = true; return (filled, status) }
            if frames == 0 { leftInPass = 0; continue }  // the file ended before the region did
            let n = Int(frames)
            if fileChannels == 1 {
                for c in 1..<max(outputChannels, 1) { (channels[c] + filled).update(from: channels[0] + filled, count: n) }
            } else if fileChannels < outputChannels {
                for c in fileChannels..<outputChannels { (channels[c] + filled).update(repeating: 0, count: n) }
            }
            filled += n
            leftInPass -= Int64(n)
        }
        nextTime += Int64(filled)
        return (filled, noErr)
    }
}
