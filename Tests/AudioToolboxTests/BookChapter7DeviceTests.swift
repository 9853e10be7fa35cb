import ApplicationServices
import AudioToolbox
import DeviceTestSupport
import Foundation
import Testing

/// The book's chapter 7 programs, written in Swift as the book writes them in C, on the private PulseAudio server:
/// what the default output plays is heard on the "out" sink's monitor.
@Suite(.serialized, .audioServer) struct BookChapter7DeviceTests {
    final class MyAUGraphPlayer {
        var inputFormat = AudioStreamBasicDescription()
        var inputFile: AudioFileID?
        var graph: AUGraph?
        var fileAU: AudioUnit?
    }

    /// Listings 7.7-7.11: a graph of a file player feeding the default output.
    func createMyAUGraph(_ player: MyAUGraphPlayer) {
        #expect(NewAUGraph(&player.graph) == noErr)
        var outputcd = AudioComponentDescription(componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_DefaultOutput,
                                                 componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        var outputNode = AUNode()
        #expect(AUGraphAddNode(player.graph!, &outputcd, &outputNode) == noErr)
        var fileplayercd = AudioComponentDescription(componentType: kAudioUnitType_Generator, componentSubType: kAudioUnitSubType_AudioFilePlayer,
                                                     componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        var fileNode = AUNode()
        #expect(AUGraphAddNode(player.graph!, &fileplayercd, &fileNode) == noErr)
        #expect(AUGraphOpen(player.graph!) == noErr)
        #expect(AUGraphNodeInfo(player.graph!, fileNode, nil, &player.fileAU) == noErr)
        #expect(AUGraphConnectNodeInput(player.graph!, fileNode, 0, outputNode, 0) == noErr)
        #expect(AUGraphInitialize(player.graph!) == noErr)
    }

    /// Listings 7.12-7.17: file IDs, one region (the book's loop count of 1), prime, start on the next render;
    /// returns the file's duration.
    func prepareFileAU(_ player: MyAUGraphPlayer) -> Float64 {
        #expect(AudioUnitSetProperty(player.fileAU!, kAudioUnitProperty_ScheduledFileIDs, kAudioUnitScope_Global, 0, &player.inputFile,
                                     UInt32(MemoryLayout<AudioFileID>.size)) == noErr)
        var nPackets: UInt64 = 0
        var propsize = UInt32(MemoryLayout<UInt64>.size)
        #expect(AudioFileGetProperty(player.inputFile!, kAudioFilePropertyAudioDataPacketCount, &propsize, &nPackets) == noErr)
        var timeStamp = AudioTimeStamp()
        timeStamp.mFlags = .sampleTimeValid
        timeStamp.mSampleTime = 0
        var rgn = ScheduledAudioFileRegion(mTimeStamp: timeStamp, mCompletionProc: nil, mCompletionProcUserData: nil,
                                           mAudioFile: player.inputFile!, mLoopCount: 1, mStartFrame: 0,
                                           mFramesToPlay: UInt32(nPackets) * player.inputFormat.mFramesPerPacket)
        #expect(AudioUnitSetProperty(player.fileAU!, kAudioUnitProperty_ScheduledFileRegion, kAudioUnitScope_Global, 0, &rgn,
                                     UInt32(MemoryLayout<ScheduledAudioFileRegion>.size)) == noErr)
        var defaultVal: UInt32 = 0
        #expect(AudioUnitSetProperty(player.fileAU!, kAudioUnitProperty_ScheduledFilePrime, kAudioUnitScope_Global, 0, &defaultVal,
                                     UInt32(MemoryLayout<UInt32>.size)) == noErr)
        var startTime = AudioTimeStamp()
        startTime.mFlags = .sampleTimeValid
        startTime.mSampleTime = -1
        #expect(AudioUnitSetProperty(player.fileAU!, kAudioUnitProperty_ScheduleStartTimeStamp, kAudioUnitScope_Global, 0, &startTime,
                                     UInt32(MemoryLayout<AudioTimeStamp>.size)) == noErr)
        return Double(nPackets) * Double(player.inputFormat.mFramesPerPacket) / player.inputFormat.mSampleRate
    }

    /// The file player program: the sink hears the file's 1 kHz tone at its level, without a dropout, for the
    /// file's duration (the book sleeps for one pass; its loop count of 1 would play a second).
    @Test func filePlayerPlaysTheFile() throws {
        let url = try AudioQueueDeviceTests.makeToneFile(seconds: 1.5)
        defer { try? FileManager.default.removeItem(at: url) }
        let player = MyAUGraphPlayer()
        #expect(AudioFileOpenURL(url as CFURL, .readPermission, 0, &player.inputFile) == noErr)
        var propSize = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        #expect(AudioFileGetProperty(player.inputFile!, kAudioFilePropertyDataFormat, &propSize, &player.inputFormat) == noErr)
        createMyAUGraph(player)
        let fileDuration = prepareFileAU(player)
        #expect(fileDuration == 1.5)

        let capture = try PulseTestServer.Capture()
        Thread.sleep(forTimeInterval: 0.2)
        #expect(AUGraphStart(player.graph!) == noErr)
        // The book sleeps for the file's duration; the private server's device takes up to a second to start
        // calling back, so this waits that much longer (the region's second pass keeps the tone going).
        usleep(UInt32((fileDuration + 1.0) * 1000.0 * 1000.0))
        var playTime = AudioTimeStamp()
        var size = UInt32(MemoryLayout<AudioTimeStamp>.size)
        #expect(AudioUnitGetProperty(player.fileAU!, kAudioUnitProperty_CurrentPlayTime, kAudioUnitScope_Global, 0, &playTime, &size) == noErr)
        #expect(AUGraphStop(player.graph!) == noErr)
        #expect(AUGraphUninitialize(player.graph!) == noErr)
        #expect(AUGraphClose(player.graph!) == noErr)
        #expect(AudioFileClose(player.inputFile!) == noErr)
        DisposeAUGraph(player.graph!)
        let heard = capture.finish()[0]

        // The player's clock ran for at most the time slept, plus what the device renders ahead of playback (its
        // buffer: a run saw 28 slices of 4,096 frames, 2.6 s, after sleeping 2.5 s) and a loaded machine's late wake-up.
        #expect(playTime.mSampleTime > 0.5 * fileDuration * 44100 && playTime.mSampleTime < (fileDuration + 1.4) * 44100,
                "CurrentPlayTime \(playTime.mSampleTime)")
        let start = try #require(ToneAnalysis.onset(heard, threshold: 0.02), "nothing heard")
        let body = heard[(start + 2205)...].prefix(44100)
        #expect(body.count == 44100, "heard \(body.count) frames")
        let amplitude = ToneAnalysis.fit(body, frequency: 1000, rate: 44100).amplitude
        #expect(abs(amplitude - 0.5) < 0.01, "amplitude \(amplitude)")
        #expect(ToneAnalysis.longestGap(body) < 8)
    }

    /// Listings 7.21-7.26: the speech synthesizer through AUMatrixReverb (a large hall) to the default output, as the
    /// book writes it; the sink hears speech, and after it the hall's tail.
    @Test func speechThroughTheReverbIsHeard() throws {
        var graph: AUGraph?
        #expect(NewAUGraph(&graph) == noErr)
        var outputcd = AudioComponentDescription(componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_DefaultOutput,
                                                 componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        var outputNode = AUNode()
        #expect(AUGraphAddNode(graph!, &outputcd, &outputNode) == noErr)
        var speechcd = AudioComponentDescription(componentType: kAudioUnitType_Generator, componentSubType: kAudioUnitSubType_SpeechSynthesis,
                                                 componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        var speechNode = AUNode()
        #expect(AUGraphAddNode(graph!, &speechcd, &speechNode) == noErr)
        #expect(AUGraphOpen(graph!) == noErr)
        var speechAU: AudioUnit?
        #expect(AUGraphNodeInfo(graph!, speechNode, nil, &speechAU) == noErr)
        var reverbcd = AudioComponentDescription(componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_MatrixReverb,
                                                 componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        var reverbNode = AUNode()
        #expect(AUGraphAddNode(graph!, &reverbcd, &reverbNode) == noErr)
        #expect(AUGraphConnectNodeInput(graph!, speechNode, 0, reverbNode, 0) == noErr)
        #expect(AUGraphConnectNodeInput(graph!, reverbNode, 0, outputNode, 0) == noErr)
        var reverbUnit: AudioUnit?
        #expect(AUGraphNodeInfo(graph!, reverbNode, nil, &reverbUnit) == noErr)
        #expect(AUGraphInitialize(graph!) == noErr)
        var roomType = UInt32(AUReverbRoomType.reverbRoomType_LargeHall.rawValue)
        #expect(AudioUnitSetProperty(reverbUnit!, kAudioUnitProperty_ReverbRoomType, kAudioUnitScope_Global, 0, &roomType,
                                     UInt32(MemoryLayout<UInt32>.size)) == noErr)
        var chan: SpeechChannel?
        var propsize = UInt32(MemoryLayout<SpeechChannel>.size)
        #expect(AudioUnitGetProperty(speechAU!, kAudioUnitProperty_SpeechChannel, kAudioUnitScope_Global, 0, &chan, &propsize) == noErr)

        let capture = try PulseTestServer.Capture()
        Thread.sleep(forTimeInterval: 0.2)
        #expect(AUGraphStart(graph!) == noErr)
        // Spoken once the device is running (it takes up to a second to start on the private server).
        Thread.sleep(forTimeInterval: 1.0)
        #expect(SpeakCFString(chan!, "hello world" as CFString, nil) == 0)
        Thread.sleep(forTimeInterval: 4.0)
        #expect(AUGraphStop(graph!) == noErr)
        DisposeAUGraph(graph!)
        let heard = capture.finish()[0]
        let loud = heard.map { abs($0) }
        let start = try #require(loud.firstIndex { $0 > 0.01 }, "nothing heard")
        let body = heard[start..<min(start + 44100, heard.count)].map(Double.init)
        let rms = (body.reduce(0) { $0 + $1 * $1 } / Double(body.count)).squareRoot()
        #expect(20 * log10(rms) > -45, "speech at \(20 * log10(rms)) dBFS")
        // Still sounding well after the words (about a second long): the tail.
        let late = heard[min(start + 66150, heard.count)..<min(start + 88200, heard.count)].map { Double(abs($0)) }
        #expect((late.max() ?? 0) > 1e-3, "no tail after the speech")
    }
}
