// libFuzzer target (FuzzExtAudioFile): a file read through ExtAudioFile with a client format, so the
// converter and resampler see the hostile file's rate, channels and sample layout. The last byte picks
// the client format. Any crash, hang or sanitizer report is a bug.
import AudioToolbox
import FileExercises

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let data = UnsafeRawBufferPointer(start: bytes, count: size)
    exerciseExtAudioFile(data, selector: size > 0 ? data[size - 1] : 0)
    return 0
}
