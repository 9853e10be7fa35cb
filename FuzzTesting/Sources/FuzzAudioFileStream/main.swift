// libFuzzer target (FuzzAudioFileStream): any crash, hang or sanitizer report is a bug.
import AudioToolbox
import FileExercises

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let data = UnsafeRawBufferPointer(start: bytes, count: size)
    exerciseStream(data, pieces: 1); exerciseStream(data, pieces: 7)
    return 0
}
