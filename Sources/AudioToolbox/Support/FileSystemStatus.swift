#if canImport(Glibc)
import Glibc
#endif

/// The OSStatus for a failed system call on a file, so that a full disk, an I/O error and a permission
/// problem read differently. Apple's file APIs answer the Carbon codes here (the `kAudio_` file codes in
/// CoreAudioBaseTypes.h are the same family: fnfErr -43, permErr -54).
enum FileSystemStatus {
    /// dskFulErr: no space left on the device (or over quota).
    static let diskFull: OSStatus = -34
    /// ioErr: the device reported an I/O error.
    static let ioError: OSStatus = -36

    static func from(errno code: Int32) -> OSStatus {
        switch code {
        case ENOSPC, EDQUOT, EFBIG: return diskFull
        case EIO: return ioError
        case EACCES, EPERM, EROFS, EBADF: return kAudioFilePermissionsError
        case ESPIPE: return kAudioFilePositionError
        case EINVAL: return kAudioFileOperationNotSupportedError
        default: return ioError
        }
    }
}
