import Foundation

/// Where a file's bytes live: a POSIX file, or a client's read/write/size callbacks. Every read is
/// bounds-checked against the real size; containers never trust their own headers for that.
/// Never used on the render thread.
final class ByteStore {
    enum Backing {
        case file(Int32)
        case callbacks(client: UnsafeMutableRawPointer, read: AudioFile_ReadProc, write: AudioFile_WriteProc?,
                       getSize: AudioFile_GetSizeProc, setSize: AudioFile_SetSizeProc?)
        /// Bytes already in memory (AudioFileStream parses what has arrived so far).
        case memory([UInt8])
    }

    let backing: Backing
    let writable: Bool
    /// What the last failed write or resize said (errno; 0 for a callback or memory store).
    private(set) var writeErrno: Int32 = 0

    /// What the last read's failure said (errno; 0 when it only reached the end of the file).
    private(set) var readErrno: Int32 = 0

    /// The status to report for the last failed write or resize.
    var writeFailure: OSStatus {
        if !writable { return kAudioFilePermissionsError }
        return writeErrno == 0 ? kAudioFilePermissionsError : FileSystemStatus.from(errno: writeErrno)
    }

    init(_ backing: Backing, writable: Bool) {
        self.backing = backing
        self.writable = writable
    }

    deinit {
        if case .file(let fd) = backing { close(fd) }
    }

    var size: Int64 {
        switch backing {
        case .file(let fd):
            var st = stat()
            return fstat(fd, &st) == 0 ? Int64(st.st_size) : 0
        case .callbacks(let client, _, _, let getSize, _):
            return getSize(client)
        case .memory(let bytes):
            return Int64(bytes.count)
        }
    }

    /// Reads up to `count` bytes at `offset`; returns how many were read (short at the end).
    func read(at offset: Int64, count: Int, into buffer: UnsafeMutableRawPointer) -> Int {
        guard offset >= 0, count > 0 else { return 0 }
        switch backing {
        case .file(let fd):
            var done = 0
            readErrno = 0
            while done < count {
                let n = pread(fd, buffer + done, count - done, off_t(offset) + off_t(done))
                if n < 0 && errno == EINTR { continue }
                if n < 0 { readErrno = errno }
                if n <= 0 { break }
                done += n
            }
            return done
        case .callbacks(let client, let readProc, _, _, _):
            var actual: UInt32 = 0
            let status = readProc(client, offset, UInt32(clamping: count), buffer, &actual)
            return status == noErr ? Int(min(actual, UInt32(clamping: count))) : 0
        case .memory(let bytes):
            guard offset < Int64(bytes.count) else { return 0 }
            let n = min(count, bytes.count - Int(offset))
            bytes.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress! + Int(offset), byteCount: n) }
            return n
        }
    }

    /// Reads exactly `count` bytes, or nil.
    func bytes(at offset: Int64, count: Int) -> [UInt8]? {
        guard count >= 0, count <= 1 << 28 else { return nil }
        var out = [UInt8](repeating: 0, count: count)
        let n = out.withUnsafeMutableBytes { read(at: offset, count: count, into: $0.baseAddress!) }
        return n == count ? out : nil
    }

    @discardableResult
    func write(at offset: Int64, _ buffer: UnsafeRawPointer, count: Int) -> Bool {
        guard writable, offset >= 0 else { return false }
        if count == 0 { return true }
        switch backing {
        case .file(let fd):
            var done = 0
            while done < count {
                let n = pwrite(fd, buffer + done, count - done, off_t(offset) + off_t(done))
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { writeErrno = n == 0 ? ENOSPC : errno; return false }
                done += n
            }
            return true
        case .callbacks(let client, _, let writeProc, _, _):
            guard let writeProc else { return false }
            var actual: UInt32 = 0
            return writeProc(client, offset, UInt32(clamping: count), buffer, &actual) == noErr && Int(actual) == count
        case .memory:
            return false
        }
    }

    @discardableResult
    func write(at offset: Int64, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { write(at: offset, $0.baseAddress!, count: bytes.count) }
    }

    func truncate(to size: Int64) -> Bool {
        switch backing {
        case .file(let fd):
            if ftruncate(fd, off_t(size)) == 0 { return true }
            writeErrno = errno
            return false
        case .callbacks(let client, _, _, _, let setSize): return setSize.map { $0(client, size) == noErr } ?? false
        case .memory: return false
        }
    }
}

/// Big- and little-endian field access over a byte array, with bounds checks (nil when out of range).
struct ByteReader {
    let bytes: [UInt8]
    var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var remaining: Int { bytes.count - position }

    mutating func skip(_ n: Int) -> Bool {
        guard n >= 0, n <= remaining else { return false }
        position += n
        return true
    }

    mutating func take(_ n: Int) -> ArraySlice<UInt8>? {
        guard n >= 0, n <= remaining else { return nil }
        defer { position += n }
        return bytes[position..<position + n]
    }

    mutating func uint(_ n: Int, bigEndian: Bool) -> UInt64? {
        guard let s = take(n) else { return nil }
        var v: UInt64 = 0
        if bigEndian { for b in s { v = v << 8 | UInt64(b) } } else { for b in s.reversed() { v = v << 8 | UInt64(b) } }
        return v
    }

    mutating func u16le() -> UInt16? { uint(2, bigEndian: false).map { UInt16($0) } }
    mutating func u32le() -> UInt32? { uint(4, bigEndian: false).map { UInt32($0) } }
    mutating func u64le() -> UInt64? { uint(8, bigEndian: false) }
    mutating func u16be() -> UInt16? { uint(2, bigEndian: true).map { UInt16($0) } }
    mutating func u32be() -> UInt32? { uint(4, bigEndian: true).map { UInt32($0) } }
    mutating func u64be() -> UInt64? { uint(8, bigEndian: true) }
    mutating func fourCC() -> UInt32? { u32be() }

    /// Four printable ASCII characters, as every RIFF and IFF chunk ID is.
    static func isChunkID(_ b: ArraySlice<UInt8>) -> Bool { b.count == 4 && b.allSatisfy { $0 >= 0x20 && $0 < 0x7F } }
}

/// Little- and big-endian field writing.
struct ByteWriter {
    var bytes: [UInt8] = []
    mutating func le(_ v: UInt64, _ n: Int) { for i in 0..<n { bytes.append(UInt8(truncatingIfNeeded: v >> UInt64(8 * i))) } }
    mutating func be(_ v: UInt64, _ n: Int) { for i in (0..<n).reversed() { bytes.append(UInt8(truncatingIfNeeded: v >> UInt64(8 * i))) } }
    mutating func fourCC(_ v: UInt32) { be(UInt64(v), 4) }
    mutating func append(_ b: [UInt8]) { bytes += b }
}
