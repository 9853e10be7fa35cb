// libFuzzer target (FuzzAFInfo): afinfo's full and brief reports of a file, printed into memory. Every
// field of a hostile file (packet table counts, rates, layouts, info strings) must print without a trap.
import AudioToolbox
import FileExercises

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    exerciseReport(UnsafeRawBufferPointer(start: bytes, count: size))
    return 0
}
