import Foundation

/// An audio format: an AudioStreamBasicDescription with an optional channel layout and magic cookie.
/// Immutable, except for the magic cookie, as Apple's.
open class AVAudioFormat: NSObject, @unchecked Sendable {
    private let asbd: UnsafeMutablePointer<AudioStreamBasicDescription>
    /// The channel layout, when one was given or the channel count needs one.
    public let channelLayout: AVAudioChannelLayout?
    /// The format's magic cookie (compressed formats that need one).
    public var magicCookie: Data?

    /// The format `asbd` describes; nil when it is invalid.
    public convenience init?(streamDescription asbd: UnsafePointer<AudioStreamBasicDescription>) {
        self.init(streamDescription: asbd, channelLayout: nil)
    }

    /// The format `asbd` describes with `layout`; nil when the description is invalid or the layout's
    /// channel count differs from it.
    public init?(streamDescription asbd: UnsafePointer<AudioStreamBasicDescription>, channelLayout layout: AVAudioChannelLayout?) {
        let f = asbd.pointee
        guard f.mSampleRate >= 0, f.mChannelsPerFrame > 0 || f.mFormatID != kAudioFormatLinearPCM else { return nil }
        if f.mFormatID == kAudioFormatLinearPCM {
            guard f.mBitsPerChannel > 0, f.mBytesPerFrame > 0, f.mFramesPerPacket == 1 else { return nil }
        }
        if let layout, layout.channelCount != f.mChannelsPerFrame { return nil }
        self.asbd = .allocate(capacity: 1)
        self.asbd.initialize(to: f)
        channelLayout = layout
        super.init()
    }

    /// Deinterleaved native Float32 (the standard format) with `channels` channels.
    public convenience init?(standardFormatWithSampleRate sampleRate: Double, channels: AVAudioChannelCount) {
        self.init(commonFormat: .pcmFormatFloat32, sampleRate: sampleRate, channels: channels, interleaved: false)
    }

    /// Deinterleaved native Float32 with the channels of `layout`.
    public convenience init(standardFormatWithSampleRate sampleRate: Double, channelLayout layout: AVAudioChannelLayout) {
        self.init(commonFormat: .pcmFormatFloat32, sampleRate: sampleRate, interleaved: false, channelLayout: layout)
    }

    /// One of the common PCM formats; nil for `.otherFormat` or no channels.
    public convenience init?(commonFormat format: AVAudioCommonFormat, sampleRate: Double, channels: AVAudioChannelCount, interleaved: Bool) {
        guard channels > 0, var f = Self.description(format, sampleRate: sampleRate, channels: channels, interleaved: interleaved)
        else { return nil }
        self.init(streamDescription: &f, channelLayout: nil)
    }

    /// One of the common PCM formats with the channels of `layout`.
    public convenience init(commonFormat format: AVAudioCommonFormat, sampleRate: Double, interleaved: Bool, channelLayout layout: AVAudioChannelLayout) {
        var f = Self.description(format == .otherFormat ? .pcmFormatFloat32 : format, sampleRate: sampleRate,
                                 channels: layout.channelCount, interleaved: interleaved)!
        self.init(streamDescription: &f, channelLayout: layout)!
    }

    /// The format a settings dictionary (AVFormatIDKey, AVSampleRateKey, AVNumberOfChannelsKey, the linear PCM
    /// keys, AVChannelLayoutKey) describes; nil when a required key is missing.
    public convenience init?(settings: [String: Any]) {
        guard let description = Self.description(settings: settings) else { return nil }
        var f = description
        let layout = (settings[AVChannelLayoutKey] as? Data).flatMap { AVAudioChannelLayout(data: $0) }
        self.init(streamDescription: &f, channelLayout: layout?.channelCount == f.mChannelsPerFrame ? layout : nil)
    }

    deinit { asbd.deallocate() }

    // MARK: Properties

    /// The AudioStreamBasicDescription (valid while this object lives).
    public var streamDescription: UnsafePointer<AudioStreamBasicDescription> { UnsafePointer(asbd) }
    /// Frames per second.
    public var sampleRate: Double { asbd.pointee.mSampleRate }
    /// Channels per frame.
    public var channelCount: AVAudioChannelCount { asbd.pointee.mChannelsPerFrame }
    /// Whether samples of all channels alternate in one buffer (mono counts as interleaved).
    public var isInterleaved: Bool { asbd.pointee.mFormatFlags & kAudioFormatFlagIsNonInterleaved == 0 }

    /// Which common format this is, if any.
    public var commonFormat: AVAudioCommonFormat {
        let f = asbd.pointee
        guard f.mFormatID == kAudioFormatLinearPCM, f.mFormatFlags & kAudioFormatFlagIsBigEndian == 0 else { return .otherFormat }
        let packed = f.mFormatFlags & kAudioFormatFlagIsPacked != 0 || f.mBitsPerChannel == 8 * (f.mBytesPerFrame / max(isInterleaved ? f.mChannelsPerFrame : 1, 1))
        guard packed else { return .otherFormat }
        if f.mFormatFlags & kAudioFormatFlagIsFloat != 0 {
            switch f.mBitsPerChannel {
            case 32: return .pcmFormatFloat32
            case 64: return .pcmFormatFloat64
            default: return .otherFormat
            }
        }
        guard f.mFormatFlags & kAudioFormatFlagIsSignedInteger != 0, f.mFormatFlags & kLinearPCMFormatFlagsSampleFractionMask == 0
        else { return .otherFormat }
        switch f.mBitsPerChannel {
        case 16: return .pcmFormatInt16
        case 32: return .pcmFormatInt32
        default: return .otherFormat
        }
    }

    /// Whether this is the standard format: deinterleaved native Float32.
    public var isStandard: Bool { commonFormat == .pcmFormatFloat32 && !isInterleaved }

    /// The format as a settings dictionary.
    public var settings: [String: Any] {
        let f = asbd.pointee
        var s: [String: Any] = [AVFormatIDKey: NSNumber(value: f.mFormatID), AVSampleRateKey: NSNumber(value: f.mSampleRate),
                                AVNumberOfChannelsKey: NSNumber(value: f.mChannelsPerFrame)]
        if f.mFormatID == kAudioFormatLinearPCM {
            s[AVLinearPCMBitDepthKey] = NSNumber(value: f.mBitsPerChannel)
            s[AVLinearPCMIsBigEndianKey] = NSNumber(value: f.mFormatFlags & kAudioFormatFlagIsBigEndian != 0)
            s[AVLinearPCMIsFloatKey] = NSNumber(value: f.mFormatFlags & kAudioFormatFlagIsFloat != 0)
            s[AVLinearPCMIsNonInterleaved] = NSNumber(value: !isInterleaved)
        }
        if let channelLayout { s[AVChannelLayoutKey] = channelLayout.data }
        return s
    }

    // MARK: Equality

    /// Equal when the descriptions and layouts are.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? AVAudioFormat else { return false }
        let a = asbd.pointee, b = other.asbd.pointee
        guard a.mSampleRate == b.mSampleRate, a.mFormatID == b.mFormatID, a.mFormatFlags == b.mFormatFlags,
              a.mBytesPerPacket == b.mBytesPerPacket, a.mFramesPerPacket == b.mFramesPerPacket, a.mBytesPerFrame == b.mBytesPerFrame,
              a.mChannelsPerFrame == b.mChannelsPerFrame, a.mBitsPerChannel == b.mBitsPerChannel else { return false }
        switch (channelLayout, other.channelLayout) {
        case (nil, nil): return true
        case let (x?, y?): return x.isEqual(y)
        default: return channelCount <= 2  // a mono or stereo format is the same with or without its obvious layout
        }
    }

    open override var hash: Int { Int(asbd.pointee.mSampleRate) ^ Int(asbd.pointee.mChannelsPerFrame) << 20 ^ Int(asbd.pointee.mFormatID) }

    open override var description: String {
        let f = asbd.pointee
        var s = "<AVAudioFormat \(Unmanaged.passUnretained(self).toOpaque()):  \(f.mChannelsPerFrame) ch,  \(Int(f.mSampleRate)) Hz"
        switch commonFormat {
        case .pcmFormatFloat32: s += ", Float32"
        case .pcmFormatFloat64: s += ", Float64"
        case .pcmFormatInt16: s += ", Int16"
        case .pcmFormatInt32: s += ", Int32"
        case .otherFormat: s += ", " + OCAFormat.string(fromFourCharCode: f.mFormatID)
        }
        if f.mFormatID == kAudioFormatLinearPCM && !isInterleaved && f.mChannelsPerFrame > 1 { s += ", deinterleaved" }
        return s + ">"
    }

    // MARK: Building descriptions

    /// The description of a common format.
    static func description(_ format: AVAudioCommonFormat, sampleRate: Double, channels: UInt32, interleaved: Bool) -> AudioStreamBasicDescription? {
        switch format {
        case .otherFormat: return nil
        case .pcmFormatFloat32:
            return OCAFormat.linearPCM(sampleRate: sampleRate, channels: channels, bitsPerChannel: 32, isFloat: true, interleaved: interleaved)
        case .pcmFormatFloat64:
            return OCAFormat.linearPCM(sampleRate: sampleRate, channels: channels, bitsPerChannel: 64, isFloat: true, interleaved: interleaved)
        case .pcmFormatInt16:
            return OCAFormat.linearPCM(sampleRate: sampleRate, channels: channels, bitsPerChannel: 16, isFloat: false, interleaved: interleaved)
        case .pcmFormatInt32:
            return OCAFormat.linearPCM(sampleRate: sampleRate, channels: channels, bitsPerChannel: 32, isFloat: false, interleaved: interleaved)
        }
    }

    /// The description a settings dictionary gives (compressed formats get what AudioFormatGetProperty fills in).
    static func description(settings: [String: Any]) -> AudioStreamBasicDescription? {
        guard let id = SettingsValue.number(settings[AVFormatIDKey]).map({ AudioFormatID($0) }),
              let rate = SettingsValue.number(settings[AVSampleRateKey]), rate > 0 else { return nil }
        var channels = SettingsValue.number(settings[AVNumberOfChannelsKey]).map { UInt32(max($0, 0)) }
        if channels == nil, let data = settings[AVChannelLayoutKey] as? Data { channels = AVAudioChannelLayout(data: data)?.channelCount }
        guard let channels, channels > 0 else { return nil }
        if id == kAudioFormatLinearPCM {
            let bits = UInt32(SettingsValue.number(settings[AVLinearPCMBitDepthKey]) ?? 16)
            let isFloat = SettingsValue.flag(settings[AVLinearPCMIsFloatKey]) ?? false
            guard [8, 16, 24, 32].contains(bits) || (isFloat && bits == 64) else { return nil }
            return OCAFormat.linearPCM(sampleRate: rate, channels: channels, bitsPerChannel: bits, isFloat: isFloat,
                                       isSignedInteger: bits > 8 || isFloat,
                                       interleaved: !(SettingsValue.flag(settings[AVLinearPCMIsNonInterleaved]) ?? false),
                                       bigEndian: SettingsValue.flag(settings[AVLinearPCMIsBigEndianKey]) ?? false)
        }
        var f = AudioStreamBasicDescription()
        f.mFormatID = id
        f.mSampleRate = rate
        f.mChannelsPerFrame = channels
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        _ = AudioFormatGetProperty(kAudioFormatProperty_FormatInfo, 0, nil, &size, &f)
        return f
    }
}
