// A client that sizes its buffers the documented way: GetPropertyInfo for the size, then GetProperty with a
// buffer of exactly that size. For every property a WAVE file (reopened for reading) and a resampling PCM
// converter answer Info for, Get succeeds and reports the same size, and a buffer one byte short is refused.
import AudioToolbox
import Foundation
import Testing

@Suite struct PropertySizeClientTests {
    static let fileProperties: [AudioFilePropertyID] = [
        kAudioFilePropertyFileFormat, kAudioFilePropertyDataFormat, kAudioFilePropertyIsOptimized,
        kAudioFilePropertyMagicCookieData, kAudioFilePropertyAudioDataByteCount, kAudioFilePropertyAudioDataPacketCount,
        kAudioFilePropertyMaximumPacketSize, kAudioFilePropertyDataOffset, kAudioFilePropertyChannelLayout,
        kAudioFilePropertyDeferSizeUpdates, kAudioFilePropertyMarkerList, kAudioFilePropertyRegionList,
        kAudioFilePropertyPacketToFrame, kAudioFilePropertyFrameToPacket, kAudioFilePropertyPacketToByte,
        kAudioFilePropertyByteToPacket, kAudioFilePropertyPacketTableInfo, kAudioFilePropertyPacketSizeUpperBound,
        kAudioFilePropertyReserveDuration, kAudioFilePropertyEstimatedDuration, kAudioFilePropertyBitRate,
        kAudioFilePropertyID3Tag, kAudioFilePropertySourceBitDepth, kAudioFilePropertyAudioTrackCount,
        kAudioFilePropertyUseAudioTrack,
    ]

    static let converterProperties: [AudioConverterPropertyID] = [
        kAudioConverterPropertyMinimumInputBufferSize, kAudioConverterPropertyMinimumOutputBufferSize,
        kAudioConverterPropertyMaximumInputPacketSize, kAudioConverterPropertyMaximumOutputPacketSize,
        kAudioConverterPropertyCalculateInputBufferSize, kAudioConverterPropertyCalculateOutputBufferSize,
        kAudioConverterSampleRateConverterQuality, kAudioConverterSampleRateConverterComplexity, kAudioConverterPrimeMethod,
        kAudioConverterPrimeInfo, kAudioConverterChannelMap, kAudioConverterCurrentOutputStreamDescription,
        kAudioConverterCurrentInputStreamDescription, kAudioConverterInputChannelLayout, kAudioConverterOutputChannelLayout,
    ]

    /// Get with Info's size: (status, the size Get reported, the status for one byte less).
    static func getWithInfoSize(_ size: UInt32, _ get: (UnsafeMutablePointer<UInt32>, UnsafeMutableRawPointer) -> OSStatus) -> (OSStatus, UInt32, OSStatus?) {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: Int(size) + 1, alignment: 16)
        defer { buffer.deallocate() }
        buffer.initializeMemory(as: UInt8.self, repeating: 0, count: Int(size) + 1)
        var ioSize = size
        let status = get(&ioSize, buffer)
        var short: OSStatus?
        if size > 0 {
            buffer.initializeMemory(as: UInt8.self, repeating: 0, count: Int(size))
            var less = size - 1
            short = get(&less, buffer)
        }
        return (status, ioSize, short)
    }

    @Test func wavePropertiesGetWhatInfoSays() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sizes-\(UUID().uuidString).wav")
        defer { try? FileManager.default.removeItem(at: url) }
        var format = AudioStreamBasicDescription(mSampleRate: 44100, mFormatID: kAudioFormatLinearPCM,
                                                 mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked,
                                                 mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4, mChannelsPerFrame: 2,
                                                 mBitsPerChannel: 16, mReserved: 0)
        var created: AudioFileID?
        try #require(AudioFileCreateWithURL(url as CFURL, kAudioFileWAVEType, &format, .eraseFile, &created) == noErr)
        var samples = [Int16](repeating: 1000, count: 2 * 4410)
        var packets = UInt32(4410)
        #expect(AudioFileWritePackets(created!, false, UInt32(samples.count * 2), nil, 0, &packets, &samples) == noErr)
        #expect(AudioFileClose(created!) == noErr)

        var opened: AudioFileID?
        try #require(AudioFileOpenURL(url as CFURL, .readPermission, kAudioFileWAVEType, &opened) == noErr)
        let file = try #require(opened)
        defer { AudioFileClose(file) }
        var answered = 0
        for id in Self.fileProperties {
            var size: UInt32 = 0
            guard AudioFileGetPropertyInfo(file, id, &size, nil) == noErr else { continue }
            answered += 1
            let (status, got, short) = Self.getWithInfoSize(size) { AudioFileGetProperty(file, id, $0, $1) }
            #expect(status == noErr && got == size, "property \(id): Info \(size), Get \(got) (\(status))")
            if let short { #expect(short == kAudioFileBadPropertySizeError, "property \(id): one byte short \(short)") }
        }
        #expect(answered >= 10)
    }

    @Test func pcmConverterPropertiesGetWhatInfoSays() throws {
        var from = AudioStreamBasicDescription(mSampleRate: 44100, mFormatID: kAudioFormatLinearPCM,
                                               mFormatFlags: kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked,
                                               mBytesPerPacket: 8, mFramesPerPacket: 1, mBytesPerFrame: 8, mChannelsPerFrame: 2,
                                               mBitsPerChannel: 32, mReserved: 0)
        var to = AudioStreamBasicDescription(mSampleRate: 48000, mFormatID: kAudioFormatLinearPCM,
                                             mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked,
                                             mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4, mChannelsPerFrame: 2,
                                             mBitsPerChannel: 16, mReserved: 0)
        var made: AudioConverterRef?
        try #require(AudioConverterNew(&from, &to, &made) == noErr)
        let converter = try #require(made)
        defer { AudioConverterDispose(converter) }
        var answered = 0
        for id in Self.converterProperties {
            var size: UInt32 = 0
            guard AudioConverterGetPropertyInfo(converter, id, &size, nil) == noErr else { continue }
            answered += 1
            let (status, got, short) = Self.getWithInfoSize(size) { AudioConverterGetProperty(converter, id, $0, $1) }
            #expect(status == noErr && got == size, "property \(id): Info \(size), Get \(got) (\(status))")
            if let short { #expect(short == kAudioConverterErr_BadPropertySizeError, "property \(id): one byte short \(short)") }
        }
        #expect(answered >= 10)
    }
}
