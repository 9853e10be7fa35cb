// AVFAudio: Apple's Objective-C audio classes (AVAudioEngine and its nodes, AVAudioFile, AVAudioPCMBuffer,
// AVAudioFormat, AVAudioConverter, AVAudioTime) as Swift classes on NSObject, built on the public C API of
// AudioToolbox and CoreAudio as Apple's are. Errors are NSErrors in NSOSStatusErrorDomain with Apple's codes.
//
// Threading: objects may be used from any thread, one call at a time per object, as Apple documents. Render
// blocks (AVAudioSourceNode, AVAudioSinkNode, the manual rendering block) run on the render thread; taps,
// completion handlers and file reading run on a service thread of the module's own, never the render thread.
@_exported import AudioToolbox
@_exported import CoreAudioTypes
@_exported import Foundation
