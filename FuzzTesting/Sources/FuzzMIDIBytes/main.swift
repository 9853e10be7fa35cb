// libFuzzer target (FuzzMIDIBytes): Core MIDI's MIDI 1.0 byte parser, UMP conversion both ways and the message
// splitter of the JACK/ALSA backends, on hostile byte streams. Any crash, hang or sanitizer report is a bug.
@_spi(Exercises) import CoreMIDI

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    MIDIExerciseByteStream(UnsafeRawBufferPointer(start: bytes, count: size))
    return 0
}
