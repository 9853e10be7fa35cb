// Audio Queue processing taps (AudioQueueProcessingTapNew and friends) on an offline output queue, against
// Apple's API only: what a tap sees and what it changes, compared sample for sample with ExtAudioFile's decode.
import AudioToolbox
import Foundation
import Testing

@Suite struct AudioQueueTapTests {
    typealias Offline = AudioQueueOfflineTests

    /// What a test tap does and what it saw (planar, per channel), with the queue times it read.
    final class TapState {
        enum Mode { case halve, record, decimate }
        var mode = Mode.record
        var seen: [[Float]] = [[], []]
        var calls = 0
        var requested = 0
        var queueTimes: [(Double, UInt32)] = []
        var startOfStream = 0
        var endOfStream = 0
        var badStatus: OSStatus = noErr
    }

    /// Records what the callback was given (siphon) or pulled (others), and produces: the source x 0.5 (halve),
    /// the source unchanged (record), or every other source frame pulled two for one (decimate).
    static let tapCallback: AudioQueueProcessingTapCallback = { user, tap, frames, timeStamp, flags, outFrames, ioData in
        let s = Unmanaged<TapState>.fromOpaque(user).takeUnretainedValue()
        s.calls += 1
        s.requested += Int(frames)
        if flags.pointee.contains(.startOfStream) { s.startOfStream += 1 }
        let list = UnsafeMutableAudioBufferListPointer(ioData)
        if flags.pointee.contains(.siphon) {
            for c in 0..<list.count {
                let p = list[c].mData!.assumingMemoryBound(to: Float.self)
                s.seen[c] += UnsafeBufferPointer(start: p, count: Int(outFrames.pointee))
            }
            return
        }
        let wanted = s.mode == .decimate ? 2 * frames : frames
        var sourceFlags = AudioQueueProcessingTapFlags()
        var got: UInt32 = 0
        var status = AudioQueueProcessingTapGetSourceAudio(tap, wanted, timeStamp, &sourceFlags, &got, ioData)
        if status != noErr { s.badStatus = status }
        var sampleTime: Float64 = 0, frameCount: UInt32 = 0
        status = AudioQueueProcessingTapGetQueueTime(tap, &sampleTime, &frameCount)
        if status != noErr { s.badStatus = status }
        s.queueTimes.append((sampleTime, frameCount))
        if sourceFlags.contains(.endOfStream) {
            s.endOfStream += 1
            flags.pointee.insert(.endOfStream)
        }
        for c in 0..<list.count {
            let p = list[c].mData!.assumingMemoryBound(to: Float.self)
            s.seen[c] += UnsafeBufferPointer(start: p, count: Int(got))
            switch s.mode {
            case .halve: for i in 0..<Int(got) { p[i] *= 0.5 }
            case .record: break
            case .decimate: for i in 0..<Int(got / 2) { p[i] = p[2 * i] }
            }
        }
        outFrames.pointee = s.mode == .decimate ? got / 2 : got
    }

    /// Installs the test tap with `flags` on a stopped queue and checks what it reports.
    static func install(_ state: TapState, _ flags: AudioQueueProcessingTapFlags) -> (AudioQueueRef) throws -> Void {
        { queue in
            var maxFrames: UInt32 = 0
            var format = AudioStreamBasicDescription()
            var tap: AudioQueueProcessingTapRef?
            try #require(AudioQueueProcessingTapNew(queue, tapCallback, Unmanaged.passUnretained(state).toOpaque(), flags,
                                                    &maxFrames, &format, &tap) == noErr)
            #expect(tap != nil)
            #expect(maxFrames >= 512 && maxFrames <= 8192)
            // The processing format: planar Float32 at the queue's rate and channel count.
            #expect(format.mFormatID == kAudioFormatLinearPCM && format.mSampleRate == Offline.rate && format.mChannelsPerFrame == 2)
            #expect(format.mFormatFlags & kAudioFormatFlagIsFloat != 0 && format.mFormatFlags & kAudioFormatFlagIsNonInterleaved != 0)
            #expect(format.mBitsPerChannel == 32 && format.mBytesPerFrame == 4)
        }
    }

    /// Interleaves two planar channels.
    static func interleave(_ planes: [[Float]]) -> [Float] {
        var out: [Float] = []
        out.reserveCapacity(2 * planes[0].count)
        for i in 0..<planes[0].count { out += [planes[0][i], planes[1][i]] }
        return out
    }

    /// A pre-effects tap that multiplies by 0.5 halves the output exactly; it is told StartOfStream once and
    /// EndOfStream at the end, and GetQueueTime advances by the frames of each call.
    @Test func preEffectsTapHalvesTheOutput() throws {
        let frames = 30000
        let url = try Offline.makeWAV(frames: frames)
        defer { try? FileManager.default.removeItem(at: url) }
        let reference = try Offline.extAudioFileDecode(url)
        let state = TapState()
        state.mode = .halve
        let (rendered, _, _, _) = try Offline.offlineRender(url, prepare: Self.install(state, .preEffects))
        #expect(state.badStatus == noErr)
        #expect(rendered.count == reference.count)
        #expect(rendered == reference.map { 0.5 * $0 })
        #expect(state.startOfStream == 1)
        #expect(state.endOfStream >= 1)
        var expected = 0.0
        for (time, count) in state.queueTimes {
            #expect(time == expected)
            expected += Double(count)
        }
        #expect(Int(expected) >= frames)
    }

    /// A pre-effects siphon sees exactly the frames played, before the volume; a post-effects tap sees the
    /// volume already applied.
    @Test func siphonSeesThePlayedFramesAndPostEffectsSeesTheVolume() throws {
        let frames = 25000
        let url = try Offline.makeWAV(frames: frames)
        defer { try? FileManager.default.removeItem(at: url) }
        let reference = try Offline.extAudioFileDecode(url)
        let halved = reference.map { 0.5 * $0 }

        let siphon = TapState()
        let (rendered, _, _, _) = try Offline.offlineRender(url, volume: 0.5, prepare: Self.install(siphon, [.preEffects, .siphon]))
        #expect(rendered == halved)
        #expect(siphon.seen[0].count == frames)
        #expect(Self.interleave(siphon.seen) == reference)

        let post = TapState()
        let (renderedPost, _, _, _) = try Offline.offlineRender(url, volume: 0.5, prepare: Self.install(post, .postEffects))
        #expect(post.badStatus == noErr)
        #expect(renderedPost == halved)
        #expect(Self.interleave(post.seen) == halved)

        let postSiphon = TapState()
        let (renderedPostSiphon, _, _, _) = try Offline.offlineRender(url, volume: 0.5, prepare: Self.install(postSiphon, [.postEffects, .siphon]))
        #expect(renderedPostSiphon == halved)
        #expect(Self.interleave(postSiphon.seen) == halved)
    }

    /// A tap that pulls two source frames for each it returns makes the queue go through the file twice as
    /// fast: half the frames come out, every other one of the file's; queue time counts the output frames.
    @Test func rateChangingTapConsumesTwiceAsFast() throws {
        let frames = 40000
        let url = try Offline.makeWAV(frames: frames)
        defer { try? FileManager.default.removeItem(at: url) }
        let reference = try Offline.extAudioFileDecode(url)
        let state = TapState()
        state.mode = .decimate
        let (rendered, _, _, _) = try Offline.offlineRender(url, prepare: Self.install(state, .preEffects))
        #expect(state.badStatus == noErr)
        #expect(state.seen[0].count == frames)
        var expected: [Float] = []
        for i in stride(from: 0, to: frames, by: 2) { expected += [reference[2 * i], reference[2 * i + 1]] }
        #expect(rendered.count == expected.count)
        #expect(rendered == expected)
    }

    /// With EnableTimePitch at rate 2: a pre-effects tap works on the source (it sees every frame of the file, and
    /// halving there halves the output), a post-effects siphon sees exactly the frames that come out (half as many).
    @Test func tapsAroundTheTimePitchProcessor() throws {
        let frames = 2 * 44100
        let url = try Offline.makeWAV(frames: frames)
        defer { try? FileManager.default.removeItem(at: url) }
        let timePitch = (kAudioQueueTimePitchAlgorithm_Spectral, Float(2), Float(0))
        let (plain, _, _, _) = try Offline.offlineRender(url, timePitch: timePitch)
        let pre = TapState()
        pre.mode = .halve
        let (halved, _, _, _) = try Offline.offlineRender(url, timePitch: timePitch, prepare: Self.install(pre, .preEffects))
        #expect(pre.badStatus == noErr)
        #expect(pre.seen[0].count == frames)
        #expect(abs(halved.count / 2 - frames / 2) <= 512, "\(halved.count / 2) frames")
        #expect(halved.count == plain.count)
        // The processor is linear: half the input, half the output (to rounding).
        let worst = zip(halved, plain).map { abs($0 - 0.5 * $1) }.max() ?? 1
        #expect(worst < 1e-5, "worst \(worst)")

        let post = TapState()
        let (rendered, _, _, _) = try Offline.offlineRender(url, timePitch: timePitch, prepare: Self.install(post, [.postEffects, .siphon]))
        #expect(rendered == plain)
        #expect(Self.interleave(post.seen) == rendered)
    }

    /// One tap per queue, PreEffects xor PostEffects, made and disposed only while stopped, GetSourceAudio only
    /// inside the callback; a queue disposed with its tap installed takes the tap with it.
    @Test func tapRulesAnswerApplesCodes() throws {
        var format = Offline.int16(channels: 2)
        var queue: AudioQueueRef?
        try #require(AudioQueueNewOutput(&format, Offline.callback, nil, nil, nil, 0, &queue) == noErr)
        let state = TapState()
        let me = Unmanaged.passUnretained(state).toOpaque()
        var maxFrames: UInt32 = 0
        var processing = AudioStreamBasicDescription()
        var tap: AudioQueueProcessingTapRef?, second: AudioQueueProcessingTapRef?
        #expect(AudioQueueProcessingTapNew(queue!, Self.tapCallback, me, [], &maxFrames, &processing, &tap) == kAudio_ParamError)
        #expect(AudioQueueProcessingTapNew(queue!, Self.tapCallback, me, [.preEffects, .postEffects], &maxFrames, &processing, &tap)
                == kAudio_ParamError)
        #expect(tap == nil)
        try #require(AudioQueueProcessingTapNew(queue!, Self.tapCallback, me, .preEffects, &maxFrames, &processing, &tap) == noErr)
        #expect(AudioQueueProcessingTapNew(queue!, Self.tapCallback, me, .postEffects, &maxFrames, &processing, &second) == kAudioQueueErr_TooManyTaps)
        #expect(second == nil)

        var ts = AudioTimeStamp(), flags = AudioQueueProcessingTapFlags(), got: UInt32 = 0
        let list = AudioBufferList.allocate(maximumBuffers: 2)
        defer { free(list.unsafeMutablePointer) }
        #expect(AudioQueueProcessingTapGetSourceAudio(tap!, 16, &ts, &flags, &got, list.unsafeMutablePointer) == kAudioQueueErr_InvalidTapContext)
        var sampleTime: Float64 = 0, count: UInt32 = 0
        #expect(AudioQueueProcessingTapGetQueueTime(tap!, &sampleTime, &count) == kAudioQueueErr_InvalidTapContext)

        // Running (offline, so no device is needed): the tap stays.
        var capture = Offline.float32(channels: 2)
        try #require(AudioQueueSetOfflineRenderFormat(queue!, &capture, nil) == noErr)
        try #require(AudioQueueStart(queue!, nil) == noErr)
        #expect(AudioQueueProcessingTapDispose(tap!) == kAudioQueueErr_InvalidRunState)
        try #require(AudioQueueStop(queue!, true) == noErr)
        #expect(AudioQueueProcessingTapDispose(tap!) == noErr)
        #expect(AudioQueueProcessingTapDispose(tap!) == kAudioQueueErr_InvalidTapContext)
        try #require(AudioQueueProcessingTapNew(queue!, Self.tapCallback, nil, [.postEffects, .siphon], &maxFrames, &processing, &tap) == noErr)
        try #require(AudioQueueStart(queue!, nil) == noErr)
        #expect(AudioQueueProcessingTapNew(queue!, Self.tapCallback, nil, .preEffects, &maxFrames, &processing, &second) == kAudioQueueErr_TooManyTaps)
        #expect(AudioQueueDispose(queue!, true) == noErr)
        #expect(AudioQueueProcessingTapDispose(tap!) == kAudioQueueErr_InvalidTapContext)

        // An input queue takes a tap too.
        var input: AudioQueueRef?
        let inputCallback: AudioQueueInputCallback = { _, _, _, _, _, _ in }
        try #require(AudioQueueNewInput(&format, inputCallback, nil, nil, nil, 0, &input) == noErr)
        #expect(AudioQueueProcessingTapNew(input!, Self.tapCallback, me, .preEffects, &maxFrames, &processing, &tap) == noErr)
        #expect(processing.mChannelsPerFrame == 2 && processing.mSampleRate == Offline.rate)
        #expect(AudioQueueDispose(input!, true) == noErr)
    }
}
