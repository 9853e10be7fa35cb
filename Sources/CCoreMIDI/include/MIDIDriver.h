// Core MIDI's MIDIDriver.h, the part clients use: device lists. The functions are implemented by the Swift
// overlay. MIDIDriverInterface (a CFPlugIn COM interface) and MIDIDriverRef are not declared: no driver
// plug-ins are loaded here.
#ifndef CCOREMIDI_DRIVER_H
#define CCOREMIDI_DRIVER_H
#include "MIDIServices.h"

/// A list of devices (disposing it does not dispose the devices).
typedef MIDIObjectRef MIDIDeviceListRef;

#endif
