/// The interleaved PCM layouts codecs exchange with the converter's PCM stage.
package enum CodecPCMFormat {
    /// Native-endian signed 16-bit, packed, interleaved.
    static func int16(rate: Double, channels: UInt32) -> AudioStreamBasicDescription {
        AudioStreamBasicDescription(mSampleRate: rate, mFormatID: kAudioFormatLinearPCM,
                                    mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked,
                                    mBytesPerPacket: 2 * channels, mFramesPerPacket: 1, mBytesPerFrame: 2 * channels,
                                    mChannelsPerFrame: channels, mBitsPerChannel: 16, mReserved: 0)
    }

    /// Native-endian signed integers of `bits` valid bits, sign-extended in 32-bit containers (low
    /// aligned), interleaved: what the lossless decoders write, whatever the source depth.
    static func int32(bits: UInt32, rate: Double, channels: UInt32) -> AudioStreamBasicDescription {
        AudioStreamBasicDescription(mSampleRate: rate, mFormatID: kAudioFormatLinearPCM,
                                    mFormatFlags: kAudioFormatFlagIsSignedInteger | (bits == 32 ? kAudioFormatFlagIsPacked : 0),
                                    mBytesPerPacket: 4 * channels, mFramesPerPacket: 1, mBytesPerFrame: 4 * channels,
                                    mChannelsPerFrame: channels, mBitsPerChannel: bits, mReserved: 0)
    }

    /// Native-endian Float32, interleaved: what the lossy decoders write.
    package static func float32(rate: Double, channels: UInt32) -> AudioStreamBasicDescription {
        AudioStreamBasicDescription(mSampleRate: rate, mFormatID: kAudioFormatLinearPCM,
                                    mFormatFlags: kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked,
                                    mBytesPerPacket: 4 * channels, mFramesPerPacket: 1, mBytesPerFrame: 4 * channels,
                                    mChannelsPerFrame: channels, mBitsPerChannel: 32, mReserved: 0)
    }
}
