import Synchronization

/// This process's input mute (AVAudioApplication's `setInputMuted`): while set, every device's IO thread zeroes the
/// input it read before any IOProc sees it. The device and the sound server are not touched, so other programs
/// still hear the microphone.
package enum ProcessInputMute {
    /// Whether input is muted (read by the IO threads once per cycle).
    package static let muted = Atomic<Bool>(false)
}
