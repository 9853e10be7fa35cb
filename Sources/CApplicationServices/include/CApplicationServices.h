#include "SpeechSynthesis.h"
