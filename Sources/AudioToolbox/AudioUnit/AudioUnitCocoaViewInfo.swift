/// Apple's `AudioUnitCocoaViewInfo` (macOS), the value of kAudioUnitProperty_CocoaUI: the bundle and class of a
/// unit's Cocoa view factory. No built-in unit has a view, so none answers the property; the type is here for
/// hosts that ask. Declared in Swift because its fields are CoreFoundation objects (the one-element class array
/// imports as a single value).
public struct AudioUnitCocoaViewInfo {
    public var mCocoaAUViewBundleLocation: Unmanaged<CFURL>
    public var mCocoaAUViewClass: Unmanaged<CFString>

    /// The memberwise initializer Swift gives the imported C struct.
    public init(mCocoaAUViewBundleLocation: Unmanaged<CFURL>, mCocoaAUViewClass: Unmanaged<CFString>) {
        self.mCocoaAUViewBundleLocation = mCocoaAUViewBundleLocation
        self.mCocoaAUViewClass = mCocoaAUViewClass
    }
}
