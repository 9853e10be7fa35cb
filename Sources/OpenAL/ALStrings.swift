#if canImport(Glibc)
import Glibc
#endif

/// The C strings alGetString and alcGetString hand out: made once, never freed (their pointers stay valid
/// for the life of the process, as the spec requires).
enum ALStrings {
    static let alExtensions = "AL_EXT_float32 AL_EXT_OFFSET"
    static let alcExtensions = "ALC_ENUMERATE_ALL_EXT ALC_EXT_CAPTURE ALC_EXT_MAC_OSX ALC_SOFT_HRTF ALC_SOFT_loopback"
    /// ALC_HRTF_SPECIFIER_SOFT: the 3D mixer's HRTF data (libmysofa's default SOFA set, MIT KEMAR).
    static let hrtfSpecifier = "MIT KEMAR (libmysofa default.sofa)"
    static let defaultDevice = "OpenCoreAudio Default"
    static let defaultCaptureDevice = "OpenCoreAudio Default Input"

    nonisolated(unsafe) private static var table: [String: UnsafePointer<CChar>] = [:]
    nonisolated(unsafe) private static let lock: UnsafeMutablePointer<pthread_mutex_t> = {
        let m = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(m, nil)
        return m
    }()

    /// A process-lifetime C string with `text`'s contents (one per distinct text).
    static func c(_ text: String) -> UnsafePointer<CChar> {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        if let p = table[text] { return p }
        let p = UnsafePointer(strdup(text)!)
        table[text] = p
        return p
    }

    /// A device list string: names each ended by NUL, then one more NUL.
    static func list(_ names: [String]) -> UnsafePointer<CChar> {
        let key = "\u{1}list:" + names.joined(separator: "\u{0}")
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        if let p = table[key] { return p }
        var bytes: [CChar] = []
        for n in names { bytes += n.utf8CString }
        bytes.append(0)
        let p = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
        p.initialize(from: bytes, count: bytes.count)
        table[key] = UnsafePointer(p)
        return UnsafePointer(p)
    }

    /// The AL error string of an error code, or nil if `e` is no error code.
    static func alError(_ e: ALenum) -> String? {
        switch e {
        case AL_NO_ERROR: return "No Error"
        case AL_INVALID_NAME: return "Invalid Name"
        case AL_INVALID_ENUM: return "Invalid Enum"
        case AL_INVALID_VALUE: return "Invalid Value"
        case AL_INVALID_OPERATION: return "Invalid Operation"
        case AL_OUT_OF_MEMORY: return "Out of Memory"
        default: return nil
        }
    }
}
