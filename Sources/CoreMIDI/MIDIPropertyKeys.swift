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

// The remaining names of MIDIServices.h; the in-process server stores them like any other property.
/// Property `canRoute` (kMIDIPropertyCanRoute in MIDIServices.h).
public var kMIDIPropertyCanRoute: CFString { "canRoute" as CFString }
/// Property `driverDeviceEditorApp` (kMIDIPropertyDriverDeviceEditorApp in MIDIServices.h).
public var kMIDIPropertyDriverDeviceEditorApp: CFString { "driverDeviceEditorApp" as CFString }
/// Property `factoryPatchNameFile` (kMIDIPropertyFactoryPatchNameFile in MIDIServices.h).
public var kMIDIPropertyFactoryPatchNameFile: CFString { "factoryPatchNameFile" as CFString }
/// Property `image` (kMIDIPropertyImage in MIDIServices.h).
public var kMIDIPropertyImage: CFString { "image" as CFString }
/// Property `isDrumMachine` (kMIDIPropertyIsDrumMachine in MIDIServices.h).
public var kMIDIPropertyIsDrumMachine: CFString { "isDrumMachine" as CFString }
/// Property `isEffectUnit` (kMIDIPropertyIsEffectUnit in MIDIServices.h).
public var kMIDIPropertyIsEffectUnit: CFString { "isEffectUnit" as CFString }
/// Property `isMixer` (kMIDIPropertyIsMixer in MIDIServices.h).
public var kMIDIPropertyIsMixer: CFString { "isMixer" as CFString }
/// Property `isSampler` (kMIDIPropertyIsSampler in MIDIServices.h).
public var kMIDIPropertyIsSampler: CFString { "isSampler" as CFString }
/// Property `maxReceiveChannels` (kMIDIPropertyMaxReceiveChannels in MIDIServices.h).
public var kMIDIPropertyMaxReceiveChannels: CFString { "maxReceiveChannels" as CFString }
/// Property `maxTransmitChannels` (kMIDIPropertyMaxTransmitChannels in MIDIServices.h).
public var kMIDIPropertyMaxTransmitChannels: CFString { "maxTransmitChannels" as CFString }
/// Property `nameConfiguration` (kMIDIPropertyNameConfiguration in MIDIServices.h).
public var kMIDIPropertyNameConfiguration: CFString { "nameConfiguration" as CFString }
/// Property `nameConfigurationDictionary` (kMIDIPropertyNameConfigurationDictionary in MIDIServices.h).
public var kMIDIPropertyNameConfigurationDictionary: CFString { "nameConfigurationDictionary" as CFString }
/// Property `panDisruptsStereo` (kMIDIPropertyPanDisruptsStereo in MIDIServices.h).
public var kMIDIPropertyPanDisruptsStereo: CFString { "panDisruptsStereo" as CFString }
/// Property `receivesBankSelectLSB` (kMIDIPropertyReceivesBankSelectLSB in MIDIServices.h).
public var kMIDIPropertyReceivesBankSelectLSB: CFString { "receivesBankSelectLSB" as CFString }
/// Property `receivesBankSelectMSB` (kMIDIPropertyReceivesBankSelectMSB in MIDIServices.h).
public var kMIDIPropertyReceivesBankSelectMSB: CFString { "receivesBankSelectMSB" as CFString }
/// Property `receivesClock` (kMIDIPropertyReceivesClock in MIDIServices.h).
public var kMIDIPropertyReceivesClock: CFString { "receivesClock" as CFString }
/// Property `receivesMTC` (kMIDIPropertyReceivesMTC in MIDIServices.h).
public var kMIDIPropertyReceivesMTC: CFString { "receivesMTC" as CFString }
/// Property `receivesNotes` (kMIDIPropertyReceivesNotes in MIDIServices.h).
public var kMIDIPropertyReceivesNotes: CFString { "receivesNotes" as CFString }
/// Property `receivesProgramChanges` (kMIDIPropertyReceivesProgramChanges in MIDIServices.h).
public var kMIDIPropertyReceivesProgramChanges: CFString { "receivesProgramChanges" as CFString }
/// Property `singleRealtimeEntity` (kMIDIPropertySingleRealtimeEntity in MIDIServices.h).
public var kMIDIPropertySingleRealtimeEntity: CFString { "singleRealtimeEntity" as CFString }
/// Property `supportsGeneralMIDI` (kMIDIPropertySupportsGeneralMIDI in MIDIServices.h).
public var kMIDIPropertySupportsGeneralMIDI: CFString { "supportsGeneralMIDI" as CFString }
/// Property `supportsMMC` (kMIDIPropertySupportsMMC in MIDIServices.h).
public var kMIDIPropertySupportsMMC: CFString { "supportsMMC" as CFString }
/// Property `supportsShowControl` (kMIDIPropertySupportsShowControl in MIDIServices.h).
public var kMIDIPropertySupportsShowControl: CFString { "supportsShowControl" as CFString }
/// Property `transmitsBankSelectLSB` (kMIDIPropertyTransmitsBankSelectLSB in MIDIServices.h).
public var kMIDIPropertyTransmitsBankSelectLSB: CFString { "transmitsBankSelectLSB" as CFString }
/// Property `transmitsBankSelectMSB` (kMIDIPropertyTransmitsBankSelectMSB in MIDIServices.h).
public var kMIDIPropertyTransmitsBankSelectMSB: CFString { "transmitsBankSelectMSB" as CFString }
/// Property `transmitsClock` (kMIDIPropertyTransmitsClock in MIDIServices.h).
public var kMIDIPropertyTransmitsClock: CFString { "transmitsClock" as CFString }
/// Property `transmitsMTC` (kMIDIPropertyTransmitsMTC in MIDIServices.h).
public var kMIDIPropertyTransmitsMTC: CFString { "transmitsMTC" as CFString }
/// Property `transmitsNotes` (kMIDIPropertyTransmitsNotes in MIDIServices.h).
public var kMIDIPropertyTransmitsNotes: CFString { "transmitsNotes" as CFString }
/// Property `transmitsProgramChanges` (kMIDIPropertyTransmitsProgramChanges in MIDIServices.h).
public var kMIDIPropertyTransmitsProgramChanges: CFString { "transmitsProgramChanges" as CFString }
/// Property `uMPActiveGroupBitmap` (kMIDIPropertyUMPActiveGroupBitmap in MIDIServices.h).
public var kMIDIPropertyUMPActiveGroupBitmap: CFString { "uMPActiveGroupBitmap" as CFString }
/// Property `uMPCanTransmitGroupless` (kMIDIPropertyUMPCanTransmitGroupless in MIDIServices.h).
public var kMIDIPropertyUMPCanTransmitGroupless: CFString { "uMPCanTransmitGroupless" as CFString }
/// Property `userPatchNameFile` (kMIDIPropertyUserPatchNameFile in MIDIServices.h).
public var kMIDIPropertyUserPatchNameFile: CFString { "userPatchNameFile" as CFString }
