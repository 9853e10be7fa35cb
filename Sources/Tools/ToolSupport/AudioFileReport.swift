// What afinfo reports about an audio file, in the layout of Apple's /usr/bin/afinfo, as text (so that the
// report can be fuzzed in process: a hostile file's fields must never trap the printing).
import AudioToolbox
import Foundation

/// The text of an afinfo report: lines for standard output and warnings for standard error.
public struct AudioFileReport {
    public var text = ""
    public var warnings: [String] = []
    /// The zero value, as the imported C type's.
    public init() {}
    mutating func line(_ s: String) { text += s + "\n" }
    mutating func warning(_ s: String) { warnings.append(s) }
}

// MARK: Channel layouts

/// Short channel label names, as in Apple's layout names ("L R C LFE Ls Rs").
func labelName(_ label: AudioChannelLabel) -> String {
    switch label {
    case kAudioChannelLabel_Left: return "L"
    case kAudioChannelLabel_Right: return "R"
    case kAudioChannelLabel_Center: return "C"
    case kAudioChannelLabel_LFEScreen: return "LFE"
    case kAudioChannelLabel_LeftSurround: return "Ls"
    case kAudioChannelLabel_RightSurround: return "Rs"
    case kAudioChannelLabel_LeftCenter: return "Lc"
    case kAudioChannelLabel_RightCenter: return "Rc"
    case kAudioChannelLabel_CenterSurround: return "Cs"
    case kAudioChannelLabel_LeftSurroundDirect: return "Lsd"
    case kAudioChannelLabel_RightSurroundDirect: return "Rsd"
    case kAudioChannelLabel_TopCenterSurround: return "Ts"
    case kAudioChannelLabel_VerticalHeightLeft: return "Vhl"
    case kAudioChannelLabel_VerticalHeightCenter: return "Vhc"
    case kAudioChannelLabel_VerticalHeightRight: return "Vhr"
    case kAudioChannelLabel_TopBackLeft: return "Ltr"
    case kAudioChannelLabel_TopBackCenter: return "Ctr"
    case kAudioChannelLabel_TopBackRight: return "Rtr"
    case kAudioChannelLabel_RearSurroundLeft: return "Rls"
    case kAudioChannelLabel_RearSurroundRight: return "Rrs"
    case kAudioChannelLabel_LeftWide: return "Lw"
    case kAudioChannelLabel_RightWide: return "Rw"
    case kAudioChannelLabel_LFE2: return "LFE2"
    case kAudioChannelLabel_LeftTotal: return "Lt"
    case kAudioChannelLabel_RightTotal: return "Rt"
    case kAudioChannelLabel_HearingImpaired: return "HI"
    case kAudioChannelLabel_Narration: return "Narr"
    case kAudioChannelLabel_Mono: return "M"
    case kAudioChannelLabel_DialogCentricMix: return "DCM"
    case kAudioChannelLabel_CenterSurroundDirect: return "Csd"
    case kAudioChannelLabel_Haptic: return "Haptic"
    case kAudioChannelLabel_Ambisonic_W: return "W"
    case kAudioChannelLabel_Ambisonic_X: return "X"
    case kAudioChannelLabel_Ambisonic_Y: return "Y"
    case kAudioChannelLabel_Ambisonic_Z: return "Z"
    case kAudioChannelLabel_MS_Mid: return "M"
    case kAudioChannelLabel_MS_Side: return "S"
    case kAudioChannelLabel_XY_X: return "X"
    case kAudioChannelLabel_XY_Y: return "Y"
    case kAudioChannelLabel_HeadphonesLeft: return "HPL"
    case kAudioChannelLabel_HeadphonesRight: return "HPR"
    case kAudioChannelLabel_ClickTrack: return "Click"
    case kAudioChannelLabel_ForeignLanguage: return "Foreign"
    case kAudioChannelLabel_Discrete: return "Discrete"
    case kAudioChannelLabel_Unused: return "-"
    case kAudioChannelLabel_Unknown: return "?"
    default:
        if label >> 16 == 1 { return "D\(label & 0xFFFF)" }
        return "\(label)"
    }
}

let L = kAudioChannelLabel_Left, R = kAudioChannelLabel_Right, C = kAudioChannelLabel_Center
let LFE = kAudioChannelLabel_LFEScreen, Ls = kAudioChannelLabel_LeftSurround, Rs = kAudioChannelLabel_RightSurround
let Lc = kAudioChannelLabel_LeftCenter, Rc = kAudioChannelLabel_RightCenter, Cs = kAudioChannelLabel_CenterSurround
let Rls = kAudioChannelLabel_RearSurroundLeft, Rrs = kAudioChannelLabel_RearSurroundRight
let Lw = kAudioChannelLabel_LeftWide, Rw = kAudioChannelLabel_RightWide
let Lt = kAudioChannelLabel_LeftTotal, Rt = kAudioChannelLabel_RightTotal

/// The layout tags this tool names, with their channel order (CoreAudioBaseTypes.h).
let knownLayouts: [(AudioChannelLayoutTag, String, [AudioChannelLabel])] = [
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

/// A layout's name, as in `Channel layout: Stereo (L R)`. `bytes` is an AudioChannelLayout.
public func channelLayoutName(_ bytes: [UInt8]) -> String? {
    guard bytes.count >= 12 else { return nil }
    func u32(_ offset: Int) -> UInt32 { bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self) } }
    let tag = u32(0), bitmap = u32(4), count = Int(u32(8))
    var labels: [AudioChannelLabel]
    switch tag {
    case kAudioChannelLayoutTag_UseChannelDescriptions:
        guard bytes.count >= 12 + 20 * count else { return nil }
        labels = (0..<count).map { u32(12 + 20 * $0) }
    case kAudioChannelLayoutTag_UseChannelBitmap:
        // Bits 0...17 are the labels Left (1) ... TopBackRight (18).
        labels = (0..<18).filter { bitmap & (1 << UInt32($0)) != 0 }.map { AudioChannelLabel($0 + 1) }
    case kAudioChannelLayoutTag_Unknown...:
        return nil  // unknown layout with N channels: Apple prints "no channel layout."
    default:
        if tag & 0xFFFF0000 == kAudioChannelLayoutTag_DiscreteInOrder {
            return "\(tag & 0xFFFF) channels, discrete in order"
        }
        guard let known = knownLayouts.first(where: { $0.0 == tag }) else {
            return String(format: "layout tag 0x%08X (%d channels)", tag, Int(tag & 0xFFFF))
        }
        return known.0 == kAudioChannelLayoutTag_Mono ? known.1 : "\(known.1) (\(known.2.map(labelName).joined(separator: " ")))"
    }
    // Channel descriptions or a bitmap: name it after the tag with those channels, if there is one.
    if let known = knownLayouts.first(where: { $0.2 == labels }) {
        return known.0 == kAudioChannelLayoutTag_Mono ? known.1 : "\(known.1) (\(known.2.map(labelName).joined(separator: " ")))"
    }
    guard !labels.isEmpty else { return nil }
    return "\(labels.count) channels (\(labels.map(labelName).joined(separator: " ")))"
}

// MARK: Reading a file

func property<T>(_ file: AudioFileID, _ id: AudioFilePropertyID, _ initial: T) -> T? {
    var value = initial
    var size = UInt32(MemoryLayout<T>.size)
    let status = withUnsafeMutableBytes(of: &value) { AudioFileGetProperty(file, id, &size, $0.baseAddress!) }
    return status == noErr ? value : nil
}

func channelLayout(_ file: AudioFileID) -> [UInt8]? {
    var size: UInt32 = 0
    guard AudioFileGetPropertyInfo(file, kAudioFilePropertyChannelLayout, &size, nil) == noErr, size >= 12 else { return nil }
    var bytes = [UInt8](repeating: 0, count: Int(size))
    guard bytes.withUnsafeMutableBytes({ AudioFileGetProperty(file, kAudioFilePropertyChannelLayout, &size, $0.baseAddress!) }) == noErr else {
        return nil
    }
    return Array(bytes.prefix(Int(size)))
}

func infoDictionary(_ file: AudioFileID) -> [(String, String)] {
    var dictionary: Unmanaged<CFDictionary>?
    var size = UInt32(MemoryLayout<Unmanaged<CFDictionary>?>.size)
    guard AudioFileGetProperty(file, kAudioFilePropertyInfoDictionary, &size, &dictionary) == noErr, let dictionary else { return [] }
    let d = dictionary.takeRetainedValue() as NSDictionary
    return d.map { ("\($0.key)", "\($0.value)") }.sorted { $0.0 < $1.0 }
}

/// The key Audio File Services adds to every info dictionary; the full report shows the estimated
/// duration instead.
let approximateDurationKey = "approximate duration in seconds"

/// afinfo's full report of an open file, appended to `out`.
public func printFull(_ path: String, _ file: AudioFileID, to out: inout AudioFileReport) {
    let type: AudioFileTypeID = property(file, kAudioFilePropertyFileFormat, 0) ?? 0
    out.line("File:           \(path)")
    out.line("File type ID:   \(fourCharacters(type) ?? String(format: "0x%08X", type))")
    let tracks: UInt32 = property(file, kAudioFilePropertyAudioTrackCount, 1) ?? 1
    out.line("Num Tracks:     \(tracks)")
    out.line("----")
    guard let format: AudioStreamBasicDescription = property(file, kAudioFilePropertyDataFormat, AudioStreamBasicDescription()) else {
        out.warning("afinfo: AudioFileGetProperty(kAudioFilePropertyDataFormat) failed for \(path)")
        out.line("----")
        return
    }
    out.line("Data format:    " + describe(format))
    if let layout = channelLayout(file), let name = channelLayoutName(layout) {
        out.line("Channel layout: \(name)")
    } else {
        out.line("                no channel layout.")
    }
    if let duration: Float64 = property(file, kAudioFilePropertyEstimatedDuration, 0) {
        out.line(String(format: "estimated duration: %f sec", duration))
    }
    if let bytes: UInt64 = property(file, kAudioFilePropertyAudioDataByteCount, 0) { out.line("audio bytes: \(bytes)") }
    if let packets: UInt64 = property(file, kAudioFilePropertyAudioDataPacketCount, 0) { out.line("audio packets: \(packets)") }
    if let table: AudioFilePacketTableInfo = property(file, kAudioFilePropertyPacketTableInfo, AudioFilePacketTableInfo()) {
        // In 128 bits: a hostile packet table's three counts can overflow 64.
        let total = Int128(table.mNumberValidFrames) + Int128(table.mPrimingFrames) + Int128(table.mRemainderFrames)
        out.line("audio \(table.mNumberValidFrames) valid frames + \(table.mPrimingFrames) priming + \(table.mRemainderFrames) remainder = \(total)")
    }
    if let bitRate: UInt32 = property(file, kAudioFilePropertyBitRate, 0) { out.line("bit rate: \(bitRate) bits per second") }
    if let bound: UInt32 = property(file, kAudioFilePropertyPacketSizeUpperBound, 0) { out.line("packet size upper bound: \(bound)") }
    if let maximum: UInt32 = property(file, kAudioFilePropertyMaximumPacketSize, 0) { out.line("maximum packet size: \(maximum)") }
    if let offset: Int64 = property(file, kAudioFilePropertyDataOffset, 0) { out.line("audio data file offset: \(offset)") }
    if let optimized: UInt32 = property(file, kAudioFilePropertyIsOptimized, 0) { out.line(optimized != 0 ? "optimized" : "not optimized") }
    if let depth: Int32 = property(file, kAudioFilePropertySourceBitDepth, 0), depth != 0 {
        // Negative depths mean floating point; Audio File Services may also give the float's positive width.
        let isFloat = depth < 0 || (format.mFormatID == kAudioFormatLinearPCM && format.mFormatFlags & kAudioFormatFlagIsFloat != 0)
        out.line("source bit depth: \(isFloat ? "F" : "I")\(abs(depth))")
    }
    let info = infoDictionary(file).filter { $0.0 != approximateDurationKey }
    if !info.isEmpty {
        out.line("info dictionary:")
        for (key, value) in info { out.line("    " + key.padding(toLength: max(40, key.count + 1), withPad: " ", startingAt: 0) + value) }
    }
    out.line("----")
}

/// `afinfo -b`: `path, WAVE, Num Tracks:     1` / `----` / `1.000 sec, format:   2 ch,  44100 Hz, Int16, interleaved`.
public func printBrief(_ path: String, _ file: AudioFileID, to out: inout AudioFileReport) {
    let type: AudioFileTypeID = property(file, kAudioFilePropertyFileFormat, 0) ?? 0
    let tracks: UInt32 = property(file, kAudioFilePropertyAudioTrackCount, 1) ?? 1
    out.line("\(path), \(fourCharacters(type) ?? String(format: "0x%08X", type)), Num Tracks:     \(tracks)")
    out.line("----")
    let duration: Float64 = property(file, kAudioFilePropertyEstimatedDuration, 0) ?? 0
    if let format: AudioStreamBasicDescription = property(file, kAudioFilePropertyDataFormat, AudioStreamBasicDescription()) {
        out.line(String(format: "%.3f sec, format: ", duration) + " " + describe(format))
    }
}

