// The userInfo keys of AVAudioSession's notifications (AVAudioSession.h), with Apple's string values.
import Foundation

/// Interruption notification: an NSNumber holding an AVAudioSession.InterruptionType raw value.
public let AVAudioSessionInterruptionTypeKey = "AVAudioSessionInterruptionTypeKey"
/// Interruption notification (when it ended): an NSNumber holding AVAudioSession.InterruptionOptions.
public let AVAudioSessionInterruptionOptionKey = "AVAudioSessionInterruptionOptionKey"
/// Interruption notification: an NSNumber holding an AVAudioSession.InterruptionReason raw value.
public let AVAudioSessionInterruptionReasonKey = "AVAudioSessionInterruptionReasonKey"
/// Interruption notification (former): whether the application was suspended.
public let AVAudioSessionInterruptionWasSuspendedKey = "AVAudioSessionInterruptionWasSuspendedKey"
/// Route-change notification: an NSNumber holding an AVAudioSession.RouteChangeReason raw value.
public let AVAudioSessionRouteChangeReasonKey = "AVAudioSessionRouteChangeReasonKey"
/// Route-change notification: the AVAudioSessionRouteDescription in use before the change.
public let AVAudioSessionRouteChangePreviousRouteKey = "AVAudioSessionRouteChangePreviousRouteKey"
/// Silence-secondary-audio notification: an NSNumber holding an AVAudioSession.SilenceSecondaryAudioHintType raw value.
public let AVAudioSessionSilenceSecondaryAudioHintTypeKey = "AVAudioSessionSilenceSecondaryAudioHintTypeKey"
