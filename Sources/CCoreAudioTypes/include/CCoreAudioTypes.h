#include "OCAMacros.h"
#include "CoreAudioBaseTypes.h"
#include "AudioChannelLayout.h"
#include "AudioSessionTypes.h"
