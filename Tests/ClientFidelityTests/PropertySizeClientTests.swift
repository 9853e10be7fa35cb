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

    /// Every ID of `ids` that `info` answers, read by `get` with exactly Info's size (it must succeed and report that
    /// size) and with one byte less (it must get `badSize`). Answers how many Info answered.
    static func walk(_ ids: [UInt32], badSize: OSStatus, info: (UInt32, UnsafeMutablePointer<UInt32>) -> OSStatus,
                     get: (UInt32, UnsafeMutablePointer<UInt32>, UnsafeMutableRawPointer) -> OSStatus) -> Int {
        var answered = 0
        for id in ids {
            var size: UInt32 = 0
            guard info(id, &size) == noErr else { continue }
            answered += 1
            let (status, got, short) = getWithInfoSize(size) { get(id, $0, $1) }
            #expect(status == noErr && got == size, "property \(id): Info \(size), Get \(got) (\(status))")
            if let short { #expect(short == badSize, "property \(id): one byte short \(short)") }
        }
        return answered
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
        let answered = Self.walk(Self.fileProperties, badSize: kAudioFileBadPropertySizeError,
                                 info: { AudioFileGetPropertyInfo(file, $0, $1, nil) }, get: { AudioFileGetProperty(file, $0, $1, $2) })
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
        let answered = Self.walk(Self.converterProperties, badSize: kAudioConverterErr_BadPropertySizeError,
                                 info: { AudioConverterGetPropertyInfo(converter, $0, $1, nil) },
                                 get: { AudioConverterGetProperty(converter, $0, $1, $2) })
        #expect(answered >= 10)
    }
}
