import Testing
@testable import AudioToolbox

/// The magic cookie in every form Apple's decoder accepts, and the forms we write.
@Suite struct ALACCookieTests {
    /// Apple's encoder defaults for 16-bit stereo at 44.1 kHz, with statistics filled in.
    static let config = ALACSpecificConfig(frameLength: 4096, bitDepth: 16, numChannels: 2, maxFrameBytes: 0x1234,
                                           avgBitRate: 0x0A0B0C0D, sampleRate: 44100)
    static let bare: [UInt8] = [0, 0, 0x10, 0, 0, 16, 40, 10, 14, 2, 0, 255, 0, 0, 0x12, 0x34, 0x0A, 0x0B, 0x0C, 0x0D, 0, 0, 0xAC, 0x44]
    static let alacAtom: [UInt8] = [0, 0, 0, 36] + Array("alac".utf8) + [0, 0, 0, 0]
    static let frmaAtom: [UInt8] = [0, 0, 0, 12] + Array("frma".utf8) + Array("alac".utf8)

    /// The 24-byte config is written big-endian, field by field.
    @Test func writesTheBigEndianConfig() {
        #expect(Self.config.cookieBytes == Self.bare)
        #expect(Self.config.magicCookie == Self.bare)
    }

    /// The bare config parses from an array and from a slice.
    @Test func parsesTheBareConfig() throws {
        #expect(try ALACSpecificConfig(cookie: Self.bare) == Self.config)
        #expect(try ALACSpecificConfig(cookie: Self.bare[...]) == Self.config)
    }

    /// The config behind an 'alac' atom header (MP4 sample entries) parses.
    @Test func parsesTheMP4AlacAtomForm() throws {
        #expect(try ALACSpecificConfig(cookie: Self.alacAtom + Self.bare) == Self.config)
    }

    /// The config behind 'frma' and/or 'alac' atoms parses, with or without a terminator after it.
    @Test func parsesTheFrmaAndAlacForm() throws {
        // FFmpeg's CAF 'kuki' and QuickTime's 'wave' contents (which end with an 8-byte terminator atom).
        #expect(try ALACSpecificConfig(cookie: Self.frmaAtom + Self.alacAtom + Self.bare) == Self.config)
        #expect(try ALACSpecificConfig(cookie: Self.frmaAtom + Self.alacAtom + Self.bare + [0, 0, 0, 8, 0, 0, 0, 0]) == Self.config)
        #expect(try ALACSpecificConfig(cookie: Self.frmaAtom + Self.bare) == Self.config)
    }

    /// The 48-byte form with a 'chan' atom, as Apple's encoder writes it for more than 2 channels.
    @Test func writesAndParsesTheChannelLayoutAtom() throws {
        var six = Self.config
        six.numChannels = 6
        let tag: UInt32 = 124 << 16 | 6
        let cookie = six.cookieBytes(withChannelLayoutTag: tag)
        #expect(cookie.count == 48)
        #expect(Array(cookie[24...]) == [0, 0, 0, 24] + Array("chan".utf8) + [0, 0, 0, 0, 0, 124, 0, 6, 0, 0, 0, 0, 0, 0, 0, 0])
        #expect(six.magicCookie == cookie)
        var parsed = try ALACSpecificConfig(cookie: cookie)
        #expect(parsed.channelLayoutTag == tag)
        parsed.channelLayoutTag = nil
        #expect(parsed == six)
        #expect(try ALACSpecificConfig(cookie: Self.frmaAtom + Self.alacAtom + cookie).channelLayoutTag == tag)
        #expect(ALACSpecificConfig.channelLayoutTag(forChannels: 3) == UInt32(113 << 16 | 3))
        #expect(ALACSpecificConfig.channelLayoutTag(forChannels: 9) == nil)
    }

    /// Each change applied to the bare config, and the error it must give.
    static let invalid: [(String, @Sendable (inout [UInt8]) -> Void, ALACError)] = [
        ("frameLength 0", { $0[0...3] = [0, 0, 0, 0] }, .invalidCookie),
        ("frameLength 2^31", { $0[0...3] = [0x80, 0, 0, 0] }, .invalidCookie),
        ("frameLength 2^16 + 1", { $0[0...3] = [0, 1, 0, 1] }, .invalidCookie),
        ("compatibleVersion 1", { $0[4] = 1 }, .unsupported),
        ("bitDepth 0", { $0[5] = 0 }, .invalidCookie),
        ("bitDepth 7", { $0[5] = 7 }, .unsupported),
        ("bitDepth 8", { $0[5] = 8 }, .unsupported),
        ("bitDepth 33", { $0[5] = 33 }, .invalidCookie),
        ("bitDepth 255", { $0[5] = 255 }, .invalidCookie),
        ("kb 0", { $0[8] = 0 }, .invalidCookie),
        ("kb 32", { $0[8] = 32 }, .invalidCookie),
        ("kb 255", { $0[8] = 255 }, .invalidCookie),
        ("numChannels 0", { $0[9] = 0 }, .invalidCookie),
        ("numChannels 9", { $0[9] = 9 }, .unsupported),
        ("numChannels 255", { $0[9] = 255 }, .unsupported),
        ("truncated to 23 bytes", { $0.removeLast() }, .invalidCookie),
        ("empty", { $0.removeAll() }, .invalidCookie),
        ("frma atom alone", { $0 = ALACCookieTests.frmaAtom }, .invalidCookie),
        ("alac atom with a short config", { $0 = ALACCookieTests.alacAtom + $0.prefix(20) }, .invalidCookie),
    ]

    /// Each absurd field gives its error, from the cookie parser and from the decoder's init.
    @Test(arguments: 0..<invalid.count)
    func rejectsAbsurdValues(_ index: Int) throws {
        let (name, change, expected) = Self.invalid[index]
        var bytes = Self.bare
        change(&bytes)
        #expect(throws: expected, "\(name)") { try ALACSpecificConfig(cookie: bytes) }
        guard bytes.count == 24 else { return }
        // The decoder applies the same checks to a config built in code.
        var direct = ALACSpecificConfig()
        direct.frameLength = UInt32(bytes[0]) << 24 | UInt32(bytes[1]) << 16 | UInt32(bytes[2]) << 8 | UInt32(bytes[3])
        direct.compatibleVersion = bytes[4]
        direct.bitDepth = bytes[5]
        direct.kb = bytes[8]
        direct.numChannels = bytes[9]
        #expect(throws: expected, "\(name)") { try ALACDecoder(config: direct) }
    }

    /// pb and mb only tune the coder's adaptation: every 8-bit value is valid (and kb 1...31).
    @Test func acceptsEveryPbAndMb() throws {
        for value: UInt8 in [0, 1, 40, 127, 128, 255] {
            var bytes = Self.bare
            bytes[6] = value
            bytes[7] = value
            let config = try ALACSpecificConfig(cookie: bytes)
            #expect(config.pb == value && config.mb == value)
        }
        for kb: UInt8 in [1, 14, 31] {
            var bytes = Self.bare
            bytes[8] = kb
            #expect(try ALACSpecificConfig(cookie: bytes).kb == kb)
        }
    }

    /// Out-of-range encoder settings are refused.
    @Test func encoderRejectsBadParameters() {
        #expect(throws: ALACError.invalidParameter) { try ALACEncoder(channels: 0, bitDepth: 16, sampleRate: 44100) }
        #expect(throws: ALACError.invalidParameter) { try ALACEncoder(channels: 9, bitDepth: 16, sampleRate: 44100) }
        #expect(throws: ALACError.invalidParameter) { try ALACEncoder(channels: 2, bitDepth: 18, sampleRate: 44100) }
        #expect(throws: ALACError.invalidParameter) { try ALACEncoder(channels: 2, bitDepth: 16, sampleRate: 0) }
        #expect(throws: ALACError.invalidParameter) { try ALACEncoder(channels: 2, bitDepth: 16, sampleRate: 44100, frameLength: 0) }
        #expect(throws: ALACError.invalidParameter) { try ALACEncoder(channels: 2, bitDepth: 16, sampleRate: 44100, frameLength: 1 << 20) }
    }

    /// The encoder's config carries Apple's coder parameters and the 'chan' atom for 6 channels.
    @Test func encoderConfigIsApples() throws {
        let encoder = try ALACEncoder(channels: 6, bitDepth: 24, sampleRate: 96000)
        let config = encoder.config
        #expect(config.frameLength == 4096 && config.compatibleVersion == 0 && config.bitDepth == 24)
        #expect(config.pb == 40 && config.mb == 10 && config.kb == 14 && config.maxRun == 255)
        #expect(config.numChannels == 6 && config.sampleRate == 96000)
        #expect(config.magicCookie.count == 48)
        #expect(try ALACSpecificConfig(cookie: config.magicCookie).channelLayoutTag == 124 << 16 | 6)
    }
}
