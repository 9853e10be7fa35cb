// libFuzzer target (FuzzMIDIFile): Standard MIDI Files through MusicSequenceFileLoadData, the event
// iterator, the tempo map and the MIDI file writer. Any crash, hang or sanitizer report is a bug.
import AudioToolbox
import FileExercises

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    exerciseMIDIFile(UnsafeRawBufferPointer(start: bytes, count: size))
    return 0
}
