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
        // The other families, in the order of Apple's header and with the channels its comments give.
        (kAudioChannelLayoutTag_DVD_4, "DVD 4", [L, R, LFE]),
        (kAudioChannelLayoutTag_DVD_5, "DVD 5", [L, R, LFE, Cs]),
        (kAudioChannelLayoutTag_DVD_6, "DVD 6", [L, R, LFE, Ls, Rs]),
        (kAudioChannelLayoutTag_DVD_10, "DVD 10", [L, R, C, LFE]),
        (kAudioChannelLayoutTag_DVD_11, "DVD 11", [L, R, C, LFE, Cs]),
        (kAudioChannelLayoutTag_DVD_18, "DVD 18", [L, R, Ls, Rs, LFE]),
        (kAudioChannelLayoutTag_AAC_6_0, "6.0", [C, L, R, Ls, Rs, Cs]),
        (kAudioChannelLayoutTag_AAC_6_1, "6.1", [C, L, R, Ls, Rs, Cs, LFE]),
        (kAudioChannelLayoutTag_AAC_7_0, "7.0", [C, L, R, Ls, Rs, Rls, Rrs]),
        (kAudioChannelLayoutTag_AAC_7_1_B, "7.1", [C, L, R, Ls, Rs, Rls, Rrs, LFE]),
        (kAudioChannelLayoutTag_AAC_7_1_C, "7.1", [C, L, R, Ls, Rs, LFE, kAudioChannelLabel_VerticalHeightLeft, kAudioChannelLabel_VerticalHeightRight]),
        (kAudioChannelLayoutTag_AAC_Octagonal, "AAC Octagonal", [C, L, R, Ls, Rs, Rls, Rrs, Cs]),
        (kAudioChannelLayoutTag_TMH_10_2_std, "10.2", [L, R, C, kAudioChannelLabel_VerticalHeightCenter, kAudioChannelLabel_LeftSurroundDirect, kAudioChannelLabel_RightSurroundDirect, Ls, Rs, kAudioChannelLabel_VerticalHeightLeft, kAudioChannelLabel_VerticalHeightRight, Lw, Rw, kAudioChannelLabel_CenterSurroundDirect, Cs, LFE, kAudioChannelLabel_LFE2]),
        (kAudioChannelLayoutTag_AC3_1_0_1, "1.0.1", [C, LFE]),
        (kAudioChannelLayoutTag_AC3_3_0, "3.0", [L, C, R]),
        (kAudioChannelLayoutTag_AC3_3_1, "3.1", [L, C, R, Cs]),
        (kAudioChannelLayoutTag_AC3_3_0_1, "3.0.1", [L, C, R, LFE]),
        (kAudioChannelLayoutTag_AC3_2_1_1, "2.1.1", [L, R, Cs, LFE]),
        (kAudioChannelLayoutTag_AC3_3_1_1, "3.1.1", [L, C, R, Cs, LFE]),
        (kAudioChannelLayoutTag_EAC_6_0_A, "6.0", [L, C, R, Ls, Rs, Cs]),
        (kAudioChannelLayoutTag_EAC_7_0_A, "7.0", [L, C, R, Ls, Rs, Rls, Rrs]),
        (kAudioChannelLayoutTag_EAC3_6_1_A, "6.1", [L, C, R, Ls, Rs, LFE, Cs]),
        (kAudioChannelLayoutTag_EAC3_6_1_B, "6.1", [L, C, R, Ls, Rs, LFE, kAudioChannelLabel_TopCenterSurround]),
        (kAudioChannelLayoutTag_EAC3_6_1_C, "6.1", [L, C, R, Ls, Rs, LFE, kAudioChannelLabel_VerticalHeightCenter]),
        (kAudioChannelLayoutTag_EAC3_7_1_A, "7.1", [L, C, R, Ls, Rs, LFE, Rls, Rrs]),
        (kAudioChannelLayoutTag_EAC3_7_1_B, "7.1", [L, C, R, Ls, Rs, LFE, Lc, Rc]),
        (kAudioChannelLayoutTag_EAC3_7_1_C, "7.1", [L, C, R, Ls, Rs, LFE, kAudioChannelLabel_LeftSurroundDirect, kAudioChannelLabel_RightSurroundDirect]),
        (kAudioChannelLayoutTag_EAC3_7_1_D, "7.1", [L, C, R, Ls, Rs, LFE, Lw, Rw]),
        (kAudioChannelLayoutTag_EAC3_7_1_E, "7.1", [L, C, R, Ls, Rs, LFE, kAudioChannelLabel_VerticalHeightLeft, kAudioChannelLabel_VerticalHeightRight]),
        (kAudioChannelLayoutTag_EAC3_7_1_F, "7.1", [L, C, R, Ls, Rs, LFE, Cs, kAudioChannelLabel_TopCenterSurround]),
        (kAudioChannelLayoutTag_EAC3_7_1_G, "7.1", [L, C, R, Ls, Rs, LFE, Cs, kAudioChannelLabel_VerticalHeightCenter]),
        (kAudioChannelLayoutTag_EAC3_7_1_H, "7.1", [L, C, R, Ls, Rs, LFE, kAudioChannelLabel_TopCenterSurround, kAudioChannelLabel_VerticalHeightCenter]),
        (kAudioChannelLayoutTag_DTS_3_1, "3.1", [C, L, R, LFE]),
        (kAudioChannelLayoutTag_DTS_4_1, "4.1", [C, L, R, Cs, LFE]),
        (kAudioChannelLayoutTag_DTS_6_0_A, "6.0", [Lc, Rc, L, R, Ls, Rs]),
        (kAudioChannelLayoutTag_DTS_6_0_B, "6.0", [C, L, R, Rls, Rrs, kAudioChannelLabel_TopCenterSurround]),
        (kAudioChannelLayoutTag_DTS_6_0_C, "6.0", [C, Cs, L, R, Rls, Rrs]),
        (kAudioChannelLayoutTag_DTS_6_1_A, "6.1", [Lc, Rc, L, R, Ls, Rs, LFE]),
        (kAudioChannelLayoutTag_DTS_6_1_B, "6.1", [C, L, R, Rls, Rrs, kAudioChannelLabel_TopCenterSurround, LFE]),
        (kAudioChannelLayoutTag_DTS_6_1_C, "6.1", [C, Cs, L, R, Rls, Rrs, LFE]),
        (kAudioChannelLayoutTag_DTS_7_0, "7.0", [Lc, C, Rc, L, R, Ls, Rs]),
        (kAudioChannelLayoutTag_DTS_7_1, "7.1", [Lc, C, Rc, L, R, Ls, Rs, LFE]),
        (kAudioChannelLayoutTag_DTS_8_0_A, "8.0", [Lc, Rc, L, R, Ls, Rs, Rls, Rrs]),
        (kAudioChannelLayoutTag_DTS_8_0_B, "8.0", [Lc, C, Rc, L, R, Ls, Cs, Rs]),
        (kAudioChannelLayoutTag_DTS_8_1_A, "8.1", [Lc, Rc, L, R, Ls, Rs, Rls, Rrs, LFE]),
        (kAudioChannelLayoutTag_DTS_8_1_B, "8.1", [Lc, C, Rc, L, R, Ls, Cs, Rs, LFE]),
        (kAudioChannelLayoutTag_DTS_6_1_D, "6.1", [C, L, R, Ls, Rs, LFE, Cs]),
        (kAudioChannelLayoutTag_WAVE_4_0_B, "4.0", [L, R, Rls, Rrs]),
        (kAudioChannelLayoutTag_WAVE_5_0_B, "5.0", [L, R, C, Rls, Rrs]),
        (kAudioChannelLayoutTag_WAVE_5_1_B, "5.1", [L, R, C, LFE, Rls, Rrs]),
        (kAudioChannelLayoutTag_WAVE_6_1, "6.1", [L, R, C, LFE, Cs, Ls, Rs]),
        (kAudioChannelLayoutTag_WAVE_7_1, "7.1", [L, R, C, LFE, Rls, Rrs, Ls, Rs]),
        (kAudioChannelLayoutTag_Atmos_5_1_2, "Atmos 5.1.2", [L, R, C, LFE, Ls, Rs, kAudioChannelLabel_LeftTopMiddle, kAudioChannelLabel_RightTopMiddle]),
        (kAudioChannelLayoutTag_Atmos_5_1_4, "Atmos 5.1.4", [L, R, C, LFE, Ls, Rs, kAudioChannelLabel_VerticalHeightLeft, kAudioChannelLabel_VerticalHeightRight, kAudioChannelLabel_LeftTopRear, kAudioChannelLabel_RightTopRear]),
        (kAudioChannelLayoutTag_Atmos_7_1_2, "Atmos 7.1.2", [L, R, C, LFE, Ls, Rs, Rls, Rrs, kAudioChannelLabel_LeftTopMiddle, kAudioChannelLabel_RightTopMiddle]),
        (kAudioChannelLayoutTag_Atmos_7_1_4, "Atmos 7.1.4", [L, R, C, LFE, Ls, Rs, Rls, Rrs, kAudioChannelLabel_VerticalHeightLeft, kAudioChannelLabel_VerticalHeightRight, kAudioChannelLabel_LeftTopRear, kAudioChannelLabel_RightTopRear]),
        (kAudioChannelLayoutTag_Atmos_9_1_6, "Atmos 9.1.6", [L, R, C, LFE, Ls, Rs, Rls, Rrs, Lw, Rw, kAudioChannelLabel_VerticalHeightLeft, kAudioChannelLabel_VerticalHeightRight, kAudioChannelLabel_LeftTopMiddle, kAudioChannelLabel_RightTopMiddle, kAudioChannelLabel_LeftTopRear, kAudioChannelLabel_RightTopRear]),
        (kAudioChannelLayoutTag_Logic_4_0_C, "4.0", [L, R, Cs, C]),
        (kAudioChannelLayoutTag_Logic_6_0_B, "6.0", [L, R, Ls, Rs, Cs, C]),
        (kAudioChannelLayoutTag_Logic_6_1_B, "6.1", [L, R, Ls, Rs, Cs, C, LFE]),
        (kAudioChannelLayoutTag_Logic_6_1_D, "6.1", [L, C, R, Ls, Cs, Rs, LFE]),
        (kAudioChannelLayoutTag_Logic_7_1_B, "7.1", [L, R, Ls, Rs, Rls, Rrs, C, LFE]),
        (kAudioChannelLayoutTag_Logic_Atmos_7_1_4_B, "Atmos 7.1.4", [L, R, Rls, Rrs, Ls, Rs, C, LFE, kAudioChannelLabel_VerticalHeightLeft, kAudioChannelLabel_VerticalHeightRight, kAudioChannelLabel_LeftTopRear, kAudioChannelLabel_RightTopRear]),
        (kAudioChannelLayoutTag_Logic_Atmos_7_1_6, "Atmos 7.1.6", [L, R, Rls, Rrs, Ls, Rs, C, LFE, kAudioChannelLabel_VerticalHeightLeft, kAudioChannelLabel_VerticalHeightRight, kAudioChannelLabel_LeftTopMiddle, kAudioChannelLabel_RightTopMiddle, kAudioChannelLabel_LeftTopRear, kAudioChannelLabel_RightTopRear]),
        (kAudioChannelLayoutTag_CICP_13, "CICP 13", [Lc, Rc, C, kAudioChannelLabel_LFE2, Rls, Rrs, L, R, Cs, kAudioChannelLabel_LFE3, kAudioChannelLabel_LeftSideSurround, kAudioChannelLabel_RightSideSurround, kAudioChannelLabel_VerticalHeightLeft, kAudioChannelLabel_VerticalHeightRight, kAudioChannelLabel_VerticalHeightCenter, kAudioChannelLabel_TopCenterSurround, kAudioChannelLabel_LeftTopRear, kAudioChannelLabel_RightTopRear, kAudioChannelLabel_LeftTopMiddle, kAudioChannelLabel_RightTopMiddle, kAudioChannelLabel_CenterTopRear, kAudioChannelLabel_CenterBottom, kAudioChannelLabel_LeftBottom, kAudioChannelLabel_RightBottom]),
        (kAudioChannelLayoutTag_CICP_14, "CICP 14", [L, R, C, LFE, Ls, Rs, kAudioChannelLabel_VerticalHeightLeft, kAudioChannelLabel_VerticalHeightRight]),
        (kAudioChannelLayoutTag_CICP_15, "CICP 15", [L, R, C, kAudioChannelLabel_LFE2, Rls, Rrs, kAudioChannelLabel_LFE3, kAudioChannelLabel_LeftSideSurround, kAudioChannelLabel_RightSideSurround, kAudioChannelLabel_VerticalHeightLeft, kAudioChannelLabel_VerticalHeightRight, kAudioChannelLabel_CenterTopRear]),
        (kAudioChannelLayoutTag_CICP_16, "CICP 16", [L, R, C, LFE, Ls, Rs, kAudioChannelLabel_VerticalHeightLeft, kAudioChannelLabel_VerticalHeightRight, kAudioChannelLabel_LeftTopSurround, kAudioChannelLabel_RightTopSurround]),
        (kAudioChannelLayoutTag_CICP_17, "CICP 17", [L, R, C, LFE, Ls, Rs, kAudioChannelLabel_VerticalHeightLeft, kAudioChannelLabel_VerticalHeightRight, kAudioChannelLabel_VerticalHeightCenter, kAudioChannelLabel_LeftTopSurround, kAudioChannelLabel_RightTopSurround, kAudioChannelLabel_TopCenterSurround]),
        (kAudioChannelLayoutTag_CICP_18, "CICP 18", [L, R, C, LFE, Ls, Rs, kAudioChannelLabel_LeftBackSurround, kAudioChannelLabel_RightBackSurround, kAudioChannelLabel_VerticalHeightLeft, kAudioChannelLabel_VerticalHeightRight, kAudioChannelLabel_VerticalHeightCenter, kAudioChannelLabel_LeftTopSurround, kAudioChannelLabel_RightTopSurround, kAudioChannelLabel_TopCenterSurround]),
        (kAudioChannelLayoutTag_CICP_19, "CICP 19", [L, R, C, LFE, Rls, Rrs, kAudioChannelLabel_LeftSideSurround, kAudioChannelLabel_RightSideSurround, kAudioChannelLabel_VerticalHeightLeft, kAudioChannelLabel_VerticalHeightRight, kAudioChannelLabel_LeftTopRear, kAudioChannelLabel_RightTopRear]),
        (kAudioChannelLayoutTag_CICP_20, "CICP 20", [L, R, C, LFE, Rls, Rrs, kAudioChannelLabel_LeftSideSurround, kAudioChannelLabel_RightSideSurround, kAudioChannelLabel_VerticalHeightLeft, kAudioChannelLabel_VerticalHeightRight, kAudioChannelLabel_LeftTopRear, kAudioChannelLabel_RightTopRear, kAudioChannelLabel_LeftEdgeOfScreen, kAudioChannelLabel_RightEdgeOfScreen]),
        (kAudioChannelLayoutTag_Ogg_5_0, "5.0", [L, C, R, Rls, Rrs]),
        (kAudioChannelLayoutTag_Ogg_5_1, "5.1", [L, C, R, Rls, Rrs, LFE]),
        (kAudioChannelLayoutTag_Ogg_6_1, "6.1", [L, C, R, Ls, Rs, Cs, LFE]),
        (kAudioChannelLayoutTag_Ogg_7_1, "7.1", [L, C, R, Ls, Rs, Rls, Rrs, LFE]),
    ]

    /// The channels of a layout tag in order, or nil for a tag not named here. DiscreteInOrder N gives
    /// Discrete_0 ... Discrete_N-1.
    static func labels(forTag tag: AudioChannelLayoutTag) -> [AudioChannelLabel]? {
        // Counted tags (the channel count in the low 16 bits): discrete channels, and higher-order ambisonics in
        // ACN order whose labels carry the normalisation and the channel index.
        let counted: [AudioChannelLayoutTag: AudioChannelLabel] = [kAudioChannelLayoutTag_DiscreteInOrder: kAudioChannelLabel_Discrete_0,
                                                                   kAudioChannelLayoutTag_HOA_ACN_SN3D: kAudioChannelLabel_HOA_SN3D,
                                                                   kAudioChannelLayoutTag_HOA_ACN_N3D: kAudioChannelLabel_HOA_N3D]
        if let base = counted[tag & 0xFFFF0000] { return (0..<(tag & 0xFFFF)).map { base | $0 } }
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
        kAudioChannelLabel_LeftTopMiddle: ("Ltm", "Left Top Middle"), kAudioChannelLabel_RightTopMiddle: ("Rtm", "Right Top Middle"),
        kAudioChannelLabel_LeftTopRear: ("Ltr", "Left Top Rear"), kAudioChannelLabel_CenterTopRear: ("Ctr", "Center Top Rear"),
        kAudioChannelLabel_RightTopRear: ("Rtr", "Right Top Rear"),
        kAudioChannelLabel_LeftSideSurround: ("Lss", "Left Side Surround"), kAudioChannelLabel_RightSideSurround: ("Rss", "Right Side Surround"),
        kAudioChannelLabel_LeftBottom: ("Lb", "Left Bottom"), kAudioChannelLabel_RightBottom: ("Rb", "Right Bottom"),
        kAudioChannelLabel_CenterBottom: ("Cb", "Center Bottom"),
        kAudioChannelLabel_LeftTopSurround: ("Lts", "Left Top Surround"), kAudioChannelLabel_RightTopSurround: ("Rts", "Right Top Surround"),
        kAudioChannelLabel_LFE3: ("LFE3", "LFE 3"),
        kAudioChannelLabel_LeftBackSurround: ("Lbs", "Left Back Surround"), kAudioChannelLabel_RightBackSurround: ("Rbs", "Right Back Surround"),
        kAudioChannelLabel_LeftEdgeOfScreen: ("Leos", "Left Edge Of Screen"), kAudioChannelLabel_RightEdgeOfScreen: ("Reos", "Right Edge Of Screen"),
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
