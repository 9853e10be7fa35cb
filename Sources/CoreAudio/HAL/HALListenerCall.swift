import Foundation

/// How a HAL property listener is called: a proc (with the registration's client data) on the HAL's notification
/// queue, or a block on its own queue (the HAL's when none was given).
enum HALListenerCall {
    case proc(AudioObjectPropertyListenerProc)
    /// `identity` is the closure's (function, context) pair, what AudioObjectRemovePropertyListenerBlock matches on.
    case block(AudioObjectPropertyListenerBlock, identity: (UnsafeRawPointer?, UnsafeRawPointer?), queue: DispatchQueue?)
}
