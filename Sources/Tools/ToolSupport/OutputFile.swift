// Where a tool writes its output file so that nothing it did not make is ever destroyed.
import AudioToolbox
import Foundation

/// An output file written safely. A path that does not exist yet is created exclusively and written in
/// place (a killed tool leaves a readable partial file there). A path that exists is left alone until
/// the work has succeeded: the tool writes a new file beside it and `commit()` renames that over the
/// target (same directory, so same file system, so the rename is atomic). The input, reached through
/// any name (a hard link or a symlink), is recognised by its device and inode and refused as an output.
public final class OutputFile {
    /// The path the user named.
    public let target: String
    /// Where the tool writes: `target` itself, or a hidden file beside it.
    public let writePath: String
    /// True when an existing file will be replaced at `commit()`.
    public let replacesExisting: Bool
    private var committed = false

    /// Fails with a message when `target` is one of `inputs` or is not something a file can replace.
    public init(target: String, tool: String, inputs: [String] = []) throws(OutputFileError) {
        self.target = target
        var st = stat()
        guard !target.isEmpty else { throw OutputFileError("the output file name is empty") }
        if stat(target, &st) == 0 {
            for input in inputs {
                var si = stat()
                if stat(input, &si) == 0, si.st_dev == st.st_dev, si.st_ino == st.st_ino {
                    throw OutputFileError("the output file \(target) would replace the input file \(input) (the same file, through this or another name); give another output file name")
                }
            }
            guard st.st_mode & S_IFMT == S_IFREG else {
                throw OutputFileError("the output \(target) exists and is not a regular file; give another output file name")
            }
            // Write beside the file the name finally reaches (a symlink stays a symlink).
            let real = URL(fileURLWithPath: target).resolvingSymlinksInPath().path
            let dir = (real as NSString).deletingLastPathComponent, name = (real as NSString).lastPathComponent
            writePath = (dir.isEmpty ? "" : dir + "/") + ".\(name).\(tool)-\(getpid())"
            replacesExisting = true
            unlink(writePath)  // a stale one of ours from a killed run with the same pid
        } else {
            writePath = target
            replacesExisting = false
        }
    }

    /// The URL to create the audio file at.
    public var url: CFURL {
        CFURLCreateWithFileSystemPath(kCFAllocatorDefault, writePath as CFString, .cfurlposixPathStyle, false)
    }

    /// The flags to create it with: never erase (the create fails if something appeared at the path since).
    public var createFlags: UInt32 { 0 }

    /// Puts the finished file in place: renames the new file over the target, keeping the target's
    /// permission bits. Returns a message on failure (the new file is then removed, the target kept).
    public func commit() -> String? {
        committed = true
        guard replacesExisting else { return nil }
        var st = stat()
        let real = URL(fileURLWithPath: target).resolvingSymlinksInPath().path
        if stat(real, &st) == 0 { chmod(writePath, st.st_mode & 0o7777) }
        if rename(writePath, real) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(writePath)
            return "can't replace \(target): \(reason)"
        }
        return nil
    }

    /// Removes what this tool wrote (never the existing target).
    public func discard() {
        committed = true
        unlink(writePath)
    }

    /// After an interruption: a new file is kept (finished, it holds what was written); a replacement
    /// is discarded and the existing target left as it was. Returns the path kept, if any.
    public func keepPartial() -> String? {
        committed = true
        if replacesExisting { unlink(writePath); return nil }
        return target
    }
}

/// Why an output file cannot be written.
public struct OutputFileError: Error {
    public let message: String
    /// An error with the message the tool prints.
    public init(_ message: String) { self.message = message }
}
