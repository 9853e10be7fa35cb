import AudioToolbox
import Foundation
import Testing

/// Audio Format Services' channel-layout properties and the converter's channel mixing. Expected values are
/// written out here from CoreAudioBaseTypes.h's channel orders and ITU-R BS.775's downmix equations.
@Suite struct ChannelLayoutTests {
    static let h = 0.5.squareRoot()

    static func layout(_ tag: AudioChannelLayoutTag) -> [UInt8] {
        var l = AudioChannelLayout()
        l.mChannelLayoutTag = tag
        return withUnsafeBytes(of: &l) { Array($0.prefix(12)) }
    }

    static func described(_ labels: [AudioChannelLabel]) -> [UInt8] {
        var bytes = withUnsafeBytes(of: kAudioChannelLayoutTag_UseChannelDescriptions) { Array($0) }
        bytes += withUnsafeBytes(of: UInt32(0)) { Array($0) } + withUnsafeBytes(of: UInt32(labels.count)) { Array($0) }
        for label in labels {
            bytes += withUnsafeBytes(of: AudioChannelDescription(mChannelLabel: label, mChannelFlags: [], mCoordinates: (0, 0, 0))) { Array($0) }
        }
        return bytes
    }

    /// A property whose specifier is two layout pointers, as raw bytes.
    static func pairProperty(_ id: AudioFormatPropertyID, _ a: [UInt8], _ b: [UInt8]) -> (OSStatus, [UInt8]) {
        a.withUnsafeBytes { pa in b.withUnsafeBytes { pb in
            let pointers = [UnsafeRawPointer(pa.baseAddress!), UnsafeRawPointer(pb.baseAddress!)]
            return pointers.withUnsafeBytes { spec -> (OSStatus, [UInt8]) in
                var size: UInt32 = 0
                let info = AudioFormatGetPropertyInfo(id, UInt32(spec.count), spec.baseAddress, &size)
                guard info == noErr else { return (info, []) }
                var out = [UInt8](repeating: 0, count: Int(size))
                let status = out.withUnsafeMutableBytes { AudioFormatGetProperty(id, UInt32(spec.count), spec.baseAddress, &size, $0.baseAddress) }
                return (status, Array(out.prefix(Int(size))))
            }
        } }
    }

    static func floats(_ bytes: [UInt8]) -> [Double] {
        stride(from: 0, to: bytes.count, by: 4).map { i in Double(bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: i, as: Float32.self) }) }
    }

    static func string(_ id: AudioFormatPropertyID, _ spec: [UInt8]) -> String? {
        var name: Unmanaged<CFString>?
        var size = UInt32(MemoryLayout<Unmanaged<CFString>?>.size)
        let status = spec.withUnsafeBytes { AudioFormatGetProperty(id, UInt32($0.count), $0.baseAddress, &size, &name) }
        guard status == noErr, let name else { return nil }
        return name.takeRetainedValue() as String
    }

    /// The families added from CoreAudioBaseTypes.h's comments (Atmos, DTS, CICP) and the ambisonic tags, whose
    /// labels carry the normalisation and the ACN index.
    @Test func layoutForTagKnowsTheImmersiveAndAmbisonicFamilies() throws {
        func labels(_ tag: AudioChannelLayoutTag) -> [UInt8]? {
            var tag = tag
            var size: UInt32 = 0
            guard AudioFormatGetPropertyInfo(kAudioFormatProperty_ChannelLayoutForTag, 4, &tag, &size) == noErr else { return nil }
            var out = [UInt8](repeating: 0, count: Int(size))
            guard out.withUnsafeMutableBytes({ AudioFormatGetProperty(kAudioFormatProperty_ChannelLayoutForTag, 4, &tag, &size, $0.baseAddress) }) == noErr else { return nil }
            return out
        }
        #expect(labels(kAudioChannelLayoutTag_Atmos_7_1_4) == Self.described([
            kAudioChannelLabel_Left, kAudioChannelLabel_Right, kAudioChannelLabel_Center, kAudioChannelLabel_LFEScreen,
            kAudioChannelLabel_LeftSurround, kAudioChannelLabel_RightSurround, kAudioChannelLabel_RearSurroundLeft,
            kAudioChannelLabel_RearSurroundRight, kAudioChannelLabel_VerticalHeightLeft, kAudioChannelLabel_VerticalHeightRight,
            kAudioChannelLabel_LeftTopRear, kAudioChannelLabel_RightTopRear]))
        #expect(labels(kAudioChannelLayoutTag_DTS_3_1) == Self.described([kAudioChannelLabel_Center, kAudioChannelLabel_Left,
                                                                          kAudioChannelLabel_Right, kAudioChannelLabel_LFEScreen]))
        #expect(labels(kAudioChannelLayoutTag_HOA_ACN_SN3D | 4) == Self.described([kAudioChannelLabel_HOA_ACN_0, kAudioChannelLabel_HOA_ACN_1,
                                                                                    kAudioChannelLabel_HOA_ACN_2, kAudioChannelLabel_HOA_ACN_3]))
        #expect(labels(kAudioChannelLayoutTag_HOA_ACN_N3D | 2) == Self.described([kAudioChannelLabel_HOA_N3D, kAudioChannelLabel_HOA_N3D | 1]))
        // An alias names the same layout as the tag it aliases.
        #expect(labels(kAudioChannelLayoutTag_Logic_Atmos_7_1_4_A) == labels(kAudioChannelLayoutTag_Atmos_7_1_4))
        #expect(Self.string(kAudioFormatProperty_ChannelLayoutName, Self.layout(kAudioChannelLayoutTag_Atmos_5_1_2)) == "Atmos 5.1.2 (L R C LFE Ls Rs Ltm Rtm)")
        #expect(Self.string(kAudioFormatProperty_ChannelLayoutSimpleName, Self.layout(kAudioChannelLayoutTag_WAVE_5_1_B)) == "5.1")
    }

    @Test func layoutForTagListsTheChannelsInOrder() throws {
        var tag = kAudioChannelLayoutTag_MPEG_5_1_D
        var size: UInt32 = 0
        #expect(AudioFormatGetPropertyInfo(kAudioFormatProperty_ChannelLayoutForTag, 4, &tag, &size) == noErr)
        #expect(size == 12 + 6 * 20)
        var out = [UInt8](repeating: 0, count: Int(size))
        #expect(out.withUnsafeMutableBytes { AudioFormatGetProperty(kAudioFormatProperty_ChannelLayoutForTag, 4, &tag, &size, $0.baseAddress) } == noErr)
        #expect(out == Self.described([kAudioChannelLabel_Center, kAudioChannelLabel_Left, kAudioChannelLabel_Right,
                                       kAudioChannelLabel_LeftSurround, kAudioChannelLabel_RightSurround, kAudioChannelLabel_LFEScreen]))
        // A bitmap names the same channels as its tag; a tag made of bitmap channels gives its bitmap.
        var bitmap: UInt32 = 0
        size = 4
        tag = kAudioChannelLayoutTag_MPEG_5_1_A
        #expect(AudioFormatGetProperty(kAudioFormatProperty_BitmapForLayoutTag, 4, &tag, &size, &bitmap) == noErr)
        #expect(bitmap == 0b111111)
        tag = kAudioChannelLayoutTag_MPEG_5_1_D  // C L R ...: not in bitmap order
        #expect(AudioFormatGetProperty(kAudioFormatProperty_BitmapForLayoutTag, 4, &tag, &size, &bitmap) == kAudioFormatUnknownFormatError)
        // Descriptions reduce to their tag.
        var found: AudioChannelLayoutTag = 0
        size = 4
        let stereo = Self.described([kAudioChannelLabel_Left, kAudioChannelLabel_Right])
        #expect(stereo.withUnsafeBytes { AudioFormatGetProperty(kAudioFormatProperty_TagForChannelLayout, UInt32($0.count), $0.baseAddress, &size, &found) } == noErr)
        #expect(found == kAudioChannelLayoutTag_Stereo)
        // Six channels: the 5.1 orders among the tags, and discrete in order.
        var six: UInt32 = 6
        #expect(AudioFormatGetPropertyInfo(kAudioFormatProperty_TagsForNumberOfChannels, 4, &six, &size) == noErr)
        var tags = [AudioChannelLayoutTag](repeating: 0, count: Int(size) / 4)
        #expect(AudioFormatGetProperty(kAudioFormatProperty_TagsForNumberOfChannels, 4, &six, &size, &tags) == noErr)
        #expect(tags.contains(kAudioChannelLayoutTag_MPEG_5_1_A) && tags.contains(kAudioChannelLayoutTag_AudioUnit_6_0))
        #expect(tags.last == kAudioChannelLayoutTag_DiscreteInOrder | 6)
    }

    @Test func namesAsAppleWritesThem() {
        #expect(Self.string(kAudioFormatProperty_ChannelLayoutName, Self.layout(kAudioChannelLayoutTag_MPEG_5_1_A)) == "5.1 (L R C LFE Ls Rs)")
        #expect(Self.string(kAudioFormatProperty_ChannelLayoutName, Self.layout(kAudioChannelLayoutTag_Stereo)) == "Stereo (L R)")
        #expect(Self.string(kAudioFormatProperty_ChannelLayoutName, Self.layout(kAudioChannelLayoutTag_Mono)) == "Mono")
        #expect(Self.string(kAudioFormatProperty_ChannelLayoutSimpleName, Self.layout(kAudioChannelLayoutTag_MPEG_7_1_C)) == "7.1")
        #expect(Self.string(kAudioFormatProperty_ChannelLayoutName, Self.layout(kAudioChannelLayoutTag_Unknown | 2)) == nil)
        let lfe = withUnsafeBytes(of: AudioChannelDescription(mChannelLabel: kAudioChannelLabel_LFEScreen, mChannelFlags: [], mCoordinates: (0, 0, 0))) { Array($0) }
        #expect(Self.string(kAudioFormatProperty_ChannelName, lfe) == "LFE Screen")
        #expect(Self.string(kAudioFormatProperty_ChannelShortName, lfe) == "LFE")
    }

    @Test func validationAndEquivalence() {
        func validate(_ bytes: [UInt8]) -> OSStatus {
            bytes.withUnsafeBytes { AudioFormatGetProperty(kAudioFormatProperty_ValidateChannelLayout, UInt32($0.count), $0.baseAddress, nil, nil) }
        }
        #expect(validate(Self.layout(kAudioChannelLayoutTag_MPEG_5_1_A)) == noErr)
        #expect(validate(Self.layout((250 << 16) | 3)) == kAudioFormatUnknownFormatError)  // no such tag
        #expect(validate(Self.described([kAudioChannelLabel_Left, 9999])) == kAudioFormatUnknownFormatError)
        var truncated = Self.described([kAudioChannelLabel_Left, kAudioChannelLabel_Right])
        truncated.removeLast(10)
        #expect(validate(truncated) == kAudio_ParamError)
        let (status, equal) = Self.pairProperty(kAudioFormatProperty_AreChannelLayoutsEquivalent, Self.layout(kAudioChannelLayoutTag_Stereo),
                                                Self.described([kAudioChannelLabel_Left, kAudioChannelLabel_Right]))
        #expect(status == noErr && equal == [1, 0, 0, 0])
        let (_, different) = Self.pairProperty(kAudioFormatProperty_AreChannelLayoutsEquivalent, Self.layout(kAudioChannelLayoutTag_MPEG_5_1_A),
                                               Self.layout(kAudioChannelLayoutTag_MPEG_5_1_D))
        #expect(different == [0, 0, 0, 0])
    }

    /// BS.775 3/2 -> 2/0: Lo = L + 0.7071 C + 0.7071 Ls, Ro = R + 0.7071 C + 0.7071 Rs; LFE left out. 3/2 -> 1/0:
    /// M = 0.7071 (L + R) + C + 0.5 (Ls + Rs). Rows are input channels.
    @Test func matrixMixMapIsTheITUDownmix() throws {
        let h = Self.h
        let (status, bytes) = Self.pairProperty(kAudioFormatProperty_MatrixMixMap, Self.layout(kAudioChannelLayoutTag_MPEG_5_1_A),
                                                Self.layout(kAudioChannelLayoutTag_Stereo))
        #expect(status == noErr)
        let expected: [Double] = [1, 0, 0, 1, h, h, 0, 0, h, 0, 0, h]  // L R C LFE Ls Rs
        let got = Self.floats(bytes)
        #expect(got.count == 12)
        #expect(zip(got, expected).allSatisfy { abs($0 - $1) < 1e-7 }, "\(got)")
        let (_, mono) = Self.pairProperty(kAudioFormatProperty_MatrixMixMap, Self.layout(kAudioChannelLayoutTag_MPEG_5_1_A),
                                          Self.layout(kAudioChannelLayoutTag_Mono))
        #expect(zip(Self.floats(mono), [h, h, 1, 0, 0.5, 0.5]).allSatisfy { abs($0 - $1) < 1e-7 }, "\(Self.floats(mono))")
        // Reordering: 5.1 A (L R C LFE Ls Rs) into 5.1 D (C L R Ls Rs LFE).
        let (_, map) = Self.pairProperty(kAudioFormatProperty_ChannelMap, Self.layout(kAudioChannelLayoutTag_MPEG_5_1_A),
                                         Self.layout(kAudioChannelLayoutTag_MPEG_5_1_D))
        let indices = stride(from: 0, to: map.count, by: 4).map { i in map.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: i, as: Int32.self) } }
        #expect(indices == [2, 0, 1, 4, 5, 3])
        // Discrete channels have no position: no standard mix.
        let (discrete, _) = Self.pairProperty(kAudioFormatProperty_MatrixMixMap, Self.layout(kAudioChannelLayoutTag_DiscreteInOrder | 3),
                                              Self.layout(kAudioChannelLayoutTag_Stereo))
        #expect(discrete == kAudioFormatUnknownFormatError)
    }

    static func float32(_ channels: UInt32) -> AudioStreamBasicDescription {
        AudioStreamBasicDescription(mSampleRate: 48000, mFormatID: kAudioFormatLinearPCM, mFormatFlags: kAudioFormatFlagsNativeFloatPacked,
                                    mBytesPerPacket: 4 * channels, mFramesPerPacket: 1, mBytesPerFrame: 4 * channels,
                                    mChannelsPerFrame: channels, mBitsPerChannel: 32, mReserved: 0)
    }

    /// Converts `frames` interleaved frames of `input` through a converter set up by `configure`.
    static func convert(_ input: [Float], from: UInt32, to: UInt32, configure: (AudioConverterRef) -> Void) throws -> [Float] {
        var inFormat = float32(from), outFormat = float32(to)
        var converter: AudioConverterRef?
        try #require(AudioConverterNew(&inFormat, &outFormat, &converter) == noErr)
        defer { AudioConverterDispose(converter!) }
        configure(converter!)
        let frames = input.count / Int(from)
        var output = [Float](repeating: .nan, count: frames * Int(to))
        var outBytes = UInt32(output.count * 4)
        let status = input.withUnsafeBytes { i in output.withUnsafeMutableBytes { o in
            AudioConverterConvertBuffer(converter!, UInt32(i.count), i.baseAddress!, &outBytes, o.baseAddress!)
        } }
        try #require(status == noErr, "AudioConverterConvertBuffer: \(status)")
        return output
    }

    static func setLayout(_ converter: AudioConverterRef, _ id: AudioConverterPropertyID, _ tag: AudioChannelLayoutTag) {
        let bytes = layout(tag)
        let status = bytes.withUnsafeBytes { AudioConverterSetProperty(converter, id, UInt32($0.count), $0.baseAddress!) }
        #expect(status == noErr)
    }

    static let frames = 64
    /// Six channels of distinct values per frame: channel c at frame i is (c + 1) / 10 + i / 1000.
    static let sixChannels: [Float] = (0..<frames * 6).map { (n: Int) -> Float in
        let channel = Double(n % 6 + 1), frame = Double(n / 6)
        return Float(channel / 10 + frame / 1000)
    }

    @Test func performDownmixMixesByTheLayouts() throws {
        let out = try Self.convert(Self.sixChannels, from: 6, to: 2) { c in
            Self.setLayout(c, kAudioConverterInputChannelLayout, kAudioChannelLayoutTag_MPEG_5_1_A)
            Self.setLayout(c, kAudioConverterOutputChannelLayout, kAudioChannelLayoutTag_Stereo)
            var on: UInt32 = 1
            #expect(AudioConverterSetProperty(c, kAudioConverterPropertyPerformDownmix, 4, &on) == noErr)
        }
        for i in 0..<Self.frames {
            let x = (0..<6).map { Double(Self.sixChannels[i * 6 + $0]) }
            let left = x[0] + Self.h * x[2] + Self.h * x[4], right = x[1] + Self.h * x[2] + Self.h * x[5]
            #expect(abs(Double(out[i * 2]) - left) < 1e-6 && abs(Double(out[i * 2 + 1]) - right) < 1e-6, "frame \(i)")
        }
    }

    @Test func withoutDownmixTheFirstChannelsPassAndAMixMapIsUsedAsGiven() throws {
        // Apple's default: In > Out routes the first Out inputs.
        let plain = try Self.convert(Self.sixChannels, from: 6, to: 2) { _ in }
        for i in 0..<Self.frames {
            #expect(plain[i * 2] == Self.sixChannels[i * 6] && plain[i * 2 + 1] == Self.sixChannels[i * 6 + 1])
        }
        // A client's mix map (rows are inputs): out0 = 0.25 in2 + 0.5 in5, out1 = in3.
        var gains = [Float32](repeating: 0, count: 12)
        gains[2 * 2 + 0] = 0.25; gains[5 * 2 + 0] = 0.5; gains[3 * 2 + 1] = 1
        let mixed = try Self.convert(Self.sixChannels, from: 6, to: 2) { c in
            var on: UInt32 = 1
            #expect(AudioConverterSetProperty(c, kAudioConverterPropertyPerformDownmix, 4, &on) == noErr)
            #expect(AudioConverterSetProperty(c, kAudioConverterPropertyChannelMixMap, 48, &gains) == noErr)
            #expect(AudioConverterSetProperty(c, kAudioConverterPropertyChannelMixMap, 44, &gains) == kAudioConverterErr_BadPropertySizeError)
        }
        for i in 0..<Self.frames {
            let x = (0..<6).map { Double(Self.sixChannels[i * 6 + $0]) }
            #expect(abs(Double(mixed[i * 2]) - (0.25 * x[2] + 0.5 * x[5])) < 1e-6 && Double(mixed[i * 2 + 1]) == x[3])
        }
    }

    @Test func layoutsReorderChannelsUnlessAChannelMapIsSet() throws {
        let reordered = try Self.convert(Self.sixChannels, from: 6, to: 6) { c in
            Self.setLayout(c, kAudioConverterInputChannelLayout, kAudioChannelLayoutTag_MPEG_5_1_A)
            Self.setLayout(c, kAudioConverterOutputChannelLayout, kAudioChannelLayoutTag_MPEG_5_1_D)
        }
        for i in 0..<Self.frames {  // D is C L R Ls Rs LFE; A is L R C LFE Ls Rs
            for (c, source) in [2, 0, 1, 4, 5, 3].enumerated() { #expect(reordered[i * 6 + c] == Self.sixChannels[i * 6 + source]) }
        }
        let mapped = try Self.convert(Self.sixChannels, from: 6, to: 6) { c in
            var map: [Int32] = [5, 4, 3, 2, 1, 0]
            #expect(AudioConverterSetProperty(c, kAudioConverterChannelMap, 24, &map) == noErr)
            Self.setLayout(c, kAudioConverterInputChannelLayout, kAudioChannelLayoutTag_MPEG_5_1_A)
            Self.setLayout(c, kAudioConverterOutputChannelLayout, kAudioChannelLayoutTag_MPEG_5_1_D)
        }
        for i in 0..<Self.frames {
            for c in 0..<6 { #expect(mapped[i * 6 + c] == Self.sixChannels[i * 6 + 5 - c]) }
        }
    }
}
