/// Apple's deprecated `AUHostIdentifier` (macOS): the host's name and a NumVersion. Declared in Swift because the
/// name is a CFString.
public struct AUHostIdentifier {
    public var hostName: Unmanaged<CFString>
    public var hostVersion: AUNumVersion

    /// The memberwise initializer Swift gives the imported C struct.
    public init(hostName: Unmanaged<CFString>, hostVersion: AUNumVersion) {
        self.hostName = hostName
        self.hostVersion = hostVersion
    }
}
