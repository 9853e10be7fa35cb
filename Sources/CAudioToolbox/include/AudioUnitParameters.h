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

#endif
