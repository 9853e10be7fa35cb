// Parameters of Apple's built-in units (AudioUnitParameters.h), for the units implemented here.
#ifndef OCA_AUDIOUNITPARAMETERS_H
#define OCA_AUDIOUNITPARAMETERS_H

#include "AUComponent.h"

// AUSampleDelay: Global, Samples, 0 -> sample rate, default 0.
CF_ENUM(AudioUnitParameterID) {
    kSampleDelayParam_DelayFrames = 0
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

#endif
