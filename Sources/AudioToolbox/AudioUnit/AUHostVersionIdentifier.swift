/// Apple's `AUHostVersionIdentifier` (macOS), the value of kAudioUnitProperty_AUHostIdentifier: the host's name and
/// version, which a host may tell a unit. Declared in Swift because the name is a CFString.
public struct AUHostVersionIdentifier {
    public var hostName: Unmanaged<CFString>
    public var hostVersion: UInt32

    /// The memberwise initializer Swift gives the imported C struct.
    public init(hostName: Unmanaged<CFString>, hostVersion: UInt32) {
        self.hostName = hostName
        self.hostVersion = hostVersion
    }
}
