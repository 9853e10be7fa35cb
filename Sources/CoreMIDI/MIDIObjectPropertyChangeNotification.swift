/// What a notify proc or block receives (as a MIDINotification pointer) when a property changes. A Swift
/// struct with the C struct's layout, since its CFStringRef field has no C type here; Swift sees Apple's
/// the same way (`propertyName: Unmanaged<CFString>`).
public struct MIDIObjectPropertyChangeNotification {
    public var messageID: MIDINotificationMessageID
    public var messageSize: UInt32
    public var object: MIDIObjectRef
    public var objectType: MIDIObjectType
    public var propertyName: Unmanaged<CFString>

    /// A notification with every field given.
    public init(messageID: MIDINotificationMessageID, messageSize: UInt32, object: MIDIObjectRef, objectType: MIDIObjectType,
                propertyName: Unmanaged<CFString>) {
        self.messageID = messageID
        self.messageSize = messageSize
        self.object = object
        self.objectType = objectType
        self.propertyName = propertyName
    }
}
