import Foundation

// AVAudioEngine.h's manual rendering types and the configuration-change notification.

/// Why a manual rendering call failed (the OSStatus codes of its errors).
public enum AVAudioEngineManualRenderingError: OSStatus, Sendable {
    /// The engine is not in manual rendering mode, or not in the mode the call needs.
    case invalidMode = -80800
    /// The engine must be stopped for this.
    case initialized = -80801
    /// The engine must be running for this.
    case notRunning = -80802
}

/// The result of one manual render.
public enum AVAudioEngineManualRenderingStatus: Int, Sendable {
    /// The render failed; the error says why.
    case error = -1
    /// The buffer holds the requested frames.
    case success = 0
    /// The input node's block supplied fewer frames than needed.
    case insufficientDataFromInputNode = 1
    /// The render could not run now (a realtime render found the engine busy); try again.
    case cannotDoInCurrentContext = 2
}

/// Whether manual rendering is driven offline (as fast as the client asks) or from a real-time context.
public enum AVAudioEngineManualRenderingMode: Int, Sendable {
    case offline = 0
    case realtime = 1
}

/// Renders `numberOfFrames` frames into `outBuffer`; real-time safe. `outError` receives the OSStatus of a failure.
public typealias AVAudioEngineManualRenderingBlock = (_ numberOfFrames: AVAudioFrameCount, _ outBuffer: UnsafeMutablePointer<AudioBufferList>,
                                                      _ outError: UnsafeMutablePointer<OSStatus>?) -> AVAudioEngineManualRenderingStatus

/// Posted (object: the engine) when the engine's device changes; the engine follows the new device.
public let AVAudioEngineConfigurationChangeNotification = "AVAudioEngineConfigurationChangeNotification"

extension NSNotification.Name {
    /// Posted (object: the engine) when the engine's device changes; the engine follows the new device.
    public static let AVAudioEngineConfigurationChange = NSNotification.Name(AVAudioEngineConfigurationChangeNotification)
}
