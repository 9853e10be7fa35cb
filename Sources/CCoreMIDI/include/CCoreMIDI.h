#ifndef CCOREMIDI_H
#define CCOREMIDI_H
#include "MIDIServices.h"
#include "MIDIMessages.h"
#include "MIDIThruConnection.h"
#include "MIDISetup.h"
#include "MIDIDriver.h"
#endif
