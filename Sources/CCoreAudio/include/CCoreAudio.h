#include "AudioHardwareBase.h"
#include "AudioHardware.h"
