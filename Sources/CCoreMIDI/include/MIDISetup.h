// Core MIDI's MIDISetup.h: the (deprecated) setup handle; the functions are implemented by the Swift overlay.
#ifndef CCOREMIDI_SETUP_H
#define CCOREMIDI_SETUP_H
#include "MIDIServices.h"

/// A saved or installed MIDI setup (deprecated since macOS 10.6).
typedef MIDIObjectRef MIDISetupRef;

#endif
