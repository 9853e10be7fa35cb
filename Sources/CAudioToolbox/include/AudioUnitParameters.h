// Parameters of Apple's built-in units (AudioUnitParameters.h), for the units implemented here.
#ifndef OCA_AUDIOUNITPARAMETERS_H
#define OCA_AUDIOUNITPARAMETERS_H

#include "AUComponent.h"

// AUSampleDelay: Global, Samples, 0 -> sample rate, default 0.
CF_ENUM(AudioUnitParameterID) {
    kSampleDelayParam_DelayFrames = 0
};

#endif
