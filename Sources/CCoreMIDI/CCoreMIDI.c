// Declarations only: the functions are implemented by the Swift overlay (module CoreMIDI).
