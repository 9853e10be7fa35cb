/// Stream-format checks shared by the units, after the rules of Apple's AudioUnitSDK.
enum AUFormatRules {
    /// Sanity limits every StreamFormat set must pass (else kAudioUnitErr_FormatNotSupported).
    static func passesMinimalSafetyCheck(_ f: AudioStreamBasicDescription) -> Bool {
        guard f.mSampleRate >= 0, f.mSampleRate < 3e6, f.mSampleRate.isFinite else { return false }
        guard f.mBytesPerPacket < 1_000_000, f.mFramesPerPacket < 1_000_000, f.mBytesPerFrame < 1_000_000 else { return false }
        guard f.mChannelsPerFrame >= 1, f.mChannelsPerFrame <= 1024, f.mBitsPerChannel <= 1024 else { return false }
        guard f.mFormatID != 0 else { return false }
        if f.mFormatID == kAudioFormatLinearPCM {
            return f.mFramesPerPacket == 1 && f.mBytesPerPacket == f.mBytesPerFrame
        }
        return true
    }

    /// Native-endian Float32, non-interleaved (or interleaved mono): what plain units accept.
    static func isCommonFloat32(_ f: AudioStreamBasicDescription) -> Bool {
        guard f.mFormatID == kAudioFormatLinearPCM, f.mFramesPerPacket == 1, f.mBytesPerPacket == f.mBytesPerFrame,
              f.mFormatFlags & kAudioFormatFlagIsFloat != 0, f.mFormatFlags & kAudioFormatFlagIsBigEndian == 0,
              f.mBitsPerChannel == 32 else { return false }
        let nonInterleaved = f.mFormatFlags & kAudioFormatFlagIsNonInterleaved != 0
        guard f.mChannelsPerFrame == 1 || nonInterleaved else { return false }
        return f.mBytesPerFrame == 4 * (nonInterleaved ? 1 : f.mChannelsPerFrame)
    }

    /// Any self-consistent linear PCM layout: integer 8/16/24/32-bit or float 32/64-bit, packed or
    /// padded to the sample width, either endianness, interleaved or not. What I/O units accept.
    static func isConsistentLinearPCM(_ f: AudioStreamBasicDescription) -> Bool {
        guard f.mFormatID == kAudioFormatLinearPCM, f.mFramesPerPacket == 1, f.mBytesPerPacket == f.mBytesPerFrame,
              f.mChannelsPerFrame >= 1, f.mBitsPerChannel > 0 else { return false }
        let isFloat = f.mFormatFlags & kAudioFormatFlagIsFloat != 0
        if isFloat && f.mBitsPerChannel != 32 && f.mBitsPerChannel != 64 { return false }
        let nonInterleaved = f.mFormatFlags & kAudioFormatFlagIsNonInterleaved != 0
        let perBuffer = nonInterleaved ? 1 : f.mChannelsPerFrame
        guard f.mBytesPerFrame % perBuffer == 0 else { return false }
        let sampleBytes = f.mBytesPerFrame / perBuffer
        return sampleBytes >= 1 && sampleBytes <= 8 && sampleBytes * 8 >= f.mBitsPerChannel
    }
}
