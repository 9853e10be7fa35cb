// Audit snippets: AVAudioPlayer / AVAudioRecorder / AVMIDIPlayer as apps create them, a source-node synth
// with its own format, the remaining effect units' presets. Apple's API only; nothing here plays to a device.
import AVFoundation
import Foundation
import Testing

@Suite struct AuditPlayerSnippetTests {
    static func tempURL(_ ext: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("audit-\(UUID().uuidString).\(ext)")
    }

    @Test func audioPlayerProperties() throws {
        let url = Self.tempURL("caf")
        defer { try? FileManager.default.removeItem(at: url) }
        let format = AVAudioFormat(standardFormatWithSampleRate: 44100, channels: 2)!
        do {
            let file = try AVAudioFile(forWriting: url, settings: format.settings)
            let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 22050)!
            buffer.frameLength = 22050
            try file.write(from: buffer)
        }
        let player = try AVAudioPlayer(contentsOf: url)
        #expect(abs(player.duration - 0.5) < 1e-6)
        #expect(player.numberOfChannels == 2)
        #expect(player.format.sampleRate == 44100)
        #expect(player.url == url)
        #expect(!player.isPlaying)
        player.numberOfLoops = -1
        player.volume = 0.5
        player.pan = -0.5
        player.enableRate = true
        player.rate = 1.5
        player.isMeteringEnabled = true
        player.currentTime = 0.25
        #expect(abs(player.currentTime - 0.25) < 1e-3)
        #expect(player.numberOfLoops == -1)
        #expect(player.rate == 1.5)
        player.updateMeters()
        _ = player.averagePower(forChannel: 0)
        _ = player.peakPower(forChannel: 1)
        let data = try Data(contentsOf: url)
        let fromData = try AVAudioPlayer(data: data)
        #expect(abs(fromData.duration - 0.5) < 1e-6)
        #expect(fromData.data == data)
        #expect(throws: (any Error).self) { try AVAudioPlayer(data: Data([1, 2, 3])) }
    }

    @Test func recorderSettings() throws {
        let url = Self.tempURL("m4a")
        defer { try? FileManager.default.removeItem(at: url) }
        let settings: [String: Any] = [
            AVFormatIDKey: Int(kAudioFormatMPEG4AAC),
            AVSampleRateKey: 12000,
            AVNumberOfChannelsKey: 1,
            AVEncoderAudioQualityKey: AVAudioQuality.high.rawValue,
        ]
        let recorder = try AVAudioRecorder(url: url, settings: settings)
        #expect(recorder.url == url)
        #expect(!recorder.isRecording)
        #expect(recorder.format.sampleRate == 12000)
        #expect(recorder.format.channelCount == 1)
        #expect((recorder.settings[AVFormatIDKey] as? NSNumber)?.uint32Value == kAudioFormatMPEG4AAC)
        recorder.isMeteringEnabled = true
        let cafURL = Self.tempURL("caf")
        defer { try? FileManager.default.removeItem(at: cafURL) }
        let format = AVAudioFormat(standardFormatWithSampleRate: 16000, channels: 1)!
        let fromFormat = try AVAudioRecorder(url: cafURL, format: format)
        #expect(fromFormat.format.sampleRate == 16000)
    }

    @Test func midiPlayerDuration() throws {
        var sequence: MusicSequence?
        NewMusicSequence(&sequence)
        defer { DisposeMusicSequence(sequence!) }
        var track: MusicTrack?
        MusicSequenceNewTrack(sequence!, &track)
        var note = MIDINoteMessage(channel: 0, note: 60, velocity: 90, releaseVelocity: 0, duration: 2)
        MusicTrackNewMIDINoteEvent(track!, 0, &note)
        var data: Unmanaged<CFData>?
        try #require(MusicSequenceFileCreateData(sequence!, .midiType, .eraseFile, 480, &data) == noErr)
        let smf = data!.takeRetainedValue() as Data
        let player = try AVMIDIPlayer(data: smf, soundBankURL: nil)
        // Two beats at the default 120 bpm.
        #expect(abs(player.duration - 1.0) < 0.01, "duration \(player.duration)")
        #expect(!player.isPlaying)
        player.currentPosition = 0.5
        #expect(abs(player.currentPosition - 0.5) < 0.01)
        player.rate = 2
        #expect(player.rate == 2)
    }

    /// A source-node synth in an Int16 interleaved format of its own: the mixer converts it to float.
    @Test func sourceNodeWithFormat() throws {
        let engine = AVAudioEngine()
        let int16 = AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 22050, channels: 1, interleaved: true)!
        let source = AVAudioSourceNode(format: int16) { isSilence, timestamp, frameCount, audioBufferList -> OSStatus in
            let buffers = UnsafeMutableAudioBufferListPointer(audioBufferList)
            let samples = buffers[0].mData!.assumingMemoryBound(to: Int16.self)
            for i in 0..<Int(frameCount) { samples[i] = 16384 }
            isSilence.pointee = false
            return noErr
        }
        engine.attach(source)
        let output = AVAudioFormat(standardFormatWithSampleRate: 22050, channels: 1)!
        engine.connect(source, to: engine.mainMixerNode, format: int16)
        try engine.enableManualRenderingMode(.offline, format: output, maximumFrameCount: 512)
        try engine.start()
        let out = AVAudioPCMBuffer(pcmFormat: engine.manualRenderingFormat, frameCapacity: 512)!
        #expect(try engine.renderOffline(512, to: out) == .success)
        #expect(out.frameLength == 512)
        #expect(abs(out.floatChannelData![0][100] - 0.5) < 1e-3)
        engine.stop()
    }

    /// Presets and enum cases apps name.
    @Test func unitPresetsAndCases() {
        let distortion = AVAudioUnitDistortion()
        distortion.loadFactoryPreset(.multiEcho1)
        distortion.preGain = -6
        distortion.wetDryMix = 50
        #expect(distortion.preGain == -6)
        let varispeed = AVAudioUnitVarispeed()
        varispeed.rate = 2
        #expect(varispeed.rate == 2)
        let timePitch = AVAudioUnitTimePitch()
        timePitch.pitch = 1200
        timePitch.overlap = 8
        #expect(timePitch.pitch == 1200)
        let reverb = AVAudioUnitReverb()
        for preset: AVAudioUnitReverbPreset in [.smallRoom, .mediumRoom, .largeRoom, .mediumHall, .largeHall, .plate,
                                                .mediumChamber, .largeChamber, .cathedral, .largeRoom2, .mediumHall2,
                                                .mediumHall3, .largeHall2] {
            reverb.loadFactoryPreset(preset)
        }
        let eq = AVAudioUnitEQ(numberOfBands: 10)
        #expect(eq.bands.count == 10)
        let types: [AVAudioUnitEQFilterType] = [.parametric, .lowPass, .highPass, .resonantLowPass, .resonantHighPass,
                                                .bandPass, .bandStop, .lowShelf, .highShelf, .resonantLowShelf, .resonantHighShelf]
        for (band, type) in zip(eq.bands, types) { band.filterType = type }
        #expect(eq.bands[3].filterType == .resonantLowPass)
        #expect(AVAudioUnitEQFilterType.resonantHighShelf.rawValue == 10)
        let delay = AVAudioUnitDelay()
        #expect(delay.delayTime == 1)
        #expect(delay.feedback == 50)
        #expect(delay.lowPassCutoff == 15000)
        #expect(delay.wetDryMix == 100)
        #expect(reverb.wetDryMix >= 0)
        #expect(AVAudioPlayerNodeBufferOptions.interrupts.rawValue == 2)
        #expect(AVAudioPlayerNodeBufferOptions.interruptsAtLoop.rawValue == 4)
        #expect(AVAudioEngineManualRenderingError.notRunning.rawValue == -80_802)
        #expect(AVAudioEngineManualRenderingStatus.insufficientDataFromInputNode.rawValue == 1)
    }
}
