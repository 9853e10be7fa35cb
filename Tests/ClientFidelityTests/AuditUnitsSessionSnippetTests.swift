// Audit snippets: AUAudioUnit (v3) hosted by hand with its render block and parameter tree, AVAudioSession
// set up as an iOS app does, the Audio Queue with a dispatch queue. Apple's API only.
import AVFoundation
import Foundation
import Testing

@Suite struct AuditUnitsSessionSnippetTests {
    /// A delay, dry, hosted as an AUAudioUnit: input pulled through the pull-input block, output = input.
    @Test func auAudioUnitRenderBlock() throws {
        let description = AudioComponentDescription(componentType: kAudioUnitType_Effect,
                                                    componentSubType: kAudioUnitSubType_Delay,
                                                    componentManufacturer: kAudioUnitManufacturer_Apple,
                                                    componentFlags: 0, componentFlagsMask: 0)
        let made = Shared<AUAudioUnit?>(nil)
        let done = DispatchSemaphore(value: 0)
        AUAudioUnit.instantiate(with: description, options: []) { audioUnit, error in
            #expect(error == nil)
            made.value = audioUnit
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 5) == .success)
        let unit = try #require(made.value)
        #expect(unit.componentDescription.componentSubType == kAudioUnitSubType_Delay)
        let format = AVAudioFormat(standardFormatWithSampleRate: 44100, channels: 2)!
        try unit.inputBusses[0].setFormat(format)
        try unit.outputBusses[0].setFormat(format)
        #expect(unit.outputBusses[0].format == format)
        #expect(unit.inputBusses.count == 1)
        unit.maximumFramesToRender = 512
        try unit.allocateRenderResources()
        defer { unit.deallocateRenderResources() }
        #expect(unit.renderResourcesAllocated)

        let tree = try #require(unit.parameterTree)
        let wetDry = try #require(tree.parameter(withAddress: AUParameterAddress(kDelayParam_WetDryMix)))
        #expect(wetDry.unit == .percent || wetDry.unit == .equalPowerCrossfade)
        wetDry.value = 0
        #expect(wetDry.value == 0)
        #expect(tree.allParameters.count >= 4)

        let input = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 512)!
        input.frameLength = 512
        for c in 0..<2 { for i in 0..<512 { input.floatChannelData![c][i] = Float(i) / 512 } }
        let output = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 512)!
        output.frameLength = 512
        var flags = AudioUnitRenderActionFlags()
        var timeStamp = AudioTimeStamp()
        timeStamp.mSampleTime = 0
        timeStamp.mFlags = .sampleTimeValid
        let pulls = Shared(0)
        let status = unit.renderBlock(&flags, &timeStamp, 512, 0, output.mutableAudioBufferList) { _, _, frameCount, bus, inputData in
            pulls.mutate { $0 += 1 }
            let list = UnsafeMutableAudioBufferListPointer(inputData)
            for (c, buffer) in list.enumerated() {
                let source = input.floatChannelData![c]
                if let data = buffer.mData {
                    data.assumingMemoryBound(to: Float.self).update(from: source, count: Int(frameCount))
                } else {
                    list[c].mData = UnsafeMutableRawPointer(source)
                }
            }
            return noErr
        }
        #expect(status == noErr)
        #expect(pulls.value == 1)
        #expect(abs(output.floatChannelData![1][256] - 0.5) < 1e-4)
    }

    /// An iOS app's audio session setup; the calls exist and answer, with or without hardware.
    @Test func audioSessionSetup() throws {
        let session = AVAudioSession.sharedInstance()
        try session.setCategory(.playAndRecord, mode: .measurement, options: [.defaultToSpeaker, .allowBluetooth, .mixWithOthers])
        #expect(session.category == .playAndRecord)
        #expect(session.mode == .measurement)
        #expect(session.categoryOptions.contains(.defaultToSpeaker))
        try session.setPreferredSampleRate(48000)
        try session.setPreferredIOBufferDuration(0.005)
        #expect(session.preferredSampleRate == 48000)
        #expect(abs(session.preferredIOBufferDuration - 0.005) < 1e-9)
        try session.setCategory(.playback, options: .duckOthers)
        try session.setCategory(.ambient)
        let observer = NotificationCenter.default.addObserver(forName: AVAudioSession.interruptionNotification, object: session, queue: .main) { notification in
            guard let info = notification.userInfo,
                  let typeValue = info[AVAudioSessionInterruptionTypeKey] as? UInt,
                  let type = AVAudioSession.InterruptionType(rawValue: typeValue) else { return }
            if type == .ended, let optionsValue = info[AVAudioSessionInterruptionOptionKey] as? UInt {
                _ = AVAudioSession.InterruptionOptions(rawValue: optionsValue).contains(.shouldResume)
            }
        }
        NotificationCenter.default.removeObserver(observer)
        #expect(AVAudioSession.routeChangeNotification.rawValue == "AVAudioSessionRouteChangeNotification")
        #expect(AVAudioSession.RouteChangeReason(rawValue: 1) == .newDeviceAvailable)
        for output in session.currentRoute.outputs {
            _ = output.portType == .headphones
            _ = output.portName
        }
        _ = session.sampleRate
        _ = session.ioBufferDuration
        _ = session.outputVolume
        _ = session.isOtherAudioPlaying
        _ = session.recordPermission == .granted
        _ = session.availableCategories.contains(.record)
    }

    /// An Audio Queue output driven by a dispatch queue, rendered offline: the callback fills buffers with a ramp.
    @Test func audioQueueDispatchOffline() throws {
        var format = AudioStreamBasicDescription(mSampleRate: 8000, mFormatID: kAudioFormatLinearPCM,
                                                 mFormatFlags: kLinearPCMFormatFlagIsSignedInteger | kLinearPCMFormatFlagIsPacked,
                                                 mBytesPerPacket: 2, mFramesPerPacket: 1, mBytesPerFrame: 2,
                                                 mChannelsPerFrame: 1, mBitsPerChannel: 16, mReserved: 0)
        let callbackQueue = DispatchQueue(label: "audit.aq")
        let counter = Shared<Int16>(0)
        var queue: AudioQueueRef?
        var status = AudioQueueNewOutputWithDispatchQueue(&queue, &format, 0, callbackQueue) { aq, buffer in
            let samples = buffer.pointee.mAudioData.assumingMemoryBound(to: Int16.self)
            let count = Int(buffer.pointee.mAudioDataBytesCapacity) / 2
            counter.mutate { next in
                for i in 0..<count { samples[i] = next; next &+= 1 }
            }
            buffer.pointee.mAudioDataByteSize = UInt32(count * 2)
            AudioQueueEnqueueBuffer(aq, buffer, 0, nil)
        }
        try #require(status == noErr)
        let aq = queue!
        defer { AudioQueueDispose(aq, true) }
        for _ in 0..<3 {
            var buffer: AudioQueueBufferRef?
            #expect(AudioQueueAllocateBuffer(aq, 512, &buffer) == noErr)
            let samples = buffer!.pointee.mAudioData.assumingMemoryBound(to: Int16.self)
            counter.mutate { next in
                for i in 0..<256 { samples[i] = next; next &+= 1 }
            }
            buffer!.pointee.mAudioDataByteSize = 512
            #expect(AudioQueueEnqueueBuffer(aq, buffer!, 0, nil) == noErr)
        }
        var renderFormat = format
        status = AudioQueueSetOfflineRenderFormat(aq, &renderFormat, nil)
        #expect(status == noErr)
        var outBuffer: AudioQueueBufferRef?
        #expect(AudioQueueAllocateBuffer(aq, 512, &outBuffer) == noErr)
        #expect(AudioQueueStart(aq, nil) == noErr)
        var stamp = AudioTimeStamp()
        stamp.mFlags = .sampleTimeValid
        stamp.mSampleTime = 0
        #expect(AudioQueueOfflineRender(aq, &stamp, outBuffer!, 0) == noErr)
        var rendered: [Int16] = []
        for _ in 0..<3 {
            #expect(AudioQueueOfflineRender(aq, &stamp, outBuffer!, 256) == noErr)
            let data = outBuffer!.pointee.mAudioData.assumingMemoryBound(to: Int16.self)
            rendered += UnsafeBufferPointer(start: data, count: Int(outBuffer!.pointee.mAudioDataByteSize) / 2)
            stamp.mSampleTime += 256
        }
        #expect(rendered.count == 768)
        #expect(rendered == (0..<768).map { Int16($0) })
        AudioQueueStop(aq, true)
    }
}
