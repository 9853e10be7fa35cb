// The block types of MIDIServices.h, as Swift sees Apple's.

/// Called when the MIDI setup changes (MIDIClientCreateWithBlock).
public typealias MIDINotifyBlock = (UnsafePointer<MIDINotification>) -> Void
/// Receives MIDI 1.0 packet lists (MIDIInputPortCreateWithBlock, MIDIDestinationCreateWithBlock).
public typealias MIDIReadBlock = (UnsafePointer<MIDIPacketList>, UnsafeMutableRawPointer?) -> Void
/// Receives UMP event lists (MIDIInputPortCreateWithProtocol, MIDIDestinationCreateWithProtocol).
public typealias MIDIReceiveBlock = (UnsafePointer<MIDIEventList>, UnsafeMutableRawPointer?) -> Void
