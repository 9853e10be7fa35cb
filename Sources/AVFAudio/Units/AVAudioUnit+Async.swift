// The async form Swift gives +[AVAudioUnit instantiateWithComponentDescription:options:completionHandler:]
// (AVAudioUnit.h): `let unit = try await AVAudioUnit.instantiate(with: description, options: [])`.
import Foundation

extension AVAudioUnit {
    /// Makes the AVAudioUnit subclass for a registered unit, as the completion-handler form does; throws its error.
    public class func instantiate(with audioComponentDescription: AudioComponentDescription,
                                  options: AudioComponentInstantiationOptions = []) async throws -> AVAudioUnit {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<AVAudioUnit, Error>) in
            instantiate(with: audioComponentDescription, options: options) { unit, error in
                if let unit {
                    continuation.resume(returning: unit)
                } else {
                    continuation.resume(throwing: error ?? AVAudioError.make(kAudioComponentErr_InstanceInvalidated))
                }
            }
        }
    }
}
