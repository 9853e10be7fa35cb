// Audit snippets, eighth round: the C structs as Swift code builds them (memberwise initialisers, zero
// initialisers) and the sizes client code passes as UInt32(MemoryLayout<T>.size), which must be Apple's.
import AVFoundation
import CoreMIDI
import Foundation
import Testing

@Suite struct AuditStructsSnippetTests {
    @Test func memberwiseInitialisersAndSizes() {
        let smpte = SMPTETime(mSubframes: 0, mSubframeDivisor: 80, mCounter: 0, mType: .type30, mFlags: .valid,
                              mHours: 1, mMinutes: 2, mSeconds: 3, mFrames: 4)
        let stamp = AudioTimeStamp(mSampleTime: 512, mHostTime: 0, mRateScalar: 1, mWordClockTime: 0, mSMPTETime: smpte,
                                   mFlags: [.sampleTimeValid, .rateScalarValid], mReserved: 0)
        #expect(stamp.mFlags.contains(.sampleTimeValid) && stamp.mSMPTETime.mMinutes == 2)
        let range = AudioValueRange(mMinimum: 8000, mMaximum: 192000)
        #expect(range.mMaximum == 192000)
        let address = AudioObjectPropertyAddress(mSelector: kAudioDevicePropertyNominalSampleRate, mScope: kAudioObjectPropertyScopeGlobal,
                                                 mElement: kAudioObjectPropertyElementMain)
        #expect(address.mElement == 0)
        let channel = AudioChannelDescription(mChannelLabel: kAudioChannelLabel_Left, mChannelFlags: [], mCoordinates: (0, 0, 0))
        #expect(channel.mChannelLabel == kAudioChannelLabel_Left)
        var layout = AudioChannelLayout()
        layout.mChannelLayoutTag = kAudioChannelLayoutTag_Stereo
        #expect(AudioChannelLayoutTag_GetNumberOfChannels(layout.mChannelLayoutTag) == 2)
        let packet = AudioStreamPacketDescription(mStartOffset: 10, mVariableFramesInPacket: 0, mDataByteSize: 20)
        #expect(packet.mDataByteSize == 20)
        let classInfo = AudioClassDescription(mType: kAudioEncoderComponentType, mSubType: kAudioFormatMPEG4AAC, mManufacturer: kAppleSoftwareAudioCodecManufacturer)
        #expect(classInfo.mSubType == kAudioFormatMPEG4AAC)
        var note = MIDINoteMessage(channel: 1, note: 60, velocity: 100, releaseVelocity: 0, duration: 0.5)
        note.duration = 1
        let channelMessage = MIDIChannelMessage(status: 0xB0, data1: 7, data2: 100, reserved: 0)
        #expect(channelMessage.data1 == 7)
        let tempo = ExtendedTempoEvent(bpm: 96)
        #expect(tempo.bpm == 96)

        #expect(MemoryLayout<AudioStreamBasicDescription>.size == 40)
        #expect(MemoryLayout<AudioTimeStamp>.size == 64)
        #expect(MemoryLayout<SMPTETime>.size == 24)
        #expect(MemoryLayout<AudioBuffer>.size == 16)
        #expect(MemoryLayout<AudioBufferList>.size == 24)
        #expect(MemoryLayout<AudioStreamPacketDescription>.size == 16)
        #expect(MemoryLayout<AudioComponentDescription>.size == 20)
        #expect(MemoryLayout<AudioChannelDescription>.size == 20)
        #expect(MemoryLayout<AudioChannelLayout>.size == 32)
        #expect(MemoryLayout<AudioValueRange>.size == 16)
        #expect(MemoryLayout<AudioObjectPropertyAddress>.size == 12)
        #expect(MemoryLayout<AURenderCallbackStruct>.size == 16)
        #expect(MemoryLayout<MIDINoteMessage>.size == 8)
        #expect(MemoryLayout<AudioUnitParameterInfo>.stride == 104)
        #expect(MemoryLayout<MIDIPacket>.size == 268)
        #expect(MemoryLayout<AudioFilePacketTableInfo>.size == 16)
    }

    /// kAudioUnitProperty_ParameterInfo read with the size Swift code passes (MemoryLayout.size, or .stride).
    @Test func parameterInfoWithSwiftSizes() throws {
        var description = AudioComponentDescription(componentType: kAudioUnitType_Effect, componentSubType: kAudioUnitSubType_Delay,
                                                    componentManufacturer: kAudioUnitManufacturer_Apple, componentFlags: 0, componentFlagsMask: 0)
        let component = try #require(AudioComponentFindNext(nil, &description))
        var unit: AudioUnit?
        try #require(AudioComponentInstanceNew(component, &unit) == noErr)
        defer { AudioComponentInstanceDispose(unit!) }
        for size0 in [MemoryLayout<AudioUnitParameterInfo>.size, MemoryLayout<AudioUnitParameterInfo>.stride] {
            var info = AudioUnitParameterInfo()
            var size = UInt32(size0)
            #expect(AudioUnitGetProperty(unit!, kAudioUnitProperty_ParameterInfo, kAudioUnitScope_Global, kDelayParam_DelayTime,
                                         &info, &size) == noErr, "size \(size0)")
            #expect(info.unit == .seconds)
            #expect(info.maxValue == 2)
            #expect(info.defaultValue == 1)
            #expect(info.flags.contains(.flag_IsWritable))
            let name = info.cfNameString?.takeUnretainedValue() as String?
            #expect(name?.isEmpty == false)
        }
    }
}
