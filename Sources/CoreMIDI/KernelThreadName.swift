import Foundation

/// Names the calling thread for the kernel (ps, top and gdb show it; 15 bytes at most) by writing
/// /proc/thread-self/comm. Foundation's Thread.name setter can race with the thread's start and leave the name
/// inherited from the creating thread (seen under load); pthread_setname_np is not visible to Swift here.
func setKernelThreadName(_ name: String) {
    let fd = open("/proc/thread-self/comm", O_WRONLY)
    guard fd >= 0 else { return }
    defer { close(fd) }
    let bytes = Array(name.utf8.prefix(15))
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
}
