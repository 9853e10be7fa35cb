// CF-lite: the few CoreFoundation names Core Audio client code uses, on top of Foundation.
// CF object types are aliases of their toll-free-bridged Foundation classes, so `url as CFURL` and
// `"name" as CFString` compile and bridge as they do on Apple's platforms.

public typealias CFTypeRef = AnyObject
public typealias CFPropertyList = CFTypeRef
public typealias CFString = NSString
public typealias CFMutableString = NSMutableString
public typealias CFURL = NSURL
public typealias CFData = NSData
public typealias CFMutableData = NSMutableData
public typealias CFArray = NSArray
public typealias CFMutableArray = NSMutableArray
public typealias CFDictionary = NSDictionary
public typealias CFMutableDictionary = NSMutableDictionary
public typealias CFNumber = NSNumber
public typealias CFIndex = Int
public typealias CFTimeInterval = Double
public typealias CFAbsoluteTime = CFTimeInterval

/// Stand-in for CoreFoundation's allocator objects; only the default allocator exists.
public final class CFAllocator: Sendable {
    init() {}
}

/// The default allocator (Apple's `kCFAllocatorDefault`, which is NULL there too).
public var kCFAllocatorDefault: CFAllocator! { nil }

/// Path styles for `CFURLCreateWithFileSystemPath`.
public enum CFURLPathStyle: CFIndex, Sendable {
    case cfurlposixPathStyle = 0
    case cfurlhfsPathStyle = 1
    case cfurlWindowsPathStyle = 2
}

/// Creates a file URL from a path, as `CFURLCreateWithFileSystemPath` does.
@discardableResult
public func CFURLCreateWithFileSystemPath(
    _ allocator: CFAllocator!, _ filePath: CFString!, _ pathStyle: CFURLPathStyle, _ isDirectory: Bool
) -> CFURL! {
    guard let filePath else { return nil }
    return NSURL(fileURLWithPath: filePath as String, isDirectory: isDirectory)
}

/// Seconds since 2001-01-01 00:00:00 UTC.
@discardableResult
public func CFAbsoluteTimeGetCurrent() -> CFAbsoluteTime {
    Date().timeIntervalSinceReferenceDate
}

/// The number of values in `theArray` (0 for nil), as CoreFoundation's.
@discardableResult
public func CFArrayGetCount(_ theArray: CFArray!) -> CFIndex { theArray?.count ?? 0 }

/// The element at `idx`. Arrays of raw pointers (such as the AUPreset list of
/// `kAudioUnitProperty_FactoryPresets`) hold `_CFRawPointerBox` elements, returned as their pointer;
/// object elements are returned unretained, as CoreFoundation does.
@discardableResult
public func CFArrayGetValueAtIndex(_ theArray: CFArray!, _ idx: CFIndex) -> UnsafeRawPointer! {
    let element = theArray.object(at: idx) as AnyObject
    if let box = element as? _CFRawPointerBox { return box.pointer }
    return UnsafeRawPointer(Unmanaged.passUnretained(element).toOpaque())
}

/// Holds a raw pointer inside an NSArray (CoreFoundation arrays may hold non-objects; NSArray cannot).
open class _CFRawPointerBox: NSObject, @unchecked Sendable {
    public let pointer: UnsafeRawPointer
    /// Boxes a raw pointer so a CFArray can hold it.
    public init(_ pointer: UnsafeRawPointer) { self.pointer = pointer }
}

/// CoreFoundation's `CFSwapInt16`.
@discardableResult @inlinable public func CFSwapInt16(_ arg: UInt16) -> UInt16 { arg.byteSwapped }
/// CoreFoundation's `CFSwapInt32`.
@discardableResult @inlinable public func CFSwapInt32(_ arg: UInt32) -> UInt32 { arg.byteSwapped }
/// CoreFoundation's `CFSwapInt64`.
@discardableResult @inlinable public func CFSwapInt64(_ arg: UInt64) -> UInt64 { arg.byteSwapped }
/// CoreFoundation's `CFSwapInt16BigToHost`.
@discardableResult @inlinable public func CFSwapInt16BigToHost(_ arg: UInt16) -> UInt16 { UInt16(bigEndian: arg) }
/// CoreFoundation's `CFSwapInt32BigToHost`.
@discardableResult @inlinable public func CFSwapInt32BigToHost(_ arg: UInt32) -> UInt32 { UInt32(bigEndian: arg) }
/// CoreFoundation's `CFSwapInt64BigToHost`.
@discardableResult @inlinable public func CFSwapInt64BigToHost(_ arg: UInt64) -> UInt64 { UInt64(bigEndian: arg) }
/// CoreFoundation's `CFSwapInt16HostToBig`.
@discardableResult @inlinable public func CFSwapInt16HostToBig(_ arg: UInt16) -> UInt16 { arg.bigEndian }
/// CoreFoundation's `CFSwapInt32HostToBig`.
@discardableResult @inlinable public func CFSwapInt32HostToBig(_ arg: UInt32) -> UInt32 { arg.bigEndian }
/// CoreFoundation's `CFSwapInt64HostToBig`.
@discardableResult @inlinable public func CFSwapInt64HostToBig(_ arg: UInt64) -> UInt64 { arg.bigEndian }
/// CoreFoundation's `CFSwapInt16LittleToHost`.
@discardableResult @inlinable public func CFSwapInt16LittleToHost(_ arg: UInt16) -> UInt16 { UInt16(littleEndian: arg) }
/// CoreFoundation's `CFSwapInt32LittleToHost`.
@discardableResult @inlinable public func CFSwapInt32LittleToHost(_ arg: UInt32) -> UInt32 { UInt32(littleEndian: arg) }
/// CoreFoundation's `CFSwapInt64LittleToHost`.
@discardableResult @inlinable public func CFSwapInt64LittleToHost(_ arg: UInt64) -> UInt64 { UInt64(littleEndian: arg) }
/// CoreFoundation's `CFSwapInt16HostToLittle`.
@discardableResult @inlinable public func CFSwapInt16HostToLittle(_ arg: UInt16) -> UInt16 { arg.littleEndian }
/// CoreFoundation's `CFSwapInt32HostToLittle`.
@discardableResult @inlinable public func CFSwapInt32HostToLittle(_ arg: UInt32) -> UInt32 { arg.littleEndian }
/// CoreFoundation's `CFSwapInt64HostToLittle`.
@discardableResult @inlinable public func CFSwapInt64HostToLittle(_ arg: UInt64) -> UInt64 { arg.littleEndian }
