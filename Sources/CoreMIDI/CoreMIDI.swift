// The CoreMIDI module: Core MIDI's C API (MIDIServices.h and MIDIMessages.h, declared in the C target
// CCoreMIDI as the Clang module CoreMIDI; this Swift module is its overlay and implements the functions),
// in process: clients, ports, virtual sources and destinations, MIDI 1.0 packet lists and UMP event
// lists with conversion between them, and network sessions (RTP-MIDI). Devices and entities are empty lists: no
// ALSA/JACK bridging yet.
//
// Threading: every call may come from any thread; the object table sits behind one process-wide lock,
// never held while a client's callback runs. Incoming MIDI (read procs and blocks, receive blocks) is
// delivered on the module's own MIDI thread (user-interactive priority), never on the caller's thread,
// in timestamp order (ties in sending order); a packet whose timestamp lies in the future is delivered
// when AudioGetCurrentHostTime reaches it, and MIDIFlushOutput drops such packets still waiting for a
// destination. Notify procs and blocks and MIDISendSysex completions are called on that thread as well.
@_exported import CoreAudio
