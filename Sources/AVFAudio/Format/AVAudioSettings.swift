// AVAudioSettings.h: the keys of the settings dictionaries AVAudioFormat, AVAudioFile, AVAudioRecorder and
// AVAudioConverter take, with Apple's string values.

/// The format ID (an AudioFormatID such as kAudioFormatLinearPCM or kAudioFormatMPEG4AAC).
public let AVFormatIDKey = "AVFormatIDKey"
/// The sample rate in hertz.
public let AVSampleRateKey = "AVSampleRateKey"
/// The number of channels.
public let AVNumberOfChannelsKey = "AVNumberOfChannelsKey"
/// Linear PCM: bits per sample (8, 16, 24 or 32).
public let AVLinearPCMBitDepthKey = "AVLinearPCMBitDepthKey"
/// Linear PCM: big-endian samples.
public let AVLinearPCMIsBigEndianKey = "AVLinearPCMIsBigEndianKey"
/// Linear PCM: floating-point samples.
public let AVLinearPCMIsFloatKey = "AVLinearPCMIsFloatKey"
/// Linear PCM: one buffer per channel.
public let AVLinearPCMIsNonInterleaved = "AVLinearPCMIsNonInterleavedKey"
/// The file type (an AudioFileTypeID) AVAudioFile writes.
public let AVAudioFileTypeKey = "AVAudioFileTypeKey"
/// Encoder quality (an AVAudioQuality raw value).
public let AVEncoderAudioQualityKey = "AVEncoderAudioQualityKey"
/// Encoder quality for variable bit rate.
public let AVEncoderAudioQualityForVBRKey = "AVEncoderAudioQualityForVBRKey"
/// Encoder bit rate in bits per second.
public let AVEncoderBitRateKey = "AVEncoderBitRateKey"
/// Encoder bit rate per channel.
public let AVEncoderBitRatePerChannelKey = "AVEncoderBitRatePerChannelKey"
/// Encoder bit rate strategy (one of the AVAudioBitRateStrategy_ values).
public let AVEncoderBitRateStrategyKey = "AVEncoderBitRateStrategyKey"
/// Bits per sample the encoder is given as a hint.
public let AVEncoderBitDepthHintKey = "AVEncoderBitDepthHintKey"
/// Sample rate converter algorithm (one of the AVSampleRateConverterAlgorithm_ values).
public let AVSampleRateConverterAlgorithmKey = "AVSampleRateConverterAlgorithmKey"
/// Sample rate converter quality (an AVAudioQuality raw value).
public let AVSampleRateConverterAudioQualityKey = "AVSampleRateConverterAudioQualityKey"
/// The channel layout, as Data holding an AudioChannelLayout.
public let AVChannelLayoutKey = "AVChannelLayoutKey"

/// Constant bit rate.
public let AVAudioBitRateStrategy_Constant = "AVAudioBitRateStrategy_Constant"
/// Long-term average bit rate.
public let AVAudioBitRateStrategy_LongTermAverage = "AVAudioBitRateStrategy_LongTermAverage"
/// Constrained variable bit rate.
public let AVAudioBitRateStrategy_VariableConstrained = "AVAudioBitRateStrategy_VariableConstrained"
/// Variable bit rate.
public let AVAudioBitRateStrategy_Variable = "AVAudioBitRateStrategy_Variable"
/// The normal sample rate converter.
public let AVSampleRateConverterAlgorithm_Normal = "AVSampleRateConverterAlgorithm_Normal"
/// The mastering-quality sample rate converter.
public let AVSampleRateConverterAlgorithm_Mastering = "AVSampleRateConverterAlgorithm_Mastering"
/// The minimum-phase sample rate converter.
public let AVSampleRateConverterAlgorithm_MinimumPhase = "AVSampleRateConverterAlgorithm_MinimumPhase"
