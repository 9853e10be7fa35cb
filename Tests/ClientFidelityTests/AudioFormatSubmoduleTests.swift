// `import AudioToolbox.AudioFormat` and `AudioToolbox.AudioCodec`, as clients write them.
import AudioToolbox.AudioFormat
import AudioToolbox.AudioCodec
import Testing

@Suite struct AudioFormatSubmoduleTests {
    @Test func submodulesDeclareTheirNames() {
        var size: UInt32 = 0
        #expect(AudioFormatGetPropertyInfo(kAudioFormatProperty_EncodeFormatIDs, 0, nil, &size) == noErr && size >= 4)
        #expect(kAudioDecoderComponentType == 0x6164_6563 && kAudioCodecBadDataError == 0x6261_6461)
        #expect(MemoryLayout<AudioFormatInfo>.size == 56)
    }
}
