// Parameters of Apple's built-in units (AudioUnitParameters.h), for the units implemented here.
#ifndef OCA_AUDIOUNITPARAMETERS_H
#define OCA_AUDIOUNITPARAMETERS_H

#include "AUComponent.h"

// AUSampleDelay: Global, Samples, 0 -> sample rate, default 0.
CF_ENUM(AudioUnitParameterID) {
    kSampleDelayParam_DelayFrames = 0
};

// AUHAL and the default/system output units: Global, LinearGain, 0 -> 1, default 1.
CF_ENUM(AudioUnitParameterID) {
    kHALOutputParam_Volume = 14
};

// AUMultiChannelMixer. Volume: input or output scope, linear gain 0 -> 1, default 1. Enable: input scope,
// boolean, default 1. Pan: input scope, -1 -> 1, default 0. The meters are read-only, in dB.
CF_ENUM(AudioUnitParameterID) {
    kMultiChannelMixerParam_Volume              = 0,
    kMultiChannelMixerParam_Enable              = 1,
    kMultiChannelMixerParam_Pan                 = 2,
    kMultiChannelMixerParam_PreAveragePower     = 1000,
    kMultiChannelMixerParam_PrePeakHoldLevel    = 2000,
    kMultiChannelMixerParam_PostAveragePower    = 3000,
    kMultiChannelMixerParam_PostPeakHoldLevel   = 4000
};

// AUSpatialMixer / AU3DMixerEmbedded ('aumx' '3dem'; '3dmx' on macOS). Azimuth: input, degrees -180 -> 180.
// Elevation: input, degrees -90 -> 90. Distance: input, metres 0 -> 10000. Gain: input or output, dB
// -120 -> 20. PlaybackRate: input, 0.5 -> 2. Enable: input, boolean. Min/MaxGain: input, linear 0 -> 10.
// The numbering is the unified one of current SDKs (iOS's for the deprecated k3DMixerParam_ names).
CF_ENUM(AudioUnitParameterID) {
    kSpatialMixerParam_Azimuth                  = 0,
    kSpatialMixerParam_Elevation                = 1,
    kSpatialMixerParam_Distance                 = 2,
    kSpatialMixerParam_Gain                     = 3,
    kSpatialMixerParam_PlaybackRate             = 4,
    kSpatialMixerParam_Enable                   = 5,
    kSpatialMixerParam_MinGain                  = 6,
    kSpatialMixerParam_MaxGain                  = 7,
    kSpatialMixerParam_ReverbBlend              = 8,
    kSpatialMixerParam_GlobalReverbGain         = 9,
    kSpatialMixerParam_OcclusionAttenuation     = 10,
    kSpatialMixerParam_ObstructionAttenuation   = 11,
    kSpatialMixerParam_HeadYaw                  = 19,
    kSpatialMixerParam_HeadPitch                = 20,
    kSpatialMixerParam_HeadRoll                 = 21
};

CF_ENUM(AudioUnitParameterID) {
    k3DMixerParam_Azimuth                       = 0,
    k3DMixerParam_Elevation                     = 1,
    k3DMixerParam_Distance                      = 2,
    k3DMixerParam_Gain                          = 3,
    k3DMixerParam_PlaybackRate                  = 4,
    k3DMixerParam_BusEnable                     = 20,
    k3DMixerParam_MinGainInDecibels             = 21,
    k3DMixerParam_MaxGainInDecibels             = 22,
    k3DMixerParam_DryWetReverbBlend             = 23,
    k3DMixerParam_GlobalReverbGainInDecibels    = 24,
    k3DMixerParam_OcclusionAttenuationInDecibels = 25,
    k3DMixerParam_ObstructionAttenuationInDecibels = 26,
    k3DMixerParam_Enable                        = 5,
    k3DMixerParam_MinGain                       = 6,
    k3DMixerParam_MaxGain                       = 7,
    k3DMixerParam_ReverbBlend                   = 8,
    k3DMixerParam_GlobalReverbGain              = 9,
    k3DMixerParam_OcclusionAttenuation          = 10,
    k3DMixerParam_ObstructionAttenuation        = 11,
    // Read-only meters: add the channel number (k3DMixerParam_PostAveragePower + 1 is the right channel).
    k3DMixerParam_PreAveragePower               = 1000,
    k3DMixerParam_PrePeakHoldLevel              = 2000,
    k3DMixerParam_PostAveragePower              = 3000,
    k3DMixerParam_PostPeakHoldLevel             = 4000
};

// AUTimePitch, AUiPodTime, AUPitch. Rate: Global, rate (AUiPodTime: 0.5 -> 2, rounded by the unit to the
// nearest of 0.5, 0.66667, 0.8, 1, 1.25, 1.5, 2; default 1). EffectBlend is AUPitch's only.
CF_ENUM(AudioUnitParameterID) {
    kTimePitchParam_Rate                        = 0,
    kTimePitchParam_Pitch                       = 1,
    kTimePitchParam_EffectBlend                 = 2
};

// AUNewTimePitch. Rate: Global, 1/32 -> 32, default 1. Pitch: Global, cents, -2400 -> 2400. Smoothness
// (formerly Overlap): Global, generic, 3 -> 32, default 8. The two switches: Global, boolean, default 1.
CF_ENUM(AudioUnitParameterID) {
    kNewTimePitchParam_Rate                     = 0,
    kNewTimePitchParam_Pitch                    = 1,
    kNewTimePitchParam_Smoothness               = 4,
    kNewTimePitchParam_Overlap                  = kNewTimePitchParam_Smoothness,
    kNewTimePitchParam_EnableSpectralCoherence  = 6,
    kNewTimePitchParam_EnablePeakLocking        = kNewTimePitchParam_EnableSpectralCoherence,
    kNewTimePitchParam_EnableTransientPreservation = 7
};

// AUVarispeed. PlaybackRate: Global, rate, 0.25 -> 4, default 1. PlaybackCents: Global, cents,
// -2400 -> 2400, default 0.
CF_ENUM(AudioUnitParameterID) {
    kVarispeedParam_PlaybackRate                = 0,
    kVarispeedParam_PlaybackCents               = 1
};

// ---- Effect units. Ranges as Apple documents them (SampleRate/2 meaning Nyquist at the unit's rate).

// AUBandpass: centre Hz 20 -> SR/2, 5000; bandwidth in cents 100 -> 12000, 600.
CF_ENUM(AudioUnitParameterID) {
    kBandpassParam_CenterFrequency              = 0,
    kBandpassParam_Bandwidth                    = 1
};

// AUHipass / AULowpass: cutoff Hz 10 -> SR/2, 6900; resonance dB -20 -> 40, 0.
CF_ENUM(AudioUnitParameterID) {
    kHipassParam_CutoffFrequency                = 0,
    kHipassParam_Resonance                      = 1
};
CF_ENUM(AudioUnitParameterID) {
    kLowPassParam_CutoffFrequency               = 0,
    kLowPassParam_Resonance                     = 1
};

// AUHighShelfFilter: cutoff Hz 10000 -> SR/2, 10000; gain dB -40 -> 40, 0.
CF_ENUM(AudioUnitParameterID) {
    kHighShelfParam_CutOffFrequency             = 0,
    kHighShelfParam_Gain                        = 1
};

// AULowShelfFilter: cutoff Hz 10 -> 200, 80; gain dB -40 -> 40, 0.
CF_ENUM(AudioUnitParameterID) {
    kAULowShelfParam_CutoffFrequency            = 0,
    kAULowShelfParam_Gain                       = 1
};

// AUParametricEQ: centre Hz 20 -> SR/2, 2000; Q 0.1 -> 20, 1; gain dB -20 -> 20, 0.
CF_ENUM(AudioUnitParameterID) {
    kParametricEQParam_CenterFreq               = 0,
    kParametricEQParam_Q                        = 1,
    kParametricEQParam_Gain                     = 2
};

// AUPeakLimiter: attack s 0.001 -> 0.03, 0.012; decay s 0.001 -> 0.06, 0.024; pre-gain dB -40 -> 40, 0.
CF_ENUM(AudioUnitParameterID) {
    kLimiterParam_AttackTime                    = 0,
    kLimiterParam_DecayTime                     = 1,
    kLimiterParam_PreGain                       = 2
};

// AUDynamicsProcessor. No fixed ratio: the output is kept under Threshold + HeadRoom. Threshold dB -40 -> 20,
// -20; HeadRoom dB 0.1 -> 40, 5; ExpansionRatio 1 -> 50, 2; ExpansionThreshold dB; Attack s 0.0001 -> 0.2,
// 0.001; Release s 0.01 -> 3, 0.05; OverallGain dB -40 -> 40, 0. The 1000s are read-only meters in dB.
CF_ENUM(AudioUnitParameterID) {
    kDynamicsProcessorParam_Threshold           = 0,
    kDynamicsProcessorParam_HeadRoom            = 1,
    kDynamicsProcessorParam_ExpansionRatio      = 2,
    kDynamicsProcessorParam_ExpansionThreshold  = 3,
    kDynamicsProcessorParam_AttackTime          = 4,
    kDynamicsProcessorParam_ReleaseTime         = 5,
    kDynamicsProcessorParam_OverallGain         = 6,
    kDynamicsProcessorParam_MasterGain          = kDynamicsProcessorParam_OverallGain,
    kDynamicsProcessorParam_CompressionAmount   = 1000,
    kDynamicsProcessorParam_InputAmplitude      = 2000,
    kDynamicsProcessorParam_OutputAmplitude     = 3000
};

// AUDistortion, all Global: delay ms 0.1 -> 500, 0.1; decay 0.1 -> 50, 1; delay mix % 50; decimation %;
// rounding %; decimation mix % 50; linear 0 -> 1, 1; squared and cubic 0 -> 20, 0; polynomial mix % 50;
// ring-mod frequencies Hz 0.5 -> 8000, 100; balance % 50; ring-mod mix % 0; soft-clip gain dB -80 -> 20, -6;
// final mix % 50.
CF_ENUM(AudioUnitParameterID) {
    kDistortionParam_Delay                      = 0,
    kDistortionParam_Decay                      = 1,
    kDistortionParam_DelayMix                   = 2,
    kDistortionParam_Decimation                 = 3,
    kDistortionParam_Rounding                   = 4,
    kDistortionParam_DecimationMix              = 5,
    kDistortionParam_LinearTerm                 = 6,
    kDistortionParam_SquaredTerm                = 7,
    kDistortionParam_CubicTerm                  = 8,
    kDistortionParam_PolynomialMix              = 9,
    kDistortionParam_RingModFreq1               = 10,
    kDistortionParam_RingModFreq2               = 11,
    kDistortionParam_RingModBalance             = 12,
    kDistortionParam_RingModMix                 = 13,
    kDistortionParam_SoftClipGain               = 14,
    kDistortionParam_FinalMix                   = 15
};

// AUDelay: wet/dry equal-power crossfade 0 -> 100, 50; delay s 0 -> 2, 1; feedback % -100 -> 100, 50;
// low-pass cutoff in the loop Hz 10 -> SR/2, 15000.
CF_ENUM(AudioUnitParameterID) {
    kDelayParam_WetDryMix                       = 0,
    kDelayParam_DelayTime                       = 1,
    kDelayParam_Feedback                        = 2,
    kDelayParam_LopassCutoff                    = 3
};

// AUNBandEQ. The IDs are band 0's; band n's is the ID + n. GlobalGain has no band. Gains dB -96 -> 24, 0;
// bypass boolean, 1; filter type indexed (below), 0; frequency Hz 20 -> SR/2, 1000; bandwidth octaves
// 0.05 -> 5, 0.5.
CF_ENUM(AudioUnitParameterID) {
    kAUNBandEQParam_GlobalGain                  = 0,
    kAUNBandEQParam_BypassBand                  = 1000,
    kAUNBandEQParam_FilterType                  = 2000,
    kAUNBandEQParam_Frequency                   = 3000,
    kAUNBandEQParam_Gain                        = 4000,
    kAUNBandEQParam_Bandwidth                   = 5000
};

CF_ENUM(long) {
    kAUNBandEQFilterType_Parametric                 = 0,
    kAUNBandEQFilterType_2ndOrderButterworthLowPass = 1,
    kAUNBandEQFilterType_2ndOrderButterworthHighPass = 2,
    kAUNBandEQFilterType_ResonantLowPass            = 3,
    kAUNBandEQFilterType_ResonantHighPass           = 4,
    kAUNBandEQFilterType_BandPass                   = 5,
    kAUNBandEQFilterType_BandStop                   = 6,
    kAUNBandEQFilterType_LowShelf                   = 7,
    kAUNBandEQFilterType_HighShelf                  = 8,
    kAUNBandEQFilterType_ResonantLowShelf           = 9,
    kAUNBandEQFilterType_ResonantHighShelf          = 10,
    kNumAUNBandEQFilterTypes                        = 11
};

// AUGraphicEQ (macOS): the band count, 10 or 31. Band n's gain is parameter n (dB -12 -> 12, 0).
CF_ENUM(AudioUnitParameterID) {
    kGraphicEQParam_NumberOfBands               = 10000
};

// AUMatrixReverb (macOS).
CF_ENUM(AudioUnitParameterID) {
    kReverbParam_DryWetMix                      = 0,
    kReverbParam_SmallLargeMix                  = 1,
    kReverbParam_SmallSize                      = 2,
    kReverbParam_LargeSize                      = 3,
    kReverbParam_PreDelay                       = 4,
    kReverbParam_LargeDelay                     = 5,
    kReverbParam_SmallDensity                   = 6,
    kReverbParam_LargeDensity                   = 7,
    kReverbParam_LargeDelayRange                = 8,
    kReverbParam_SmallBrightness                = 9,
    kReverbParam_LargeBrightness                = 10,
    kReverbParam_SmallDelayRange                = 11,
    kReverbParam_ModulationRate                 = 12,
    kReverbParam_ModulationDepth                = 13,
    kReverbParam_FilterFrequency                = 14,
    kReverbParam_FilterBandwidth                = 15,
    kReverbParam_FilterGain                     = 16,
    kReverbParam_FilterType                     = 17,
    kReverbParam_FilterEnable                   = 18
};

// AUMultibandCompressor (macOS). The 1000s are read-only per-band meters in dB.
CF_ENUM(AudioUnitParameterID) {
    kMultibandCompressorParam_Pregain           = 0,
    kMultibandCompressorParam_Postgain          = 1,
    kMultibandCompressorParam_Crossover1        = 2,
    kMultibandCompressorParam_Crossover2        = 3,
    kMultibandCompressorParam_Crossover3        = 4,
    kMultibandCompressorParam_Threshold1        = 5,
    kMultibandCompressorParam_Threshold2        = 6,
    kMultibandCompressorParam_Threshold3        = 7,
    kMultibandCompressorParam_Threshold4        = 8,
    kMultibandCompressorParam_Headroom1         = 9,
    kMultibandCompressorParam_Headroom2         = 10,
    kMultibandCompressorParam_Headroom3         = 11,
    kMultibandCompressorParam_Headroom4         = 12,
    kMultibandCompressorParam_AttackTime        = 13,
    kMultibandCompressorParam_ReleaseTime       = 14,
    kMultibandCompressorParam_EQ1               = 15,
    kMultibandCompressorParam_EQ2               = 16,
    kMultibandCompressorParam_EQ3               = 17,
    kMultibandCompressorParam_EQ4               = 18,
    kMultibandCompressorParam_CompressionAmount1 = 1000,
    kMultibandCompressorParam_CompressionAmount2 = 2000,
    kMultibandCompressorParam_CompressionAmount3 = 3000,
    kMultibandCompressorParam_CompressionAmount4 = 4000,
    kMultibandCompressorParam_InputAmplitude1   = 5000,
    kMultibandCompressorParam_InputAmplitude2   = 6000,
    kMultibandCompressorParam_InputAmplitude3   = 7000,
    kMultibandCompressorParam_InputAmplitude4   = 8000,
    kMultibandCompressorParam_OutputAmplitude1  = 9000,
    kMultibandCompressorParam_OutputAmplitude2  = 10000,
    kMultibandCompressorParam_OutputAmplitude3  = 11000,
    kMultibandCompressorParam_OutputAmplitude4  = 12000
};

// AURogerBeep (macOS): gate thresholds dB -80 -> 0, -6; gate times ms 0 -> 1000, 1000; sensitivity 0 -> 2, 2;
// roger type 0 -> 2, 0; roger gain dB -80 -> 20, -6.
CF_ENUM(AudioUnitParameterID) {
    kRogerBeepParam_InGateThreshold             = 0,
    kRogerBeepParam_InGateThresholdTime         = 1,
    kRogerBeepParam_OutGateThreshold            = 2,
    kRogerBeepParam_OutGateThresholdTime        = 3,
    kRogerBeepParam_Sensitivity                 = 4,
    kRogerBeepParam_RogerType                   = 5,
    kRogerBeepParam_RogerGain                   = 6
};

// AUStereoMixer (macOS): volume input/output 0 -> 1, 1; pan input 0 -> 1, 0.5; meters + channel.
CF_ENUM(AudioUnitParameterID) {
    kStereoMixerParam_Volume                    = 0,
    kStereoMixerParam_Pan                       = 1,
    kStereoMixerParam_PreAveragePower           = 1000,
    kStereoMixerParam_PrePeakHoldLevel          = 2000,
    kStereoMixerParam_PostAveragePower          = 3000,
    kStereoMixerParam_PostPeakHoldLevel         = 4000
};

// AUMatrixMixer: volumes on every scope (the global scope's element is input channel << 16 | output channel
// for a crosspoint); enable per input/output; meters in dB and, from 5000, linear.
CF_ENUM(AudioUnitParameterID) {
    kMatrixMixerParam_Volume                    = 0,
    kMatrixMixerParam_Enable                    = 1,
    kMatrixMixerParam_PreAveragePower           = 1000,
    kMatrixMixerParam_PrePeakHoldLevel          = 2000,
    kMatrixMixerParam_PostAveragePower          = 3000,
    kMatrixMixerParam_PostPeakHoldLevel         = 4000,
    kMatrixMixerParam_PreAveragePowerLinear     = 5000,
    kMatrixMixerParam_PrePeakHoldLevelLinear    = 6000,
    kMatrixMixerParam_PostAveragePowerLinear    = 7000,
    kMatrixMixerParam_PostPeakHoldLevelLinear   = 8000
};

// AUReverb2 (iOS; also on macOS): dry/wet 0 -> 100, 100; gain dB -20 -> 20, 0; min/max delay s
// 0.0001 -> 1, 0.008 / 0.050; decay at 0 Hz / Nyquist s 0.001 -> 20, 1.0 / 0.5; randomize reflections 1 -> 1000, 1.
CF_ENUM(AudioUnitParameterID) {
    kReverb2Param_DryWetMix                     = 0,
    kReverb2Param_Gain                          = 1,
    kReverb2Param_MinDelayTime                  = 2,
    kReverb2Param_MaxDelayTime                  = 3,
    kReverb2Param_DecayTimeAt0Hz                = 4,
    kReverb2Param_DecayTimeAtNyquist            = 5,
    kReverb2Param_RandomizeReflections          = 6
};

// Group-scope parameters of music devices: MIDI controller numbers, and status bytes (channel part 0) for
// pitch bend and pressure.
CF_ENUM(AudioUnitParameterID) {
    kAUGroupParameterID_Volume                  = 7,
    kAUGroupParameterID_Sustain                 = 64,
    kAUGroupParameterID_Sostenuto               = 66,
    kAUGroupParameterID_AllNotesOff             = 123,
    kAUGroupParameterID_ModWheel                = 1,
    kAUGroupParameterID_PitchBend               = 0xE0,
    kAUGroupParameterID_AllSoundOff             = 120,
    kAUGroupParameterID_ResetAllControllers     = 121,
    kAUGroupParameterID_Pan                     = 10,
    kAUGroupParameterID_Foot                    = 4,
    kAUGroupParameterID_ChannelPressure         = 0xD0,
    kAUGroupParameterID_KeyPressure             = 0xA0,
    kAUGroupParameterID_Expression              = 11,
    kAUGroupParameterID_DataEntry               = 6,
    kAUGroupParameterID_Volume_LSB              = kAUGroupParameterID_Volume + 32,
    kAUGroupParameterID_ModWheel_LSB            = kAUGroupParameterID_ModWheel + 32,
    kAUGroupParameterID_Pan_LSB                 = kAUGroupParameterID_Pan + 32,
    kAUGroupParameterID_Foot_LSB                = kAUGroupParameterID_Foot + 32,
    kAUGroupParameterID_Expression_LSB          = kAUGroupParameterID_Expression + 32,
    kAUGroupParameterID_DataEntry_LSB           = kAUGroupParameterID_DataEntry + 32,
    kAUGroupParameterID_KeyPressure_FirstKey    = 256,
    kAUGroupParameterID_KeyPressure_LastKey     = 383
};

// AUSampler (global): gain dB -90 -> 12, 0; coarse tuning semitones -24 -> 24, 0; fine tuning cents
// -99 -> 99, 0; pan -1 -> 1, 0.
CF_ENUM(AudioUnitParameterID) {
    kAUSamplerParam_Gain                        = 900,
    kAUSamplerParam_CoarseTuning                = 901,
    kAUSamplerParam_FineTuning                  = 902,
    kAUSamplerParam_Pan                         = 903
};

// DLSMusicDevice / AUMIDISynth (global): tuning cents -1200 -> 1200, 0; volume dB -120 -> 40, 0; reverb volume
// dB -120 -> 40, 0.
CF_ENUM(AudioUnitParameterID) {
    kMusicDeviceParam_Tuning                    = 0,
    kMusicDeviceParam_Volume                    = 1,
    kMusicDeviceParam_ReverbVolume              = 2
};

// AUNetSend and AUNetReceive (macOS): their status parameter.
CF_ENUM(AudioUnitParameterID) {
    kAUNetReceiveParam_Status                     = 0,
    kAUNetReceiveParam_NumParameters              = 1,
    kAUNetSendParam_Status                        = 0,
    kAUNetSendParam_NumParameters                 = 1
};

enum {
    kAUNetStatus_NotConnected = 0,
    kAUNetStatus_Connected    = 1,
    kAUNetStatus_Overflow     = 2,
    kAUNetStatus_Underflow    = 3,
    kAUNetStatus_Connecting   = 4,
    kAUNetStatus_Listening    = 5
};

// The panner units (macOS).
CF_ENUM(AudioUnitParameterID) {
    kPannerParam_Gain                             = 0,
    kPannerParam_Azimuth                          = 1,
    kPannerParam_Elevation                        = 2,
    kPannerParam_Distance                         = 3,
    kPannerParam_CoordScale                       = 4,
    kPannerParam_RefDistance                      = 5
};

// AUMultibandFilter / AUFilter (macOS).
CF_ENUM(AudioUnitParameterID) {
    kMultibandFilter_LowFilterType                = 0,
    kMultibandFilter_LowFrequency                 = 1,
    kMultibandFilter_LowGain                      = 2,
    kMultibandFilter_CenterFreq1                  = 3,
    kMultibandFilter_CenterGain1                  = 4,
    kMultibandFilter_Bandwidth1                   = 5,
    kMultibandFilter_CenterFreq2                  = 6,
    kMultibandFilter_CenterGain2                  = 7,
    kMultibandFilter_Bandwidth2                   = 8,
    kMultibandFilter_CenterFreq3                  = 9,
    kMultibandFilter_CenterGain3                  = 10,
    kMultibandFilter_Bandwidth3                   = 11,
    kMultibandFilter_HighFilterType               = 12,
    kMultibandFilter_HighFrequency                = 13,
    kMultibandFilter_HighGain                     = 14
};

// AURandom (macOS).
CF_ENUM(AudioUnitParameterID) {
    kRandomParam_BoundA                           = 0,
    kRandomParam_BoundB                           = 1,
    kRandomParam_Curve                            = 2
};

// AURoundTripAAC (macOS).
CF_ENUM(AudioUnitParameterID) {
    kRoundTripAACParam_Format                     = 0,
    kRoundTripAACParam_EncodingStrategy           = 1,
    kRoundTripAACParam_RateOrQuality              = 2,
    kRoundTripAACParam_BitRate                    = 1,
    kRoundTripAACParam_Quality                    = 2,
    kRoundTripAACParam_CompressedFormatSampleRate = 3
};

// AUSoundIsolation.
CF_ENUM(AudioUnitParameterID) {
    kAUSoundIsolationParam_WetDryMixPercent       = 0,
    kAUSoundIsolationParam_SoundToIsolate         = 1
};

CF_ENUM(long) {
    kAUSoundIsolationSoundType_Voice = 1
};

#endif
