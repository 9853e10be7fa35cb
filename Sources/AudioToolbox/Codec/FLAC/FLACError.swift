/// Why FLAC bytes could not be parsed, decoded or encoded. Payload-free except for `needMoreData`, so the
/// hot paths return errors without allocating.
enum FLACError: Error, Equatable {
    /// The bytes end before the structure does. `atLeast` is the smallest total input length (counted from
    /// the same start as the input given) that could complete it, when known; otherwise input count + 1.
    case needMoreData(atLeast: Int)
    /// No "fLaC" marker, or no frame sync code where a frame should start.
    case badSync
    /// A frame header's CRC-8 does not match.
    case badHeaderCRC
    /// A frame's CRC-16 does not match (the audio is damaged).
    case badFrameCRC
    /// Valid FLAC that this implementation does not handle (e.g. a frame whose bit depth or channel
    /// count differs from STREAMINFO's, which the interleaved output cannot represent).
    case unsupported
    /// Values the format forbids: reserved codes, sizes that do not fit, out-of-range parameters.
    case invalid
    /// The caller's output buffer holds fewer frames than the block.
    case outputTooSmall
}
