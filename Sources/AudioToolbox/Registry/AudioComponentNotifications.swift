import Foundation

// AUComponent.h's notifications, posted to the process's default NotificationCenter (Apple's local center).

/// Posted (object nil) after `AudioComponentRegister` adds a component, so hosts can refresh their lists.
nonisolated(unsafe) public let kAudioComponentRegistrationsChangedNotification: CFString = "AudioComponentRegistrationsChangedNotification" as CFString

/// Posted by Apple when an out-of-process unit's instance dies (its userInfo's "audioUnit" names it). Every
/// unit here runs in the host's process, so it is never posted; it is declared so observers build.
nonisolated(unsafe) public let kAudioComponentInstanceInvalidationNotification: CFString = "AudioComponentInstanceInvalidationNotification" as CFString
