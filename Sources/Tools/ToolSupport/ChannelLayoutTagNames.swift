import AudioToolbox

/// The layout tags Core Audio names, by their constant names without the kAudioChannelLayoutTag_ prefix
/// (afconvert -l MPEG_5_1_A, as Apple's afconvert takes them).
public let channelLayoutTagNames: [String: AudioChannelLayoutTag] = [
    "Ambisonic_B_Format": kAudioChannelLayoutTag_Ambisonic_B_Format,
    "AudioUnit_4": kAudioChannelLayoutTag_AudioUnit_4,
    "AudioUnit_5": kAudioChannelLayoutTag_AudioUnit_5,
    "AudioUnit_5_0": kAudioChannelLayoutTag_AudioUnit_5_0,
    "AudioUnit_5_1": kAudioChannelLayoutTag_AudioUnit_5_1,
    "AudioUnit_6": kAudioChannelLayoutTag_AudioUnit_6,
    "AudioUnit_6_0": kAudioChannelLayoutTag_AudioUnit_6_0,
    "AudioUnit_6_1": kAudioChannelLayoutTag_AudioUnit_6_1,
    "AudioUnit_7_0": kAudioChannelLayoutTag_AudioUnit_7_0,
    "AudioUnit_7_0_Front": kAudioChannelLayoutTag_AudioUnit_7_0_Front,
    "AudioUnit_7_1": kAudioChannelLayoutTag_AudioUnit_7_1,
    "AudioUnit_7_1_Front": kAudioChannelLayoutTag_AudioUnit_7_1_Front,
    "AudioUnit_8": kAudioChannelLayoutTag_AudioUnit_8,
    "Binaural": kAudioChannelLayoutTag_Binaural,
    "Cube": kAudioChannelLayoutTag_Cube,
    "Emagic_Default_7_1": kAudioChannelLayoutTag_Emagic_Default_7_1,
    "Hexagonal": kAudioChannelLayoutTag_Hexagonal,
    "ITU_1_0": kAudioChannelLayoutTag_ITU_1_0,
    "ITU_2_0": kAudioChannelLayoutTag_ITU_2_0,
    "ITU_2_1": kAudioChannelLayoutTag_ITU_2_1,
    "ITU_2_2": kAudioChannelLayoutTag_ITU_2_2,
    "ITU_3_0": kAudioChannelLayoutTag_ITU_3_0,
    "ITU_3_1": kAudioChannelLayoutTag_ITU_3_1,
    "ITU_3_2": kAudioChannelLayoutTag_ITU_3_2,
    "ITU_3_2_1": kAudioChannelLayoutTag_ITU_3_2_1,
    "ITU_3_4_1": kAudioChannelLayoutTag_ITU_3_4_1,
    "MPEG_1_0": kAudioChannelLayoutTag_MPEG_1_0,
    "MPEG_2_0": kAudioChannelLayoutTag_MPEG_2_0,
    "MPEG_3_0_A": kAudioChannelLayoutTag_MPEG_3_0_A,
    "MPEG_3_0_B": kAudioChannelLayoutTag_MPEG_3_0_B,
    "MPEG_4_0_A": kAudioChannelLayoutTag_MPEG_4_0_A,
    "MPEG_4_0_B": kAudioChannelLayoutTag_MPEG_4_0_B,
    "MPEG_5_0_A": kAudioChannelLayoutTag_MPEG_5_0_A,
    "MPEG_5_0_B": kAudioChannelLayoutTag_MPEG_5_0_B,
    "MPEG_5_0_C": kAudioChannelLayoutTag_MPEG_5_0_C,
    "MPEG_5_0_D": kAudioChannelLayoutTag_MPEG_5_0_D,
    "MPEG_5_1_A": kAudioChannelLayoutTag_MPEG_5_1_A,
    "MPEG_5_1_B": kAudioChannelLayoutTag_MPEG_5_1_B,
    "MPEG_5_1_C": kAudioChannelLayoutTag_MPEG_5_1_C,
    "MPEG_5_1_D": kAudioChannelLayoutTag_MPEG_5_1_D,
    "MPEG_6_1_A": kAudioChannelLayoutTag_MPEG_6_1_A,
    "MPEG_7_1_A": kAudioChannelLayoutTag_MPEG_7_1_A,
    "MPEG_7_1_B": kAudioChannelLayoutTag_MPEG_7_1_B,
    "MPEG_7_1_C": kAudioChannelLayoutTag_MPEG_7_1_C,
    "MatrixStereo": kAudioChannelLayoutTag_MatrixStereo,
    "MidSide": kAudioChannelLayoutTag_MidSide,
    "Mono": kAudioChannelLayoutTag_Mono,
    "Octagonal": kAudioChannelLayoutTag_Octagonal,
    "Pentagonal": kAudioChannelLayoutTag_Pentagonal,
    "Quadraphonic": kAudioChannelLayoutTag_Quadraphonic,
    "SMPTE_DTV": kAudioChannelLayoutTag_SMPTE_DTV,
    "Stereo": kAudioChannelLayoutTag_Stereo,
    "StereoHeadphones": kAudioChannelLayoutTag_StereoHeadphones,
    "XY": kAudioChannelLayoutTag_XY,
]

/// A layout tag from its constant name (with or without the prefix) or a number (decimal or 0x hex).
public func channelLayoutTag(named text: String) -> AudioChannelLayoutTag? {
    let name = text.hasPrefix("kAudioChannelLayoutTag_") ? String(text.dropFirst("kAudioChannelLayoutTag_".count)) : text
    if let tag = channelLayoutTagNames[name] { return tag }
    if name.hasPrefix("0x") || name.hasPrefix("0X") { return UInt32(name.dropFirst(2), radix: 16) }
    return UInt32(name)
}
