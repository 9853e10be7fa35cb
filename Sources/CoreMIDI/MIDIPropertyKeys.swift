// Property names (Apple's header declares them as extern CFStringRefs; these are their values).

/// The object's name.
public var kMIDIPropertyName: CFString { "name" as CFString }
/// The device's manufacturer.
public var kMIDIPropertyManufacturer: CFString { "manufacturer" as CFString }
/// The device's model.
public var kMIDIPropertyModel: CFString { "model" as CFString }
/// The object's system-wide unique ID.
public var kMIDIPropertyUniqueID: CFString { "uniqueID" as CFString }
/// The device ID (sysex).
public var kMIDIPropertyDeviceID: CFString { "deviceID" as CFString }
/// Bitmap of channels received.
public var kMIDIPropertyReceiveChannels: CFString { "receiveChannels" as CFString }
/// Bitmap of channels transmitted.
public var kMIDIPropertyTransmitChannels: CFString { "transmitChannels" as CFString }
/// Maximum sysex speed in bytes per second.
public var kMIDIPropertyMaxSysExSpeed: CFString { "maxSysExSpeed" as CFString }
/// How far ahead of time the endpoint wants scheduled events, in microseconds.
public var kMIDIPropertyAdvanceScheduleTimeMuSec: CFString { "scheduleAheadMuSec" as CFString }
/// Whether the entity is embedded.
public var kMIDIPropertyIsEmbeddedEntity: CFString { "embedded" as CFString }
/// Whether the entity is a broadcast one.
public var kMIDIPropertyIsBroadcast: CFString { "isBroadcast" as CFString }
/// The unique ID of what an external device is connected to.
public var kMIDIPropertyConnectionUniqueID: CFString { "connUniqueID" as CFString }
/// Whether the object is offline.
public var kMIDIPropertyOffline: CFString { "offline" as CFString }
/// Whether the endpoint is hidden from other clients.
public var kMIDIPropertyPrivate: CFString { "private" as CFString }
/// The driver owning the device.
public var kMIDIPropertyDriverOwner: CFString { "driver" as CFString }
/// The driver's version.
public var kMIDIPropertyDriverVersion: CFString { "driverVersion" as CFString }
/// The name to show users (for an endpoint: device, entity and endpoint names combined).
public var kMIDIPropertyDisplayName: CFString { "displayName" as CFString }
/// The MIDIProtocolID an endpoint speaks.
public var kMIDIPropertyProtocolID: CFString { "protocol" as CFString }
