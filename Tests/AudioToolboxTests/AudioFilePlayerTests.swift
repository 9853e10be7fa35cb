import AudioToolbox
import Foundation
import Synchronization
import Testing

/// AUAudioFilePlayer: regions of files at sample times, read and converted off the render thread; the book's
/// chapter 7 set-up (file IDs, a region, prime, start at -1) rendered offline through a graph.
@Suite struct AudioFilePlayerTests {
    static let description = AudioComponentDescription(
        componentType: kAudioUnitType_Generator, componentSubType: kAudioUnitSubType_AudioFilePlayer,
        componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
    static let format = OCAFormat.canonical(sampleRate: 44100, channels: 2)

    /// A 16-bit stereo WAV of noise-like values (different per channel) and its samples as the unit plays them.
    static func makeWAV(frames: Int, rate: Double = 44100, channels: Int = 2) throws -> (URL, [[Double]]) {
        var seed: UInt32 = 12345
        var interleaved = [Int16]()
        var expected = Array(repeating: [Double](), count: channels)
        for _ in 0..<frames {
            for c in 0..<channels {
                seed = seed &* 1_664_525 &+ 1_013_904_223
                let v = Int16(truncatingIfNeeded: Int32(bitPattern: seed) >> 17)
                interleaved.append(v)
                expected[c].append(Double(Float(v) / 32768))
            }
        }
        return (try TestSupport.writeWAV(interleaved, channels: UInt32(channels), sampleRate: rate, name: "afpl"), expected)
    }

    static func open(_ url: URL) throws -> AudioFileID {
        var file: AudioFileID?
        try #require(AudioFileOpenURL(url as CFURL, .readPermission, 0, &file) == noErr)
        return try #require(file)
    }

    /// What the book's chapter 7 does: file IDs, one region, prime with the default, start on the next render.
    static func schedule(_ unit: AudioUnit, _ file: AudioFileID, at time: Double = 0, startFrame: Int64 = 0, frames: UInt32,
                         loops: UInt32 = 0, completion: ScheduledAudioFileRegionCompletionProc? = nil,
                         userData: UnsafeMutableRawPointer? = nil) throws {
        var ids = [file]
        try #require(AudioUnitSetProperty(unit, kAudioUnitProperty_ScheduledFileIDs, kAudioUnitScope_Global, 0, &ids,
                                          UInt32(MemoryLayout<AudioFileID>.size)) == noErr)
        var ts = AudioTimeStamp()
        ts.mFlags = .sampleTimeValid
        ts.mSampleTime = time
        var region = ScheduledAudioFileRegion(mTimeStamp: ts, mCompletionProc: completion, mCompletionProcUserData: userData,
                                              mAudioFile: file, mLoopCount: loops, mStartFrame: startFrame, mFramesToPlay: frames)
        try #require(AudioUnitSetProperty(unit, kAudioUnitProperty_ScheduledFileRegion, kAudioUnitScope_Global, 0, &region,
                                          UInt32(MemoryLayout<ScheduledAudioFileRegion>.size)) == noErr)
        var prime: UInt32 = 0
        try #require(AudioUnitSetProperty(unit, kAudioUnitProperty_ScheduledFilePrime, kAudioUnitScope_Global, 0, &prime, 4) == noErr)
        var start = AudioTimeStamp()
        start.mFlags = .sampleTimeValid
        start.mSampleTime = -1
        try #require(AudioUnitSetProperty(unit, kAudioUnitProperty_ScheduleStartTimeStamp, kAudioUnitScope_Global, 0, &start,
                                          UInt32(MemoryLayout<AudioTimeStamp>.size)) == noErr)
    }

    func makePlayer(offline: Bool = true) throws -> AudioUnit {
        let unit = try TestSupport.newUnit(Self.description)
        #expect(TestSupport.setFormat(unit, kAudioUnitScope_Output, 0, Self.format) == noErr)
        if offline { #expect(TestSupport.setUInt32(unit, kAudioUnitProperty_OfflineRender, kAudioUnitScope_Global, 0, 1) == noErr) }
        #expect(AudioUnitInitialize(unit) == noErr)
        return unit
    }

    func firstMismatch(_ got: [Double], _ want: [Double]) -> Int? {
        zip(got, want).enumerated().first { $0.element.0 != $0.element.1 }?.offset
    }

    /// The chapter 7 graph (file player -> generic output), rendered offline: the file's samples exactly, then silence.
    @Test func aGraphPlaysTheWholeFileOnce() throws {
        let (url, expected) = try Self.makeWAV(frames: 50_000)
        defer { try? FileManager.default.removeItem(at: url) }
        let file = try Self.open(url)
        defer { AudioFileClose(file) }

        var graph: AUGraph?
        try #require(NewAUGraph(&graph) == noErr)
        defer { DisposeAUGraph(graph!) }
        var outputDescription = TestSupport.genericOutput
        var playerDescription = Self.description
        var outputNode = AUNode(), playerNode = AUNode()
        #expect(AUGraphAddNode(graph!, &outputDescription, &outputNode) == noErr)
        #expect(AUGraphAddNode(graph!, &playerDescription, &playerNode) == noErr)
        #expect(AUGraphOpen(graph!) == noErr)
        var player: AudioUnit?, output: AudioUnit?
        #expect(AUGraphNodeInfo(graph!, playerNode, nil, &player) == noErr)
        #expect(AUGraphNodeInfo(graph!, outputNode, nil, &output) == noErr)
        #expect(AUGraphConnectNodeInput(graph!, playerNode, 0, outputNode, 0) == noErr)
        #expect(TestSupport.setUInt32(player!, kAudioUnitProperty_OfflineRender, kAudioUnitScope_Global, 0, 1) == noErr)
        #expect(AUGraphInitialize(graph!) == noErr)
        try Self.schedule(player!, file, frames: 50_000)
        let out = try TestSupport.render(output!, format: Self.format, totalFrames: 52_000, slices: [512, 333])
        for c in 0..<2 {
            #expect(firstMismatch(Array(out.channels[c][..<50_000]), expected[c]) == nil)
            #expect(out.channels[c][50_000...].allSatisfy { $0 == 0 })
        }
        var ts = AudioTimeStamp()
        var size = UInt32(MemoryLayout<AudioTimeStamp>.size)
        #expect(AudioUnitGetProperty(player!, kAudioUnitProperty_CurrentPlayTime, kAudioUnitScope_Global, 0, &ts, &size) == noErr)
        #expect(ts.mSampleTime == 52_000)
    }

    @Test func aRegionStartsMidFileStopsAtItsLengthAndLoops() throws {
        let (url, expected) = try Self.makeWAV(frames: 20_000)
        defer { try? FileManager.default.removeItem(at: url) }
        let file = try Self.open(url)
        defer { AudioFileClose(file) }
        let unit = try makePlayer()
        defer { AudioComponentInstanceDispose(unit) }
        try Self.schedule(unit, file, at: 700, startFrame: 1_000, frames: 5_000, loops: 2)
        let out = try TestSupport.render(unit, format: Self.format, totalFrames: 17_000, slices: [512])
        for c in 0..<2 {
            #expect(out.channels[c][..<700].allSatisfy { $0 == 0 })
            let region = Array(expected[c][1_000..<6_000])
            for pass in 0..<3 {
                let start = 700 + pass * 5_000
                #expect(firstMismatch(Array(out.channels[c][start..<start + 5_000]), region) == nil, "pass \(pass)")
            }
            #expect(out.channels[c][15_700...].allSatisfy { $0 == 0 })
        }
    }

    /// A region's completion proc runs once it is completely read, off the render thread, with noErr.
    @Test func theRegionCompletionProcRunsWhenTheRegionIsRead() throws {
        final class Box: @unchecked Sendable { let calls = Mutex<[OSStatus]>([]) }
        let box = Box()
        let (url, _) = try Self.makeWAV(frames: 30_000)
        defer { try? FileManager.default.removeItem(at: url) }
        let file = try Self.open(url)
        defer { AudioFileClose(file) }
        let unit = try makePlayer(offline: false)
        defer { AudioComponentInstanceDispose(unit) }
        let proc: ScheduledAudioFileRegionCompletionProc = { user, region, status in
            Unmanaged<Box>.fromOpaque(user!).takeUnretainedValue().calls.withLock { $0.append(status) }
        }
        try Self.schedule(unit, file, frames: 30_000, completion: proc, userData: Unmanaged.passUnretained(box).toOpaque())
        // Real-time pacing: 512 frames every 5 ms (about 2x real time) leaves the reader time to keep up.
        var rendered = 0
        while rendered < 31_000 {
            _ = try TestSupport.render(unit, format: Self.format, totalFrames: 512, slices: [512], startTime: Double(rendered))
            rendered += 512
            usleep(5_000)
        }
        let deadline = Date().addingTimeInterval(2)
        while box.calls.withLock({ $0.isEmpty }) && Date() < deadline { usleep(2_000) }
        #expect(box.calls.withLock { $0 } == [noErr])
    }

    /// A 22.05 kHz mono file plays at the unit's 44.1 kHz on both channels, as ExtAudioFile converts it.
    @Test func convertsRateAndChannels() throws {
        let (url, _) = try Self.makeWAV(frames: 11_025, rate: 22_050, channels: 1)
        defer { try? FileManager.default.removeItem(at: url) }
        let file = try Self.open(url)
        defer { AudioFileClose(file) }
        let unit = try makePlayer()
        defer { AudioComponentInstanceDispose(unit) }
        try Self.schedule(unit, file, frames: 11_025)
        let out = try TestSupport.render(unit, format: Self.format, totalFrames: 23_000, slices: [1024])
        let reference = try MP3FileTests.readFloats(url, channels: 1, rate: 44_100).map(Double.init)
        #expect(reference.count == 22_050)
        #expect(out.channels[0] == out.channels[1])
        let worst = zip(out.channels[0], reference).map { abs($0 - $1) }.max() ?? 1
        #expect(worst < 1e-6, "largest difference from ExtAudioFile's conversion: \(worst)")
        #expect(out.channels[0][22_050...].allSatisfy { $0 == 0 })
    }

    /// A compressed file (LAME MP3) plays exactly as ExtAudioFile decodes it, priming and padding trimmed.
    @Test func playsAnMP3() throws {
        let url = try MP3FileTests.makeMP3(seconds: 1.5)
        defer { try? FileManager.default.removeItem(at: url) }
        let file = try Self.open(url)
        defer { AudioFileClose(file) }
        let reference = try MP3FileTests.readFloats(url)
        let frames = reference.count / 2
        let unit = try makePlayer()
        defer { AudioComponentInstanceDispose(unit) }
        try Self.schedule(unit, file, frames: UInt32(frames))
        let out = try TestSupport.render(unit, format: Self.format, totalFrames: frames + 500, slices: [512])
        for c in 0..<2 {
            let want = stride(from: c, to: reference.count, by: 2).map { Double(reference[$0]) }
            #expect(firstMismatch(Array(out.channels[c][..<frames]), want) == nil)
            #expect(out.channels[c][frames...].allSatisfy { $0 == 0 })
        }
    }

    @Test func regionsNeedTheirFileInTheFileIDs() throws {
        let (url, _) = try Self.makeWAV(frames: 1_000)
        defer { try? FileManager.default.removeItem(at: url) }
        let file = try Self.open(url)
        defer { AudioFileClose(file) }
        let unit = try makePlayer()
        defer { AudioComponentInstanceDispose(unit) }
        var ts = AudioTimeStamp()
        ts.mFlags = .sampleTimeValid
        var region = ScheduledAudioFileRegion(mTimeStamp: ts, mCompletionProc: nil, mCompletionProcUserData: nil,
                                              mAudioFile: file, mLoopCount: 0, mStartFrame: 0, mFramesToPlay: 1_000)
        let size = UInt32(MemoryLayout<ScheduledAudioFileRegion>.size)
        #expect(AudioUnitSetProperty(unit, kAudioUnitProperty_ScheduledFileRegion, kAudioUnitScope_Global, 0, &region, size)
                == kAudioUnitErr_InvalidPropertyValue)
        var ids = [file]
        #expect(AudioUnitSetProperty(unit, kAudioUnitProperty_ScheduledFileIDs, kAudioUnitScope_Global, 0, &ids, 8) == noErr)
        var dataSize: UInt32 = 0
        #expect(AudioUnitGetPropertyInfo(unit, kAudioUnitProperty_ScheduledFileIDs, kAudioUnitScope_Global, 0, &dataSize, nil) == noErr)
        #expect(dataSize == 8)
        ts.mFlags = []
        region.mTimeStamp = ts
        #expect(AudioUnitSetProperty(unit, kAudioUnitProperty_ScheduledFileRegion, kAudioUnitScope_Global, 0, &region, size)
                == kAudioUnitErr_InvalidPropertyValue)
    }
}
