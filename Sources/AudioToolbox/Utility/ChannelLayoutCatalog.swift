// The channel layouts Core Audio names: each tag's channels in order, the layouts' and channels' names
// (AudioFormat's ChannelLayoutName / ChannelName / ChannelShortName, afinfo's "5.1 (L R C LFE Ls Rs)").

/// Channel layout tags, their channels and names (CoreAudioBaseTypes.h).
enum ChannelLayoutCatalog {
    private static let L = kAudioChannelLabel_Left, R = kAudioChannelLabel_Right, C = kAudioChannelLabel_Center
    private static let LFE = kAudioChannelLabel_LFEScreen, Ls = kAudioChannelLabel_LeftSurround, Rs = kAudioChannelLabel_RightSurround
    private static let Lc = kAudioChannelLabel_LeftCenter, Rc = kAudioChannelLabel_RightCenter, Cs = kAudioChannelLabel_CenterSurround
    private static let Rls = kAudioChannelLabel_RearSurroundLeft, Rrs = kAudioChannelLabel_RearSurroundRight
    private static let Lw = kAudioChannelLabel_LeftWide, Rw = kAudioChannelLabel_RightWide
    private static let Lt = kAudioChannelLabel_LeftTotal, Rt = kAudioChannelLabel_RightTotal

    /// The named layout tags with their simple names and channel order. Aliases (AAC_5_1 is MPEG_5_1_D,
    /// AudioUnit_5_1 is MPEG_5_1_A ...) share values, so each appears once.
    static let layouts: [(tag: AudioChannelLayoutTag, name: String, labels: [AudioChannelLabel])] = [
        (kAudioChannelLayoutTag_Mono, "Mono", [C]),
        (kAudioChannelLayoutTag_Stereo, "Stereo", [L, R]),
        (kAudioChannelLayoutTag_StereoHeadphones, "Stereo Headphones", [kAudioChannelLabel_HeadphonesLeft, kAudioChannelLabel_HeadphonesRight]),
        (kAudioChannelLayoutTag_MatrixStereo, "Matrix Stereo", [Lt, Rt]),
        (kAudioChannelLayoutTag_MidSide, "Mid/Side", [kAudioChannelLabel_MS_Mid, kAudioChannelLabel_MS_Side]),
        (kAudioChannelLayoutTag_XY, "XY", [kAudioChannelLabel_XY_X, kAudioChannelLabel_XY_Y]),
        (kAudioChannelLayoutTag_Binaural, "Binaural", [L, R]),
        (kAudioChannelLayoutTag_Ambisonic_B_Format, "Ambisonic B Format",
         [kAudioChannelLabel_Ambisonic_W, kAudioChannelLabel_Ambisonic_X, kAudioChannelLabel_Ambisonic_Y, kAudioChannelLabel_Ambisonic_Z]),
        (kAudioChannelLayoutTag_Quadraphonic, "Quadraphonic", [L, R, Ls, Rs]),
        (kAudioChannelLayoutTag_Pentagonal, "Pentagonal", [L, R, Rls, Rrs, C]),
        (kAudioChannelLayoutTag_Hexagonal, "Hexagonal", [L, R, Rls, Rrs, C, Cs]),
        (kAudioChannelLayoutTag_Octagonal, "Octagonal", [L, R, Rls, Rrs, C, Cs, Lw, Rw]),
        (kAudioChannelLayoutTag_Cube, "Cube", [L, R, Rls, Rrs, kAudioChannelLabel_VerticalHeightLeft, kAudioChannelLabel_VerticalHeightRight,
                                               kAudioChannelLabel_TopBackLeft, kAudioChannelLabel_TopBackRight]),
        (kAudioChannelLayoutTag_MPEG_3_0_A, "3.0", [L, R, C]),
        (kAudioChannelLayoutTag_MPEG_3_0_B, "3.0", [C, L, R]),
        (kAudioChannelLayoutTag_MPEG_4_0_A, "4.0", [L, R, C, Cs]),
        (kAudioChannelLayoutTag_MPEG_4_0_B, "4.0", [C, L, R, Cs]),
        (kAudioChannelLayoutTag_MPEG_5_0_A, "5.0", [L, R, C, Ls, Rs]),
        (kAudioChannelLayoutTag_MPEG_5_0_B, "5.0", [L, R, Ls, Rs, C]),
        (kAudioChannelLayoutTag_MPEG_5_0_C, "5.0", [L, C, R, Ls, Rs]),
        (kAudioChannelLayoutTag_MPEG_5_0_D, "5.0", [C, L, R, Ls, Rs]),
        (kAudioChannelLayoutTag_MPEG_5_1_A, "5.1", [L, R, C, LFE, Ls, Rs]),
        (kAudioChannelLayoutTag_MPEG_5_1_B, "5.1", [L, R, Ls, Rs, C, LFE]),
        (kAudioChannelLayoutTag_MPEG_5_1_C, "5.1", [L, C, R, Ls, Rs, LFE]),
        (kAudioChannelLayoutTag_MPEG_5_1_D, "5.1", [C, L, R, Ls, Rs, LFE]),
        (kAudioChannelLayoutTag_MPEG_6_1_A, "6.1", [L, R, C, LFE, Ls, Rs, Cs]),
        (kAudioChannelLayoutTag_MPEG_7_1_A, "7.1", [L, R, C, LFE, Ls, Rs, Lc, Rc]),
        (kAudioChannelLayoutTag_MPEG_7_1_B, "7.1", [C, Lc, Rc, L, R, Ls, Rs, LFE]),
        (kAudioChannelLayoutTag_MPEG_7_1_C, "7.1", [L, R, C, LFE, Ls, Rs, Rls, Rrs]),
        (kAudioChannelLayoutTag_Emagic_Default_7_1, "7.1", [L, R, Ls, Rs, C, LFE, Lc, Rc]),
        (kAudioChannelLayoutTag_SMPTE_DTV, "SMPTE DTV", [L, R, C, LFE, Ls, Rs, Lt, Rt]),
        (kAudioChannelLayoutTag_ITU_2_1, "2.1", [L, R, Cs]),
        (kAudioChannelLayoutTag_ITU_2_2, "2.2", [L, R, Ls, Rs]),
        (kAudioChannelLayoutTag_AudioUnit_6_0, "6.0", [L, R, Ls, Rs, C, Cs]),
        (kAudioChannelLayoutTag_AudioUnit_7_0, "7.0", [L, R, Ls, Rs, C, Rls, Rrs]),
        (kAudioChannelLayoutTag_AudioUnit_7_0_Front, "7.0", [L, R, Ls, Rs, C, Lc, Rc]),
    ]

    /// The channels of a layout tag in order, or nil for a tag not named here. DiscreteInOrder N gives
    /// Discrete_0 ... Discrete_N-1.
    static func labels(forTag tag: AudioChannelLayoutTag) -> [AudioChannelLabel]? {
        if tag & 0xFFFF0000 == kAudioChannelLayoutTag_DiscreteInOrder {
            return (0..<(tag & 0xFFFF)).map { kAudioChannelLabel_Discrete_0 | $0 }
        }
        return layouts.first { $0.tag == tag }?.labels
    }

    /// The channels a bitmap names: bits 0...17 are the labels Left (1) ... TopBackRight (18).
    static func labels(forBitmap bitmap: UInt32) -> [AudioChannelLabel] {
        (0..<18).filter { bitmap & (1 << UInt32($0)) != 0 }.map { AudioChannelLabel($0 + 1) }
    }

    /// The channels an AudioChannelLayout describes in order, or nil when it names none this catalog knows
    /// (kAudioChannelLayoutTag_Unknown, an unnamed tag, or bytes too short for their descriptions).
    static func labels(inLayout bytes: UnsafeRawBufferPointer) -> [AudioChannelLabel]? {
        guard bytes.count >= 12 else { return nil }
        let tag = bytes.loadUnaligned(as: UInt32.self)
        switch tag {
        case kAudioChannelLayoutTag_UseChannelDescriptions:
            let count = Int(bytes.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
            guard count > 0, count <= (bytes.count - 12) / 20 else { return nil }
            return (0..<count).map { bytes.loadUnaligned(fromByteOffset: 12 + 20 * $0, as: UInt32.self) }
        case kAudioChannelLayoutTag_UseChannelBitmap:
            let labels = labels(forBitmap: bytes.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
            return labels.isEmpty ? nil : labels
        default:
            return labels(forTag: tag)
        }
    }

    /// The byte size of the AudioChannelLayout at `pointer`, read from its own count (for a specifier that
    /// is a pointer with no size of its own).
    static func layoutSize(at pointer: UnsafeRawPointer) -> Int {
        guard pointer.loadUnaligned(as: UInt32.self) == kAudioChannelLayoutTag_UseChannelDescriptions else { return 12 }
        // A hostile count cannot ask for more than the 1,024 channels a converter takes.
        return 12 + 20 * min(Int(pointer.loadUnaligned(fromByteOffset: 8, as: UInt32.self)), 1024)
    }

    /// The tag with exactly these channels in this order, if one is named.
    static func tag(for labels: [AudioChannelLabel]) -> AudioChannelLayoutTag? {
        layouts.first { $0.labels == labels }?.tag
    }

    /// The named tags with `channels` channels, in catalog order.
    static func tags(channels: Int) -> [AudioChannelLayoutTag] {
        layouts.filter { $0.labels.count == channels }.map(\.tag)
    }

    /// A layout's full name as Apple prints it: "Mono", "Stereo (L R)", "5.1 (L R C LFE Ls Rs)", or for
    /// channels no tag has, "3 channels (L R Cs)".
    static func name(labels: [AudioChannelLabel]) -> String? {
        guard !labels.isEmpty else { return nil }
        let list = labels.map(shortName).joined(separator: " ")
        guard let known = layouts.first(where: { $0.labels == labels }) else { return "\(labels.count) channels (\(list))" }
        return known.tag == kAudioChannelLayoutTag_Mono ? known.name : "\(known.name) (\(list))"
    }

    /// A layout's simple name: "Stereo", "5.1"; channels no tag has are "3 channels".
    static func simpleName(labels: [AudioChannelLabel]) -> String? {
        guard !labels.isEmpty else { return nil }
        return layouts.first { $0.labels == labels }?.name ?? "\(labels.count) channels"
    }

    /// A label Core Audio defines (named, discrete N, or positioned by coordinates).
    static func isDefined(_ label: AudioChannelLabel) -> Bool {
        names[label] != nil || label >> 16 == 1 || label == kAudioChannelLabel_UseCoordinates
    }

    /// A channel's abbreviation as in layout names ("L", "LFE", "Ls").
    static func shortName(_ label: AudioChannelLabel) -> String {
        names[label]?.short ?? (label >> 16 == 1 ? "D\(label & 0xFFFF)" : "\(label)")
    }

    /// A channel's full name ("Left", "LFE Screen", "Left Surround").
    static func longName(_ label: AudioChannelLabel) -> String {
        names[label]?.long ?? (label >> 16 == 1 ? "Discrete \(label & 0xFFFF)" : "Channel \(label)")
    }

    private static let names: [AudioChannelLabel: (short: String, long: String)] = [
        kAudioChannelLabel_Left: ("L", "Left"), kAudioChannelLabel_Right: ("R", "Right"), kAudioChannelLabel_Center: ("C", "Center"),
        kAudioChannelLabel_LFEScreen: ("LFE", "LFE Screen"), kAudioChannelLabel_LeftSurround: ("Ls", "Left Surround"),
        kAudioChannelLabel_RightSurround: ("Rs", "Right Surround"), kAudioChannelLabel_LeftCenter: ("Lc", "Left Center"),
        kAudioChannelLabel_RightCenter: ("Rc", "Right Center"), kAudioChannelLabel_CenterSurround: ("Cs", "Center Surround"),
        kAudioChannelLabel_LeftSurroundDirect: ("Lsd", "Left Surround Direct"),
        kAudioChannelLabel_RightSurroundDirect: ("Rsd", "Right Surround Direct"),
        kAudioChannelLabel_TopCenterSurround: ("Ts", "Top Center Surround"),
        kAudioChannelLabel_VerticalHeightLeft: ("Vhl", "Vertical Height Left"),
        kAudioChannelLabel_VerticalHeightCenter: ("Vhc", "Vertical Height Center"),
        kAudioChannelLabel_VerticalHeightRight: ("Vhr", "Vertical Height Right"),
        kAudioChannelLabel_TopBackLeft: ("Ltr", "Top Back Left"), kAudioChannelLabel_TopBackCenter: ("Ctr", "Top Back Center"),
        kAudioChannelLabel_TopBackRight: ("Rtr", "Top Back Right"),
        kAudioChannelLabel_RearSurroundLeft: ("Rls", "Rear Surround Left"),
        kAudioChannelLabel_RearSurroundRight: ("Rrs", "Rear Surround Right"),
        kAudioChannelLabel_LeftWide: ("Lw", "Left Wide"), kAudioChannelLabel_RightWide: ("Rw", "Right Wide"),
        kAudioChannelLabel_LFE2: ("LFE2", "LFE 2"), kAudioChannelLabel_LeftTotal: ("Lt", "Left Total"),
        kAudioChannelLabel_RightTotal: ("Rt", "Right Total"), kAudioChannelLabel_HearingImpaired: ("HI", "Hearing Impaired"),
        kAudioChannelLabel_Narration: ("Narr", "Narration"), kAudioChannelLabel_Mono: ("M", "Mono"),
        kAudioChannelLabel_DialogCentricMix: ("DCM", "Dialog Centric Mix"),
        kAudioChannelLabel_CenterSurroundDirect: ("Csd", "Center Surround Direct"), kAudioChannelLabel_Haptic: ("Haptic", "Haptic"),
        kAudioChannelLabel_Ambisonic_W: ("W", "Ambisonic W"), kAudioChannelLabel_Ambisonic_X: ("X", "Ambisonic X"),
        kAudioChannelLabel_Ambisonic_Y: ("Y", "Ambisonic Y"), kAudioChannelLabel_Ambisonic_Z: ("Z", "Ambisonic Z"),
        kAudioChannelLabel_MS_Mid: ("M", "Mid"), kAudioChannelLabel_MS_Side: ("S", "Side"),
        kAudioChannelLabel_XY_X: ("X", "X"), kAudioChannelLabel_XY_Y: ("Y", "Y"),
        kAudioChannelLabel_HeadphonesLeft: ("HPL", "Headphones Left"), kAudioChannelLabel_HeadphonesRight: ("HPR", "Headphones Right"),
        kAudioChannelLabel_ClickTrack: ("Click", "Click Track"), kAudioChannelLabel_ForeignLanguage: ("Foreign", "Foreign Language"),
        kAudioChannelLabel_Discrete: ("Discrete", "Discrete"), kAudioChannelLabel_Unused: ("-", "Unused"),
        kAudioChannelLabel_Unknown: ("?", "Unknown"),
    ]
}
