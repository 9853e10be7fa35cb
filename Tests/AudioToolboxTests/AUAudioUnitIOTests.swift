import AudioDSP
import AudioToolbox
import DeviceTestSupport
import Foundation
import Testing

/// AUAudioUnit's I/O API (Apple's AUAudioInputOutputUnit category) over AUHAL made the way app code makes it,
/// `AUAudioUnit(componentDescription:)`, against the private PulseAudio server: what the output provider plays is
/// heard on the "out" sink's monitor; what is played into the "mic" sink reaches the input handler.
@Suite(.serialized, .audioServer) struct AUAudioUnitIOTests {
    static let hal = AudioComponentDescription(componentType: kAudioUnitType_Output, componentSubType: kAudioUnitSubType_HALOutput,
                                               componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)

    /// A phase-continuous sine (the output provider's state).
    final class Sine: @unchecked Sendable {
        let step: Double, amplitude: Float
        var phase = 0.0
        var frames = 0
        init(_ frequency: Double, amplitude: Float) { step = 2 * Double.pi * frequency / 44100; self.amplitude = amplitude }
    }

    /// What the input handler fetched, through the unit's render block on the bus it was given.
    final class Received: @unchecked Sendable {
        var samples: [Float] = []
        var failures = 0
        var busses = Set<Int>()
        let list = AudioBufferList.allocate(maximumBuffers: 1)
        let memory = UnsafeMutablePointer<Float>.allocate(capacity: 8192)
        init() { samples.reserveCapacity(44100 * 4) }
        deinit { free(list.unsafeMutablePointer); memory.deallocate() }
    }

    /// The popular output pattern: the client format on input bus 0 (the device side, output bus 0, is the device's
    /// and refuses a format), a sine from the output provider, startHardware. The sink hears 1 kHz at 0.5 on both
    /// sides without a dropout, for as long as the hardware ran.
    @Test func outputProviderPlaysATone() throws {
        let au = try AUAudioUnit(componentDescription: Self.hal)
        #expect(au.inputBusses.count == 2 && au.outputBusses.count == 2)
        #expect(au.canPerformOutput)
        #expect(au.isOutputEnabled)   // on by default
        #expect(!au.isInputEnabled)   // off by default
        let mono = OCAFormat.canonical(sampleRate: 44100, channels: 1)
        #expect(throws: NSError.self) { try au.outputBusses[0].setStreamDescription(mono) }
        try au.inputBusses[0].setStreamDescription(mono)
        #expect(au.inputBusses[0].streamDescription.mChannelsPerFrame == 1)

        let sine = Sine(1000, amplitude: 0.5)
        au.outputProvider = { _, _, frames, _, data in
            for k in 0..<Int(frames) {
                let v = sine.amplitude * Float(sin(sine.phase + Double(k) * sine.step))
                for b in UnsafeMutableAudioBufferListPointer(data) { b.mData!.assumingMemoryBound(to: Float.self)[k] = v }
            }
            sine.phase = (sine.phase + Double(frames) * sine.step).truncatingRemainder(dividingBy: 2 * Double.pi)
            sine.frames += Int(frames)
            return noErr
        }
        au.isOutputEnabled = true
        try au.allocateRenderResources()
        defer { au.deallocateRenderResources() }
        let capture = try PulseTestServer.Capture()
        Thread.sleep(forTimeInterval: 0.2)
        #expect(!au.isRunning)
        try au.startHardware()
        #expect(au.isRunning)
        Thread.sleep(forTimeInterval: 2.3)
        au.stopHardware()
        #expect(!au.isRunning)
        let heard = capture.finish()
        #expect(abs(Double(sine.frames) - 2.3 * 44100) < 0.3 * 44100, "provided \(sine.frames) frames")
        for side in heard {
            let start = try #require(ToneAnalysis.onset(side, threshold: 0.05), "nothing heard")
            let body = side[(start + 4410)...].prefix(44100)
            #expect(body.count == 44100)
            let amplitude = ToneAnalysis.fit(body, frequency: 1000, rate: 44100).amplitude
            #expect(abs(amplitude - 0.5) < 0.01, "amplitude \(amplitude)")
            #expect(ToneAnalysis.longestGap(body) < 8)
            let measured = Array(body).withUnsafeBufferPointer { SignalMeasurement.zeroCrossingFrequency($0, sampleRate: 44100) }
            #expect(abs((measured ?? 0) - 1000) < 1, "frequency \(measured ?? 0)")
        }
    }

    /// The input pattern: input on, output off, the default input device, a mono client format on output bus 1, and
    /// an input handler that fetches each period with `renderBlock` on bus 1. It receives the 660 Hz tone played into
    /// the "mic" sink, at its level, without a failed render or a dropout.
    @Test func inputHandlerReceivesTheMicrophone() throws {
        let au = try AUAudioUnit(componentDescription: Self.hal)
        #expect(au.canPerformInput)
        au.isInputEnabled = true
        au.isOutputEnabled = false
        #expect(au.isInputEnabled && !au.isOutputEnabled)
        var address = AudioObjectPropertyAddress(mSelector: kAudioHardwarePropertyDefaultInputDevice, mScope: kAudioObjectPropertyScopeGlobal,
                                                 mElement: kAudioObjectPropertyElementMain)
        var device = AudioDeviceID(0)
        var size: UInt32 = 4
        #expect(AudioObjectGetPropertyData(AudioObjectID(kAudioObjectSystemObject), &address, 0, nil, &size, &device) == noErr)
        try au.setDeviceID(device)
        #expect(au.deviceID == device)
        #expect(au.inputBusses[1].streamDescription.mSampleRate == 44100)  // the device side, read again after the change
        try au.outputBusses[1].setStreamDescription(OCAFormat.canonical(sampleRate: 44100, channels: 1))

        let received = Received()
        au.inputHandler = { flags, timeStamp, frames, bus in
            received.busses.insert(bus)
            received.list[0] = AudioBuffer(mNumberChannels: 1, mDataByteSize: frames * 4, mData: UnsafeMutableRawPointer(received.memory))
            guard au.renderBlock(flags, timeStamp, frames, 1, received.list.unsafeMutablePointer, nil) == noErr else {
                received.failures += 1
                return
            }
            received.samples.append(contentsOf: UnsafeBufferPointer(start: received.memory, count: Int(frames)))
        }
        defer { au.inputHandler = nil }  // the handler holds the unit
        try au.allocateRenderResources()
        defer { au.deallocateRenderResources() }
        try au.startHardware()
        #expect(au.isRunning)
        Thread.sleep(forTimeInterval: 0.3)
        let player = try PulseTestServer.startPlaying(PulseTestServer.stereoSine(660, seconds: 1.5, amplitude: 0.4))
        player.waitUntilExit()
        Thread.sleep(forTimeInterval: 0.3)
        au.stopHardware()
        #expect(received.failures == 0)
        #expect(received.busses == [1])
        let start = try #require(ToneAnalysis.onset(received.samples, threshold: 0.05), "nothing received")
        let body = received.samples[(start + 4410)...].prefix(44100)
        #expect(body.count == 44100)
        let amplitude = ToneAnalysis.fit(body, frequency: 660, rate: 44100).amplitude
        #expect(abs(amplitude - 0.4) < 0.01, "amplitude \(amplitude)")
        #expect(ToneAnalysis.longestGap(body) < 8)
    }
}
