/// One input or output bus of an `AUAudioUnit`: its format, channel constraints and flags.
///
/// Apple's bus takes and answers its format as an `AVAudioFormat`, a class of AVFAudio, which here is a module
/// above AudioToolbox. So the bus keeps the format as an AudioStreamBasicDescription (what the v2 bridge and the
/// render path use anyway), and AVFAudio adds Apple's `init(format:)`, `format` and `setFormat(_:)` in an
/// extension: code that imports AVFAudio or AVFoundation (as Apple's audio unit templates do) sees Apple's API.
open class AUAudioUnitBus: NSObject, @unchecked Sendable {
    /// The bus's stream format.
    package private(set) var streamDescription: AudioStreamBasicDescription
    /// The AVAudioFormat the format was last given as (AVFAudio's cache, so `format` answers the same object
    /// with its channel layout); nil after a change from elsewhere (the v2 StreamFormat property).
    package private(set) var formatObject: AnyObject?

    /// Whether the unit allocates this bus's render memory (false: the host supplies buffers).
    public var shouldAllocateBuffer = true
    /// Whether the bus is active.
    public var isEnabled = true
    /// The bus's name.
    public var name: String?
    /// The bus's index in its bus array.
    public internal(set) var index = 0
    /// Input or output.
    public internal(set) var busType: AUAudioUnitBusType = .input
    weak var owner: AUAudioUnit?
    /// The audio unit owning the bus (set when the bus joins a bus array).
    public var ownerAudioUnit: AUAudioUnit { owner! }
    /// Channel layout tags the bus accepts (nil: any).
    open var supportedChannelLayoutTags: [NSNumber]? { nil }
    /// The host's presentation latency for this bus, in seconds.
    public var contextPresentationLatency: TimeInterval = 0

    /// The channel counts the bus accepts (nil: any up to `maximumChannelCount`).
    public var supportedChannelCounts: [NSNumber]?
    /// The most channels the bus accepts (the largest of `supportedChannelCounts` when those are set).
    public var maximumChannelCount: AUAudioChannelCount {
        get { supportedChannelCounts.flatMap { $0.map(\.uint32Value).max() } ?? storedMaximumChannelCount }
        set { storedMaximumChannelCount = newValue }
    }
    private var storedMaximumChannelCount = AUAudioChannelCount.max

    /// The bus owned by the audio unit that makes it, with its first format (what AVFAudio's `init(format:)`
    /// calls). Throws kAudioUnitErr_FormatNotSupported for a format that is not linear PCM.
    package init(streamDescription: AudioStreamBasicDescription, formatObject: AnyObject? = nil) throws {
        guard AUFormatRules.passesMinimalSafetyCheck(streamDescription), streamDescription.mFormatID == kAudioFormatLinearPCM else {
            throw NSError(domain: NSOSStatusErrorDomain, code: Int(kAudioUnitErr_FormatNotSupported))
        }
        self.streamDescription = streamDescription
        self.formatObject = formatObject
        super.init()
    }

    /// Whether the bus's channel constraints admit `channels` channels.
    func accepts(channels: UInt32) -> Bool {
        if let counts = supportedChannelCounts { return counts.contains { $0.uint32Value == channels } }
        return channels <= maximumChannelCount
    }

    /// Changes the format (AVFAudio's `setFormat(_:)` calls this). Refused with kAudioUnitErr_FormatNotSupported
    /// for a format the channel constraints exclude, with kAudioUnitErr_Initialized while the owner's render
    /// resources are allocated (Apple's default `shouldChangeToFormat`), and with the version 2 unit's status when
    /// the owner is a bridge over one that refuses the format.
    package func setStreamDescription(_ format: AudioStreamBasicDescription, formatObject: AnyObject? = nil) throws {
        guard AUFormatRules.passesMinimalSafetyCheck(format), format.mFormatID == kAudioFormatLinearPCM, accepts(channels: format.mChannelsPerFrame) else {
            throw NSError(domain: NSOSStatusErrorDomain, code: Int(kAudioUnitErr_FormatNotSupported))
        }
        if owner?.renderResourcesAllocated == true {
            throw NSError(domain: NSOSStatusErrorDomain, code: Int(kAudioUnitErr_Initialized))
        }
        let changed = !format.isBitwiseEqual(to: streamDescription)
        if changed { try owner?.busWillChangeFormat(self, to: format) }
        streamDescription = format
        self.formatObject = formatObject
        if changed { owner?.busFormatChanged(self) }
    }

    /// Takes `format` from the unit behind the bus (a version 2 unit whose format changed there), telling no one.
    package func followFormat(_ format: AudioStreamBasicDescription) {
        guard !format.isBitwiseEqual(to: streamDescription) else { return }
        streamDescription = format
        formatObject = nil
    }
}
