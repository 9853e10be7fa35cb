#include "AudioHardwareBase.h"
#include "AudioHardware.h"
#include "AudioHardwareDeprecated.h"
