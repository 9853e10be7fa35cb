import AudioToolbox
import DeviceTestSupport
import Foundation
import Testing
import SharedTestSupport

/// AUVoiceProcessingIO on the PulseAudio server with an acoustic echo path: for this test the default input is
/// the "out" sink's monitor, so the microphone hears everything the unit plays (a fixed path on one clock,
/// as a device's speaker and microphone share one; a loopback between two sinks would add clock drift, which
/// this canceller does not track). Far-end speech (espeak-ng) is played through the unit; its processed input
/// must carry at least 20 dB less of it than the raw microphone (echo return loss enhancement), while
/// near-end speech played into the room (the same sink) passes at its level.
@Suite(.serialized, .audioServer) struct VoiceProcessingTests {
    static let rate = 44100.0

    /// Speech from espeak-ng, read with ExtAudioFile as mono Float32 at 44.1 kHz, repeated to `seconds`.
    static func speech(_ text: String, seconds: Double) throws -> [Float] {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("oca-speech-\(UUID().uuidString).wav")
        defer { try? FileManager.default.removeItem(at: url) }
        let (status, _) = PulseTestServer.run(["espeak-ng", "-s", "170", "-w", url.path, text])
        try #require(status == 0, "espeak-ng (scripts/setup.sh installs it)")
        let samples: [Float] = try ExtFileIO.read(url, client: OCAFormat.canonical(sampleRate: rate, channels: 1), chunk: 4096).samples
        try #require(!samples.isEmpty)
        var out: [Float] = []
        while out.count < Int(seconds * rate) { out += samples }
        return Array(out.prefix(Int(seconds * rate)))
    }

    final class Call: @unchecked Sendable {
        var unit: AudioUnit?
        let farEnd: [Float]
        var position = 0
        var farEndOn = true
        var processed: [Float] = []
        let list = AudioBufferList.allocate(maximumBuffers: 1)
        let memory = UnsafeMutablePointer<Float>.allocate(capacity: 8192)
        init(farEnd: [Float]) {
            self.farEnd = farEnd
            processed.reserveCapacity(44100 * 20)
        }
        deinit { free(list.unsafeMutablePointer); memory.deallocate() }

        static let speaker: AURenderCallback = { refCon, _, _, _, frames, ioData in
            let call = Unmanaged<Call>.fromOpaque(refCon).takeUnretainedValue()
            let out = UnsafeMutableAudioBufferListPointer(ioData!)[0].mData!.assumingMemoryBound(to: Float.self)
            for k in 0..<Int(frames) {
                out[k] = call.farEndOn && call.position < call.farEnd.count ? call.farEnd[call.position] : 0
                call.position += 1
            }
            return noErr
        }

        static let microphone: AURenderCallback = { refCon, flags, timeStamp, _, frames, _ in
            let call = Unmanaged<Call>.fromOpaque(refCon).takeUnretainedValue()
            call.list[0] = AudioBuffer(mNumberChannels: 1, mDataByteSize: frames * 4, mData: UnsafeMutableRawPointer(call.memory))
            let status = AudioUnitRender(call.unit!, flags, timeStamp, 1, frames, call.list.unsafeMutablePointer)
            if status == noErr { call.processed.append(contentsOf: UnsafeBufferPointer(start: call.memory, count: Int(frames))) }
            return status
        }
    }

    static func power(_ x: ArraySlice<Float>) -> Double {
        x.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(x.count, 1))
    }

    @Test(.timeLimit(.minutes(1))) func echoIsCancelledAndNearEndPasses() throws {
        let far = try Self.speech("The quick brown fox jumps over the lazy dog while the far end keeps talking about the weather.", seconds: 8)
        let near = try Self.speech("Hello, this is the near end speaking clearly into the microphone.", seconds: 3)
        // The acoustic path: the microphone is the speaker's monitor.
        try #require(PulseTestServer.run(["pactl", "set-default-source", "out.monitor"]).0 == 0)
        defer { PulseTestServer.run(["pactl", "set-default-source", "mic.monitor"]) }

        let unit = try TestSupport.newUnit(AudioComponentDescription(componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_VoiceProcessingIO,
                                                                     componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0))
        defer { AudioComponentInstanceDispose(unit) }
        #expect(TestSupport.getUInt32(unit, kAudioOutputUnitProperty_EnableIO, kAudioUnitScope_Input, 1).1 == 1)
        #expect(TestSupport.getUInt32(unit, kAUVoiceIOProperty_VoiceProcessingEnableAGC, kAudioUnitScope_Global, 0).1 == 1)
        // AGC off here, so near-end levels can be compared; echo cancellation stays on.
        #expect(TestSupport.setUInt32(unit, kAUVoiceIOProperty_VoiceProcessingEnableAGC, kAudioUnitScope_Global, 0, 0) == noErr)
        var mono = OCAFormat.canonical(sampleRate: Self.rate, channels: 1)
        let size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        #expect(AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &mono, size) == noErr)
        #expect(AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 1, &mono, size) == noErr)
        let call = Call(farEnd: far.map { $0 * 0.5 })
        call.unit = unit
        #expect(TestSupport.setCallback(unit, 0, Call.speaker, Unmanaged.passUnretained(call).toOpaque()) == noErr)
        var input = AURenderCallbackStruct(inputProc: Call.microphone, inputProcRefCon: Unmanaged.passUnretained(call).toOpaque())
        #expect(AudioUnitSetProperty(unit, kAudioOutputUnitProperty_SetInputCallback, kAudioUnitScope_Global, 0, &input,
                                     UInt32(MemoryLayout<AURenderCallbackStruct>.size)) == noErr)
        #expect(AudioUnitInitialize(unit) == noErr)

        let raw = try PulseTestServer.Capture(sink: "out")
        Thread.sleep(forTimeInterval: 0.2)
        #expect(AudioOutputUnitStart(unit) == noErr)
        Thread.sleep(forTimeInterval: 8)                 // far end only: the canceller converges on the echo path
        call.farEndOn = false
        Thread.sleep(forTimeInterval: 0.5)
        let farEndFrames = call.processed.count
        let player = try PulseTestServer.startPlaying(near.flatMap { [$0 * 0.5, $0 * 0.5] }, sink: "out")
        player.waitUntilExit()
        Thread.sleep(forTimeInterval: 0.5)
        #expect(AudioOutputUnitStop(unit) == noErr)
        let heard = raw.finish()[0]

        // Echo: the last 3 s of far-end-only speech, raw microphone against the unit's processed input.
        let rawStart = try #require(ToneAnalysis.onset(heard, threshold: 0.01), "no echo reached the microphone")
        let rawEcho = Self.power(heard[(rawStart + Int(4.5 * Self.rate))...].prefix(Int(3 * Self.rate)))
        let processedEcho = Self.power(call.processed[max(0, farEndFrames - Int(3.5 * Self.rate))..<max(0, farEndFrames - Int(0.5 * Self.rate))])
        let erle = 10 * log10(rawEcho / max(processedEcho, 1e-12))
        #expect(rawEcho > 1e-3, "echo power \(rawEcho)")
        #expect(erle >= 20, "echo return loss enhancement \(erle) dB")

        // Near end: the processed input carries the near-end speech at about its level (within 3 dB).
        let nearProcessed = Self.power(call.processed[farEndFrames...])
        let nearRaw = Self.power(near.map { $0 * 0.5 }[...]) * Double(near.count) / Double(max(call.processed.count - farEndFrames, 1))
        let passed = 10 * log10(nearProcessed / nearRaw)
        #expect(abs(passed) < 3, "near-end level through the unit: \(passed) dB")
        print("VoiceProcessingIO: ERLE \(String(format: "%.1f", erle)) dB, near end \(String(format: "%+.1f", passed)) dB")
    }

    /// AGC: quiet near-end speech (about -36 dBFS) comes out at least 10 dB louder with AGC on once it has
    /// settled, and at its own level with AGC off.
    @Test(.timeLimit(.minutes(1))) func agcRaisesQuietSpeech() throws {
        let near = try Self.speech("A quiet voice, far from the microphone, keeps on talking for a while.", seconds: 6)
        var gains: [Bool: Double] = [:]
        for agc in [true, false] {
            let unit = try TestSupport.newUnit(AudioComponentDescription(componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_VoiceProcessingIO,
                                                                         componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0))
            defer { AudioComponentInstanceDispose(unit) }
            #expect(TestSupport.setUInt32(unit, kAUVoiceIOProperty_VoiceProcessingEnableAGC, kAudioUnitScope_Global, 0, agc ? 1 : 0) == noErr)
            var mono = OCAFormat.canonical(sampleRate: Self.rate, channels: 1)
            let size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
            #expect(AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Input, 0, &mono, size) == noErr)
            #expect(AudioUnitSetProperty(unit, kAudioUnitProperty_StreamFormat, kAudioUnitScope_Output, 1, &mono, size) == noErr)
            let call = Call(farEnd: [])
            call.unit = unit
            #expect(TestSupport.setCallback(unit, 0, Call.speaker, Unmanaged.passUnretained(call).toOpaque()) == noErr)
            var input = AURenderCallbackStruct(inputProc: Call.microphone, inputProcRefCon: Unmanaged.passUnretained(call).toOpaque())
            #expect(AudioUnitSetProperty(unit, kAudioOutputUnitProperty_SetInputCallback, kAudioUnitScope_Global, 0, &input,
                                         UInt32(MemoryLayout<AURenderCallbackStruct>.size)) == noErr)
            #expect(AudioUnitInitialize(unit) == noErr)
            #expect(AudioOutputUnitStart(unit) == noErr)
            Thread.sleep(forTimeInterval: 0.3)
            let quiet: Float = 0.03
            let player = try PulseTestServer.startPlaying(near.flatMap { [$0 * quiet, $0 * quiet] }, sink: "mic")
            player.waitUntilExit()
            Thread.sleep(forTimeInterval: 0.3)
            #expect(AudioOutputUnitStop(unit) == noErr)
            // The last 2 s of speech through the unit against the same speech as played.
            let speechEnd = call.processed.count - Int(0.6 * Self.rate)
            let through = Self.power(call.processed[max(0, speechEnd - Int(2 * Self.rate))..<max(0, speechEnd)])
            let played = Self.power(near.suffix(Int(2.5 * Self.rate)).prefix(Int(2 * Self.rate)).map { $0 * quiet }[...])
            gains[agc] = 10 * log10(through / played)
        }
        #expect(gains[true]! >= 10, "AGC gain \(gains[true]!) dB")
        #expect(abs(gains[false]!) < 1.5, "without AGC \(gains[false]!) dB")
        print("VoiceProcessingIO AGC: \(String(format: "%+.1f", gains[true]!)) dB with, \(String(format: "%+.1f", gains[false]!)) dB without")
    }
}
