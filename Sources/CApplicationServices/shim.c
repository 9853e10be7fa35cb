// Declarations only; SwiftPM needs a source file in a C target.
