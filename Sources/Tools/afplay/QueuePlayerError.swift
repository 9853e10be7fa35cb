import AudioToolbox

/// Why the queue path could not play: what failed and the status it answered.
struct QueuePlayerError: Error {
    let what: String
    let status: OSStatus
}
