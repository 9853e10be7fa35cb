#include "AudioComponent.h"
#include "AUComponent.h"
#include "AudioUnitProperties.h"
#include "AUGraph.h"
