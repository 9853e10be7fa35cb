// The CoreAudioTypes module: Apple's C declarations (CCoreAudioTypes) plus the Swift overlay that
// Apple's SDK layers on top of them. Apple's CoreAudioTypes re-exports CoreFoundation; on Linux the
// CoreFoundation names come from the CF-lite shim in this module, backed by Foundation.
//
// Threading: the types are plain values and may be used from any thread, the render thread included;
// `AudioBufferList.allocate` and the CF-lite objects allocate and belong off the render thread.
@_exported import CCoreAudioTypes
@_exported import Foundation
