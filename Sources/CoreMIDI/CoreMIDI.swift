// The CoreMIDI module: Core MIDI's C API (MIDIServices.h and MIDIMessages.h, declared in the C target
// CCoreMIDI as the Clang module CoreMIDI; this Swift module is its overlay and implements the functions),
// in process: clients, ports, virtual sources and destinations, MIDI 1.0 packet lists and UMP event
// lists with conversion between them, and network sessions (RTP-MIDI, Network/). Devices come from backends (Drivers/MIDIBackends): JACK MIDI when a
// JACK server is reachable (JACK/JACKMIDIBackend: other clients' ports as devices, our virtual endpoints as
// JACK ports; found lazily through JACK_DEFAULT_SERVER, never started) and the ALSA sequencer when
// /dev/snd/seq opens (ALSA/ALSASequencerBackend: clients as devices, ports as entities, our virtual endpoints as
// sequencer ports); without either the lists are empty. Thru connections run in process (Thru/).
//
// Threading: every call may come from any thread; the object table sits behind one process-wide lock,
// never held while a client's callback runs. Incoming MIDI (read procs and blocks, receive blocks) is
// delivered on the module's own MIDI thread (user-interactive priority), never on the caller's thread,
// in timestamp order (ties in sending order); a packet whose timestamp lies in the future is delivered
// when AudioGetCurrentHostTime reaches it, and MIDIFlushOutput drops such packets still waiting for a
// destination. Notify procs and blocks and MIDISendSysex completions are called on that thread as well.
@_exported import CoreAudio
