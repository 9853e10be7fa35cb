// libFuzzer target (FuzzAMR): any crash, hang or sanitizer report is a bug.
import AudioToolbox
import FileExercises

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let data = UnsafeRawBufferPointer(start: bytes, count: size)
    exerciseFile(data, hints: [kAudioFileAMRType, kAudioFile3GPType])
    return 0
}
