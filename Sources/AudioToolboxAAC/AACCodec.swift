// AAC for AudioConverter, AudioFile and ExtAudioFile, through Debian's libavcodec: decoding of AAC LC, HE-AAC and
// HE-AAC v2, encoding of AAC LC. A product of its own, so the core carries no FFmpeg: a program that links it
// (`import AudioToolboxAAC`; the tools do) has the codec registered before main runs.
//
// Threading: a converter's codec is used on one thread at a time, as every codec here.
@_exported import AudioToolbox
import CAudioToolboxAACRegistration

/// The AAC codec entries (one per format ID Apple gives the AAC family) and their registration.
enum AACCodec {
    /// Registers the decoders for AAC LC / HE / HE v2 and the LC encoder (called at load time).
    static func register() {
        for id in [kAudioFormatMPEG4AAC, kAudioFormatMPEG4AAC_HE, kAudioFormatMPEG4AAC_HE_V2] {
            CodecRegistry.register(entry(id))
        }
    }

    typealias EncoderFactory = @Sendable (AudioStreamBasicDescription, AudioStreamBasicDescription) throws(OSStatusError) -> PacketEncoder

    static func entry(_ id: AudioFormatID) -> CodecEntry {
        var encoder: EncoderFactory? = nil
        if id == kAudioFormatMPEG4AAC {
            encoder = { (output: AudioStreamBasicDescription, _: AudioStreamBasicDescription) throws(OSStatusError) -> PacketEncoder in
                try AACPacketEncoder(format: output)
            }
        }
        let name = id == kAudioFormatMPEG4AAC ? "MPEG-4 AAC" : id == kAudioFormatMPEG4AAC_HE ? "MPEG-4 HE AAC" : "MPEG-4 HE AAC V2"
        var e = CodecEntry(
            formatID: id, name: name,
            completeFormat: { f, cookie in complete(f, cookie) },
            makeDecoder: { (f: AudioStreamBasicDescription, cookie: [UInt8]?) throws(OSStatusError) -> PacketDecoder in
                try AACPacketDecoder(format: f, cookie: cookie)
            },
            makeEncoder: encoder)
        e.encodeSampleRates = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000, 64000, 88200, 96000]
        e.maximumEncodeChannels = 8
        // Overlapped transforms: the packet before a seek target settles the decoder.
        e.seekPrerollPackets = 2
        return e
    }

    /// Fills what the format fixes: 1,024 frames a packet (2,048 for HE), variable packet sizes; a cookie's
    /// AudioSpecificConfig decides rate and channels when the description lacks them.
    static func complete(_ f: AudioStreamBasicDescription, _ cookie: [UInt8]?) -> AudioStreamBasicDescription? {
        var d = f
        if let cookie, let es = ESDescriptor(cookie), let described = es.streamDescription {
            if d.mSampleRate == 0 { d.mSampleRate = described.mSampleRate }
            if d.mChannelsPerFrame == 0 { d.mChannelsPerFrame = described.mChannelsPerFrame }
        }
        let he = f.mFormatID == kAudioFormatMPEG4AAC_HE || f.mFormatID == kAudioFormatMPEG4AAC_HE_V2
        if d.mFramesPerPacket == 0 { d.mFramesPerPacket = he ? 2048 : 1024 }
        if f.mFormatID == kAudioFormatMPEG4AAC_HE_V2 { d.mChannelsPerFrame = 2 }
        d.mFormatFlags = 0
        d.mBytesPerPacket = 0
        d.mBytesPerFrame = 0
        d.mBitsPerChannel = 0
        return d
    }

    /// An ES_Descriptor (Apple's AAC magic cookie, an esds box's body) around an AudioSpecificConfig.
    static func esDescriptor(audioSpecificConfig asc: [UInt8], averageBitRate: UInt32, maximumBitRate: UInt32) -> [UInt8] {
        func descriptor(_ tag: UInt8, _ body: [UInt8]) -> [UInt8] {
            // The 4-byte expandable length Apple writes.
            let n = body.count
            return [tag, UInt8(0x80 | (n >> 21) & 0x7F), UInt8(0x80 | (n >> 14) & 0x7F), UInt8(0x80 | (n >> 7) & 0x7F), UInt8(n & 0x7F)] + body
        }
        func u32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        let decoderSpecific = descriptor(0x05, asc)
        // Object type 0x40 (MPEG-4 audio), stream type audio (0x05 << 2 | 1), a 6,144-bit-per-channel buffer.
        let config = descriptor(0x04, [0x40, 0x15, 0x00, 0x18, 0x00] + u32(maximumBitRate) + u32(averageBitRate) + decoderSpecific)
        let sl = descriptor(0x06, [0x02])
        return descriptor(0x03, [0x00, 0x00, 0x00] + config + sl)
    }
}

/// The registration entry point the load-time constructor calls.
@_cdecl("oca_register_aac_codec")
func registerAACCodec() { AACCodec.register() }
