import Foundation

extension AVAudioSession {
    /// Why the route changed (AVAudioSessionRouteChangeReasonKey).
    public enum RouteChangeReason: UInt, Sendable {
        /// The reason is not known.
        case unknown = 0
        /// A device appeared and became the route (plugged in, or its sound server came up).
        case newDeviceAvailable = 1
        /// The device of the previous route went away.
        case oldDeviceUnavailable = 2
        /// The category changed.
        case categoryChange = 3
        /// The output was overridden (overrideOutputAudioPort).
        case override = 4
        /// The system woke from sleep.
        case wakeFromSleep = 6
        /// No route suits the category.
        case noSuitableRouteForCategory = 7
        /// The route's devices are unchanged in kind but another one is now the default (its configuration changed).
        case routeConfigurationChange = 8
    }
}
